"""Flag 5's per-tile signals: flag 4's (`datasets.flag4_signals`) and the independent readers' word
on every face, read the way the runtime reads it (`vision.text_check.face_crop` of the box, from the
pixels the classifier cut its crops from):

- text (`vision.text_reader`, sideways boxes read in four turns as `vision.text_check` does), on
  every face up tile read as or with a runner-up that is a character tile, and on any other face
  up tile below `TEXT_BAND` of logit margin: `t5_best`, `t5_score` (its best word), `t5_read` (the
  score of the classifier's reading, 0 for a code the text reader does not know);
- pips (`vision.pips.count_pips`) of the suit of the reading (or of its runner-up) on every face up
  tile with one: `pip_suit`, `pip_count`, `pip_conf` (None / 0 where it found no structure);
- the suit by its shapes (`vision.suit_shape.read_shape`): `shape_suit`, `shape_conf`;
- flag 6's geometry (`vision.flag_geometry.doubled` over the player's tiles, as `flag_doubled` sees
  them): `geom`, the box shares its tile's slot or is no tile's width.
"""

from __future__ import annotations

import numpy as np

from datasets.flag4_signals import photo_signals as flag4_signals

TEXT_BAND = 8.0
"""Below this logit margin every face up tile is read as text (a suit tile the classifier doubts
may be a character tile it never saw); above it only the character-like ones."""


def _suit_of(code: str | None) -> str | None:
    return code[1] if code and len(code) == 2 and code[0].isdigit() and code[1] in "ps" else None


def photo_signals(reader, loaded) -> tuple[list, list[dict]]:
    """`(detections, signals per detection)`: flag 4's and the readers' (module docstring)."""
    from vision.pips import count_pips
    from vision.suit_shape import read_shape
    from vision.text_check import face_crop
    from vision.text_reader import TEXT_CODES

    seen: dict = {}
    read = reader._read

    def spy(loaded_, xyxy, scores, class_ids, timing, **kw):
        seen["source"] = kw.get("source")
        return read(loaded_, xyxy, scores, class_ids, timing, **kw)

    reader._read = spy
    try:
        dets, sig = flag4_signals(reader, loaded)
    finally:
        reader._read = read
    if not dets:
        return dets, sig
    from vision.flag_geometry import doubled

    mine = [k for k, d in enumerate(dets) if not d.off_row]
    geo = doubled(np.array([dets[k].xyxy for k in mine], np.float64)) if len(mine) > 1 else []
    for k in range(len(dets)):
        sig[k]["geom"] = False
    for k, g in zip(mine, geo, strict=True):
        sig[k]["geom"] = bool(g and not dets[k].face_down)
    pixels, scale = seen["source"]
    text = reader.text
    todo, faces = [], []
    for i, d in enumerate(dets):
        s = sig[i]
        s.update(t5_best=None, t5_score=0.0, t5_read=0.0, pip_suit=None, pip_count=None, pip_conf=0.0)
        s.update(shape_suit=None, shape_conf=0.0)
        if d.face_down:
            continue
        face = face_crop(pixels, scale, d)
        if min(face.shape[:2]) < 8:
            continue
        family = d.tile in TEXT_CODES or d.second in TEXT_CODES
        if text is not None and (family or s["logit_margin"] < TEXT_BAND):
            todo.append(i)
            faces.append(face)
        suit = _suit_of(d.tile) or _suit_of(d.second)
        if suit:
            c = count_pips(face, suit)
            s.update(pip_suit=suit, pip_count=c.count if c else None, pip_conf=float(c.conf) if c else 0.0)
        shape = read_shape(face)
        s.update(shape_suit=shape.suit, shape_conf=float(shape.conf))
    if todo:
        for i, tr in zip(todo, text.read(faces, sideways=[dets[i].rotated for i in todo]), strict=True):
            sig[i].update(t5_best=tr.best, t5_score=tr.score, t5_read=tr.of(dets[i].tile))
    return dets, sig
