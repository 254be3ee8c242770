"""The standard streams of the `jxmj` commands: bounded reads, output any terminal can carry.

Every command reads and writes through here, so an unusable stream is one clear message and
exit status 2, never a traceback:

- standard input closed (`jxmj detect - <&-`) or unreadable: `StreamError`;
- standard output closed, full (`> /dev/full`) or failing: a message on standard error and
  status 2 (a reader that went away, `| head`, is not an error: status 0, as before);
- an output encoding that cannot carry the text (`PYTHONIOENCODING=ascii`, a C locale):
  JSON is written with `\\uXXXX` escapes instead (the same JSON value), other text with
  `\\xNN`-style escapes for the characters the encoding lacks.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

__all__ = ["StreamError", "emit", "emit_json", "read_stdin", "warn"]


class StreamError(Exception):
    """A standard stream cannot be used; the message says which and what to do."""


def read_stdin(limit: int) -> bytes:
    """At most `limit` bytes of standard input (a text stream, as in tests, is encoded UTF-8).

    Raises:
        StreamError: standard input is closed or cannot be read.
    """
    stream = sys.stdin
    if stream is None:
        raise StreamError("standard input is closed: give a file name, or pipe the input in")
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            return buffer.read(limit)
        return stream.read(limit).encode("utf-8", "surrogatepass")
    except (OSError, ValueError) as exc:  # EBADF, "I/O operation on closed file", EISDIR
        why = getattr(exc, "strerror", None) or "it is closed"
        raise StreamError(f"standard input cannot be read: {why}") from None


def _carried(text: str, encoding: str | None) -> bool:
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so Python's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - stdout without a descriptor
        pass


def warn(message: str) -> None:
    """Write one line to standard error if at all possible (never raises)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        if not _carried(message, getattr(stream, "encoding", None)):
            enc = stream.encoding or "ascii"
            message = message.encode(enc, "backslashreplace").decode(enc)
        stream.write(message + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def emit(text: str) -> int:
    """Write `text` and a newline to standard output; the exit status.

    Characters the stream's encoding lacks are written as backslash escapes.

    Returns:
        0 when written (or the reader left: `BrokenPipeError`), 2 when standard output is
        closed or failing (a message then goes to standard error).
    """
    out = sys.stdout
    if out is None:
        warn("jxmj: standard output is closed: nothing could be written")
        return 2
    encoding = getattr(out, "encoding", None)
    if not _carried(text, encoding):
        enc = encoding or "ascii"
        text = text.encode(enc, "backslashreplace").decode(enc)
    try:
        out.write(text + "\n")
        out.flush()
    except BrokenPipeError:  # `jxmj ... | head`: the reader went away; not an error
        _silence_stdout()
        return 0
    except (OSError, ValueError) as exc:  # /dev/full (ENOSPC), EIO, a closed stream
        _silence_stdout()
        warn(f"jxmj: cannot write the output: {getattr(exc, 'strerror', None) or exc}")
        return 2
    return 0


def emit_json(obj: Any, indent: int | None = None) -> int:
    """`emit` one JSON value: UTF-8 text where the stream carries it, `\\uXXXX` escapes where not."""
    text = json.dumps(obj, ensure_ascii=False, indent=indent)
    if sys.stdout is not None and not _carried(text, getattr(sys.stdout, "encoding", None)):
        text = json.dumps(obj, ensure_ascii=True, indent=indent)  # the same JSON value
    return emit(text)
