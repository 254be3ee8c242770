"""The one exception of the scoring engine, and its stable codes.

Every :class:`HandError` carries a ``code`` (one of the constants below) beside its sentence, so a
program — the web app, the ledger — can translate or react by code and never by matching the
English text. The codes are part of the JSON contract (docs/score-json.md "Error codes").

>>> e = HandError(FIFTH_COPY, "five or more copies of 5m")
>>> (e.code, str(e))
('fifth_copy', 'five or more copies of 5m')
"""

from __future__ import annotations

__all__ = ["CODES", "HandError"]

# ---- input shape (the JSON edge and the dataclasses) --------------------------------------
BAD_FIELD = "bad_field"  #: a missing or unknown field, or a value of the wrong type
UNKNOWN_VARIANT = "unknown_variant"  #: variant is not jiujiang / xingzi / xinyu
BAD_POINT_VALUE = "bad_point_value"  #: point_value not a finite number in 0.0001..10^12
# ---- tiles ---------------------------------------------------------------------------------
UNKNOWN_TILE = "unknown_tile"  #: a character or letter that is no tile
AMBIGUOUS_HONOUR = "ambiguous_honour"  #: 5z-style honours (riichi and Guobiao disagree, §0)
TILE_NOT_IN_VARIANT = "tile_not_in_variant"  #: a wind in jiujiang/xingzi (§0)
BONUS_TILE_IN_HAND = "bonus_tile_in_hand"  #: 發 standing in a jiujiang/xingzi hand or meld (§1.1)
NO_BONUS_TILES = "no_bonus_tiles"  #: bonus_tiles given in xinyu, which has none
FIFTH_COPY = "fifth_copy"  #: five or more copies of one tile in the input
WRONG_TILE_COUNT = "wrong_tile_count"  #: not 14 tiles plus one per kong
WINNING_TILE_NOT_IN_HAND = "winning_tile_not_in_hand"  #: concealed must include the winning tile
# ---- melds ---------------------------------------------------------------------------------
BAD_MELD = "bad_meld"  #: a meld of the wrong shape (a pung of three different tiles)
TOO_MANY_MELDS = "too_many_melds"  #: more than four melds
CHOW_NOT_ALLOWED = "chow_not_allowed"  #: a chow where the variant does not allow it (§1.1, §2)
# ---- events and payers ---------------------------------------------------------------------
UNKNOWN_EVENT = "unknown_event"  #: not one of scoring.model.EVENTS
EVENT_NOT_IN_VARIANT = "event_not_in_variant"  #: e.g. ready_declared outside jiujiang
INCONSISTENT_EVENT = "inconsistent_event"  #: an event the rest of the input contradicts
ROBBED_PUNG_MISSING = "robbed_pung_missing"  #: 抢杠 without the robbed player's pung (§1.3a)
DISCARDER_KONG_MISSING = "discarder_kong_missing"  #: 杠上流泪 without the discarder's kong (§1.3a)
DEALER_NOT_PAYING = "dealer_not_paying"  #: a 星子 self-draw whose payers hold no dealer (§1.5)
BAD_PAYERS = "bad_payers"  #: wrong number of payers, two dealers, repeated names
PAYER_SETS_IMPOSSIBLE = "payer_sets_impossible"  #: a payer's counted sets need a fifth copy of a tile
INCONSISTENT_WINNERS = "inconsistent_winners"  #: several winners that do not share one discard
# ---- the hand itself -----------------------------------------------------------------------
NOT_COMPLETE = "not_complete"  #: neither four sets and a pair nor seven pairs (nor xinyu's free shape)
# ---- rule tables and house rules -----------------------------------------------------------
UNKNOWN_RULE_KEY = "unknown_rule_key"  #: a house-rule override naming no key of the table
BAD_RULE_VALUE = "bad_rule_value"  #: a house-rule override of the wrong type
BAD_RULE_TABLE = "bad_rule_table"  #: a rule table file that cannot be read
# ---- the CLI edge (app/cmd_score.py) -------------------------------------------------------
BAD_JSON = "bad_json"  #: the input is not valid JSON
INPUT_UNREADABLE = "input_unreadable"  #: the input file is missing or cannot be read
INPUT_TOO_LARGE = "input_too_large"  #: the input is larger than a hand can be
INTERNAL_ERROR = "internal_error"  #: a bug of the engine, reported instead of a traceback

#: Every error code, for docs and tests (docs/score-json.md lists the same set).
CODES: tuple[str, ...] = tuple(
    v for k, v in dict(globals()).items() if k.isupper() and isinstance(v, str) and k != "CODES"
)


class HandError(ValueError):
    """Invalid input: an unknown tile, a fifth copy, a wrong count, a hand that is not complete …

    ``code`` is a stable identifier from :data:`CODES` (``"fifth_copy"``); ``str(error)`` (also
    ``error.message``) is one sentence naming the problem — the tile or meld at fault. `jxmj score`
    prints both as ``{"error": "...", "code": "..."}`` with exit status 2. ``detail``: the parts of
    the sentence a program words itself in another language, as strings (a house-rule error's
    ``key`` and the kind of value it ``want``, `scoring/rules/overrides.py`); empty for most codes.

    >>> HandError(BAD_RULE_VALUE, "rules: options.cap must be true or false, not 3", key="options.cap").detail
    {'key': 'options.cap'}
    """

    def __init__(self, code: str, message: str, **detail: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail

    def with_prefix(self, prefix: str) -> HandError:
        """The same error with ``prefix`` before its sentence (``"meld 2: "``)."""
        return HandError(self.code, f"{prefix}{self.message}", **self.detail)
