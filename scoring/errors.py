"""The one exception of the scoring engine."""

from __future__ import annotations

__all__ = ["HandError"]


class HandError(ValueError):
    """Invalid input: an unknown tile, a fifth copy, a wrong count, a hand that is not complete …

    ``str(error)`` is one sentence naming the problem (the tile or meld at fault); `jxmj score`
    prints it as ``{"error": "..."}`` with exit status 2.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
