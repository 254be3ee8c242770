"""The architecture check (docs/ARCHITECTURE.md, "Dependencies"): no import cycle among the modules of
`scoring vision app ledger datasets bench`, no module over 400 lines, dependencies that flow
`app → ledger / vision → scoring`, JSON only at the edges of `app/` and `ledger/`, and no block of
code written twice; and the tests are found by subject (no test file named after a milestone, the CLI's
tests in `tests/cli/`). The files are read as text and parsed with `ast`; nothing
is imported or run, so the check is fast and needs neither the network nor ``../shared``.

How an import counts:

- **Cycles** are checked three times. First among the imports that run when a module is imported:
  its top-level statements, including those inside top-level ``if`` / ``try`` / ``with`` /
  ``class`` bodies; imports inside a function (run when it is called) and under
  ``if TYPE_CHECKING:`` (read by type checkers only) are not edges. Then counting the imports
  inside functions too: an import moved into a function hides a cycle from Python, not from the
  design. Then counting ``TYPE_CHECKING`` imports as well: a module whose API is another's type
  is tied to it for a reader, whatever runs (the one exception, `TYPE_ONLY_EDGES`: a package
  ``__init__`` that names its parts for type checkers and imports them on first use, PEP 562).
- ``import a.b`` is an edge to module ``a.b``. ``from a import b`` is an edge to ``a.b`` where that
  is a module of ours, else to ``a`` (its ``__init__``). Relative imports resolve against the
  module's package. The packages above an imported module (``a`` for ``a.b``) are not edges: Python
  runs ``a/__init__.py`` first whoever imports ``a.b``, so that alone never closes a cycle.
- **Re-exports**: a name that ``a/__init__.py`` imports from one of our modules ``m`` — at top level,
  or under ``TYPE_CHECKING`` where a PEP 562 ``__getattr__`` imports it on first use (`vision`) —
  makes ``from a import name`` an edge to ``m`` as well as to ``a``: the statement runs ``m``.
- **Direction** counts every import, wherever it stands (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import re
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "vision", "app", "ledger", "datasets", "bench")
"""Checked for cycles, size and direction (`bench/`: its scripts import the runtime like any caller)."""
MAX_LINES = 400

JSON_EDGES = {
    "app/cliio.py": "the commands' standard output (JSON written to stdout)",
    "app/jsonin.py": "the CLI's JSON input (score JSON from stdin or a file)",
    "app/cmd_photo.py": "the hand the photo gives, on the command's output",
    "app/cmd_table.py": "`jxmj table export`: the export file / stdout",
    "app/drafts/store.py": "the drafts' database column",
    "app/ui/builtin.py": "the page's inline script settings (HTTP: the HTML sent)",
    "app/ui/services.py": "the bundled sample hand (a file in app/assets)",
    "app/ui/table/settle_view.py": "the export download (a file)",
    "ledger/store/rows.py": "the hands' database column",
    "ledger/store/schema.py": "the database column, migrated in place",
    "ledger/store/store.py": "the tables' and hands' database columns",
}
"""The modules of `app/` and `ledger/` that may call `json.dumps` / `json.loads`, each with why it
is an edge (a file, HTTP, the database column); everywhere else values stay typed."""

TYPE_ONLY_EDGES = {
    "vision": "its PEP 562 re-exports: `vision/__init__.py` names its parts under TYPE_CHECKING and "
    "imports each on first use (`from vision import get_reader`), so the leaves load without numpy",
}
"""The modules whose ``TYPE_CHECKING`` imports are no edges in the third cycle check, with why."""

DUP_LINES = 8
"""A run of this many non-trivial lines (normalised) in two modules is a duplicated block. (The
7-line list of `--refs` codes that `app/detect_errors.py` keeps beside `vision.refs.ERROR_CODES`, so
that `jxmj score` loads no vision, stays under it; tests/cli/test_cmd_detect.py checks they agree.)"""


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    """Module name -> file, for every ``.py`` under `PACKAGES`."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((REPO / pkg).rglob("*.py")):
            if "__pycache__" not in path.parts:
                out[_module_name(path)] = path
    return out


@cache
def _tree(name: str) -> ast.Module:
    path = _modules()[name]
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(body: list[ast.stmt], *, run_at_import: bool, in_type_checking: bool = False):
    """``(node, in_type_checking)`` for each import statement; with `run_at_import`, only those that
    run when the module is imported (not in functions, not under ``TYPE_CHECKING``)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_type_checking
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            if not run_at_import:
                yield from _imports(node.body, run_at_import=False, in_type_checking=True)
            yield from _imports(node.orelse, run_at_import=run_at_import, in_type_checking=in_type_checking)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and run_at_import:
            continue
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(node, field, None) or ():
                    inner = child.body if isinstance(child, ast.ExceptHandler | ast.match_case) else [child]
                    yield from _imports(inner, run_at_import=run_at_import, in_type_checking=in_type_checking)


def _base(name: str, node: ast.ImportFrom) -> str:
    """The module a ``from X import ...`` names, relative imports resolved against `name`'s package."""
    if not node.level:
        return node.module or ""
    package = name if _modules()[name].name == "__init__.py" else name.rpartition(".")[0]
    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


@cache
def _reexports(package: str) -> dict[str, str]:
    """Name -> our module it comes from, for the names `package`'s ``__init__`` imports from ours at
    top level, and under ``TYPE_CHECKING`` where a PEP 562 ``__getattr__`` imports them on first use."""
    tree = _tree(package)
    lazy = any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body)
    run = {id(n) for n, _tc in _imports(tree.body, run_at_import=True)}
    out = {}
    for node, in_tc in _imports(tree.body, run_at_import=False):
        if not (isinstance(node, ast.ImportFrom) and not node.level and node.module in _modules()):
            continue
        if id(node) in run or (in_tc and lazy):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out[a.asname or a.name] = sub if sub in _modules() else node.module
    return out


def _targets(name: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """Our modules the import statement `node` in module `name` runs."""
    mods = _modules()
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in mods]
    base = _base(name, node)
    out = []
    for alias in node.names:
        if f"{base}.{alias.name}" in mods:
            out.append(f"{base}.{alias.name}")
        elif base in mods:
            out.append(base)
            if mods[base].name == "__init__.py" and alias.name in _reexports(base):
                out.append(_reexports(base)[alias.name])
    return [t for t in dict.fromkeys(out) if t != name]


@cache
def _graph(lazy: bool = False, typed: bool = False) -> dict[str, dict[str, int]]:
    """Module -> {module it imports at import time (with `lazy`, also inside functions; with
    `typed`, also under ``TYPE_CHECKING`` but in `TYPE_ONLY_EDGES`): line}."""
    graph: dict[str, dict[str, int]] = {}
    for name in _modules():
        edges = graph.setdefault(name, {})
        tree = _tree(name)
        nodes = _imports(tree.body, run_at_import=not lazy)
        for node, in_tc in nodes:
            if in_tc and not (typed and name not in TYPE_ONLY_EDGES):
                continue
            for target in _targets(name, node):
                edges.setdefault(target, node.lineno)
    return graph


def _components(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(graph[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


def _cycle_text(graph: dict[str, dict[str, int]], comp: list[str]) -> str:
    """One cycle through the component's first module, as ``a (a.py:3) → b (b.py:7) → a``."""
    inside = set(comp)
    start = comp[0]
    paths = {start: [start]}
    queue = [start]
    while queue:  # breadth first: the shortest way back to `start`
        node = queue.pop(0)
        for child in graph[node]:
            if child == start:
                path = [*paths[node], start]
                steps = [
                    f"{a} ({_modules()[a].relative_to(REPO)}:{graph[a][b]})"
                    for a, b in itertools.pairwise(path)
                ]
                return " → ".join([*steps, start]) + (
                    f"  [component: {', '.join(comp)}]" if len(comp) > 2 else ""
                )
            if child in inside and child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError(comp)


@pytest.mark.parametrize(
    ("lazy", "typed"),
    [(False, False), (True, False), (True, True)],
    ids=["at_import", "lazy_imports_too", "type_checking_too"],
)
def test_no_import_cycle(lazy, typed):
    graph = _graph(lazy, typed)
    cycles = [_cycle_text(graph, comp) for comp in _components(graph)]
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_graph_sees_known_edges():
    graph = _graph()
    # `from datasets import render_options` and `from datasets.faces import render_font_face`
    assert {"datasets.render_options", "datasets.faces", "datasets.palette"} <= set(graph["datasets.tiles"])
    assert "vision.detection" not in graph["vision"]  # under TYPE_CHECKING: not run at import
    assert "vision.detection" not in _graph(lazy=True)["vision"]  # nor with lazy: type checkers only
    assert "vision.detection" in _graph(lazy=True)["vision.testing_table"]  # inside table_detections
    assert "vision.detection" not in graph["vision.testing_table"]
    typed = _graph(lazy=True, typed=True)
    assert "app.ui.flash" in typed["app.ui.state.progress"]  # `Flash` under TYPE_CHECKING: a type edge
    assert "app.ui.flash" not in _graph(lazy=True)["app.ui.state.progress"]
    assert "vision.detection" not in typed["vision"]  # TYPE_ONLY_EDGES: vision's PEP 562 names
    assert _components({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_over_400_lines(package):
    sizes = {
        str(path.relative_to(REPO)): len(path.read_text(encoding="utf-8").splitlines())
        for name, path in _modules().items()
        if name.split(".")[0] == package
    }
    over = {path: n for path, n in sizes.items() if n > MAX_LINES}
    assert sizes and not over, f"modules over {MAX_LINES} lines: {over}"


def _all_imports(name: str) -> list[tuple[str, int]]:
    """``(top-level package imported, line)`` for every import statement in module `name`, wherever
    it stands."""
    out = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            out.update((a.name.split(".")[0], node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.add((_base(name, node).split(".")[0], node.lineno))
    return sorted(out, key=lambda x: x[1])


FORBIDDEN = {
    "scoring": {"vision", "app", "ledger", "datasets", "bench"},
    "vision": {"app", "ledger", "datasets", "bench"},
    "ledger": {"app", "vision", "datasets", "bench"},
    "app": {"datasets", "bench"},
}
"""Package -> the packages of ours it must not import (training and benchmark code is not run time)."""


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_dependencies_flow_one_way(package):
    bad = [
        f"{_modules()[name].relative_to(REPO)}:{line} imports {target}"
        for name in _modules()
        if name.split(".")[0] == package
        for target, line in _all_imports(name)
        if target in FORBIDDEN[package]
    ]
    assert not bad, "\n".join(bad)


VISION_FROM_SCORING = ("scoring.tiles", "scoring.model", "scoring.rules")
"""What `vision` may import of `scoring`: the stdlib leaves of tile notation and rule vocabulary
(and what lies below them), never the engine (`from scoring import ...` runs all of it)."""


def test_vision_imports_only_the_scoring_vocabulary():
    bad = []
    for name in _modules():
        if name.split(".")[0] != "vision":
            continue
        for node in ast.walk(_tree(name)):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [_base(name, node)]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for target in names:
                if target.split(".")[0] == "scoring" and not any(
                    target == leaf or target.startswith(f"{leaf}.") for leaf in VISION_FROM_SCORING
                ):
                    bad.append(f"{_modules()[name].relative_to(REPO)}:{node.lineno} imports {target}")
    assert not bad, "\n".join(bad)


def test_scoring_imports_only_the_standard_library():
    bad = [
        f"{_modules()[name].relative_to(REPO)}:{line} imports {target}"
        for name in _modules()
        if name.split(".")[0] == "scoring"
        for target, line in _all_imports(name)
        if target not in sys.stdlib_module_names and target not in {"scoring", "__future__"}
    ]
    assert not bad, "\n".join(bad)


def _json_calls(path: Path) -> list[int]:
    """Lines of `path` that call ``json.dumps`` / ``json.loads`` (also under another name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    modules = {"json"} | {
        a.asname
        for n in ast.walk(tree)
        if isinstance(n, ast.Import)
        for a in n.names
        if a.name == "json" and a.asname
    }
    funcs = {
        a.asname or a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module == "json"
        for a in n.names
        if a.name in ("dumps", "loads")
    }
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (isinstance(f, ast.Attribute) and f.attr in ("dumps", "loads") and isinstance(f.value, ast.Name)
                and f.value.id in modules) or (isinstance(f, ast.Name) and f.id in funcs):  # fmt: skip
            lines.append(node.lineno)
    return lines


def test_json_only_at_the_edges():
    found = {
        str(path.relative_to(REPO)): lines
        for name, path in _modules().items()
        if name.split(".")[0] in ("app", "ledger") and (lines := _json_calls(path))
    }
    stray = {path: lines for path, lines in found.items() if path not in JSON_EDGES}
    assert not stray, f"json.dumps / json.loads outside the edges (JSON_EDGES): {stray}"
    stale = sorted(set(JSON_EDGES) - set(found))
    assert not stale, f"JSON_EDGES lists modules that no longer call json.dumps / json.loads: {stale}"


_TRIVIAL = re.compile(r"^(?:[\W_]*|(?:return|pass|break|continue|else|try|finally|raise|yield)\b.{0,12})$")


def _normalised(path: Path) -> list[tuple[int, str]]:
    """``(line number, text)`` of the lines that carry code: white space folded; blank lines,
    comments, imports, lone punctuation and short keyword lines (``return x``, ``else:``) left out."""
    out = []
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = " ".join(raw.split())
        if not line or line.startswith(("#", "import ", "from ")) or _TRIVIAL.match(line):
            continue
        out.append((n, line))
    return out


def test_no_duplicated_block():
    seen: dict[bytes, tuple[str, int]] = {}
    pairs: dict[tuple[str, str], list[str]] = {}
    for path in _modules().values():
        lines = _normalised(path)
        rel = str(path.relative_to(REPO))
        for k in range(len(lines) - DUP_LINES + 1):
            key = hashlib.blake2b("\n".join(t for _n, t in lines[k : k + DUP_LINES]).encode()).digest()
            first = seen.setdefault(key, (rel, lines[k][0]))
            if first[0] != rel:
                place = f"{rel}:{lines[k][0]} repeats {first[0]}:{first[1]}"
                pairs.setdefault((rel, first[0]), []).append(place)
    dups = [f"{places[0]} ({len(places)} runs of {DUP_LINES} lines)" for places in pairs.values()]
    assert not dups, "\n".join(dups)


MILESTONE_NAME = re.compile(r"\d|polish|hardening|session|issue|milestone")
"""A part of a test file's name that tells *when* it was written (an issue, a milestone, a version
such as ``rules3`` / ``reader_06``, a polish or hardening pass, a work session) instead of *what* it
tests. A file is found by its subject: ``test_chow_rule.py``, ``test_hostile_input.py``."""

CLI_TEST = re.compile(r"^test_(cmd_|cli)")
"""The tests of the `jxmj` commands (`app/cli.py`, `app/cmd_*.py`); they live in `tests/cli/`."""


def _test_files() -> list[Path]:
    return sorted((REPO / "tests").rglob("test_*.py"))


def milestone_named(path: Path) -> bool:
    """The file's name says when it was written (`MILESTONE_NAME`), not what it tests."""
    return bool(MILESTONE_NAME.search(path.stem.removeprefix("test_")))


def test_milestone_names_are_recognised():
    named = ["test_rules3", "test_rules36", "test_reader_06", "test_polish", "test_hardening", "test_issue12"]
    named += ["test_session_7", "test_rules3_labels"]
    assert all(milestone_named(Path(f"tests/{n}.py")) for n in named)
    subjects = ["test_chow_rule", "test_hostile_input", "test_wait_labels", "test_cmd_table", "test_off_row"]
    assert not any(milestone_named(Path(f"tests/{n}.py")) for n in subjects)


def test_no_test_file_named_after_a_milestone():
    bad = [str(p.relative_to(REPO)) for p in _test_files() if milestone_named(p)]
    assert not bad, f"test files named after when, not what (rename by subject): {bad}"


def test_cli_tests_live_in_tests_cli():
    stray = [
        str(p.relative_to(REPO))
        for p in _test_files()
        if CLI_TEST.match(p.name) and p.parent != REPO / "tests" / "cli"
    ]
    assert not stray, f"CLI tests outside tests/cli/: {stray}"


UI_JSON_EDGES = {
    "app/ui/state/draft.py": "the draft codec: a hand in progress to its JSON and back, as a whole",
    "app/ui/state/draft_boxes.py": "the draft's photo boxes: the player's DetectResult, there and back",
    "app/ui/drafting.py": "the draft store: a stored draft read back",
    "app/ui/table/others.py": "the other phones' stored drafts, read to show who is entering what",
}
"""The modules of `app/ui` that may call ``.to_json()`` / ``.from_json()``, with why each is an edge.
Anywhere else in the pages a value goes to JSON and back in the same process (a recorded hand
edited as a dict, a winner kept as its JSON), which `dataclasses.replace` and typed fields do
instead."""


def _json_methods(path: Path) -> list[int]:
    """Lines of `path` that call a ``to_json`` / ``from_json`` method."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("to_json", "from_json")
    ]


def test_no_json_round_trip_inside_the_pages():
    found = {
        str(path.relative_to(REPO)): lines
        for name, path in _modules().items()
        if name.startswith("app.ui.") and (lines := _json_methods(path))
    }
    stray = {path: lines for path, lines in found.items() if path not in UI_JSON_EDGES}
    assert not stray, f".to_json() / .from_json() in app/ui outside its edges (UI_JSON_EDGES): {stray}"
    stale = sorted(set(UI_JSON_EDGES) - set(found))
    assert not stale, f"UI_JSON_EDGES lists modules that no longer call .to_json() / .from_json(): {stale}"
