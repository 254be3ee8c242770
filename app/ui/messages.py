"""Engine and photo messages in the page language, by code — never by matching English text.

The engine gives every `HandError` a `code` and every refused win a `ScoreResult.reason_code`;
the catalog holds `code.<code>` and `why.<reason_code>` in zh and en. On the English page the
engine's own sentence (more specific: it names the tile) is shown; on the Chinese page the
catalog's, so no English sentence reaches it.
"""

from __future__ import annotations

from app.ui.flash import code_flash
from app.ui.i18n import has, lang, t
from app.ui.render.html import num
from scoring import ScoreResult


def code_text(code: str, message: str = "") -> str:
    """The sentence for an engine error code (`fifth_copy`) or an app refusal code (`empty`),
    worded now: `app.ui.flash.code_flash` (on the English page `message`, the engine's own
    sentence, as inert Markdown)."""
    return code_flash(code, message).text()


def cannot_win_text(result: ScoreResult) -> str:
    """Why a complete hand may not be won (二炮起胡, 新余 self-draw only)."""
    code = result.reason_code or ""
    if lang() == "en" and result.reason:
        return result.reason
    key = f"why.{code}"
    return t(key, own=num(result.own)) if has(key) else t("res.cannot_win")
