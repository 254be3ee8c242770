"""The patterns of the sets a hand is made of — 碰碰胡 all_pungs, 一条龙 pure_straight, 全求人 / 飞起来
all_melded, 红旗飘飘 red_flag, and xinyu's 门清 concealed and 开杠 kong — each with its predicate
(:data:`PAO` jiujiang / xingzi, DECISIONS §1.3; :data:`FAN` xinyu, §2) and, beside it, its
why-not (:func:`~scoring.items.lacks.because`). Values live in the tables, never here.

``red_flag`` is also what the winner eats from a payer (吃炮, §1.5): then the reading is the
payer's melds (shape ``"payer"``).
"""

from __future__ import annotations

from typing import Any

from scoring.decompose import is_all_honours, is_seven_pairs, is_standard, standard_readings
from scoring.items.base import FAN, PAO, Reading, register
from scoring.items.lacks import Facts, Said, because
from scoring.items.words import count_en, count_zh, meld_en, meld_zh, tiles_en, tiles_zh
from scoring.tiles import SUIT_ZH, SUITS, Tile

__all__ = ["DRAGONS"]

C, P = int(Tile.C), int(Tile.P)
DRAGONS = (C, P)  # 中 and 白: the sets that earn bonus / red flags (發 is a bonus tile)
_SUIT_ZH = tuple(SUIT_ZH[s] for s in SUITS)  # 万 筒 条
_SUIT_EN = ("Characters", "Dots", "Bamboo")


# ---- 碰碰胡 all_pungs ----
@register(PAO, "all_pungs", ("four triplets/kongs and a pair", "四副刻子或杠加一对将"))
def all_pungs(r: Reading) -> bool:
    """碰碰胡: a standard reading without any sequence (§1.3); kongs count as triplets."""
    return r.shape == "standard" and not r.chow_starts()


@register(FAN, "all_pungs", ("four triplets/kongs and a pair", "四副刻子或杠加一对将"))
def all_pungs_fan(r: Reading) -> bool:
    """碰碰胡 (§2)."""
    return r.shape == "standard" and not r.chow_starts()


@because("all_pungs", "four pungs or kongs and a pair", "四副刻子或杠加一对")
def all_pungs_lacks(x: Facts) -> Said:
    chow = next((m for m in x.melds if m.kind == "chow"), None)
    if chow is not None:
        return f"{meld_en(chow)} is down", f"有{meld_zh(chow)}"
    loose = [t for t, n in enumerate(x.standing) if n in (1, 4)]
    pairs = [t for t, n in enumerate(x.standing) if n == 2]
    if loose or len(pairs) > 1:
        odd = loose or pairs[1:]
        return f"{tiles_en(odd)} not in a pung", f"{tiles_zh(odd)}不成刻子"
    return None


# ---- 一条龙 pure_straight ----
def _straight_suit(r: Reading) -> int | None:
    starts = set(r.chow_starts())
    for s in range(3):
        if {9 * s, 9 * s + 3, 9 * s + 6} <= starts:
            return s
    return None


def _straight_reason(r: Reading) -> tuple[str, str]:
    s = "mps"[_straight_suit(r) or 0]
    return f"123 456 789 of {s} as sequences", f"{SUIT_ZH[s]}子 123 456 789 三副顺子"


@register(PAO, "pure_straight", _straight_reason)
def pure_straight(r: Reading) -> bool:
    """一条龙: 123 456 789 of one suit as sequences of this reading (§1.3)."""
    return r.shape == "standard" and _straight_suit(r) is not None


@because(
    "pure_straight", "1-2-3, 4-5-6 and 7-8-9 of one suit as runs", "同一花色一二三、四五六、七八九三副顺子"
)
def pure_straight_lacks(x: Facts) -> Said:
    best = None
    for s in range(3):
        lacking = [s * 9 + r for r in range(9) if not x.held[s * 9 + r]]
        if best is None or len(lacking) < len(best[1]):
            best = (s, lacking)
    assert best is not None
    s, lacking = best
    if lacking:
        return (
            f"even in {_SUIT_EN[s]} it lacks {tiles_en(lacking)}",
            f"就连{_SUIT_ZH[s]}子也缺{tiles_zh(lacking)}",
        )
    melded = {m.tiles[0] for m in x.melds if m.kind == "chow"}
    for _pair, sets in standard_readings(x.standing):  # what the predicate reads: runs of a reading
        starts = {t for kind, t in sets if kind == "chow"} | melded
        if any({9 * u, 9 * u + 3, 9 * u + 6} <= starts for u in range(3)):
            return None
    return (
        f"1 to 9 of {_SUIT_EN[s]} held, but not as the runs 1-2-3, 4-5-6 and 7-8-9",
        f"{_SUIT_ZH[s]}子一到九都有，但拆不成一二三、四五六、七八九三副顺子",
    )


# ---- 全求人 (pao) / 飞起来 (xinyu) all_melded ----
@register(
    PAO, "all_melded", ("four exposed melds; the last tile paired by a discard", "四副明牌，单钓别人打出的牌")
)
def all_melded(r: Reading) -> bool:
    """全求人: four exposed melds (a concealed kong is not), won on a discard (§1.3)."""
    f = r.facts
    return f.n_melds == 4 and all(m.is_exposed for m in f.melds) and not f.self_drawn


@because(
    "all_melded",
    "four exposed melds, the last tile paired on a discard",
    "四副副露，胡别人打的牌配成将",
    family="pao",
)
def all_melded_lacks(x: Facts) -> Said:
    exposed = [m for m in x.melds if m.is_exposed]
    if len(exposed) < 4:
        hidden = len(x.melds) - len(exposed)
        extra = (", a concealed kong is no exposed meld", "，暗杠不算") if hidden else ("", "")
        return (
            f"{len(exposed)} exposed meld(s){extra[0]}",
            (f"只有 {len(exposed)} 副副露" if exposed else "没有副露") + extra[1],
        )
    if x.self_drawn:
        return "self-drawn: the last tile must come from a discard", "是自摸，要胡别人打的牌"
    return None


@register(FAN, "all_melded", ("four melds down, the pair tile self-drawn", "四副落地，自摸将牌"))
def all_melded_fan(r: Reading) -> bool:
    """飞起来: four melds down, won by drawing the pair tile (§2). A concealed kong counts as
    down unless the table's ``all_melded_counts_concealed_kong`` is false."""
    f = r.facts
    if f.n_melds != 4 or not f.self_drawn:
        return False
    if f.rules.options.all_melded_counts_concealed_kong:
        return True
    return all(m.is_exposed for m in f.melds)


@because("all_melded", "four melds down, the pair tile self-drawn", "四副落地，自摸配成将", family="fan")
def all_melded_fan_lacks(x: Facts) -> Said:
    counted = [m for m in x.melds if m.is_exposed or x.rules.options.all_melded_counts_concealed_kong]
    if len(counted) < 4:
        return f"{len(counted)} meld(s) down", f"只有 {len(counted)} 副落地" if counted else "没有落地的副"
    return None


# ---- 红旗飘飘 red_flag ----
def _red_flag_reason(r: Reading) -> tuple[str, str]:
    if r.shape == "payer":
        return "exposed Red dragon 中 and White dragon 白 sets (红旗飘飘)", "明的中、白两副（红旗飘飘）"
    return "triplets or kongs of both the Red dragon 中 and the White dragon 白", "中、白各一副刻子或杠"


@register(PAO, "red_flag", _red_flag_reason)
def red_flag(r: Reading) -> bool:
    """红旗飘飘: sets of both 中 and 白, exposed, concealed or standing (§1.3); in 七对 only
    where the table's ``red_flag_in_seven_pairs`` says so (XZ yes, JJ no). A payer's (吃炮,
    §1.5, §1.3a) needs both sets among their melds, a concealed kong only where
    ``payer_red_flag_counts_concealed_kong`` is true."""
    rules = r.facts.rules
    if r.shape == "seven_pairs":
        c = r.facts.all_counts
        return rules.options.red_flag_in_seven_pairs and c[C] == 4 and c[P] == 4
    if r.shape == "payer" and not rules.options.payer_red_flag_counts_concealed_kong:
        trips: list[int] = [m.tile for m in r.facts.melds if m.kind != "chow" and m.is_exposed]
    else:
        trips = r.triplet_tiles()
    return C in trips and P in trips


@because("red_flag", "pungs or kongs of both Red and White dragons", "红中和白板都成刻子或杠")
def red_flag_lacks(x: Facts) -> Said:
    lacking = [t for t in (C, P) if x.held[t] < 3]
    if not lacking:
        if not x.melds and x.standing[C] == 4 and x.standing[P] == 4:
            if not x.rules.options.red_flag_in_seven_pairs:
                return (
                    "four of each held as pairs: in seven pairs that is not red flags here",
                    "四张红中四张白板当对子：本玩法七对不算红旗飘飘",
                )
        return None
    return " and ".join(count_en(x.held[t], t) for t in lacking), "、".join(
        count_zh(x.held[t], t) for t in lacking
    )


# ---- xinyu's 门清 concealed and 开杠 kong (rows of its pattern table) ----
@register(
    FAN,
    "concealed",
    (
        "no claimed pung and no kong of any kind (a triplet held in the hand is fine)",
        "没有碰，也没有任何杠（手里的暗刻不算碰）",
    ),
)
def concealed(r: Reading) -> bool:
    """门清: no meld at all (a concealed kong breaks it too); not with the 七对 family unless the
    table's ``concealed_with_seven_pairs`` is true (§2 judgement call)."""
    if r.facts.n_melds:
        return False
    return r.shape != "seven_pairs" or r.facts.rules.options.concealed_with_seven_pairs


@because(
    "concealed",
    "no claimed pung and no kong at all (a concealed kong breaks it; a triplet held in the hand does not)",
    "没有碰、没有任何杠（暗杠也算；手里的暗刻不算）",
    "fan",
)
def concealed_lacks(x: Facts) -> Said:
    if x.melds:
        m = x.melds[0]
        return f"{meld_en(m)}", f"有{meld_zh(m)}"
    if x.rules.options.concealed_with_seven_pairs or not seven_pairs_only(x.standing, x.rules):
        return None
    return "seven pairs never count as concealed here", "七对不算门清"


def seven_pairs_only(standing: list[int], rules: Any) -> bool:  # a RuleTable (the rules import items)
    """The only readings of these standing tiles (no melds) are seven pairs: no standard one, no
    all-honour free shape."""
    if not is_seven_pairs(standing) or is_standard(standing):
        return False
    return not (rules.all_honours_free_shape and is_all_honours(standing))


def _kong_reason(r: Reading) -> tuple[str, str]:
    """The kongs, and how often their ×2 counts (once however many, unless ``kong_counts_once``
    is false): "2 个杠，×2 只算一次"."""
    n = r.facts.kongs
    if n > 1 and r.facts.rules.options.kong_counts_once:
        return f"{n} kongs among the winner's melds; the x2 counts once", f"{n} 个杠，×2 只算一次"
    if n > 1:
        return f"{n} kongs among the winner's melds; x2 for each", f"{n} 个杠，每个杠 ×2"
    return "a kong among the winner's melds", "有 1 个杠"


@register(FAN, "kong", _kong_reason)
def kong(r: Reading) -> int:
    """开杠: the winner has at least one kong — x2 once however many (§2), or once per kong where
    the table's ``kong_counts_once`` is false."""
    n = r.facts.kongs
    return min(n, 1) if r.facts.rules.options.kong_counts_once else n


@because("kong", "at least one kong", "至少一副杠", "fan")
def kong_lacks(x: Facts) -> Said:
    return None if any(m.is_kong for m in x.melds) else ("no kong", "没有杠")
