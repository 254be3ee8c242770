"""The errors of `jxmj table`: every code it prints, and its error object in the chosen language.

Any bad input exits 2 with ``{"error": sentence, "code": code}`` on standard output. The
language is ``--lang zh|en``, by default the locale's (`app.clilang.lang_of`, as `jxmj score`):

- ``en``: the sentence is the ledger's own, naming the problem (the hand, the seat, the value);
- ``zh``: the sentence is the Chinese one for the code in the app's catalog (``app/locales``:
  ``ledger.<code>``; a scoring code a hand passed through: ``code.<code>``), and ``"detail"``
  holds the English sentence, so nothing that names the problem is lost.

>>> error_object("no table has the code K7QM9ACXTRE", "table_not_found", "en")
{'error': 'no table has the code K7QM9ACXTRE', 'code': 'table_not_found'}
>>> error_object("hand 1: ...", "bad_hand", "zh")["error"]
'这一把记不下来。'
"""

from __future__ import annotations

from ledger.errors import CODES as LEDGER_CODES

__all__ = ["CLI_CODES", "ERROR_CODES", "catalog_key", "error_object"]

CLI_CODES = (
    "bad_input",  # a hand, --rules or --kongs that is not strict JSON (app.ledgerin)
    "input_too_large",
    "input_unreadable",
    "output_not_written",  # export -o FILE cannot be written
    "output_is_store",  # export -o onto the ledger database itself
    "no_font",  # settle --png on a machine without a CJK font (app.picture_fonts)
    "bad_usage",  # app.cli.USAGE_CODE: an unknown option, a missing argument, a refused value
    "internal",  # a bug, reported as an error object, never a traceback
)
"""The codes `jxmj table` adds to the ledger's (`ledger.errors.CODES`)."""
ERROR_CODES = (*LEDGER_CODES, *CLI_CODES)
"""Every code `jxmj table` prints, besides the scoring codes a hand passes through
(`scoring.errors.CODES`)."""


def catalog_key(code: str) -> str:
    """The catalog key of ``code``: ``ledger.<code>``, else ``code.<code>`` (a scoring code),
    else ``code.unknown`` (a code the catalog does not hold yet; the tests allow none)."""
    from app.ui.i18n import catalog

    words = catalog("zh")
    return next((k for k in (f"ledger.{code}", f"code.{code}") if k in words), "code.unknown")


def error_object(message: str, code: str, lang: str) -> dict[str, str]:
    """``{"error", "code"}`` in ``lang`` (``"zh"`` or ``"en"``); in Chinese with ``"detail"``,
    the English ``message``."""
    if lang != "zh":
        return {"error": message, "code": code}
    from app.ui.i18n import catalog

    return {"error": catalog("zh")[catalog_key(code)], "code": code, "detail": message}
