"""The fonts the settlement picture (`app.settle_png`) writes with: the system's CJK fonts, found
by their usual paths, never downloaded.

The repository ships no font for this picture: players' names may hold any Chinese character, so
no small subset would do, and a whole CJK font is 16–20 MB. The Debian packages are
``fonts-noto-cjk`` (Noto Sans CJK, SIL OFL; `scripts/ensure-chromium.sh` installs it for the
tests) and ``fonts-wqy-microhei`` (WenQuanYi Micro Hei, Apache-2.0 / GPLv3); ``JXMJ_FONT`` names
another font file, tried first. `font_files` only looks at paths (no Pillow: the 牌局 page asks it
on every run); `Fonts` opens them with Pillow.

Each character is written with the first font that has a glyph for it (its mask is not the
font's ``.notdef`` glyph, the box a font draws for a character it lacks); a character no font has
is written as ``?`` and listed in `Fonts.missing` (the picture says so), never as a box.
"""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is imported on first drawing: the 牌局 page asks `font_files` on every run
    from PIL import ImageFont

__all__ = ["CANDIDATES", "FONT_ENV", "Fonts", "PictureError", "font_files"]

FONT_ENV = "JXMJ_FONT"
CANDIDATES = (
    # Noto Sans CJK / Source Han Sans (SIL OFL): Debian and Ubuntu, Fedora, Arch, Alpine
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/source-han-sans/SourceHanSans-Regular.ttc",
    # WenQuanYi (Debian fonts-wqy-microhei, fonts-wqy-zenhei), Droid Sans Fallback
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    # macOS, Windows
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Medium.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)
"""Where systems keep a CJK font, the likeliest first."""
NOTDEF = "\U0010fffd"  # a private-use code point no font maps: its mask is the font's .notdef glyph
_CHECK_SIZE = 24


class PictureError(Exception):
    """The picture cannot be made: ``code`` ``no_font`` (no CJK font on this machine)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def font_files() -> tuple[str, ...]:
    """The font files there are, in the order they are tried (``$JXMJ_FONT`` first)."""
    given = os.environ.get(FONT_ENV, "")
    paths = ((given,) if given else ()) + CANDIDATES
    return tuple(p for p in paths if os.path.isfile(p))


def no_font_error() -> PictureError:
    return PictureError(
        "no_font",
        "no CJK font on this machine to write the settlement picture: install the Debian package "
        f"fonts-noto-cjk (or fonts-wqy-microhei), or name a font file in ${FONT_ENV}",
    )


@cache
def _face(path: str) -> int:
    """The face of a collection to use: the Simplified Chinese one (Noto Sans CJK SC), else the first."""
    from PIL import ImageFont

    for index in range(12):
        try:
            family = ImageFont.truetype(path, _CHECK_SIZE, index=index).getname()[0] or ""
        except OSError:
            break
        if family.endswith(" SC") or "GB" in family:
            return index
    return 0


@cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(path, size, index=_face(path))


@cache
def has_glyph(path: str, char: str) -> bool:
    """Whether the font at `path` draws `char` (whitespace always: it draws nothing anyway)."""
    if char.isspace():
        return True
    font = _font(path, _CHECK_SIZE)

    def mask(c: str) -> tuple:
        m = font.getmask(c)
        return m.size, bytes(m)

    return mask(char) != mask(NOTDEF)


class Fonts:
    """The fonts of one picture: `runs` splits a text by the font that writes each character."""

    def __init__(self, files: tuple[str, ...] | None = None) -> None:
        self.files = font_files() if files is None else files
        if not self.files:
            raise no_font_error()
        self.missing: list[str] = []  # characters no font has, in the order met
        self._widths: dict[tuple[str, int], float] = {}

    def file_for(self, char: str) -> str | None:
        return next((f for f in self.files if has_glyph(f, char)), None)

    def runs(self, text: str, size: int) -> list[tuple[str, ImageFont.FreeTypeFont]]:
        """`text` as ``[(part, font)]``: each part written by one font; a character none has is ``?``."""
        out: list[tuple[str, ImageFont.FreeTypeFont]] = []
        last = None
        for char in text:
            path = self.file_for(char)
            if path is None:
                if char not in self.missing:
                    self.missing.append(char)
                char, path = "?", self.files[0]
            if out and path == last:
                out[-1] = (out[-1][0] + char, out[-1][1])
            else:
                out.append((char, _font(path, size)))
            last = path
        return out

    def length(self, text: str, size: int) -> float:
        return sum(font.getlength(part) for part, font in self.runs(text, size))

    def char_length(self, char: str, size: int) -> float:
        """`length` of one character, remembered (`app.settle_png.wrap` sums them to measure a
        line whole only near its end: measured whole at every character, 200 hands took ~6 s)."""
        if (char, size) not in self._widths:
            self._widths[char, size] = self.length(char, size)
        return self._widths[char, size]
