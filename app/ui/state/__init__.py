"""The app's typed state: the hand being edited (`hand.py`) and how it was won (`conditions.py`).

Plain dataclasses, no Streamlit: what `st.session_state` holds, and every edit as a method.
"""

from app.ui.state.conditions import (
    ME,
    OTHER_SEATS,
    Conditions,
    Seat,
    hand_input,
    tile_kinds,
)
from app.ui.state.hand import (
    DISSOLVE,
    EditHand,
    EditMeld,
    EditRefused,
    EditTile,
    Selection,
    sort_key,
)

__all__ = [
    "DISSOLVE",
    "ME",
    "OTHER_SEATS",
    "Conditions",
    "EditHand",
    "EditMeld",
    "EditRefused",
    "EditTile",
    "Seat",
    "Selection",
    "hand_input",
    "sort_key",
    "tile_kinds",
]
