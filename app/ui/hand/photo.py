"""① Photo: upload, camera, the bundled sample, manual entry, and the photo with its boxes."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable

import streamlit as st

from app.photo_hand import hand_from_photo
from app.ui import services
from app.ui.builtin import refusal_slot
from app.ui.flash import Flash
from app.ui.hand import session
from app.ui.hand.left_out import left_out_view
from app.ui.hand.session import post
from app.ui.i18n import lang, t
from app.ui.render.photo import draw_boxes, label_font, tile_boxes, unsure_count
from app.ui.state import Conditions, EditHand, keys
from app.ui.state.photo_tiles import set_aside_codes
from app.ui.state.progress import KEPT_SOURCES

ss = st.session_state
log = logging.getLogger("jxmj.app")
PHOTO_TYPES = ["jpg", "jpeg", "png", "heic", "heif", "webp", "avif"]  # vision.image.ACCEPTED_FORMATS


def open_on_sample() -> None:
    """A new session opens on the bundled sample photo, already scored (the true tiles when
    the reader misreads its own sample; without models, the true tiles alone)."""
    session.start(EditHand(), Conditions())
    h = session.hip()
    data = services.sample_photo()
    if data is not None and services.reader_status() is None:
        try:
            photo = _read_sample_cached(data)
        except services.PhotoError as exc:
            _photo_failed(exc, level="warning")
        else:
            _apply_photo(photo, "sample")
            if isinstance(services.score_hand(h.hand, h.cond), services.Refusal):
                h.set_hand(services.sample_truth(), undoable=False)  # the photo and its boxes stay
                post(Flash("info", "msg.sample_truth"))
            return
    h.set_hand(services.sample_truth(), undoable=False)
    h.show_photo(None, "sample_manual")


@st.cache_data(max_entries=2, show_spinner=False)
def _read_sample_cached(data: bytes) -> services.Photo:
    return services.read_photo(data)


def ingest_photo(data: bytes, source: str) -> bool:
    """Read a photo into the hand. On failure: a message, and the hand is left as it was."""
    t0 = time.perf_counter()
    try:
        more = services.photo_refs()  # at a table: its set's references (`app.ui.table.refs`)
        photo = services.read_photo(data, waiting=lambda: st.spinner(t("photo.waiting")), **more)
    except services.PhotoError as exc:
        _photo_failed(exc)
        return False
    _apply_photo(photo, source, data)
    session.hip().timing = {"start": t0, "read": time.perf_counter() - t0, "total": None}
    return True


def _photo_failed(exc: services.PhotoError, level: str = "error") -> None:
    """A message for the player, translated by its code (`image.<code>`, `err.*`); the cause
    goes to the log, never to the page (no exception names, no decoder internals)."""
    log.warning("photo not read: %s (%s)", exc.key, exc.detail)
    post(Flash(level, exc.key, dict(exc.fields)))


def _apply_photo(photo: services.Photo, source: str, data: bytes | None = None) -> None:
    h = session.hip()
    guess = hand_from_photo(photo.result, h.cond.variant, whole=True)  # too many: state.too_many offers
    h.show_photo(photo, source, data)
    if not guess.concealed and not guess.melds:
        post(Flash("warning", "msg.no_tiles"))  # the photo is shown; the hand the player had stays
        return
    if any(n.code == "flowers_left_out" for n in guess.notes):
        post(Flash("info", "msg.flowers_dropped"))
    h.set_hand(EditHand.from_guess(guess), undoable=not h.hand.is_empty)
    h.deselect()


def take_new_photos(before: Callable[[], None] | None = None) -> None:
    """Read a newly uploaded or captured photo (before anything is drawn, so this run shows it);
    `before()` runs once before a new photo is read (the score page learns the hand on it).

    `st.session_state.pending_photo` is the test hook: AppTest cannot upload files, so tests put bytes there
    and go through exactly the same path as an upload.
    """
    ran = before is None

    def ingest(data: bytes, source: str) -> None:
        nonlocal ran
        if not ran:
            ran = True
            assert before is not None  # ran is False only with one
            before()
        ingest_photo(data, source)

    pending = ss.pop(keys.PENDING_PHOTO, None)
    if pending is not None:
        ingest(bytes(pending), "upload")
    for key, source in (("uploader", "upload"), ("camera", "camera")):
        f = ss.get(key)
        if f is None or not hasattr(f, "getvalue"):  # none, or a file read and released (`_release`):
            continue  # Streamlit's `DeletedFile` for the file_id the browser still sends
        data = f.getvalue()
        fid = f.file_id or hashlib.sha1(data).hexdigest()
        seen = session.hip().photo_seen
        if fid not in seen:
            seen.add(fid)
            ingest(data, source)
            _release(key, f.file_id)


def _release(key: str, file_id: str | None) -> None:
    """Let Streamlit forget a file read (issue 37): its uploaded-file store kept every photo a
    session uploaded, and the widget's state the last, until the session ended — 2 minutes
    after its phone left. The hand keeps what it needs (`HandInProgress.photo_bytes`, then the
    draft); the widget `key` then holds no file (drawn later in this run: none), and the page
    says the photo is kept (`photo.kept`)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    remove = getattr(ctx.uploaded_file_mgr, "remove_file", None) if ctx is not None else None
    if file_id and ctx is not None and callable(remove):  # Streamlit's in-memory store has it
        remove(ctx.session_id, file_id)
    if key in ss:
        del ss[key]  # the file read, deserialised for this run: not kept in the session either


def photo_inputs() -> None:
    """Upload, camera, sample, manual entry."""
    st.file_uploader(t("photo.upload"), type=PHOTO_TYPES, key="uploader")
    refusal_slot("uploader", t("upload.hand_kept"))  # a file of another type, or too large: why, here
    st.caption(t("photo.upload_help"))
    h = session.hip()
    if not hasattr(ss.get(keys.UPLOADER), "getvalue") and h.photo is not None and h.photo_src in KEPT_SOURCES:
        # Streamlit forgets an uploader's file when another page was shown; the photo stays, so say so
        st.caption(t("photo.kept", source=t(f"photo.source.{h.photo_src}")))
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(t("photo.sample"), on_click=_on_sample, key="btn_sample", icon=":material/image:")
        st.button(t("photo.manual"), on_click=_on_manual, key="btn_manual", icon=":material/edit:")
        st.toggle(t("photo.use_camera"), key="camera_on")
    if ss.get(keys.CAMERA_ON):
        st.camera_input(t("photo.camera"), key="camera")


def _on_sample() -> None:
    data = services.sample_photo()
    if data is not None and services.reader_status() is None:
        ingest_photo(data, "sample")
    else:
        session.set_hand(services.sample_truth())
        session.hip().show_photo(None, "sample_manual")


def _on_manual() -> None:
    h = session.hip()
    h.set_hand(EditHand())
    h.show_photo(None, "manual")
    h.open_picker()


def detection_view() -> None:
    """The photo with a box per tile, or a word on why there is none."""
    h = session.hip()
    photo: services.Photo | None = h.photo
    if photo is None:
        if services.reader_status() is not None:
            st.info(t("msg.manual_mode"))
        elif h.photo_src == "manual" and h.hand.is_empty:  # not over a hand undo brought back
            st.caption(t("photo.none_manual"))
        return
    chinese = lang() == "zh" and label_font() is not None
    stale = h.photo_src == "typed"
    aside = set_aside_codes(h.cond.variant)
    boxes = tile_boxes(photo.result.detections, h.hand, h.sel, chinese=chinese, stale=stale, set_aside=aside)
    font = label_font() if chinese else None
    st.image(draw_boxes(photo.preview_jpeg, photo.scale, boxes, font, photo.cut), width="stretch")
    if stale:
        st.caption(t("photo.typed_over"))
        return
    grey = sum(1 for b in boxes if b.grey)
    st.caption(t("photo.found", n=len(boxes), low=unsure_count(boxes), out=grey))  # the frames drawn
    if photo.refs:  # read with the table's (牌局) or the phone's set: say so, or the learning is invisible
        whose = "photo.read_with_refs" if str(h.ns).startswith("table:") else "photo.read_with_phone_refs"
        st.caption(t(whose, n=photo.refs))
    left_out_view()
