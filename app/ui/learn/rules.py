"""A variant's rules on the Learn page: a lead paragraph, then one section per DECISIONS
section (`app.ui.rule_links.sections`), each under a header with a stable anchor so that every
scored item's rule reference links straight to it (`app.ui.rule_links.href`).

Words: ``rules.<variant>.lead``, the shared section titles ``rules.sec.<section>`` and each
variant's section text ``rules.<variant>.<section>`` in both catalogs.
"""

from __future__ import annotations

import streamlit as st

from app.ui.i18n import t
from app.ui.rule_links import anchor, sections


def rules_view(variant: str) -> None:
    st.markdown(t(f"rules.{variant}.lead"))
    for s in sections(variant):
        st.subheader(f"{s} {t(f'rules.sec.{s}')}", anchor=anchor(variant, s))
        st.markdown(t(f"rules.{variant}.{s}"))


def catalog_keys(variant: str) -> list[str]:
    """Every catalog key `rules_view` reads for `variant` (for the catalog test)."""
    keys = [f"rules.{variant}.lead"]
    for s in sections(variant):
        keys += [f"rules.sec.{s}", f"rules.{variant}.{s}"]
    return keys
