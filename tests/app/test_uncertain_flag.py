"""The app draws a tile red when the reader flags it `uncertain` (older detect JSON: `conf` < 0.6)."""

from __future__ import annotations

import pytest

from app.ui.hand import LOW_CONF, det_uncertain


@pytest.mark.parametrize(
    ("det", "red"),
    [
        ({"tile": "7m", "conf": 0.95, "uncertain": True}, True),  # calibrated flag wins over a high conf
        ({"tile": "7m", "conf": 0.30, "uncertain": False}, False),
        ({"tile": "7m", "conf": LOW_CONF - 0.01}, True),  # no flag in the JSON: the old conf rule
        ({"tile": "7m", "conf": LOW_CONF + 0.01}, False),
    ],
)
def test_red_follows_the_reader_flag(det, red):
    assert det_uncertain(det) is red
