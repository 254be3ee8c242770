"""The protocol every page that enters a hand runs, written once (`hand_page`): the 计分 page
(`app.ui.score.page`) and the 牌局 page's hand (`app.ui.table.record`).

1. make the page's hand current (`session.use`);
2. a hand not begun yet: read its draft back, else begin it (`begin`);
3. read this run's new photo (`photo.take_new_photos`; `before_photo` first);
4. copy this run's widget values into the model (`session.sync_from_widgets`), so the result is
   computed once, up front;
5. the page draws (the ``with`` body);
6. save the draft (not when the body left by an exception: ``st.rerun()`` reruns first, and the
   next run saves).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from app.ui import drafting
from app.ui.hand import session
from app.ui.hand.photo import take_new_photos
from app.ui.state.progress import HandInProgress

__all__ = ["hand_page"]


@contextmanager
def hand_page(
    ns: str,
    draft_key: str,
    begin: Callable[[], None],
    reading: Callable[[], AbstractContextManager[object]] = nullcontext,
    restored: Callable[[HandInProgress], None] | None = None,
    before_photo: Callable[[], None] | None = None,
    save_begun: bool = True,
) -> Iterator[HandInProgress]:
    """Run the page protocol (module docstring) around the ``with`` body, which gets the hand.

    `ns`: whose hand (``"score"``, ``"table:CODE"``). `draft_key`: where its draft is kept.
    `begin`: starts a hand no draft brought back (the sample, an empty hand). `reading`: the
    context a photo is read in (a table's learned tiles), for the draft's photo and a new one.
    `restored`: called with the hand a draft brought back (a table checks its revision).
    `before_photo`: called once before a new photo is read (the score page learns the hand on it).
    `save_begun=False`: a hand `begin` started is not written until it changes (the score page's
    sample: a reload begins it again; a new phone's first run writes no draft, issue 37)."""
    session.use(ns)
    h = session.hip()
    if not h.started:
        with reading():
            back = drafting.restore(draft_key)
        if back and restored is not None:
            restored(h)
        if not h.started:
            begin()
            if not save_begun:
                drafting.begun(draft_key)
    with reading():
        take_new_photos(before_photo)
    session.sync_from_widgets()
    yield h
    drafting.save(draft_key)
