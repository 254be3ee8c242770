"""Photo -> hand: the one step from a `vision.DetectResult` to a hand guess (CLI and web app).

`hand_from_photo(result, variant)` reads the layout groups of `vision.layout` with the rules
of one variant (DECISIONS §1.1 tile set: 發 is a bonus tile set aside in 九江/星子, an
ordinary tile in 新余):

| group (`kind_guess`) | becomes |
|---|---|
| `pung` `kong` `concealed_kong` | a meld; a concealed kong's backs take the name of its faces |
| `chow` | a meld when a tile lies sideways and the variant claims one here, else standing tiles |
| a set inside the standing row (standing sets left and right), no tile sideways | standing tiles |
| 4 tiles with backs, all faces alike | a concealed kong (暗杠) |
| `bonus`, and every 發 anywhere (九江/星子) | bonus tiles set aside |
| `bonus` in 新余 | its own kind again (`FFF` a pung), else standing tiles |
| `flowers`, a flower tile anywhere | left out |
| `winning_tile` | the winning tile, standing in the hand |
| `hand`, `unknown` | standing tiles |

A kong is never completed by an unsure reading, and four laid apart with a sideways tile, three
alike, are that kong with the odd reading flagged (`app.photo_melds`).

**A face-down tile that is not part of a kong** (one back in the standing hand, four backs
whose tile cannot be seen) is kept as an unknown tile `?` with `conf` 0, where it lies: the
tile count stays right and the player names it. Decided once, for both users: the app shows
it as a `?` to tap; `HandGuess.to_score_json` (the CLI's score JSON, which has no unknown
tile) leaves unknown tiles out and its note says so.

Every tile keeps its detection index and confidence, so the app can mark it on the photo.
Every guess and every tile left out is a `Note` with a stable `code` and an English `text`
(printed by the CLI; the web app shows the hand itself, not the notes). The values (`HandGuess`,
`PhotoTile`, `PhotoMeld`, `Note`) live in the leaf `app.photo_guess` and are importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.photo_check import second_readings
from app.photo_guess import MAX_BONUS, NOTE_CODES, UNKNOWN, HandGuess, Note, PhotoMeld, PhotoTile, tile_string
from app.photo_melds import (
    chows_allowed,
    cut_kong,
    inner_groups,
    melds_inside,
    set_apart_kind,
    sure,
    sure_kong,
)
from app.photo_melds import meld_kind_inside as _meld_kind  # noqa: F401  (tests name it so)
from scoring.model import MELD_KINDS
from scoring.rules import load_rules
from scoring.tiles import ALL_TILES, TILE_CODES
from vision.detection import BACK, FLOWER, Detection, DetectResult, Group
from vision.layout import group_tiles, guess_kind

MAX_HAND_TILES = 18
"""The most tiles a winning hand holds (four kongs and a pair), flowers and bonus 發 aside."""


def hand_from_photo(result: DetectResult, variant: str, *, whole: bool = False) -> HandGuess:
    """Guess the hand of `result` under the rules of `variant` (the module's table).

    Args:
        result: tiles and layout groups of one photo (`TileReader.detect`); without groups
            (a hand-made result), `vision.layout.group_tiles` makes them of the tiles not
            `off_row`.
        variant: `jiujiang`, `xingzi` or `xinyu`.
        whole: take every tile of the groups even when they are more than a hand (the web app:
            it says so and offers its own likeliest hand one tap away, `app.ui.state.too_many`).

    Returns:
        A `HandGuess`; each detection is used at most once. Only tiles whose role is `hand`
        or `meld` are used (the groups hold no others). When the groups hold more than
        `MAX_HAND_TILES` tiles and not `whole`, the likeliest hand of them (`_likeliest`) and
        a `too_many_tiles` note (the CLI). A standing tile whose runner-up reading alone makes
        a hand that is not whole whole is `uncertain` (`app.photo_check`).

    Raises:
        HandError: `variant` is unknown (`unknown_variant`, from `scoring.rules.load_rules`).
    """
    bonus_code = _bonus_code(variant)
    dets = result.detections
    guess = HandGuess()
    groups, total = _likeliest(result.groups or _layout(dets), dets, bonus_code)
    if whole:
        groups = list(result.groups or _layout(dets))
    elif total > MAX_HAND_TILES:
        guess.notes.append(Note("too_many_tiles", count=total))
    inner = inner_groups(groups)
    win_det: int | None = None
    hand_groups: list[Group] = []
    chows: list[PhotoMeld] = []
    flowers = 0
    for k, g in enumerate(groups):
        codes = [_code(dets[i].tile) for i in g.tiles]
        kind = g.kind_guess
        if kind == "bonus" and bonus_code is None:
            kind = guess_kind(codes, g.claimed, fa_is_bonus=False) if len(codes) > 1 else "hand"
            kind = "hand" if kind in ("unknown", "bonus") else kind
        if kind == "chow" and not g.claimed:
            kind = "hand"  # an upright run set apart is a player spacing the hand (the sample photo)
        kind = set_apart_kind(kind, g, k in inner)  # inside the standing row: standing tiles
        tiles: list[PhotoTile] = []
        set_aside = 0
        for i, code in zip(g.tiles, codes, strict=True):
            tile = PhotoTile(code, i, float(dets[i].conf), dets[i].uncertain)
            if code == FLOWER:
                flowers += 1
            elif code == bonus_code:
                guess.bonus.append(tile)
                set_aside += 1
                if kind != "bonus":
                    guess.notes.append(Note("fa_in_hand"))
            else:
                tiles.append(tile)
        if kind == "bonus":
            guess.notes.append(Note("bonus_set_apart", count=set_aside))
        shape = guess_kind([t.code for t in tiles], g.claimed, fa_is_bonus=False)  # 發, flowers taken out
        if kind not in MELD_KINDS and shape == "concealed_kong":
            kind = shape
        if not tiles:
            continue
        odd = cut_kong(tiles, g.claimed) if kind not in MELD_KINDS and k not in inner else None
        if odd is not None:  # a kong laid apart, one reading wrong: the kong, that tile to check
            tiles = [t if t.code == odd else PhotoTile(odd, t.detection, 0.0, True) for t in tiles]
            kind, rest = "kong", list[PhotoTile]()
        else:  # an unsure reading never completes a kong
            kind, tiles, rest = sure_kong(kind, tiles)
        if kind in MELD_KINDS:
            meld = _meld(kind, tiles, [t.code for t in tiles if t.code != BACK], g.claimed, guess.notes)
            (chows if kind == "chow" else guess.melds).append(meld)
            if not rest:
                continue
            tiles, kind = rest, "hand"
        if kind in ("hand", "unknown") and len(tiles) > 2:
            found, tiles = melds_inside(tiles, {i for i in g.tiles if dets[i].rotated})
            for kk, ts, c in found:
                meld = _meld(kk, ts, [t.code for t in ts if t.code != BACK], c, guess.notes)
                (chows if kk == "chow" else guess.melds).append(meld)
        if kind == "hand":
            hand_groups.append(g)
        for t in tiles:
            if t.code == BACK:
                guess.notes.append(Note("face_down_in_hand"))
                t = PhotoTile(UNKNOWN, t.detection, 0.0, True)
            elif kind == "winning_tile":
                win_det = t.detection
                guess.notes.append(Note("winning_set_apart", tiles=t.code))
            guess.concealed.append(t)
    if chows and chows_allowed(variant, len(guess.melds)):
        guess.melds += chows
    else:  # a run the variant cannot claim here: standing tiles (its note goes with it)
        guess.concealed += [t for m in chows for t in m.tiles]
        guess.notes[:] = [n for n in guess.notes if not (n.code == "meld_guessed" and n.kind == "chow")]
    if flowers:
        guess.notes.append(Note("flowers_left_out", count=flowers))
    if len(guess.bonus) > MAX_BONUS:
        guess.notes.append(Note("too_many_bonus", count=len(guess.bonus)))
    guess.winning_index = _winning_index(guess, win_det, hand_groups)
    return second_readings(guess, dets, variant)  # a tile whose runner-up reading makes it whole


def _layout(dets: Sequence[Detection]) -> list[Group]:
    """`vision.layout.group_tiles` over the tiles of the hand (not `off_row`), indices into `dets`."""
    inside = [i for i, d in enumerate(dets) if not d.off_row]
    return [g.reindexed(dict(enumerate(inside))) for g in group_tiles([dets[i] for i in inside])]


def _likeliest(
    groups: Sequence[Group], dets: Sequence[Detection], bonus_code: str | None
) -> tuple[list[Group], int]:
    """The groups that can be one winning hand, and how many tiles all `groups` hold (flowers
    and bonus 發 not counted).

    Up to `MAX_HAND_TILES` tiles: all of them. More (a photo of several rows, a hand row with
    a second player's tiles beside it): the row of the main standing set (the longest `hand`
    group, nearest the image bottom on a tie), then the sets laid apart
    (`vision.roles.meld_roles`) of the other rows, nearest rows first, while they fit."""

    def counted(g: Group) -> int:
        return sum(1 for i in g.tiles if _code(dets[i].tile) not in (FLOWER, bonus_code))

    total = sum(counted(g) for g in groups)
    if total <= MAX_HAND_TILES:
        return list(groups), total
    from vision.roles import meld_roles  # numpy: only for a photo of more tiles than a hand

    standing = [g for g in groups if g.kind_guess == "hand"] or list(groups)
    main = max(standing, key=lambda g: (counted(g), g.row))
    keep = {k for k, g in enumerate(groups) if g.row == main.row}
    n = sum(counted(groups[k]) for k in keep)
    for k in sorted(range(len(groups)), key=lambda k: abs(groups[k].row - main.row)):
        g = groups[k]
        if k not in keep and meld_roles([g]) and n + counted(g) <= MAX_HAND_TILES:
            keep.add(k)
            n += counted(g)
    return [g for k, g in enumerate(groups) if k in keep], total


def _bonus_code(variant: str) -> str | None:
    bonus = load_rules(variant).bonus_tile
    return None if bonus is None else ALL_TILES[bonus].code


def _code(tile: str) -> str:
    return tile if tile in TILE_CODES or tile in (BACK, FLOWER) else UNKNOWN


def _meld(kind: str, tiles: list[PhotoTile], faces: list[str], claimed: bool, notes: list[Note]) -> PhotoMeld:
    """A meld of `kind`: a concealed kong's backs take its faces' name (all unknown when it shows
    none) and it is completed to four tiles."""
    if kind == "concealed_kong":
        named = [t.code for t in tiles if t.code != BACK and sure(t)]
        name = named[0] if named else faces[0] if faces else UNKNOWN
        unknown = name == UNKNOWN
        tiles = [
            t if t.code == name else PhotoTile(name, t.detection, 0.0 if unknown else t.conf, unknown)
            for t in tiles
        ]
        tiles += [PhotoTile(name, None, 0.0, unknown) for _ in range(4 - len(tiles))]
        if unknown:
            notes.append(Note("hidden_kong"))
            return PhotoMeld(kind, tuple(tiles), claimed)
    meld = PhotoMeld(kind, tuple(tiles), claimed)
    notes.append(
        Note("meld_guessed", tiles=tile_string(meld.codes), count=len(tiles), kind=kind, claimed=claimed)
    )
    return meld


def _winning_index(guess: HandGuess, win_det: int | None, hand_groups: list[Group]) -> int | None:
    """The tile set apart; else the rightmost known tile of the longest standing set."""
    standing = guess.concealed
    if win_det is not None:
        return next(k for k, t in enumerate(standing) if t.detection == win_det)
    if hand_groups:
        main = max(hand_groups, key=lambda g: len(g.tiles))
        for i in reversed(main.tiles):
            k = next((k for k, t in enumerate(standing) if t.detection == i and t.code != UNKNOWN), None)
            if k is not None:
                guess.notes.append(Note("winning_rightmost", tiles=standing[k].code))
                return k
    return None


__all__ = [
    "MAX_HAND_TILES",
    "NOTE_CODES",
    "TILE_CODES",
    "UNKNOWN",
    "HandGuess",
    "Note",
    "PhotoMeld",
    "PhotoTile",
    "hand_from_photo",
]
