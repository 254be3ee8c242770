"""牌局 page benchmark (not a timed test): what one click costs on a 2,000-hand table.

A session on `?table=CODE` (Streamlit AppTest, the whole page script, headless) with a winning
hand in progress, so the money preview is drawn. Timed, each the median of ``--runs``:

1. a tap that changes nothing on the table (the 跟庄 box on and off: the page reruns);
2. 记这一手 / Record (the store's checked write, then the page's rerun), undone after each.

For each it prints ms per click and how many hands the ledger fold scored and paid for that
click (`ledger.fold._money` calls): a replay of the whole table is 2,000 of them. Then the
ledger's part of one run alone, without Streamlit: as the page did it before (read the table,
replay it, then the preview's `add_hand`, which replayed it twice more) and as it does now
(the table's revision, then `add_hand(before=)` onto the replay kept for that revision).
The page's first run in a fresh process (``--first K``, interleaved with ``--before DIR``, another
checkout such as main's, when given): each a new Python process that starts Streamlit's AppTest
once on an empty script (what a server does once, before any page), then times the table page's
first run — wall and CPU (``time.process_time``: all threads) — and names the heavy packages it
imported (numpy, cv2, onnxruntime, PIL, pyarrow, pandas).
Usage: python bench/bench_table_page.py [--hands N] [--runs K] [--first K] [--before DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_ledger import SEATS, _bulk, _parse, calibration_ms  # noqa: E402

from ledger import Table  # noqa: E402
from ledger import fold as fold_module  # noqa: E402
from ledger.store import open_store  # noqa: E402

HAND = "123m456p789s234mCC"  # 平胡 门清 单钓 on 中


class _Count:
    """Counts the hands folded (`ledger.fold._money`), whichever module called the fold."""

    def __init__(self) -> None:
        self.n, self.inner = 0, fold_module._money

    def __call__(self, *a, **kw):
        self.n += 1
        return self.inner(*a, **kw)


def _click(at, count: _Count, act) -> tuple[float, int]:
    count.n = 0
    t0 = time.perf_counter()
    act()
    at.run()
    ms = (time.perf_counter() - t0) * 1000
    if at.exception:
        raise SystemExit(f"the page failed: {[e.value for e in at.exception]}")
    return ms, count.n


def _enter(at) -> None:
    """李四 wins on 王五's discard with `HAND` (typed), as a player enters it."""
    at.text_input(key="typed").input(HAND)
    at.button(key="btn_typed").click()
    at.run()
    at.segmented_control(key="tw_winner").set_value(1)
    at.run()
    at.segmented_control(key="tw_how").set_value(2)
    at.run()


def ledger_part(store, code: str, runs: int = 5) -> None:
    from ledger import add_hand, read_hand, replay

    rec = store.get(code)
    data = read_hand(
        rec.table, rec.hands, {"seat": 1, "discarder": 2, "hand": {"concealed": HAND, "winning_tile": "C"}}
    )
    kept = rec.ledger()

    def before() -> None:  # the add_hand of before: a lenient replay, the hand, a strict replay
        now = store.get(code)
        now.ledger()
        hand, _ = add_hand(now.table, now.hands, data, before=replay(now.table, now.hands, strict=False))
        replay(now.table, [*now.hands, hand])

    def after() -> None:
        assert store.revision(code) == rec.revision
        add_hand(rec.table, rec.hands, data, before=kept)

    for name, run in (("before: read + 3 replays", before), ("now: revision + 1 hand", after)):
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            run()
            times.append((time.perf_counter() - t0) * 1000)
        print(f"ledger part of one page run, {name}: {statistics.median(times):.1f} ms (median of {runs})")


FIRST = """
import os, sys, time
sys.path.insert(0, os.getcwd())
from streamlit.testing.v1 import AppTest
AppTest.from_string("import streamlit as st; st.write(1)").run()  # Streamlit's own start, once
if sys.argv[2:] == ["preload"]:  # as `jxmj app` starts its server (app.serve.preload)
    from app.serve import preload
    preload()
at = AppTest.from_file(os.path.join(os.getcwd(), "app", "streamlit_app.py"), default_timeout=300)
at.query_params["table"] = sys.argv[1]
c, w = time.process_time(), time.perf_counter()
at.run()
w, c = time.perf_counter() - w, time.process_time() - c
assert not at.exception, [e.value for e in at.exception]
heavy = {m.split(".")[0] for m in sys.modules} & {"numpy", "cv2", "onnxruntime", "PIL", "pyarrow", "pandas"}
print(f"{w:.3f} {c:.3f} {','.join(sorted(heavy)) or '-'}")
"""


def first_runs(url: str, code: str, trees: dict[str, tuple[Path, list[str]]], k: int) -> None:
    """The table page's first run in `k` fresh processes per contender (a tree and the child's
    extra arguments), the contenders interleaved."""
    import subprocess

    got: dict[str, list[tuple[float, float, str]]] = {name: [] for name in trees}
    for _ in range(k):
        for name, (root, more) in trees.items():
            env = {**os.environ, "JXMJ_DB": url, "PYTHONPATH": str(root)}
            cmd = [sys.executable, "-c", FIRST, code, *more]
            done = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stderr[-2000:]
            out = done.stdout.split()
            got[name].append((float(out[0]), float(out[1]), out[2]))
    for name, runs in got.items():
        walls, cpus = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
        print(f"first run of the page, {name} ({trees[name][0]}): wall {walls[0]:.2f}-{walls[-1]:.2f} s, "
              f"CPU {cpus[0]:.2f}-{cpus[-1]:.2f} s (median {statistics.median(cpus):.2f}; {k} processes); "
              f"heavy imports: {runs[-1][2]}; load {os.getloadavg()[0]:.2f}")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--first", type=int, default=3, help="fresh processes timing the first run (0: none)")
    ap.add_argument("--before", type=Path, help="another checkout to time first runs against, interleaved")
    args = ap.parse_args()
    n = args.hands
    print(
        f"calibration: sum(range(1e6)) {calibration_ms():.1f} ms (idle core ~9 ms; higher = a busy machine);"
        f" load {os.getloadavg()[0]:.2f}"
    )
    from streamlit.testing.v1 import AppTest

    table = Table("jiujiang", SEATS, 1)
    hands: list = []
    for i in range(n):
        hands.append(_parse(table, hands, i))
    count = _Count()
    fold_module._money = count
    with tempfile.TemporaryDirectory() as d:
        url = f"sqlite:///{d}/bench.sqlite3"
        os.environ["JXMJ_DB"] = url
        store = open_store(url)
        code = store.create_table(table, []).table.code
        _bulk(store, code, hands)
        if args.first:
            trees = {"before": (args.before.resolve(), [])} if args.before else {}
            trees |= {"this tree": (ROOT, []), "this tree, server preloaded": (ROOT, ["preload"])}
            first_runs(url, code, trees, args.first)
        at = AppTest.from_file(str(ROOT / "app" / "streamlit_app.py"), default_timeout=300)
        at.query_params["table"] = code
        at.run()
        _enter(at)
        assert at.button(key="tb_record").proto.disabled is False, "no hand to record"
        taps, records = [], []
        for i in range(args.runs):
            taps.append(_click(at, count, lambda i=i: at.checkbox(key="tw_followed").set_value(i % 2 == 0)))
        at.checkbox(key="tw_followed").set_value(False)
        at.run()
        for _ in range(args.runs):
            _enter(at)
            records.append(_click(at, count, lambda: at.button(key="tb_record").click()))
            assert len(store.get(code).hands) == n + 1, "the hand was not recorded"
            store.undo(code)
            at.run()  # the page shows the table as undone: the next hand begins on that revision
        ledger_part(store, code)
        store.close()
    for name, runs in (("tap (page rerun, preview drawn)", taps), ("记这一手 record + rerun", records)):
        ms = statistics.median(r[0] for r in runs)
        folded = statistics.median(r[1] for r in runs)
        print(f"{name}: {ms:.0f} ms per click (median of {len(runs)}), ", end="")
        print(f"hands folded {folded:.0f} ({n} on the table)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
