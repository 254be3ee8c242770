"""Text a table shows everywhere — seat names and titles — holds no control or format character.

A right-to-left override (U+202E, category Cf) reverses what the settlement says on screen; a
carriage return (Cc) breaks a CSV row; an escape (Cc) drives the terminal a CSV is printed to.
So new seat names and titles refuse Unicode categories Cc and Cf (:func:`check_text`), naming
the character, and text already stored shows them as U+FFFD (:func:`visible`). A new seat name
must also show something (:func:`shows_nothing`): ``"\u0301"`` alone (a combining accent with
nothing to sit on) or a Hangul filler passed as a name nobody can see or tell apart.

>>> unprintable("张三\\u202e")
'U+202E RIGHT-TO-LEFT OVERRIDE'
>>> visible("a\\x1b[31mb")
'a\\ufffd[31mb'
>>> shows_nothing("\\u0301\\u0302"), shows_nothing("e\\u0301"), shows_nothing("\\u3164")
(True, False, True)
"""

from __future__ import annotations

import unicodedata

from ledger.errors import LedgerError

__all__ = ["check_text", "code_points", "shows_nothing", "unprintable", "visible"]

_REFUSED = ("Cc", "Cf")
_SHOWN = "LNPS"  # the general categories that draw something: letters, numbers, punctuation, symbols
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # Hangul fillers (Lo), the blank Braille pattern (So)


def shows_nothing(text: str) -> bool:
    """True when ``text`` after NFKC holds no character that draws anything: only combining marks
    (Unicode M*), spaces (Z*), controls and format characters (C*), Hangul fillers, blank Braille."""
    shown = unicodedata.normalize("NFKC", text)
    return not any(unicodedata.category(ch)[0] in _SHOWN and ch not in _BLANK for ch in shown)


def code_points(text: str, limit: int = 8) -> str:
    """``text`` as ``U+XXXX`` code points (the first ``limit``), for text that shows nothing.

    >>> code_points("\\u0301a")
    'U+0301 U+0061'
    """
    points = " ".join(f"U+{ord(ch):04X}" for ch in text[:limit])
    return points + (" …" if len(text) > limit else "")


def unprintable(text: str) -> str | None:
    """The first character of ``text`` in category Cc or Cf, as ``U+XXXX NAME``, or None."""
    for ch in text:
        if unicodedata.category(ch) in _REFUSED:
            name = unicodedata.name(ch, "") or {"\r": "CARRIAGE RETURN", "\n": "LINE FEED", "\t": "TAB"}.get(
                ch, "CONTROL CHARACTER"
            )
            return f"U+{ord(ch):04X} {name}"
    return None


def check_text(text: str, what: str, code: str) -> None:
    """Raise :class:`LedgerError` ``code`` when ``text`` (``what``, e.g. "the seat name") holds a
    control or format character."""
    bad = unprintable(text)
    if bad:
        raise LedgerError(
            code,
            f"{what} {text!r} holds {bad}, a control or "  # repr escapes it once: '\\u202eA'
            "format character: type the name without it",
        )


def visible(text: str) -> str:
    """``text`` with every Cc / Cf character replaced by U+FFFD (for text stored before)."""
    return "".join("\ufffd" if unicodedata.category(ch) in _REFUSED else ch for ch in text)
