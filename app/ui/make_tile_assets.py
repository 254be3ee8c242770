"""Build the tile pictures in `app/assets/` from the CC0 FluffyStuff art.

Run once (the output is committed): `python -m app.ui.make_tile_assets [ART_DIR]`.
ART_DIR defaults to `$JXMJ_SHARED/data/tile_art_cc0/tiles_102x136` (`JXMJ_SHARED`: `../shared`).
Each face is laid on the tile body (`Front.png`) and downscaled to 60x80; 白 gets a blue frame
drawn here (the riichi art leaves it blank, Chinese sets frame it), the unknown tile a question mark.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ASSETS = Path(__file__).resolve().parent.parent / "assets"
SHARED = Path(os.environ.get("JXMJ_SHARED", Path(__file__).resolve().parents[3] / "shared"))
DEFAULT_ART = SHARED / "data" / "tile_art_cc0" / "tiles_102x136"
SIZE = (60, 80)

NAMES = {f"{r}m": f"Man{r}" for r in range(1, 10)}
NAMES |= {f"{r}p": f"Pin{r}" for r in range(1, 10)}
NAMES |= {f"{r}s": f"Sou{r}" for r in range(1, 10)}
NAMES |= {"E": "Ton", "S": "Nan", "W": "Shaa", "N": "Pei", "C": "Chun", "F": "Hatsu", "P": "Haku"}


def _on_body(art: Path, face: str | None) -> Image.Image:
    body = Image.open(art / "Front.png").convert("RGBA")
    if face:
        body.alpha_composite(Image.open(art / f"{face}.png").convert("RGBA"))
    return body


def build(art: Path) -> None:
    for code, face in NAMES.items():
        img = _on_body(art, face)
        if code == "P":  # 白板: a blue frame, as on Chinese sets
            d = ImageDraw.Draw(img)
            d.rounded_rectangle((22, 26, 80, 112), radius=6, outline=(40, 90, 170, 255), width=7)
        _save(img, f"tile-{code}.png")
    _save(Image.open(art / "Back.png").convert("RGBA"), "tile-back.png")
    unknown = _on_body(art, None)
    d = ImageDraw.Draw(unknown)
    d.text((51, 68), "?", fill=(150, 150, 150, 255), anchor="mm", font_size=70)
    _save(unknown, "tile-unknown.png")


def _save(img: Image.Image, name: str) -> None:
    img = img.resize(SIZE, Image.Resampling.LANCZOS).quantize(colors=64, method=Image.Quantize.FASTOCTREE)
    img.save(ASSETS / name, optimize=True)
    print(name, (ASSETS / name).stat().st_size)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_ART)
