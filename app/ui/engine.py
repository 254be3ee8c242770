"""The app's bridge to `scoring` and `vision`: every call here turns failures into messages.

Nothing in the pages imports `scoring` or `vision` directly, so the app opens (in manual
mode) when the vision stack or the models are missing, and shows a message instead of a
traceback whatever the engines raise.
"""

from __future__ import annotations

import io
import json
import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from app.ui import hand as H
from app.ui import tiles as T

log = logging.getLogger("jxmj.app")
ASSETS = Path(__file__).resolve().parent.parent / "assets"
SAMPLE_PHOTO = ASSETS / "sample_hand.jpg"
SAMPLE_JSON = ASSETS / "sample_hand.json"
PREVIEW_SIDE = 1100  # the photo kept in the session for drawing boxes, long side in px


class EngineMissing(RuntimeError):
    """The scoring engine could not be imported."""


# ---------------------------------------------------------------- scoring


def _scoring():
    try:
        import scoring
    except Exception as exc:  # an engine that fails to import must not take the app down
        raise EngineMissing(str(exc)) from exc
    if not hasattr(scoring, "score_json"):
        raise EngineMissing("scoring.score_json is not available yet")
    return scoring


@st.cache_data(max_entries=4000, show_spinner=False)
def _score_cached(payload: str) -> dict[str, Any]:
    scoring = _scoring()
    try:
        return {"ok": scoring.score_json(json.loads(payload))}
    except scoring.HandError as exc:
        return {"error": str(exc)}


def score(data: dict) -> dict[str, Any]:
    """`{"ok": result}` or `{"error": message}` or `{"missing": message}`; never raises."""
    try:
        return _score_cached(json.dumps(data, sort_keys=True, ensure_ascii=False))
    except EngineMissing as exc:
        return {"missing": str(exc)}
    except Exception as exc:  # a bug in the engine: say so, keep the app alive, log the details
        log.exception("scoring failed on %s", data)
        return {"error": f"{type(exc).__name__}: {exc}"}


def suggest(hand: dict, cond: dict, limit: int = 3) -> list[dict]:
    """Single-tile changes that make the hand complete, the low-confidence tiles first.

    Uses `scoring.suggest_fixes` (the smallest changes, cheapest first) and re-ranks them:
    a change of a tile the detector was unsure of comes before one of a tile it read with
    confidence. Each suggestion is scored, so the user sees what the fix is worth:
    `[{"op": "change"|"add"|"remove", "where": ("c", i) | None, "from": code, "to": code,
    "result": score_json_output | None}]`.
    """
    try:
        scoring = _scoring()
    except EngineMissing:
        return []
    fn = getattr(scoring, "suggest_fixes", None)
    if fn is None:
        return []
    codes = [x["t"] for x in hand["concealed"]]
    if not codes or any(c == T.UNKNOWN for c in codes):
        return []
    melds = [{"kind": m["kind"], "tiles": T.to_string([x["t"] for x in m["tiles"]])} for m in hand["melds"]]
    try:
        fixes = fn(T.to_string(codes), melds, cond["variant"], winning_tile=H.win_code(hand), limit=30)
    except Exception:  # an incomplete or invalid hand the helper cannot read: no suggestion
        return []
    ranked = []
    for order, f in enumerate(fixes):
        rem = getattr(getattr(f, "remove", None), "code", None)
        add = getattr(getattr(f, "add", None), "code", None)
        where, conf = None, 1.0
        if rem is not None:
            spots = [
                (_conf(x), i)
                for i, x in enumerate(hand["concealed"])
                if x["t"] == rem and i != hand.get("win")
            ]
            if not spots:
                continue
            conf, i = min(spots)
            where = ("c", i)
        uncertain = conf < H.LOW_CONF
        ranked.append((0 if uncertain else 1, conf if uncertain else 0, order, rem, add, where))
    ranked.sort(key=lambda r: r[:3])
    out = []
    for _u, _c, _o, rem, add, where in ranked[:limit]:
        if rem and add:
            trial, op = H.set_tile(hand, where, add), "change"
        elif add:
            trial, op = H.add_tile(hand, add), "add"
        else:
            trial, op = H.delete_tile(hand, where), "remove"
        try:
            r = score(H.to_score_json(trial, cond))
        except ValueError:
            r = {}
        out.append({"op": op, "where": where, "from": rem, "to": add, "result": r.get("ok")})
    return out


def _conf(x: dict) -> float:
    if x["t"] == T.UNKNOWN:
        return -1.0
    return 1.0 if x.get("c") is None else float(x["c"])


# ---------------------------------------------------------------- vision


@dataclass
class Photo:
    """A read photo: a small preview for drawing, the detect-JSON, timings."""

    preview_jpeg: bytes
    scale: float  # preview px per original px
    detect: dict[str, Any]
    guess: dict[str, Any] | None
    seconds: dict[str, float] = field(default_factory=dict)


class PhotoError(Exception):
    """A photo could not be used; `.key` names the catalog message, `.detail` the cause."""

    def __init__(self, key: str, detail: str = ""):
        super().__init__(detail or key)
        self.key = key
        self.detail = detail


@st.cache_resource(show_spinner=False)
def _reader_cached():
    """The tile reader, created once per server process (its ONNX sessions with it).

    A failure is not cached (Streamlit caches only return values), so models installed while
    the app runs are picked up by the next rerun.
    """
    import vision

    return vision.get_reader()


def _reader() -> tuple[Any, str | None]:
    """(reader, None), or (None, why) when there is no vision stack or no models: manual mode."""
    try:
        return _reader_cached(), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


def reader_status() -> str | None:
    """None when photos can be read, else the reason they cannot."""
    return _reader()[1]


def read_photo(data: bytes) -> Photo:
    """Decode, detect and group; raises PhotoError with a catalog key on any failure."""
    if not data:
        raise PhotoError("err.photo_empty")
    t0 = time.perf_counter()
    try:
        import vision
    except Exception as exc:
        raise PhotoError("err.vision_missing", str(exc)) from exc
    reader, why = _reader()
    try:
        # decoded at a reduced JPEG scale when that keeps tiles readable (the reader's own policy)
        min_side = getattr(getattr(reader, "config", None), "decode_min_side", None) or None
        loaded = vision.open_image(data, min_side=min_side)
    except getattr(vision, "ImageError", ValueError) as exc:
        raise PhotoError("err.photo_bad", str(exc)) from exc
    except Exception as exc:
        raise PhotoError("err.photo_bad", f"{type(exc).__name__}: {exc}") from exc
    t1 = time.perf_counter()
    if reader is None:
        raise PhotoError("err.vision_missing", why or "")
    try:
        result = reader.detect(loaded)
        det = result.to_json()
    except Exception as exc:
        raise PhotoError("err.detect_failed", f"{type(exc).__name__}: {exc}") from exc
    t2 = time.perf_counter()
    guess = None
    try:
        from app.photo_hand import hand_from_photo

        g = hand_from_photo(result, "jiujiang")
        guess = {"winning_tile": g.winning_tile, "notes": [n.text for n in g.notes]}
    except Exception:
        guess = None  # the app groups by itself from the detect-JSON
    image = loaded.pixels
    full_w = det.get("image", {}).get("width") or image.shape[1]
    preview, scale = _preview(image)
    scale *= image.shape[1] / full_w  # preview px per full-resolution px
    t3 = time.perf_counter()
    return Photo(preview, scale, det, guess, {"decode": t1 - t0, "detect": t2 - t1, "layout": t3 - t2})


def _preview(image) -> tuple[bytes, float]:
    from PIL import Image

    im = Image.fromarray(image)
    scale = min(1.0, PREVIEW_SIDE / max(im.size))
    if scale < 1.0:
        im = im.resize((round(im.width * scale), round(im.height * scale)), Image.BILINEAR)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    return buf.getvalue(), scale


def sample_photo() -> bytes | None:
    return SAMPLE_PHOTO.read_bytes() if SAMPLE_PHOTO.exists() else None


def sample_hand() -> dict | None:
    """The bundled sample's true hand as score-JSON input (its `tiles` + `winning_tile`, or a
    score-JSON object), won self-drawn in jiujiang unless the file says otherwise."""
    if not SAMPLE_JSON.exists():
        return None
    try:
        data = json.loads(SAMPLE_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    for key in ("hand", "input", "score_input"):
        if isinstance(data.get(key), dict) and "concealed" in data[key]:
            return data[key]
    concealed = data.get("concealed") or data.get("tiles")
    if not isinstance(concealed, str) or not data.get("winning_tile"):
        return None
    out = {
        "variant": data.get("variant", "jiujiang"),
        "concealed": concealed,
        "winning_tile": data["winning_tile"],
        "self_drawn": bool(data.get("self_drawn", True)),
    }
    for key in ("melds", "bonus_tiles", "events", "winner_is_dealer", "payers", "point_value"):
        if key in data:
            out[key] = data[key]
    return out


FALLBACK_SAMPLE = {
    "variant": "jiujiang",
    "concealed": "234p456p777pCCCPP",
    "winning_tile": "P",
    "self_drawn": True,
    "bonus_tiles": 1,
}


# ---------------------------------------------------------------- practice hands


def random_hand(variant: str, rng: random.Random, tries: int = 60) -> tuple[dict, dict, dict] | None:
    """A random winning hand that the engine scores: (hand, conditions, result)."""
    for _ in range(tries):
        data = _random_input(variant, rng)
        r = score(data)
        if "ok" in r and r["ok"].get("can_win"):
            h, cond = H.from_score_json(data)
            return h, cond, r["ok"]
    return None


def _random_input(variant: str, rng: random.Random) -> dict:
    kinds = list(T.kinds_for(variant))
    roll = rng.random()
    if roll < 0.35:  # one suit (with honours now and then): the flush family
        suit = rng.choice(T.SUITS)
        honours = [k for k in kinds if k not in T.SUITED]
        pool = [k for k in kinds if k.endswith(suit)] + (honours if rng.random() < 0.6 else [])
    else:
        pool = kinds
    counts = {k: 0 for k in T.ALL}
    sets: list[list[str]] = []
    seven_pairs = rng.random() < 0.12
    if seven_pairs:
        pairs = rng.sample(pool, min(7, len(pool)))
        if len(pairs) < 7:
            return {"variant": variant, "concealed": "", "winning_tile": "", "self_drawn": True}
        concealed = [c for p in pairs for c in (p, p)]
        melds: list[dict] = []
    else:
        for _ in range(4):
            for _attempt in range(20):
                code = rng.choice(pool)
                if code in T.SUITED and rng.random() < 0.55 and int(code[0]) <= 7:
                    s = [f"{int(code[0]) + k}{code[1]}" for k in range(3)]
                else:
                    s = [code] * 3
                if all(counts[c] + s.count(c) <= 4 for c in set(s)):
                    for c in s:
                        counts[c] += 1
                    sets.append(s)
                    break
        pair = next((c for c in rng.sample(pool, len(pool)) if counts[c] <= 2), pool[0])
        counts[pair] += 2
        melds = []
        n_melds = rng.choice([0, 0, 1, 1, 2, 3])
        concealed = []
        for s in sets:
            if len(melds) < n_melds and len(set(s)) == 1:
                kind = rng.choice(["pung", "pung", "kong", "concealed_kong"])
                tiles = [*s, s[0]] if kind != "pung" and counts[s[0]] == 3 else s
                if len(tiles) == 4:
                    counts[s[0]] += 1
                else:
                    kind = "pung"
                melds.append({"kind": kind, "tiles": T.to_string(tiles)})
            else:
                concealed += s
        concealed += [pair, pair]
    win = rng.choice(concealed)
    rng.shuffle(concealed)
    concealed.sort(key=T.sort_key)
    self_drawn = variant == "xinyu" or rng.random() < 0.5
    data = {
        "variant": variant,
        "concealed": T.to_string(concealed),
        "winning_tile": win,
        "melds": melds,
        "self_drawn": self_drawn,
    }
    if variant != "xinyu":
        data["bonus_tiles"] = rng.choice([0, 0, 0, 1, 1, 2])
    return data
