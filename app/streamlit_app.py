"""jxmj web app — `jxmj app` runs this script with Streamlit.

Two pages: 计分 Score (photo -> hand -> conditions -> itemised result) and 学习 Learn
(rules with examples, practice). Everything the user sees comes from the zh/en catalog in
`app/locales/`; everything the user enters lives in `st.session_state`.
"""

from __future__ import annotations

import logging

import streamlit as st

from app.ui import i18n
from app.ui.i18n import t
from app.ui.style import CSS
from app.ui.tiles import ASSETS

log = logging.getLogger("jxmj.app")
ss = st.session_state


def _browser_lang() -> str:
    try:
        headers = st.context.headers
        accept = headers.get("Accept-Language") if headers else None
    except Exception:
        accept = None
    try:
        locale = st.context.locale
    except Exception:
        locale = None
    return i18n.pick_lang(accept, locale)


def _header() -> None:
    with st.container(horizontal=True, vertical_alignment="center", key="topbar"):
        st.segmented_control(
            t("nav.page"),
            ["score", "learn"],
            format_func=lambda p: t(f"nav.{p}"),
            key="page",
            required=True,
            label_visibility="collapsed",
        )
        st.space("stretch")
        st.segmented_control(
            t("nav.language"),
            list(i18n.LANGS),
            format_func=lambda code: t(f"lang.{code}"),
            key="lang",
            required=True,
            label_visibility="collapsed",
        )
    st.markdown(f"# {t('app.title')}")


def main() -> None:
    if "lang" not in ss:
        ss.lang = _browser_lang()
    if "page" not in ss:
        ss.page = "score"
    i18n.set_lang(ss.lang)
    st.set_page_config(
        page_title=t("app.page_title"),
        page_icon=str(ASSETS / "tile-C.png"),
        layout="wide",
        initial_sidebar_state="collapsed",
    )
    st.markdown(CSS, unsafe_allow_html=True)
    _header()
    i18n.set_lang(ss.lang)  # the switch above may just have changed it
    try:
        if ss.page == "learn":
            from app.ui import learn_page

            learn_page.render()
        else:
            from app.ui import score_page

            score_page.render()
    except Exception:  # never a traceback on the page: a message, the details in the log
        log.exception("page failed")
        st.error(t("err.unexpected"))


main()
