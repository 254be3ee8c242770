"""The web server `jxmj app` runs: Streamlit's, with a smaller HTTP surface.

`python -m app.serve run SCRIPT [options]` is `streamlit run SCRIPT [options]` with one more
ASGI middleware in Streamlit's Starlette app (`Hardened`):

- `/_stcore/metrics` (session counts and cache sizes of the server) answers 404: nobody at the
  table needs them, and they are not for every phone on the network;
- every HTTP answer says `Content-Security-Policy: frame-ancestors 'self'` and
  `X-Frame-Options: SAMEORIGIN`: no other site may show the app in a frame (clickjacking).
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

HEADERS = [
    (b"content-security-policy", b"frame-ancestors 'self'"),
    (b"x-frame-options", b"SAMEORIGIN"),
]
HIDDEN = ("/_stcore/metrics",)
"""Paths (after the base URL) that answer 404."""

__all__ = ["HEADERS", "HIDDEN", "Hardened", "install", "main"]


class Hardened:
    """ASGI middleware: `HIDDEN` paths answer 404, every HTTP answer carries `HEADERS`."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "").rstrip("/")
        if any(path.endswith(hidden) for hidden in HIDDEN):
            await send({"type": "http.response.start", "status": 404, "headers": [*HEADERS]})
            await send({"type": "http.response.body", "body": b"404: Not Found"})
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install() -> None:
    """Add `Hardened` to the middleware of Streamlit's Starlette app (once)."""
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    make = starlette_app.create_streamlit_middleware
    if getattr(make, "jxmj_hardened", False):
        return

    def create_streamlit_middleware() -> list[Middleware]:
        return [Middleware(Hardened), *make()]

    create_streamlit_middleware.jxmj_hardened = True  # type: ignore[attr-defined]
    starlette_app.create_streamlit_middleware = create_streamlit_middleware


#: what the pages import, loaded once when the server starts rather than on the first visitor's
#: run: the database layer (SQLAlchemy, ~0.15-0.3 s) and the pages' modules (no vision stack:
#: that waits for the first photo)
PRELOAD = ("ledger.store", "app.drafts", "app.ui.table.page", "app.ui.score.page", "app.ui.learn.page")


def preload() -> None:
    """Import :data:`PRELOAD` (a module that fails to import is left to the page, which says why)."""
    import importlib

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:
            continue


def freeze() -> None:
    """Leave what the server imported at start out of every later garbage collection.

    Streamlit collects all generations after every run of a page (``runner.postScriptGC``),
    and a full collection walks every object the process tracks: with the pages and SQLAlchemy
    loaded, ~70,000 objects that live as long as the process — on a busy 2-core box a third of
    the server's time while 8 phones opened a 2,000-hand table (py-spy, issue 37).
    `gc.freeze` moves them into the permanent generation, which no collection walks; what the
    runs make is collected after each run as before."""
    import gc

    gc.collect()
    gc.freeze()


def main(argv: list[str]) -> int:
    """`streamlit <argv>` with `install()`, `preload()` and `freeze()` done first."""
    install()
    from app import memdump

    memdump.install()  # JXMJ_MEMDUMP=FILE: a report on SIGUSR1 (debugging; unset: nothing)
    preload()
    from streamlit.web import bootstrap, cli  # noqa: F401  (its server's modules: frozen too)

    from app import photo_gate

    freeze()
    photo_gate.FREEZE_AFTER_FIRST = True  # and again once the first photo loaded the reader
    sys.argv = ["streamlit", *argv]
    return cli.main()  # click: exits itself


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
