"""No module of `vision` imports, through others, itself: every import (at the top or inside a
function) read from the sources' syntax trees, so a lazy import cannot hide a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imports(package: str) -> dict[str, set[str]]:
    """`{module: the modules of package it imports}` for every module of `package`."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).glob("*.py")):
        name = package if path.stem == "__init__" else f"{package}.{path.stem}"
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith(f"{package}."):
                    found.add(node.module)
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith(f"{package}.")}
        out[name] = found
    return out


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (`[a, b, ..., a]`), or None."""
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> list[str] | None:
        state[n] = 1
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return [*path[path.index(m) :], m] if m in path else [*path, m]
            if m not in state and (found := visit(m, [*path, m])):
                return found
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state and (found := visit(n, [n])):
            return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


@pytest.mark.parametrize("package", ["vision"])
def test_no_import_cycle_inside(package):
    edges = _imports(package)
    assert f"{package}.roles" in edges and f"{package}.layout" in edges[f"{package}.roles"]
    assert _cycle(edges) is None
