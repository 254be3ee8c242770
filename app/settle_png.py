"""The settlement picture (结算图): the evening of a table in one PNG for the family chat — title,
date, variant and money per 炮, the four names with their totals, the transfers ("李四 → 张三 36"),
the running-totals chart the 牌局 page shows, optionally every hand, and the table's code.

`settle_png(ledger, lang, hands=)` gives the file's bytes; the page's download
(`app.ui.table.settle_view`) and `jxmj table settle CODE --png FILE` both call it, so they write the
same bytes: nothing in it depends on the time or the machine but the fonts (no timestamp, no
text chunk in the PNG). 1080 px wide (a phone screen's width), as tall as its content; words from
the catalog in `lang` (``zh`` / ``en``); fonts: `app.picture_fonts` (the system's CJK font). Pure:
Pillow only, no Streamlit.
"""

from __future__ import annotations

import io
import threading
from datetime import datetime
from decimal import Decimal

from PIL import Image, ImageDraw

from app.picture_chart import draw_chart
from app.picture_fonts import Fonts
from app.table_text import base_words
from app.ui.i18n import words
from app.ui.render.seat_lines import SEAT_COLOURS, hand_line
from ledger.names import code_points
from ledger.settle import settle
from scoring.result import json_number

__all__ = ["WIDTH", "Canvas", "draw", "settle_png"]

WIDTH = 1080
PAD = 60
INK, GREY, LINE, PAPER = (33, 33, 33), (110, 110, 110), (220, 220, 220), (255, 255, 255)
CARD = (246, 246, 246)
BASE_HEIGHT = 2800
MAX_HANDS_DRAWN = 200  # a longer table's picture lists its last 200 hands (and says so)


def num(d: Decimal) -> str:
    """A sum as the page writes it: ``36``, ``2.5``."""
    return str(json_number(d))


def signed(d: Decimal) -> str:
    return ("+" if d > 0 else "") + num(d)


class Canvas:
    """A white page `WIDTH` px wide that text is written on line by line (`y` grows); every text
    drawn is kept with its box in `drawn` (the tests look at the names' boxes)."""

    def __init__(self, fonts: Fonts, height: int) -> None:
        self.fonts = fonts
        self.img = Image.new("RGB", (WIDTH, height), PAPER)
        self.draw = ImageDraw.Draw(self.img)
        self.y = PAD
        self.drawn: list[tuple[str, tuple[float, float, float, float]]] = []

    def text(self, xy: tuple[float, float], text: str, size: int, fill=INK, bold: bool = False,
             right: bool = False) -> tuple[float, float, float, float]:  # fmt: skip
        """Write `text` with its baseline at `xy` (its right end there when `right`); its box."""
        x, y = xy
        if right:
            x -= self.fonts.length(text, size)
        x0 = x
        box: list[float] = [int(x), int(y), int(x), int(y)]
        for part, font in self.fonts.runs(text, size):
            self.draw.text((x, y), part, font=font, fill=fill, anchor="ls", stroke_width=1 if bold else 0,
                           stroke_fill=fill)  # fmt: skip
            b = self.draw.textbbox((x, y), part, font=font, anchor="ls")
            box = [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
            x += font.getlength(part)
        box[0] = min(box[0], int(x0))
        out = (box[0], box[1], box[2], box[3])
        self.drawn.append((text, out))
        return out

    def line(self, text: str, size: int, fill=INK, gap: float = 1.5, bold: bool = False) -> None:
        """Write one line at the left margin and move down by `gap` times the size."""
        self.y += size
        self.text((PAD, self.y), text, size, fill, bold)
        self.y += int(size * (gap - 1))

    def wrapped(self, text: str, size: int, fill=INK, gap: float = 1.4, bold: bool = False,
                indent: str = "  ") -> None:  # fmt: skip
        """Write `text` over as many lines as the page's width needs (`wrap`)."""
        for line in wrap(self.fonts, text, size, indent=indent):
            self.line(line, size, fill, gap=gap, bold=bold)

    def fit(self, text: str, size: int, width: float, least: int = 16) -> int:
        """The largest size from `size` down to `least` that writes `text` within `width`."""
        while size > least and self.fonts.length(text, size) > width:
            size -= 2
        return size

    def heading(self, text: str) -> None:
        self.y += 30
        self.draw.line((PAD, self.y, WIDTH - PAD, self.y), fill=LINE, width=2)
        self.y += 16
        self.line(text, 40, bold=True, gap=1.4)

    def png(self) -> bytes:
        """The page cut below its last line, as PNG bytes (no metadata: the same bytes every time).
        zlib's default level: ``optimize`` (level 9) took 2.8 s for 200 hands' lines, 4% smaller."""
        out = io.BytesIO()
        self.img.crop((0, 0, WIDTH, min(self.y + PAD, self.img.height))).save(out, "PNG")
        return out.getvalue()


def wrap(fonts: Fonts, text: str, size: int, width: int = WIDTH - 2 * PAD, indent: str = "  ") -> list[str]:
    """`text` in lines no wider than `width`: broken after a word where there is one, else
    between characters (Chinese); the lines after the first begin with `indent`."""
    lines, line, guess = [], "", 0.0
    sure = width - 2 * size  # a line whose characters' widths sum below this fits: not measured
    for char in text:
        guess += fonts.char_length(char, size)
        if line.strip() and guess > sure and fonts.length(line + char, size) > width:
            cut = line.rfind(" ") if " " in line.strip() else -1
            line, rest = (line[:cut], line[cut + 1 :]) if cut > 2 else (line, "")
            lines.append(line)
            line = indent + rest + char
            guess = sum(fonts.char_length(ch, size) for ch in line)
        else:
            line += char
    return [*lines, line] if line.strip() else lines


def missing_words(missing: list[str], limit: int = 12) -> str:
    """The characters no font writes, as code points: written as themselves they came out as the
    very ``?`` they explain (``U+1F004 U+1F600``; past `limit`, "…").

    >>> missing_words(["\U0001f004", "\u05e9"])
    'U+1F004 U+05E9'
    """
    return code_points("".join(missing), limit)


def date_of(created: datetime, t) -> str:
    """The day the table was opened, in this machine's time zone (the server's: the same for the
    page and the CLI on it)."""
    day = created.astimezone().date() if created.tzinfo else created.date()
    return t("picture.date", y=day.year, m=day.month, d=day.day)


def _estimate(ledger, fonts: Fonts, hands: bool, t) -> int:
    """Enough height for everything (the page is cut below its last line): `BASE_HEIGHT` for the
    title, totals, transfers, chart and notes (long names and title on more lines), and 40 px per
    line of the hands."""
    if not hands:
        return BASE_HEIGHT
    shown = ledger.outcomes[-MAX_HANDS_DRAWN:]
    lines = sum(len(wrap(fonts, hand_line(ledger, o, t, num=num), 28)) for o in shown)
    return BASE_HEIGHT + 40 * (lines + 1)


def draw(ledger, lang: str = "zh", *, hands: bool = False, fonts: Fonts | None = None) -> Canvas:
    """The picture of `ledger` (a replayed `ledger.Ledger`) drawn on a `Canvas`."""
    t, table = words(lang), ledger.table
    fonts = fonts or Fonts()
    c = Canvas(fonts, _estimate(ledger, fonts, hands, t))
    title = table.title or t("table.untitled")  # 80 characters at most: smaller, then on more lines
    c.wrapped(title, c.fit(title, 64, WIDTH - 2 * PAD, 44), gap=1.3, bold=True, indent="")
    base, count = base_words(table, t), t("picture.hands", n=len(ledger.outcomes))
    about = (date_of(table.created, t), t(f"variant.{table.variant}"), base, count)
    c.wrapped(" · ".join(about), 30, GREY, gap=1.6)
    _totals(c, ledger)
    c.heading(t("table.settlement"))
    s = settle(table.seats, ledger.totals)
    for text in s.lines() or [t("table.all_square")]:
        c.wrapped(text, 44, gap=1.45)
    c.heading(t("table.chart"))
    if ledger.outcomes:
        c.y = draw_chart(c, ledger, t, PAD)
    else:
        c.line(t("picture.no_hands"), 32, GREY)
    if hands and ledger.outcomes:
        c.heading(t("table.history"))
        shown = ledger.outcomes[-MAX_HANDS_DRAWN:]
        if len(shown) < len(ledger.outcomes):
            c.line(t("picture.last_hands", n=len(shown)), 28, GREY)
        for o in shown:
            c.wrapped(hand_line(ledger, o, t, num=num), 28)
    c.y += 30
    if c.fonts.missing:
        c.wrapped(t("picture.missing", chars=missing_words(c.fonts.missing)), 26, GREY)
    c.line(t("picture.footer", code=table.code) if table.code else t("app.title"), 26, GREY, gap=1.2)
    return c


def _totals(c: Canvas, ledger) -> None:
    """The four seats two by two: a card each with its chart colour, name and total."""
    seats, w, h, gap = ledger.table.seats, (WIDTH - 2 * PAD - 30) // 2, 150, 30
    top = c.y + 20
    for i, (name, total) in enumerate(zip(seats, ledger.totals, strict=True)):
        x, y = PAD + (i % 2) * (w + gap), top + (i // 2) * (h + gap)
        c.draw.rounded_rectangle((x, y, x + w, y + h), radius=18, fill=CARD)
        c.draw.rectangle((x, y + 18, x + 10, y + h - 18), fill=SEAT_COLOURS[i])
        c.text((x + 34, y + 58), name, c.fit(name, 38, w - 50))  # 24 characters at most: smaller
        c.text((x + w - 28, y + 128), signed(total), 56, bold=True, right=True)
    c.y = top + 2 * h + gap


def settle_png(ledger, lang: str = "zh", *, hands: bool = False) -> bytes:
    """The settlement picture of `ledger` in `lang` as PNG bytes (`hands`: with every hand).
    Raises `app.picture_fonts.PictureError` (``no_font``) on a machine without a CJK font."""
    with _DRAWING:
        return draw(ledger, lang, hands=hands).png()


_DRAWING = threading.Lock()
"""One picture at a time in a process: the page's downloads run in threads, and the fonts (FreeType
faces, cached per size) are shared."""
