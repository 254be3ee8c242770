"""Ledger JSON as it arrives at an edge (`jxmj table record / edit / import`, the app's 导入):
bounded like score JSON (`app.jsonin`), checked before the ledger sees it.

- **A hand** (`record`, `edit`): at most `MAX_HAND_BYTES` (64 KiB, the score path's
  `jsonin.MAX_INPUT_BYTES`; a hand with three winners is a few kB), strict JSON, and every
  string within the score path's limits: a tile string `jsonin.MAX_TILE_CHARS`, a `note`
  `MAX_NOTE_CHARS` (ledger.parse), a `recorded` time `MAX_RECORDED_CHARS`, any other text or
  field name `jsonin.MAX_TEXT_CHARS`; nesting at most `jsonin.MAX_DEPTH`.
- **An export** (`import`): at most `MAX_IMPORT_HANDS` hands, the file at most
  `MAX_IMPORT_BYTES` (`MAX_IMPORT_HANDS` x `MAX_EXPORT_HAND_BYTES`, a hand with its derived
  outcome, plus `MAX_HAND_BYTES` for the table: 8,257,536 bytes, about 7.9 MiB, as README.md
  and docs/ledger-json.md say; tests/test_ledger_input.py checks) and `MAX_IMPORT_VALUES` JSON
  values (counted before parsing, as commas: `[[],[],...]` would cost json.loads 22 bytes per
  byte); the table and every hand within the hand limits above. `import_cost` is what
  reading one holds at most (the app's 导入 is admitted by `app.photo_gate` on it, like a
  photo). The derived parts (`outcome`, `totals`, `next`, `settlement`) are dropped on
  import, so only the file's size bounds them.

Errors are :class:`ledger.LedgerError`, each naming the problem: for a hand ``input_too_large``
(its size, a string's length) or ``bad_input``; for an export ``input_too_large`` (the file's
size, hands or values) or ``bad_import`` (anything in it, a string's length included); for a
file that is missing or cannot be read (a folder, no permission) ``input_unreadable``, naming
the path, as `jxmj score` does.
"""

from __future__ import annotations

from typing import Any

from app import jsonin
from ledger import LedgerError
from ledger.model import MAX_NOTE

MAX_HAND_BYTES = jsonin.MAX_INPUT_BYTES
MAX_EXPORT_HAND_BYTES = 4 * 1024  # on average; measured: 2.4 KB per hand (indented), 5 KB for three winners
MAX_EXPORT_HAND_VALUES = 250  # JSON values per hand on average (commas): measured 75
MAX_IMPORT_HANDS = 2000  # an evening is ~100 hands; bench/bench_ledger.py times a 2,000-hand table
MAX_IMPORT_BYTES = MAX_IMPORT_HANDS * MAX_EXPORT_HAND_BYTES + MAX_HAND_BYTES
MAX_IMPORT_VALUES = MAX_IMPORT_HANDS * MAX_EXPORT_HAND_VALUES
BYTES_PER_VALUE = 96  # what json.loads holds per value at most (an empty list: 56 + its slot), measured 90
MAX_NOTE_CHARS = MAX_NOTE
MAX_RECORDED_CHARS = 40  # an ISO 8601 time with its offset
LIMITS = {"note": MAX_NOTE_CHARS, "recorded": MAX_RECORDED_CHARS}
DERIVED = ("outcome",)  # a hand's fields an export adds and an import drops
_EXPORT_DERIVED = ("totals", "next", "settlement")

__all__ = [
    "MAX_HAND_BYTES",
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_HANDS",
    "import_cost",
    "parse_export",
    "parse_hand",
    "read",
]


def parse_hand(text: str) -> Any:
    """A hand's JSON text (record, edit) as its value; raises :class:`LedgerError`."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_HAND_BYTES:
        raise LedgerError("input_too_large", f"the hand is larger than {MAX_HAND_BYTES // 1024} KiB")
    try:
        return jsonin.parse(text, limits=LIMITS)
    except jsonin.InputError as e:
        raise LedgerError("input_too_large" if e.code == "input_too_large" else "bad_input", str(e)) from None


def parse_export(raw: bytes | str) -> Any:
    """An export's JSON (import) as its value; raises :class:`LedgerError`."""
    size = len(raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"))
    if size > MAX_IMPORT_BYTES:
        raise LedgerError(
            "input_too_large",
            f"the file is larger than {jsonin.size_text(MAX_IMPORT_BYTES)}: an export holds at most "
            f"{MAX_IMPORT_HANDS} hands",
        )
    values = (raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")).count(b",") + 1
    if values > MAX_IMPORT_VALUES:
        raise LedgerError(
            "input_too_large",
            f"the file holds {values:,} JSON values: an export of {MAX_IMPORT_HANDS} hands has at most "
            f"{MAX_IMPORT_VALUES:,}",
        )
    prefix = "not a jxmj table export: "
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = jsonin.parse(text.lstrip("\ufeff"), lengths=False, skip=(*DERIVED, *_EXPORT_DERIVED))
    except UnicodeDecodeError as e:
        raise LedgerError(
            "bad_import", f"{prefix}the file is not UTF-8 text (byte {e.start + 1} is not)"
        ) from None
    except jsonin.InputError as e:
        raise LedgerError("bad_import", prefix + str(e)) from None
    if isinstance(data, dict):
        hands = data.get("hands")
        hands = hands if isinstance(hands, list) else []
        if len(hands) > MAX_IMPORT_HANDS:
            raise LedgerError(
                "input_too_large",
                f"the export holds {len(hands)} hands: a table may have at most {MAX_IMPORT_HANDS}",
            )
        parts = [("its table: ", data.get("table"))]
        parts += [
            (f"hand {i}: ", {k: v for k, v in h.items() if k not in DERIVED})
            for i, h in enumerate(hands, 1)
            if isinstance(h, dict)
        ]
        for where, part in parts:
            try:
                jsonin.check_strings(part, limits=LIMITS)
            except jsonin.InputError as e:
                raise LedgerError("bad_import", prefix + where + str(e)) from None
    return data


def import_cost(raw: bytes) -> int:
    """Bytes reading the export `raw` holds at most: the file, its text (up to 4 bytes a
    character) and `BYTES_PER_VALUE` per value (commas, counted as `parse_export` counts)."""
    return 5 * len(raw) + BYTES_PER_VALUE * (min(raw.count(b","), MAX_IMPORT_VALUES) + 1)


def read(path: str, export: bool = False) -> Any:
    """The JSON value of the file `path` (or `-`: standard input): a hand, or (`export`) an
    export, within the limits above; raises :class:`LedgerError`."""
    limit = MAX_IMPORT_BYTES if export else MAX_HAND_BYTES
    try:
        raw = jsonin.read_bytes(path or "-", limit)
    except jsonin.InputError as e:
        if e.code == "input_too_large" and export:
            raise LedgerError(e.code, f"{e}: an export holds at most {MAX_IMPORT_HANDS} hands") from None
        kept = e.code in ("input_too_large", "input_unreadable")  # as `jxmj score` answers them
        raise LedgerError(e.code if kept else "bad_input", str(e)) from None
    if export:
        return parse_export(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LedgerError("bad_input", f"the input is not UTF-8 text (byte {e.start + 1} is not)") from None
    return parse_hand(text.lstrip("\ufeff"))
