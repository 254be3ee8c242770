"""The running-totals chart of the settlement picture (`app.settle_png`), drawn with Pillow as the
牌局 page draws it with Vega-Lite (`app.ui.table.history.chart`): each seat's total after every
hand (hand 0: all zero), one line per seat in its colour and dash (`SEAT_COLOURS`, `SEAT_DASHES`),
the hands along x, the totals up y, the names below as its legend."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal

from app.ui.render.seat_lines import SEAT_COLOURS, SEAT_DASHES

HEIGHT, LEFT, BOTTOM = 460, 90, 60
AXIS, GRID, LABEL = (120, 120, 120), (232, 232, 232), (90, 90, 90)


def nice_step(span: float, most: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving at most `most` ticks over `span`.

    >>> nice_step(36, 6), nice_step(7, 10), nice_step(0.4, 5)
    (10, 1, 0.1)
    """
    raw = max(span, 1e-9) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(k * power for k in (1, 2, 5, 10) if k * power >= raw)
    return int(step) if step >= 1 else round(step, 12)


def _label(v: float) -> str:
    return f"{v:g}"


def _dashed(draw, points, colour, dash: list[int], width: int = 5) -> None:
    """A polyline with `dash` (on, off, ... in line widths, as the page's strokeDash) along it."""
    pattern = [max(1, d) * width * 0.6 for d in dash] if dash[1:] and any(dash[1:]) else None
    if pattern is None:
        draw.line(points, fill=colour, width=width, joint="curve")
        return
    k, left, on = 0, pattern[0], True
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length, done = math.hypot(x1 - x0, y1 - y0), 0.0
        while done < length:
            step = min(left, length - done)
            a, b = done / length, (done + step) / length
            if on:
                dx, dy = x1 - x0, y1 - y0
                draw.line([(x0 + dx * a, y0 + dy * a), (x0 + dx * b, y0 + dy * b)], fill=colour, width=width)
            done += step
            left -= step
            if left <= 1e-9:
                k = (k + 1) % len(pattern)
                left, on = pattern[k], not on
    return


def draw_chart(c, ledger, t, pad: int) -> int:
    """Draw the chart on canvas `c` from its `y` down; the `y` below it."""
    PAD, WIDTH = pad, c.img.width

    seats = ledger.table.seats
    series = [[Decimal(0)] * len(seats)] + [list(o.totals) for o in ledger.outcomes]
    lo = float(min(min(row) for row in series))
    hi = float(max(max(row) for row in series))
    step = nice_step(hi - lo or 1, 6)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi == lo:
        lo, hi = lo - step, hi + step
    x0, x1, top = PAD + LEFT, WIDTH - PAD - 10, c.y + 40
    y1 = top + HEIGHT - BOTTOM
    n = len(series) - 1

    def px(i: int, v: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / max(n, 1), y1 - (y1 - top) * (v - lo) / (hi - lo)

    ticks = round((hi - lo) / step)
    for k in range(ticks + 1):
        v = lo + k * step
        y = px(0, v)[1]
        c.draw.line((x0, y, x1, y), fill=AXIS if abs(v) < step / 1e6 else GRID, width=2)
        c.text((x0 - 14, y + 9), _label(round(v, 10)), 24, LABEL, right=True)
    hstep = max(1, nice_step(n, 10)) if n else 1
    for i in range(0, n + 1, int(hstep)):
        x = px(i, 0)[0]
        c.draw.line((x, y1, x, y1 + 8), fill=AXIS, width=2)
        c.text((x - c.fonts.length(str(i), 24) / 2, y1 + 36), str(i), 24, LABEL)
    c.text((x1, y1 + 36 + 34), t("table.hand_axis"), 24, LABEL, right=True)
    c.text((PAD, top - 22), t("table.total_axis"), 24, LABEL)
    for s in range(len(seats)):
        points = [px(i, float(row[s])) for i, row in enumerate(series)]
        _dashed(c.draw, points, SEAT_COLOURS[s], SEAT_DASHES[s])
    y = y1 + 36 + 34 + 40  # the legend: a stroke and the name, two per row
    for s, name in enumerate(seats):
        x = PAD + (s % 2) * (WIDTH - 2 * PAD) // 2
        yy = y + (s // 2) * 50
        _dashed(c.draw, [(x, yy - 12), (x + 60, yy - 12)], SEAT_COLOURS[s], SEAT_DASHES[s])
        c.text((x + 76, yy), name, c.fit(name, 30, (WIDTH - 2 * PAD) // 2 - 96))
    return y + 2 * 50
