"""One catalog per language (`app/locales/<lang>.json`, flat keys) and a tiny lookup.

`t("key", n=3)` returns the current language's text with `str.format` fields filled; a key
missing from a catalog falls back to Chinese, then to the key itself (the tests check that
both catalogs hold the same keys, so the fallback is a safety net only).

The Chinese catalog writes no English word (file formats, units, the command line and JSON keys
aside). The English catalog keeps the players' Chinese terms, each with its English beside it
the first time a page (or one of its tabs) shows it — ``Money per 炮 (pào, points)``, ``Green
dragon 發``, ``Declared ready 报听`` — and bare after that; tile names are
`scoring.tiles.Tile.en` (with an honour's Chinese). `tests/app/gloss_rules.py` states the
rule exactly; the tests walk every string and every page state against it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "locales"
LANGS = ("zh", "en")
DEFAULT = "zh"

# Per script-run (each Streamlit session runs in its own thread), never a shared global.
_current: ContextVar[str] = ContextVar("jxmj_lang", default=DEFAULT)


@cache
def catalog(lang: str) -> dict[str, str]:
    with open(LOCALES / f"{lang}.json", encoding="utf-8") as f:
        return json.load(f)


def set_lang(lang: str) -> None:
    _current.set(lang if lang in LANGS else DEFAULT)


def lang() -> str:
    return _current.get()


def t(key: str, /, **fields: object) -> str:
    return _word(_current.get(), key, fields)


def _word(lang: str, key: str, fields: dict[str, object]) -> str:
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(DEFAULT).get(key, key)
    return text.format(**fields) if fields else text


def words(lang: str) -> Callable[..., str]:
    """`t` in `lang` whatever this run's language is (a file made in a chosen language: the
    settlement picture of `jxmj table settle --png` and of the page's download)."""
    lang = lang if lang in LANGS else DEFAULT
    return lambda key, /, **fields: _word(lang, key, fields)


def labels(options, key) -> Callable[[object], str]:
    """A widget's `format_func`: the label of each option in this run's language, looked up
    from a table made now (a widget's labels never depend on where the lookup runs later)."""
    table = {option: t(key(option)) for option in options}
    return table.__getitem__


def label_id(label: object, keys: dict[str, str]) -> str | None:
    """The id in `keys` (``{id: catalog key}``) whose label, in any language, is `label`; None
    when none is. A widget keyed by its labels (tabs) changes identity with the language: this
    finds what the player chose whichever language it was drawn in (the Learn page's tabs, the
    吃炮 payers' tabs).

    >>> label_id("Practice", {"xinyu": "variant.xinyu", "practice": "learn.practice"})
    'practice'
    """
    return next((i for i, key in keys.items() if label in {catalog(lang)[key] for lang in LANGS}), None)


def has(key: str) -> bool:
    """The current language's catalog has `key` (for labels of engine codes that may be new)."""
    return key in catalog(_current.get())


def pick_lang(accept_language: str | None, locale: str | None = None) -> str:
    """The catalog language for a browser: its locale, else its Accept-Language, else zh.

    Only Chinese or English are offered; a browser asking for anything else gets Chinese
    unless English is among its preferences ahead of Chinese.
    """
    prefs: list[tuple[float, str]] = []
    if locale:
        prefs.append((2.0, locale))
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        if not tag:
            continue
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            weight = 0.0
        prefs.append((weight - i * 1e-3, tag))
    for _, tag in sorted(prefs, reverse=True):
        base = tag.split("-")[0].split("_")[0].lower()
        if base in LANGS:
            return base
    return DEFAULT
