"""A table is read in one snapshot: a write committed while `Store.get` reads is either wholly
seen or not at all, so the integrity check (`corrupt_store`: hand count ≠ hands read) never fires
on a healthy table (issue 39, item 1: on PostgreSQL's READ COMMITTED ~4 % of reads did)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import sqlalchemy as sa
from sqlalchemy import event

from ledger import StoreError, Table
from ledger.store import open_store, schema
from tests.ledger.util import SEATS, drawn, json_hand, read_hands


def test_a_write_between_the_count_and_the_hands_is_not_seen(store, db_url):
    code = store.create_table(T := Table("jiujiang", SEATS), read_hands(T, [drawn(), drawn()])).table.code
    other = open_store(db_url)
    done = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _append_meanwhile(conn, cursor, statement, *_):
        if "FROM jxmj_hands" in statement and not done:  # the row (count 2) is read: commit hand 3
            done.append(other.append(code, json_hand(other, code, drawn()), expected=2))

    try:
        rec = store.get(code)
    finally:
        event.remove(store.engine, "before_cursor_execute", _append_meanwhile)
        other.close()
    assert done, "the hands were never read"
    assert (len(rec.hands), rec.revision) == (2, 0)  # the table as it was before hand 3
    assert len(store.get(code).hands) == 3


WRITER = textwrap.dedent(
    """
    import sys, time
    from ledger.store import open_store, schema
    from ledger import Hand
    store = open_store(sys.argv[1])
    code, until, n = sys.argv[2], time.monotonic() + float(sys.argv[3]), 0
    while time.monotonic() < until:  # the count moves both ways: 2 -> 3 -> 2 ...
        store.append(code, Hand("drawn"), expected=2)
        store.undo(code, expected=3)
        n += 2
    print(n)
    """
)


def test_a_reader_beside_a_writer_process_never_sees_damage(store, db_url):
    code = store.create_table(T := Table("jiujiang", SEATS), read_hands(T, [drawn(), drawn()])).table.code
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, db_url, code, "3"], cwd=root, stdout=subprocess.PIPE, text=True
    )
    reads, damaged, counts = 0, [], set()
    try:
        while writer.poll() is None:
            try:
                rec = store.get(code)
            except StoreError as e:
                damaged.append(e.code)
                continue
            reads += 1
            counts.add(len(rec.hands))
            time.sleep(0.001)
    finally:
        out, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0
    writes = int(out)
    assert damaged == [], f"{len(damaged)} of {reads + len(damaged)} reads said {set(damaged)}"
    assert reads > 50 and writes > 20, (reads, writes)  # enough of both to overlap
    assert counts <= {2, 3}
    with store.engine.connect() as conn:  # the writer's last undo left two hands
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.hands)).scalar_one() == 2
