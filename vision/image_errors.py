"""The errors of reading a picture (`vision.image.open_image`): `ImageError` and its codes."""

from __future__ import annotations

__all__ = ["ERROR_CODES", "ImageError"]

ERROR_CODES = (
    "empty",
    "no_file",
    "is_directory",
    "unreadable",
    "file_too_large",
    "not_image",
    "unsupported_format",
    "corrupt",
    "too_many_pixels",
    "too_much_memory",
    "too_small",
    "bad_array",
    "too_many_scans",
    "too_much_metadata",
    "too_slow",
)
"""Every `ImageError.code`; the app has a translated message for each (`image.<code>`)."""


class ImageError(ValueError):
    """The input is not a usable image: empty, not an image, corrupt, too big or too small.

    `str(error)` is one sentence meant for the user (the CLI prints it as `{"error": ...}`);
    `error.code` is one of `ERROR_CODES` and `error.fields` holds the numbers the sentence
    names (e.g. `width`, `height`, `limit`), so a translated message can say the same.
    """

    def __init__(self, code: str, message: str, **fields: object) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields
