"""Write the README's settlement picture, docs/img/settle-picture.png: an evening of eight hands
at a 九江 table (the README's names and code), drawn by `app.settle_png` exactly as the 牌局 page's
download and `jxmj table settle CODE --png FILE` draw it, with this machine's CJK font (made with
Noto Sans CJK SC, Debian fonts-noto-cjk). Refused over 150 KB (the README's images stay small).

    .venv/bin/python scripts/settle-picture-example.py [--lang en] [--hands] [-o FILE]
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.settle_png import settle_png  # noqa: E402
from ledger import Table, add_hand, read_hand  # noqa: E402

MAX_BYTES = 150 * 1024
HAND = {"concealed": "123m456p789s234mCC", "winning_tile": "C"}  # 平胡 门清 单钓: 3 炮, 4 self-drawn
EVENING = [
    {"seat": 1, "discarder": 2, "hand": HAND},
    {"kind": "drawn", "follow": {"followed": True}},
    {"seat": 0, "hand": HAND},
    {"seat": 3, "discarder": 0, "hand": HAND},
    {"seat": 2, "hand": HAND},
    {"seat": 0, "discarder": 1, "hand": HAND},
    {"kind": "drawn"},
    {"seat": 0, "discarder": 3, "hand": HAND},
]


def evening():
    table = Table(
        "jiujiang", ("张三", "李四", "王五", "赵六"), title="周五晚上",
        created=datetime(2026, 12, 4, 12, 0, tzinfo=UTC), code="K7QM9ACXTRE",
    )  # fmt: skip
    hands, ledger = [], None
    for data in EVENING:
        hand, ledger = add_hand(table, hands, read_hand(table, hands, data))
        hands.append(hand)
    return ledger


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lang", choices=("zh", "en"), default="zh")
    ap.add_argument("--hands", action="store_true")
    ap.add_argument("-o", "--output", default=str(ROOT / "docs" / "img" / "settle-picture.png"))
    args = ap.parse_args()
    png = settle_png(evening(), args.lang, hands=args.hands)
    if len(png) > MAX_BYTES:
        print(f"{len(png)} bytes: over {MAX_BYTES}", file=sys.stderr)
        return 1
    Path(args.output).write_bytes(png)
    print(f"{args.output}: {len(png)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
