"""`jxmj table new|record|drawn|false-win|undo|edit|show|settle|lock|export|import` — the table ledger.

The same database as the app (``JXMJ_DB`` or the SQLite file in the user's data directory; ``--db``
overrides both). JSON in and out like `jxmj score`; any bad input exits 2 with
``{"error": "...", "code": "..."}`` and nothing already recorded is changed; ``--lang zh|en``
(default: the locale's, as `jxmj score`) says it in that language (`app.table_errors`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from app import table_settle
from app.cliio import emit, emit_json
from app.clilang import LANGS, lang_of, whole_number
from app.table_files import store_files, write_file
from scoring.rules import VARIANTS

DESCRIPTION = """jxmj table: a shared multi-hand ledger (牌局) — dealer, raises, kong money, settlement.

  jxmj table new --variant jiujiang --seats 张三 李四 王五 赵六 --base 1
  jxmj table record CODE hand.json     # {"seat": "李四", "discarder": "王五", "hand": {score JSON}}
  jxmj table drawn CODE [--follow]     # 黄庄 (drawn hand); --follow: the dealer was followed (跟庄)
  jxmj table false-win CODE 赵六       # 炸糊 (星子): the declarer pays each other player
  jxmj table show CODE [--format text] | settle CODE [--lock] [--png FILE]
  jxmj table export CODE --format csv | import FILE
A name that starts with '-': --seat=-阿三 (four --seat in turn order, not --seats), and after
'--', which ends the options: jxmj table false-win CODE -- -阿三
Hand JSON: docs/ledger-json.md. Exit status: 0 done, 2 bad input ({"error": ..., "code": ...});
--lang zh|en (before or after ACTION; default: the locale's) is the language of the errors."""
LANG_HELP = "language of the errors (default: from the locale, as jxmj score)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", help="SQLAlchemy URL of the ledger (default: $JXMJ_DB, else the user data dir)"
    )
    parser.add_argument("--lang", choices=LANGS, default=None, help=LANG_HELP)
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    _add_actions(sub)
    for name, action in sub.choices.items():  # the same --lang after ACTION; not given: the one before
        if name not in ("export", "settle"):  # theirs say more (the CSV, the picture)
            action.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=LANG_HELP)


def _add_actions(sub) -> None:
    p = sub.add_parser("new", help="open a table; prints its code")
    p.add_argument("--variant", required=True, choices=VARIANTS)
    seats = p.add_mutually_exclusive_group(required=True)
    seats.add_argument("--seats", nargs=4, metavar="NAME", help="the four names in turn order")
    seats.add_argument(
        "--seat",
        action="append",
        metavar="NAME",
        help="one name, given four times in turn order; --seat=NAME also takes a name that starts "
        "with '-' (--seat=-阿三), which --seats would read as an option",
    )
    p.add_argument("--base", default="1", help="money per 炮 / point before raises (default 1)")
    p.add_argument("--title", default="")
    p.add_argument("--rules", help='house rules as JSON: {"ledger": {"drawn.window": 3}, "scoring": {...}}')
    for name, help_text in (("record", "record a hand given as JSON (a win, drawn or false_win)"),
                            ("edit", "replace hand NUMBER by the hand given as JSON")):  # fmt: skip
        p = sub.add_parser(name, help=help_text)
        p.add_argument("code")
        if name == "edit":
            p.add_argument("number", type=whole_number)  # ASCII digits: int("١") is 1
        p.add_argument("input", nargs="?", default="-", help="hand JSON file, or '-' for standard input")
        _expect(p)
    p = sub.add_parser("drawn", help="record a drawn hand (黄庄)")
    p.add_argument("code")
    p.add_argument("--follow", action="store_true", help="九江 跟庄: the three others followed the dealer")
    p.add_argument("--follow-dragon", action="store_true", help="... and the first discard was 中 or 白")
    p.add_argument("--follow-second", action="store_true", help="... and the second discard was followed too")
    p.add_argument("--kongs", help='新余 kongs: {"张三": {"exposed": 1, "concealed": 0}}')
    _expect(p)
    p = sub.add_parser("false-win", help="record a false win (炸糊) by SEAT")
    p.add_argument("code")
    p.add_argument("seat", help="a seat name or 0-3; after '--' a name may start with '-' (-- -阿三)")
    _expect(p)
    p = sub.add_parser("undo", help="remove the last hand")
    p.add_argument("code")
    _expect(p)
    p = sub.add_parser("show", help="the whole ledger as JSON, or (--format text) as lines for people")
    p.add_argument("code")
    p.add_argument(
        "--format", choices=("json", "text"), default="json",
        help="text: every hand in a line, the totals, the settlement, the next hand (in --lang)",
    )  # fmt: skip
    sub.add_parser("lock", help="lock a settled table read-only").add_argument("code")
    table_settle.add_parser(sub)
    p = sub.add_parser("export", help="the table as JSON (restorable) or CSV")
    p.add_argument("code")
    p.add_argument("--format", choices=("json", "csv"), default="json")
    p.add_argument(
        "--lang", choices=LANGS, default=argparse.SUPPRESS,
        help="language of the errors and of a CSV's headers and kinds of hand (default: CSV in zh, as "
        "the app's download; errors from the locale)",
    )  # fmt: skip
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p = sub.add_parser("import", help="restore a table from its JSON export; prints its code")
    p.add_argument("input", nargs="?", default="-")


def _expect(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--expect", type=whole_number, help="the hand count you saw: refused if another writer changed it"
    )


class _OutputFailed(Exception):
    """Standard output could not be written (app.cliio has said why on standard error)."""


def _missing_file(url: str | None) -> str | None:
    """The path of the SQLite file `url` (else the default ledger) names when it does not exist,
    else None (another database, or a file that is there)."""
    import sqlalchemy as sa

    from ledger.store.db import given_url, sqlite_file

    try:
        database = sqlite_file(given_url(url))  # --db '' is bad_url, never the default ledger
    except sa.exc.ArgumentError:
        return None  # open_store says bad_url
    if database is None or Path(database).expanduser().exists():
        return None
    return str(Path(database).expanduser())


def error_object(args: argparse.Namespace, message: str, code: str) -> dict[str, str]:
    """The error object in the language of `args` (`app.cli` answers usage errors with it too)."""
    from app import table_errors

    return table_errors.error_object(message, code, lang_of(args))


def _fail(args: argparse.Namespace, message: str, code: str) -> int:
    return emit_json(error_object(args, message, code)) or 2


def _json_arg(text: str | None, what: str) -> Any:
    from app import jsonin
    from ledger import LedgerError

    if not text:
        return None
    try:  # the same strict JSON as a hand file: no duplicate fields, no lone surrogates
        return jsonin.parse(text, lengths=False)
    except jsonin.InputError as e:
        raise LedgerError("bad_input", f"{what}: {e}") from None


def _read(path: str, export: bool = False) -> Any:
    """A hand (or an `export`) from a file or `-`, within `app.ledgerin`'s limits."""
    from app import ledgerin

    return ledgerin.read(path, export)


def _print(obj: Any) -> None:
    if emit_json(obj):
        raise _OutputFailed


def run(args: argparse.Namespace) -> int:
    from ledger import LedgerError

    try:
        return _run(args)
    except LedgerError as e:
        return _fail(args, e.message, e.code)
    except _OutputFailed:
        return 2
    except Exception as e:  # never a traceback
        return _fail(args, f"internal error ({type(e).__name__}: {e})", "internal")


def _after_write(ledger, hand_number: int | None = None) -> dict[str, Any]:
    from ledger.exchange import export_json, outcome_json

    full = export_json(ledger)
    out: dict[str, Any] = {"code": ledger.table.code, "hands": len(ledger.outcomes)}
    if hand_number:
        out["hand"] = hand_number
        out["outcome"] = outcome_json(ledger, ledger.outcomes[hand_number - 1])
    out.update(totals=full["totals"], next=full["next"])
    return out


def _run(args: argparse.Namespace) -> int:
    from app.table_csv import csv_text
    from ledger import NotFoundError, Table, read_hand
    from ledger.exchange import export_json, table_from_export
    from ledger.store import open_store

    a = args.action
    reading = a in ("show", "export") or (a == "settle" and not args.lock)
    if a not in ("new", "import"):  # a table's code on a ledger file that is not there: made none
        missing = _missing_file(args.db)
        if missing:
            from ledger.codes import normalize_code

            code = normalize_code(args.code)
            raise NotFoundError(f"no table has the code {code}: there is no ledger database at {missing}")
    store = open_store(args.db, write=not reading)  # a reader may open a read-only ledger
    if a == "new":
        rules = _json_arg(args.rules, "--rules")  # [] or 0 is refused by Table, not taken as none
        rules = {} if rules is None else rules
        seats = tuple(args.seats or args.seat)  # --seats A B C D, or --seat A --seat=-B ... (four)
        rec = store.create_table(Table(args.variant, seats, args.base, rules, title=args.title))
        _print({"code": rec.table.code, "table": rec.table.to_json()})
    elif a == "import":
        table, hands = table_from_export(_read(args.input, export=True))  # read and checked here
        rec = store.create_table(table, hands)
        _print({"code": rec.table.code, "hands": len(rec.hands)})
    elif a in ("record", "drawn", "false-win"):
        if a == "record":
            data = _read(args.input)
        elif a == "drawn":
            follow = {"followed": args.follow or args.follow_dragon or args.follow_second,
                      "dragon": args.follow_dragon, "second": args.follow_second}  # fmt: skip
            data = {"kind": "drawn", "follow": follow, "kongs": _json_arg(args.kongs, "--kongs")}
        else:
            data = {"kind": "false_win", "declarer": args.seat}  # a name or an index (Table.seat)
        rec = store.get(args.code)  # the JSON edge: read against the dealer this hand has
        _, ledger = store.append(args.code, read_hand(rec.table, rec.hands, data), expected=args.expect)
        _print(_after_write(ledger, len(ledger.outcomes)))
    elif a == "edit":
        data, rec = _read(args.input), store.get(args.code)
        hand = read_hand(rec.table, rec.hands, data, args.number)
        _, ledger = store.edit(args.code, args.number, hand, expected=args.expect)
        _print(_after_write(ledger, args.number))
    elif a == "undo":
        _print(_after_write(store.undo(args.code, expected=args.expect)))
    elif a == "lock":
        _print(export_json(store.lock(args.code).ledger())["table"])
    elif a == "show" and args.format == "text":
        from app.table_text import show_text

        if emit(show_text(store.get(args.code).ledger(), lang_of(args))):
            raise _OutputFailed
    elif a == "show":
        _print(export_json(store.get(args.code).ledger()))
    elif a == "settle":
        _print(table_settle.run(store, args))
    elif a == "export":
        ledger = store.get(args.code).ledger()
        lang = getattr(args, "lang", None) or "zh"  # no --lang: zh, as the app's download
        text = (
            csv_text(ledger, lang)  # the app's download, byte for byte (BOM, every cell quoted)
            if args.format == "csv"
            else json.dumps(export_json(ledger), ensure_ascii=False, indent=1)
        )
        if args.output is not None:  # -o "": refused (write_file), not standard output
            write_file(args.output, text, store_files(store))
            _print({"code": ledger.table.code, "written": args.output})
        elif emit(text.removesuffix("\n")):
            raise _OutputFailed
    return 0
