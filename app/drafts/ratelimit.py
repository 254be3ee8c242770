"""New phone tokens per client, rate-limited: a visitor who opens the app again and again (each
session a fresh token, each token a draft) gets at most :data:`MOST` a :data:`WINDOW_S`; past it
the page works without a draft (``$JXMJ_NEW_TOKENS`` changes :data:`MOST`: :func:`most`). Kept in
the process (each app server counts its own)."""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict, deque

__all__ = ["ENV_MOST", "MAX_CLIENTS", "MOST", "WINDOW_S", "Limiter", "client_of", "most"]

MOST = 20
ENV_MOST = "JXMJ_NEW_TOKENS"
WINDOW_S = 600.0
MAX_CLIENTS = 10_000  # the clients remembered: the least recent forgotten past it


def most() -> int:
    """New tokens a client may have per :data:`WINDOW_S`: ``$JXMJ_NEW_TOKENS`` (a whole number >= 1:
    a parlour whose phones reach it through one shared address, a load test from one box), else
    :data:`MOST`; a value that is not one is ignored.

    >>> most() if ENV_MOST not in os.environ else MOST
    20
    """
    raw = os.environ.get(ENV_MOST, "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) >= 1 else MOST


class Limiter:
    """At most `most` events per client in any `window_s` seconds."""

    def __init__(self, most: int = MOST, window_s: float = WINDOW_S, clients: int = MAX_CLIENTS) -> None:
        self.most, self.window_s, self.clients = most, window_s, clients
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, client: str, at: float | None = None) -> bool:
        """Whether `client` may have one more now (counted when allowed)."""
        at = time.monotonic() if at is None else at
        with self._lock:
            times = self._seen.pop(client, None) or deque()
            while times and times[0] <= at - self.window_s:
                times.popleft()
            ok = len(times) < self.most
            if ok:
                times.append(at)
            self._seen[client] = times  # the most recent last
            while len(self._seen) > self.clients:
                self._seen.popitem(last=False)
            return ok


def client_of(ip: str | None, forwarded: str | None) -> str | None:
    """Who a connection is: its address `ip`; on a local connection (``None``: the box's own user,
    or the parlour's nginx in front, `deploy/nginx/jxmj.conf`) the last address of its
    ``X-Forwarded-For`` (the one nginx appends: the real client's, not one a client sent); None
    (not limited) for a local connection without one."""
    if ip:
        return ip
    last = (forwarded or "").rsplit(",", 1)[-1].strip()
    return last or None
