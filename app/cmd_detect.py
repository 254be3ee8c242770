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
    parser.add_argument("--conf", type=float, default=None, help="minimum localizer score (default 0.3)")
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
    """The image argument as bytes (for `-`) or a path."""
    return sys.stdin.buffer.read() if name == "-" else Path(name)


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

    try:
        result, loaded = detect(args)
    except ImageError as exc:
        return error(str(exc), 2)
    except ModelError as exc:
        return error(str(exc), 1)
    if args.annotate:
        try:
            write_annotation(args.annotate, result, loaded)
        except (OSError, ValueError, KeyError) as exc:
            return error(f"cannot write {args.annotate}: {exc}", 2)
    emit(json.dumps(result.to_json(), ensure_ascii=False, indent=1 if args.pretty else None))
    return 0
