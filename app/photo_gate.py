"""A server-wide limit on the photos read (decoded + detected) at the same time.

One photo read may hold up to `vision.image.DECODE_BUDGET` (256 MiB) for a decode plus the
reduced picture it keeps meanwhile, so N users uploading at once must not decode N photos at
once. `photo_slot(cost=...)` admits a read when fewer than `SLOTS` reads run (default one a
CPU, at most 4; `$JXMJ_PHOTO_SLOTS`) and their costs (`vision.image.read_cost`:
what the decoder really holds — JPEG coefficient buffers, WebP canvases — from the header)
stay within `MEMORY` (640 MiB: two of the largest reads; a single read above it runs alone).
So a phone JPEG (~20 MiB) is not kept waiting behind two 100-megapixel JPEGs, and no mix of
uploads decodes more than `MEMORY` at once. A read that is not admitted waits — with
`waiting()` shown meanwhile, e.g. a spinner — for at most `WAIT_SECONDS`, then `PhotoBusy`
is raised (the app says "busy, try again"; the hand is kept). One gate per server process:
every Streamlit session is a thread of it.

Memory handed back (issue 37): once no read has run for `QUIET_S`, `reclaim` runs once — a full
`gc.collect()` (the server no longer collects after every script run: `runner.postScriptGC` off
in `app.cmd_app.SERVER_OPTIONS`, ~0.05 s a rerun) and `trim` (glibc's `malloc_trim(0)`: the
freed memory glibc still keeps in its arenas goes back to the system; elsewhere nothing).
So a burst of photos pays for one collection, after it, not one per rerun. Before it, what
registered with `on_reclaim` lets go of what a burst left idle: the database engines close their
idle pooled connections (each SQLite connection kept ~1.5 MB of page cache and prepared
statements: 24 MB over the pools after 64 phones, `app.memdump`).

>>> with photo_slot(cost=2**20):
...     free_slots() == SLOTS - 1
True
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

__all__ = ["MEMORY", "ORT_THREADS_ENV", "SLOTS", "WAIT_SECONDS", "PhotoBusy", "free_slots", "ort_threads"]
__all__ += ["FREEZE_AFTER_FIRST", "QUIET_S", "on_reclaim", "photo_slot", "reclaim", "trim"]


def _cores() -> int:
    """The CPUs this process may run on (its affinity; `os.cpu_count()` where that is unknown)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _slots_from_env() -> int:
    """`$JXMJ_PHOTO_SLOTS` as a whole number >= 1, else one read per CPU, at most 4.

    A read is CPU work (the decode, the models): more reads at once than cores only share them.
    On the 2-core box 2 slots against 4, 16 and 64 phones, two rounds each (docs/parlour.md, "Ninth
    sitting"): CPU per photo 0.119-0.123 s against 0.120-0.131 s, photos/s 11.75-12.10 against
    10.97-12.08, photo p95 1.24-1.29 / 4.92-5.14 s against 1.52-1.54 / 6.18-6.22 s."""
    default = min(4, _cores())
    try:
        return max(1, int(os.environ.get("JXMJ_PHOTO_SLOTS", str(default))))
    except ValueError:
        return default


SLOTS = _slots_from_env()
"""Photo reads that may run at once in one server process."""

MEMORY = 640 * 2**20
"""Bytes the reads running at once may cost together (two of the largest `vision.image.read_cost`)."""

WAIT_SECONDS = 120.0
"""How long a read waits to be admitted before `PhotoBusy`."""

ORT_THREADS_ENV = "JXMJ_ORT_THREADS"
"""ONNX Runtime's threads per photo read in this process (unset: one per core). `jxmj parlour`
gives each of its N processes its share of the cores, so N processes do not fight over them."""


def ort_threads() -> int | None:
    """`$JXMJ_ORT_THREADS` as a whole number >= 1, else None (ONNX Runtime's default)."""
    try:
        n = int(os.environ.get(ORT_THREADS_ENV, ""))
    except ValueError:
        return None
    return n if n >= 1 else None


QUIET_S = 2.0
"""Seconds without a photo read after which `reclaim` runs (once per quiet spell)."""

_lock = threading.Lock()
_gate = threading.Condition(_lock)
_running = 0
_reserved = 0
_started = 0  # reads admitted so far: a reclaim waits for a quiet spell of `QUIET_S` with none


class PhotoBusy(Exception):
    """The read was not admitted within `WAIT_SECONDS` (the server is reading other photos)."""


def free_slots() -> int:
    """Reads that could start right now, counting slots only (for tests and diagnostics)."""
    with _gate:
        return SLOTS - _running


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None (another C library, or none found)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def trim() -> bool:
    """Give the free memory of the C heap back to the system (glibc); False where it cannot."""
    fn = _malloc_trim()
    return bool(fn is not None and fn(0) is not None)


FREEZE_AFTER_FIRST = False
"""Set by the server (`app.serve.main`): once the process's first photo read ends, collect and
`gc.freeze` what is alive, the reader and what it imported (`vision`, OpenCV, ONNX Runtime's
wrappers: ~115,000 objects loaded on the first photo, after `app.serve.freeze`), so the full
collections a burst's allocations trigger no longer walk them (~3 ms a photo, issue 37). Once per
process: what the first read's sessions leave as cyclic garbage later stays (one photo's worth)."""

_frozen = False  # FREEZE_AFTER_FIRST done


def _freeze_once() -> None:
    global _frozen
    with _gate:
        if _frozen:
            return
        _frozen = True
    gc.collect()
    gc.freeze()


_releasers: list[Callable[[], object]] = []


def on_reclaim(release: Callable[[], object]) -> None:
    """Have `reclaim` call `release()` first (e.g. an engine's `dispose`: its idle connections
    closed); an exception in it is ignored (the memory stays, nothing else is harmed)."""
    _releasers.append(release)


def reclaim() -> bool:
    """Run what `on_reclaim` registered, collect the garbage (`gc.collect()`, cycles included)
    and give the C heap's free memory back (`trim`); what `trim` says. ~0.05-0.1 s on a loaded
    server: run once after a burst."""
    for release in list(_releasers):
        try:
            release()
        except Exception:
            continue
    gc.collect()
    return trim()


def _reclaim_if_quiet(started: int) -> None:
    """`reclaim` unless a read began since the one that scheduled it (a later one will)."""
    with _gate:
        quiet = _running == 0 and _started == started
    if quiet:
        reclaim()


def _after_reads(started: int) -> None:
    """The last running read ended: `reclaim` after `QUIET_S` if no read begins meanwhile."""
    timer = threading.Timer(QUIET_S, _reclaim_if_quiet, (started,))
    timer.daemon = True
    timer.start()


def _admissible(cost: int) -> bool:
    return _running < SLOTS and (_reserved + cost <= MEMORY or _running == 0)


class _Waiter:
    """A read waiting to be admitted: its own condition on the gate's lock, so a read that ends
    wakes only the reads it admits, not every waiting one (64 waiting: 0.19 ms a read woken for
    nothing, issue 37)."""

    __slots__ = ("admitted", "cost", "woken")

    def __init__(self, cost: int) -> None:
        self.cost, self.admitted, self.woken = cost, False, threading.Condition(_lock)


_queue: list[_Waiter] = []  # the waiting reads, first come first


def _admit(cost: int) -> None:
    global _running, _reserved, _started
    _running, _reserved, _started = _running + 1, _reserved + cost, _started + 1


def _hand_on() -> None:
    """Admit the waiting reads that fit now, first come first (a large one that does not fit
    does not keep a small one behind it waiting), and wake each; the gate's lock is held."""
    for waiter in list(_queue):
        if _running >= SLOTS:  # no slot left: none of the others fits either
            return
        if _admissible(waiter.cost):
            _admit(waiter.cost)
            waiter.admitted = True
            _queue.remove(waiter)
            waiter.woken.notify()


@contextlib.contextmanager
def photo_slot(
    waiting: Callable[[], AbstractContextManager[object]] | None = None,
    timeout: float | None = None,
    cost: int = 0,
) -> Iterator[None]:
    """Run the body as one admitted read of `cost` bytes; wait (inside `waiting()`) until admitted.

    A read that ends admits the waiting reads that fit in its place itself (under the lock, so
    no admission is lost and none counted twice); a read that gives up waiting leaves the queue.

    Args:
        waiting: called only when the read has to wait; the context manager it returns is
            entered while waiting (the app passes `lambda: st.spinner(...)`).
        timeout: seconds to wait at most (default `WAIT_SECONDS`).
        cost: the bytes the read will hold (`vision.image.read_cost`; 0 when unknown).

    Raises:
        PhotoBusy: not admitted within the timeout.
    """
    cost = max(0, cost)
    waiter = None
    with _gate:
        if _admissible(cost):
            _admit(cost)
        else:
            waiter = _Waiter(cost)
            _queue.append(waiter)
    if waiter is not None:
        try:
            with waiting() if waiting is not None else contextlib.nullcontext(), _gate:
                waiter.woken.wait_for(lambda: waiter.admitted, WAIT_SECONDS if timeout is None else timeout)
                if not waiter.admitted:
                    _queue.remove(waiter)
        except BaseException:  # the spinner failed, or the run was stopped meanwhile: no slot kept
            with _gate:
                if waiter in _queue:
                    _queue.remove(waiter)
            if waiter.admitted:
                _leave(cost)
            raise
        if not waiter.admitted:
            raise PhotoBusy(f"{SLOTS - free_slots()} photo reads kept running")
    try:
        yield
    finally:
        _leave(cost)


def _leave(cost: int) -> None:
    """An admitted read of `cost` ends: its slot and bytes go to the reads waiting that fit."""
    global _running, _reserved
    with _gate:
        _running, _reserved = _running - 1, _reserved - cost
        _hand_on()
        last, started = _running == 0, _started
    if FREEZE_AFTER_FIRST and not _frozen:
        _freeze_once()
    if last:  # no read holds a decode now: what they freed goes back once all is quiet
        _after_reads(started)
