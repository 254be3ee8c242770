"""The ledger's exceptions: each carries a stable ``code`` beside its one-sentence message.

The app translates by ``code`` (``app/locales``, ``ledger.<code>``), never by matching the
English text; the CLI prints ``{"error": str(e), "code": e.code}`` with exit status 2
(`app.table_errors`: in Chinese by the code with ``--lang zh``).
"""

from __future__ import annotations

import math

from scoring.jsontype import json_type

__all__ = ["CODES", "ConflictError", "LedgerError", "LockedError", "NotFoundError", "StoreError", "shown"]

ECHO_CHARS = 80

CODES = (
    "bad_code", "bad_hand", "bad_import", "bad_money", "bad_ref", "bad_rule", "bad_seats", "bad_title",
    "bad_url", "cannot_win", "conflict", "corrupt_store", "disk_full", "missing_driver", "newer_schema",
    "no_such_hand", "not_the_dealer", "payers_contradict_seats", "read_only_store", "rule_not_in_variant",
    "store_busy", "store_io_error", "store_unreachable", "table_locked", "table_not_found", "unknown_rule",
    "unknown_seat", "unknown_variant",
)  # fmt: skip
"""Every ``code`` the ledger raises (tests/cli/test_cmd_table_errors.py reads the source for them);
a hand may also pass a scoring code through (``not_complete``, ``fifth_copy``: scoring.errors.CODES)."""


def shown(value: object) -> str:
    """A user's value echoed in an error, cut to about :data:`ECHO_CHARS` characters: as the
    file or the command line spells it, never as Python does — ``true`` / ``false`` / ``null``
    (not ``True`` / ``None``), inside a list or an object too; a string quoted; a number too large
    for a float (JSON's ``1e400``, read as ``inf``: `scoring.jsontype.json_type`'s words).

    >>> shown("ab"), shown("x" * 100)[-3:], shown(True), shown(None), shown([1, True, None])
    ("'ab'", 'xx…', 'true', 'null', '[1, true, null]')
    >>> shown(float("inf")), shown([float("nan")])
    ('a number too large', '[nan (not a number)]')
    """
    text = _spelled(value, ECHO_CHARS + 1)
    return text if len(text) <= ECHO_CHARS else f"{text[:ECHO_CHARS]}…"


def _spelled(value: object, budget: int) -> str:
    """`value` in JSON's words for its constants, at least `budget` characters of it (a long list
    is not spelled out whole: only what the echo shows; each level down spends one of it)."""
    if budget <= 0:
        return "…"
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, float) and not math.isfinite(value):  # JSON's 1e400, TOML's inf / nan
        return json_type(value)  # 'a number too large', never Python's inf
    if isinstance(value, list | tuple | dict):
        items = value.items() if isinstance(value, dict) else value
        parts, used = [], 0
        for item in items:
            part = (
                f"{_spelled(item[0], budget - 1)}: {_spelled(item[1], budget - 1)}"
                if isinstance(value, dict)
                else _spelled(item, budget - 1)
            )
            parts.append(part)
            used += len(part) + 2
            if used > budget:
                break
        inner = ", ".join(parts)
        return f"{{{inner}}}" if isinstance(value, dict) else f"[{inner}]"
    return repr(value)


class LedgerError(ValueError):
    """Bad ledger input: an unknown seat, payers that contradict the seats, a bad import …

    ``code`` is a stable word (``unknown_seat``, ``payers_contradict_seats``, ``bad_hand`` …);
    ``str(error)`` is one sentence naming the problem; ``cause``, where one is known, the code of
    the problem inside (a ``bad_import`` whose table has ``bad_seats``; ``import_version``: an
    export's format version this jxmj does not read), so the app can say why in either language.
    """

    def __init__(self, code: str, message: str, cause: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.cause = cause


class NotFoundError(LedgerError):
    """No table has that code (the message never hints at which codes exist)."""

    def __init__(self, message: str) -> None:
        super().__init__("table_not_found", message)


class LockedError(LedgerError):
    """The table is settled and locked read-only: nothing can be recorded, edited or undone."""

    def __init__(self, message: str) -> None:
        super().__init__("table_locked", message)


class ConflictError(LedgerError):
    """Another writer changed the table first (optimistic concurrency on the hand count)."""

    def __init__(self, message: str) -> None:
        super().__init__("conflict", message)


class StoreError(LedgerError):
    """The database cannot be used: corrupt file, newer schema, unreachable server, missing driver."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)
