"""The server-wide limit on concurrent photo reads (issue 15 item 2): at most SLOTS at once,
the others wait inside `waiting()` (the app's spinner), and give up with PhotoBusy."""

from __future__ import annotations

import contextlib
import doctest
import threading
import time

import pytest

from app import photo_gate
from app.photo_gate import SLOTS, PhotoBusy, free_slots, photo_slot


def test_at_most_slots_reads_run_at_once_and_the_rest_wait_with_a_spinner():
    inside, most, waited = 0, 0, []
    lock = threading.Lock()
    release = threading.Event()

    @contextlib.contextmanager
    def spinner(n):
        waited.append(n)
        yield

    def read(n):
        nonlocal inside, most
        with photo_slot(lambda: spinner(n)):
            with lock:
                inside += 1
                most = max(most, inside)
            release.wait(10)
            with lock:
                inside -= 1

    threads = [threading.Thread(target=read, args=(n,)) for n in range(SLOTS + 3)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while len(waited) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert free_slots() == 0 and len(waited) == 3  # three readers wait, each with its spinner
    release.set()
    for t in threads:
        t.join(10)
    assert most == SLOTS and free_slots() == SLOTS


def test_a_read_that_waits_too_long_is_busy_and_frees_nothing():
    held = [photo_gate._slots.acquire(blocking=False) for _ in range(SLOTS)]
    assert all(held)
    try:
        with pytest.raises(PhotoBusy), photo_slot(timeout=0.05):
            raise AssertionError("must not run")
    finally:
        for _ in held:
            photo_gate._slots.release()
    assert free_slots() == SLOTS


def test_a_failing_read_gives_its_slot_back():
    with pytest.raises(ValueError), photo_slot():
        raise ValueError("decoder failed")
    assert free_slots() == SLOTS


def test_the_module_doctests_hold():
    result = doctest.testmod(photo_gate)
    assert result.attempted > 0 and result.failed == 0
