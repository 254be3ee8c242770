"""Bring the tile panel on screen when a tile is tapped, so the editor explains itself where the
player looks.

On a phone the panel opens under the hand, the 發 row and any kong hints, so for a long hand it
can open wholly below the screen and the tap seems to do nothing but frame the tile. The script
waits until the panel has kept its place for 0.3 s (the tiles above it get new pictures when one
is tapped). Then it scrolls just enough to show the panel's head and first picker rows, never the
tapped tile above the screen. It does so once per tapped tile (its text names the tile), and not
at all when the panel is already in view or the player has scrolled meanwhile.
"""

from __future__ import annotations

import streamlit as st

# The panel (`st-key-selpanel`) and the tapped tile (its key carries `_SEL`) are drawn in the
# same run as this script (a stale copy of either may linger, drawn 0 px wide: skipped); the
# scroll box is the nearest scrolling ancestor (Streamlit's main).
_SHOW = """<script>
(() => {
  let moved = false, last = null, still = 0, tries = 0;
  for (const ev of ["wheel", "touchmove", "keydown"]) {
    addEventListener(ev, () => { moved = true; }, {once: true, passive: true});
  }
  const shown = (sel) => [...document.querySelectorAll(sel)].find(e => e.getBoundingClientRect().width > 0);
  const check = () => {
    if (moved || ++tries > 40) return;
    const panel = shown('[class*="st-key-selpanel"]'), tile = shown('[class*="st-key-tile_"][class*="_SEL"]');
    if (panel && tile) {
      const p = panel.getBoundingClientRect(), t = tile.getBoundingClientRect();
      still = Math.round(p.top) === last ? still + 1 : 0;
      last = Math.round(p.top);
      if (still >= 3) {  // the tiles above have their pictures: the panel has its place
        const by = Math.min(p.top + Math.min(%(show)d, p.height) - innerHeight + 12, t.top - %(top)d);
        let box = panel.parentElement;
        while (box && !(box.scrollHeight > box.clientHeight
                        && /(auto|scroll)/.test(getComputedStyle(box).overflowY))) box = box.parentElement;
        if (by > 0) (box || document.scrollingElement).scrollBy({top: by});
        return;
      }
    }
    setTimeout(check, 100);
  };
  setTimeout(check, 100);
})();
</script><!-- %(what)s -->"""
SHOW_PX = 320  # the panel's head and its first picker rows
TOP_PX = 64  # the tapped tile stays below the top (Streamlit's header strip)


def show_panel(what: str) -> None:
    """Scroll the tile panel into view once for the tile `what` (any text naming it)."""
    with st.container(key=f"jx_show_{what}"):  # a new element per tile: its script runs again
        st.html(_SHOW % {"show": SHOW_PX, "top": TOP_PX, "what": what}, unsafe_allow_javascript=True)
