"""Payers the input leaves unnamed get the engine's default names (docs/score-json.md): in the
JSON always English (`discarder`, `player 1`: identifiers), in Chinese text and reasons Chinese
(放炮者, 玩家1), in English text English; a name the input gave is never changed."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from app import cli
from app.ui import i18n
from app.ui.render.html import payments_table
from scoring import HandInput, Meld, Payer, score
from scoring.result import DefaultName, Payment

DISCARD = {"variant": "jiujiang", "concealed": "234m567p99s", "winning_tile": "9s", "self_drawn": False,
           "melds": [{"kind": "pung", "tiles": "CCC"}, {"kind": "kong", "tiles": "8888m"}],
           "payers": [{"melds": [{"kind": "pung", "tiles": "PPP"}], "bonus_tiles": 4}]}  # fmt: skip
SELF = {"variant": "xinyu", "concealed": "123m456p789s345sEE", "winning_tile": "E", "self_drawn": True}
EARTHLY = {"variant": "jiujiang", "concealed": "123m456p789s234mCC", "winning_tile": "C",
           "self_drawn": False, "events": ["earthly"]}  # fmt: skip
ROBBED = {"variant": "jiujiang", "concealed": "234m567p678s99s456m", "winning_tile": "5m",
          "self_drawn": False, "events": ["robbing_kong"],
          "payers": [{"melds": [{"kind": "pung", "tiles": "555m"}]}]}  # fmt: skip

CASES = [  # hand, lang, the payer column, words that must not be there
    (DISCARD, "zh", ["放炮者"], ["discarder"]),
    (DISCARD, "en", ["discarder"], ["放炮者"]),
    (SELF, "zh", ["玩家1", "玩家2", "玩家3"], ["player"]),
    (SELF, "en", ["player 1", "player 2", "player 3"], ["玩家"]),
    (EARTHLY, "zh", ["放炮者（庄）"], ["discarder", "dealer"]),
    (EARTHLY, "en", ["discarder (dealer)"], ["放炮者"]),
    (ROBBED, "zh", ["放炮者"], ["discarder"]),  # the robbed kong's discarder keeps the default's code
    ({**SELF, "payers": [{"name": "Bob"}, {}, {}]}, "zh", ["Bob", "玩家2", "玩家3"], ["player"]),
    # a name the input gave is never translated, even one spelt like a default; a default never
    # reads like a given name in either language; a name of spaces is no name
    (
        {**SELF, "payers": [{"name": "player 3"}, {}, {"name": "张三"}]},
        "zh",
        ["player 3", "玩家2", "张三"],
        ["玩家3"],
    ),
    ({**SELF, "payers": [{"name": "玩家2"}, {}, {}]}, "zh", ["玩家2", "玩家1", "玩家3"], ["player"]),
    ({**SELF, "payers": [{"name": "玩家2"}, {}, {}]}, "en", ["玩家2", "player 1", "player 3"], []),
    ({**SELF, "payers": [{"name": "  "}, {}, {}]}, "zh", ["玩家1", "玩家2", "玩家3"], ["player"]),
    ({**DISCARD, "payers": [{"name": "discarder"}]}, "zh", ["discarder"], ["放炮者"]),
    ({**DISCARD, "payers": [{"name": "放炮者"}]}, "en", ["放炮者"], []),
]


def _text(monkeypatch, capsys, hand, lang):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(hand)))
    assert cli.main(["score", "-", "--format", "text", "--lang", lang]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("hand", "lang", "names", "absent"), CASES)
def test_score_text_names_default_payers_in_its_language(monkeypatch, capsys, hand, lang, names, absent):
    out = _text(monkeypatch, capsys, hand, lang)
    pay = out[out.index("付款（" if lang == "zh" else "Payments") :]
    rows = [line for line in pay.splitlines()[2:] if line.startswith("  ") and not line.startswith("    ")]
    assert [re.split(r"\s{2,}", line.strip())[0] for line in rows] == names
    for word in absent:
        assert word not in pay


def test_eaten_lines_and_reasons_name_the_default_discarder_in_chinese(monkeypatch, capsys):
    out = _text(monkeypatch, capsys, DISCARD, "zh")
    assert "吃 放炮者 的：中/白 +1 — 放炮者的白明碰" in out  # zh: no key (issue 25 item 9)
    assert "放炮者有四个發" in out
    en = _text(monkeypatch, capsys, DISCARD, "en")
    assert "eaten from discarder: dragon_set" in en and "discarder holds all four 發" in en


def test_the_json_keeps_the_english_identifiers_and_gives_chinese_reasons(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(DISCARD)))
    assert cli.main(["score", "-"]) == 0
    (pay,) = json.loads(capsys.readouterr().out)["payments"]
    assert pay["payer"] == "discarder"
    assert {i["reason_zh"] for i in pay["eaten_items"]} >= {"放炮者的白明碰", "放炮者有四个發"}
    assert all("discarder" in i["reason"] for i in pay["eaten_items"])


P = DefaultName("player", 1), DefaultName("player", 2), DefaultName("player", 3)


@pytest.mark.parametrize(
    ("hand", "codes"),
    [
        (SELF, list(P)),
        (DISCARD, [DefaultName("discarder")]),
        (EARTHLY, [DefaultName("discarder")]),
        ({**SELF, "payers": [{"name": "Bob"}, {}, {"name": "  "}]}, [None, P[1], P[2]]),
        ({**SELF, "payers": [{"name": "player 3"}, {}, {"name": "张三"}]}, [None, P[1], None]),
        ({**SELF, "payers": [{"name": "玩家2"}, {}, {}]}, [None, P[0], P[2]]),
        ({**DISCARD, "payers": [{"name": "discarder"}]}, [None]),
    ],
)
def test_the_engine_keeps_the_code_of_every_name_it_makes(hand, codes):
    r = score(HandInput.from_json(hand))
    assert [p.default_name for p in r.payments] == codes
    given = [p.get("name") for p in hand.get("payers") or [{}] * len(codes)]
    assert [p.payer for p in r.payments] == [c.en if c else n for c, n in zip(codes, given, strict=True)]
    assert [p.payer_zh for p in r.payments] == [c.zh if c else n for c, n in zip(codes, given, strict=True)]


def test_chinese_names_come_from_the_code_never_from_the_english():
    made = Payment("player 2", False, 0, (), False, 0, 8, DefaultName("player", 2))
    given = Payment("player 2", False, 0, (), False, 0, 8)
    assert (made.payer_zh, given.payer_zh) == ("玩家2", "player 2")
    assert Payment("x", False, 0, (), False, 0, 8, DefaultName("discarder")).payer_zh == "放炮者"
    assert (
        Payer("discarder").name_zh,
        Payer("discarder", default_name=DefaultName("discarder")).name_zh,
    ) == (
        "discarder",
        "放炮者",
    )
    assert (DefaultName("player", 12).en, DefaultName("player", 12).zh) == ("player 12", "玩家12")


@pytest.mark.parametrize(
    ("meld", "note"),
    [("pung 555m", "放炮者的 5m 碰算作被抢的补杠"), ("added_kong 5555m", "放炮者的 5m 补杠就是被抢的杠")],
)
def test_a_robbed_discarder_left_unnamed_is_named_in_chinese(meld, note):
    kind, tiles = meld.split()
    r = score(HandInput.from_json({**ROBBED, "payers": [{"melds": [{"kind": kind, "tiles": tiles}]}]}))
    (p,) = r.payments
    assert (p.payer, p.payer_zh, p.default_name) == ("discarder", "放炮者", DefaultName("discarder"))
    assert r.notes_zh == (note,) and r.notes[0].startswith("discarder's ")
    assert [i.reason_zh for i in p.eaten_items] == ["放炮者的 5555m 明杠"]


def _pungs(**kw) -> HandInput:
    return HandInput(
        "jiujiang", "234m567p99s", "9s", False, (Meld.of("pung", "CCC"), Meld.of("pung", "777p")), **kw
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_app_payments_table_names_default_payers_in_the_page_language(lang):
    i18n.set_lang(lang)
    try:
        self_draw = payments_table(score(HandInput("xinyu", "123m456p789s345sEE", "E", True)))
        discard = payments_table(score(_pungs()))
        seats = payments_table(score(_pungs(payers=(Payer("left"),))))
    finally:
        i18n.set_lang("zh")
    if lang == "zh":
        assert all(f"<td>玩家{k}</td>" in self_draw for k in (1, 2, 3)) and "player" not in self_draw
        assert "<td>放炮者</td>" in discard and "discarder" not in discard
        assert "<td>上家</td>" in seats
    else:
        assert all(f"<td>player {k}</td>" in self_draw for k in (1, 2, 3))
        assert "<td>discarder</td>" in discard and "<td>Left 上家</td>" in seats


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_payer_name_cannot_break_the_text_or_drive_the_terminal(monkeypatch, capsys, lang):
    names = ["a\nb\x1b[31mRED", "\u202eevil", "c\td"]
    out = _text(monkeypatch, capsys, {**SELF, "payers": [{"name": n} for n in names]}, lang)
    assert "\x1b" not in out and "\u202e" not in out and "\t" not in out
    pay = out[out.index("付款（" if lang == "zh" else "Payments") :].splitlines()
    assert [line.split()[0] for line in pay[2:5]] == ["a\\u000ab\\u001b[31mRED", "\\u202eevil", "c\\u0009d"]
