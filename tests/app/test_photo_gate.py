"""The server-wide limit on photo reads: at most SLOTS at once and within
MEMORY together; the others wait inside `waiting()` (the app's spinner), then PhotoBusy."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest

from app import photo_gate
from app.photo_gate import MEMORY, SLOTS, PhotoBusy, free_slots, photo_slot
from tests.app.conftest import photo_gate_held

BIG = 300 * 2**20  # a 100 MP JPEG read at 1/4, decoded again at 1/2 (vision.image.read_cost)
SMALL = 20 * 2**20  # a 12-megapixel JPEG read at half size


def _run(costs: list[int], hold: float = 0.3) -> tuple[int, int, list[int]]:
    """Start one read per cost at once; (most reads inside together, most bytes, who waited)."""
    inside, most, most_bytes, reserved, waited = 0, 0, 0, 0, []
    lock = threading.Lock()

    @contextlib.contextmanager
    def spinner(n):
        with lock:
            waited.append(n)
        yield

    def read(n, cost):
        nonlocal inside, most, most_bytes, reserved
        with photo_slot(lambda: spinner(n), cost=cost):
            with lock:
                inside, reserved = inside + 1, reserved + cost
                most, most_bytes = max(most, inside), max(most_bytes, reserved)
            time.sleep(hold)
            with lock:
                inside, reserved = inside - 1, reserved - cost

    threads = [threading.Thread(target=read, args=(n, c)) for n, c in enumerate(costs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert free_slots() == photo_gate.SLOTS
    return most, most_bytes, sorted(waited)


def test_at_most_two_of_the_largest_photos_are_decoded_at_once(monkeypatch):
    monkeypatch.setattr(photo_gate, "SLOTS", 4)  # the memory bound, not the slots, holds them
    most, most_bytes, waited = _run([BIG] * 5)
    assert most == 2 and most_bytes == 2 * BIG <= MEMORY
    assert len(waited) == 3  # three readers waited, each with its spinner


def test_small_photos_are_not_kept_waiting_behind_large_ones(monkeypatch):
    monkeypatch.setattr(photo_gate, "SLOTS", 4)  # a box of 4 cores or more
    most, most_bytes, waited = _run([BIG, BIG, SMALL, SMALL])
    assert most == 4 and most_bytes == 2 * BIG + 2 * SMALL <= MEMORY and waited == []


def test_no_more_than_slots_reads_run_even_when_small():
    most, _, waited = _run([SMALL] * (SLOTS + 2))
    assert most == SLOTS and len(waited) == 2


def test_a_read_above_the_budget_runs_alone():
    most, most_bytes, _ = _run([MEMORY + 1, SMALL])
    assert most == 1 and most_bytes == MEMORY + 1


def test_a_read_that_waits_too_long_is_busy_and_frees_nothing():
    with photo_gate_held(), pytest.raises(PhotoBusy), photo_slot(timeout=0.05, cost=SMALL):
        raise AssertionError("must not run")
    assert free_slots() == SLOTS and photo_gate._reserved == 0


def test_a_failing_read_gives_its_slot_back():
    with pytest.raises(ValueError), photo_slot(cost=SMALL):
        raise ValueError("decoder failed")
    assert free_slots() == SLOTS and photo_gate._reserved == 0


def test_memory_goes_back_once_the_reads_are_quiet(monkeypatch):
    """Issue 37: glibc keeps freed decode buffers in its arenas, and the server no longer
    collects garbage after every script run; `reclaim` (a full collection, then `malloc_trim`)
    runs once no read has run for `QUIET_S` — not while another read holds its decode, and not
    after each read of a burst."""
    import time

    from app import photo_gate

    monkeypatch.setattr(photo_gate, "QUIET_S", 0.2)
    reclaims = []
    monkeypatch.setattr(photo_gate, "reclaim", lambda: reclaims.append(photo_gate.free_slots()))
    with photo_gate.photo_slot(cost=2**20):
        with photo_gate.photo_slot(cost=2**20):
            pass
        time.sleep(0.4)
        assert reclaims == []  # the outer read still runs
    time.sleep(0.05)
    with photo_gate.photo_slot(cost=2**20):  # the next read of the burst, within the quiet spell
        pass
    time.sleep(0.3)
    assert reclaims == [photo_gate.SLOTS]  # one reclaim, after the last read of the burst
    time.sleep(0.3)
    assert reclaims == [photo_gate.SLOTS]


def test_reclaim_collects_cycles_and_trims(monkeypatch):
    from app import photo_gate

    collected, trims = [], []
    monkeypatch.setattr(photo_gate.gc, "collect", lambda *a: collected.append(a) or 0)
    monkeypatch.setattr(photo_gate, "trim", lambda: trims.append(1) or True)
    assert photo_gate.reclaim() is True
    assert collected == [()] and trims == [1]


def test_trim_gives_memory_back_on_glibc():
    import platform

    from app import photo_gate

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("needs glibc (malloc_trim)")
    assert photo_gate.trim() is True


@pytest.mark.parametrize(
    ("env", "cores", "want"),
    [(None, 2, 2), (None, 1, 1), (None, 16, 4), ("3", 2, 3), ("0", 2, 1), ("many", 2, 2)],
)
def test_slots_are_one_read_a_cpu_at_most_four_unless_set(monkeypatch, env, cores, want):
    if env is None:
        monkeypatch.delenv("JXMJ_PHOTO_SLOTS", raising=False)
    else:
        monkeypatch.setenv("JXMJ_PHOTO_SLOTS", env)
    monkeypatch.setattr(photo_gate, "_cores", lambda: cores)
    assert photo_gate._slots_from_env() == want


@pytest.mark.parametrize(("value", "want"), [("2", 2), ("1", 1), ("0", None), ("", None), ("many", None)])
def test_ort_threads_from_the_environment(monkeypatch, value, want):
    """`jxmj parlour` gives each process its share of the cores as $JXMJ_ORT_THREADS."""
    monkeypatch.setenv(photo_gate.ORT_THREADS_ENV, value)
    assert photo_gate.ort_threads() == want


def _held(n: int) -> tuple[list[threading.Thread], list[threading.Event]]:
    """`n` reads admitted and held, each until its event is set."""
    events = [threading.Event() for _ in range(n)]
    inside = threading.Semaphore(0)

    def hold(done):
        with photo_slot(cost=SMALL):
            inside.release()
            done.wait(30)

    threads = [threading.Thread(target=hold, args=(e,)) for e in events]
    for t in threads:
        t.start()
    for _ in threads:
        assert inside.acquire(timeout=10)
    return threads, events


def _queued(n: int, order: list[int], gone: threading.Event) -> list[threading.Thread]:
    """`n` reads that wait, started one after another (each queued before the next starts)."""
    threads = []
    for i in range(n):
        t = threading.Thread(target=lambda i=i: _read_in_turn(i, order, gone))
        t.start()
        threads.append(t)
        deadline = time.monotonic() + 10
        while len(photo_gate._queue) < i + 1 and time.monotonic() < deadline:
            time.sleep(0.002)
        assert len(photo_gate._queue) == i + 1
    return threads


def _read_in_turn(i: int, order: list[int], gone: threading.Event) -> None:
    with photo_slot(cost=SMALL):
        order.append(i)
        gone.wait(30)


def test_waiting_reads_are_admitted_first_come_first_served():
    holders, events = _held(SLOTS)
    order, gone = [], threading.Event()
    waiters = _queued(6, order, gone)
    for n, done in enumerate(events, 1):  # each read that ends admits the read that has waited longest
        done.set()
        deadline = time.monotonic() + 10
        while len(order) < n and time.monotonic() < deadline:
            time.sleep(0.002)
    assert order == list(range(SLOTS)) and len(photo_gate._queue) == 6 - SLOTS
    gone.set()
    for t in holders + waiters:
        t.join(10)
    assert sorted(order) == list(range(6)) and free_slots() == SLOTS and photo_gate._queue == []


def test_a_read_that_ends_wakes_the_one_it_admits_not_every_waiting_read(monkeypatch):
    """Issue 37: with 64 phones' reads waiting, every read that ended woke all of them to find
    one slot (0.19 ms a read). Now the read that ends looks at the queue once, under the lock."""
    holders, events = _held(SLOTS)
    order, gone = [], threading.Event()
    waiters = _queued(16, order, gone)
    looked = []
    real = photo_gate._admissible
    monkeypatch.setattr(photo_gate, "_admissible", lambda cost: looked.append(cost) or real(cost))
    events[0].set()
    deadline = time.monotonic() + 10
    while not order and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(0.2)  # any other waiting read woken would have looked meanwhile
    assert order == [0] and len(looked) == 1
    for done in events:
        done.set()
    gone.set()
    for t in holders + waiters:
        t.join(10)
    assert free_slots() == SLOTS and photo_gate._reserved == 0


def test_a_burst_of_mixed_reads_all_run_and_leave_the_gate_empty():
    """No admission lost (a waiting read never sleeps on with a slot free), none counted twice."""
    costs = [BIG if i % 5 == 0 else SMALL for i in range(60)]
    most, most_bytes, waited = _run(costs, hold=0.01)
    assert most <= SLOTS and most_bytes <= MEMORY and len(waited) > 0
    assert photo_gate._queue == [] and photo_gate._reserved == 0


def test_the_server_freezes_what_the_first_read_loaded_once(monkeypatch):
    """Issue 37: the reader and the modules it imports arrive with the first photo, after the
    server's start-up freeze; every full collection of a burst walked them (~3 ms a photo).
    The server (`FREEZE_AFTER_FIRST`) collects and freezes once, when its first read ends."""
    import gc

    frozen = []
    monkeypatch.setattr(photo_gate, "_frozen", False)
    monkeypatch.setattr(photo_gate.gc, "freeze", lambda: frozen.append(gc.get_count()))
    with photo_slot(cost=SMALL):
        pass
    assert frozen == []  # not the server: tests and the CLI never freeze
    monkeypatch.setattr(photo_gate, "FREEZE_AFTER_FIRST", True)
    with photo_slot(cost=SMALL):
        assert frozen == []  # not while the read runs
    assert len(frozen) == 1
    with photo_slot(cost=SMALL):
        pass
    assert len(frozen) == 1 and free_slots() == SLOTS


@pytest.mark.parametrize("when", ["enter", "exit"])
def test_a_read_whose_wait_fails_keeps_no_slot(when):
    """The spinner (Streamlit's; a stopped run raises inside it) fails while the read waits, or as
    it is admitted: the read leaves the queue, or gives the slot it was given back."""
    holders, events = _held(SLOTS)

    @contextlib.contextmanager
    def spinner():
        if when == "enter":
            raise RuntimeError("stopped")
        yield
        raise RuntimeError("stopped")

    failed = []

    def read():
        try:
            with photo_slot(spinner, cost=SMALL):
                raise AssertionError("must not run")
        except RuntimeError as exc:
            failed.append(str(exc))

    t = threading.Thread(target=read)
    t.start()
    if when == "exit":
        deadline = time.monotonic() + 10
        while not photo_gate._queue and time.monotonic() < deadline:
            time.sleep(0.002)
        events[0].set()  # admits it; then its spinner fails
    t.join(10)
    for done in events:
        done.set()
    for h in holders:
        h.join(10)
    assert failed == ["stopped"] and photo_gate._queue == []
    assert free_slots() == SLOTS and photo_gate._reserved == 0
