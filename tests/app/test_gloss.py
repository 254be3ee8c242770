"""The catalogs, walked string by string: the Chinese says no English word, the English glosses
its Chinese (the rules: `tests.app.gloss_rules`), tile names are the engine's, and every key is
used by the code and held by both languages."""

from __future__ import annotations

import random
import re

import pytest

from app.streamlit_app import PAGES
from app.ui import i18n
from app.ui.learn.examples import EXAMPLES
from app.ui.learn.practice import LEVELS, new_practice
from app.ui.learn.rules import catalog_keys
from app.ui.render.html import items_table
from app.ui.state import OTHER_SEATS
from app.ui.state.conditions import COUNTERS
from app.ui.table.edit import EDIT_KINDS
from scoring import REASON_CODES
from scoring.errors import CODES
from scoring.model import EVENTS, MELD_KINDS
from scoring.rules import VARIANTS
from scoring.tiles import HONOURS, SUITS, Tile, tile_of
from tests.app.conftest import ROOT
from tests.app.gloss_rules import PAGE_TERMS, en_problems, en_runs, zh_problems

ZH, EN = i18n.catalog("zh"), i18n.catalog("en")
RULE_KEYS = {v: catalog_keys(v) for v in VARIANTS}


def test_both_catalogs_hold_the_same_keys():
    assert sorted(set(ZH) ^ set(EN)) == []


def test_the_chinese_catalog_says_no_english_word():
    assert {k: zh_problems(v) for k, v in ZH.items() if zh_problems(v)} == {}


def test_the_english_catalog_glosses_its_chinese():
    """Each string is a scope of its own, told only the `PAGE_TERMS`; the rule texts of one
    variant are read as the Learn tab shows them, in order, as one scope."""
    bad = {}
    in_rules = {k for keys in RULE_KEYS.values() for k in keys}
    for key, text in EN.items():
        if key not in in_rules and (faults := en_problems(text, set(PAGE_TERMS))):
            bad[key] = faults
    for keys in RULE_KEYS.values():
        told = {"炮"}  # the page's intro, above the tabs, glosses the unit
        for key in keys:
            if faults := en_problems(EN[key], told):
                bad[key] = faults
    assert bad == {}


def test_every_page_term_is_glossed_somewhere():
    """A term a page may use bare after its first time (`PAGE_TERMS`) has a gloss to give."""
    glossed = {run for text in EN.values() for run, ok in en_runs(text) if ok}
    assert sorted(t for t in PAGE_TERMS if not set(t.split("/")) <= glossed and t not in glossed) == []


@pytest.mark.parametrize(
    ("text", "faults"),
    [
        ("Self-drawn 自摸", []),
        ("Money per 炮", ["炮"]),
        ("Money per 炮 (pào, points)", []),
        ("set-aside 發 in front", ["發"]),
        ("set-aside Green dragons 發 in front", []),
        ("Red/White dragon 中/白 sets, then 中/白 pungs", []),
        ("drawn (黄庄)", []),
        ("- **跟庄**: when the three others follow", ["跟庄"]),
        ("Basic hand<br><span class='jx-en'>平胡</span>", []),
    ],
)
def test_the_gloss_rule(text, faults):
    assert en_problems(text) == faults


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("上传照片（JPEG、PNG、WebP）", []),
        ("JXMJ_DB 不是数据库地址。", []),
        ("牌局码 U86TDK3D8QF", []),
        ("计分桌规 {key} 不行（见 docs/rules/README.md）。", []),
        ("这是 GIF 文件：只能识别 JPEG、PNG 照片。", []),
        ("桌规 drawn.window 不能是 {value}：要 0 到 1000 的整数。", []),
        ("这手牌 is not complete", ["is", "not", "complete"]),
    ],
)
def test_the_no_english_rule(text, words):
    assert zh_problems(text) == words


@pytest.mark.parametrize("code", [*HONOURS, "5m", "1p", "9s"])
def test_english_tile_names_are_the_engines(code):
    """`scoring.tiles.Tile.en` is the one source: an honour's English name with its Chinese."""
    tile = tile_of(code)
    i18n.set_lang("en")
    try:
        from app.ui.render.tiles import name

        want = tile.en if not tile.is_honour else f"{tile.en} {tile.zh}"
        assert name(code) == want
    finally:
        i18n.set_lang("zh")
    assert Tile.F.en == "Green dragon" and SUITS == "mps"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_engines_english_items_gloss_their_chinese(variant, level):
    """The items table of 20 practice hands per variant and level, each read alone (a table
    glosses its own Chinese: the Learn page's practice tab tells nothing but the unit)."""
    i18n.set_lang("en")
    try:
        for seed in range(20):
            got = new_practice(variant, random.Random(seed), level)
            assert got is not None
            assert (seed, en_problems(items_table(got[1]), {"炮"})) == (seed, [])
    finally:
        i18n.set_lang("zh")


# Families of keys the code builds from a code at run time, by the f-string that builds them
# (each must still be in the app's source); the rest of a family's keys are literal.
BUILT = {
    "csv.": "csv.{k}",  # app/cmd_table.py: the export's column heads
    "image.": "image.{exc.code}",  # app/ui/score/photo.py: vision's image error codes
    "detect.": 'f"detect.{code}"',  # app.detect_errors: jxmj detect / photo's error codes
    "ledger.": "ledger.{e.code}",  # the ledger's error codes
    "raise.": "raise.{r.code}",  # ledger.raises: why a hand was raised
    "rule.": "rule.{key}",  # the house rules' labels, one per rule key
    "msg.": "msg.{refusal.code}",  # app.ui.services.Refusal codes
    "photo.source.": "photo.source.{h.photo_src}",  # camera or upload
    "tile.": "tile.{code}",  # app.ui.render.tiles: honours, marks, suits
    "wait.": "wait",  # app.ui.render.html: label("wait", result.wait)
    "block.": "block",  # app.ui.render.html: label("block", block.kind)
    "learn.level.": "learn.level",  # app.ui.learn.practice: the level's options
}


def _source() -> str:
    return "".join(p.read_text(encoding="utf-8") for p in (ROOT / "app").rglob("*.py"))


def test_every_catalog_key_is_used():
    src = _source()
    used = set(re.findall(r"""["']([a-z0-9_]+(?:\.[a-zA-Z0-9_]+)+)["']""", src))
    used |= {f"code.{c}" for c in CODES} | {f"why.{c}" for c in REASON_CODES}
    used |= {f"event.{e}" for e in EVENTS}
    used |= {f"meld.{k}" for k in (*MELD_KINDS, "concealed")}
    used |= {f"seat.{s}" for s in ("me", *OTHER_SEATS)}
    used |= {f"payer.{f}" for f in (*COUNTERS, "ready_declared")}
    used |= {f"variant.{v}" for v in VARIANTS} | {k for keys in RULE_KEYS.values() for k in keys}
    used |= {k for v in EXAMPLES.values() for k, _ in v}
    used |= {f"lang.{c}" for c in i18n.LANGS} | {f"nav.{p}" for p in PAGES}
    used |= {f"table.edit_{k}" for k in EDIT_KINDS}
    assert [b for b in BUILT.values() if b not in src] == []
    unused = [k for k in ZH if k not in used and not k.startswith(tuple(BUILT))]
    assert unused == []
