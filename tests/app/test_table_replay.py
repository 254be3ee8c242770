"""The 牌局 page replays its table once per change of the table, not three times per run: a tap
folds only the hand being previewed, 记这一手 and undo fold the new hand (or none), and another
phone's write is seen on the next run (the table's revision changed) — counted in hands the
ledger fold scored (`ledger.fold._money`), a whole replay being one per hand on the table."""

from __future__ import annotations

from ledger.store import open_store
from tests.app.test_table_page import HAND_A, _click, _enter, _open, _table
from tests.ledger.test_extend import folded  # noqa: F401 (fixture)
from tests.ledger.util import json_hand

STORED = 12  # hands on the table before the page opens


def _hands(at) -> int:
    import re

    return int(
        next(re.search(r'data-hands="(\d+)"', m.value).group(1) for m in at.markdown if "jx-table" in m.value)
    )


def _tap(at) -> None:
    box = at.checkbox(key="tw_followed")
    box.set_value(not box.value)
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_tap_a_record_and_an_undo_fold_one_hand_not_the_table(folded):  # noqa: F811
    code = _table()
    store = open_store()
    for i in range(STORED):
        won = {"seat": 1, "discarder": 2, "hand": {"concealed": "123m456p789s234mCC", "winning_tile": "C"}}
        store.append(code, json_hand(store, code, {"kind": "drawn"} if i % 3 else won))
    at = _open(code)
    _enter(at, HAND_A, winner=1, discarder=2)
    folded[0] = 0
    _tap(at)
    assert folded[0] == 1  # the preview's hand; before: 3 x 12 + 1 (page, preview's two replays)
    folded[0] = 0
    _click(at, "tb_record")
    assert _hands(at) == STORED + 1 and len(store.get(code).hands) == STORED + 1
    assert folded[0] == 2  # the preview, then the write's; before: 6 x 12 + 3
    folded[0] = 0
    _tap(at)
    assert folded[0] == 0  # no hand in progress: nothing to fold
    _tap(at)  # 跟庄 off again: nothing entered, so undo asks nothing (tests/app/test_table_undo.py)
    _click(at, "tb_undo")
    # the store's replay without the last hand, once; then the preview of it, back in the editor
    assert _hands(at) == STORED and folded[0] == STORED + 1


def test_another_phones_write_is_seen_on_the_next_run(folded):  # noqa: F811
    code = _table()
    one, two = _open(code), _open(code)
    _enter(one, HAND_A, winner=1, discarder=2)
    _click(one, "tb_record")
    assert _hands(one) == 1 and _hands(two) == 0
    folded[0] = 0
    _tap(two)  # phone two's next run: the revision moved; phone one's write kept its replay
    assert _hands(two) == 1 and folded[0] == 0  # for every phone of the process (before: 1)
    open_store().edit(
        code, 1, json_hand(open_store(), code, {"kind": "drawn"}, 1), expected=1
    )  # an edit: same hand count, new revision
    _tap(two)
    assert [m.value for m in two.metric] == ["0", "0", "0", "0"]
    _enter(two, HAND_A, winner=3, discarder=0)
    _click(two, "tb_record")
    rec = open_store().get(code)
    assert [h.kind for h in rec.hands] == ["drawn", "win"] and rec.ledger().totals[
        3
    ] == 6  # x2 after the 黄庄
