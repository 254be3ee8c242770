"""The chow rule for every hand scored (winner and payers), the event pairs the
play's timing rules out, and unknown keys refused by name in a rules file, a ``--rules`` TOML and a
``rules`` object (DECISIONS §1.1, §1.3a). Hands are `tests.scoring.util.parse_case` specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import HandError, HandInput, Meld, Payer, load_overrides, load_rules_file, score, score_json
from scoring.timing import IMPOSSIBLE
from tests.scoring.util import parse_case


def melds(text: str) -> tuple[Meld, ...]:
    """``"pung 777p, chow 678s"`` → melds."""
    return tuple(Meld.of(*part.split()) for part in text.split(",") if part.strip())


def code_of(h: HandInput) -> str | None:
    try:
        score(h)
    except HandError as e:
        return e.code
    return None


BASIC = "123m456p789s345s55p +2m"  # 卡 2m, 门清


# ---- item 1: the chow rule (§1.1, §1.3a "碰或明杠"), the winner's melds and each payer's ----
@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("jj 99s +9s self concealed_kong:1111m pung:777p pung:555s chow:678s", "chow_not_allowed"),
        (
            "xz 99s +9s self dealer concealed_kong:CCCC pung:777p kong:5555s chow:678s",
            "chow_not_allowed",
        ),
        ("jj 234m567p99s +9s chow:678s pung:777p", "chow_not_allowed"),
        ("jj 99s +9s self pung:111m pung:777p pung:555s chow:678s", None),
        ("jj 99s +9s self kong:1111m added_kong:7777p pung:555s chow:678s", None),
        ("jj 99s +9s self concealed_kong:1111m pung:777p pung:555s pung:666s", None),
    ],
)
def test_winner_chow_rule(line, code):
    assert code_of(parse_case(line)) == code


@pytest.mark.parametrize(
    ("payer_melds", "code"),
    [
        ("concealed_kong 9999m, pung 111p, pung 222s, chow 678s", "chow_not_allowed"),
        ("pung 111p, pung 222s, chow 678s", "chow_not_allowed"),
        ("chow 678s", "chow_not_allowed"),
        ("kong 9999m, pung 111p, pung 222s, chow 678s", None),
        ("concealed_kong 9999m, pung 111p", None),
    ],
)
@pytest.mark.parametrize("variant", ["jj", "xz"])
def test_payer_chow_rule(variant, payer_melds, code):
    h = parse_case(f"{variant} {BASIC}", payers=(Payer("b", melds=melds(payer_melds)),))
    assert code_of(h) == code


def test_payer_chow_rule_in_several_winners():
    from scoring import score_winners

    bad = (Payer("d", melds=melds("concealed_kong 9999m, pung 111p, pung 222s, chow 678s")),)
    with pytest.raises(HandError) as e:
        score_winners(
            [parse_case(f"jj {BASIC}", payers=bad), parse_case("jj 123m456p789s345s22m +2m", payers=bad)]
        )
    assert e.value.code == "chow_not_allowed"


# ---- item 2: pairs the timing rules out (§1.3a; docs/score-json.md lists IMPOSSIBLE) ----
_DEALER_THREE = (Payer("a"), Payer("b"), Payer("c"))
TIMING = [  # (first, second, hand line, payers): each row of IMPOSSIBLE, once
    ("heavenly", "ready_declared", f"jj {BASIC} self dealer heavenly ready_declared", None),
    (
        "robbing_kong",
        "last_tile",
        f"xz {BASIC} robbing_kong last_tile",
        (Payer("b", melds=melds("pung 222m")),),
    ),
    (
        "heavenly",
        "payer_melds",
        f"xz {BASIC} self dealer heavenly",
        (Payer("a", melds=melds("pung CCC")), Payer("b"), Payer("c")),
    ),
    (
        "heavenly",
        "payer_ready_declared",
        f"jj {BASIC} self dealer heavenly",
        (Payer("a", ready_declared=True), Payer("b"), Payer("c")),
    ),
    (
        "earthly",
        "payer_exposed_melds",
        f"jj {BASIC} earthly",
        (Payer("d", is_dealer=True, melds=melds("pung 999s")),),
    ),
    (
        "earthly",
        "payer_ready_declared",
        f"jj {BASIC} earthly",
        (Payer("d", is_dealer=True, ready_declared=True),),
    ),
]


def test_every_impossible_pair_has_a_case():
    assert sorted((a, b) for a, b, *_ in TIMING) == sorted((a, b) for a, b, *_ in IMPOSSIBLE)


@pytest.mark.parametrize(
    ("first", "second", "line", "payers"), TIMING, ids=[f"{a}+{b}" for a, b, *_ in TIMING]
)
def test_impossible_pairs_are_refused(first, second, line, payers):
    with pytest.raises(HandError) as e:
        score(parse_case(line, payers=payers))
    assert e.value.code == "inconsistent_event"
    assert first in str(e.value) and "DECISIONS §1.3a" in str(e.value)


@pytest.mark.parametrize(
    ("line", "payers", "own"),
    [  # pairs the timing allows: still scored
        ("jj 123m456p345s55p +2m self kong_bloom last_tile concealed_kong:9999s", None, 32),
        (f"jj {BASIC} earthly ready_declared", (Payer("d", is_dealer=True),), 25),
        (f"xz {BASIC} earthly", (Payer("d", is_dealer=True, melds=melds("concealed_kong 8888m")),), 11),
        (f"jj {BASIC} kong_discard last_tile", (Payer("d", melds=melds("kong 9999m")),), 30),
    ],
)
def test_pairs_the_timing_allows(line, payers, own):
    assert score(parse_case(line, payers=payers)).own == own


def test_impossible_pairs_are_documented():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "score-json.md").read_text("utf-8")
    for first, second, *_ in IMPOSSIBLE:
        assert f"`{first}` + `{second}`" in doc


# ---- item 3: unknown keys refused by name, at every level ----
@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"extras.pair_runn": 5}, "extras.pair_runn"),
        ({"extras": {"pair_runn": 5}}, "extras.pair_runn"),
        ({"options": {"min_wim": 3}}, "options.min_wim"),
        ({"patterns": {"seven_pairs": {"bsae": 30}}}, "patterns.seven_pairs.bsae"),
        ({"seven_pairs": {"adders": {"self_drwn": 3}}}, "seven_pairs.adders.self_drwn"),
        ({"basic": {"adders": {"concealedd": 2}}}, "basic.adders.concealedd"),
        ({"bonus.kongg": 2}, "bonus.kongg"),
    ],
)
def test_rules_object_unknown_keys(rules, named):
    with pytest.raises(HandError) as e:
        score(parse_case("jj 1199m4455p7799sCC +C self", rules=rules))
    assert e.value.code == "unknown_rule_key" and repr(named) in str(e.value)


def test_rules_object_nested_values_apply():
    r = score_json({**_json("jj 1199m4455p7799sCC +C"), "rules": {"patterns": {"seven_pairs": {"base": 30}}}})
    assert r["own"] == 35 and r["rules_applied"] == {"patterns.seven_pairs.base": 30}


def _json(line: str) -> dict:
    """The score JSON of a `parse_case` spec's variant, standing tiles and winning tile, self-drawn."""
    _, concealed, win = line.split()
    return {
        "variant": parse_case(line).variant,
        "concealed": concealed,
        "winning_tile": win[1:],
        "self_drawn": True,
    }


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("pair_run = 5", "pair_runn = 5", "extras.pair_runn"),
        ("min_win = 2", "min_wim = 2", "options.min_wim"),
        ('chow = "fourth_meld_only"', 'chw = "fourth_meld_only"', "play.chw"),
        ("dragon_pung = 1", "dragon_pun = 1", "bonus.dragon_pun"),
        ("[basic.adders]", "[basic.adder]", "basic.adder"),
        ("base = 15", "bas = 15", "patterns.full_flush.bas"),
        (
            "adders = { self_drawn = 1, concealed = 1,",
            "adders = { self_drawm = 1, concealed = 1,",
            "adders.self_drawm",
        ),
        ('rule_text = "xingzi_002_*.txt"', 'rule_txt = "xingzi_002_*.txt"', "rule_txt"),
        ("\n[names]", "\n[name]", "name"),
    ],
)
def test_rules_file_unknown_keys(tmp_path, old, new, named):
    text = (Path(__file__).resolve().parents[2] / "scoring" / "rules" / "xingzi.toml").read_text("utf-8")
    assert old in text
    path = tmp_path / "house.toml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(HandError) as e:
        load_rules_file(path)
    assert e.value.code == "unknown_rule_key" and named in str(e.value)


@pytest.mark.parametrize("variant", ["jiujiang", "xingzi", "xinyu"])
def test_builtin_tables_pass_the_layout(variant):
    assert (
        load_rules_file(Path(__file__).resolve().parents[2] / "scoring" / "rules" / f"{variant}.toml").variant
        == variant
    )


def test_rules_toml_unknown_keys_named(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("[patterns.seven_pairs]\nbsae = 30\n", "utf-8")
    with pytest.raises(HandError) as e:
        score(parse_case("jj 1199m4455p7799sCC +C self", rules=load_overrides(path)))
    assert e.value.code == "unknown_rule_key" and "'patterns.seven_pairs.bsae'" in str(e.value)


# ---- the golden cases of these rule changes (shared runner format, with codes) ----
CASES = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "data" / "scoring_cases_rules3.jsonl")
    .read_text("utf-8")
    .splitlines()
    if line.strip()
]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rules3_golden_case(case):
    exp = case["expect"]
    if exp.get("error"):
        with pytest.raises(HandError) as e:
            score_json(case["input"])
        assert e.value.code == exp["code"]
        return
    out = score_json(case["input"])
    assert out["can_win"] is exp["can_win"]
    assert out["own"] == exp["own"]
    keys = sorted({i["key"] for i in out["items"] if i.get("points", 0) != 0 or i.get("multiplier", 1) != 1})
    assert keys == exp["keys"] and [p["amount"] for p in out["payments"]] == exp["payments"]
