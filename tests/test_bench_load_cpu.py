"""`bench/bench_load.py`'s accounting (issue 37, "where the second core goes"): CPU by component
over a burst (`bench/load_cpu.py`), Python's lock share from py-spy's `--gil` samples, and the
comparison of one process against two behind nginx (`bench/load_compare.py`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import load_compare  # noqa: E402 (bench/ is not a package: its scripts import each other by name)
import load_cpu  # noqa: E402


def snap(
    app: dict[int, float], threads: dict[int, dict[int, float]], nginx: float, client: float, busy: float
):
    s = load_cpu.Snapshot()
    s.procs = {pid: ("app", cpu) for pid, cpu in app.items()}
    s.procs[99] = ("nginx", nginx)
    s.threads = {pid: {tid: ("python", c) for tid, c in ts.items()} for pid, ts in threads.items()}
    s.client, s.busy, s.idle = client, busy, 0.0
    return s


def test_the_burst_s_cpu_is_split_by_component_and_what_is_left_is_other_jobs():
    before = snap(
        {10: 5.0, 20: 7.0}, {10: {10: 1.0, 11: 0.5}, 20: {20: 2.0}}, nginx=1.0, client=3.0, busy=100.0
    )
    # app 10: +12 s, of which its live threads +1.5 and +0.02 (the rest: script runs that ended)
    after = snap({10: 17.0, 20: 13.0}, {10: {10: 2.5, 11: 0.52, 12: 0.3}, 20: {20: 2.2}}, 1.5, 4.0, 130.0)
    after.idle = 2.0
    acc = load_cpu.account(before, after, wall=10.0)
    assert acc["apps"][10]["cpu"] == pytest.approx(12.0)
    assert acc["apps"][10]["ended"] == pytest.approx(12.0 - 1.5 - 0.02 - 0.3)
    assert acc["apps"][10]["threads"] == [(1.5, "python", 10), (0.3, "python", 12)]  # over 0.05 s only
    assert acc["apps"][20]["cpu"] == pytest.approx(6.0)
    assert acc["nginx"] == pytest.approx(0.5) and acc["client"] == pytest.approx(1.0)
    assert acc["others"] == pytest.approx(30.0 - 12.0 - 6.0 - 0.5 - 1.0)  # the box's busy less ours
    cores = load_cpu.summary(acc)
    assert cores["servers"] == pytest.approx(1.8) and cores["client"] == pytest.approx(0.1)
    assert cores["others"] == pytest.approx(1.05) and cores["idle"] == pytest.approx(0.2)
    text = "\n".join(load_cpu.lines(acc, photos=100))
    assert "bench client (this)        1.0 s CPU   0.10 cores   0.010 s a photo" in text


def test_the_lock_s_share_is_the_gil_samples_over_the_burst_by_process(tmp_path):
    raw = tmp_path / "gil.txt"
    raw.write_text(
        'process 101:"python -m app.serve run x.py";thread (0x1): "MainThread";f (a.py:1) 150\n'
        'process 101:"python -m app.serve run x.py --server.port=1";thread (0x2): "Script";g (b.py:2) 50\n'
        'process 202:"python -m app.serve run x.py --server.port=2";thread (0x3): "Script";g (b.py:2) 100\n'
    )
    assert load_cpu.gil_held(raw, wall=2.0) == {"101": 0.5, "202": 0.25}  # 200 samples a second


def run(workers: int, rate: float, servers: float, client: float, cpp: float) -> dict:
    cores = {"servers": servers, "nginx": 0.02, "client": client, "postgres": 0.0, "others": 0.0, "idle": 0.0}
    split = [31, 33] if workers else []
    return {"workers": workers, "rate": rate, "p50": 1.0, "p95": 2.0, "cpu_per_photo": cpp, "failed": 0} | {
        "load": (1.0, 1.0),
        "cores": cores,
        "split": split,
    }


def test_the_comparison_says_the_ratio_and_what_the_box_allows():
    lines = load_compare.table([run(0, 8.0, 1.45, 0.05, 0.18), run(2, 10.0, 1.8, 0.1, 0.18)], 2, 2)
    text = "\n".join(lines)
    assert "photos/s, 2 processes / one: 1.25x (10.00 / 8.00; target >= 1.7x)" in text
    assert "one process used 1.45 of 2 cores: were that its use on a quiet box" in text
    assert "more processes could add at most 1.38x here" in text
    # (2 - 0.10 client - 0.00 others) / 0.18 s = 10.56 photos/s
    assert "= 10.56 photos/s (1.32x one process)" in text
    assert "given to the servers: 10.56 photos/s" in text  # 10 x (1.8 + 0.1) / 1.8
    assert "2 / 0.180 s = 11.11 photos/s (1.39x one process as measured in this run)" in text
    assert "| 31/33" in text


def test_the_ceiling_counts_postgresql_s_cpu_a_photo():
    many = run(2, 10.0, 1.8, 0.1, 0.18)
    many["cores"]["postgres"] = 0.2  # 0.02 s a photo at 10 photos/s
    text = "\n".join(load_compare.table([run(0, 8.0, 1.45, 0.05, 0.18), many], 2, 2))
    assert "(2 - 0.10 - 0.00) / 0.200 s a photo = 9.50 photos/s (1.19x one process)" in text


def test_a_server_tree_s_processes_are_told_apart_by_their_command_line(monkeypatch):
    assert load_cpu.kind(os.getpid()) == "other"  # pytest itself
    lines = {
        1: b"/x/python\0-m\0app.serve\0run\0app/streamlit_app.py\0--server.port=8501\0",
        2: b"nginx: worker process\0",
        3: b"/x/python\0-m\0app\0parlour\0--workers\x002\x00",
        4: b"/x/python\0-m\0pytest\0-k\0parlour\0",
    }
    monkeypatch.setattr(load_cpu, "_cmdline", lines.__getitem__)
    assert [load_cpu.kind(p) for p in (1, 2, 3, 4)] == ["app", "nginx", "parlour", "other"]
