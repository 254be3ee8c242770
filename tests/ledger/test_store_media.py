"""A ledger on read-only media or a full disk: shown (opened read-only), writes refused with a
code of their own (`read_only_store`, `disk_full`). Real mounts in a private mount namespace
(`unshare -m`, root): skipped where that is not allowed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _unshare_works() -> bool:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _unshare_works(), reason="needs root and unshare -m (a private mount)")


def _jxmj(db: str, *args: str) -> str:
    return " ".join(["PYTHONPATH=" + str(ROOT), sys.executable, "-m", "app", "table", "--db", db, *args])


def _in_namespace(script: str) -> list[dict]:
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def test_a_ledger_on_read_only_media_is_shown_and_not_changed(tmp_path):
    src, mnt = tmp_path / "src", tmp_path / "mnt"
    src.mkdir()
    mnt.mkdir()
    db = f"sqlite:///{src / 'l.sqlite3'}"
    made = subprocess.run(
        [sys.executable, "-m", "app", "table", "--db", db, "new", "--variant", "xingzi", "--seats", *"abcd"],
        cwd=ROOT, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    code = json.loads(made.stdout)["code"]
    ro = f"sqlite:///{mnt / 'l.sqlite3'}"
    shown, drawn = _in_namespace(
        f"mount --bind {src} {mnt} && mount -o remount,bind,ro {mnt} && "
        f"{_jxmj(ro, 'show', code)}; {_jxmj(ro, 'drawn', code)}"
    )
    assert shown["table"]["code"] == code and shown["hands"] == []
    assert drawn["code"] == "read_only_store" and "it can be shown, not changed" in drawn["error"]


def test_a_full_disk_has_its_own_code_and_the_ledger_is_still_shown(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    db = f"sqlite:///{mnt / 'l.sqlite3'}"
    out = _in_namespace(
        f"mount -t tmpfs -o size=4m tmpfs {mnt} && "  # a new ledger: 10 pages of 64 KiB
        f"{_jxmj(db, 'new', '--variant', 'xingzi', '--seats', 'a', 'b', 'c', 'd')} > {mnt}/new.json && "
        f'cat {mnt}/new.json && CODE=$(sed \'s/.*"code": "\\([A-Z0-9]*\\)".*/\\1/\' {mnt}/new.json) && '
        f"dd if=/dev/zero of={mnt}/filler bs=4k 2>/dev/null; "
        f"{_jxmj(db, 'drawn', '$CODE')}; {_jxmj(db, 'show', '$CODE')}"
    )
    made, drawn, shown = out
    assert drawn["code"] == "disk_full" and drawn["error"].endswith("is full: free some space and try again")
    assert shown["table"]["code"] == made["code"] and shown["hands"] == []
