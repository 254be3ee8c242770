"""The hand the player edits: typed, immutable, every edit a method that returns a new hand.

No Streamlit here (plain unit tests in tests/app/test_state.py). The page keeps one
`EditHand` in `st.session_state`; undo keeps the previous ones.

>>> hand = EditHand.typed(["2m", "3m", "4m"])
>>> hand.winning_tile, hand.plus("5m").winning_tile
('4m', '5m')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from app.photo_hand import UNKNOWN, HandGuess
from app.ui.state.tiles import DISSOLVE, SURE_CONF, EditMeld, EditRefused, EditTile, Selection, sort_key
from scoring.model import KONG_KINDS, MELD_KINDS
from scoring.tiles import parse_tile, tile_of


@dataclass(frozen=True, slots=True)
class EditHand:
    """The hand being edited.

    Attributes:
        concealed: the standing tiles, the winning tile among them.
        melds: melds laid apart.
        winning_index: index into `concealed` of the winning tile (None: none chosen).
        bonus_tiles: 發 set aside (九江/星子), 0..4.
    """

    concealed: tuple[EditTile, ...] = ()
    melds: tuple[EditMeld, ...] = ()
    winning_index: int | None = None
    bonus_tiles: int = 0

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def typed(
        cls, codes: Sequence[str], melds: Sequence[tuple[str, Sequence[str]]] = (), bonus: int = 0
    ) -> EditHand:
        """A hand of typed tiles; the last standing tile is the winning tile."""
        hand = cls(
            concealed=tuple(EditTile(c) for c in codes),
            melds=tuple(EditMeld(k, tuple(EditTile(c) for c in m)) for k, m in melds),
            bonus_tiles=bonus,
        )
        return hand._with_default_win()

    @classmethod
    def from_guess(cls, guess: HandGuess) -> EditHand:
        """The hand read from a photo (`app.photo_hand.hand_from_photo`)."""

        def tile(t) -> EditTile:
            return EditTile(t.code, t.conf, t.detection, t.uncertain)

        hand = cls(
            concealed=tuple(tile(t) for t in guess.concealed),
            melds=tuple(EditMeld(m.kind, tuple(tile(t) for t in m.tiles)) for m in guess.melds),
            winning_index=guess.winning_index,
            bonus_tiles=guess.bonus_tiles,
        )
        return hand._with_default_win()

    def unlinked(self) -> EditHand:
        """This hand with no tile tied to a box (`EditTile.detection`): its photo is no longer shown."""

        def free(tiles: tuple[EditTile, ...]) -> tuple[EditTile, ...]:
            return tuple(replace(t, detection=None) for t in tiles)

        melds = tuple(replace(m, tiles=free(m.tiles)) for m in self.melds)
        return replace(self, concealed=free(self.concealed), melds=melds)

    # -- reading ----------------------------------------------------------------------------

    @property
    def winning_tile(self) -> str | None:
        if self.winning_index is None or not 0 <= self.winning_index < len(self.concealed):
            return None
        return self.concealed[self.winning_index].code

    @property
    def tiles(self) -> list[EditTile]:
        """Every tile: standing, then the melds'."""
        return [*self.concealed, *(t for m in self.melds for t in m.tiles)]

    @property
    def is_empty(self) -> bool:
        return not self.concealed and not self.melds

    @property
    def tile_count(self) -> int:
        """Tiles as the count rule sees them: a kong counts 3 (14 for every complete hand)."""
        return len(self.concealed) + sum(3 for _ in self.melds)

    def kong_candidates(self) -> list[int]:
        """When the hand has more than 14 tiles (a kong counts 3): the index of one tile of
        each code that stands four times, each read sure — a kong the photo did not lay apart
        (asked, never assumed). An unsure reading never completes a kong (issue 36 item 5: a
        flower read as 七万 at 33 % beside 777m)."""
        if self.tile_count <= 14:
            return []
        first: dict[str, int] = {}
        seen: dict[str, int] = {}
        for i, t in enumerate(self.concealed):
            seen[t.code] = seen.get(t.code, 0) + (0 if t.needs_check else 1)
            first.setdefault(t.code, i)
        return [first[c] for c, n in seen.items() if n == 4 and c != UNKNOWN]

    def at(self, sel: Selection) -> EditTile:
        """The selected tile. Raises IndexError when the hand changed under the selection."""
        return self.concealed[sel.index] if sel.meld is None else self.melds[sel.meld].tiles[sel.index]

    # -- edits (each returns a new hand) -----------------------------------------------------

    def with_tile(self, sel: Selection, code: str) -> EditHand:
        """The selected tile named `code`. In a concealed kong the four tiles are one name."""
        if sel.meld is None:
            tiles = list(self.concealed)
            tiles[sel.index] = tiles[sel.index].named(code)
            return replace(self, concealed=tuple(tiles))
        melds = list(self.melds)
        m = melds[sel.meld]
        same = m.kind in KONG_KINDS and len(set(m.codes)) == 1
        named = tuple(t.named(code) if same or k == sel.index else t for k, t in enumerate(m.tiles))
        melds[sel.meld] = replace(m, tiles=named)
        return replace(self, melds=tuple(melds))

    def without(self, sel: Selection) -> EditHand:
        """The selected tile taken out (an emptied meld goes too)."""
        if sel.meld is not None:
            melds = list(self.melds)
            m = melds[sel.meld]
            rest = m.tiles[: sel.index] + m.tiles[sel.index + 1 :]
            melds[sel.meld : sel.meld + 1] = [replace(m, tiles=rest)] if rest else []
            return replace(self, melds=tuple(melds))
        i, win = sel.index, self.winning_index
        if win is not None:
            win = None if win == i else win - (win > i)
        tiles = self.concealed[:i] + self.concealed[i + 1 :]
        return replace(self, concealed=tiles, winning_index=win)._with_default_win()

    def plus(self, code: str) -> EditHand:
        """`code` added at the end of the standing tiles; the tile picked last is the winning tile."""
        return replace(self, concealed=(*self.concealed, EditTile(code)), winning_index=len(self.concealed))

    def with_winning(self, index: int) -> EditHand:
        return replace(self, winning_index=index)

    def sorted(self) -> EditHand:
        """Standing tiles in tile order; the winning tile keeps its mark."""
        order = sorted(range(len(self.concealed)), key=lambda k: (sort_key(self.concealed[k].code), k))
        win = order.index(self.winning_index) if self.winning_index is not None else None
        return replace(self, concealed=tuple(self.concealed[k] for k in order), winning_index=win)

    def with_bonus(self, n: int) -> EditHand:
        return replace(self, bonus_tiles=max(0, min(4, int(n))))

    def with_meld(self, index: int, kind: str) -> EditHand:
        """Standing tile `index` and the tiles that complete a `kind` with it, laid apart.

        The winning tile is used last. A declared meld cannot hold the tile won on, so when
        it had to be taken (a kong of all four copies), the winning mark moves to the last
        standing tile, for the player to check.

        Raises:
            EditRefused: `msg.meld_needs_tiles` (the tiles are not standing) or
                `msg.chow_needs_suit` (a chow of an honour).
        """
        code = self.concealed[index].code
        for need in _meld_shapes(code, kind):
            chosen = self._take(index, need)
            if chosen is not None:
                return self._lay_apart(chosen, kind)
        if kind == "chow" and _honour_or_unknown(code):
            raise EditRefused("msg.chow_needs_suit")
        raise EditRefused("msg.meld_needs_tiles", kind=kind)

    def with_meld_kind(self, j: int, kind: str) -> EditHand:
        """Meld `j` as `kind`: pung <-> kong kinds add or drop the fourth tile (a pung made a
        kong takes the fourth copy from the standing tiles when one stands there, so the hand
        never holds five); `DISSOLVE` puts its tiles back among the standing ones."""
        melds = list(self.melds)
        m = melds[j]
        if kind == DISSOLVE:
            del melds[j]
            return replace(self, concealed=self.concealed + m.tiles, melds=tuple(melds))._with_default_win()
        tiles, hand = m.tiles, self
        if kind in KONG_KINDS and len(tiles) == 3 and len(set(m.codes)) == 1:
            fourth = self._fourth(tiles[0].code)  # the fourth copy standing joins the kong: no fifth
            if fourth is None:
                tiles = (*tiles, EditTile(tiles[0].code))
            else:
                tiles, hand = (*tiles, self.concealed[fourth]), self.without(Selection(fourth))
        elif kind not in KONG_KINDS and len(tiles) == 4:
            tiles = tiles[:3]
        melds[j] = EditMeld(kind, tiles)
        return replace(hand, melds=tuple(melds))

    def without_meld(self, j: int) -> EditHand:
        """Meld `j` taken out whole (its photo tiles go back among the greyed ones)."""
        return replace(self, melds=self.melds[:j] + self.melds[j + 1 :])

    def with_photo_tiles(self, tiles: Sequence[EditTile]) -> EditHand:
        """`tiles` (tiles of the photo left out, `photo_tiles.photo_tile`) put back among the
        standing tiles, after them; the winning tile keeps its mark."""
        return replace(self, concealed=(*self.concealed, *tiles))._with_default_win()

    def without_detections(self, detections: Collection[int]) -> EditHand:
        """Every tile that comes from one of `detections` taken out (a meld of them goes whole)."""
        drop = set(detections)
        keep = [i for i, x in enumerate(self.concealed) if x.detection not in drop]
        win = self.winning_index
        melds = tuple(m for m in self.melds if not any(x.detection in drop for x in m.tiles))
        hand = replace(
            self,
            concealed=tuple(self.concealed[i] for i in keep),
            melds=melds,
            winning_index=keep.index(win) if win in keep else None,
        )
        return hand._with_default_win()

    # -- helpers ----------------------------------------------------------------------------

    def _take(self, index: int, need: list[str]) -> list[int] | None:
        """Indices of standing tiles that make `need`, tile `index` first, the winning tile last."""
        rest = list(need)
        rest.remove(self.concealed[index].code)
        chosen = [index]
        order = [k for k in range(len(self.concealed)) if k not in (index, self.winning_index)]
        if self.winning_index is not None and self.winning_index != index:
            order.append(self.winning_index)
        for k in order:
            code = self.concealed[k].code
            if code in rest:
                rest.remove(code)
                chosen.append(k)
        return None if rest else chosen

    def _fourth(self, code: str) -> int | None:
        """A standing `code` to complete a kong with, the rightmost: not the winning tile unless
        it is the only one."""
        found = [k for k, x in enumerate(self.concealed) if x.code == code][::-1]
        return next((k for k in found if k != self.winning_index), found[0] if found else None)

    def _lay_apart(self, chosen: list[int], kind: str) -> EditHand:
        tiles = sorted((self.concealed[k] for k in chosen), key=lambda t: sort_key(t.code))
        keep = [k for k in range(len(self.concealed)) if k not in chosen]
        win = self.winning_index
        if win in chosen:
            won = self.concealed[win].code
            win = next(
                (k for k in reversed(keep) if self.concealed[k].code == won), keep[-1] if keep else None
            )
        standing = tuple(self.concealed[k] for k in keep)
        new_win = keep.index(win) if win is not None else None
        return replace(
            self, concealed=standing, melds=(*self.melds, EditMeld(kind, tuple(tiles))), winning_index=new_win
        )

    def _with_default_win(self) -> EditHand:
        """No winning tile (or a stale index): the last standing tile is the winning tile."""
        if not self.concealed:
            return replace(self, winning_index=None)
        if self.winning_index is None or self.winning_index >= len(self.concealed):
            return replace(self, winning_index=len(self.concealed) - 1)
        return self


def _honour_or_unknown(code: str) -> bool:
    """No suited tile (an honour or `?`): it makes no chow."""
    tile = tile_of(code)
    return tile is None or tile.is_honour


def _meld_shapes(code: str, kind: str) -> list[list[str]]:
    """The tile lists a `kind` holding `code` can be (a chow: the three runs through it)."""
    if kind == "chow":
        if _honour_or_unknown(code):
            return []
        tile = parse_tile(code)
        r, s = tile.rank, tile.suit
        return [[f"{k}{s}" for k in range(a, a + 3)] for a in (r - 2, r - 1, r) if 1 <= a <= 7]
    return [[code] * (4 if kind in KONG_KINDS else 3)]


__all__ = [
    "DISSOLVE",
    "MELD_KINDS",
    "SURE_CONF",
    "EditHand",
    "EditMeld",
    "EditRefused",
    "EditTile",
    "Selection",
    "sort_key",
]
