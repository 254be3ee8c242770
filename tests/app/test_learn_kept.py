"""What the pages learn of a set is kept as the player left it (branch learnbugs; each test failed
before its fix): a hand forgotten stays forgotten across a reload; a restored draft whose photo was
kept smaller shows the boxes the player fixed; a refused write is tried again and said; three
winners on one discard each keep their fixed tiles within the table's cap.

The painted scenes and stand-in models of tests/app/test_table_refs.py."""

from __future__ import annotations

import io
import struct
from types import SimpleNamespace as N

import numpy as np
import pytest
import streamlit as st
from PIL import Image

from app.drafts import open_drafts
from app.drafts import photo as draft_photo
from app.drafts import refs as P
from app.ui import drafting, i18n, refsets
from app.ui.hand import session
from app.ui.state import EditHand, EditTile, Selection
from app.ui.state.photo import Photo
from app.ui.state.progress import HandInProgress
from app.ui.table import refs as TR
from ledger import LedgerError, Table
from ledger.store import open_store
from ledger.store import refs as R
from tests.app.conftest import token_of
from tests.app.test_score_refs import WANT, _captions, _fixed_hand, _kept, _open
from tests.app.test_table_refs import ODD, SCENE, SEATS, SIZE, VT, _photo, models  # noqa: F401 (models: a fixture)
from vision.detection import Detection, DetectResult
from vision.refmatch import FACE_KEY


def _said(at, key: str) -> bool:
    return any(c.value == i18n.catalog("zh")[key] for c in at.caption)


@pytest.mark.usefixtures("models")
def test_a_hand_forgotten_is_not_taught_again_after_a_reload():
    """忘掉 drops what the hand taught; the hand stays on the page (the next photo refused), and a
    reload (the session's memory of it gone) taught it again with the next photo."""
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    _photo(at, b"not a photo")  # refused: the hand stays, taught
    assert P.state(open_drafts(), token)[0] == 26
    at.button(key="btn_forget_refs").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert P.state(open_drafts(), token) == (0, 0)
    again = _open(token)  # a reload: the same hand from its draft
    assert [t.code for t in again.session_state.hip.hand.tiles] == [
        t.code for t in at.session_state.hip.hand.tiles
    ]
    _photo(again, b"not a photo")
    _photo(again, b"still not a photo")
    assert P.state(open_drafts(), token) == (0, 0)


def _big(scale: float = 1.5) -> tuple[bytes, list]:
    """The set's photo (its 8s with the 7s's red) at `scale` times the scene's size on a noisy
    ground: a PNG over the draft's 8 MiB, kept re-encoded smaller (`app.drafts.photo.bounded`)."""
    w, h = round(SIZE[0] * scale), round(SIZE[1] * scale)
    img = np.random.default_rng(7).integers(0, 90, (h, w, 3), dtype=np.uint8)
    boxes = []
    for k, ((x0, y0, x1, y1), code) in enumerate(SCENE):
        box = tuple(v * scale for v in (x0, y0, x1, y1))
        boxes.append((box, code))
        colour = (VT.tile_colour("7s")[0], 255, 40) if k == ODD else (VT.tile_colour(code)[0], 255, 255)
        img[round(box[1]) : round(box[3]), round(box[0]) : round(box[2])] = colour
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "PNG", compress_level=1)
    return buf.getvalue(), boxes


@pytest.mark.usefixtures("models")
def test_a_restored_draft_of_a_photo_over_8_mib_shows_the_boxes_the_player_fixed(monkeypatch):
    """The draft keeps a photo over 8 MiB re-encoded smaller (`MAX_SIDE`); restored, it was read
    again at another size: other boxes (here in other pixels: a smaller copy) under the box numbers
    the hand's tiles name, and the fixed 8s named a box that was not the player's."""
    monkeypatch.setattr(draft_photo, "MAX_SIDE", SIZE[0] // 2)  # the copy at a third of the photo
    data, boxes = _big()
    assert len(data) > draft_photo.MAX_PHOTO_BYTES
    at = _open()
    token = token_of(at)
    _photo(at, data)
    hip = at.session_state.hip
    odd = boxes[ODD][0]
    k = next(
        i
        for i, t in enumerate(hip.hand.concealed)
        if abs(hip.photo.result.detections[t.detection].xyxy[0] - odd[0]) < 3
    )
    at.session_state.hip.hand = hip.hand.with_tile(Selection(k), "8s")  # the player fixes the 8s
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    seen = at.session_state.hip.photo.result
    fixed = at.session_state.hip.hand.concealed[k]
    assert fixed.code == "8s" and at.session_state.hip.photo_stored  # the draft holds the smaller copy

    again = _open(token)  # a reload
    back = again.session_state.hip
    assert back.photo is not None and (back.photo.result.width, back.photo.result.height) == (
        seen.width,
        seen.height,
    )
    assert [(d.tile, d.xyxy) for d in back.photo.result.detections] == [
        (d.tile, tuple(round(float(v), 1) for v in d.xyxy)) for d in seen.detections
    ]
    tile = back.hand.concealed[k]
    assert tile.code == "8s" and abs(back.photo.result.detections[tile.detection].xyxy[0] - odd[0]) < 3
    _photo(again, b"not a photo")  # the hand confirmed: learned from the copy, at the player's boxes
    assert _kept(token, refsets.model_key(refsets.reader())) == WANT


class _Busy:
    """`app.drafts.refs.add`, refused while `refusals` is above 0."""

    def __init__(self, add, refusals: int) -> None:
        self.add, self.refusals, self.calls = add, refusals, 0

    def __call__(self, *a, **k):
        self.calls += 1
        if self.refusals > 0:
            self.refusals -= 1
            raise LedgerError("busy", "database is locked")
        return self.add(*a, **k)


@pytest.mark.usefixtures("models")
def test_a_refused_write_is_tried_again_and_said(monkeypatch):
    """The references' write refused (the database busy): the hand was marked learned all the
    same and never tried again. Now it is tried on each run, said from its second refusal, and
    learned once the write goes through."""
    monkeypatch.setattr(drafting, "RETRY_S", ())  # one try a write: no pauses
    busy = _Busy(P.add, refusals=2)
    monkeypatch.setattr(P, "add", busy)
    at = _open()
    token = token_of(at)
    _fixed_hand(at)
    _photo(at, b"not a photo")  # the hand confirmed: its write refused
    assert busy.calls == 1 and P.state(open_drafts(), token) == (0, 0)
    assert not _said(at, "photo.refs_not_kept")  # once may be a moment's
    at.run()  # the next run: refused again, said
    assert busy.calls == 2 and _said(at, "photo.refs_not_kept")
    at.run()  # kept at last
    assert busy.calls == 3 and P.state(open_drafts(), token)[0] == 26
    assert not _said(at, "photo.refs_not_kept")
    assert _captions(at, "photo.refs_learned") == [i18n.catalog("zh")["photo.refs_learned"].format(n=13)]
    at.run()
    _photo(at, b"not a photo")
    assert busy.calls == 3  # learned: not written again


@pytest.mark.usefixtures("models")
def test_a_write_refused_every_time_is_given_up_and_said(monkeypatch):
    from app.ui.score.learn import MOST_TRIES

    monkeypatch.setattr(drafting, "RETRY_S", ())
    busy = _Busy(P.add, refusals=100)
    monkeypatch.setattr(P, "add", busy)
    at = _open()
    _fixed_hand(at)
    _photo(at, b"not a photo")
    for _ in range(MOST_TRIES - 1):
        at.run()
    assert busy.calls == MOST_TRIES and _said(at, "photo.refs_given_up")
    at.run()
    assert busy.calls == MOST_TRIES and not _said(at, "photo.refs_given_up")
    assert not _said(at, "photo.refs_not_kept")


# -- the table: three winners on one discard, within its cap ------------------------------------

WINNERS = [  # each winner's hand as the photo read it; `x>y`: the reader read x, the player fixed it to y
    "1m 2m 3m 4m 5m 6m 7p 8p 9p 1s 1s 1s 5s 7s>8s",
    "2m 3m 4m 4p 5p 6p 6s 7s 8s 2p 2p 9m 9m 4s>5s",
    "3p 4p 5p 6m 7m 8m 2s 3s 4s E E E 7m 3m>2m",
]


def _hand_of(line: str, w: int) -> HandInProgress:
    """The winner's hand in progress: every tile from a photo box, the fixed ones renamed."""
    dets, tiles = [], []
    for k, word in enumerate(line.split()):
        read, _, code = word.partition(">")
        dets.append(Detection((40.0 * k, 0.0, 40.0 * k + 30, 40.0), read, 0.9))
        tiles.append(EditTile(code or read, 0.9, k))
    photo = Photo(b"", 1.0, DetectResult(40 * len(dets), 40, dets))
    return HandInProgress(started=True, hand=EditHand(concealed=tuple(tiles)), photo=photo,
                          photo_src="upload", photo_bytes=f"winner {w}".encode())  # fmt: skip


def _fake_embed(reader, data, boxes, size=None):
    """`refsets.embed` standing in for the classifier: per box an embedding and a face template
    whose one float says which winner (the photo's bytes) and which box made it."""
    w = int(data.split()[-1])
    views = [struct.pack("<f", 100 * w + k) for k in range(len(boxes))]
    return [R.TableRef(code, "m", 1, v) for (_, code), v in zip(boxes, views, strict=True)] + [
        R.TableRef(code, FACE_KEY, 1, v) for (_, code), v in zip(boxes, views, strict=True)
    ]


def test_three_winners_on_one_discard_each_keep_their_fixed_tiles(monkeypatch):
    """Three winners' photo tiles, 42 (84 references), pass the 80 a hand may add: the last
    winner's face templates were cut off, its fixed 2m's among them. Now each tile is kept whole
    (embedding and face), every fixed one, and every code any winner showed."""
    classes = sorted(
        {w.partition(">")[2] or w for line in WINNERS for w in line.split()} | {"7s", "4s", "3m"}
    )
    monkeypatch.setattr(refsets, "reader", lambda: N(classifier=N(classes=classes)))
    monkeypatch.setattr(refsets, "embed", _fake_embed)
    store = open_store()
    code = store.create_table(Table("jiujiang", SEATS)).table.code
    old = st.session_state.get(session.KEY)
    try:
        for w, line in enumerate(WINNERS):
            st.session_state[session.KEY] = _hand_of(line, w)
            if w < len(WINNERS) - 1:
                TR.hold(code)
        TR.learn(code, 1)
    finally:
        st.session_state[session.KEY] = old
    embs, faces = R.table_refs(store, code, "m"), R.table_refs(store, code, FACE_KEY)
    assert len(embs) + len(faces) <= R.MAX_REFS_PER_HAND == 80
    made = {(r.tile, struct.unpack("<f", r.views)[0]) for r in embs}
    assert made == {(r.tile, struct.unpack("<f", r.views)[0]) for r in faces}  # each tile whole
    for w, line in enumerate(WINNERS):
        k = next(i for i, word in enumerate(line.split()) if ">" in word)
        assert (line.split()[k].partition(">")[2], 100 * w + k) in made  # its fixed tile
    assert {t for t, _ in made} == {w.partition(">")[2] or w for line in WINNERS for w in line.split()}
