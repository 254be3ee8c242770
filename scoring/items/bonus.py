"""Bonus adders (DECISIONS §1.3, always, 平胡 or 花) and what the winner eats from a payer (吃炮, §1.5).

Each function scores one side: the winner's reading (values from ``[bonus]``) or a payer's
melds and 發 (values from ``[eaten]``; a payer has no standing tiles to look at: standing
中/白 triplets cannot be eaten). ``red_flag`` and ``ready_declared`` — eaten too — are
patterns (:mod:`scoring.items.sets`). Beside each, its why-not (:func:`~scoring.items.lacks.because`).
"""

from __future__ import annotations

from scoring.items.base import PAO, Ctx, register
from scoring.items.lacks import Facts, Said, because
from scoring.items.sets import DRAGONS
from scoring.items.words import count_en, count_zh, tiles_en, tiles_zh
from scoring.model import Meld
from scoring.tiles import Tile

C, P = DRAGONS

__all__: list[str] = []


Why = tuple[str, str]


@register(PAO, "bonus_tile", kind="bonus")
def bonus_tile(x: Ctx) -> list[tuple[Why, int]]:
    """發: +``bonus_tile`` for each 發 set aside (§1.1, §1.3); a payer's are eaten (§1.5)."""
    n = x.bonus_tiles
    v = x.values.get("bonus_tile", 0)
    if x.payer is None:
        return [
            ((f"發 set aside ({i + 1} of {n})", f"补花發（第 {i + 1} 张，共 {n} 张）"), v) for i in range(n)
        ]
    return [
        ((f"{x.whose} 發 ({i + 1} of {n})", f"{x.whose_zh}發（第 {i + 1} 张，共 {n} 张）"), v)
        for i in range(n)
    ]


@because("bonus_tile", "a Green dragon set aside", "摸到發放在面前")
def bonus_tile_lacks(x: Facts) -> Said:
    return None if x.bonus_tiles else ("none set aside", "面前没有發")


@register(PAO, "four_bonus_tiles", kind="bonus")
def four_bonus_tiles(x: Ctx) -> list[tuple[Why, int]]:
    """四个发财: +``four_bonus_tiles`` more when all four 發 are one player's (§1.3, §1.5)."""
    if x.bonus_tiles != 4:
        return []
    if x.payer is None:
        why = ("all four 發 set aside", "四个發都补了花")
    else:
        why = (f"{x.payer.name} holds all four 發", f"{x.payer.name_zh}有四个發")
    return [(why, x.values.get("four_bonus_tiles", 0))]


@because("four_bonus_tiles", "all four Green dragons set aside", "四张發都放在面前")
def four_bonus_tiles_lacks(x: Facts) -> Said:
    n = x.bonus_tiles
    return None if n == 4 else (f"{n} set aside", f"面前只有{n}张發" if n else "面前没有發")


_MELD_WORDS = {"pung": ("exposed pung", "明碰"), "concealed_kong": ("concealed kong", "暗杠")}
_EXPOSED_KONG = ("exposed kong", "明杠")


def _meld_why(x: Ctx, m: Meld, name: str) -> Why:
    en, zh = _MELD_WORDS.get(m.kind, _EXPOSED_KONG)
    sep = " " if name.isascii() else ""  # 自己的中明碰, 自己的 8888m 明杠
    return f"{x.whose} {en} of {name}", f"{x.whose_zh}{sep}{name}{sep}{zh}"


@register(PAO, "dragon_set", kind="bonus")
def dragon_set(x: Ctx) -> list[tuple[Why, int]]:
    """中/白 sets (§1.3): exposed pung ``dragon_pung``, standing triplet ``dragon_standing`` (one
    completed by a discard counts as exposed), exposed kong ``dragon_kong``, concealed kong
    ``dragon_concealed_kong``. In 七对 a 中/白 pair earns nothing."""
    r, v = x.reading, x.values
    out = []
    if r.shape == "standard":
        for kind, t in r.sets:
            if kind != "pung" or t not in DRAGONS:
                continue
            zh = Tile(t).zh
            if r.win_block == (kind, t) and not r.facts.self_drawn:
                why = (
                    f"{zh} triplet completed by a discard counts as exposed",
                    f"{zh}刻子由别人打出的牌凑成，算明刻",
                )
                out.append((why, v.get("dragon_pung", 0)))
            else:
                out.append(
                    (
                        (f"concealed {zh} triplet standing in the hand", f"手里的{zh}暗刻"),
                        v.get("dragon_standing", 0),
                    )
                )
    value = {"pung": "dragon_pung", "concealed_kong": "dragon_concealed_kong"}
    for m in r.facts.melds:
        if m.tile in DRAGONS and m.kind != "chow":
            out.append((_meld_why(x, m, m.tile.zh), v.get(value.get(m.kind, "dragon_kong"), 0)))
    return out


@because("dragon_set", "a pung or kong of Red or White dragons", "红中或白板成刻子或杠")
def dragon_set_lacks(x: Facts) -> Said:
    if x.held[C] >= 3 or x.held[P] >= 3:
        return None
    return (
        f"{count_en(x.held[C], C)} and {count_en(x.held[P], P)}",
        f"{count_zh(x.held[C], C)}、{count_zh(x.held[P], P)}",
    )


@register(PAO, "kong", kind="bonus")
def kong(x: Ctx) -> list[tuple[Why, int]]:
    """Every other kong (§1.3): exposed (直杠 or 补杠) ``kong``, concealed ``concealed_kong``; a
    robbed kong is the robbed player's exposed kong, eaten (§1.3 抢杠)."""
    out = []
    for m in x.reading.facts.melds:
        if m.is_kong and m.tile not in DRAGONS:
            key = "concealed_kong" if m.kind == "concealed_kong" else "kong"
            out.append((_meld_why(x, m, m.code), x.values.get(key, 0)))
    return out


@because("kong", "a kong of tiles other than Red or White dragons", "红中、白板以外的杠", family="pao")
def kong_lacks(x: Facts) -> Said:
    if any(m.is_kong and m.tile not in (C, P) for m in x.melds):
        return None
    quads = [t for t, n in enumerate(x.standing) if n == 4]
    if quads:
        return (
            f"four {tiles_en(quads)} stand, not declared as a kong",
            f"四张{tiles_zh(quads)}立在手里，没有开杠",
        )
    return "no kong", "没有杠"
