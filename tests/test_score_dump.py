"""scripts/score_dump.py (issue 38's before → after check): seeded, so two runs write the same
bytes, and each hand gets what `jxmj score` says for it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "score_dump.py"


def _dump(tmp_path: Path, name: str) -> bytes:
    spec = importlib.util.spec_from_file_location("score_dump", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / name
    assert mod.main(["-n", "30", "-o", str(out)]) == 0
    return out.read_bytes()


def test_the_dump_is_seeded_and_says_what_jxmj_score_says(tmp_path):
    first = _dump(tmp_path, "a.jsonl")
    assert first == _dump(tmp_path, "b.jsonl")
    rows = [json.loads(line) for line in first.decode().splitlines()]
    assert len(rows) == 30
    assert {r["input"]["variant"] for r in rows} == {"jiujiang", "xingzi", "xinyu"}
    wins = [r for r in rows if "json" in r and r["json"]["can_win"]]
    assert wins and all(r["text_zh"] and r["text_en"] and "why_not" in r for r in wins)
