"""Every message the app leaves for the player — after a rerun, or beside what caused it — is a
:class:`Flash`: a catalog key and its fields, worded when it is drawn, in that run's language
(`app.ui.i18n`), never a sentence made earlier.

Where it goes:

- `app.ui.hand.session.post` queues it in the hand in progress (`HandInProgress.post`, one queue
  per page / table, `app.ui.hand.session.use`) for a place (``where``);
  `app.ui.hand.session.show_posted` draws and forgets the messages of one place, or all that are
  left (`HandInProgress.take`). Used for a photo that could not be read (``top``: above the
  photo) and the 牌局 page's writes (beside the button that made them). This module is a leaf:
  the message and how it is drawn.
- A message that stays while its cause does (the tile panel's refused edit `panel_msg`, the
  typed tile string `typed_msg`, both of the hand in progress) is one :class:`Flash`, drawn by
  :func:`show` where it belongs.

A success is a toast (in view wherever the page is scrolled); the other levels are Streamlit's
``st.info`` / ``st.warning`` / ``st.error``, beside their cause.

>>> from app.ui.i18n import set_lang
>>> set_lang("en")
>>> Flash("success", "table.recorded", {"n": 3}).text()
'Hand 3 recorded.'
>>> Flash("error", "ledger.conflict", english="table X changed meanwhile", then="ledger.reloaded").text()
'table X changed meanwhile The table was reloaded; your hand in progress is kept.'
>>> set_lang("zh")
>>> Flash("error", "ledger.conflict", english="table X changed meanwhile", then="ledger.reloaded").text()
'另一部手机先改了这一桌。 已重新读取牌局；编辑中的牌还在。'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from app.safe_text import md
from app.ui.i18n import has, lang, t

__all__ = ["LEVELS", "Flash", "check_level", "code_flash", "ledger_flash", "show"]

LEVELS = ("info", "warning", "error", "success")
TOAST_ICON = ":material/check_circle:"


@dataclass(frozen=True, slots=True)
class Flash:
    """One message, worded in the page's language when it is shown.

    Attributes:
        level: one of :data:`LEVELS`.
        key: the catalog key of the sentence.
        fields: fill the sentence. A string is the player's text (shown as inert Markdown), a
            :class:`Flash` a sentence worded in place; anything else is formatted as it is.
        detail: an English sentence (the engine's, the decoder's), added in brackets on the
            English page only.
        english: a sentence the English page shows instead of the catalog's (the ledger's or
            the engine's own, which names the hand, the seat or the tile).
        then: the catalog key of a sentence that follows.
        where: the place `app.ui.hand.session.show_posted` draws it.
    """

    level: str
    key: str
    fields: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    english: str = ""
    then: str = ""
    where: str = "top"

    def text(self) -> str:
        """The message in this run's language (Markdown, every piece the player typed inert)."""
        if self.english and lang() == "en":
            out = md(self.english, limit=300)
        else:
            out = t(self.key, **{k: _field(v) for k, v in self.fields.items()})
        if self.detail and lang() == "en":
            out += f" ({md(self.detail, limit=300)})"
        return out + (" " + t(self.then) if self.then else "")


def _field(value: Any) -> Any:
    if isinstance(value, Flash):
        return value.text()
    return md(value, limit=None) if isinstance(value, str) else value


def code_flash(code: str, message: str = "", level: str = "error") -> Flash:
    """The sentence for an engine error code (`fifth_copy`) or an app refusal code (`empty`):
    ``code.<code>`` (``code.unknown`` for one the catalog does not hold yet); the English page
    shows `message`, the engine's own sentence."""
    return Flash(level, f"code.{code}" if has(f"code.{code}") else "code.unknown", english=message)


def ledger_flash(e: Any, where: str = "top") -> Flash:
    """A :class:`ledger.LedgerError` (``code``, ``message``): ``ledger.<code>``, else the scoring
    code it passed through (`code_flash`); a conflict adds that the table was reloaded."""
    key = f"ledger.{e.code}" if has(f"ledger.{e.code}") else code_flash(e.code).key
    why = f"ledger.{getattr(e, 'cause', '')}"  # an export refused: why, in either language
    if e.code == "bad_import" and why != "ledger." and has(why):
        return Flash(
            "error", "ledger.bad_import_why", {"why": Flash("error", why)}, english=e.message, where=where
        )
    return Flash("error", key, english=e.message, where=where,
                 then="ledger.reloaded" if e.code == "conflict" else "")  # fmt: skip


def show(f: Flash, toast: bool = False) -> None:
    """Draw `f` here (a success, or with `toast`: a toast, seen wherever the page is scrolled —
    a draft not saved, said at the end of the run)."""
    if f.level == "success" or toast:
        st.toast(f.text(), icon=TOAST_ICON if f.level == "success" else ":material/warning:")
    else:
        getattr(st, f.level)(f.text())


def check_level(f: Flash) -> Flash:
    """`f`, its level checked (one of `LEVELS`): before it is queued, so a bad one fails where made."""
    if f.level not in LEVELS:
        raise ValueError(f"level {f.level!r} is not one of {LEVELS}")
    return f
