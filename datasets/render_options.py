"""Switches for the tile renderer (`datasets.tiles`, `datasets.faces`, `datasets.scenes`): one
`RenderOptions` per process, set by a recipe before the generation workers fork.

Modules read it as ``render_options.OPTIONS`` (the attribute, not a copy), so `set_render_options`
reaches every one of them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RenderOptions:
    """Switches for renderer changes made after recipe 0.2.0 (the defaults draw exactly as 0.2.0).

    A recipe sets them in its ``[data.render]`` table (``gen.py --render KEY=VALUE``), so each
    recipe version keeps drawing the same scenes from the same seeds.
    """

    brush_fonts: bool = False  # 0.3.0: add BRUSH_FONT_GLOBS to the fonts
    glyph_variation: float = 0.0  # 0.3.0: 0.7, the probability of `glyph_variation` per glyph
    glyph_vshear: bool = False  # 0.4.0: `glyph_variation` also raises horizontal strokes
    faint_rims: bool = False  # 0.3.0: 20% of faces with almost no darker rim
    sheet_edges: bool = False  # 0.3.0: sheets under 35% of hands, a side may run up to the row
    mainland_faces: bool = False  # 0.6.0: black 萬 numerals, black-ink honours, HK corner indices
    table_sets: bool = False  # 0.6.0: automatic-table sets: coloured backs, thick bodies
    table_felts: bool = False  # 0.6.0: automatic-table felts (honeycomb / woven), wooden rails
    world_styles: float = 0.0  # 0.7.0: share of font faces drawn in a `datasets.world_styles` kind
    ink_weight: float = 0.0  # 0.7.0: share of faces (font and CC0 art) drawn bold, thin or worn


OPTIONS = RenderOptions()


def set_render_options(**kw) -> RenderOptions:
    """Set the module's `OPTIONS` (before generation workers fork). Raises TypeError on an unknown key."""
    global OPTIONS
    OPTIONS = RenderOptions(**kw)
    return OPTIONS
