"""Ledger benchmark (not a timed test): prints figures for a 2,000-hand table.

1. Replay (the fold over every hand: dealer, raises, scoring each winner, money, totals) with
   cold caches, warm caches, and after an edit of hand 1 (every later hand recomputed; the scores
   of unchanged hands come from the cache).
2. The store (SQLite file in a temporary folder): writing the table, loading + replaying it.
3. Rendering the 牌局 page for that table (Streamlit AppTest): totals, chart, 2,000 history rows.

The hands cycle through real cases: discard wins, self-draws, several winners on one discard,
drawn hands with 跟庄, so raises and dealer changes run all the time.
Usage: python bench/bench_ledger.py [--hands N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger import Hand, Table, edit_hand, replay
from ledger import fold as fold_module
from ledger.store import open_store

HEAVY = ("numpy", "pandas", "pyarrow", "PIL", "cv2", "onnxruntime")  # reported after each page render
IDLE_MS = 9.0  # sum(range(10**6)) on an idle modern core with CPython 3.11
SEATS = ("张三", "李四", "王五", "赵六")
HANDS = [  # (winners, discarder, concealed, winning tile, follow)
    ([1], 2, "123m456p789s234mCC", "C", None),
    ([1], None, "123m456p789s234mCC", "C", None),
    ([3, 2], 1, "123m456p789s234mCC", "C", None),
    (None, None, "", "", "followed"),
    ([0], None, "234p456p777pCCCPP", "P", None),
    ([2], 3, "11223344556677m", "7m", None),
    (None, None, "", "", None),
    ([3], 0, "123s456s789s234sPP", "P", "dragon"),
]


def _hand(i: int) -> dict:
    winners, discarder, concealed, tile, follow = HANDS[i % len(HANDS)]
    out: dict = {"kind": "drawn"} if winners is None else {
        "kind": "win", "discarder": discarder,
        "winners": [{"seat": s, "hand": {"concealed": concealed, "winning_tile": tile}} for s in winners],
    }  # fmt: skip
    if follow:
        out["follow"] = {"followed": True, "dragon": follow == "dragon", "second": False}
    return out


def calibration_ms() -> float:
    t = time.perf_counter()
    sum(range(10**6))
    return (time.perf_counter() - t) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    n = ap.parse_args().hands
    cal = calibration_ms()
    print(f"calibration: sum(range(1e6)) {cal:.1f} ms (idle core ~{IDLE_MS:.0f} ms; higher = a busy machine)")
    table = Table("jiujiang", SEATS, 1)
    t0 = time.perf_counter()
    hands: list = []
    for i in range(n):  # parse only; the replay is timed below
        hands.append(_parse(table, hands, i))
    build = time.perf_counter() - t0
    fold_module._score.cache_clear()
    t0 = time.perf_counter()
    ledger = replay(table, hands)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    replay(table, hands)
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    _, edited = edit_hand(table, hands, 1, Hand("drawn"))
    edit = time.perf_counter() - t0
    n_drawn = sum(o.hand.kind == "drawn" for o in ledger.outcomes)
    top = max(o.raise_ for o in ledger.outcomes)
    print(f"table: {n} hands ({n_drawn} drawn, max raise x{top}), parsed in {build * 1000:.0f} ms")
    print(f"replay, cold caches: {cold * 1000:.0f} ms ({cold / n * 1e6:.0f} µs a hand)")
    print(f"replay, warm caches: {warm * 1000:.0f} ms ({warm / n * 1e6:.0f} µs a hand)")
    before, after = list(map(int, ledger.totals)), list(map(int, edited.totals))
    print(f"edit hand 1 + replay all {n}: {edit * 1000:.0f} ms (totals before {before}, after {after})")
    with tempfile.TemporaryDirectory() as d:
        store = open_store(f"sqlite:///{d}/bench.sqlite3")
        t0 = time.perf_counter()
        rec = store.create_table(table, [])
        code = rec.table.code
        _bulk(store, code, hands)
        write = time.perf_counter() - t0
        t0 = time.perf_counter()
        loaded = store.get(code)
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        loaded.ledger()
        fold = time.perf_counter() - t0
        t0 = time.perf_counter()
        store.append(code, Hand("drawn"))
        append = time.perf_counter() - t0
        print(f"store (SQLite): write {n} hands {write * 1000:.0f} ms; load {load * 1000:.0f} ms; ", end="")
        print(f"replay {fold * 1000:.0f} ms; record hand {n + 1} (checked replay) {append * 1000:.0f} ms")
        _page(f"sqlite:///{d}/bench.sqlite3", code)
        store.close()
    return 0


def _parse(table, hands, i):
    from ledger.parse import Context, parse_hand

    return parse_hand(table, _hand(i), Context(i + 1))


def _bulk(store, code, hands) -> None:
    """Insert the hands in one transaction (the benchmark's table; the app records one at a time)."""
    import json

    from ledger.store import schema as S

    with store.engine.begin() as conn:
        tid = conn.execute(S.tables.select().where(S.tables.c.code == code)).first().id
        conn.execute(S.hands.insert(), [
            {"table_id": tid, "position": i, "data": json.dumps(h.to_json(), ensure_ascii=False)}
            for i, h in enumerate(hands, 1)
        ])  # fmt: skip
        conn.execute(S.tables.update().where(S.tables.c.id == tid).values(hand_count=len(hands)))


def _page(url: str, code: str) -> None:
    """Render the 牌局 page of the table once (AppTest: the whole script run, headless)."""
    import os

    from streamlit.testing.v1 import AppTest

    os.environ["JXMJ_DB"] = url
    app = Path(__file__).resolve().parents[1] / "app" / "streamlit_app.py"
    for label in ("first run (cold: imports, store, replay)", "second session (warm)"):
        at = AppTest.from_file(str(app), default_timeout=300)
        at.query_params["table"] = code
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        ms, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
        errors = len(at.exception)
        heavy = sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY)) or ["none"]
        shown = _shown(at)
        print(f"page render, {label}: {ms:.0f} ms ({cpu:.0f} ms CPU), exceptions: {errors}, hands: {shown}")
        print(f"  loaded after it: {', '.join(heavy)}")


def _shown(at) -> str:
    import re

    for md in at.markdown:
        m = re.search(r'data-hands="(\d+)"', md.value)
        if m:
            return m.group(1)
    return "?"


if __name__ == "__main__":
    sys.exit(main())
