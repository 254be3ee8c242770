"""Every golden case of shared/cases/scoring.jsonl (copied to tests/data/): facts of the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import HandError, score_json

CASES = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[1] / "data" / "scoring_cases.jsonl")
    .read_text("utf-8")
    .splitlines()
    if line.strip()
]


def test_all_sixty_eight_cases_present():
    assert len(CASES) == 68 and len({c["id"] for c in CASES}) == 68


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_case(case):
    exp = case["expect"]
    if exp.get("error"):
        with pytest.raises(HandError) as err:
            score_json(case["input"])
        assert str(err.value)
        return
    out = score_json(case["input"])
    assert out["can_win"] is exp["can_win"], out.get("reason")
    if not exp["can_win"]:
        assert out["reason"]
        return
    assert out["own"] == exp["own"]
    keys = sorted({i["key"] for i in out["items"] if i.get("points", 0) != 0 or i.get("multiplier", 1) != 1})
    assert keys == sorted(exp["keys"])
    assert [p["amount"] for p in out["payments"]] == exp["payments"]
    if case["input"]["variant"] == "xinyu":
        prod = 1
        for i in out["items"]:
            prod *= i["multiplier"]
        assert prod == out["own"]
    else:
        assert sum(i["points"] for i in out["items"]) == out["own"]
