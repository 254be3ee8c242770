"""jxmj web app — `jxmj app` runs this script with Streamlit.

`st.navigation` over page modules, each with a `render()`; adding a page is one line in
`PAGES` (its title is the catalog key `nav.<name>`). Everything the user sees comes from the
zh/en catalog in `app/locales/`; everything the user enters lives in `st.session_state`.
"""

from __future__ import annotations

import importlib
import logging
import os

import streamlit as st

from app.lan import join_url, qr_svg
from app.ui import drafting, i18n, quick_icons
from app.ui.builtin import page_words
from app.ui.i18n import t
from app.ui.state import keys
from app.ui.style import CSS, streamlit_words_css
from ledger import LedgerError
from ledger.codes import normalize_code


def _page(module: str):
    """The `render()` of page `module`, imported when the page is first drawn: a process whose
    first visit is a table link loads neither the score page nor the learn page for it."""

    def render() -> None:
        importlib.import_module(module).render()

    render.__qualname__ = render.__name__ = module.rsplit(".", 2)[-2]
    return render


PAGES = {  # url path -> render(); the first is the default page
    "score": _page("app.ui.score.page"),
    "table": _page("app.ui.table.page"),
    "learn": _page("app.ui.learn.page"),
}

log = logging.getLogger("jxmj.app")
quick_icons.install()  # before any page draws a Chinese option label
ss = st.session_state


def _browser_lang() -> str:
    accept = st.context.headers.get("Accept-Language") if st.context.headers else None
    return i18n.pick_lang(accept, st.context.locale)


def _first_lang() -> str:
    """A new session's language: the address's `?lang=` (a rule link keeps the page's language,
    `app.ui.rule_links.href`), else the browser's."""
    asked = st.query_params.get("lang")
    return asked if asked in i18n.LANGS else _browser_lang()


def _guarded(render):
    """The page, never a traceback: a message, the details in the log."""

    def run() -> None:
        try:
            render()
        except Exception:
            log.exception("page failed")
            st.error(t("err.unexpected"))

    return run


def _streamlit_words() -> str:
    mb = st.get_option("server.maxUploadSize")
    return streamlit_words_css(
        {
            "upload": t("photo.upload_button"),
            "upload_file": t("table.import_button"),
            "limit": t("photo.limit", mb=mb),
            "camera_hint": t("photo.camera_hint"),
            "take": t("photo.take"),
            "clear": t("photo.clear"),
            "skip": t("a11y.skip"),
            "enter": t("a11y.enter_to_apply"),
        }
    )


def _table_code(current: str) -> str | None:
    """The table the 牌局 page shows (its address's valid ``?table=``), else None."""
    if current != "table":
        return None
    try:
        return normalize_code(st.query_params.get("table", ""))
    except LedgerError:
        return None


def _join(current: str) -> None:
    """The QR button: the address (and QR code) other phones at the table open — on the 牌局 page
    the table itself (``/table?table=CODE``, no draft token: each phone gets its own), else the app."""
    url = os.environ.get("JXMJ_JOIN_URL") or join_url(st.get_option("server.port"), _https())
    code = _table_code(current)
    if code:
        url = f"{url.rstrip('/')}/table?table={code}"
    with st.popover("", icon=":material/qr_code_2:", help=t("join.help")):
        st.markdown(f"**{t('join.title_table', code=code) if code else t('join.title')}**")
        st.markdown(f'<div class="jx-qr">{qr_svg(url)}</div>', unsafe_allow_html=True)
        st.code(url, language=None)
        if not url.startswith("https"):
            st.caption(t("join.http"))


def _https() -> bool:
    return bool(st.get_option("server.sslCertFile"))


def _on_page() -> None:
    ss[keys.NAV_TO] = ss[keys.PAGE]


def _header(pages: dict[str, st.Page], current: str) -> None:
    ss[keys.PAGE] = current  # the control follows the page shown (also when the URL chose it)
    with st.container(horizontal=True, vertical_alignment="center", key="topbar"):
        st.segmented_control(
            t("nav.page"),
            list(pages),
            format_func=i18n.labels(pages, lambda p: f"nav.{p}"),
            key="page",
            required=True,
            on_change=_on_page,
            label_visibility="collapsed",
        )
        st.space("stretch")
        _join(current)
        st.segmented_control(
            t("nav.language"),
            list(i18n.LANGS),
            format_func=i18n.labels(i18n.LANGS, lambda code: f"lang.{code}"),
            key="lang",
            required=True,
            label_visibility="collapsed",
        )
    st.markdown(f"# {t('app.title')}")


def _url_state(target: str) -> dict[str, str]:
    """What a page keeps in its URL, carried across a page switch: the table code (`?table=`),
    the language (`?lang=`); never the phone's draft token (a cookie: `app.ui.drafting`)."""
    out = {"lang": ss[keys.LANG]}
    if target == "table":
        code = st.query_params.get("table") or ss.get(keys.TABLE_CODE)
        if code:
            out["table"] = code
    return out


def main() -> None:
    if keys.LANG not in ss:
        ss[keys.LANG] = _first_lang()
    i18n.set_lang(ss[keys.LANG])
    st.set_page_config(
        page_title=t("app.page_title"),
        page_icon=quick_icons.PAGE_ICON,
        layout="wide",
        initial_sidebar_state="collapsed",
    )
    pages = {
        name: st.Page(_guarded(render), title=t(f"nav.{name}"), url_path=name, default=k == 0)
        for k, (name, render) in enumerate(PAGES.items())
    }
    current = st.navigation(list(pages.values()), position="hidden")
    target = ss.pop(keys.NAV_TO, None)
    if target is None and "table" in pages and "table" in st.query_params and current.url_path != "table":
        target = "table"  # a shared table link (?table=CODE) opens the table whatever the path
    if target in pages and pages[target].url_path != current.url_path:
        st.switch_page(pages[target], query_params=_url_state(target))
    st.markdown(CSS, unsafe_allow_html=True)
    _header(pages, next((n for n, p in pages.items() if p.url_path == current.url_path), "score"))
    i18n.set_lang(ss[keys.LANG])  # the switch above may just have changed it
    if st.query_params.get("lang") != ss[keys.LANG]:
        st.query_params["lang"] = ss[keys.LANG]  # a reload, or a link copied from the address, keeps it
    st.markdown(_streamlit_words(), unsafe_allow_html=True)
    current.run()
    drafting.keep_cookie()  # the phone's draft token, kept by its browser
    page_words()  # Streamlit's own English controls named in the page language; uploads checked first


if __name__ == "__main__":  # Streamlit runs the script as __main__; tests import PAGES
    main()
