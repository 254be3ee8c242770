"""Helpers: build hands from one line (:func:`parse_case`), summarise items."""

from __future__ import annotations

from collections import Counter

from scoring import HandInput, Meld, Payer, ScoreResult


def melds_of(text: str) -> tuple[Meld, ...]:
    """``"pung:777p kong:CCCC"`` → melds (the meld words of :func:`parse_case`)."""
    return tuple(Meld.of(*word.split(":")) for word in text.split())


def payer(name: str, melds: str = "", **kw) -> Payer:
    """A payer named ``name`` showing ``melds`` (``"pung:111m"``)."""
    return Payer(name=name, melds=melds_of(melds), **kw)


XZ_SELF_DRAW_PAYERS = (Payer("a", is_dealer=True), Payer("b"), Payer("c"))


def points(result: ScoreResult) -> dict[str, int]:
    """Item points summed per key (items may repeat a key)."""
    c: Counter[str] = Counter()
    for i in result.items:
        c[i.key] += i.points or 0
    return dict(c)


def mults(result: ScoreResult) -> dict[str, float]:
    """Multiplier per key, the ×1 'basic' item left out."""
    return {i.key: i.multiplier for i in result.items if i.key != "basic"}


def amounts(result: ScoreResult) -> list[float]:
    return [p.amount for p in result.payments]


# ---- one-line cases --------------------------------------------------------------------------

VARIANT_OF = {"jj": "jiujiang", "xz": "xingzi", "xy": "xinyu"}
_FLAGS = {"self": ("self_drawn", True), "dealer": ("winner_is_dealer", True)}


def parse_case(spec: str, **kw) -> HandInput:
    """A hand from one line: ``"xz 234p456p777pCCCPP +P self"``.

    Words: the variant (``jj`` / ``xz`` / ``xy``), the standing tiles (winning tile included),
    ``+T`` the winning tile, ``kind:tiles`` a meld (``pung:777p``, ``concealed_kong:3333s``),
    ``self`` (self-drawn), ``dealer`` (the winner deals), ``bonus:N`` (發 set aside), any event
    name (``kong_bloom``, ``last_tile`` …), ``payer:kind:tiles`` a meld of the one discarder
    (``payer:pung:222m`` for 抢杠), ``rule:key=N`` a house rule (``rule:cap=16``). ``kw`` go to
    :class:`HandInput` as they are; a xingzi self-draw by a non-dealer gets the dealer among its
    payers (:data:`XZ_SELF_DRAW_PAYERS`).
    """
    words = spec.split()
    fields: dict = {"variant": VARIANT_OF[words[0]], "concealed": words[1], "self_drawn": False}
    melds, events, payer_melds = [], [], []
    for w in words[2:]:
        if w.startswith("payer:"):
            kind, tiles = w[6:].split(":")
            payer_melds.append(Meld.of(kind, tiles))
        elif w.startswith("+"):
            fields["winning_tile"] = w[1:]
        elif w in _FLAGS:
            fields[_FLAGS[w][0]] = _FLAGS[w][1]
        elif w.startswith("bonus:"):
            fields["bonus_tiles"] = int(w[6:])
        elif w.startswith("rule:"):
            key, value = w[5:].split("=")
            kw["rules"] = {**kw.get("rules", {}), key: int(value)}
        elif ":" in w:
            kind, tiles = w.split(":")
            melds.append(Meld.of(kind, tiles))
        else:
            events.append(w)
    if payer_melds:
        kw.setdefault("payers", (Payer(melds=tuple(payer_melds)),))  # the default "discarder"
    elif fields["variant"] == "xingzi" and fields["self_drawn"] and not fields.get("winner_is_dealer"):
        kw.setdefault("payers", XZ_SELF_DRAW_PAYERS)
    return HandInput(**fields, melds=tuple(melds), events=tuple(events), **kw)


def case(id: str, spec: str, **values):
    """One parametrised case: ``case("half_flush", "xz 234p456p777pCCCPP +P self", half_flush=10, …)``.

    ``values``: the exact points (or multipliers) per item key; keys not named score nothing.
    The id names the item key the case is about (``half_flush``, ``half_flush-no`` for a negative).
    """
    import pytest

    return pytest.param(spec, values, id=id)


def code_of(hand: str | HandInput, **kw) -> str | None:
    """The error code scoring `hand` raises (a :func:`parse_case` line, or a built hand), or
    None when it scores."""
    from scoring import HandError, score

    try:
        score(parse_case(hand, **kw) if isinstance(hand, str) else hand)
    except HandError as e:
        return e.code
    return None


def load_cases(name: str) -> list[dict]:
    """The golden cases of ``tests/data/<name>`` (the shared runner's JSON lines)."""
    import json
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "data" / name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_case(case: dict) -> dict | None:
    """Score one golden case and assert its ``expect``: the error code (where the case names one),
    else `can_win`, `own`, the keys of the items that count and the payments. Returns the score
    JSON (None for an error case)."""
    import pytest

    from scoring import HandError, score_json

    exp = case["expect"]
    if exp.get("error"):
        with pytest.raises(HandError) as err:
            score_json(case["input"])
        assert err.value.code == exp["code"] if "code" in exp else str(err.value)
        return None
    out = score_json(case["input"])
    assert out["can_win"] is exp["can_win"], out.get("reason")
    if not exp["can_win"]:
        assert out["reason"]
        return out
    assert out["own"] == exp["own"]
    keys = sorted({i["key"] for i in out["items"] if i.get("points", 0) != 0 or i.get("multiplier", 1) != 1})
    assert keys == sorted(exp["keys"]) and [p["amount"] for p in out["payments"]] == exp["payments"]
    return out
