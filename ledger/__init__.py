"""jxmj table ledger (牌局): a shared multi-hand account, derived by folding over the hands.

Depends on :mod:`scoring` only (never on the app). A :class:`Table` holds the facts that do not
change (variant, four seats, base point value, house rules); the recorded :class:`Hand` list
holds what happened. Everything else — dealer 庄家, 九江 跟庄 / 黄庄 raises, 星子 dealer
doubling and 炸糊, 新余 kong money, payments, running totals, the settlement — comes from
:func:`replay` (DECISIONS §1.5-1.6, §2; every number in ``ledger/rules/*.toml``).

Public API::

    Table(variant, seats, base=1, house_rules={}, ...)       # ledger.model
    Winner(seat, hand: RecordedHand, eaten={seat: Payer})     # ledger.recorded: a typed winner
    Hand(kind, winners=(Winner...), discarder, follow=Follow(...), kongs={seat: (e, c)}, note)
    parse_hand(table, data, Context(...)) -> Hand         # hand JSON in: the edges only
    read_hand(table, hands, data, number=None) -> Hand    # the same, its context from the table
    read_hands(table, data_list) -> [Hand]                # an import's list, each checked in turn
    add_hand(table, hands, hand, before=None) -> (Hand, Ledger)  # checked append of a typed hand
    edit_hand(table, hands, number, hand) -> (Hand, Ledger)    # checked edit, later hands recomputed
    check_hand(table, hand, number) -> Hand               # a typed hand against its table
    replay(table, hands, strict=True) -> Ledger                # the fold
    extend(ledger, *hands, strict=True) -> Ledger              # the fold, on from a replay
    settle(seats, nets) -> Settlement                          # nets + fewest transfers
    load_ledger_rules(variant, overrides) -> LedgerRules
    new_code() / normalize_code(text)                          # table codes (>= 50 random bits)
    LedgerError (.code), NotFoundError, LockedError, ConflictError, StoreError
    ledger.store.open_store(url=None) -> Store                  # SQLAlchemy: SQLite default, PostgreSQL
"""

from ledger.book import add_hand, edit_hand, read_hand, read_hands
from ledger.check import check_hand
from ledger.codes import new_code, normalize_code
from ledger.errors import ConflictError, LedgerError, LockedError, NotFoundError, StoreError
from ledger.fold import HandOutcome, Ledger, Raise, extend, replay, score_input
from ledger.model import KINDS, SEAT_COUNT, Follow, Hand, Table, Winner, parse_money
from ledger.parse import Context, parse_hand, payer_seats
from ledger.rules import LedgerRules, load_ledger_rules
from ledger.settle import Settlement, Transfer, settle

__all__ = [
    "KINDS",
    "SEAT_COUNT",
    "ConflictError",
    "Context",
    "Follow",
    "Hand",
    "HandOutcome",
    "Ledger",
    "LedgerError",
    "LedgerRules",
    "LockedError",
    "NotFoundError",
    "Raise",
    "Settlement",
    "StoreError",
    "Table",
    "Transfer",
    "Winner",
    "add_hand",
    "check_hand",
    "edit_hand",
    "extend",
    "load_ledger_rules",
    "new_code",
    "normalize_code",
    "parse_hand",
    "parse_money",
    "payer_seats",
    "read_hand",
    "read_hands",
    "replay",
    "score_input",
    "settle",
]
