"""The words and looks a table's evening is drawn with, shared by the 牌局 page (Streamlit) and
the settlement picture (`app.settle_png`, Pillow): each seat's line colour and dash, and one hand
told in one line. Pure: no Streamlit, no Pillow.

>>> from ledger import Hand, Table, add_hand
>>> from app.ui.i18n import words
>>> _, led = add_hand(Table("jiujiang", ("张三", "李四", "王五", "赵六")), [], Hand("drawn"))
>>> hand_line(led, led.outcomes[0], words("zh"))
'1. 黄庄 · 张三 坐庄'
"""

from __future__ import annotations

from collections.abc import Callable

#: the four seats' lines: Okabe-Ito colours that stay apart under every colour blindness (blue,
#: orange, black, reddish purple; tests/app/test_table_phones.py simulates them), and a dash each
SEAT_COLOURS = ("#0072B2", "#E69F00", "#000000", "#CC79A7")
SEAT_DASHES = ([1, 0], [8, 4], [2, 3], [10, 3, 2, 3])


def hand_line(ledger, o, t: Callable[..., str], name: Callable[[str], str] = str, num=str) -> str:
    """Hand `o` (a `ledger.HandOutcome` of `ledger`) in one line: number, how it ended, its facts
    that move money (`hand_facts`: 跟庄, 新余 kongs of the others), the dealer,
    the raise, each seat's money — ``"1. 李四 胡 王五 的炮 · 张三 坐庄 · 李四 +3 · 王五 -3"``. `t`
    words a catalog key, `name` a seat's name (the page makes it inert in Markdown), `num` a sum."""
    seats, h = tuple(name(n) for n in ledger.table.seats), o.hand
    if h.kind == "win":
        who = t("list.sep").join(seats[w.seat] for w in h.winners)
        how = (
            t("table.self_drawn_by", who=who)
            if h.discarder is None
            else t("table.won_off", who=who, off=seats[h.discarder])
        )
    elif h.kind == "drawn":
        how = t("table.kind_drawn")
    else:
        how = t("table.kind_false_win", who=seats[h.declarer])
    raise_ = f" · ×{o.raise_}" if o.raise_ > 1 else ""
    money = " · ".join(f"{seats[s]} {'+' if d > 0 else ''}{num(d)}" for s, d in enumerate(o.deltas) if d)
    facts = "".join(f" · {f}" for f in hand_facts(seats, h, t))
    return f"{o.number}. {how}{facts} · {t('table.dealer_short', name=seats[o.dealer])}{raise_}" + (
        f" · {money}" if money else ""
    )


def hand_facts(seats, h, t: Callable[..., str]) -> list[str]:
    """The facts of hand `h` besides who won that move money: 跟庄 (with 中/白, the second
    discard followed too) and 新余 kongs of the other players, by name (`seats` as shown)."""
    out = []
    if h.follow.followed:
        out.append(t("table.fact_follow_dragon" if h.follow.dragon else "table.fact_follow"))
        if h.follow.second:
            out.append(t("table.fact_follow_second"))
    for s, (e, c) in sorted(h.kongs.items()):
        out.append(t("table.fact_kongs", name=seats[s], exposed=e, concealed=c))
    return out
