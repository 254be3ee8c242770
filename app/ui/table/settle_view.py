"""Settlement (结算: nets and the fewest transfers), locking a settled table, and export
(CSV, JSON) / import (JSON restores a table under a code of its own)."""

from __future__ import annotations

import json
from collections.abc import Callable

import streamlit as st

from app import ledgerin
from app.photo_gate import PhotoBusy, photo_slot
from app.picture_fonts import FONT_ENV, font_files
from app.safe_text import md
from app.table_csv import csv_bytes
from app.ui.builtin import refusal_slot
from app.ui.flash import Flash, ledger_flash
from app.ui.hand.session import show_posted
from app.ui.i18n import lang, t
from app.ui.render.html import num
from app.ui.state import keys
from app.ui.table.db import began, begun_at, forget_begun, store, write
from app.ui.table.start import go
from ledger import LedgerError, settle
from ledger.exchange import export_json, table_from_export

ss = st.session_state


def settlement(rec, ledger) -> None:
    if not ledger.outcomes:
        return
    code = rec.table.code
    st.subheader(t("table.settlement"))
    s = settle(tuple(md(n) for n in rec.table.seats), ledger.totals)  # names inert in Markdown and HTML
    st.markdown(
        " · ".join(f"{n} {'+' if v > 0 else ''}{num(v)}" for n, v in zip(s.seats, s.nets, strict=True))
    )
    lines = s.lines()
    st.markdown('<div id="jx-transfers">' + "<br>".join(lines or [t("table.all_square")]) + "</div>",
                unsafe_allow_html=True)  # fmt: skip
    picture(code, ledger)
    if not rec.table.locked:
        # ticked on the settlement shown then: another phone's write since is a conflict
        sure = st.checkbox(t("table.lock_sure"), key="tw_lock_sure", on_change=began, args=(code, "lock"))
        if st.button(t("table.lock"), disabled=not sure, key="tb_lock"):
            # no message of its own: the locked page says it once, where the hand was entered
            write(lambda: _lock(rec), "settle", None, code=code, changed="table.changed_lock")
    show_posted("settle")  # the lock's outcome where it was tapped


def picture(code: str, ledger) -> None:
    """The settlement picture (结算图) for the family chat: one tap downloads it, in the page's
    language, made on the tap (`app.settle_png`, Pillow: never on a run of the page) — the bytes
    `jxmj table settle CODE --png FILE --lang` writes. A server without a CJK font says so here
    instead (`app.picture_fonts`: which package to install)."""
    if not font_files():
        st.caption(t("table.picture_no_font", package="fonts-noto-cjk", env=FONT_ENV))
        return
    hands = st.checkbox(t("table.picture_hands"), key="tw_png_hands")
    png = picture_file(ledger, lang(), hands)
    st.download_button(t("table.picture"), png, f"jxmj-{code}.png", "image/png", key="tb_png")


def picture_file(ledger, language: str, hands: bool) -> Callable[[], bytes]:
    """The download's callable: the picture of `ledger` in `language` (`hands`: every hand listed)."""

    def build() -> bytes:
        from app.settle_png import settle_png

        return settle_png(ledger, language, hands=hands)

    return build


def csv_download(ledger, language: str) -> Callable[[], bytes]:
    """The CSV download's callable: `ledger`'s CSV in `language`, taken when the page is drawn —
    Streamlit calls it on the tap, outside the page's run, where `lang()` is the default (zh):
    an English page downloaded Chinese headers (`app.table_csv`: the bytes the CLI writes)."""
    return lambda: csv_bytes(ledger, language)


def _lock(rec) -> None:
    """Lock the table as settled, checked against the revision shown when 确认 was ticked; a
    refused lock begins again on the table shown next."""
    try:
        store().lock(rec.table.code, revision=begun_at(rec, "lock"))
    finally:
        forget_begun(rec.table.code, "lock")


IMPORTED = keys.IMPORTED  # session state: (the export's code, the code it was stored under, the page's)


def exchange(rec, ledger) -> None:
    st.subheader(t("table.export"))
    code = rec.table.code
    cols = st.columns(2)
    # callables: the files are built when a button is pressed, not on every run of the page
    csv_file = csv_download(ledger, lang())  # the page's language now: the tap runs outside the run
    json_file = lambda: json.dumps(export_json(ledger), ensure_ascii=False, indent=1)  # noqa: E731
    cols[0].download_button(t("table.export_csv"), csv_file, f"jxmj-{code}.csv", "text/csv", key="tb_csv")
    cols[1].download_button(
        t("table.export_json"), json_file, f"jxmj-{code}.json", "application/json", key="tb_json"
    )
    import_view(code)


IMPORT_KEY = "tb_import"
REFUSED = keys.IMPORT_REFUSED  # session state: (files refused so far, the last one's Flash | None)


def import_view(here: str) -> None:
    """The JSON import on the page of table `here` (the table the other phones still show). A file
    refused (not an export, too large for now) is said in the slot under the uploader, which
    starts empty again (a fresh key): the chip never shows a file that was not taken, and the next
    file's message replaces this one."""
    count, said = ss.get(REFUSED, (0, None))
    key = IMPORT_KEY if not count else f"{IMPORT_KEY}_{count}"  # CSS and the script: st-key-tb_import*
    up = st.file_uploader(t("table.import"), type=["json"], key=key)
    ss[REFUSED] = (count, None)  # said once, on the run after the refusal
    refusal_slot(key, said=said.text() if said else "")  # also the script's: wrong type, too large
    if up is None or ss.get(keys.IMPORT_SEEN) == up.file_id:
        return
    ss[keys.IMPORT_SEEN] = up.file_id
    raw = up.getvalue()
    try:  # admitted like a photo: reading a large export holds memory too (ledgerin.import_cost)
        with photo_slot(lambda: st.spinner(t("table.import_waiting")), cost=ledgerin.import_cost(raw)):
            table, hands = table_from_export(read_export(raw))
            rec = store().create_table(table, hands)
    except LedgerError as e:
        _refused(count, ledger_flash(e))
    except PhotoBusy:
        _refused(count, Flash("error", "table.import_busy"))
    ss[IMPORTED] = (table.code, rec.table.code, here)  # said on the imported table's page
    go(rec.table.code)


def _refused(count: int, said: Flash) -> None:
    """A file not taken: a fresh uploader, and why under it on the next run."""
    ss[REFUSED] = (count + 1, said)
    st.rerun()


def imported_note(code: str) -> None:
    """After an import, on the imported table: what it did — a new table under which code, the
    file's table unchanged, how the other phones open it (they still show the table the import
    was made on, which need not be the file's)."""
    said = ss.get(IMPORTED)
    if not said or said[1] != code:
        return
    del ss[IMPORTED]
    old, new, here = said
    # an import never keeps the file's code; the other phones show the page it was imported on
    st.info(t("table.imported_new", old=old or "—", new=new, here=here))


def read_export(raw: bytes) -> object:
    """The JSON value of an uploaded export, read as `jxmj table import` reads one
    (`app.ledgerin.parse_export`: its size, hands and fields bounded, strict JSON); raises
    :class:`LedgerError` naming the problem."""
    return ledgerin.parse_export(raw)
