"""`jxmj table show CODE --format text`: the table as the 牌局 page says it, for people at a
terminal — its title line, every hand in one line as the page's history (`hand_line`: how it
ended, 跟庄 and kongs, the dealer, the raise, the money; the note under it), each player's total,
the settlement in the fewest transfers and the next hand with its dealer and raise — in zh or en.
`--format json` (the default) stays the whole ledger for programs.

>>> from ledger import Table, replay
>>> text = show_text(replay(Table("jiujiang", ("张三", "李四", "王五", "赵六")), []), "en")
>>> for line in text.splitlines()[1:]:  # the first: title, variant, money, code
...     print(line)
<BLANKLINE>
Settlement
张三 0 · 李四 0 · 王五 0 · 赵六 0
Everyone is square.
<BLANKLINE>
Hand 1: 张三 deals.
"""

from __future__ import annotations

from app.ui.i18n import words
from app.ui.render.html import num
from app.ui.render.seat_lines import hand_line
from ledger import settle

__all__ = ["base_words", "show_text"]


def base_words(table, t) -> str:
    """The money per 炮 of `table` in the words of `t` (`app.ui.i18n.words`): "每炮 2" / "2 per 炮";
    新余 scores in points, so its money is per point ("每分 2").

    >>> from ledger import Table
    >>> seats = ("甲", "乙", "丙", "丁")
    >>> zh, en = words("zh"), words("en")
    >>> base_words(Table("jiujiang", seats, 2), zh), base_words(Table("xinyu", seats, 2), zh)
    ('每炮 2', '每分 2')
    >>> base_words(Table("xinyu", seats, 0.5), en)
    '0.5 per point'
    """
    key = "table.base_is_points" if table.variant == "xinyu" else "table.base_is"
    return t(key, base=num(table.base))


def show_text(ledger, lang: str) -> str:
    """The lines of `ledger` (a `ledger.Ledger`) in `lang` ("zh" or "en"), without a last newline."""
    t = words(lang)
    table = ledger.table
    head = [
        table.title or t("table.untitled"),
        t(f"variant.{table.variant}"),
        base_words(table, t),
        f"{t('table.code_is')} {table.code}",
    ]
    lines = [" · ".join(head)]
    if ledger.outcomes:
        lines += ["", t("table.history")]
        for o in ledger.outcomes:
            lines.append(hand_line(ledger, o, t, str, num))
            if o.hand.note:
                lines.append("   " + t("table.note_is", note=o.hand.note))
    s = settle(table.seats, ledger.totals)
    lines += ["", t("table.settlement")]
    lines.append(
        " · ".join(f"{n} {'+' if v > 0 else ''}{num(v)}" for n, v in zip(s.seats, s.nets, strict=True))
    )
    lines += s.lines() or [t("table.all_square")]
    lines.append("")
    if table.locked:
        lines.append(t("table.locked"))
    else:
        nxt = t("table.next", n=len(ledger.outcomes) + 1, dealer=table.seats[ledger.next_dealer])
        if ledger.next_raise > 1:
            why = t("list.sep").join(
                t(f"raise.{r.code}", n=r.source, x=r.factor) for r in ledger.next_reasons
            )
            nxt += t("table.raised", x=ledger.next_raise, why=why)
        lines.append(nxt)
    return "\n".join(lines)
