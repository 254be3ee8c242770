"""A server-wide limit on how many photos are read (decoded + detected) at the same time.

Decoding costs up to `vision.image.DECODE_BUDGET` (384 MiB) plus the result per photo, so N
users uploading at once must not decode N photos at once: `photo_slot()` lets `SLOTS` reads
run (default 2, `$JXMJ_PHOTO_SLOTS`); the others wait for a free slot — with `waiting()`
shown meanwhile, e.g. a spinner — for at most `WAIT_SECONDS`, then `PhotoBusy` is raised (the
app says "busy, try again"; the hand is kept). One semaphore per server process: every
Streamlit session is a thread of it.

>>> with photo_slot():
...     free_slots() == SLOTS - 1
True
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

__all__ = ["SLOTS", "WAIT_SECONDS", "PhotoBusy", "free_slots", "photo_slot"]


def _slots_from_env() -> int:
    try:
        return max(1, int(os.environ.get("JXMJ_PHOTO_SLOTS", "2")))
    except ValueError:
        return 2


SLOTS = _slots_from_env()
"""Photo reads that may run at once in one server process."""

WAIT_SECONDS = 120.0
"""How long a read waits for a slot before `PhotoBusy`."""

_slots = threading.BoundedSemaphore(SLOTS)
_lock = threading.Lock()
_in_use = 0


class PhotoBusy(Exception):
    """No slot became free within `WAIT_SECONDS` (the server is reading other photos)."""


def free_slots() -> int:
    """Slots free right now (for tests and diagnostics)."""
    with _lock:
        return SLOTS - _in_use


@contextlib.contextmanager
def photo_slot(
    waiting: Callable[[], AbstractContextManager[object]] | None = None,
    timeout: float | None = None,
) -> Iterator[None]:
    """Hold one of the `SLOTS` for the body; wait (inside `waiting()`) when none is free.

    Args:
        waiting: called only when the read has to wait; the context manager it returns is
            entered while waiting (the app passes `lambda: st.spinner(...)`).
        timeout: seconds to wait at most (default `WAIT_SECONDS`).

    Raises:
        PhotoBusy: no slot was free within the timeout.
    """
    global _in_use
    acquired = _slots.acquire(blocking=False)
    if not acquired:
        with waiting() if waiting is not None else contextlib.nullcontext():
            acquired = _slots.acquire(timeout=WAIT_SECONDS if timeout is None else timeout)
    if not acquired:
        raise PhotoBusy(f"all {SLOTS} photo slots stayed busy")
    with _lock:
        _in_use += 1
    try:
        yield
    finally:
        with _lock:
            _in_use -= 1
        _slots.release()
