"""The Chinese of `jxmj score --format text --lang zh`: tiles as Chinese names
(``九九筒``, ``中中中``, never ``99p`` / ``CCC``), waits from the real tiles (``卡张：三五筒听四筒``),
why 边/卡/单钓 was not counted when the hand waited on several kinds, and error sentences by code
(the codes stay). English text keeps the notation.

>>> zh_tiles([9, 10, 11]), zh_codes("自己的 8888m 明杠"), zh_codes("连对 3456789p")
('一二三筒', '自己的 八八八八万 明杠', '连对 三四五六七八九筒')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from scoring.result import ScoreResult
from scoring.tiles import HONOURS, RANK_ZH, SUIT_ZH, SUITS, Tile, parse_tiles

__all__ = ["ERROR_ZH", "error_zh", "uncounted_wait", "wait_note", "wait_zh", "zh_codes", "zh_tiles"]


def zh_tiles(tiles: Iterable[int]) -> str:
    """Tiles in Chinese, ranks of one suit run together: ``二三四万``, ``九九条``, ``中中中``."""
    out: list[str] = []
    run: list[str] = []
    suit = ""  # the suit of the run ("" for an honour)
    for t in (Tile(x) for x in tiles):
        s = t.suit if not t.is_honour else ""
        if run and s != suit:
            out.append("".join(run) + SUIT_ZH[suit])
            run = []
        if not s:
            out.append(t.zh)
        else:
            run.append(RANK_ZH[t.rank - 1])
        suit = s
    if run:
        out.append("".join(run) + SUIT_ZH[suit])
    return "".join(out)


_CODE = re.compile(rf"(?<![A-Za-z0-9])(?:[1-9]+[{''.join(SUITS)}]|[{''.join(HONOURS)}]+)+(?![A-Za-z0-9])")


def zh_codes(text: str) -> str:
    """``text`` with every tile code written as Chinese names (``8888m`` → ``八八八八万``)."""

    def one(m: re.Match[str]) -> str:
        try:
            return zh_tiles(parse_tiles(m.group(0)))
        except ValueError:
            return m.group(0)

    return _CODE.sub(one, text)


def _block(result: ScoreResult) -> list[int]:
    b = next((b for b in result.decomposition if b.winning), None)
    return [int(t) for t in b.tiles] if b is not None else []


def wait_zh(result: ScoreResult) -> str:
    """The winning block's wait from its real tiles: ``卡张：三五筒听四筒``, ``边张：一二万听三万``."""
    win = result.winning_tile
    if win is None:
        return result.wait or "-"
    w = Tile(win).zh
    if result.shape == "free":
        hand = sorted(t for b in result.decomposition if b.source == "hand" for t in b.tiles)
        return f"不论牌型：{zh_tiles(hand)}"
    if result.shape == "seven_pairs":
        return f"七对：{w}配成对"  # 七对不算单钓 (DECISIONS §1.3a)
    rest = list(_block(result))
    if int(win) in rest:
        rest.remove(int(win))
    names = {"closed": "卡张", "edge": "边张", "open": "两面", "single": "单钓", "pung": "对倒"}
    name = names.get(result.wait or "", result.wait or "-")
    if uncounted_wait(result):  # the app's words: 单钓的样子，但听 2 种牌，不算单钓 (the note says)
        name += "的样子"
    if result.wait in ("closed", "edge", "open") and rest:
        return f"{name}：{zh_tiles(rest)}听{w}"
    return f"{name}：{w}"


_WAIT_KEYS = {"edge": "edge_wait", "closed": "closed_wait", "single": "single_wait"}


def uncounted_wait(result: ScoreResult) -> str | None:
    """The adder key (``single_wait`` …) of a 边/卡/单钓 shape that is not counted because the
    hand waited on several kinds (the items hold no such adder); ``None`` otherwise."""
    key = _WAIT_KEYS.get(result.wait or "")
    if key is None or len(result.waits) < 2 or result.shape != "standard":
        return None
    if result.variant == "xinyu" or any(i.key == key for i in result.items):
        return None  # xinyu (番) has no wait adders at all
    return key


def wait_note(result: ScoreResult, lang: str, needs_single: bool) -> str | None:
    """Why 边/卡/单钓 is not counted though the winning tile is one: the hand waited on several
    kinds (DECISIONS §1.3, option ``wait_bonus_needs_single_wait``); ``None`` otherwise. The
    app's words (``wait.several``: 单钓的样子，但听 2 种牌，不算单钓), with the kinds waited on."""
    key = uncounted_wait(result)
    if key is None or not needs_single:
        return None
    if lang == "zh":
        name = {"edge_wait": "边张", "closed_wait": "卡张", "single_wait": "单钓"}[key]
        kinds = "、".join(Tile(t).zh for t in result.waits)
        n = len(result.waits)
        return f"{name}的样子，但听 {n} 种牌（{kinds}），不算{name}：边、卡、单钓要只听一张"
    name = {"edge_wait": "edge", "closed_wait": "closed", "single_wait": "single"}[key]
    kinds = ", ".join(Tile(t).code for t in result.waits)
    return (  # the app's words (wait.several), with the kinds
        f"{name} wait shape, but waiting on {len(result.waits)} kinds ({kinds}): not counted as one; "
        "edge, closed and single waits count only when one kind is waited on"
    )


#: one Chinese sentence per error code (scoring.errors.CODES and the CLI's own)
ERROR_ZH = {
    "bad_field": "输入有误：缺少字段、有不认识的字段，或字段类型不对",
    "unknown_variant": "不认识的玩法：只有九江、星子、新余",
    "bad_point_value": "每炮的钱数不对：要一个正数",
    "unknown_tile": "有不认识的牌",
    "ambiguous_honour": "5z 这类写法有歧义，请直接写中、發、白或东南西北",
    "tile_not_in_variant": "这种玩法没有这张牌（九江、星子不用风牌）",
    "bonus_tile_in_hand": "發是花牌：摸到就放在面前补牌，不能立在手里或组成副露，请记在发财数里",
    "no_bonus_tiles": "新余麻将没有花牌，發是普通牌",
    "fifth_copy": "同一种牌超过了四张",
    "wrong_tile_count": "牌数不对：胡牌时手里加副露是十四张，每个杠多一张",
    "winning_tile_not_in_hand": "胡的那张牌要算在手牌里",
    "bad_meld": "副露的牌型不对：碰是三张一样的，杠是四张一样的，吃是同花色的三张顺子",
    "too_many_melds": "副露最多四副",
    "chow_not_allowed": "这里不能吃：九江、星子只在碰或明杠三副落地后吃一次，当第四副；新余不能吃",
    "unknown_event": "不认识的胡牌方式",
    "event_not_in_variant": "这种玩法没有这种胡牌方式（报听只有九江有）",
    "inconsistent_event": "胡牌方式互相矛盾，或和其他输入对不上，不可能同时发生",
    "robbed_pung_missing": "抢杠要写出被抢那家的碰（胡的那张正要补成杠）",
    "discarder_kong_missing": "杠上流泪要写出放炮那家刚开的杠",
    "dealer_not_paying": "星子闲家自摸时庄家也在付款人里并且加倍，请标出哪一家是庄家",
    "bad_payers": "付款人不对：放炮只有放炮的一家付，自摸三家付；庄家最多一个，名字不能重复",
    "inconsistent_winners": "一炮多响的几家胡的不是同一张打出的牌",
    "not_complete": "这副牌还没有胡：不是四副加一对，也不是七对",
    "unknown_rule_key": "规则里有不认识的键",
    "bad_rule_value": "规则的值不对（类型或范围）",
    "bad_rule_table": "规则文件读不了",
    "bad_json": "输入不是有效的 JSON",
    "input_too_large": "输入太大，不可能是一副牌",
    "internal_error": "计分程序出错了（程序的毛病，不是输入的）",
}

_NAMED = re.compile(r"\(([\u4e00-\u9fff]{1,3})\)")
_KEY = re.compile(r"'([a-z_]+(?:\.[a-z_]+)+|[a-z_]+)'")


def error_zh(code: str, message: str) -> str:
    """A Chinese error sentence for ``code``, with the tiles (``(五万)``) or the rule key the
    English ``message`` names; the code itself is printed beside it by the caller."""
    base = ERROR_ZH.get(code, "输入有误")
    named: Sequence[str] = list(dict.fromkeys(_NAMED.findall(message)))
    if code in ("unknown_rule_key", "bad_rule_value"):
        named = _KEY.findall(message)[:1]  # the key as the user wrote it
    return f"{base}：{'、'.join(named)}" if named else base
