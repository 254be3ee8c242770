"""The JSON face of the engine: ``score_json(dict) -> dict`` exactly as docs/score-json.md.

Input is checked strictly — required fields, types, known values; an unknown field is an
error (a misspelt ``self_drawm`` must not be silently ignored), except keys starting with
``_`` which are left alone for annotations. Any problem raises :class:`HandError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import score
from scoring.errors import HandError
from scoring.model import EVENTS, MELD_KINDS, HandInput, Meld, Payer
from scoring.rules import VARIANTS
from scoring.tiles import parse_tiles
from scoring.validate import check_point_value

__all__ = ["hand_from_json", "score_json"]

_FIELDS = {
    "variant",
    "concealed",
    "winning_tile",
    "melds",
    "bonus_tiles",
    "self_drawn",
    "events",
    "winner_is_dealer",
    "payers",
    "point_value",
}
_REQUIRED = ("variant", "concealed", "winning_tile", "self_drawn")
_PAYER_FIELDS = {"name", "is_dealer", "bonus_tiles", "melds", "ready_declared"}
_MELD_FIELDS = {"kind", "tiles"}


def _unknown(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    for k in obj:
        if not isinstance(k, str):
            raise HandError(f"{where}: field names must be strings")
        if k not in allowed and not k.startswith("_"):
            raise HandError(f"{where}: unknown field {k!r} (known: {', '.join(sorted(allowed))})")


def _typed(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str, where: str) -> Any:
    v = obj[key]
    if kind is bool:
        ok = isinstance(v, bool)
    else:
        ok = isinstance(v, kind) and not isinstance(v, bool)
    if not ok:
        raise HandError(f"{where}{key} must be {what}, not {json_type(v)}")
    return v


def json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"a boolean ({str(v).lower()})"
    if isinstance(v, (int, float)):
        return f"a number ({v})"
    if isinstance(v, str):
        return f"a string ({v!r})"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, Mapping):
        return "an object"
    return type(v).__name__


def _melds(v: Any, where: str) -> tuple[Meld, ...]:
    if not isinstance(v, list):
        raise HandError(f"{where}melds must be a list of {{kind, tiles}} objects, not {json_type(v)}")
    if len(v) > 4:  # before parsing: a 200k-meld list must be answered at once
        raise HandError(f"{where}melds: {len(v)} given, a hand has at most four")
    out = []
    for i, m in enumerate(v):
        w = f"{where}meld {i + 1}"
        if not isinstance(m, Mapping):
            raise HandError(f"{w} must be an object with 'kind' and 'tiles', not {json_type(m)}")
        _unknown(m, _MELD_FIELDS, w)
        for k in ("kind", "tiles"):
            if k not in m:
                raise HandError(f"{w} has no {k!r}")
        kind = _typed(m, "kind", str, f"one of {', '.join(MELD_KINDS)}", f"{w}: ")
        if kind not in MELD_KINDS:
            raise HandError(f"{w}: unknown meld kind {kind!r}; use one of {', '.join(MELD_KINDS)}")
        tiles = _typed(m, "tiles", str, "a tile string such as '777p'", f"{w}: ")
        try:
            out.append(Meld(kind, tuple(sorted(parse_tiles(tiles)))))
        except HandError as e:
            raise HandError(f"{w}: {e}") from None
    return tuple(out)


def hand_from_json(data: Any) -> HandInput:
    """Check a JSON hand (docs/score-json.md "Input") and build a :class:`HandInput`."""
    if not isinstance(data, Mapping):
        raise HandError(f"the input must be a JSON object (a hand), not {json_type(data)}")
    _unknown(data, _FIELDS, "input")
    for k in _REQUIRED:
        if k not in data:
            raise HandError(f"missing required field {k!r}")
    variant = _typed(data, "variant", str, f"one of {', '.join(VARIANTS)}", "")
    if variant not in VARIANTS:
        raise HandError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    concealed = _typed(data, "concealed", str, "a tile string such as '123m456p99s'", "")
    winning = _typed(data, "winning_tile", str, "one tile such as '5m' or 'C'", "")
    self_drawn = _typed(data, "self_drawn", bool, "true or false", "")
    melds = _melds(data["melds"], "") if "melds" in data else ()
    bonus = _typed(data, "bonus_tiles", int, "a whole number 0-4", "") if "bonus_tiles" in data else 0
    events: list[str] = []
    if "events" in data:
        ev = data["events"]
        if not isinstance(ev, list):
            raise HandError(f"events must be a list of event names, not {json_type(ev)}")
        for e in ev:
            if not isinstance(e, str) or e not in EVENTS:
                raise HandError(f"unknown event {e!r}: use any of {', '.join(EVENTS)}")
            events.append(e)
    dealer = (
        _typed(data, "winner_is_dealer", bool, "true or false", "") if "winner_is_dealer" in data else False
    )
    pv: float = 1
    if "point_value" in data:
        pv = _typed(data, "point_value", (int, float), "a positive number", "")
        check_point_value(pv)
    payers = None
    if "payers" in data and data["payers"] is not None:
        raw = data["payers"]
        if not isinstance(raw, list):
            raise HandError(f"payers must be a list of player objects, not {json_type(raw)}")
        if len(raw) > 3:  # before parsing: the payers are the (at most three) other players
            raise HandError(f"{len(raw)} payers given: the payers are the other players, at most three")
        payers = []
        for i, p in enumerate(raw):
            w = f"payer {i + 1}"
            if not isinstance(p, Mapping):
                raise HandError(f"{w} must be an object, not {json_type(p)}")
            _unknown(p, _PAYER_FIELDS, w)
            name = _typed(p, "name", str, "a string", f"{w}: ") if "name" in p else ""
            payers.append(
                Payer(
                    name=name,
                    is_dealer=_typed(p, "is_dealer", bool, "true or false", f"{w}: ")
                    if "is_dealer" in p
                    else False,
                    bonus_tiles=_typed(p, "bonus_tiles", int, "a whole number 0-4", f"{w}: ")
                    if "bonus_tiles" in p
                    else 0,
                    melds=_melds(p["melds"], f"{w} ") if "melds" in p else (),
                    ready_declared=_typed(p, "ready_declared", bool, "true or false", f"{w}: ")
                    if "ready_declared" in p
                    else False,
                )
            )
    return HandInput(
        variant=variant,
        concealed=concealed,
        winning_tile=winning,
        self_drawn=self_drawn,
        melds=melds,
        bonus_tiles=bonus,
        events=tuple(events),
        winner_is_dealer=dealer,
        payers=None if payers is None else tuple(payers),
        point_value=pv,
    )


def score_json(data: Any) -> dict[str, Any]:
    """Score a JSON hand; returns the contract's output object (docs/score-json.md).

    Raises :class:`HandError` with one sentence naming the problem on any bad input.
    """
    return score(hand_from_json(data)).to_json()
