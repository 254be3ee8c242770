"""The hand the user edits, and the score-JSON it turns into (no Streamlit here).

A hand is a plain dict kept in `st.session_state` (so nothing is lost on a rerun):

    {"concealed": [{"t": "5p", "c": 0.97, "d": 3}, ...],   # standing tiles, winning tile included
     "melds": [{"kind": "pung", "tiles": [tile, tile, tile]}, ...],
     "win": 13,                                             # index into concealed, or None
     "bonus": 0}                                            # 發 set aside (jiujiang, xingzi)

`t` the tile code (`?` = not read), `c` the detector's confidence (None when typed in),
`d` the detection's index in the photo (None when typed in).
"""

from __future__ import annotations

import copy
from typing import Any

from app.ui import tiles as T
from app.ui.tiles import UNKNOWN

MELD_KINDS = ("pung", "kong", "added_kong", "concealed_kong", "chow")
SEATS = ("right", "across", "left")  # 下家, 对家, 上家 — the three other players
LOW_CONF = 0.6
EVENTS = {
    "jiujiang": (
        "kong_bloom",
        "robbing_kong",
        "kong_discard",
        "last_tile",
        "heavenly",
        "earthly",
        "ready_declared",
    ),
    "xingzi": ("kong_bloom", "robbing_kong", "kong_discard", "last_tile", "heavenly", "earthly"),
    "xinyu": ("kong_bloom",),
}
SELF_DRAWN_ONLY = {"kong_bloom", "heavenly"}
DISCARD_ONLY = {"robbing_kong", "kong_discard", "earthly"}


def tile(code: str, conf: float | None = None, det: int | None = None) -> dict[str, Any]:
    return {"t": code, "c": conf, "d": det}


def empty_hand() -> dict[str, Any]:
    return {"concealed": [], "melds": [], "win": None, "bonus": 0}


def default_conditions() -> dict[str, Any]:
    return {
        "variant": "jiujiang",
        "self_drawn": True,
        "events": [],
        "dealer": "me",
        "discarder": "left",
        "point_value": 1,
        "seats": {s: default_seat() for s in SEATS},
    }


def default_seat() -> dict[str, Any]:
    return {
        "bonus": 0,
        "dragon_pungs": 0,
        "dragon_kongs": 0,
        "dragon_concealed_kongs": 0,
        "kongs": 0,
        "concealed_kongs": 0,
        "ready": False,
    }


def det_uncertain(d: dict[str, Any]) -> bool:
    """A detection (docs/detect-json.md) the reader flags `uncertain` (models with a calibrated
    flag), else one with `conf` under `LOW_CONF`: the app draws it red."""
    return bool(d["uncertain"]) if "uncertain" in d else d.get("conf", 1.0) < LOW_CONF


def is_low(t: dict[str, Any]) -> bool:
    return t["t"] == UNKNOWN or (t.get("c") is not None and t["c"] < LOW_CONF)


def all_tiles(hand: dict[str, Any]) -> list[dict[str, Any]]:
    return hand["concealed"] + [x for m in hand["melds"] for x in m["tiles"]]


def win_code(hand: dict[str, Any]) -> str | None:
    w = hand.get("win")
    if w is None or not (0 <= w < len(hand["concealed"])):
        return None
    return hand["concealed"][w]["t"]


def events_for(variant: str, self_drawn: bool) -> tuple[str, ...]:
    skip = DISCARD_ONLY if self_drawn else SELF_DRAWN_ONLY
    return tuple(e for e in EVENTS[variant] if e not in skip)


# ---------------------------------------------------------------- editing (return new hands)


def set_tile(hand: dict, where: tuple, code: str) -> dict:
    h = copy.deepcopy(hand)
    target = _at(h, where)
    target.update(t=code, c=None)
    return h


def delete_tile(hand: dict, where: tuple) -> dict:
    h = copy.deepcopy(hand)
    if where[0] == "c":
        i = where[1]
        del h["concealed"][i]
        if h["win"] is not None:
            if h["win"] == i:
                h["win"] = None
            elif h["win"] > i:
                h["win"] -= 1
    else:
        m = h["melds"][where[1]]
        del m["tiles"][where[2]]
        if not m["tiles"]:
            del h["melds"][where[1]]
    _default_win(h)
    return h


def add_tile(hand: dict, code: str) -> dict:
    h = copy.deepcopy(hand)
    h["concealed"].append(tile(code))
    _default_win(h)
    return h


def set_win(hand: dict, i: int) -> dict:
    h = copy.deepcopy(hand)
    h["win"] = i
    return h


def sort_concealed(hand: dict) -> dict:
    h = copy.deepcopy(hand)
    w = h["concealed"][h["win"]] if h["win"] is not None else None
    h["concealed"].sort(key=lambda x: T.sort_key(x["t"]))
    if w is not None:
        h["win"] = next(i for i, x in enumerate(h["concealed"]) if x is w)
    return h


def make_meld(hand: dict, i: int, kind: str) -> tuple[dict, bool]:
    """Move the concealed tile i and the tiles that complete `kind` with it into a new meld.

    Returns (hand, ok); ok is False (hand unchanged) when the standing hand lacks the tiles.
    """
    h = copy.deepcopy(hand)
    code = h["concealed"][i]["t"]
    if kind == "chow":
        if code not in T.SUITED:
            return hand, False
        r, s = int(code[0]), code[1]
        for start in (r, r - 1, r - 2):
            need = [f"{k}{s}" for k in range(start, start + 3)]
            if start >= 1 and start + 2 <= 9 and _take(h, i, need) is not None:
                return _take(h, i, need, kind="chow") or (hand, False), True
        return hand, False
    n = 3 if kind == "pung" else 4
    need = [code] * n
    if _take(h, i, need) is None:
        return hand, False
    return _take(h, i, need, kind=kind), True


def _take(h: dict, i: int, need: list[str], kind: str | None = None) -> dict | None:
    """The indices of concealed tiles matching `need` (tile i first); with kind, the new hand."""
    chosen = [i]
    rest = list(need)
    rest.remove(h["concealed"][i]["t"])
    for j, x in enumerate(h["concealed"]):
        if j != i and x["t"] in rest and j != h.get("win"):
            rest.remove(x["t"])
            chosen.append(j)
    if rest:
        return None
    if kind is None:
        return h
    h = copy.deepcopy(h)
    win_tile = h["concealed"][h["win"]] if h["win"] is not None else None
    meld = [h["concealed"][j] for j in sorted(chosen, key=lambda j: T.sort_key(h["concealed"][j]["t"]))]
    h["concealed"] = [x for j, x in enumerate(h["concealed"]) if j not in chosen]
    h["melds"].append({"kind": kind, "tiles": meld})
    h["win"] = next((k for k, x in enumerate(h["concealed"]) if x is win_tile), None)
    _default_win(h)
    return h


def set_meld_kind(hand: dict, j: int, kind: str) -> dict:
    """Regroup meld j: pung <-> kong kinds add or drop the fourth tile; 'concealed' dissolves it."""
    h = copy.deepcopy(hand)
    m = h["melds"][j]
    if kind == "concealed":
        h["concealed"].extend(m["tiles"])
        del h["melds"][j]
        _default_win(h)
        return h
    codes = [x["t"] for x in m["tiles"]]
    base = codes[0] if codes else UNKNOWN
    if kind in ("kong", "added_kong", "concealed_kong") and len(codes) == 3 and len(set(codes)) == 1:
        m["tiles"].append(tile(base))
    elif kind in ("pung", "chow") and len(codes) == 4:
        m["tiles"].pop()
    m["kind"] = kind
    return h


def _at(h: dict, where: tuple) -> dict:
    return h["concealed"][where[1]] if where[0] == "c" else h["melds"][where[1]]["tiles"][where[2]]


def _default_win(h: dict) -> None:
    if h["concealed"] and (h["win"] is None or h["win"] >= len(h["concealed"])):
        h["win"] = len(h["concealed"]) - 1
    if not h["concealed"]:
        h["win"] = None


# ---------------------------------------------------------------- to and from score-JSON


def to_score_json(hand: dict, cond: dict) -> dict:
    """The score-JSON input (shared/contract/score-json.md) for this hand and these conditions."""
    variant = cond["variant"]
    concealed = [x["t"] for x in hand["concealed"]]
    self_drawn = bool(cond["self_drawn"])  # xinyu: the form only offers self-drawn; what-ifs may ask
    data: dict[str, Any] = {
        "variant": variant,
        "concealed": T.to_string(concealed),
        "winning_tile": win_code(hand) or "",
        "melds": [
            {"kind": m["kind"], "tiles": T.to_string([x["t"] for x in m["tiles"]])} for m in hand["melds"]
        ],
        "self_drawn": self_drawn,
        "events": [e for e in cond["events"] if e in events_for(variant, self_drawn)],
        "winner_is_dealer": cond["dealer"] == "me",
        "point_value": cond["point_value"],
    }
    if variant != "xinyu":
        data["bonus_tiles"] = int(hand.get("bonus", 0))
    seats = list(SEATS) if self_drawn else [cond["discarder"]]
    used = _counts([*concealed, *(x["t"] for m in hand["melds"] for x in m["tiles"])])
    payers = []
    for s in seats:
        p: dict[str, Any] = {"name": s, "is_dealer": cond["dealer"] == s}
        if variant != "xinyu":
            info = cond["seats"][s]
            p["bonus_tiles"] = int(info["bonus"])
            p["melds"] = _payer_melds(info, used)
            if variant == "jiujiang" and info["ready"]:
                p["ready_declared"] = True
        payers.append(p)
    if "robbing_kong" in data["events"] and not self_drawn and data["winning_tile"]:
        robbed = data["winning_tile"]
        payers[0].setdefault("melds", []).append(
            {"kind": "pung", "tiles": robbed * 3 if len(robbed) == 1 else f"{robbed[0] * 3}{robbed[1]}"}
        )
    data["payers"] = payers
    return data


def _counts(codes: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in codes:
        out[c] = out.get(c, 0) + 1
    return out


def _payer_melds(info: dict, used: dict[str, int]) -> list[dict]:
    """Concrete melds for a payer's counted 中/白 sets and kongs (the tiles only need to be legal)."""
    melds = []

    def grab(pool: tuple[str, ...], n: int) -> str | None:
        for c in pool:
            if used.get(c, 0) + n <= 4 and (pool is T.DRAGONS or used.get(c, 0) == 0):
                used[c] = used.get(c, 0) + n
                return c
        return None

    plan = [
        ("pung", ("C", "P"), 3, info["dragon_pungs"]),
        ("kong", ("C", "P"), 4, info["dragon_kongs"]),
        ("concealed_kong", ("C", "P"), 4, info["dragon_concealed_kongs"]),
        ("kong", T.SUITED[::-1], 4, info["kongs"]),
        ("concealed_kong", T.SUITED[::-1], 4, info["concealed_kongs"]),
    ]
    for kind, pool, n, count in plan:
        for _ in range(int(count)):
            c = grab(pool, n)
            if c is None:
                raise ValueError("payer_melds")
            melds.append({"kind": kind, "tiles": T.to_string([c] * n)})
    return melds


def from_score_json(data: dict) -> tuple[dict, dict]:
    """A hand and conditions from a score-JSON input (the bundled sample's true tiles, examples)."""
    concealed = [tile(c) for c in T.parse(data.get("concealed", ""))]
    win = data.get("winning_tile")
    h = {
        "concealed": concealed,
        "melds": [
            {"kind": m["kind"], "tiles": [tile(c) for c in T.parse(m["tiles"])]}
            for m in data.get("melds", [])
        ],
        "win": None,
        "bonus": int(data.get("bonus_tiles", 0)),
    }
    if win:
        idx = [i for i, x in enumerate(concealed) if x["t"] == win]
        h["win"] = idx[-1] if idx else None
    _default_win(h)
    cond = default_conditions()
    cond["variant"] = data.get("variant", "jiujiang")
    cond["self_drawn"] = bool(data.get("self_drawn", True))
    cond["events"] = list(data.get("events", []))
    cond["point_value"] = max(1, round(float(data.get("point_value", 1))))  # the form takes whole numbers
    payers = data.get("payers") or []
    dealer_payer = next((i for i, p in enumerate(payers) if p.get("is_dealer")), None)
    if data.get("winner_is_dealer"):
        cond["dealer"] = "me"
    elif dealer_payer is not None:  # a discard's one payer is the discarder, seated on the left
        cond["dealer"] = cond["discarder"] if not cond["self_drawn"] else SEATS[min(dealer_payer, 2)]
    elif "winner_is_dealer" in data:  # said not to be the dealer, and no payer is: someone else is
        cond["dealer"] = "across"
    return h, cond


# ---------------------------------------------------------------- from a photo's detections


def from_detections(det: dict, variant: str, guess: dict | None = None) -> tuple[dict, list[str]]:
    """A hand from the detect-JSON (`detections` + `groups`); notes name what was left out.

    Groups follow `vision.layout`: `pung`/`kong`/`concealed_kong`/`chow` become melds (a
    concealed kong's face-down tiles take the name of its face-up ones), `winning_tile` is
    the winning tile, `bonus` 發 are set aside in jiujiang and xingzi (and so is any 發
    standing there), `flowers` are dropped; everything else stands in the hand. Every tile
    keeps its confidence and its detection index, so the photo can show corrections.
    """
    dets = det.get("detections", [])
    groups = det.get("groups") or []
    notes: list[str] = []
    if not groups:
        order = sorted(range(len(dets)), key=lambda i: dets[i]["xyxy"][0])
        groups = [{"tiles": order, "kind_guess": "hand"}]
    h = empty_hand()
    seen: set[int] = set()
    win_det: int | None = None
    for g in [*groups, {"tiles": [i for i in range(len(dets))], "kind_guess": "hand"}]:
        idx = [i for i in g.get("tiles", []) if 0 <= i < len(dets) and i not in seen]
        seen.update(idx)
        kind = g.get("kind_guess") or "hand"
        items = []
        for i in idx:
            d = dets[i]
            code = d.get("tile", UNKNOWN)
            if code == "flower":
                notes.append("flower")
                continue
            if code == "F" and variant != "xinyu":
                h["bonus"] += 1
                continue
            if d.get("face_down") or code == "back":
                code = "back"
            elif code not in T.ALL:
                code = UNKNOWN
            items.append(tile(code, float(d.get("conf", 0.0)), i))
        if not items:
            continue
        backs = [x for x in items if x["t"] == "back"]
        faces = [x["t"] for x in items if x["t"] != "back"]
        if backs and kind not in MELD_KINDS and len(items) == 4 and faces and len(set(faces)) == 1:
            kind = "concealed_kong"
        for x in backs:
            named = kind == "concealed_kong" and faces
            x["t"] = faces[0] if named else UNKNOWN
            if not named:
                x["c"] = 0.0
        if kind == "concealed_kong" and len(items) < 4 and faces:
            items += [tile(faces[0]) for _ in range(4 - len(items))]
        if kind in MELD_KINDS:
            h["melds"].append({"kind": kind, "tiles": items})
        else:
            if kind == "winning_tile":
                win_det = items[0]["d"]
            h["concealed"].extend(items)
    h["bonus"] = min(h["bonus"], 4)
    if win_det is not None:
        h["win"] = next(k for k, x in enumerate(h["concealed"]) if x["d"] == win_det)
    else:
        wt = (guess or {}).get("winning_tile")
        idx = [k for k, x in enumerate(h["concealed"]) if x["t"] == wt] if wt else []
        h["win"] = idx[-1] if idx else None
    _default_win(h)
    return h, notes
