"""What the server's memory holds, on a signal (a debugging switch, nothing a phone can reach).

With `JXMJ_MEMDUMP=FILE` in its environment, `jxmj app`'s server appends one report to FILE each
time it gets `SIGUSR1` (`kill -USR1 PID`; `bench/bench_load.py --memdump FILE` sends it before the
burst and at the end of `--settle`): the process's RSS, glibc's heap (`mallinfo2`: in use, free
but kept, mapped), Python's objects by type (`gc.get_objects`, the frozen ones counted apart),
Streamlit's stores (sessions connected and kept for reconnection, media files, uploaded files)
and, with `JXMJ_MEMDUMP_TRACE=1` (tracemalloc from the start: slower), the lines that allocated
most and what grew since the previous report. Unset, nothing is installed (issue 37).
"""

from __future__ import annotations

import collections
import ctypes
import ctypes.util
import gc
import os
import signal
import threading
import time
from typing import Any

__all__ = ["ENV", "TRACE_ENV", "install", "report"]

ENV = "JXMJ_MEMDUMP"
TRACE_ENV = "JXMJ_MEMDUMP_TRACE"
_previous: list[Any] = []  # the last tracemalloc snapshot


_MORE = ("uordblks", "fordblks", "keepcost")


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", *_MORE)
    ]


def _heap() -> str:
    """glibc's heap in MB: bytes in use, free but kept (fragmentation), mapped on their own."""
    try:
        fn = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return "heap: no mallinfo2"
    fn.restype = _MallInfo2
    m = fn()
    mb = 2**20
    return (
        f"heap: arena {m.arena / mb:.1f} MB (in use {m.uordblks / mb:.1f}, free kept {m.fordblks / mb:.1f}), "
        f"mmapped {m.hblkhd / mb:.1f} MB in {m.hblks} blocks"
    )


def _sqlite() -> str:
    """SQLite's own heap (every connection's page cache included), if its library is found."""
    import sqlite3  # noqa: F401  (its library loaded)
    import sys

    blocks = f"python: {sys.getallocatedblocks()} small blocks"
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    except OSError:
        return blocks + "; sqlite: library not found"
    lib.sqlite3_memory_used.restype = lib.sqlite3_memory_highwater.restype = ctypes.c_int64
    used, high = lib.sqlite3_memory_used(), lib.sqlite3_memory_highwater(0)
    return blocks + f"; sqlite: {used / 2**20:.1f} MB in use, {high / 2**20:.1f} MB at most"


def _rss() -> str:
    try:
        with open("/proc/self/status") as fh:
            vm = [line.split() for line in fh if line.startswith("Vm")]
        return " ".join(f"{k.rstrip(':')}={v}" for k, v, *_ in vm)
    except OSError:
        return "no /proc"


def _streamlit() -> list[str]:
    """Sessions, media and uploads Streamlit keeps (its private fields: best effort)."""
    try:
        from streamlit.runtime import Runtime

        rt = Runtime.instance()
    except Exception as exc:
        return [f"streamlit: {type(exc).__name__}"]
    out = []
    mgr = getattr(rt, "_session_mgr", None)
    active = getattr(mgr, "_active_session_info_by_id", {})
    storage = getattr(getattr(mgr, "_session_storage", None), "_cache", None)
    kept = len(getattr(storage, "_expirations", ())) if storage is not None else -1
    out.append(f"streamlit sessions: {len(active)} connected, {kept} kept for reconnection")
    media = getattr(getattr(rt, "_media_file_mgr", None), "_storage", None)
    files = dict(getattr(media, "_files_by_id", {}))
    size = sum(len(f.content) for f in files.values())
    out.append(f"streamlit media files: {len(files)}, {size / 2**20:.1f} MB")
    uploads = getattr(rt, "_uploaded_file_mgr", None)
    out.append(f"streamlit uploads: {getattr(uploads, '_total_bytes', -1) / 2**20:.1f} MB")
    return out


def _objects() -> list[str]:
    frozen = gc.get_freeze_count()
    counts = collections.Counter(type(o).__name__ for o in gc.get_objects())
    top = ", ".join(f"{name} {n}" for name, n in counts.most_common(25))
    return [f"gc: {sum(counts.values())} tracked objects (+{frozen} frozen); {top}"]


def _traced() -> list[str]:
    import tracemalloc

    if not tracemalloc.is_tracing():
        return []
    snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    out = [f"tracemalloc: {sum(s.size for s in snap.statistics('filename')) / 2**20:.1f} MB traced"]
    out += [f"  {s}" for s in snap.statistics("lineno")[:20]]
    if _previous:
        out.append("  grown since the previous report:")
        out += [f"  {s}" for s in snap.compare_to(_previous[0], "lineno")[:20]]
    _previous[:] = [snap]
    return out


def report() -> str:
    """One report (see the module's doc)."""
    lines = [f"== {time.strftime('%H:%M:%S')} pid {os.getpid()}: {_rss()}", _heap(), _sqlite()]
    for part in (_streamlit, _objects, _traced):
        try:
            lines += part()
        except Exception as exc:  # a diagnostic never takes the server down
            lines.append(f"{part.__name__}: {type(exc).__name__}: {exc}")
    return "\n".join(lines) + "\n"


def _write(path: str) -> None:
    text = report()
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)


def install(env: dict[str, str] | None = None) -> bool:
    """With `JXMJ_MEMDUMP` set, `SIGUSR1` appends a `report` to its file (from a thread of its
    own); with `JXMJ_MEMDUMP_TRACE=1` tracemalloc starts now. Whether it was installed."""
    env = dict(os.environ) if env is None else env
    path = env.get(ENV, "")
    if not path:
        return False
    if env.get(TRACE_ENV) == "1":
        import tracemalloc

        tracemalloc.start(1)

    def on_signal(_signum: int, _frame: object) -> None:
        threading.Thread(target=_write, args=(path,), daemon=True, name="jxmj-memdump").start()

    signal.signal(signal.SIGUSR1, on_signal)
    return True
