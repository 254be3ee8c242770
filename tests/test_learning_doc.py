"""Issue 35 item 3: the README's "how the set is learned" shows a before → after on a photo."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_points_to_a_before_and_after_on_a_photo():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "The reader learns your set" in readme and "(docs/learning-a-set.md)" in readme
    doc = (ROOT / "docs" / "learning-a-set.md").read_text(encoding="utf-8")
    head = next(r for r in doc.splitlines() if r.startswith("| photo |"))
    assert "plain" in head and "before" in head and "after" in head
    rows = [r for r in doc.splitlines() if re.match(r"\| `[^`]+\.(JPG|jpg|png)` \|", r)]
    assert rows, "a photo's tile, read plain, with references before and after"
    for row in rows:  # a photo named by its source, never shipped: no picture in the repository
        assert not (ROOT / "docs" / row.split("`")[1]).exists()
