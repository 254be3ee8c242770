"""Streamlit's icon lookups without its emoji table on the pages' first run.

Streamlit looks for a leading emoji in every non-ASCII option label (segmented controls, pills:
``streamlit.string_util.extract_leading_emoji``) and loads a table of every emoji for it, about a
fifth of the 牌局 page's first run in a process. A label that starts with a letter — Chinese
characters, a seat name like 张三 — cannot start with an emoji, so :func:`install` answers those
without the table; any other label goes to Streamlit's own lookup, unchanged.
"""

from __future__ import annotations

import functools

from streamlit import string_util

__all__ = ["PAGE_ICON", "install"]

#: the tab's icon: a Material icon name, drawn by the browser (an image file or an emoji would
#: load numpy + Pillow or the emoji table on the first run)
PAGE_ICON = ":material/grid_view:"


def install() -> None:
    """Wrap ``extract_leading_emoji`` once per process (idempotent): ``(icon, rest)`` as before,
    ``("", text)`` at once when ``text`` starts with a letter (``str.isalpha``: no emoji is one)."""
    inner = getattr(string_util, "extract_leading_emoji", None)
    if inner is None or getattr(inner, "jxmj_quick", False):  # another Streamlit: left as it is
        return

    @functools.wraps(inner)
    def quick(text: str) -> tuple[str, str]:
        if text[:1].isalpha():
            return "", text
        return inner(text)

    quick.jxmj_quick = True  # type: ignore[attr-defined]
    string_util.extract_leading_emoji = quick
