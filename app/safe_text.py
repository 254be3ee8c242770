"""User text made inert for everything Streamlit renders as Markdown.

`st.markdown`, `st.error` / `st.warning` / `st.info`, `st.caption`, toasts and HTML blocks
with `unsafe_allow_html=True` all parse Markdown (GitHub flavour, plus Streamlit's own
`:red[...]` directives, `:emoji:` codes and `$LaTeX$`). A user's text shown in any of them —
a typed tile string, a payer's name, a file name, an engine message quoting them — goes
through `md()` first: HTML is escaped, and every character that can start Markdown syntax
becomes a character reference (`[` -> `&#91;`), which both Markdown paragraphs and raw HTML
blocks display as the character itself and never as syntax, so `![t](http://host/x.png)`
shows as those characters and the browser fetches nothing. Newlines become spaces (no new
blocks), and a long value is cut to `limit` characters with "…". Streamlit's Markdown makes
links of ``http://``, ``www.`` and e-mail addresses in plain text too, so an invisible WORD JOINER
(``&#8288;``, U+2060) breaks each of them (Chromium, tests/app/test_table_names.py).

>>> md("![t](http://host/x.png)")
'&#33;&#91;t&#93;&#40;http&#58;&#8288;&#47;&#47;host&#47;x&#46;png&#41;'
>>> md("<b>王</b>\\n# 1m")
'&lt;b&gt;王&lt;&#47;b&gt; &#35; 1m'
"""

from __future__ import annotations

import re

ECHO_CHARS = 80
_SYNTAX = "\\`*_{}[]()#+-.!|~:$=^%@/"  # Markdown, GFM, Streamlit directives, LaTeX, autolinks
_TABLE = {ord(c): f"&#{ord(c)};" for c in _SYNTAX}
_TABLE.update({ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;", ord("'"): "&#39;"})
# Streamlit's Markdown makes links of http://, www. and e-mail addresses in the text itself, character
# references or not (seen in Chromium: a seat named http://h.x/ became a link): an invisible
# WORD JOINER (U+2060) before the `/` of `://`, the `.` of `www.` and the `@` breaks each pattern.
_NO_LINK = re.compile(r"&#58;&#47;|(?i:www)&#46;|&#64;")


def md(text: object, limit: int | None = ECHO_CHARS) -> str:
    """`text` (any value; `str()` of it) safe to place inside Markdown or an HTML block.

    Args:
        text: what the user typed or uploaded, or a message quoting it.
        limit: cut to this many characters first, with "…" (None: no limit).
    """
    s = " ".join(str(text).split())
    if limit is not None and len(s) > limit:
        s = s[:limit] + "…"
    return _NO_LINK.sub(lambda m: m[0][:-5] + "&#8288;" + m[0][-5:], s.translate(_TABLE))
