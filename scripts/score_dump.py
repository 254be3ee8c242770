"""Dump what ``jxmj score`` says for N seeded random hands: before → after a refactor, compare.

Each line of the output: the input JSON, then exactly what ``jxmj score`` prints for it (the
result JSON, ``--format text --lang zh`` and ``--lang en``, or the error), then the why-not
lines (``scoring.why_not.explain``) in both languages. The hands come from the Learn page's
generator (``app.ui.learn.random_hand``, seeded per hand) with a random way of winning, dealer
and 吃炮 seat added, so every variant, item and error path is reached.

    .venv/bin/python scripts/score_dump.py -n 5000 --cases tests/data/*.jsonl -o /tmp/before.jsonl
    ... change the code ...
    .venv/bin/python scripts/score_dump.py -n 5000 --cases tests/data/*.jsonl -o /tmp/after.jsonl
    cmp /tmp/before.jsonl /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from app.ui.learn.random_hand import random_hand
from scoring import HandError, format_text, hand_from_json, score
from scoring.rules import VARIANTS, load_rules
from scoring.text import format_error
from scoring.timing import DISCARD_EVENTS, SELF_DRAWN_EVENTS
from scoring.why_not import explain


def hand_json(i: int, seed: int) -> dict:
    """The ``i``-th random hand as ``jxmj score`` input JSON."""
    rng = random.Random(seed * 1_000_003 + i)
    variant = VARIANTS[i % len(VARIANTS)]
    hand, cond = random_hand(variant, rng)
    rules = load_rules(variant)
    data: dict = {
        "variant": variant,
        "concealed": "".join(t.code for t in hand.concealed),
        "winning_tile": hand.winning_tile or "",
        "self_drawn": cond.self_drawn,
    }
    if hand.melds:
        data["melds"] = [{"kind": m.kind, "tiles": "".join(t.code for t in m.tiles)} for m in hand.melds]
    if hand.bonus_tiles:
        data["bonus_tiles"] = hand.bonus_tiles
    if rng.random() < 0.3:  # one way of winning now and then (some are refused: the error path)
        fits = SELF_DRAWN_EVENTS if cond.self_drawn else DISCARD_EVENTS
        data["events"] = [rng.choice([e for e in rules.events if e in fits or rng.random() < 0.1])]
    dealer = rng.random() < 0.25
    if dealer:
        data["winner_is_dealer"] = True
    if rules.bonus_tile is not None and (rng.random() < 0.3 or (cond.self_drawn and not dealer)):
        # 吃炮 seats; a xingzi self-draw by a non-dealer names the dealer among its payers
        payers = [{"name": n, "bonus_tiles": rng.choice([0, 0, 1])} for n in ("left", "across", "right")]
        payers[0]["ready_declared"] = rules.payer_ready_declared and rng.random() < 0.3
        payers[1]["is_dealer"] = not dealer
        data["payers"] = payers if cond.self_drawn else [{**payers[0], "is_dealer": not dealer}]
    return data


def dump_one(data: dict) -> dict:
    out: dict = {"input": data}
    try:
        hand = hand_from_json(data)
        result = score(hand)
    except HandError as e:
        out["error"] = {"code": e.code, "message": str(e), "zh": format_error(e.code, str(e), "zh")}
        return out
    out["json"] = result.to_json()
    out["text_zh"] = format_text(result, "zh")
    out["text_en"] = format_text(result, "en")
    if result.can_win:
        out["why_not"] = [[w.key, w.zh, w.en] for w in explain(hand, result)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=5000, help="how many hands (default 5000)")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("-o", "--output", default="-", help="file to write (default: standard output)")
    ap.add_argument("--cases", nargs="*", default=[], metavar="FILE.jsonl", help="cases' inputs, first")
    args = ap.parse_args(argv)
    inputs = [
        json.loads(line)["input"]
        for path in args.cases
        for line in open(path, encoding="utf-8")
        if line.strip()
    ]
    digest = hashlib.sha256()
    kinds: dict[str, int] = {}
    with open(args.output, "w", encoding="utf-8") if args.output != "-" else sys.stdout as f:
        for data in [*inputs, *range(args.n)]:
            row = dump_one(data if isinstance(data, dict) else hand_json(data, args.seed))
            kind = "error" if "error" in row else ("win" if row["json"].get("can_win") else "no win")
            kinds[kind] = kinds.get(kind, 0) + 1
            line = json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n"
            digest.update(line.encode())
            f.write(line)
    print(f"{len(inputs)} cases + {args.n} hands {kinds} sha256 {digest.hexdigest()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
