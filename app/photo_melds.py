"""Which sets of a photo are melds (`app.photo_hand.hand_from_photo`'s meld rules).

A set is a meld only when the photo lays it apart from the standing row:

- a set the layout names (`vision.layout.guess_kind`) that lies *inside* the standing row —
  standing tiles left and right of it in the same photo row — is standing tiles unless a tile
  of it lies sideways (a player's small gaps between suits are no melds: a standing 333p);
  a concealed kong shows its backs and stays one;
- a claimed chow is a meld only where the variant lets one be claimed (新余 never; 九江 / 星子
  as the fourth meld: with three other melds laid apart), else its tiles stand (a standing 789p
  one of whose boxes looked sideways);
- a kong is never completed by an uncertain reading (`sure`; a flower read as
  七万 at 33 % beside 777m): such a set laid apart is the pung of its three sure tiles, the
  fourth standing, flagged; with fewer than three sure tiles all of it stands. A kong the photo
  does not lay apart is not assumed: the editor asks (`EditHand.kong_candidates`);
- four tiles laid apart with a sideways tile, three of them alike read sure and one not, read
  unsure (a kong whose tops the photo cut off: 111s read plus a 1m), are that kong, its odd tile
  flagged for the player; never a pung with a stray tile.

Pure; no Streamlit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from app.photo_guess import UNKNOWN, PhotoTile
from scoring.rules import load_rules
from vision.detection import BACK, Group
from vision.layout import guess_kind

SURE_CONF = 0.5
"""A reading below this confidence is shown unsure (red dashed) even when the reader did not flag
it: a tile at 44 % is never shown as sure. On `real_rows_public` (models 0.6.2, 903 in-row tiles)
this adds 23 frames (2.5 %) to the reader's 46 flags; on the 22 of its photos whose rows align
with the labels (649 tiles, 3 wrong) it marks 8 more right tiles (1.2 %) and no more wrong ones."""


def sure(t: PhotoTile) -> bool:
    """A face read with confidence: known, not flagged, at `SURE_CONF` or over (a back is no face)."""
    return t.code not in (UNKNOWN, BACK) and not t.uncertain and t.conf >= SURE_CONF


def standing_kind(g: Group) -> bool:
    """The group is standing tiles as the layout reads it (a `hand` set, an upright run)."""
    return g.kind_guess == "hand" or (g.kind_guess == "chow" and not g.claimed)


def inner_groups(groups: Sequence[Group]) -> set[int]:
    """Indices of the groups with a standing group (`standing_kind`) left and right of them in the
    same photo row (groups come in reading order: rows top to bottom, sets left to right)."""
    inner: set[int] = set()
    for k, g in enumerate(groups):
        row = [j for j, h in enumerate(groups) if h.row == g.row]
        left = any(standing_kind(groups[j]) for j in row if j < k)
        right = any(standing_kind(groups[j]) for j in row if j > k)
        if left and right:
            inner.add(k)
    return inner


def set_apart_kind(kind: str, g: Group, inner: bool) -> str:
    """`kind` of a group as the photo lays it: a set inside the standing row without a sideways tile
    stands (`hand`); a concealed kong (its backs) stays."""
    if inner and kind in ("pung", "kong", "chow") and not g.claimed:
        return "hand"
    return kind


def sure_kong(kind: str, tiles: list[PhotoTile]) -> tuple[str, list[PhotoTile], list[PhotoTile]]:
    """A kong of four faces only when all four are `sure`: else `("pung", its three sure tiles, the
    rest to stand)`, or `("hand", [], all)` with fewer than three sure alike. Other kinds unchanged."""
    if kind != "kong" or all(sure(t) for t in tiles):
        return kind, tiles, []
    good = [t for t in tiles if sure(t)]
    code, n = Counter(t.code for t in good).most_common(1)[0] if good else ("", 0)
    if n < 3:
        return "hand", [], tiles
    keep = [t for t in tiles if t.code == code and sure(t)][:3]
    return "pung", keep, [t for t in tiles if t not in keep]


def cut_kong(tiles: list[PhotoTile], claimed: bool) -> str | None:
    """The code of the kong four tiles laid apart with a sideways tile are when three are alike,
    read sure, and the fourth is not and is read unsure (a kong whose tops the photo cut off),
    else None. A sure odd tile is a tile of its own beside a pung (the winning tile laid there)."""
    codes = [t.code for t in tiles]
    if not claimed or len(codes) != 4 or BACK in codes or UNKNOWN in codes:
        return None
    code, n = Counter(codes).most_common(1)[0]
    alike = [t for t in tiles if t.code == code]
    odd = [t for t in tiles if t.code != code]
    return code if n == 3 and all(sure(t) for t in alike) and not sure(odd[0]) else None


def chows_allowed(variant: str, other_melds: int) -> bool:
    """A claimed chow may be laid apart here: never in 新余; as the fourth meld in 九江 / 星子."""
    rule = load_rules(variant).chow
    if rule == "never":
        return False
    return rule != "fourth_meld_only" or other_melds >= 3


def meld_kind_inside(codes: list[str], claimed: bool) -> str | None:
    """The meld three or four tiles inside the standing hand are, or None. The shape is
    `vision.layout.guess_kind`'s; inside the standing hand an upright pung, kong or chow is
    standing tiles, so it counts only with a sideways tile (`claimed`), and tiles with backs
    only as a concealed kong without one."""
    kind = guess_kind(codes, claimed, fa_is_bonus=False)
    if kind == "concealed_kong":
        return None if claimed else kind
    return kind if claimed and kind in ("pung", "kong", "chow") else None


def melds_inside(tiles: list[PhotoTile], sideways: set[int]) -> tuple[list, list[PhotoTile]]:
    """Melds lying inside a run of standing tiles, the rest: standing tiles never lie sideways
    and are never face down, so three or four tiles around a sideways tile that make a pung,
    kong or chow are a claimed meld, and four tiles with backs whose faces are alike (the
    back-face-face-back of a concealed kong) are a concealed kong. Left to right, longest first;
    no kong of an unsure face (`sure`): four faces all sure, a concealed kong's faces one sure."""
    found: list[tuple[str, list[PhotoTile], bool]] = []
    rest: list[PhotoTile] = []
    i = 0
    while i < len(tiles):
        for n in (4, 3):
            window = tiles[i : i + n]
            claimed = any(t.detection in sideways for t in window)
            kind = meld_kind_inside([t.code for t in window], claimed) if len(window) == n else None
            faces = [t for t in window if t.code != BACK]
            if kind == "kong" and not all(sure(t) for t in faces):
                kind = None  # four faces: each must be read sure
            elif kind == "concealed_kong" and faces and not any(sure(t) for t in faces):
                kind = None  # backs and faces: the kong is named by a sure face
            if kind is not None:
                found.append((kind, window, claimed))
                i += n
                break
        else:
            rest.append(tiles[i])
            i += 1
    return found, rest


__all__ = [
    "SURE_CONF",
    "chows_allowed",
    "cut_kong",
    "inner_groups",
    "meld_kind_inside",
    "melds_inside",
    "set_apart_kind",
    "standing_kind",
    "sure",
    "sure_kong",
]
