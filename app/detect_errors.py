"""The errors of `jxmj detect` and `jxmj photo`: every code they print, and the error object in
the chosen language.

Any error is ``{"error": sentence, "code": code}`` on standard output (`jxmj photo` without
``--json``: the sentence on standard error). The language is ``--lang zh|en``, by default the
locale's (`app.clilang.lang_of`, as `jxmj score` and `jxmj table`):

- ``en``: the sentence is the reader's own, naming the problem (the file, the limit, the reference
  counting from 1) and unchanged: other tools parse it;
- ``zh``: the sentence is the app's catalog's (``app/locales``) for the code, ``detect.<code>``, or
  ``detect.<code>.<case>`` where the error says which of the code's problems it is
  (`vision.refs.RefsError.case`), with the values the English names filled in (`ImageError.fields`,
  `RefsError.fields`, the file given); ``"detail"`` holds the English sentence.

>>> error_object("no such file: x.jpg", "no_file", "en", fields={"file": "x.jpg"})
{'error': 'no such file: x.jpg', 'code': 'no_file'}
>>> error_object("no such file: x.jpg", "no_file", "zh", fields={"file": "x.jpg"})["error"]
'找不到文件 x.jpg。'
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "ERROR_CODES",
    "MISSING",
    "PHOTO_OWN_CODES",
    "REFS_ERROR_CODES",
    "catalog_key",
    "detect_codes",
    "error_object",
    "photo_codes",
    "say",
]

#: `jxmj detect`'s own codes (`app.cmd_detect.ERROR_CODES`), besides the image's and `bad_usage`
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

USAGE_CODE = "bad_usage"  # app.cli.USAGE_CODE (app.cli imports no command module)
PHOTO_OWN_CODES = ("no_tiles", "no_winning_tile")
"""The codes `jxmj photo` adds to `jxmj detect`'s."""
NOT_SCORED = "detect.hand_not_scored"
MISSING = "…"
"""What a sentence shows for a value its error did not give (the tests allow none)."""


_BETWEEN_HAN = re.compile(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])")


def detect_codes() -> tuple[str, ...]:
    """Every code `jxmj detect` prints: the image's (`vision.image.ERROR_CODES`), its own
    (`ERROR_CODES`), the references' (`REFS_ERROR_CODES`) and `bad_usage`."""
    from vision.image import ERROR_CODES as IMAGE_CODES

    return (*IMAGE_CODES, *ERROR_CODES, *REFS_ERROR_CODES, USAGE_CODE)


def photo_codes() -> tuple[str, ...]:
    """Every code `jxmj photo` prints besides the scoring engine's (`scoring.errors.CODES`: a hand
    read from the photo that cannot be scored; its words: `NOT_SCORED` with the engine's
    ``code.<code>``): `detect_codes` and `PHOTO_OWN_CODES`."""
    return (*detect_codes(), *PHOTO_OWN_CODES)


class _Fields(dict):
    def __missing__(self, key: str) -> str:
        return MISSING


def catalog_key(code: str, case: str | None = None) -> str:
    """``detect.<code>.<case>`` where the catalog holds it, else ``detect.<code>``."""
    from app.ui.i18n import catalog

    key = f"detect.{code}"
    return f"{key}.{case}" if case and f"{key}.{case}" in catalog("zh") else key


def say(lang: str, name: str, /, **fields: Any) -> str:
    """The catalog sentence `name` in `lang` with `fields` filled in (a field it names that is not
    given: `MISSING`; a key the catalog lacks: the key itself). In Chinese a space the template
    keeps beside a value that turned out Chinese (`image_name` of ``-``) is dropped."""
    from app.ui.i18n import catalog

    text = catalog(lang).get(name, name)
    try:
        text = text.format_map(_Fields(fields))
    except (ValueError, IndexError, AttributeError):  # pragma: no cover - a malformed catalog entry
        return text
    return _BETWEEN_HAN.sub("", text) if lang == "zh" else text


def error_object(
    message: str,
    code: str,
    lang: str,
    case: str | None = None,
    fields: dict[str, Any] | None = None,
    key: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``{"error", "code", ...extra}`` in ``lang`` (``"zh"`` or ``"en"``); in Chinese with
    ``"detail"``, the English ``message``.

    Args:
        message: the English sentence (the error's ``str``).
        code: the stable code (`DETECT_CODES`, `PHOTO_CODES` or a scoring code).
        case: which of the code's problems (`RefsError.case`), or None.
        fields: the values the sentence names (``file``, ``limit``, ``ref``, ...); for
            ``ref_photo_unreadable`` also ``cause``, the photo's image code, said inside it.
        key: the catalog key instead of the code's (`NOT_SCORED` for a scoring code).
        extra: more members after ``code`` (`jxmj photo --json`: ``detect``, ``hand``, ...).
    """
    if lang != "zh":
        return {"error": message, "code": code, **(extra or {})}
    fields = dict(fields or {})
    if code == "ref_photo_unreadable" and "cause" in fields:  # the photo's own problem, named
        fields["why"] = say("zh", catalog_key(fields["cause"]), **{**fields, "file": fields.get("photo")})
    sentence = say("zh", key or catalog_key(code, case), **fields)
    return {"error": sentence, "code": code, "detail": message, **(extra or {})}


def image_name(image: str, lang: str) -> str:
    """How a sentence names the photo argument `image`: its path, or for ``-`` standard input."""
    return say(lang, "detect.stdin") if image == "-" else image


def scoring_fields(code: str) -> dict[str, str]:
    """The ``why`` of `NOT_SCORED`: the engine's Chinese sentence for its `code`."""
    from app.ui.i18n import catalog

    words = catalog("zh")
    return {"why": words.get(f"code.{code}", words["code.unknown"])}
