"""Unknown keys are refused by name at every level (DECISIONS §1.1): in a rules file, a ``--rules``
TOML and a ``rules`` object; the built-in tables pass the layout. Hands are
`tests.scoring.util.parse_case` specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring import HandError, load_overrides, load_rules_file, score, score_json
from tests.scoring.util import parse_case


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
