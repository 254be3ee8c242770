"""jxmj detect — find and name every tile in a photo; prints JSON (docs/detect-json.md).

  jxmj detect hand.jpg                      # one JSON object on standard output
  jxmj detect hand.heic --annotate out.png  # also draw boxes and tile names
  jxmj detect -  < hand.jpg                 # the image on standard input
  jxmj detect hand.jpg --refs refs.json     # read with tiles of this set put right before

Output: {"image": {"width", "height"}, "detections": [{"xyxy", "tile", "conf", "face_down",
"rotated"}, ...], "groups": [{"tiles", "kind_guess", ...}], "timing_ms": {...}}; xyxy in
pixels of the upright photo. Exit status 2 with {"error": ..., "code": ...} for an unreadable,
empty, too small or oversized image, a closed standard input, a bad --annotate target or an
unwritable output, a usage error; 1 with {"error": ..., "code": "models_unavailable"} when the
models are missing (the codes: docs/detect-json.md); also for --refs references that cannot be
used (a missing or unreadable reference photo, a box outside it, a bad tile code, bad JSON, more than
2,000, models without the embedding output: `vision.refs.ERROR_CODES`). --annotate never writes
onto the photo it reads (the same file, a link to it) unless --force is given; it writes a
temporary file beside the target and renames it, so a failure leaves the target as it was.
The models come from models/ (or the directory in $JXMJ_MODELS_DIR).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from app.cliio import StreamError, emit_json, read_stdin
from app.clilang import decimal_number

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="photo file (JPEG, PNG, WebP, HEIC, AVIF), or - for standard input")
    parser.add_argument(
        "--annotate",
        metavar="OUT.png",
        help="write the photo with boxes and tile names (off-row tiles thin grey, rejected ones dashed)",
    )
    add_force_argument(parser)
    add_refs_argument(parser)
    parser.add_argument("--models", metavar="DIR", help="directory with localizer.onnx and classifier.onnx")
    parser.add_argument(
        "--conf", type=conf_value, default=None, help="minimum localizer score, %(type)s (default 0.3)"
    )
    parser.add_argument(
        "--full-resolution",
        action="store_true",
        help="decode the photo at full resolution (slower; by default a large JPEG is decoded at 1/2, 1/4 "
        "or 1/8 size, and again larger only when its tiles are smaller than the classifier's input there)",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the JSON")


def add_refs_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--refs",
        metavar="REFS.json",
        help='tiles of this set put right on earlier photos: {"refs": [{"image", "xyxy", "tile"}]} '
        "(docs/detect-json.md; relative image paths: relative to REFS.json's folder)",
    )


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="let --annotate replace the input photo itself")


#: `{"error", "code"}` codes besides `vision.image.ERROR_CODES` (the image's) and `bad_usage` (app.cli)
ERROR_CODES = (
    "models_unavailable",
    "bad_annotate_path",
    "annotate_onto_input",
    "annotate_not_written",
    "internal_error",
)


REFS_ERROR_CODES = (
    "refs_unreadable",
    "refs_bad_json",
    "refs_bad_tile",
    "refs_too_many",
    "ref_photo_unreadable",
    "ref_box_outside",
    "refs_unsupported",
)
"""The `--refs` codes: `vision.refs.ERROR_CODES` (listed here so that `jxmj score` need not import
vision; a test checks they agree)."""


def error(message: str, status: int, code: str) -> int:
    """Exit `status` with ``{"error": sentence, "code": stable code}`` on standard output."""
    return emit_json({"error": message, "code": code}) or status


def read_input(name: str) -> bytes | Path:
    """The image argument as bytes (for `-`, at most `MAX_BYTES` + 1 read) or a path.

    Raises:
        ImageError: standard input is closed or cannot be read.
    """
    from vision.image import MAX_BYTES, ImageError

    if name != "-":
        return Path(name)
    try:
        return read_stdin(MAX_BYTES + 1)
    except StreamError as exc:
        raise ImageError("unreadable", str(exc)) from None


class ReaderLimit:
    """argparse type of an option setting a `vision.ReaderConfig` field: a number in that
    field's range (`vision.boxes.LIMITS`, looked up when used, so that `jxmj score` does not
    load the vision stack). `str()` is the range, for the help text (``%(type)s``)."""

    def __init__(self, field: str) -> None:
        self.field = field

    def _range(self) -> tuple[float, float]:
        from vision.boxes import LIMITS

        return LIMITS[self.field]

    def __str__(self) -> str:
        lo, hi = self._range()
        return f"{lo:g}..{hi:g}"

    def __call__(self, text: str) -> float:
        from vision.boxes import check_limit

        value = decimal_number(text)  # ASCII only: float("٠.٥") is 0.5
        try:
            return check_limit(self.field, value)  # the range ReaderConfig checks; refuses nan
        except ValueError:
            raise argparse.ArgumentTypeError(f"must lie in {self}, got {text[:40]}") from None


conf_value = ReaderLimit("conf_threshold")
"""argparse type for --conf (`jxmj detect`, `jxmj photo`): 0.01..0.99; 0 or 1e-320 kept every box."""


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
            f"--annotate {path} is the input photo: choose another file name (or add --force)"
        )


def check_annotate_path(path: str | None, image: str = "-", force: bool = False) -> tuple[str, str] | None:
    """Why `--annotate PATH` cannot be written, as ``(sentence, code)``, or None when it can
    (checked before detecting).

    Refused: no file name, a folder, an unknown extension, a missing folder (`bad_annotate_path`),
    and — unless `force` — the input photo `image` itself, a link to it, or any existing symbolic
    link (`annotate_onto_input`).
    """
    if path is None:
        return None
    out = Path(path)
    if path == "" or out.is_dir():
        return f"--annotate needs an image file name such as boxes.png, not {path!r}", "bad_annotate_path"
    if out.suffix.lower() not in ANNOTATE_FORMATS:
        return (
            f"--annotate {path}: the file name must end in {', '.join(ANNOTATE_FORMATS)}",
            "bad_annotate_path",
        )
    if not out.parent.exists():
        return f"--annotate {path}: the folder {out.parent} does not exist", "bad_annotate_path"
    if force:
        return None
    if image == "-" and _is_standard_input(out):
        why = f"--annotate {path} is the photo on standard input: choose another file name (or add --force)"
        return why, "annotate_onto_input"
    if image != "-" and (out.exists() or out.is_symlink()) and _same_file(out, Path(image)):
        why = f"--annotate {path} is the input photo: choose another file name (or add --force)"
        return why, "annotate_onto_input"
    if out.is_symlink():
        why = f"--annotate {path} is a symbolic link: choose another file name (or add --force)"
        return why, "annotate_onto_input"
    return None


def make_reader(args: argparse.Namespace):
    """The shared `TileReader` for the command's options (raises `vision.ModelError`)."""
    from vision import ReaderConfig, get_reader

    options = {}
    if args.conf is not None:
        options["conf_threshold"] = args.conf
    if getattr(args, "full_resolution", False):
        options["decode_min_side"] = 0
    return get_reader(args.models, ReaderConfig(**options))


def detect(args: argparse.Namespace):
    """Decode + detect for the CLI, with `--refs` when given: `(result, loaded_image)`.

    Raises:
        ImageError, ModelError, vision.refs.RefsError (the references: read before the photo).
    """
    from vision import open_image
    from vision.refs import load_refs

    source = read_input(args.image)  # a closed standard input is refused before the models load
    if args.image == "-":
        check_annotate_content(getattr(args, "annotate", None), source, getattr(args, "force", False))
    refs = load_refs(args.refs) if getattr(args, "refs", None) is not None else []
    reader = make_reader(args)
    refset = reader.embed_refs(refs) if refs else None  # an empty list reads as without
    loaded = open_image(source, min_side=reader.config.decode_min_side or None)
    return reader.detect(loaded, refset), loaded


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


def run(args: argparse.Namespace) -> int:
    from vision import ImageError, ModelError
    from vision.refs import RefsError

    problem = check_annotate_path(args.annotate, args.image, args.force)
    if problem:
        message, code = problem
        return error(message, 2, code)
    try:
        result, loaded = detect(args)
    except (ImageError, RefsError, AnnotateOntoInput) as exc:
        return error(str(exc), 2, exc.code)
    except ModelError as exc:
        return error(str(exc), 1, "models_unavailable")
    except Exception as exc:  # never a traceback: a reader bug is reported as an error object
        return error(
            f"internal error while reading the photo ({type(exc).__name__}: {exc})", 2, "internal_error"
        )
    if args.annotate is not None:
        try:
            write_annotation(args.annotate, result, loaded)
        except (OSError, ValueError, KeyError) as exc:
            return error(f"cannot write {args.annotate}: {exc}", 2, "annotate_not_written")
    return emit_json(result.to_json(), indent=1 if args.pretty else None)
