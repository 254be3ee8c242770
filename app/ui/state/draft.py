"""The hand in progress as a draft: one JSON object, so the database keeps it and a reload or a
locked phone loses nothing.

Pure (no Streamlit): :func:`to_json` / :func:`from_json` turn a `HandInProgress` — its tiles
(`EditHand`), how it was won (`Conditions`), the table page's own choices (`TableChoices`:
winner, discarder, 跟庄 facts, 新余 kongs, winners already entered on the same discard) and where
its photo came from — into a JSON object and back, as a whole. The photo itself travels beside
it as bytes (the draft's blob). What the page shows only for the moment (the tapped tile, undo,
messages) is not kept. A draft that does not read back (an unknown version, a hand-edited row)
gives ``None``: the page starts fresh instead of failing.

The shape (version 1): ``{"v": 1, "hand": {...}, "cond": {...}, "table": {...}, "photo_src": ...,
"boxes": {...}, "learned": ...}``, ``table`` only on the 牌局 page, ``boxes`` only with a photo: the
boxes the player saw (`app.ui.state.draft_boxes`: a restored draft shows them, never a new reading),
``learned`` only once the score page is done learning the hand (`HandInProgress.learned`).

>>> from app.ui.state import Conditions, EditHand
>>> hip = HandInProgress(hand=EditHand.typed(["1m", "1m"]), cond=Conditions(variant="xingzi"),
...                      table=TableChoices(winner=2), photo_src="upload")
>>> back = from_json(to_json(hip))
>>> [t.code for t in back.hand.concealed], back.cond.variant, back.table.winner, back.photo_src
(['1m', '1m'], 'xingzi', 2, 'upload')
"""

from __future__ import annotations

from dataclasses import MISSING, Field, asdict, fields
from typing import TYPE_CHECKING, Any

from app.ui.state import Conditions, EditHand, EditMeld, EditTile, Seat, draft_boxes
from app.ui.state.progress import PHOTO_SOURCES, HandInProgress, TableChoices
from ledger.errors import LedgerError
from ledger.parse import read_winner

if TYPE_CHECKING:
    from vision.detection import DetectResult

__all__ = ["VERSION", "TableChoices", "from_json", "photo_boxes", "to_json"]

VERSION = 1
V1_FIELDS = ("winner", "discarder", "followed", "dragon", "second", "kongs", "pending", "seen")
"""The `TableChoices` fields of version 1, always written. A field added since is written only
when it differs from its default, so a draft of that shape is written again byte for byte (and
read back by an older server) — a new field needs no line here."""


def to_json(hip: HandInProgress) -> dict[str, Any]:
    """The draft of `hip` (JSON values only)."""
    out: dict[str, Any] = {"v": VERSION, "hand": asdict(hip.hand), "cond": asdict(hip.cond)}
    if hip.table is not None:
        c = hip.table
        table = {f.name: getattr(c, f.name) for f in fields(c)}
        table["kongs"] = {str(s): list(v) for s, v in c.kongs.items()}  # JSON: keys are text
        table["pending"] = [w.to_json() for w in c.pending]
        out["table"] = {k: v for k, v in table.items() if k in V1_FIELDS or v != _DEFAULTS[k]}
    out["photo_src"] = hip.photo_src
    if hip.photo is not None:
        out["boxes"] = draft_boxes.to_json(hip.photo.result, hip.photo.refs, hip.photo.digest)
    elif hip.photo_unshown:  # its photo not shown again on restore (the server busy): kept as stored
        out.update(hip.photo_unshown)
    if hip.learned:
        out["learned"] = hip.learned
    return out


def photo_boxes(data: Any) -> tuple[DetectResult, int, str] | None:
    """The boxes of the draft's photo, how many learned tiles it was read with and its digest
    (`draft_boxes.from_json`), or None: a draft without them (an older release's) has its photo read
    again."""
    return draft_boxes.from_json(data.get("boxes")) if isinstance(data, dict) else None


def _default(f: Field[Any]) -> Any:
    return f.default_factory() if f.default is MISSING else f.default  # type: ignore[operator]


_DEFAULTS = {f.name: _default(f) for f in fields(TableChoices)}


def _tile(d: dict[str, Any]) -> EditTile:
    """A tile as written by `asdict`; its `uncertain` flag too (after a reload the reader's
    doubtful tiles keep their red frames and the "check the red tiles" hint)."""
    return EditTile(str(d["code"]), d.get("conf"), d.get("detection"), bool(d.get("uncertain", False)))


def from_json(data: Any) -> HandInProgress | None:
    """The hand in progress a draft holds (not started: the page starts it), or None when it
    does not read back. ``photo_src`` says where its photo came from; the photo itself is read
    again from the draft's bytes by the page."""
    try:
        if not isinstance(data, dict) or data.get("v") != VERSION:
            return None
        h, c = data["hand"], data["cond"]
        hand = EditHand(
            concealed=tuple(_tile(t) for t in h["concealed"]),
            melds=tuple(EditMeld(m["kind"], tuple(_tile(t) for t in m["tiles"])) for m in h["melds"]),
            winning_index=h.get("winning_index"),
            bonus_tiles=int(h.get("bonus_tiles", 0)),
        )
        seats = {k: Seat(**v) for k, v in c["seats"].items()}
        cond = Conditions(**{**c, "seats": seats, "events": list(c["events"])})
        table = None
        if "table" in data:
            t = data["table"]
            table = _choices(t, cond.variant) if isinstance(t, dict) else TableChoices()
        src = data.get("photo_src", "manual")
        learned = data.get("learned", "")
        return HandInProgress(
            hand=hand,
            cond=cond,
            table=table,
            photo_src=src if src in PHOTO_SOURCES else "manual",
            learned=learned if isinstance(learned, str) else "",
        )
    except (KeyError, TypeError, ValueError, AttributeError, LedgerError):
        return None


def _choices(data: dict[str, Any], variant: str) -> TableChoices:
    """The table page's choices as `to_json` wrote them: kongs by seat index, the winners
    entered before read back as the ledger reads a winner."""
    c = TableChoices(**data)
    c.kongs = {int(s): (int(e), int(k)) for s, (e, k) in c.kongs.items()}
    c.pending = [read_winner(variant, w, c.discarder) for w in c.pending]
    return c
