"""A new photo shown unties the hands from the photo before (`HandInProgress.show_photo`,
`EditHand.unlinked`): box numbers of one photo name other tiles on the next."""

from __future__ import annotations

from dataclasses import replace

from app.ui.state import EditHand
from app.ui.state.progress import HandInProgress
from app.ui.state.tiles import EditMeld
from tests.app.test_hand_in_progress import codes, hand


def linked(text: str, pung: str) -> EditHand:
    """`hand(text)` and a pung of `pung` laid apart, every tile from a box: 0, 1, ... in that order."""
    h = hand(text)
    standing = tuple(replace(x, detection=k) for k, x in enumerate(h.concealed))
    meld = EditMeld(
        "pung", tuple(replace(x, detection=len(standing) + k) for k, x in enumerate(hand(pung).concealed))
    )
    return replace(h, concealed=standing, melds=(meld,))


def test_a_new_photo_unties_the_hand_shown_and_those_undo_brings_back():
    hip = HandInProgress()
    hip.hand = linked("123m456p789s55p", "777s")
    hip.set_hand(linked("123m456p789s66p", "888s"))  # an edit: the hand before goes on the undo stack
    assert [x.detection for x in hip.hand.tiles] == list(range(14))
    hip.show_photo(None, "manual")  # another photo (here none) shown
    assert [x.detection for x in hip.hand.tiles] == [None] * 14
    assert codes(hip.hand) == "1m2m3m4p5p6p7s8s9s6p6p" and hip.hand.melds[0].codes == ["8s"] * 3
    hip.undo_edit()
    assert [x.detection for x in hip.hand.tiles] == [None] * 14
    assert codes(hip.hand) == "1m2m3m4p5p6p7s8s9s5p5p" and hip.hand.melds[0].codes == ["7s"] * 3
