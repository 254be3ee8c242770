"""The documents stay readable for their readers (issue 38 item 8): the README is a front door a
player reads in five minutes (≤ 250 lines; history and superseded figures live in docs/CHANGES.md),
the model card one a reader finishes (≤ 25,600 bytes; the history in
datasets/reports/model-history.md), and every file or picture they point to exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_MAX_LINES = 250
MODEL_CARD_MAX_BYTES = 25_600
FRONT_DOOR = (
    "Two commands",
    "A tour",
    "How phones join",
    "Limits",
    "Today's figures",
    "Credits and licences",
)
LINKED = ("README.md", "models/MODEL.md", "docs/CHANGES.md", "docs/limits.md", "docs/ARCHITECTURE.md")


def test_the_readme_is_at_most_250_lines():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md: {len(lines)} lines (history: docs/CHANGES.md)"


def test_the_model_card_is_at_most_25_600_bytes():
    size = (ROOT / "models" / "MODEL.md").stat().st_size
    assert size <= MODEL_CARD_MAX_BYTES, f"models/MODEL.md: {size:,} bytes (history: model-history.md)"


def test_the_readme_keeps_its_front_door_sections():
    """What a player looks for: the two commands, the tour, phones, limits, today's figures, credits."""
    heads = re.findall(r"^## (.+)$", (ROOT / "README.md").read_text(encoding="utf-8"), re.M)
    for wanted in FRONT_DOOR:
        assert wanted in heads, wanted


def test_todays_figures_each_have_a_date_and_a_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Today's figures", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| what ")]
    assert len(rows) >= 8
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4, row
        assert re.fullmatch(r"20\d\d-\d\d-\d\d", cells[2]), row
        assert cells[3].startswith("`"), row


@pytest.mark.parametrize("doc", LINKED)
def test_every_local_link_and_picture_exists(doc):
    """A markdown link `](path)` or an `<img src="path">` that is not a web address names a file of
    the repository, relative to the document."""
    path = ROOT / doc
    text = path.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img src="([^"]+)"', text)
    local = [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]
    missing = [t for t in local if t and not (path.parent / t).exists()]
    assert not missing, missing
