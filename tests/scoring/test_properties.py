"""Property tests (hypothesis): valid random hands never raise; items add up to own; a hand
missing its winning tile is never a win; arbitrary JSON gives an error or a result."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import HandError, HandInput, Meld, Payer, score, score_json, waits
from scoring.tiles import format_tiles, parse_tiles

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JJ_KINDS = [*range(27), 31, 33]
ALL_KINDS = list(range(34))


@st.composite
def complete_hands(draw, variant=None):
    """A valid complete hand as a HandInput (sets + pair, seven pairs, some melds)."""
    variant = variant or draw(st.sampled_from(["jiujiang", "xingzi", "xinyu"]))
    kinds = ALL_KINDS if variant == "xinyu" else JJ_KINDS
    counts = [0] * 34
    if draw(st.booleans()) and draw(st.integers(0, 5)) == 0:
        for t in draw(st.lists(st.sampled_from(kinds), min_size=7, max_size=7, unique=True)):
            counts[t] += 2
        melds: list[Meld] = []
    else:
        sets = []
        for _ in range(4):
            t = draw(st.sampled_from(kinds))
            chow = t < 27 and t % 9 <= 6 and draw(st.booleans())
            sets.append(("chow" if chow else "pung", t))
        pair = draw(st.sampled_from(kinds))
        for kind, t in sets:
            for u in range(t, t + 3) if kind == "chow" else (t, t, t):
                counts[u] += 1
        counts[pair] += 2
        assume(max(counts) <= 4)
        n_melds = draw(st.integers(0, 4))
        melded = sets[:n_melds]
        chows = sum(1 for k, _t in melded if k == "chow")
        if chows and (variant == "xinyu" or n_melds != 4 or chows > 1):
            melded = [(k, t) for k, t in melded if k != "chow"]  # a chow only as the 4th meld
        full = list(counts)
        melds = []
        for kind, t in melded:
            if kind == "chow":
                melds.append(Meld.of("chow", format_tiles([t, t + 1, t + 2])))
                for u in (t, t + 1, t + 2):
                    counts[u] -= 1
                continue
            # beside a chow the three melds are pungs or exposed kongs (碰或明杠, DECISIONS §1.3a)
            has_chow = any(k == "chow" for k, _t in melded)
            mk = draw(
                st.sampled_from(["pung", "kong", "added_kong", *([] if has_chow else ["concealed_kong"])])
            )
            if mk != "pung" and full[t] != 3:
                mk = "pung"  # the 4th copy must exist
            if mk != "pung":
                full[t] = 4
            melds.append(Meld.of(mk, format_tiles([t] * (4 if mk != "pung" else 3))))
            counts[t] -= 3
    tiles = [t for t in range(34) for _ in range(counts[t])]
    win = draw(st.sampled_from(sorted(set(tiles))))
    self_drawn = variant == "xinyu" or draw(st.booleans())
    bonus = 0 if variant == "xinyu" else draw(st.integers(0, 4))
    events = []
    if any(m.is_kong for m in melds) and self_drawn and draw(st.booleans()):
        events.append("kong_bloom")
    if variant != "xinyu" and draw(st.integers(0, 3)) == 0:
        events.append("last_tile")
    held = sum(1 for t in tiles if t == win) + sum(1 for m in melds for t in m.tiles if t == win)
    if variant != "xinyu" and not self_drawn and not events and draw(st.integers(0, 3)) == 0:
        # 抢杠 needs the three other copies in the robbed pung; otherwise 杠上流泪
        events.append("robbing_kong" if held == 1 and draw(st.booleans()) else "kong_discard")
    dealer = draw(st.booleans())
    if variant != "xinyu" and not melds and not events and draw(st.integers(0, 5)) == 0:
        if self_drawn:
            events.append("heavenly")
            dealer = True
        else:
            events.append("earthly")
            dealer = False
    # 天胡 + 报听 cannot happen (the dealer declares after his first discard, DECISIONS §1.3a)
    if variant == "jiujiang" and not {"earthly", "heavenly"} & set(events) and draw(st.integers(0, 5)) == 0:
        events.append("ready_declared")
    payers = None
    if variant != "xinyu" and draw(st.booleans()):
        n = 3 if self_drawn else 1
        left = 4 - bonus
        ps = []
        for i in range(n):
            b = draw(st.integers(0, left))
            left -= b
            ps.append(Payer(f"p{i}", is_dealer=(not dealer and i == 0) or "earthly" in events, bonus_tiles=b))
        payers = ps
    # input checks that protect money (DECISIONS §1.3a, §1.5): the robbed pung, the discarder's
    # kong, the dealer among a xingzi self-draw's payers
    seen = set(tiles) | {t for m in melds for t in m.tiles}
    if "robbing_kong" in events:
        payers = [Payer("p0", melds=(Meld.of("pung", format_tiles([win] * 3)),))]
    elif "kong_discard" in events:
        free = next((t for t in kinds if t not in seen), None)
        assume(free is not None)
        payers = [Payer("p0", melds=(Meld.of("kong", format_tiles([free] * 4)),))]
    if variant == "xingzi" and self_drawn and not dealer and payers is None:
        payers = [Payer("p0", is_dealer=True), Payer("p1"), Payer("p2")]
    return HandInput(
        variant=variant,
        concealed=format_tiles(tiles),
        winning_tile=format_tiles([win]),
        self_drawn=self_drawn,
        melds=melds,
        bonus_tiles=bonus,
        events=tuple(events),
        winner_is_dealer=dealer,
        payers=payers,
    )


@SETTINGS
@given(complete_hands())
def test_valid_hands_never_raise_and_items_add_up(h):
    r = score(h)
    if r.variant == "xinyu":
        assert math.isclose(math.prod(i.multiplier for i in r.items), r.own)
        assert r.can_win == h.self_drawn
    else:
        assert sum(i.points for i in r.items) == r.own
        if h.self_drawn:
            assert r.can_win and r.own >= 2
        for p in r.payments:
            assert p.eaten == sum(i.points for i in p.eaten_items)
            assert p.amount == (r.own + p.eaten) * h.point_value * (2 if p.doubled else 1)
    assert sum(b.winning for b in r.decomposition) <= 1
    assert r.own > 0
    assert json.loads(json.dumps(r.to_json()))["can_win"] == r.can_win


@SETTINGS
@given(complete_hands(), st.data())
def test_hand_missing_its_winning_tile_is_never_a_win(h, data):
    codes = [t.code for t in parse_tiles(h.concealed)]
    win = h.winning_tile.code
    rest = [c for c in codes if c != win]
    assume(len(rest) == len(codes) - 1)  # exactly one copy of the winning tile
    other = data.draw(st.sampled_from(["1m", "5p", "9s", "C"]))
    assume(other != win)
    # (a) dropped: thirteen tiles; (b) replaced by another tile: the winning tile is absent
    for concealed in ("".join(rest), "".join(rest) + other):
        with pytest.raises(HandError):
            score(dataclasses.replace(h, concealed=concealed))


@SETTINGS
@given(complete_hands())
def test_winning_tile_is_among_the_waits_before_the_win(h):
    tiles = [t.code for t in parse_tiles(h.concealed)]
    tiles.remove(h.winning_tile.code)
    assert h.winning_tile.code in [t.code for t in waits("".join(tiles), h.melds, h.variant)]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
FIELD_VALUES = st.one_of(
    json_values,
    st.sampled_from(["jiujiang", "xingzi", "xinyu", "123m456p789s345s55p", "5p", "2m", "5z", "EE", "C", "F"]),
    st.just([{"kind": "pung", "tiles": "777p"}]),
    st.just([{"name": "b", "is_dealer": True, "melds": [{"kind": "kong", "tiles": "1111m"}]}]),
)
OPTIONAL = ["melds", "events", "bonus_tiles", "payers", "point_value", "winner_is_dealer", "extra"]
BASE = {"variant": "jiujiang", "concealed": "123m456p789s345s55p", "winning_tile": "2m", "self_drawn": False}


@SETTINGS
@given(json_values)
def test_arbitrary_json_gives_an_error_or_a_result(value):
    try:
        out = score_json(value)
    except HandError as e:
        assert str(e)
    else:
        assert isinstance(out, dict) and "can_win" in out


@SETTINGS
@given(st.dictionaries(st.sampled_from([*BASE, *OPTIONAL]), FIELD_VALUES, max_size=4))
def test_mutated_hands_give_an_error_or_a_result(changes):
    data = {**BASE, **changes}
    try:
        out = score_json(data)
    except HandError as e:
        assert str(e)
    else:
        json.dumps(out)
        assert out["can_win"] in (True, False)
