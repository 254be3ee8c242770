"""jxmj scoring engine for 九江 (Jiujiang), 星子 (Xingzi) and 新余 (Xinyu) mahjong.

Pure Python (stdlib only); depends on nothing else of jxmj. The rules are read as
`docs/rules/DECISIONS.md` fixes them; every number lives in ``scoring/rules/*.toml``.

Public API (stable)::

    score(hand: HandInput, rules: RuleTable | None = None) -> ScoreResult   # DECISIONS §1.3-1.5, §2
    score_json(data: dict) -> dict                  # docs/score-json.md, raises HandError
    score_winners(hands: Sequence[HandInput], rules=None) -> tuple[ScoreResult, ...]
                                                    # several winners on one discard (一炮多响, §1.5)
    HandInput.from_json(data: dict) -> HandInput    # also as hand_from_json
    is_complete(concealed, melds=(), variant="jiujiang") -> bool
    waits(concealed, melds=(), variant="jiujiang") -> list[Tile]
    suggest_fixes(concealed, melds=(), variant="jiujiang", *, winning_tile=None, limit=10) -> list[Fix]
    parse_tiles(text) -> list[Tile]; format_tiles(tiles) -> str
    format_text(result: ScoreResult, lang="en") -> str  # `jxmj score --format text --lang zh|en`
    load_rules(variant) -> RuleTable; load_rules_file(path) -> RuleTable
    RuleTable.with_overrides(dict) -> RuleTable; load_overrides(path) -> dict  # house rules per call
    kong_money(rules.options, exposed, concealed, point_value)  # 新余 kong money (§2)
    HandError(code, message)                        # bad input; .code from scoring.errors.CODES
    VARIANTS, EVENTS, MELD_KINDS                    # the rule vocabulary (scoring.model)
    counts_of(tiles) -> list[int]                   # the tile notation is scoring.tiles
"""

from scoring import errors
from scoring.engine import REASON_CODES, score, score_json
from scoring.errors import HandError
from scoring.model import (
    EVENTS,
    MELD_KINDS,
    VARIANTS,
    Block,
    HandInput,
    Item,
    Meld,
    Payer,
    Payment,
    ScoreResult,
)
from scoring.multi import score_winners
from scoring.rules import RuleTable, kong_money, load_overrides, load_rules, load_rules_file
from scoring.text import format_text
from scoring.tiles import Tile, counts_of, format_tiles, parse_tile, parse_tiles
from scoring.waits import Fix, is_complete, suggest_fixes, waits

#: Build a :class:`HandInput` from a JSON hand (the same as ``HandInput.from_json``).
hand_from_json = HandInput.from_json

__all__ = [
    "EVENTS",
    "MELD_KINDS",
    "REASON_CODES",
    "VARIANTS",
    "Block",
    "Fix",
    "HandError",
    "HandInput",
    "Item",
    "Meld",
    "Payer",
    "Payment",
    "RuleTable",
    "ScoreResult",
    "Tile",
    "counts_of",
    "errors",
    "format_text",
    "format_tiles",
    "hand_from_json",
    "is_complete",
    "kong_money",
    "load_overrides",
    "load_rules",
    "load_rules_file",
    "parse_tile",
    "parse_tiles",
    "score",
    "score_json",
    "score_winners",
    "suggest_fixes",
    "waits",
]
