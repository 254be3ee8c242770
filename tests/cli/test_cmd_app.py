"""`jxmj app` sets every server option it relies on, whatever the working directory holds."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

from app.cmd_app import SERVER_OPTIONS, streamlit_command
from tests.app.conftest import ROOT

HOSTILE = """
[server]
maxUploadSize = 1000
enableXsrfProtection = false
fileWatcherType = "poll"
baseUrlPath = "elsewhere"
[client]
showErrorDetails = "full"
toolbarMode = "developer"
[browser]
gatherUsageStats = true
"""
HIDDEN = {"runner.postScriptGC"}
"""Options `streamlit config show` does not list (Streamlit marks them hidden)."""


def _effective(cwd, flags: list[str]) -> dict[str, str]:
    """`streamlit config show` run in `cwd` with `flags`: {"section.option": value as shown}."""
    out = subprocess.run(
        [sys.executable, "-m", "streamlit", "config", "show", *flags],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    values, section = {}, ""
    for line in out.splitlines():
        if m := re.fullmatch(r"\[(\w[\w.]*)\]", line.strip()):
            section = m.group(1)
        elif m := re.fullmatch(r"(\w+) = (.*)", line.strip()):
            values[f"{section}.{m.group(1)}"] = m.group(2).strip('"')
    return values


def test_server_options_outrank_a_config_in_the_working_directory(tmp_path):
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "config.toml").write_text(HOSTILE, encoding="utf-8")
    flags = [arg for arg in streamlit_command([]) if arg.startswith("--")]
    foreign = _effective(tmp_path, [])
    assert foreign["server.maxUploadSize"] == "1000"  # the file is read ...
    ours = _effective(tmp_path, flags)
    for key, value in SERVER_OPTIONS.items():  # ... and every option of ours outranks it
        if key in HIDDEN:
            continue
        assert ours[key].lower() == value.lower(), key
    assert ours["server.maxUploadSize"] == "40" and ours["client.showErrorDetails"] == "none"


def test_the_repository_config_says_the_same_as_jxmj_app():
    with open(ROOT / ".streamlit" / "config.toml", "rb") as fh:
        config = tomllib.load(fh)
    flat = {f"{section}.{k}": v for section, opts in config.items() for k, v in opts.items()}
    assert set(flat) == set(SERVER_OPTIONS)
    for key, value in SERVER_OPTIONS.items():
        shown = str(flat[key]).lower() if isinstance(flat[key], bool) else str(flat[key])
        assert shown == value, key


def test_an_option_after_app_still_wins():
    cmd = streamlit_command(["--server.maxUploadSize", "10", "--client.toolbarMode=auto"])
    assert cmd[-3:] == ["--server.maxUploadSize", "10", "--client.toolbarMode=auto"]
    assert "--server.maxUploadSize=40" not in cmd and "--client.toolbarMode=minimal" not in cmd


def test_the_server_returns_freed_photo_memory_to_the_system():
    from app.cmd_app import MALLOC_SETTINGS, server_environment

    env = server_environment({"PATH": "/bin"})
    assert env["MALLOC_ARENA_MAX"] == "2"
    # a photo's blocks (1-32 MiB) reused from the heap, not mapped and faulted in afresh each
    # photo (issue 37: ~10 ms of system time a photo); a burst's free memory is trimmed when quiet
    assert env["MALLOC_MMAP_THRESHOLD_"] == str(32 * 2**20)
    assert env["MALLOC_TRIM_THRESHOLD_"] == str(64 * 2**20)
    assert env["PATH"] == "/bin"
    assert server_environment({"MALLOC_ARENA_MAX": "8"})["MALLOC_ARENA_MAX"] == "8"  # the caller's own wins
    assert set(MALLOC_SETTINGS) == {"MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"}


def test_no_full_garbage_collection_after_every_script_run():
    """Issue 37: Streamlit's `gc.collect(2)` after each run cost ~0.05 s a photo on a loaded
    server; `app.photo_gate.reclaim` collects once the photo reads are quiet instead."""
    assert SERVER_OPTIONS["runner.postScriptGC"] == "false"
    assert "--runner.postScriptGC=false" in streamlit_command([])
