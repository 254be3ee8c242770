"""Write seeded 2,000-hand tables and print what ``jxmj table show`` says: before → after, compare.

Each variant's table is built as an export file (seeded hands: wins from the Learn page's
generator, 一炮多响, self-draws, 黄庄 with 跟庄, 新余 kongs, 星子 炸糊, notes), imported with
``jxmj table import`` (every hand checked as it is stored), then shown with ``jxmj table show``;
the fresh table code is replaced by ``CODE``, so two runs compare byte for byte.

    .venv/bin/python scripts/table_show_dump.py -n 2000 --db sqlite:////tmp/a.db -o /tmp/before.json
    ... change the code ...
    .venv/bin/python scripts/table_show_dump.py -n 2000 --db sqlite:////tmp/b.db -o /tmp/after.json
    cmp /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from app.ui.learn.random_hand import random_hand
from scoring import HandError, hand_from_json, score
from scoring.rules import load_rules

TILE = re.compile(r"[0-9][a-z]|[A-Z]")
SEATS = ["张三", "李四", "王五", "赵六"]


def _win_hand(variant: str, rng: random.Random, self_drawn: bool) -> dict:
    """A random hand that wins (scores at least the minimum) this way."""
    while True:
        hand, _ = random_hand(variant, rng)
        tiles = "".join(t.code for t in hand.concealed)
        out: dict = {"concealed": tiles, "winning_tile": hand.winning_tile or ""}
        if hand.melds:
            out["melds"] = [{"kind": m.kind, "tiles": "".join(t.code for t in m.tiles)} for m in hand.melds]
        try:
            check = {**out, "variant": variant, "self_drawn": self_drawn, "winner_is_dealer": True}
            if score(hand_from_json(check)).can_win:
                return out
        except HandError:
            pass


def _fits(winners: list[dict]) -> bool:
    """Winners on one discard hold at most four of a tile (the discard counted once)."""
    count: Counter = Counter()
    for w in winners:
        count.update(TILE.findall(w["concealed"]))
        for m in w.get("melds", ()):
            count.update(TILE.findall(m["tiles"]))
    count[winners[0]["winning_tile"]] -= len(winners) - 1
    return max(count.values()) <= 4


def _hand(variant: str, i: int, rng: random.Random) -> dict:
    r = rng.random()
    data: dict
    if r < 0.15:
        data = {"kind": "drawn"}
    elif r < 0.2 and variant == "xingzi":
        data = {"kind": "false_win", "declarer": rng.randrange(4)}
    else:
        self_only = load_rules(variant).self_draw_only  # 星子: every win is a self-draw
        discarder = None if self_only or rng.random() < 0.3 else rng.randrange(4)
        others = [s for s in range(4) if s != discarder]
        count = 1 if discarder is None or rng.random() < 0.85 else rng.choice([2, 3])
        winners = [_win_hand(variant, rng, discarder is None)]
        for _ in range(40 * (count - 1)):  # 一炮多响: more winners on the same discarded tile (often one)
            more = _win_hand(variant, rng, False)
            if more["winning_tile"] == winners[0]["winning_tile"] and _fits([*winners, more]):
                winners.append(more)
            if len(winners) == count:
                break
        seats = rng.sample(others, len(winners))
        data = {
            "kind": "win",
            "discarder": discarder,
            "winners": [{"seat": s, "hand": h} for s, h in zip(seats, winners, strict=True)],
        }
    if variant == "jiujiang" and rng.random() < 0.1:
        data["follow"] = {"followed": True, "dragon": rng.random() < 0.3, "second": rng.random() < 0.3}
    if variant == "xinyu" and rng.random() < 0.2:
        won = {w["seat"] for w in data.get("winners", ())}
        seat = rng.choice([s for s in range(4) if s not in won])  # a winner's kongs are in its hand
        kong = {"seat": seat, "exposed": rng.randrange(2), "concealed": rng.randrange(2)}
        data["kongs"] = [kong]
    if rng.random() < 0.05:
        data["note"] = f"第{i}把"
    data["recorded"] = f"2026-01-01T00:00:{i % 60:02d}+00:00"
    return data


def _jxmj(*args: str) -> str:
    from app.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(list(args))
    if rc:
        raise SystemExit(f"jxmj {' '.join(args)}: {rc} {buf.getvalue()[:500]}")
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="hands per table (default 2000)")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--db", required=True, help="a new ledger (a database URL: sqlite:////tmp/a.db)")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    out = []
    for variant in ("jiujiang", "xingzi", "xinyu"):
        rng = random.Random(f"{args.seed}-{variant}")
        hands = []
        for i in range(1, args.n + 1):
            hands.append(_hand(variant, i, rng))
        table = {"variant": variant, "seats": SEATS, "base": 1, "created": "2026-01-01T00:00:00+00:00"}
        export = {"format": "jxmj-table", "version": 2, "hands": hands, "table": table}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(export, f, ensure_ascii=False)
        code = json.loads(_jxmj("table", "--db", args.db, "import", f.name))["code"]
        Path(f.name).unlink()
        out.append(_jxmj("table", "--db", args.db, "show", code).replace(code, "CODE"))
    Path(args.output).write_text("".join(out), encoding="utf-8")
    print(f"{len(out)} tables, {sum(len(t) for t in out)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
