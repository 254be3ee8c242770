"""Streamlit's icon lookups without its emoji table on the pages' first run.

Streamlit looks for a leading emoji in every non-ASCII option label (segmented controls, pills:
``streamlit.string_util.extract_leading_emoji``) and loads a table of every emoji for it, about a
fifth of the 牌局 page's first run in a process. A label that starts with a letter — Chinese
characters, a seat name like 张三 — cannot start with an emoji, so :func:`install` answers those
without the table; any other label goes to Streamlit's own lookup, unchanged.
"""

from __future__ import annotations

import functools
from typing import Any

from streamlit import string_util

__all__ = ["PAGE_ICON", "install"]

#: the tab's icon: a tile with a red 中, an SVG data URL the browser draws itself. Not a Material
#: icon name: the browser fetches those from fonts.gstatic.com, and the table's network may have
#: no internet (nothing is fetched at run time). Not an image file or an emoji either: they would
#: load numpy + Pillow or the emoji table on the first run; :func:`install` passes a data URL
#: through as it is (Streamlit's own favicon path imports numpy + Pillow even for a URL).
PAGE_ICON = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E"
    "%3Crect x='4' y='2' width='16' height='20' rx='3' fill='%23fffdf5'"
    " stroke='%232e7d4f' stroke-width='2'/%3E"
    "%3Crect x='11' y='6' width='2' height='12' fill='%23c62828'/%3E"
    "%3Crect x='7.5' y='9' width='9' height='5' rx='1' fill='none' stroke='%23c62828' stroke-width='2'/%3E"
    "%3C/svg%3E"
)


def install() -> None:
    """Wrap ``extract_leading_emoji`` (and the favicon lookup: `_favicon_as_is`) once per process
    (idempotent): ``(icon, rest)`` as before,
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
    _favicon_as_is()


def _favicon_as_is() -> None:
    """Wrap ``page_config._get_favicon_string`` once: a ``data:`` URL (``PAGE_ICON``) is returned
    as it is, without ``image_to_url``'s numpy + Pillow imports; anything else as before."""
    from streamlit.commands import page_config

    inner = getattr(page_config, "_get_favicon_string", None)
    if inner is None or getattr(inner, "jxmj_quick", False):
        return

    @functools.wraps(inner)
    def as_is(page_icon: Any) -> str:
        if isinstance(page_icon, str) and page_icon.startswith("data:"):
            return page_icon
        return inner(page_icon)

    as_is.jxmj_quick = True  # type: ignore[attr-defined]
    page_config._get_favicon_string = as_is
