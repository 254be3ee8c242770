"""The page folders import shared packages, never each other: a section both pages draw lives
in `app/ui/hand/` (or another shared package), not in one page's folder."""

import ast
import re
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "app" / "ui"
PAGES = ("score", "table", "learn")


def _imported(path: Path) -> set[str]:
    """Every module `path` imports (at its top, in a function, or under TYPE_CHECKING)."""
    return _imports_of(path.read_text(encoding="utf-8"), path)


def _imports_of(source: str, path: Path) -> set[str]:
    """The modules `source` imports, relative imports resolved as from `path`'s package; a name
    imported from a module counts as the submodule it may be (``from app.ui import hand``)."""
    tree = ast.parse(source)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # a relative import: resolved from the file's own package
                base = path.relative_to(UI.parents[1]).with_suffix("").parts[: -node.level]
                module = ".".join((*base, *([module] if module else [])))
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names)
    return out


def _page_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] == ["app", "ui"] and len(parts) > 2 and parts[2] in PAGES:
        return parts[2]
    return None


@pytest.mark.parametrize("page", PAGES)
def test_a_page_folder_imports_no_other_page_folder(page):
    files = sorted((UI / page).rglob("*.py"))
    assert files, f"app/ui/{page}/ has no modules"
    crossing = sorted(
        f"{f.relative_to(UI)} imports {m}"
        for f in files
        for m in _imported(f)
        if _page_of(m) not in (None, page)
    )
    assert crossing == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from app.ui.score.editor import hand_editor", {"app.ui.score.editor"}),
        ("import app.ui.table.record", {"app.ui.table.record"}),
        ("def f():\n    from app.ui.learn import page", {"app.ui.learn.page"}),
        ("from ..table import record", {"app.ui.table.record"}),
        ("from ..table.record import record_section", {"app.ui.table.record"}),
    ],
)
def test_the_walk_sees_every_kind_of_import(source, found):
    f = UI / "score" / "_walked.py"  # where a page's module lies (never written: parsed from `source`)
    assert found <= _imports_of(source, f)


def test_shared_modules_import_no_page_folder():
    """The shared packages sit below the pages: `app/ui/hand`, `app/ui/state`, `app/ui/render`
    and the modules directly in `app/ui` import no page folder either."""
    files = [*UI.glob("*.py"), *(f for d in ("hand", "state", "render") for f in (UI / d).rglob("*.py"))]
    crossing = sorted(f"{f.relative_to(UI)} imports {m}" for f in files for m in _imported(f) if _page_of(m))
    assert crossing == []


FIELDS = "hand|cond|sel|picker|undo|panel_msg|typed_msg|flash|photo|photo_src|photo_seen|timing|bad_numbers"
LOOSE = re.compile(
    rf"\b(?:ss|st\.session_state)(?:\.(?:{FIELDS})\b|(?:\.get\(|\.pop\(|\[)\s*[\"'](?:{FIELDS}|tbl_choices[^\"']*|_photo_\w+|_draft:[^\"']*)[\"'])"
)


def test_the_hand_in_progress_has_no_session_keys_besides_its_own():
    """Everything of the hand in progress is a field of the one object (`session.hip()`), never a
    session key of its own: code that reads ``ss.hand`` (or ``ss["photo"]``) finds nothing there."""
    files = [p for p in (UI.parent).rglob("*.py")]
    loose = [
        f"{p.relative_to(UI.parent)}:{n}: {line.strip()}"
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if LOOSE.search(line)
    ]
    assert loose == []


def test_state_and_render_import_no_streamlit():
    """`app/ui/state/` (the pure page models) and `app/ui/render/` (pure HTML and images) import no
    Streamlit, anywhere in a module: their tests are plain unit tests, no AppTest."""
    files = [f for d in ("state", "render") for f in sorted((UI / d).rglob("*.py"))]
    assert len(files) > 5
    found = sorted(
        f"{f.relative_to(UI)} imports {m}"
        for f in files
        for m in _imported(f)
        if m.partition(".")[0] == "streamlit"
    )
    assert found == []


def test_the_streamlit_walk_sees_a_function_import():
    assert "streamlit" in _imports_of("def f():\n    import streamlit as st", UI / "state" / "_walked.py")
