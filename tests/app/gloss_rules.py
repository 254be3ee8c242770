"""The language rules of the page text, shared by the catalog walk and the page walk.

**Chinese text** (``zh_problems``): no English word. A *word* is a run of two or more Latin
letters (single letters are tile notation: ``m p s E S W N C F P``); the only words allowed are
`ZH_ASCII` — file formats, units, the brand, the command line and the JSON keys a user types.
``{field}`` placeholders, URLs, file paths, HTML markup, ``"quoted"`` ASCII (the JSON of a
placeholder's example) and dotted rule keys (``drawn.window``) are not text.

**English text** (``en_problems``): every *Chinese run* — Han characters, with ``/`` between two
of them kept in the run (``中/白``) — is *glossed* where it stands, or was glossed earlier in the
same scope (a page, or one tab of it: the terms a tab's reader has been told). A run is glossed
where it stands when

1. English comes right before it: ``Self-drawn 自摸``, ``drawn (黄庄)``, ``Basic hand<br>平胡`` —
   space (or `` (``) after a Latin word that is not a `FUNCTION_WORDS` word (so ``Money per 炮``
   is not a gloss);
   a run of only dragons (``發``, ``中``, ``白``, ``中/白``) needs its tile name: ``dragon`` or
   ``dragons`` among the two words before it (``Green dragon 發``, ``Red/White dragon 中/白``);
2. or a parenthesised gloss starting with a Latin letter follows it: ``炮 (pào, points)``,
   ``**炸糊** (a false win)``.

``**`` (Markdown bold) is ignored by both rules. A run told in parts is told (``中`` and ``白``
glossed, ``中/白`` may stand bare), and the language switch's ``中文`` is its own name. In the
catalog walk each string is its own scope, except for `PAGE_TERMS`, which a page glosses once
(its first occurrence) and may then use bare; the page walk checks that first occurrence.
"""

from __future__ import annotations

import html
import re

from google.protobuf.message import Message

from ledger.codes import ALPHABET, LENGTH

HAN = r"[\u3400-\u9fff\uf900-\ufaff]"
RUN = re.compile(rf"{HAN}+(?:/{HAN}+)*")
WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z_]+(?![A-Za-z0-9_])")

ZH_ASCII = {
    *("JPEG", "PNG", "WebP", "HEIC", "AVIF", "CSV", "JSON", "MB", "MiB"),  # formats and units
    *("GIF", "BMP", "TIFF", "PDF"),  # a refused upload's format, named
    *("jxmj", "app", "parlour", "https", "http", "JXMJ_DB", "QR"),  # the brand and its command line
    *("ledger", "scoring", "true", "false"),  # the house rules' JSON keys and values
    *("score", "annotate", "force", "models", "JXMJ_MODELS_DIR"),  # jxmj detect / photo's commands
    "EN",  # the language switch names English in English
}

FUNCTION_WORDS = {
    *("a", "an", "the", "of", "per", "each", "for", "with", "without", "and", "or", "on", "in"),
    *("to", "at", "by", "as", "no", "not", "its", "their", "all", "both", "every", "than"),
    *("more", "plus", "is", "are", "only", "one", "two", "three", "four", "any", "own", "also"),
    *("from", "into", "same", "this", "that", "these", "other", "whose", "what", "it", "be"),
}

# Terms a page glosses once (the first time it shows them) and then uses bare: the scoring
# unit, the dragons, and the table words every page repeats.
PAGE_TERMS = {
    *("炮", "發", "中", "白", "中/白", "吃炮", "报听", "庄", "庄家", "自摸", "点炮", "平胡"),
    *("二炮起胡", "黄庄", "跟庄", "炸糊", "门清", "见花十炮"),
}

# The language switch names Chinese in Chinese on every page.
SELF_NAMES = {"中文"}

DRAGONS = re.compile(r"[發中白](?:/[發中白])*")


def _plain(text: str) -> str:
    """Text without placeholders, markup, links and Markdown bold/italics."""
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a Markdown image: its alt text
    text = re.sub(r"\]\([^)]*\)", "]", text)  # a Markdown link: its words
    attrs = re.findall(r"""\b(?:title|alt|aria-label)=["']([^"']*)["']""", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = " ".join([text, *attrs])
    text = re.sub(r"\{[a-z_]+\}", "0", text)
    text = re.sub(r"https?://\S+|\b[\w.-]+/[\w./-]+\.\w+\b", " ", text)  # addresses and paths
    return html.unescape(text).replace("**", "").replace("__", "")


TABLE_CODE = re.compile(rf"(?<![A-Za-z0-9])[{ALPHABET}]{{{LENGTH}}}(?![A-Za-z0-9])")


def zh_problems(text: str) -> list[str]:
    """The English words in Chinese text (see the module docstring); a table's code is none.

    >>> zh_problems("直接打开这一桌（JENECDCNTQX）：Open")
    ['Open']
    """
    code = re.sub(r'"[ -~]*?"', " ", _plain(text))  # JSON a user types (a placeholder's example)
    code = re.sub(r"\b[a-z_]+(?:\.[a-z_]+)+\b", " ", code)  # a house rule's key: drawn.window
    code = TABLE_CODE.sub(" ", code)  # a table's code (random: all letters one time in 7)
    return [w for w in WORD.findall(code) if w not in ZH_ASCII]


def _glossed_here(text: str, m: re.Match) -> bool:
    before, after = text[: m.start()], text[m.end() :]
    if re.match(r"\s?\(\s*[A-Za-z]", after):
        return True
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", before[-40:])
    if not re.search(r"[A-Za-z'’)-](?:\s+|\s*\()$", before) or not words:
        return False
    if DRAGONS.fullmatch(m.group()):
        return any(w.lower() in ("dragon", "dragons") for w in words[-2:])
    return words[-1].lower() not in FUNCTION_WORDS


def en_runs(text: str) -> list[tuple[str, bool]]:
    """Each Chinese run of English text in order, and whether it is glossed where it stands."""
    plain = _plain(text)
    return [(m.group(), _glossed_here(plain, m)) for m in RUN.finditer(plain)]


def en_problems(text: str, told: set[str] | None = None) -> list[str]:
    """The Chinese runs of `text` neither glossed where they stand nor in `told` (the terms
    glossed earlier in the scope); `told` gains each run glossed here."""
    told = set() if told is None else told
    bad = []
    for run, glossed in en_runs(text):
        if glossed:
            told.update({run, *run.split("/")})
        elif not (run in told or run in SELF_NAMES or all(p in told for p in run.split("/"))):
            bad.append(run)
    return bad


TEXT_FIELDS = {"label", "help", "body", "content", "placeholder"}
SKIPPED = {"Code"}  # the join address, not words


def _texts(msg: Message) -> list[str]:
    out = []
    for field, value in msg.ListFields():
        values = value if isinstance(value, (list, tuple)) or hasattr(value, "extend") else [value]
        for v in values:
            if isinstance(v, Message):
                out += _texts(v)
            elif isinstance(v, str) and field.name in TEXT_FIELDS and v.strip():
                out.append(v)
    return out


def page_problems(at, lang: str) -> list[tuple[str, str]]:
    """(text, the word or run at fault) for each fault of an AppTest page, in drawing order.

    The walk reads every text a user sees or hears of the element tree — labels, help,
    captions, options, placeholders, Markdown and HTML (without its style and script, with its
    ``alt``, ``title`` and ``aria-label``) — in the order the page draws it. A tab is a scope of
    its own: a term glossed on one tab is not glossed for the reader of another (what precedes
    the tabs is). What the user typed is not page text, and neither is the join address's code
    block."""
    bad: list[tuple[str, str]] = []

    def walk(node, told: set[str]) -> None:
        if type(node).__name__ == "Tab":
            told = set(told)
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message) and type(node).__name__ not in SKIPPED:
            for text in _texts(proto):
                faults = zh_problems(text) if lang == "zh" else en_problems(text, told)
                bad.extend((text[:160], f) for f in faults)
        for child in (getattr(node, "children", None) or {}).values():
            walk(child, told)

    walk(at._tree, set())
    return bad


def page_texts(at) -> list[str]:
    """Every text of an AppTest page as `page_problems` reads it, plain, in drawing order."""
    out: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if isinstance(proto, Message) and type(node).__name__ not in SKIPPED:
            out.extend(" ".join(_plain(text).split()) for text in _texts(proto))
        for child in (getattr(node, "children", None) or {}).values():
            walk(child)

    walk(at._tree)
    return out
