"""The tab's icon is drawn by the browser from the page itself: nothing is fetched at run time."""

from __future__ import annotations

from urllib.parse import unquote

from streamlit.commands import page_config

from app.ui import quick_icons
from app.ui.quick_icons import PAGE_ICON


def test_the_page_icon_is_an_svg_data_url_streamlit_passes_through():
    assert PAGE_ICON.startswith("data:image/svg+xml,")
    assert not PAGE_ICON.startswith(":material")  # a Material icon is fetched from fonts.gstatic.com
    quick_icons.install()
    assert page_config._get_favicon_string(PAGE_ICON) == PAGE_ICON  # no image file, no emoji, no host
    svg = unquote(PAGE_ICON.split(",", 1)[1])
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "href" not in svg  # nothing it would load
