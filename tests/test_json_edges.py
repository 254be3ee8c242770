"""JSON only at the edges: in `app/` and `ledger/`, `json.dumps` / `json.loads` appear only in the
modules that read or write a file, a stream, the browser or a database column (the list in
docs/ARCHITECTURE.md). Between them everything is typed."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALL = re.compile(r"\bjson\.(dumps|loads)\(")
EDGES = {
    "app/cliio.py": "the CLI's output",
    "app/jsonin.py": "score JSON in",
    "app/cmd_photo.py": "the guessed hand on standard error and in the text output",
    "app/cmd_table.py": "the export file",
    "app/ui/table/settle_view.py": "the export file",
    "app/ui/services.py": "the bundled sample's true tiles (a file)",
    "app/ui/builtin.py": "the page script's settings (the browser)",
    "app/ui/table/page.py": "the house rules shown as JSON text",
    "app/drafts/store.py": "a draft (a database column)",
    "ledger/store/store.py": "seats, house rules, a hand (database columns)",
    "ledger/store/rows.py": "a hand read back (a database column)",
    "ledger/store/schema.py": "a migration rewriting stored hands",
}


def test_json_is_dumped_and_loaded_only_at_the_edges():
    found = {
        str(p.relative_to(ROOT))
        for top in ("app", "ledger")
        for p in (ROOT / top).rglob("*.py")
        if any(CALL.search(line.split("#")[0]) for line in p.read_text(encoding="utf-8").splitlines())
    }
    assert found <= set(EDGES), sorted(found - set(EDGES))
