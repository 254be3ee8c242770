"""`jxmj table settle CODE [--lock] [--png FILE [--hands]]`: each seat's net and the fewest
transfers (JSON), and with ``--png`` the settlement picture (`app.settle_png`), the very bytes
of the 牌局 page's download in the same language (``--lang``; default zh, as the page's)."""

from __future__ import annotations

import argparse
from typing import Any

from app.clilang import LANGS

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    p = sub.add_parser("settle", help="nets and the fewest transfers; --png FILE: the settlement picture")
    p.add_argument("code")
    p.add_argument("--lock", action="store_true", help="also lock the table read-only")
    p.add_argument(
        "--png", metavar="FILE",
        help="also write the settlement picture (PNG, 1080 px wide: names, totals, transfers, the chart) "
        "to FILE, in --lang (default zh, as the app's); needs a CJK font (Debian: fonts-noto-cjk)",
    )  # fmt: skip
    p.add_argument("--hands", action="store_true", help="with --png: list every hand in the picture")
    p.add_argument(
        "--lang", choices=LANGS, default=argparse.SUPPRESS,
        help="language of the errors and of the picture's words (default: the picture in zh, as the "
        "app's; errors from the locale)",
    )  # fmt: skip


def run(store, args: argparse.Namespace) -> dict[str, Any]:
    """Settle (and lock) the table; write the picture first asked: nothing is locked when the
    picture cannot be made (no CJK font: ``no_font``) or written."""
    from app.table_files import store_files, write_file
    from ledger.exchange import export_json

    if args.hands and args.png is None:  # nothing to list them in: said, not ignored
        from ledger import LedgerError

        msg = "jxmj table settle: --hands lists the hands in the picture: give --png FILE"
        raise LedgerError("bad_usage", msg)
    fonts = _fonts() if args.png is not None else None  # a machine without a CJK font: said before any lock
    rec = store.get(args.code)
    out: dict[str, Any] = {}
    if args.png is not None:  # --png "" is refused (write_file), not taken for no --png
        from app.settle_png import draw

        canvas = draw(rec.ledger(), getattr(args, "lang", None) or "zh", hands=args.hands, fonts=fonts)
        write_file(args.png, canvas.png(), store_files(store))
        out["png"] = args.png
        if canvas.fonts.missing:  # written as "?" (and said in the picture)
            out["missing_glyphs"] = "".join(canvas.fonts.missing)
    if args.lock:
        rec = store.lock(args.code)
    settlement = export_json(rec.ledger())["settlement"]
    return {"code": rec.table.code, "locked": rec.table.locked, **settlement, **out}


def _fonts():
    from app.picture_fonts import Fonts, PictureError
    from ledger import LedgerError

    try:
        return Fonts()
    except PictureError as e:
        raise LedgerError(e.code, e.message) from None
