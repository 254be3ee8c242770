"""A variant's rules on the Learn page: a lead paragraph, then one section per DECISIONS
section (`app.ui.rule_links.sections`), numbered 1, 2, 3 … on the tab (`rule_links.number`),
each under a header with a stable anchor so that every scored item's rule reference links
straight to it (`app.ui.rule_links.href`).

Streamlit scrolls to the anchor of the address (``#rule-xingzi-1-3``) when that header is drawn;
the page's own styles, applied a moment later, shift it off the screen. So `follow_anchor`
scrolls again once the header has stopped moving, unless the player has scrolled.

Words: ``rules.<variant>.lead``, the shared section titles ``rules.sec.<section>`` and each
variant's section text ``rules.<variant>.<section>`` in both catalogs: explanation only; the values
are the rule table's, drawn under their section by `app.ui.learn.values`.
"""

from __future__ import annotations

import streamlit as st

from app.ui.i18n import t
from app.ui.learn.values import value_tables
from app.ui.rule_links import anchor, number, sections


def rules_view(variant: str) -> None:
    st.markdown(t(f"rules.{variant}.lead"))
    for s in sections(variant):
        st.subheader(f"{number(variant, s)} {t(f'rules.sec.{s}')}", anchor=anchor(variant, s))
        st.markdown(t(f"rules.{variant}.{s}"))
        for table in value_tables(variant, s):  # the values, from the rule table itself
            st.markdown(table.markdown())


# Runs once per page load (a rerun keeps the element): every 100 ms, up to 4 s, until the player
# scrolls, taps or types; when the anchored header has kept its place for 0.4 s off the screen,
# scroll it to the top as Streamlit does (scrollIntoView(true)).
_FOLLOW = """<script>
(() => {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id.startsWith("rule-") || window.jxFollowed === location.href) return;
  window.jxFollowed = location.href;
  let moved = false, last = null, still = 0, tries = 0;
  for (const ev of ["wheel", "touchstart", "keydown", "mousedown"]) {
    addEventListener(ev, () => { moved = true; }, {once: true, passive: true});
  }
  const check = () => {
    const el = document.getElementById(id);
    if (moved || ++tries > 40) return;
    if (el) {
      const top = Math.round(el.getBoundingClientRect().top);
      still = top === last ? still + 1 : 0;
      last = top;
      if (still >= 4 && (top < 0 || top > innerHeight - 80)) {
        el.scrollIntoView(true);
        still = 0;
        last = null;
      }
    }
    setTimeout(check, 100);
  };
  setTimeout(check, 100);
})();
</script>"""


def follow_anchor() -> None:
    """Keep a rule link's section on screen while the page settles (see the module docstring)."""
    st.html(_FOLLOW, unsafe_allow_javascript=True)


def catalog_keys(variant: str) -> list[str]:
    """Every catalog key `rules_view` reads for `variant` (for the catalog test)."""
    keys = [f"rules.{variant}.lead"]
    for s in sections(variant):
        keys += [f"rules.sec.{s}", f"rules.{variant}.{s}"]
    return keys
