"""jxmj detect — find and name every tile in a photo; prints JSON (docs/detect-json.md).

  jxmj detect hand.jpg                      # one JSON object on standard output
  jxmj detect hand.heic --annotate out.png  # also draw boxes and tile names
  jxmj detect -  < hand.jpg                 # the image on standard input

Output: {"image": {"width", "height"}, "detections": [{"xyxy", "tile", "conf", "face_down",
"rotated"}, ...], "groups": [{"tiles", "kind_guess", ...}], "timing_ms": {...}}; xyxy in
pixels of the upright photo. Exit status 2 with {"error": ...} for an unreadable, empty,
too small or oversized image; 1 with {"error": ...} when the models are missing.
The models come from models/ (or the directory in $JXMJ_MODELS_DIR).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

DESCRIPTION = __doc__


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="photo file (JPEG, PNG, WebP, HEIC), or - for standard input")
    parser.add_argument("--annotate", metavar="OUT.png", help="write the photo with boxes and tile names")
    parser.add_argument("--models", metavar="DIR", help="directory with localizer.onnx and classifier.onnx")
    parser.add_argument(
        "--conf", type=conf_value, default=None, help="minimum localizer score, 0..1 (default 0.3)"
    )
    parser.add_argument(
        "--full-resolution",
        action="store_true",
        help="decode the photo at full resolution (slower; by default a large JPEG is decoded at 1/2 or 1/4 "
        "size when its tiles stay larger than the classifier's input)",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the JSON")


def emit(text: str) -> None:
    """Print `text` to standard output; a reader that went away (`| head`) is not an error."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit


def error(message: str, status: int) -> int:
    emit(json.dumps({"error": message}, ensure_ascii=False))
    return status


def read_input(name: str) -> bytes | Path:
    """The image argument as bytes (for `-`, at most `MAX_BYTES` + 1 read) or a path."""
    from vision.image import MAX_BYTES

    return sys.stdin.buffer.read(MAX_BYTES + 1) if name == "-" else Path(name)


def conf_value(text: str) -> float:
    """argparse type for --conf: a number in 0..1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must lie in 0..1, got {text}")
    return value


ANNOTATE_FORMATS = (".png", ".jpg", ".jpeg", ".webp")


def check_annotate_path(path: str | None) -> str | None:
    """Why `--annotate PATH` cannot be written, or None when it can (checked before detecting)."""
    if path is None:
        return None
    out = Path(path)
    if path == "" or out.is_dir():
        return f"--annotate needs an image file name such as boxes.png, not {path!r}"
    if out.suffix.lower() not in ANNOTATE_FORMATS:
        return f"--annotate {path}: the file name must end in {', '.join(ANNOTATE_FORMATS)}"
    if not out.parent.exists():
        return f"--annotate {path}: the folder {out.parent} does not exist"
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
    """Decode + detect for the CLI: `(result, loaded_image)`; raises ImageError / ModelError."""
    from vision import open_image

    reader = make_reader(args)
    loaded = open_image(read_input(args.image), min_side=reader.config.decode_min_side or None)
    return reader.detect(loaded), loaded


def write_annotation(path: str, result, loaded) -> None:
    """Save the annotated photo (at the decoded size) to `path`; the format follows the extension."""
    from vision.annotate import annotate

    im = annotate(loaded.pixels, result.detections, result.groups, scale=loaded.scale)
    im.save(path)


def run(args: argparse.Namespace) -> int:
    from vision import ImageError, ModelError

    problem = check_annotate_path(args.annotate)
    if problem:
        return error(problem, 2)
    try:
        result, loaded = detect(args)
    except ImageError as exc:
        return error(str(exc), 2)
    except ModelError as exc:
        return error(str(exc), 1)
    if args.annotate is not None:
        try:
            write_annotation(args.annotate, result, loaded)
        except (OSError, ValueError, KeyError) as exc:
            return error(f"cannot write {args.annotate}: {exc}", 2)
    emit(json.dumps(result.to_json(), ensure_ascii=False, indent=1 if args.pretty else None))
    return 0
