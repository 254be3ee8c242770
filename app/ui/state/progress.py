"""The hand in progress: everything one page (计分) or one table (牌局) holds of the hand the
player is entering, as one object.

No Streamlit here: `app.ui.hand.session` keeps one `HandInProgress` in `st.session_state` and
every section edits it through the methods below; `app.ui.state.draft` turns it into a draft
and back as a whole.

>>> hip = HandInProgress()
>>> hip.start(EditHand.typed(["1m", "1m"]), Conditions(variant="xingzi"))
>>> hip.set_hand(hip.hand.plus("2m"))
>>> [t.code for t in hip.hand.concealed], len(hip.undo), hip.undo_edit(), len(hip.hand.concealed)
(['1m', '1m', '2m'], 1, None, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from app.ui.state.conditions import Conditions
from app.ui.state.hand import EditHand
from app.ui.state.tiles import Selection
from ledger.recorded import Winner

if TYPE_CHECKING:
    from app.ui.flash import Flash
    from app.ui.state.photo import Photo

__all__ = ["KEPT", "KEPT_SOURCES", "PHOTO_SOURCES", "UNDO_DEPTH", "HandInProgress", "TableChoices"]

UNDO_DEPTH = 30
"""Earlier hands kept for undo, at most (the oldest go first)."""
PHOTO_SOURCES = ("sample", "upload", "camera", "manual", "sample_manual", "typed")
"""Where the hand came from: a photo (the bundled sample, an upload, the camera), entered by hand,
the sample's true tiles (no reader), or typed over a photo (its boxes drawn grey)."""
KEPT_SOURCES = ("upload", "camera")
"""The photos whose bytes a draft keeps (the sample is read again from the app's own file)."""


@dataclass(slots=True)
class TableChoices:
    """What the table page asks besides the hand: ``winner`` seat (0-3, None: not chosen),
    ``discarder`` seat (None: 自摸), 跟庄 facts, 新余 ``kongs`` of the other seats
    (``{seat: (exposed, concealed)}``, as `ledger.Hand.kongs`), ``pending``: the winners
    (`ledger.Winner`) already entered on this discard (一炮多响), ``declarer``: the seat a 炸糊
    would be recorded on (None: not chosen), ``note``: the player's note on the hand
    (`ledger.Hand.note`); ``seen``: the table's revision this phone showed when the hand was
    begun — a record checks it, so a table changed meanwhile is a conflict, never a double.
    Every field belongs to one hand: the next hand starts from ``TableChoices()``."""

    winner: int | None = None
    discarder: int | None = None
    followed: bool = False
    dragon: bool = False
    second: bool = False
    kongs: dict[int, tuple[int, int]] = field(default_factory=dict)
    pending: list[Winner] = field(default_factory=list)
    declarer: int | None = None
    note: str = ""
    seen: int | None = None

    @property
    def begun(self) -> bool:
        """Anything chosen besides the hand (a winner, 跟庄, kongs, a winner entered before)."""
        return (
            self.winner is not None
            or self.followed
            or bool(self.pending)
            or self.declarer is not None
            or bool(self.note.strip())
            or any(any(v) for v in self.kongs.values())
        )


KEPT = ("ns", "flash", "photo_seen", "saved", "saved_photo")
"""The fields of a `HandInProgress` that outlive its hand (`HandInProgress.start`): whose hand
it is, the messages posted for the page (a record's outcome is posted as the next hand begins),
the uploads already read (the uploader keeps its file after a record: it is not the next hand's
photo) and what the draft store holds. Every other field starts as a brand-new one has it."""


@dataclass(slots=True, eq=False)
class HandInProgress:
    """One hand being entered, mutated only through its methods (and `Conditions`' own fields,
    which the condition widgets write).

    Attributes:
        ns: whose hand it is: ``"score"`` or ``"table:CODE"`` (`app.ui.hand.session.use`).
        started: the page has begun it (from a draft, the sample, or empty); until then the
            fields are defaults and only `flash` is used.
        hand: the tiles (`EditHand`). cond: how it was won, who pays (`Conditions`).
        table: the 牌局 page's own choices (`TableChoices`); None on the 计分 page.
        sel: the tapped tile. picker: ``"add"`` while the add-a-tile picker is open, else None.
        undo: earlier hands, newest last, at most `UNDO_DEPTH` + 1.
        panel_msg: a refused edit, said inside the tile panel. typed_msg: a tile string that
            could not be read, said under its box. flash: messages posted for a place on the
            page, shown once (`app.ui.flash`).
        photo: the photo read last (`app.ui.state.photo.Photo`, its boxes are drawn), or None.
        photo_src: one of `PHOTO_SOURCES`. photo_bytes: the bytes `photo` was read from when its
            source is one of `KEPT_SOURCES`, else None (a draft keeps them; a table learns from
            them), until the stored draft holds them: then None and `photo_stored` (issue 37: a
            session, kept 2 minutes after its phone left, held its photos; they are read back
            from the store when needed, `app.ui.drafting.photo_data`).
            photo_seen: file ids of uploads already read (a rerun does not read them again).
            photo_digest: the sha256 of `photo_bytes` when `photo` was read from them
            (`Photo.digest`: the draft store need not hash ~2 MB again), else None.
        timing: ``{"start", "read", "total"}`` in seconds (`time.perf_counter`) of the last photo
            read, or None. bad_numbers: keys of the number widgets whose entry is not a whole
            number in range (`app.ui.hand.numbers`).
        saved: ``(key, draft)``: the draft as last written to or read from the store.
        saved_photo: the photo the stored draft's bytes belong to (a new one is written with
            the next save).
        learned: the identity of the photo hand the score page is done learning (taught, found
            taught, or forgotten with 忘掉: `app.ui.score.learn.identity`), "" for none; kept in
            the draft, so a reload does not teach again a hand the player had it forget.
        photo_unshown: the stored draft's ``photo_src`` and ``boxes`` while its photo could not
            be shown again (the server busy reading other photos): written back with each save
            (`app.ui.state.draft.to_json`), so a busy moment does not make a photo hand typed
            and its boxes lost; None once a photo is shown or the hand typed over.
    """

    ns: str | None = None
    started: bool = False
    hand: EditHand = field(default_factory=EditHand)
    cond: Conditions = field(default_factory=Conditions)
    table: TableChoices | None = None
    sel: Selection | None = None
    picker: str | None = None
    undo: list[EditHand] = field(default_factory=list)
    panel_msg: Flash | None = None
    typed_msg: Flash | None = None
    flash: list[Flash] = field(default_factory=list)
    photo: Photo | None = None
    photo_src: str = "manual"
    photo_bytes: bytes | None = None
    photo_stored: bool = False
    photo_digest: str | None = None
    photo_seen: set[str] = field(default_factory=set)
    timing: dict[str, Any] | None = None
    bad_numbers: set[str] = field(default_factory=set)
    saved: tuple[str, dict[str, Any]] | None = None
    saved_photo: object = None
    learned: str = ""
    photo_unshown: dict[str, Any] | None = None

    # -- the whole hand ----------------------------------------------------------------------

    def start(self, hand: EditHand, cond: Conditions, table: TableChoices | None = None) -> None:
        """Begin a hand: this object becomes a brand-new `HandInProgress` of `hand` and `cond`
        (no photo, nothing selected, no undo, no message about a hand) that keeps only the
        fields named in `KEPT` — a field added later starts fresh with each hand unless named
        there. `table`: the 牌局 page's choices; None keeps them as they are (一炮多响: the next
        winner on the same discard), ``TableChoices()`` for a new hand."""
        fresh = HandInProgress(
            started=True,
            hand=hand,
            cond=cond,
            table=self.table if table is None else table,
            **{name: getattr(self, name) for name in KEPT},
        )
        for f in fields(self):  # in place: the session's object and its holders stay the same
            setattr(self, f.name, getattr(fresh, f.name))

    # -- messages ----------------------------------------------------------------------------

    def post(self, f: Flash) -> None:
        """Queue `f` for its place (``f.where``), shown once (`app.ui.hand.session.show_posted`)."""
        self.flash = [*self.flash, f]

    def take(self, where: str | None = None) -> list[Flash]:
        """The queued messages for `where` (every one left when None), taken off the queue."""
        taken = [f for f in self.flash if where is None or f.where == where]
        self.flash = [f for f in self.flash if not (where is None or f.where == where)]
        return taken

    # -- the tiles ---------------------------------------------------------------------------

    def set_hand(self, hand: EditHand, undoable: bool = True) -> None:
        """Make `hand` current; the one before goes on the undo stack (when `undoable`)."""
        if undoable:
            self.undo = [*self.undo[-UNDO_DEPTH:], self.hand]
        self.hand = hand
        self.panel_msg = None
        self.typed_msg = None

    def undo_edit(self) -> None:
        """Back to the hand before the last edit (none left: the hand stays); nothing selected."""
        if self.undo:
            self.hand = self.undo.pop()
        self.sel = None
        self.panel_msg = None

    def select(self, where: Selection) -> None:
        """Tap a tile: it is selected, or no longer when it was (the picker closes)."""
        self.sel = None if self.sel == where else where
        self.picker = None
        self.panel_msg = None

    def deselect(self) -> None:
        """Nothing selected, the picker closed, the panel's message gone."""
        self.sel = None
        self.picker = None
        self.panel_msg = None

    def open_picker(self) -> None:
        """Open the add-a-tile picker (nothing selected)."""
        self.deselect()
        self.picker = "add"

    # -- the photo ---------------------------------------------------------------------------

    def show_photo(self, photo: Photo | None, source: str, data: bytes | None = None) -> None:
        """The photo now shown (None: none) and where it came from; `data`: the bytes it was
        read from, kept when `source` is one of `KEPT_SOURCES`. The only place the photo changes:
        the next draft saved writes the new bytes (or none). The hand shown and those undo
        brings back are tied to no box of it (a new photo's hand is set after): a box number of
        the photo before names another tile of this one (the score page and a table learned the
        set from the wrong tiles, `app.ui.refsets.photo_boxes`)."""
        self.hand = self.hand.unlinked()
        self.undo = [x.unlinked() for x in self.undo]
        self.photo, self.photo_src, self.photo_unshown = photo, source, None
        self.photo_bytes = bytes(data) if data and source in KEPT_SOURCES else None
        self.photo_digest = (getattr(photo, "digest", "") or None) if self.photo_bytes is not None else None
        self.photo_stored = False

    def photo_restored(
        self, photo: Photo | None, source: str, data: bytes | None, unshown: dict[str, Any] | None = None
    ) -> None:
        """A draft read back: its photo shown again (None: it was not, the hand stays without
        it, and the draft's `unshown` photo source and boxes are kept for the next save) from
        `data`, the bytes the store keeps (kept as they are, whatever the source)."""
        if photo is not None:
            self.photo, self.photo_src = photo, source
        self.photo_unshown = unshown if photo is None else None
        self.photo_bytes, self.photo_stored, self.photo_digest = data, False, None

    def typed_over(self) -> None:
        """A typed tile string replaced the hand: the photo's boxes no longer show it."""
        if self.photo is not None:
            self.photo_src = "typed"
        if self.photo_unshown:  # as a photo shown would be: its boxes, the hand typed
            self.photo_unshown = {**self.photo_unshown, "photo_src": "typed"}

    # -- the draft ---------------------------------------------------------------------------

    @property
    def photo_unsaved(self) -> bool:
        """The photo shown is not the one whose bytes the stored draft holds."""
        return self.photo is not self.saved_photo

    def mark_saved(self, key: str, draft: dict[str, Any]) -> None:
        """The store holds `draft` under `key`, with the bytes of the photo shown now: the
        session lets go of them (`photo_stored`)."""
        self.saved = (key, draft)
        self.saved_photo = self.photo
        if self.photo_bytes is not None:
            self.photo_bytes, self.photo_stored, self.photo_digest = None, True, None

    def is_saved(self, key: str, draft: dict[str, Any]) -> bool:
        """The store already holds `draft` under `key`, and the photo shown."""
        return self.saved == (key, draft) and not self.photo_unsaved

    def forget_saved(self, key: str) -> None:
        """The draft under `key` was deleted: the next save writes it whatever it holds."""
        if self.saved is not None and self.saved[0] == key:
            self.saved = None
