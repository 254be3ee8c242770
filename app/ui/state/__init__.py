"""The app's typed state: the hand being edited (`hand.py`), how it was won (`conditions.py`),
and the hand in progress that holds both with everything else a page keeps of it
(`progress.HandInProgress`, its draft: `draft.py`).

Plain dataclasses, no Streamlit: what `st.session_state` holds (one `HandInProgress`, kept by
`app.ui.hand.session`), and every edit as a method.
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
