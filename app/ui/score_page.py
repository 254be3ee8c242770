"""The scoring page: photo -> tiles -> corrections -> how it was won -> itemised result.

All of the user's input lives in `st.session_state` (`hand`, `cond`, `photo`, ...): a bad
upload, a rerun or a visit to the Learn page loses nothing. Widgets are bound to those
canonical values through `bind()`, so their keys may come and go.
"""

from __future__ import annotations

import hashlib
import html
import io
import logging
import time
from typing import Any

import streamlit as st

from app.ui import engine as E
from app.ui import hand as H
from app.ui import tiles as T
from app.ui.i18n import catalog, lang, t

ss = st.session_state
log = logging.getLogger("jxmj.app")
UNDO_DEPTH = 30
BLUE, GOLD, RED, GREEN, GREY = (28, 126, 214), (232, 163, 23), (224, 49, 49), (18, 150, 93), (120, 120, 120)


# ---------------------------------------------------------------- state


def init_state() -> None:
    """First run of a session: open on the bundled sample, already scored."""
    if "hand" in ss:
        return
    ss.cond = H.default_conditions()
    ss.hand = H.empty_hand()
    ss.sel = None
    ss.picker = None  # None | "change" | "add"
    ss.undo = []
    ss.flash = []
    ss.photo = None
    ss.photo_src = None
    ss.photo_seen = set()
    ss.timing = None
    load_sample()


def load_sample() -> None:
    truth = E.sample_hand()
    data = E.sample_photo()
    if data is not None and E.reader_status() is None:
        try:
            photo = _read_sample_cached(data)
            _apply_photo(photo, "sample", truth)
            if truth and "ok" not in E.score(H.to_score_json(ss.hand, ss.cond)):
                # the app must open on a scored hand: when the reader misreads its own sample,
                # say so and use the sample's true tiles (the photo and its boxes stay)
                h, _cond = H.from_score_json(truth)
                ss.hand = h
                flash("info", "msg.sample_truth")
            return
        except E.PhotoError as exc:
            _photo_failed(exc, level="warning")
    h, cond = H.from_score_json(truth or E.FALLBACK_SAMPLE)
    _set_hand(h, undoable=False)
    _set_cond(cond)
    ss.photo = None
    ss.photo_src = "sample_manual"


@st.cache_data(max_entries=2, show_spinner=False)
def _read_sample_cached(data: bytes) -> E.Photo:
    return E.read_photo(data)


def flash(level: str, key: str, detail: str = "", **fields: Any) -> None:
    ss.flash.append((level, key, detail, fields))


def _set_hand(h: dict, undoable: bool = True) -> None:
    if undoable:
        ss.undo = [*ss.undo[-UNDO_DEPTH:], ss.hand]
    ss.hand = h


def _set_cond(cond: dict) -> None:
    ss.cond = cond
    for k in [k for k in ss if isinstance(k, str) and k.startswith("w_")]:
        del ss[k]  # widgets re-read the canonical values


def bind(name: str, widget, *args, seat: str | None = None, **kwargs):
    """Render `widget` bound to `ss.cond[name]` (or a seat's field) and write its value back."""
    store = ss.cond["seats"][seat] if seat else ss.cond
    key = f"w_{seat}_{name}" if seat else f"w_{name}"
    if key not in ss:
        ss[key] = store[name]
    value = widget(*args, key=key, **kwargs)
    if value is not None:
        store[name] = value
    return store[name]


# ---------------------------------------------------------------- photo input


def ingest_photo(data: bytes, source: str) -> bool:
    """Read a photo into the hand. On failure: a message, and the hand is left as it was."""
    t0 = time.perf_counter()
    try:
        photo = E.read_photo(data)
    except E.PhotoError as exc:
        _photo_failed(exc)
        return False
    truth = E.sample_hand() if source == "sample" else None
    _apply_photo(photo, source, truth)
    ss.timing = {"start": t0, "read": time.perf_counter() - t0, "total": None}
    return True


def _photo_failed(exc: E.PhotoError, level: str = "error") -> None:
    """A message for the user; the image decoder's sentence is meant for users, other causes go to the log."""
    if exc.key == "err.photo_bad":
        flash(level, exc.key, detail=exc.detail)
    else:
        log.warning("photo not read: %s (%s)", exc.key, exc.detail)
        flash(level, exc.key)


def _apply_photo(photo: E.Photo, source: str, truth: dict | None) -> None:
    cond = ss.cond
    if truth:
        _h, cond = H.from_score_json(truth)
    h, notes = H.from_detections(photo.detect, cond["variant"], photo.guess)
    if not h["concealed"] and not h["melds"]:
        flash("warning", "msg.no_tiles")  # the photo is shown; the hand the user had stays
        ss.photo, ss.photo_src = photo, source
        return
    if "flower" in notes:
        flash("info", "msg.flowers_dropped")
    _set_hand(h, undoable=bool(ss.hand["concealed"]))
    if truth:
        _set_cond(cond)
    ss.photo = photo
    ss.photo_src = source
    ss.sel = None
    ss.picker = None


def take_new_photos() -> None:
    """Read a newly uploaded or captured photo (before anything is drawn, so this run shows it).

    `ss.pending_photo` is the test hook: AppTest cannot upload files, so tests put bytes there
    and go through exactly the same path as an upload.
    """
    pending = ss.pop("pending_photo", None)
    if pending is not None:
        ingest_photo(bytes(pending), "upload")
    for key, source in (("uploader", "upload"), ("camera", "camera")):
        f = ss.get(key)
        if f is None:
            continue
        try:
            data = f.getvalue()
        except Exception:
            flash("error", "err.photo_bad")
            continue
        fid = getattr(f, "file_id", None) or hashlib.sha1(data).hexdigest()
        if fid not in ss.photo_seen:
            ss.photo_seen.add(fid)
            ingest_photo(data, source)


def photo_inputs() -> None:
    """Upload, camera, sample, manual entry."""
    st.file_uploader(
        t("photo.upload"),
        type=["jpg", "jpeg", "png", "heic", "heif", "webp"],
        key="uploader",
        help=t("photo.upload_help"),
    )
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(t("photo.sample"), on_click=_on_sample, key="btn_sample", icon=":material/image:")
        st.button(t("photo.manual"), on_click=_on_manual, key="btn_manual", icon=":material/edit:")
        st.toggle(t("photo.use_camera"), key="camera_on")
    if ss.get("camera_on"):
        st.camera_input(t("photo.camera"), key="camera")


def _on_sample() -> None:
    data = E.sample_photo()
    if data is not None and E.reader_status() is None:
        ingest_photo(data, "sample")
    else:
        truth = E.sample_hand() or E.FALLBACK_SAMPLE
        h, cond = H.from_score_json(truth)
        _set_hand(h)
        _set_cond(cond)
        ss.photo = None
        ss.photo_src = "sample_manual"


def _on_manual() -> None:
    _set_hand(H.empty_hand())
    ss.photo = None
    ss.photo_src = "manual"
    ss.sel = None
    ss.picker = "add"


def detection_view() -> None:
    photo: E.Photo | None = ss.photo
    why = E.reader_status()
    if photo is None:
        if why is not None:
            st.info(t("msg.manual_mode"))
        elif ss.photo_src == "manual":
            st.caption(t("photo.none_manual"))
        return
    st.image(_draw_boxes(photo), width="stretch")
    dets = photo.detect.get("detections", [])
    low = sum(1 for d in dets if H.det_uncertain(d))
    st.caption(t("photo.found", n=len(dets), low=low))


def _draw_boxes(photo: E.Photo) -> bytes:
    """The photo with a box and the current name per tile (corrections included), cropped to the tiles."""
    sel = ss.sel
    now = {}  # detection index -> (current code, selected?, winning?, typed over?)
    for i, x in enumerate(ss.hand["concealed"]):
        now[x.get("d")] = (x["t"], sel == ("c", i), ss.hand["win"] == i, x.get("c") is None)
    for j, m in enumerate(ss.hand["melds"]):
        for i, x in enumerate(m["tiles"]):
            now[x.get("d")] = (x["t"], sel == ("m", j, i), False, x.get("c") is None)
    boxes = []
    for k, det in enumerate(photo.detect.get("detections", [])):
        code, selected, win, fixed = now.get(k, (det["tile"], False, False, False))
        low = H.det_uncertain(det) and not fixed
        color = BLUE if selected else GOLD if win else RED if low else GREEN
        if k not in now and det["tile"] not in ("F", "flower"):
            color = GREY
        mark = "?" if low and not _label_font() else ""  # Chinese names are long enough: red says it
        boxes.append((tuple(det["xyxy"]), _box_label(code) + mark, color, selected))
    return _draw_cached(photo.preview_jpeg, photo.scale, tuple(boxes), _label_font())


def _label_font() -> str | None:
    """A font that can write Chinese tile names (vision ships a small one), when the page is in Chinese."""
    if _lang() != "zh":
        return None
    try:
        from vision.annotate import FONT_CANDIDATES
    except Exception:
        return None
    return next((str(p) for p in FONT_CANDIDATES if p.is_file()), None)


def _box_label(code: str) -> str:
    if _lang() == "zh" and _label_font():
        try:
            from vision.annotate import tile_name_zh

            return tile_name_zh(code)
        except Exception:
            pass
    return T.short(code)


@st.cache_data(max_entries=64, show_spinner=False)
def _draw_cached(preview_jpeg: bytes, s: float, boxes: tuple, font_path: str | None) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    im = Image.open(io.BytesIO(preview_jpeg)).convert("RGB")
    d = ImageDraw.Draw(im)
    width = max(2, round(max(im.size) / 400))
    for xyxy, text, color, selected in boxes:
        x0, y0, x1, y1 = (v * s for v in xyxy)
        d.rectangle((x0, y0, x1, y1), outline=color, width=width * (2 if selected else 1))
        fs = max(12, round((x1 - x0) * (0.4 if font_path else 0.42)))
        font = ImageFont.truetype(font_path, fs) if font_path else ImageFont.load_default(fs)
        tb = d.textbbox((x0, y0), text, font=font)
        d.rectangle((x0, y0 - (tb[3] - tb[1]) - 4, x0 + (tb[2] - tb[0]) + 6, y0), fill=color)
        d.text((x0 + 3, y0 - (tb[3] - tb[1]) - 4 - (tb[1] - y0)), text, fill="white", font=font)
    im = _crop_to_tiles(im, [[v * s for v in b[0]] for b in boxes])
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    return buf.getvalue()


def _crop_to_tiles(im, boxes: list[list[float]]):
    """The part of the photo that holds the tiles (plus a margin), so they are big enough to check."""
    if not boxes:
        return im
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    tile_h = sorted(b[3] - b[1] for b in boxes)[len(boxes) // 2]
    m = 0.9 * tile_h
    box = (max(0, x0 - m), max(0, y0 - 1.6 * m), min(im.width, x1 + m), min(im.height, y1 + m))
    if (box[2] - box[0]) * (box[3] - box[1]) > 0.8 * im.width * im.height:
        return im
    return im.crop(tuple(round(v) for v in box))


# ---------------------------------------------------------------- the hand and its corrections


def hand_editor() -> None:
    h = ss.hand
    variant = ss.cond["variant"]
    st.markdown(f"**{t('hand.standing')}** · {t('hand.tap_hint')}")
    with st.container(horizontal=True, key="handrow", gap=None):
        for i, x in enumerate(h["concealed"]):
            flags = ("_WIN" if h["win"] == i else "") + ("_LOW" if H.is_low(x) else "")
            flags += "_SEL" if ss.sel == ("c", i) else ""
            st.button(
                T.label(x["t"]),
                key=f"tile_c{i}{flags}",
                on_click=_on_select,
                args=(("c", i),),
                help=_tile_help(x, h["win"] == i),
            )
        st.button(
            t("hand.add"),
            key="btn_add",
            on_click=_on_add_mode,
            icon=":material/add:",
            type="tertiary",
        )
    for j, m in enumerate(h["melds"]):
        with st.container(key=f"meld_{j}", horizontal=True, gap="small", vertical_alignment="center"):
            with st.container(horizontal=True, gap=None, width="content"):
                for i, x in enumerate(m["tiles"]):
                    flags = ("_LOW" if H.is_low(x) else "") + ("_SEL" if ss.sel == ("m", j, i) else "")
                    st.button(
                        T.label(x["t"]),
                        key=f"tile_m{j}_{i}{flags}",
                        on_click=_on_select,
                        args=(("m", j, i),),
                        help=_tile_help(x, False),
                    )
            kinds = [*H.MELD_KINDS, "concealed"]
            if variant == "xinyu":
                kinds.remove("chow")
            st.selectbox(
                t("hand.meld_kind"),
                kinds,
                index=kinds.index(m["kind"]) if m["kind"] in kinds else 0,
                format_func=lambda k: t(f"meld.{k}"),
                key=f"meldkind_{j}_{m['kind']}",
                on_change=_on_meld_kind,
                args=(j, f"meldkind_{j}_{m['kind']}"),
                label_visibility="collapsed",
                width=190,
            )
    with st.container(horizontal=True, vertical_alignment="bottom"):
        if variant != "xinyu":
            st.number_input(
                t("hand.bonus"),
                min_value=0,
                max_value=4,
                step=1,
                key=f"bonus_{h['bonus']}",
                value=int(h["bonus"]),
                on_change=_on_bonus,
                args=(f"bonus_{h['bonus']}",),
                width=150,
            )
            if h["bonus"]:
                fa = T.row_html(["F"] * int(h["bonus"]), size="sm")
                st.markdown(fa, unsafe_allow_html=True, width="content")
        st.button(t("hand.sort"), key="btn_sort", on_click=_on_sort, icon=":material/sort:")
        st.button(
            t("hand.undo"),
            key="btn_undo",
            on_click=_on_undo,
            icon=":material/undo:",
            disabled=not ss.undo,
        )
    if ss.sel is not None:
        _selected_panel()
    elif ss.picker == "add":
        _picker("add")
    _typed_entry()


def _tile_help(x: dict, win: bool) -> str:
    parts = [T.name(x["t"])]
    if x.get("c") is not None:
        parts.append(t("hand.conf", conf=round(100 * x["c"])))
    if win:
        parts.append(t("hand.is_win"))
    return " · ".join(parts)


def _selected_panel() -> None:
    sel = ss.sel
    try:
        x = H._at(ss.hand, sel)
    except (IndexError, KeyError):
        ss.sel = None
        return
    with st.container(border=True, key="selpanel"):
        head = T.row_html([x["t"]], size="lg") + f" &nbsp;**{html.escape(_tile_help(x, False))}**"
        st.markdown(head, unsafe_allow_html=True)
        _picker("change")
        with st.container(horizontal=True):
            if sel[0] == "c":
                st.button(t("hand.set_win"), key="btn_setwin", on_click=_on_set_win, icon=":material/star:")
            st.button(t("hand.delete"), key="btn_del", on_click=_on_delete, icon=":material/delete:")
            st.button(t("hand.done"), key="btn_done", on_click=_on_deselect, icon=":material/check:")
        if sel[0] == "c":
            st.caption(t("hand.make_meld"))
            with st.container(horizontal=True):
                kinds = ["pung", "kong", "concealed_kong"]
                if ss.cond["variant"] != "xinyu":
                    kinds.append("chow")
                for k in kinds:
                    st.button(t(f"meld.{k}"), key=f"mk_{k}", on_click=_on_make_meld, args=(k,))


def _picker(mode: str) -> None:
    st.caption(t("hand.pick_change") if mode == "change" else t("hand.pick_add"))
    kinds = T.kinds_for(ss.cond["variant"])
    rows = [[k for k in kinds if k.endswith(s) and k in T.SUITED] for s in T.SUITS]
    rows.append([k for k in kinds if k not in T.SUITED])
    with st.container(key=f"picker_{mode}"):
        for row in rows:
            with st.container(horizontal=True, gap=None):
                for code in row:
                    st.button(
                        T.label(code),
                        key=f"pick_{mode}_{code}",
                        on_click=_on_pick,
                        args=(mode, code),
                        help=T.name(code),
                    )
    if mode == "add":
        st.button(t("hand.done"), key="btn_add_done", on_click=_on_deselect, icon=":material/check:")


def _typed_entry() -> None:
    with st.expander(t("hand.type_title")):
        st.text_input(t("hand.type_label"), key="typed", placeholder="123m456p789s345s55p")
        st.button(t("hand.type_apply"), key="btn_typed", on_click=_on_typed)


# callbacks (run before the script body; they only touch session state)


def _on_select(where: tuple) -> None:
    ss.sel = None if ss.sel == where else where
    ss.picker = None


def _on_deselect() -> None:
    ss.sel = None
    ss.picker = None


def _on_add_mode() -> None:
    ss.sel = None
    ss.picker = "add"


def _on_pick(mode: str, code: str) -> None:
    if mode == "add":
        _set_hand(H.add_tile(ss.hand, code))
    elif ss.sel is not None:
        _set_hand(H.set_tile(ss.hand, ss.sel, code))
        ss.sel = None


def _on_delete() -> None:
    if ss.sel is not None:
        _set_hand(H.delete_tile(ss.hand, ss.sel))
    ss.sel = None


def _on_set_win() -> None:
    if ss.sel and ss.sel[0] == "c":
        _set_hand(H.set_win(ss.hand, ss.sel[1]))
    ss.sel = None


def _on_make_meld(kind: str) -> None:
    if not ss.sel or ss.sel[0] != "c":
        return
    h, ok = H.make_meld(ss.hand, ss.sel[1], kind)
    if ok:
        _set_hand(h)
        ss.sel = None
    else:
        flash("warning", "msg.meld_needs_tiles", kind=t(f"meld.{kind}"))


def _on_meld_kind(j: int, key: str) -> None:
    _set_hand(H.set_meld_kind(ss.hand, j, ss[key]))
    ss.sel = None


def _on_bonus(key: str) -> None:
    h = dict(ss.hand)
    h["bonus"] = int(ss[key] or 0)
    _set_hand(h)


def _on_sort() -> None:
    _set_hand(H.sort_concealed(ss.hand))
    ss.sel = None


def _on_undo() -> None:
    if ss.undo:
        ss.hand = ss.undo.pop()
    ss.sel = None


MAX_TYPED_TILES = 22  # 14 + four kongs; more is never a hand and only slows the page
MAX_TYPED_CHARS = 200


def _on_typed() -> None:
    text = (ss.get("typed") or "").strip()
    try:
        if len(text) > MAX_TYPED_CHARS:
            raise ValueError(f"at most {MAX_TYPED_TILES} tiles ({len(text)} characters typed)")
        codes = T.parse(text)
        if len(codes) > MAX_TYPED_TILES:
            raise ValueError(f"at most {MAX_TYPED_TILES} tiles ({len(codes)} typed)")
    except ValueError as exc:
        flash("error", "msg.typed_bad", detail=str(exc), text=text[:40])
        return  # the current hand stays as it was
    h = H.empty_hand()
    keeps_green = ss.cond["variant"] == "xinyu"  # 發 stands in a 新余 hand, else it is set aside
    h["concealed"] = [H.tile(c) for c in codes if c != "F" or keeps_green]
    # The typed string is the whole hand: its 發 replace the count, never add to it.
    h["bonus"] = 0 if keeps_green else min(4, codes.count("F"))
    H._default_win(h)
    _set_hand(h)
    ss.sel = None
    ss.picker = None


# ---------------------------------------------------------------- how it was won


VARIANTS = ("jiujiang", "xingzi", "xinyu")


def conditions() -> None:
    cond = ss.cond
    bind(
        "variant",
        st.segmented_control,
        t("cond.variant"),
        VARIANTS,
        format_func=lambda v: t(f"variant.{v}"),
        required=True,
        width="stretch",
    )
    xinyu = cond["variant"] == "xinyu"
    if xinyu:
        cond["self_drawn"] = True
        st.caption(t("cond.xinyu_self_drawn"))
    else:
        bind(
            "self_drawn",
            st.segmented_control,
            t("cond.how"),
            [True, False],
            format_func=lambda v: t("cond.self_drawn") if v else t("cond.discard"),
            required=True,
            width="stretch",
        )
    if not cond["self_drawn"]:
        bind(
            "discarder",
            st.segmented_control,
            t("cond.discarder"),
            H.SEATS,
            format_func=lambda s: t(f"seat.{s}"),
            required=True,
            width="stretch",
        )
    bind(
        "dealer",
        st.segmented_control,
        t("cond.dealer"),
        ["me", *H.SEATS],
        format_func=lambda s: t(f"seat.{s}"),
        required=True,
        width="stretch",
    )
    options = H.events_for(cond["variant"], cond["self_drawn"])
    cond["events"] = [e for e in cond["events"] if e in options]
    ss["w_events"] = list(cond["events"])
    picked = st.pills(
        t("cond.events"),
        options,
        selection_mode="multi",
        format_func=lambda e: t(f"event.{e}"),
        key="w_events",
        wrap=True,
    )
    cond["events"] = list(picked or [])
    pv_label = t("cond.point_value_xinyu") if xinyu else t("cond.point_value")
    bind("point_value", st.number_input, pv_label, min_value=1, max_value=9999, step=1, width=180)
    if not xinyu:
        _payer_inputs()


def _payer_inputs() -> None:
    cond = ss.cond
    seats = list(H.SEATS) if cond["self_drawn"] else [cond["discarder"]]
    eaten = sum(_seat_weight(cond["seats"][s]) for s in seats)
    if eaten:
        st.caption(t("cond.payers_some", n=eaten))
    with st.expander(t("cond.payers")):
        st.caption(t("cond.payers_help"))
        tabs = st.tabs([t(f"seat.{s}") for s in seats])
        for tab, s in zip(tabs, seats, strict=True):
            with tab:
                cols = st.columns(2)
                fields = [
                    "bonus",
                    "dragon_pungs",
                    "dragon_kongs",
                    "dragon_concealed_kongs",
                    "kongs",
                    "concealed_kongs",
                ]
                for n, f in enumerate(fields):
                    with cols[n % 2]:
                        bind(f, st.number_input, t(f"payer.{f}"), min_value=0, max_value=4, step=1, seat=s)
                if cond["variant"] == "jiujiang":
                    bind("ready", st.checkbox, t("payer.ready"), seat=s)


def _seat_weight(info: dict) -> int:
    return sum(int(v) for k, v in info.items() if k != "ready") + int(bool(info.get("ready")))


# ---------------------------------------------------------------- result


def current_result() -> tuple[dict, dict[str, Any]]:
    h = ss.hand
    if not h["concealed"] and not h["melds"]:
        return {}, {"empty": True}
    try:
        data = H.to_score_json(h, ss.cond)
    except ValueError:
        return {}, {"error_key": "msg.payer_melds"}
    if H.win_code(h) is None:
        return data, {"error_key": "msg.no_winning_tile"}
    if any(x["t"] == T.UNKNOWN for x in H.all_tiles(h)):
        return data, {"error_key": "msg.unknown_tiles"}
    return data, E.score(data)


def total_banner(data: dict, res: dict) -> None:
    """The headline: what the winner collects (or why the hand cannot be won)."""
    if "ok" not in res:
        return
    r = res["ok"]
    if not r.get("can_win", True):
        st.markdown(
            f'<div class="jx-total jx-nowin"><span><span class="jx-big">{html.escape(t("res.cannot_win"))}'
            f'</span><br><span class="jx-lbl">{html.escape(_reason(r))}</span></span></div>',
            unsafe_allow_html=True,
        )
        return
    total = sum(p.get("amount", 0) for p in r.get("payments", []))
    unit = t("res.unit_fan") if data.get("variant") == "xinyu" else t("res.unit_pao")
    own_lbl = t("res.own_xinyu") if data.get("variant") == "xinyu" else t("res.own")
    st.markdown(
        f'<div class="jx-total"><span><span class="jx-lbl">{html.escape(t("res.total"))}</span><br>'
        f'<span class="jx-big" id="jx-total" data-total="{_num(total)}">{_num(total)}</span></span>'
        f'<span><span class="jx-lbl">{html.escape(own_lbl)}</span><br>'
        f'<span class="jx-big">{_num(r.get("own", 0))}</span> {html.escape(unit)}</span></div>',
        unsafe_allow_html=True,
    )


def result_view(data: dict, res: dict) -> None:
    if res.get("empty"):
        st.info(t("msg.empty_hand"))
        return
    if "error_key" in res:
        st.warning(t(res["error_key"]))
        return
    if "missing" in res:
        st.error(t("err.scoring_missing"))
        return
    if "error" in res:
        msg = res["error"]
        if msg.startswith("not a winning hand"):
            st.warning(t("res.not_complete"))
            st.caption(msg)
        else:
            st.warning(t("res.hand_problem", msg=msg))
        _suggestions()
        return
    r = res["ok"]
    if r.get("decomposition"):
        st.markdown(f"**{t('res.decomposition')}**")
        st.markdown(decomposition_html(r["decomposition"], data.get("winning_tile")), unsafe_allow_html=True)
        if r.get("wait"):
            st.caption(t("res.wait", wait=_label("wait", r["wait"])))
    if not r.get("can_win", True):
        st.error(t("res.cannot_win_reason", reason=_reason(r)))
    st.markdown(items_table(r, data.get("variant", "")), unsafe_allow_html=True)
    if r.get("can_win", True) and r.get("payments"):
        st.markdown(f"**{t('res.payments')}**")
        st.markdown(payments_table(r, data), unsafe_allow_html=True)


def decomposition_html(blocks: list[dict], win_tile: str | None, size: str = "md") -> str:
    """The engine's chosen reading as tile pictures, the winning tile framed in gold."""
    groups = []
    for b in blocks:
        kind = b.get("kind", "set")
        caption = _label("meld", kind) if b.get("source") == "meld" else _label("block", kind)
        codes = T.parse(b.get("tiles", ""))
        if kind == "concealed_kong" and len(codes) == 4:  # laid down as on the table: backs outside
            codes = ["back", codes[1], codes[2], "back"]
        groups.append((caption, codes, bool(b.get("winning"))))
    marked = any(w for _, _, w in groups)
    parts = []
    for caption, codes, winning in groups:
        wt = win_tile if (winning or not marked) else None
        parts.append(T.groups_html([(caption, codes)], win_tile=wt, size=size, wrap=False))
        if wt in codes:
            marked, win_tile = True, None
    return '<div class="jx-groups">' + "".join(parts) + "</div>"


def _label(prefix: str, value: str) -> str:
    """A catalog label for an engine value, or the value itself when the catalog lacks it."""
    key = f"{prefix}.{value}"
    return t(key) if key in catalog(_lang()) else str(value)


def _reason(r: dict) -> str:
    reason = r.get("reason") or ""
    if isinstance(reason, dict):
        return reason.get(_lang()) or reason.get("text") or str(reason)
    reason = str(reason)
    if _lang() == "zh":  # the engine explains in English; the two reasons it gives have Chinese here
        if "二炮起胡" in reason:
            return t("why.below_minimum", own=_num(r.get("own", 0)))
        if "self-draw only" in reason:
            return t("cond.xinyu_self_drawn")
    return reason or t("res.cannot_win")


def _lang() -> str:
    return lang()


def _num(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return f"{v:g}" if isinstance(v, float) else str(v)


def _item_name(it: dict) -> str:
    zh, en = it.get("name_zh", ""), it.get("name_en", "")
    return f"{en} {zh}" if _lang() == "en" and en else zh or en or it.get("key", "")


def _table(head: tuple[str, ...], rows: list[str]) -> str:
    return (
        "<table class='jx-items'><thead><tr>"
        + "".join(f"<th>{html.escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _sum_row(label: str, value: str, pts_col: int) -> str:
    cells = ["", ""]
    cells[pts_col - 1] = value
    klass = ["jx-pts" if pts_col == 1 else "", "jx-pts" if pts_col == 2 else ""]
    return (
        f"<tr class='jx-sum'><td>{html.escape(label)}</td>"
        f"<td class='{klass[0]}'>{html.escape(cells[0])}</td>"
        f"<td class='{klass[1]}'>{html.escape(cells[1])}</td></tr>"
    )


def items_table(r: dict, variant: str) -> str:
    """Item, value (炮 or ×), and why — zh and en names side by side, the rule reference under."""
    xinyu = variant == "xinyu"
    head = t("res.col_item"), t("res.col_value_x") if xinyu else t("res.col_value"), t("res.col_reason")
    rows = []
    for it in r.get("items", []):
        zh, en = it.get("name_zh", ""), it.get("name_en", it.get("key", ""))
        first, second = (en, zh) if _lang() == "en" else (zh, en)
        value = f"×{_num(it['multiplier'])}" if "multiplier" in it else f"+{_num(it.get('points', 0))}"
        reason = _item_text(it, "reason")
        ref = _item_text(it, "rule")
        why_key = f"why.{it.get('key', '')}"
        if _lang() == "zh" and why_key in catalog("zh"):  # the engine explains in English: lead with ours
            ref = f"{reason} · {ref}" if ref else reason
            reason = t(why_key)
        rows.append(
            f"<tr><td>{html.escape(first)}<br><span class='jx-en'>{html.escape(second)}</span></td>"
            f"<td class='jx-pts'>{html.escape(value)}</td>"
            f"<td><span class='jx-why'>{html.escape(reason)}</span>"
            + (f"<br><span class='jx-ref'>{html.escape(ref)}</span>" if ref else "")
            + "</td></tr>"
        )
    if "own" in r:
        own = f"×{_num(r['own'])}" if xinyu else _num(r["own"])
        rows.append(_sum_row(t("res.own_short"), own, 1))
    return _table(head, rows)


def _item_text(it: dict, field: str) -> str:
    """An item's text field, in the page language when the engine gives both."""
    for k in (f"{field}_{_lang()}", field, f"{field}_zh", f"{field}_en"):
        v = it.get(k)
        if isinstance(v, str) and v:
            return v
        if isinstance(v, dict):
            return str(v.get(_lang()) or next(iter(v.values()), ""))
    return ""


def payments_table(r: dict, data: dict) -> str:
    """Who pays what: 吃炮 per payer (with what was eaten), dealer doubling, kong money."""
    rows = []
    payers = {p["name"]: p for p in data.get("payers", [])}
    for p in r.get("payments", []):
        name = p.get("payer", "")
        seat = t(f"seat.{name}") if name in H.SEATS else name
        badge = ""
        if p.get("is_dealer", payers.get(name, {}).get("is_dealer")):
            badge += f"<span class='jx-badge'>{html.escape(t('res.dealer'))}</span>"
        if p.get("doubled"):
            badge += f"<span class='jx-badge'>{html.escape(t('res.doubled'))}</span>"
        eaten = p.get("eaten", 0)
        extra = html.escape(t("res.eaten", n=_num(eaten))) if eaten else ""
        names = [_item_name(i) for i in p.get("eaten_items", [])]
        if names:
            extra += f"<br><span class='jx-ref'>{html.escape('、'.join(names))}</span>"
        if p.get("kong_money"):
            extra += html.escape(_num(p["kong_money"]))
        rows.append(
            f"<tr><td>{html.escape(seat)}{badge}</td><td class='jx-why'>{extra}</td>"
            f"<td class='jx-pts'>{_num(p.get('amount', 0))}</td></tr>"
        )
    total = r.get("total", sum(p.get("amount", 0) for p in r.get("payments", [])))
    rows.append(_sum_row(t("res.total"), _num(total), 2))
    second = t("res.col_kong") if data.get("variant") == "xinyu" else t("res.col_eaten")
    return _table((t("res.col_payer"), second, t("res.col_amount")), rows)


def what_ifs() -> None:
    """Totals for self-drawn vs discard and dealer vs not, computed at once."""
    h, cond = ss.hand, ss.cond
    if H.win_code(h) is None:
        return
    st.markdown(f"**{t('res.whatif')}**")
    other = cond["dealer"] if cond["dealer"] != "me" else "left"
    cols = [("me", t("res.wi_dealer")), (other, t("res.wi_not_dealer"))]
    rows = [(True, t("cond.self_drawn")), (False, t("cond.discard"))]
    out = [
        "<table class='jx-whatif'><tr><th></th>"
        + "".join(f"<th>{html.escape(c)}</th>" for _, c in cols)
        + "</tr>"
    ]
    for sd, rlabel in rows:
        cells = []
        for dealer, _ in cols:
            c2 = {**cond, "self_drawn": sd, "dealer": dealer}
            cur = (sd == cond["self_drawn"]) and ((dealer == "me") == (cond["dealer"] == "me"))
            try:
                res = E.score(H.to_score_json(h, c2))
            except ValueError:
                res = {}
            if "ok" in res and res["ok"].get("can_win", True):
                text = _num(sum(p.get("amount", 0) for p in res["ok"].get("payments", [])))
            elif "ok" in res:
                text = t("res.wi_no")
            else:
                text = "–"
            cells.append(f"<td class='{'jx-cur' if cur else ''}'>{html.escape(text)}</td>")
        out.append(f"<tr><th>{html.escape(rlabel)}</th>{''.join(cells)}</tr>")
    out.append("</table>")
    st.markdown("".join(out), unsafe_allow_html=True)
    st.caption(t("res.whatif_help"))


def _suggestions() -> None:
    """When the hand is not complete: the smallest single-tile changes, unsure tiles first."""
    h = ss.hand
    if not h["concealed"]:
        return
    found = E.suggest(h, ss.cond)
    if not found:
        n = len(h["concealed"]) + 3 * len(h["melds"])
        if n != 14:
            st.info(t("msg.count", n=n))
        return
    st.markdown(f"**{t('sug.title')}**")
    for k, s in enumerate(found):
        r = s["result"]
        if r is None:
            worth = t("sug.still_no")
        elif not r.get("can_win", True):
            worth = t("res.wi_no")
        else:
            worth = t("sug.worth", total=_num(r.get("total", 0)))
        if s["op"] == "change":
            pics = T.row_html([s["from"]], size="sm") + " → " + T.row_html([s["to"]], size="sm")
            text = t("sug.change", a=T.name(s["from"]), b=T.name(s["to"]))
        elif s["op"] == "add":
            pics = "+ " + T.row_html([s["to"]], size="sm")
            text = t("sug.add", b=T.name(s["to"]))
        else:
            pics = "− " + T.row_html([s["from"]], size="sm")
            text = t("sug.remove", a=T.name(s["from"]))
        with st.container(horizontal=True, vertical_alignment="center", key=f"sugrow_{k}", wrap=False):
            st.button(t("sug.apply"), key=f"sug_{k}", on_click=_on_apply, args=(s,), type="primary")
            st.markdown(f"{pics} &nbsp;{html.escape(text)} · {html.escape(worth)}", unsafe_allow_html=True)


def _on_apply(s: dict) -> None:
    if s["op"] == "change":
        _set_hand(H.set_tile(ss.hand, s["where"], s["to"]))
    elif s["op"] == "add":
        _set_hand(H.add_tile(ss.hand, s["to"]))
    else:
        _set_hand(H.delete_tile(ss.hand, s["where"]))
    ss.sel = None


# ---------------------------------------------------------------- the page


def _sync_from_widgets() -> None:
    """Copy this run's widget values into `ss.cond` first, so the result is computed once, up front."""
    cond = ss.cond
    for name in ("variant", "self_drawn", "discarder", "dealer", "point_value"):
        v = ss.get(f"w_{name}")
        if v is not None:
            cond[name] = v
    if "w_events" in ss:
        cond["events"] = list(ss["w_events"] or [])
    for seat, info in cond["seats"].items():
        for f in info:
            v = ss.get(f"w_{seat}_{f}")
            if v is not None:
                info[f] = v
    if cond["variant"] == "xinyu":
        cond["self_drawn"] = True


def mini_summary(data: dict, res: dict) -> None:
    """On a phone the result is far down: a one-line total at the top (hidden on wide screens)."""
    if "ok" not in res:
        return
    r = res["ok"]
    if r.get("can_win", True):
        total = r.get("total", sum(p.get("amount", 0) for p in r.get("payments", [])))
        text = f"{t('res.total')} <b>{_num(total)}</b> · {t('res.own')} <b>{_num(r.get('own', 0))}</b>"
    else:
        text = f"<b>{html.escape(t('res.cannot_win'))}</b>"
    st.markdown(
        f'<div class="jx-mini">{text} &nbsp; <a href="#jx-result">{t("res.jump")}</a></div>',
        unsafe_allow_html=True,
    )


def render() -> None:
    init_state()
    take_new_photos()
    _sync_from_widgets()
    messages = st.container()
    data, res = current_result()
    mini_summary(data, res)
    wide = st.columns([5, 7], gap="large")
    with wide[0]:
        st.subheader(t("sec.photo"))
        photo_inputs()
        detection_view()
        timing_slot = st.empty()
    with wide[1]:
        st.subheader(t("sec.hand"))
        hand_editor()
        low = [x for x in H.all_tiles(ss.hand) if H.is_low(x)]
        if low and "ok" in res:
            st.caption(t("msg.low_check", n=len(low)))
    bottom = st.columns([5, 7], gap="large")
    with bottom[0]:
        st.subheader(t("sec.how"))
        conditions()
    with bottom[1]:
        st.markdown('<div id="jx-result"></div>', unsafe_allow_html=True)
        st.subheader(t("sec.result"))
        total_banner(data, res)
        result_view(data, res)
        if "ok" in res:
            what_ifs()
    if ss.timing and ss.timing.get("total") is None:
        ss.timing["total"] = time.perf_counter() - ss.timing["start"]
        log.info("photo -> scored result in %.3f s", ss.timing["total"])
    if ss.timing and ss.photo is not None:
        text = html.escape(t("photo.timing", s=f"{ss.timing['total']:.2f}"))
        timing_slot.markdown(f'<span class="jx-timing">{text}</span>', unsafe_allow_html=True)
    with messages:
        for level, key, detail, fields in ss.flash:
            text = t(key, **fields)
            if detail:
                text += f" ({detail})"
            getattr(st, level)(text)
    ss.flash = []
