"""jxmj photo — photo -> tiles -> hand -> score, in one step.

  jxmj photo hand.jpg --variant xingzi
  jxmj photo hand.jpg --variant jiujiang --self-drawn --dealer --event kong_bloom
  jxmj photo hand.jpg --variant xinyu --winning-tile 5p --json
  jxmj photo hand.jpg --variant xingzi --refs refs.json   # with tiles of this set put right before

The tiles are read from the photo (as `jxmj detect`), the hand is guessed from how they lie
(rows, sets split by gaps: a set of three alike = a pung, four = a kong, two backs and two
faces = a concealed kong, a sideways tile = a claimed meld, a lone tile set apart = the
winning tile, 發 set aside = bonus tiles) and scored with the rules of --variant.
Every part of the hand is a guess: the output shows the guessed hand as score JSON, so it
can be corrected and scored again with `jxmj score -`.

Exit status: 0 scored; 2 bad input (unreadable photo, no tiles, a hand that cannot be
scored — the message says why and shows the hand); 1 models missing or invalid.
--lang zh|en (before or after IMAGE; default: the locale's) is the language of the errors: in
zh the Chinese sentence, and the English one beside it ("detail" with --json).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from app.cliio import emit, emit_json, warn
from app.clilang import decimal_number, lang_of
from app.cmd_detect import (
    add_force_argument,
    add_lang_argument,
    add_refs_argument,
    check_annotate_path,
    conf_value,
)
from app.photo_hand import hand_from_photo
from scoring import HandError, HandInput, format_text, score
from scoring.model import EVENTS, MAX_POINT_VALUE, MIN_POINT_VALUE, VARIANTS
from vision.detection import NOT_PLAYERS

DESCRIPTION = __doc__


def point_value(text: str) -> float:
    """argparse type for --point-value: a number the engine takes as point_value
    (`scoring.model.check_point_value`: MIN_POINT_VALUE..MAX_POINT_VALUE), checked before the
    photo is read."""
    value = decimal_number(text)  # ASCII only: float("٢") is 2
    if not (math.isfinite(value) and MIN_POINT_VALUE <= value <= MAX_POINT_VALUE):
        raise argparse.ArgumentTypeError(
            f"points per 炮 must lie in {MIN_POINT_VALUE:g}..{MAX_POINT_VALUE:,}, got {text[:40]}"
        )
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="photo file (JPEG, PNG, WebP, HEIC, AVIF), or - for standard input")
    parser.add_argument("--variant", required=True, choices=VARIANTS, help="rule set")
    parser.add_argument("--self-drawn", action="store_true", help="won on a self-drawn tile (自摸)")
    parser.add_argument("--dealer", action="store_true", help="the winner is the dealer (庄)")
    parser.add_argument(
        "--event", action="append", default=[], choices=EVENTS, help="a special event (repeatable)"
    )
    parser.add_argument("--winning-tile", metavar="TILE", help="override the guessed winning tile, e.g. 5p")
    parser.add_argument(
        "--point-value", type=point_value, default=None, help="points per 炮, a positive number (default 1)"
    )
    parser.add_argument("--models", metavar="DIR", help="directory with localizer.onnx and classifier.onnx")
    parser.add_argument(
        "--conf", type=conf_value, default=None, help="minimum localizer score, %(type)s (default 0.3)"
    )
    parser.add_argument(
        "--annotate", metavar="OUT.png", help="also write the photo with boxes and tile names"
    )
    add_force_argument(parser)
    add_refs_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object: detect, hand, score")
    add_lang_argument(parser)


def error_format(args: argparse.Namespace) -> str:
    """How this command writes its errors, usage errors included (`app.cli`): "json" with --json,
    else "stderr" (a sentence on standard error; `_fail`)."""
    return "json" if getattr(args, "json", False) else "stderr"


def error_object(args: argparse.Namespace, message: str, code: str) -> dict[str, str]:
    """The error object in the language of `args` (`app.cli` answers usage errors with it too)."""
    from app import detect_errors

    return detect_errors.error_object(message, code, lang_of(args))


def _fail(
    args: argparse.Namespace,
    message: str,
    status: int,
    code: str,
    extra: dict[str, Any] | None = None,
    case: str | None = None,
    fields: dict[str, Any] | None = None,
    key: str | None = None,
) -> int:
    """Exit `status`: with --json ``{"error", "code", ...extra}`` on standard output (the codes of
    `jxmj detect`, then `no_tiles`, `no_winning_tile` or the scoring engine's), else a sentence
    on standard error; in the language of `args` (`app.detect_errors`: in zh the Chinese sentence
    for `key` or the code and `case`, with `fields`, and the English `message` beside it)."""
    from app import detect_errors

    lang = lang_of(args)
    said = detect_errors.error_object(message, code, lang, case, fields, key, extra)
    if error_format(args) == "json":
        return emit_json(said) or status
    warn(f"jxmj photo: {said['error']}")
    if "detail" in said:
        warn(f"  {message}")
    if extra and "hand" in extra:
        warn(detect_errors.say(lang, "detect.hand_shown"))
        warn(json.dumps(extra["hand"], ensure_ascii=False))
    return status


def _rows_text(result) -> list[str]:
    """One line per row: sets in brackets, tile codes, sideways tiles marked with `~`."""
    rows: dict[int, list[str]] = {}
    for g in result.groups:
        codes = []
        for i in g.tiles:
            d = result.detections[i]
            codes.append(d.tile + ("~" if d.rotated else ""))
        rows.setdefault(g.row, []).append(f"[{' '.join(codes)}] {g.kind_guess}?")
    return [f"  row {r + 1}: " + "   ".join(sets) for r, sets in sorted(rows.items())]


def _left_out_text(result) -> list[str]:
    """One line naming the tiles left out of the hand by their role (`vision.roles`), if any:
    `  left out: 12 discard, 4 wall, 1 other`."""
    counts = [(sum(d.role == role for d in result.detections), role) for role in NOT_PLAYERS]
    named = [f"{n} {role}" for n, role in counts if n]
    return [f"  left out: {', '.join(named)}"] if named else []


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except Exception as exc:  # never a traceback: a bug is reported as an error object
        why = f"internal error while reading the photo ({type(exc).__name__}: {exc})"
        return _fail(args, why, 2, "internal_error")


def _run(args: argparse.Namespace) -> int:
    from app.cmd_detect import AnnotateOntoInput, detect, problem_of, write_annotation
    from app.detect_errors import NOT_SCORED, scoring_fields
    from vision import ImageError, ModelError
    from vision.refs import RefsError

    as_json = error_format(args) == "json"
    problem = check_annotate_path(args.annotate, args.image, args.force)
    if problem:
        message, code, case, fields = problem
        return _fail(args, message, 2, code, case=case, fields=fields)
    try:
        result, loaded = detect(args)
    except (ImageError, RefsError, AnnotateOntoInput) as exc:
        case, fields = problem_of(exc, args)
        return _fail(args, str(exc), 2, exc.code, case=case, fields=fields)
    except ModelError as exc:
        return _fail(args, str(exc), 1, "models_unavailable")
    if args.annotate is not None:
        try:
            write_annotation(args.annotate, result, loaded)
        except (OSError, ValueError, KeyError) as exc:
            why = f"cannot write {args.annotate}: {exc}"
            return _fail(args, why, 2, "annotate_not_written", fields={"path": args.annotate})
    if not result.detections:
        return _fail(args, "no tiles found in the photo", 2, "no_tiles", {"detect": result.to_json()})

    guess = hand_from_photo(result, args.variant)
    fields = {"variant": args.variant, "self_drawn": bool(args.self_drawn)}
    if args.dealer:
        fields["winner_is_dealer"] = True
    if args.event:
        fields["events"] = list(dict.fromkeys(args.event))
    if args.point_value is not None:
        fields["point_value"] = args.point_value
    hand = guess.to_score_json(**fields)
    notes = [note.text for note in guess.notes]
    if args.winning_tile:
        hand["winning_tile"] = args.winning_tile
        notes.append(f"winning tile {args.winning_tile} given on the command line")
    payload = {"detect": result.to_json(), "hand": hand, "notes": notes}

    if not hand["winning_tile"]:
        why = "no face-up tile was read, so there is no hand to score"
        return _fail(args, why, 2, "no_winning_tile", payload)
    try:
        scored = score(HandInput.from_json(dict(hand)))
    except HandError as exc:
        why = f"the hand read from the photo cannot be scored: {exc}"
        return _fail(args, why, 2, exc.code, payload, fields=scoring_fields(exc.code), key=NOT_SCORED)

    if as_json:
        return emit_json({**payload, "score": scored.to_json()})
    lines = [f"{len(result.detections)} tiles read ({result.width}x{result.height} px):"]
    lines += _rows_text(result) + _left_out_text(result)
    lines.append("hand (guessed): " + json.dumps(hand, ensure_ascii=False))
    lines += [f"  - {note}" for note in notes]
    lines += format_text(scored, "en").splitlines()
    return emit("\n".join(lines))
