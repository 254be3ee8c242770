"""The reader's named vocabulary (`vision.detection`): the tile codes `BACK` and `FLOWER`, the `Role`
type with `ROLES`, `HAND_ROLES` and `NOT_PLAYERS` derived from it, and no bare ``"back"`` /
``"flower"`` in the runtime code outside the modules listed (each with why)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import get_args

import pytest

from vision.detection import BACK, FLOWER, HAND_ROLES, NOT_PLAYERS, ROLES, Detection, Role
from vision.modelfiles import CLASS_CODES

REPO = Path(__file__).resolve().parents[2]

BARE_WORDS_LEFT = {
    "vision/detection.py": "the definitions",
    "app/ui/state/photo_tiles.py": "the page state is being reworked (issue 38): to take FLOWER after",
    "vision/testing.py": "stand-in scenes and the localizer's class list written as codes",
    "vision/testing_table.py": "synthetic table scenes written as codes",
}
"""Modules that may still write ``"back"`` / ``"flower"`` as bare strings, with why."""


def test_the_roles_are_one_type():
    assert ROLES == get_args(Role) == ("hand", "meld", "discard", "wall", "other")
    assert HAND_ROLES == ("hand", "meld")
    assert NOT_PLAYERS == ("discard", "wall", "other")  # the roles, less the player's: by name, not position
    assert set(HAND_ROLES) | set(NOT_PLAYERS) == set(ROLES) and not set(HAND_ROLES) & set(NOT_PLAYERS)
    with pytest.raises(ValueError, match="role 'flower' is not one of"):
        Detection((0, 0, 1, 1), "5p", 0.9, role="flower")  # type: ignore[arg-type]
    assert [Detection((0, 0, 1, 1), "5p", 0.9, role=r).off_row for r in ROLES] == [
        r in NOT_PLAYERS for r in ROLES
    ]


def test_back_and_flower_are_the_classifiers_last_codes():
    assert (BACK, FLOWER) == ("back", "flower") and CLASS_CODES[-2:] == (BACK, FLOWER)


def _bare_words(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
    }
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and n.value in (BACK, FLOWER) and id(n) not in docs
    ]


def test_no_bare_back_or_flower_outside_the_listed_modules():
    bad = [
        f"{rel}:{line}"
        for package in ("scoring", "vision", "ledger", "app")
        for path in sorted((REPO / package).rglob("*.py"))
        if (rel := str(path.relative_to(REPO))) not in BARE_WORDS_LEFT
        for line in _bare_words(path)
    ]
    assert not bad, f'"back" / "flower" written bare (use vision.detection.BACK / FLOWER): {bad}'
    assert all((REPO / m).exists() for m in BARE_WORDS_LEFT)
