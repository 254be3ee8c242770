"""User text shown by the app is inert Markdown, checked with a CommonMark
renderer (markdown-it-py, with GFM tables, strikethrough and linkify) in both contexts Streamlit
uses: a Markdown paragraph and a raw HTML block."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from markdown_it import MarkdownIt

from app.safe_text import md

RENDER = MarkdownIt("commonmark", {"html": True, "linkify": True}).enable(
    ["table", "strikethrough", "linkify"]
)

HOSTILE = [
    "![t](http://host/x.png)",
    "[click](javascript:alert(1))",
    "<img src=http://host/x.png>",
    "<script>alert(1)</script>",
    "http://host/x.png",
    "www.host.example",
    "<http://host/x.png>",
    "a@b.co WWW.host.example https://h.x/",  # Streamlit links these even as character references
    "# heading\n\n* list",
    "**bold** _em_ `code` ~~gone~~",
    "| a | b |\n|---|---|\n| c | d |",
    ":red[colour] :material/home: :smile:",
    "$x^2$ and $$y$$",
    "&lt;b&gt; &#91; &amp;",
    "1m\\[2m\\]",
]


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("context", ["paragraph", "html_block"])
def test_hostile_text_renders_as_its_own_characters(text, context):
    safe = md(text, limit=None)
    source = f"Unknown tiles: {safe}" if context == "paragraph" else f'<div class="jx">{safe}</div>'
    html = RENDER.render(source)
    for tag in ("<img", "<a ", "<script", "<h1", "<ul", "<em", "<strong", "<code", "<s>", "<table"):
        assert tag not in html, (text, html)
    seen = html_lib.unescape(re.sub(r"<[^>]+>", "", html)).replace("\u2060", "")  # shown (the joiner unseen)
    assert " ".join(text.split()) in seen


def test_long_values_are_cut_to_80_characters():
    out = md("x" * 500)
    assert out == "x" * 80 + "…"
    assert md("ab", limit=1) == "a…"


def test_non_strings_are_shown_too():
    assert md(12) == "12" and md(None) == "None"
