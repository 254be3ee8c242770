"""Architecture: every session key is declared in one module, `app/ui/state/keys.py`.

The rule (also in that module's docstring): outside `keys.py`, a session access — ``ss[K]``,
``ss.get(K)``, ``ss.pop(K)``, ``ss.setdefault(K)``, ``K in ss`` / ``not in``, ``del ss[K]`` on
``st.session_state`` or on a name bound to it — never spells its key: ``K`` contains no string
literal and no f-string, and is no name of a module constant assigned a string literal. And
``ss.name`` (attribute-style keys) is refused. A widget's own ``key="…"`` is not a session access.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
KEYS = REPO / "app" / "ui" / "state" / "keys.py"
METHODS = {"get", "pop", "setdefault"}
DICT_API = {"get", "pop", "setdefault", "keys", "items", "values", "clear", "update", "to_dict"}
NOT_YET: dict[str, str] = {}
"""Files not yet on the rule, each with the change that brings it on (another branch owns them)."""


def _is_session(node: ast.expr, aliases: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in aliases
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def _built_by_keys(node: ast.AST) -> bool:
    """A call of a function of `keys.py` (``keys.widget("events")``): the key is built there."""
    f = node.func if isinstance(node, ast.Call) else None
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "keys"


def _spelled(key: ast.AST, constants: set[str]) -> bool:
    if _built_by_keys(key):
        return False
    if isinstance(key, ast.JoinedStr) or (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return True
    if isinstance(key, ast.Name):
        return key.id in constants
    return any(_spelled(c, constants) for c in ast.iter_child_nodes(key))


def spelled_keys(source: str) -> list[tuple[int, str]]:
    """(line, access) of every session access in `source` that spells its key (the rule above)."""
    tree = ast.parse(source)
    aliases = {
        t.id
        for n in tree.body
        if isinstance(n, ast.Assign) and _is_session(n.value, set())
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    constants = {
        t.id
        for n in tree.body
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    found = []
    for n in ast.walk(tree):
        key = None
        if isinstance(n, ast.Subscript) and _is_session(n.value, aliases):
            key = n.slice
        elif (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in METHODS
            and _is_session(n.func.value, aliases)
            and n.args
        ):
            key = n.args[0]
        elif isinstance(n, ast.Compare) and any(isinstance(o, ast.In | ast.NotIn) for o in n.ops):
            if any(_is_session(c, aliases) for c in n.comparators):
                key = n.left
        elif (
            isinstance(n, ast.Attribute)
            and _is_session(n.value, aliases)
            and n.attr not in DICT_API
            and not isinstance(getattr(n, "ctx", None), ast.Del)
        ):
            found.append((n.lineno, f"ss.{n.attr}"))
            continue
        if key is not None and _spelled(key, constants):
            found.append((n.lineno, ast.unparse(n)))
    return sorted(found)


def _app_files() -> list[Path]:
    return sorted(p for p in (REPO / "app").rglob("*.py") if p != KEYS and _rel(p) not in NOT_YET)


def _rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_the_rule_sees_every_way_to_spell_a_key():
    src = """
import streamlit as st
ss = st.session_state
OWN = "mine"
ss["a"] = 1
ss.get(f"b{x}")
st.session_state.pop("c", None)
"d" in ss
ss[OWN]
ss.lang = 2
ss.setdefault("e", {})
ss[keys.HIP]
ss.get(key)
keys.TYPED in ss
ss.get(keys.widget("events"))
"""
    lines = [line for line, _ in spelled_keys(src)]
    assert lines == [5, 6, 7, 8, 9, 10, 11]


@pytest.mark.parametrize("path", _app_files(), ids=_rel)
def test_session_keys_are_declared_in_one_module(path):
    found = spelled_keys(path.read_text(encoding="utf-8"))
    assert not found, f"{_rel(path)}: session keys spelled outside app/ui/state/keys.py: {found}"


def test_the_files_not_yet_on_the_rule_are_still_off_it():
    """The list stays honest: a file brought on the rule leaves `NOT_YET` (empty since issue 38
    item 1: every page's state is a typed model)."""
    on = [rel for rel in sorted(NOT_YET) if not spelled_keys((REPO / rel).read_text(encoding="utf-8"))]
    assert not on, f"on the rule now, drop them from NOT_YET: {on}"
