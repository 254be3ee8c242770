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
The models come from models/ (or the directory in $JXMJ_MODELS_DIR). --lang zh|en (before or
after IMAGE; default: the locale's) is the language of the errors: in zh "error" is the Chinese
sentence and "detail" the English one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cliio import StreamError, emit_json, read_stdin
from app.clilang import LANGS, decimal_number, lang_of
from app.detect_annotate import (
    AnnotateOntoInput,
    check_annotate_content,
    check_annotate_path,
    write_annotation,
)
from app.detect_errors import ERROR_CODES, REFS_ERROR_CODES  # noqa: F401 - the codes, also here

DESCRIPTION = __doc__
LANG_HELP = 'language of the errors (default: from the locale); zh adds "detail", the English sentence'


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
    add_lang_argument(parser)


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGS, default=None, help=LANG_HELP)


def add_refs_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--refs",
        metavar="REFS.json",
        help='tiles of this set put right on earlier photos: {"refs": [{"image", "xyxy", "tile"}]} '
        "(docs/detect-json.md; relative image paths: relative to REFS.json's folder)",
    )


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="let --annotate replace the input photo itself")


def error_object(args: argparse.Namespace, message: str, code: str) -> dict[str, str]:
    """The error object in the language of `args` (`app.cli` answers usage errors with it too)."""
    from app import detect_errors

    return detect_errors.error_object(message, code, lang_of(args))


def error(
    args: argparse.Namespace, message: str, status: int, code: str, case: str | None = None, **fields
) -> int:
    """Exit `status` with ``{"error": sentence, "code": stable code}`` on standard output, in the
    language of `args` (`app.detect_errors`; `fields`: the values the sentence names)."""
    from app import detect_errors

    return emit_json(detect_errors.error_object(message, code, lang_of(args), case, fields)) or status


def problem_of(exc: Exception, args: argparse.Namespace) -> tuple[str | None, dict]:
    """``(case, fields)`` of an error `detect` raised, for its translated sentence: the error's
    own values and the file it is about (the photo, REFS.json)."""
    from app.detect_errors import image_name
    from vision.refs import RefsError

    fields = dict(getattr(exc, "fields", {}))
    if isinstance(exc, RefsError):
        return exc.case, {"file": getattr(args, "refs", None), **fields}
    return getattr(exc, "case", None), {"file": image_name(args.image, lang_of(args)), **fields}


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
    if isinstance(source, bytes):  # the standard input ("-"); a path is read later
        check_annotate_content(getattr(args, "annotate", None), source, getattr(args, "force", False))
    refs = load_refs(args.refs) if getattr(args, "refs", None) is not None else []
    reader = make_reader(args)
    refset = reader.embed_refs(refs) if refs else None  # an empty list reads as without
    loaded = open_image(source, min_side=reader.config.decode_min_side or None)
    return reader.detect(loaded, refset), loaded


def run(args: argparse.Namespace) -> int:
    from vision import ImageError, ModelError
    from vision.refs import RefsError

    problem = check_annotate_path(args.annotate, args.image, args.force)
    if problem:
        message, code, case, fields = problem
        return error(args, message, 2, code, case, **fields)
    try:
        result, loaded = detect(args)
    except (ImageError, RefsError, AnnotateOntoInput) as exc:
        case, fields = problem_of(exc, args)
        return error(args, str(exc), 2, exc.code, case, **fields)
    except ModelError as exc:
        return error(args, str(exc), 1, "models_unavailable")
    except Exception as exc:  # never a traceback: a reader bug is reported as an error object
        why = f"internal error while reading the photo ({type(exc).__name__}: {exc})"
        return error(args, why, 2, "internal_error")
    if args.annotate is not None:
        try:
            write_annotation(args.annotate, result, loaded)
        except (OSError, ValueError, KeyError) as exc:
            why = f"cannot write {args.annotate}: {exc}"
            return error(args, why, 2, "annotate_not_written", path=args.annotate)
    return emit_json(result.to_json(), indent=1 if args.pretty else None)
