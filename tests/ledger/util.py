"""One-line hand builders for the ledger tests.

``win("1<2")``: seat 1 wins on seat 2's discard; ``win("1*")``: seat 1 self-draws;
``win("3,2<1")``: seats 3 and 2 both win on seat 1's discard (一炮多响).
The default hand A = 123m 456p 789s 234m + 中中, won on 中: 平胡 1 + 门清 1 + 单钓 1 = 3 炮 on a
discard, 4 炮 self-drawn (+自摸) in 九江 and 星子 (DECISIONS §1.3: +1 adders for 平胡).
X = 123m 456p 789s 234m + 东东 in 新余: 门清 x2 = 2 (DECISIONS §2).
"""

from __future__ import annotations

from typing import Any

from ledger import Hand, Ledger, Table, add_hand
from ledger import read_hand as _read_hand
from ledger import read_hands as _read_hands

SEATS = ("张三", "李四", "王五", "赵六")
A = "123m456p789s234mCC C"
X = "123m456p789s234mEE E"


def read_hand(table: Table, hands: Any, data: Any, number: int | None = None, **kw: Any) -> Hand:
    """Hand JSON as the ledger's edges read it (a :class:`Hand` is passed on as it is)."""
    return data if isinstance(data, Hand) else _read_hand(table, list(hands), data, number, **kw)


def read_hands(table: Table, data: Any) -> list[Hand]:
    """An import's hand JSON list, as ``jxmj table import`` reads it."""
    return _read_hands(table, data)


def json_hand(store: Any, code: str, data: Any, number: int | None = None) -> Hand:
    """Hand JSON read against the table ``code`` holds now, as ``jxmj table record|edit`` reads it."""
    if isinstance(data, Hand):
        return data
    rec = store.get(code)
    return _read_hand(rec.table, rec.hands, data, number)


def win(spec: str, hand: str = A, follow: str | None = None, **extra: Any) -> dict[str, Any]:
    if "<" in spec:
        who, discarder = spec.split("<")
    else:
        who, discarder = spec.rstrip("*"), None
    concealed, tile = hand.split()
    kongs = extra.pop("kongs", None)
    winners = [
        {"seat": int(s), "hand": {"concealed": concealed, "winning_tile": tile, **extra}}
        for s in who.split(",")
    ]
    out: dict[str, Any] = {
        "kind": "win",
        "winners": winners,
        "discarder": None if discarder is None else int(discarder),
    }
    return _common(out, follow, kongs)


def drawn(follow: str | None = None, kongs: dict | None = None) -> dict[str, Any]:
    return _common({"kind": "drawn"}, follow, kongs)


def false_win(seat: int) -> dict[str, Any]:
    return {"kind": "false_win", "declarer": seat}


def _common(out: dict, follow: str | None, kongs: dict | None) -> dict:
    if follow:
        out["follow"] = {"followed": True, "dragon": follow == "dragon", "second": follow == "second"}
    if kongs:
        out["kongs"] = kongs
    return out


def play(variant: str, *hands: dict, base: Any = 1, rules: dict | None = None) -> Ledger:
    """Record ``hands`` one by one (each checked as the store checks it) and return the ledger."""
    table = Table(variant, SEATS, base, {"ledger": rules} if rules else {})
    recorded: list = []
    ledger = None
    for data in hands:
        hand, ledger = add_hand(table, recorded, read_hand(table, recorded, data))
        recorded.append(hand)
    assert ledger is not None
    return ledger


def dealers(ledger: Ledger) -> list[int]:
    return [o.dealer for o in ledger.outcomes] + [ledger.next_dealer]


def raises(ledger: Ledger) -> list[int]:
    return [o.raise_ for o in ledger.outcomes] + [ledger.next_raise]


def deltas(ledger: Ledger, number: int) -> list[int | float]:
    return [int(d) if d == int(d) else float(d) for d in ledger.outcomes[number - 1].deltas]


def totals(ledger: Ledger) -> list[int | float]:
    return [int(d) if d == int(d) else float(d) for d in ledger.totals]
