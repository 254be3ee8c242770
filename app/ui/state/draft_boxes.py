"""The boxes of a draft's photo: the `DetectResult` the player saw, kept in the draft beside the
hand, so a restored draft shows and learns from the very boxes its tiles name (`EditTile.detection`
is a box number).

Reading the photo again on restore gave other boxes whenever the bytes kept are not the bytes read
(a photo over `app.drafts.photo.MAX_PHOTO_BYTES` is kept re-encoded smaller: another size, other
pixels, maybe other boxes in another order) or the reader changed (a new model, the set's learned
tiles): a fixed tile's box number then named another tile, drawn and learned as the player's fix.

Pure (no Streamlit, no numpy: `vision.detection` is a leaf). The shape is `DetectResult.to_json`'s
(docs/detect-json.md, coordinates to 0.1 px) less its timings, plus ``refs`` and ``photo``
(`Photo.refs`, `Photo.digest`).

>>> from vision.detection import Detection, DetectResult, Group
>>> r = DetectResult(800, 600, [Detection((1.04, 2, 30, 40), "8s", 0.9, uncertain=True, second="7s")],
...                  [Group((0,), "hand")])
>>> back, refs, digest = from_json(to_json(r, 3, "ab12"))
>>> back.width, back.detections[0].xyxy, back.detections[0].second, back.groups[0].tiles, refs, digest
(800, (1.0, 2.0, 30.0, 40.0), '7s', (0,), 3, 'ab12')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.detection import DetectResult

__all__ = ["from_json", "to_json"]


def to_json(result: DetectResult, refs: int = 0, digest: str = "") -> dict[str, Any]:
    """The boxes of `result` (JSON values only), with `refs`: how many learned tiles it was read
    with, and `digest`: the photo's (`Photo.digest`)."""
    out = result.to_json()
    del out["timing_ms"]
    out["refs"] = int(refs)
    out["photo"] = str(digest)
    return out


def _xyxy(v: Any) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(x) for x in v)  # ValueError: not four numbers
    return x0, y0, x1, y1


def from_json(data: Any) -> tuple[DetectResult, int, str] | None:
    """The `(DetectResult, refs, digest)` `to_json` wrote, or None when `data` is none or does not read
    back (a draft of an older release: its photo is read again)."""
    if not isinstance(data, dict):
        return None
    try:
        from vision.detection import Detection, DetectResult, Group, Rejected

        dets = [
            Detection(
                _xyxy(d["xyxy"]),
                str(d["tile"]),
                float(d["conf"]),
                bool(d["face_down"]),
                bool(d["rotated"]),
                bool(d["uncertain"]),
                d["role"],
                None if d.get("second") is None else str(d["second"]),
            )
            for d in data["detections"]
        ]
        groups = [
            Group(tuple(int(k) for k in g["tiles"]), str(g["kind_guess"]), int(g["row"]), bool(g["claimed"]))
            for g in data["groups"]
        ]
        rejected = [Rejected(_xyxy(r["xyxy"]), float(r["conf"]), str(r["why"])) for r in data["rejected"]]
        image = data["image"]
        result = DetectResult(int(image["width"]), int(image["height"]), dets, groups, {}, rejected)
    except (KeyError, TypeError, ValueError, ImportError):
        return None
    if any(not 0 <= k < len(dets) for g in groups for k in g.tiles):
        return None
    return result, int(data.get("refs", 0) or 0), str(data.get("photo", ""))
