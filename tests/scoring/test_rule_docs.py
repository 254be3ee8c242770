"""The rule values written in words agree with the tables (issue 38: one rule, one place): every
value in the value tables of ``docs/rules/<variant>.md`` and in DECISIONS' pattern tables
(``docs/rules/DECISIONS.md`` §1.3, §2) is the TOML's (``scoring/rules/<variant>.toml``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scoring import VARIANTS, load_rules

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
_KEY = re.compile(r"`?(\w+)`?")
_ADDERS = ("self_drawn", "concealed", "edge_wait", "single_wait")  # the docs' 自摸 / 门清 / 边卡 / 单钓


def tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """Every markdown table of ``text``: its header cells and its rows' cells."""
    out: list[tuple[list[str], list[list[str]]]] = []
    lines = [ln.strip() for ln in text.splitlines()]
    for i, ln in enumerate(lines[:-1]):
        if ln.startswith("|") and lines[i + 1].startswith("|---"):
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(_cells(row))
            out.append((_cells(ln), rows))
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip("|").split("|")]


def ints(cell: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", cell)]


def _key(cell: str) -> str:
    m = _KEY.fullmatch(cell)
    return m.group(1) if m else ""


def doc_values(variant: str) -> list[tuple[str, list[int], list[int]]]:
    """``(where, written, in the table)`` for every value row of ``docs/rules/<variant>.md``."""
    rules = load_rules(variant)
    text = (DOCS / f"{variant}.md").read_text("utf-8")
    out = []
    for header, rows in tables(text):
        head = tuple(header)
        for row in rows:
            got = _row(rules, head, row)
            if got is not None:
                out.append((f"{variant}.md {head[:4]} {row[0]}", *got))
    return out


def _row(rules, head: tuple[str, ...], row: list[str]) -> tuple[list[int], list[int]] | None:
    key = _key(row[0])
    if head[:6] == ("key", "中文", "English", "base", "adders", "definition"):
        p = rules.patterns[key]
        want = [p.base] + ([p.base_self_drawn] if p.base_self_drawn is not None else [])
        adders = [c.strip() for c in row[4].split("/")]
        written = ints(row[3])[: len(want)] + [int(a) for a in adders if a.isdigit()]
        return written, want + [
            p.adders.get(k, 0) for k, a in zip(_ADDERS, adders, strict=False) if a.isdigit()
        ]
    if head[:4] == ("key", "中文", "English", "×"):
        return ints(row[3])[:1], [rules.patterns[key].multiplier]
    if head == ("item key", "what", "table entry", "炮"):
        return ints(row[3]), [rules.bonus[_key(row[2])]]
    if head == ("payer has", "table entry", "eaten 炮"):
        return ints(row[2]), [rules.eaten[_key(row[1])]]
    if head == ("key", "中文", "English", "炮", "definition", "table entry"):
        entries = [e for e in re.findall(r"`(\w+)", row[5]) if e in rules.extras and not e.endswith("_min")]
        return (ints(row[3])[: len(entries)], [rules.extras[e] for e in entries]) if entries else None
    if head == ("key", "中文", "English", "炮"):
        b = rules.bonus
        want = {
            "basic": [int(rules.basic.get("points", 1))],
            "bonus_tile": [b["bonus_tile"]],
            "four_bonus_tiles": [b["four_bonus_tiles"]],
            "dragon_set": [
                b["dragon_pung"],
                b["dragon_standing"],
                b["dragon_kong"],
                b["dragon_concealed_kong"],
            ],
            "kong": [b["kong"], b["concealed_kong"]],
        }.get(key) or [rules.basic["adders"][key]]
        return ints(row[3])[: len(want)], want
    return None


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rule_docs_values_are_the_tables(variant):
    found = doc_values(variant)
    assert len(found) >= 10, found  # the value tables are still there and still read
    wrong = [(where, written, want) for where, written, want in found if written != want]
    assert wrong == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rule_docs_have_a_row_for_every_pattern(variant):
    rules = load_rules(variant)
    text = (DOCS / f"{variant}.md").read_text("utf-8")
    rows = {
        _key(row[0])
        for header, body in tables(text)
        if header[:4] in (["key", "中文", "English", "base"], ["key", "中文", "English", "×"])
        for row in body
    }
    assert set(rules.patterns) - rows == set()


def test_decisions_pattern_values_are_the_tables():
    """DECISIONS §1.3 (base JJ / XZ) and §2 (multiplier) against the three tables."""
    jj, xz, xy = (load_rules(v) for v in VARIANTS)
    text = (DOCS / "DECISIONS.md").read_text("utf-8")
    checked: dict[str, set[str]] = {v: set() for v in VARIANTS}
    for header, rows in tables(text):
        if header[:4] == ["key", "名", "definition", "base JJ / XZ"]:
            for row in rows:
                for rules, cell in zip((jj, xz), row[3].split("/")[:2], strict=True):
                    n = ints(cell.split("(")[0])
                    if n:  # "—": not a pattern of that variant, or JJ's 红旗飘飘, an add-on (§1.3a)
                        assert rules.patterns[row[0]].base == n[0], (rules.variant, row[0])
                        checked[rules.variant].add(row[0])
        if header == ["key", "名", "multiplier"]:
            for row in rows:
                assert xy.patterns[row[0]].multiplier == ints(row[2])[0], row[0]
                checked["xinyu"].add(row[0])
    assert set(jj.patterns) - checked["jiujiang"] == {"seven_fairies", "red_flag"}  # §1.3 extras, §1.3a
    assert set(xz.patterns) - checked["xingzi"] == {"seven_fairies"}  # §1.3 extras
    assert checked["xinyu"] == set(xy.patterns)
