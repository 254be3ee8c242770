"""`jxmj detect --annotate OUT.png` (and `jxmj photo`'s): where the annotated photo may be written,
and writing it.

`check_annotate_path` refuses, before the photo is read, a target that names no image file or is
the input photo itself (a link to it, a symbolic link) unless ``--force``;
`check_annotate_content` the bytes of a piped photo; `write_annotation` writes atomically.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = [
    "ANNOTATE_FORMATS",
    "AnnotateOntoInput",
    "check_annotate_content",
    "check_annotate_path",
    "write_annotation",
]

ANNOTATE_FORMATS = (".png", ".jpg", ".jpeg", ".webp")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or os.path.samefile(a, b)
    except OSError:
        return False


def _is_standard_input(out: Path) -> bool:
    """Whether `out` is the file standard input reads (`jxmj detect - --annotate p.jpg < p.jpg`)."""
    try:
        return os.path.samestat(os.fstat(0), out.stat())
    except (OSError, ValueError):
        return False


class AnnotateOntoInput(Exception):
    """`--annotate` names the photo read from standard input (a pipe: its bytes are the file's)."""

    code = "annotate_onto_input"
    case = "input"

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.fields = {"path": path}


def check_annotate_content(path: str | None, source: bytes, force: bool = False) -> None:
    """Raise `AnnotateOntoInput` when the photo came through a pipe and `path` holds those same
    bytes (`cat p.jpg | jxmj detect - --annotate p.jpg`); checked after reading, before writing."""
    if path is None or force:
        return
    out = Path(path)
    try:
        same = out.is_file() and out.stat().st_size == len(source) and out.read_bytes() == source
    except OSError:
        same = False
    if same:
        raise AnnotateOntoInput(
            f"--annotate {path} is the input photo: choose another file name (or add --force)", path
        )


def check_annotate_path(
    path: str | None, image: str = "-", force: bool = False
) -> tuple[str, str, str | None, dict[str, Any]] | None:
    """Why `--annotate PATH` cannot be written, as ``(sentence, code, case, fields)`` (`fields`:
    the values the sentence names, for its translation), or None when it can (checked before
    detecting).

    Refused: no file name, a folder, an unknown extension, a missing folder (`bad_annotate_path`),
    and — unless `force` — the input photo `image` itself, a link to it, or any existing symbolic
    link (`annotate_onto_input`).
    """
    if path is None:
        return None
    out = Path(path)
    if path == "" or out.is_dir():
        why = f"--annotate needs an image file name such as boxes.png, not {path!r}"
        return why, "bad_annotate_path", "name", {"path": repr(path)}
    if out.suffix.lower() not in ANNOTATE_FORMATS:
        why = f"--annotate {path}: the file name must end in {', '.join(ANNOTATE_FORMATS)}"
        return why, "bad_annotate_path", "suffix", {"path": path}
    if not out.parent.exists():
        why = f"--annotate {path}: the folder {out.parent} does not exist"
        return why, "bad_annotate_path", "folder", {"path": path, "folder": str(out.parent)}
    if force:
        return None
    if image == "-" and _is_standard_input(out):
        why = f"--annotate {path} is the photo on standard input: choose another file name (or add --force)"
        return why, "annotate_onto_input", "stdin", {"path": path}
    if image != "-" and (out.exists() or out.is_symlink()) and _same_file(out, Path(image)):
        why = f"--annotate {path} is the input photo: choose another file name (or add --force)"
        return why, "annotate_onto_input", "input", {"path": path}
    if out.is_symlink():
        why = f"--annotate {path} is a symbolic link: choose another file name (or add --force)"
        return why, "annotate_onto_input", "link", {"path": path}
    return None


SAVE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}


def write_annotation(path: str, result, loaded) -> None:
    """Save the annotated photo (at the decoded size) to `path`; the format follows the extension.

    Written to a temporary file in the same folder and renamed over `path` (atomic: `path`
    is either the old file or the whole new one; a symbolic link is replaced, not followed).

    Raises:
        OSError, ValueError: the file cannot be written (the temporary file is removed).
    """
    from vision.annotate import annotate

    im = annotate(
        loaded.pixels, result.detections, result.groups, scale=loaded.scale, rejected=result.rejected
    )
    out = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.stem}-", suffix=out.suffix, dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            im.save(fh, SAVE_FORMATS[out.suffix.lower()])
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
