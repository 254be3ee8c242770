"""Result dataclasses of the scoring API (docs/score-json.md "Output" in Python form).

A leaf module: it imports only :mod:`scoring.tiles`. :mod:`scoring.model` re-exports every name.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scoring.tiles import Tile, format_tiles

__all__ = ["DEFAULT_PAYER_WORDS", "Block", "DefaultName", "Item", "Payment", "ScoreResult", "rule_sections"]

#: The words of the names the engine gives payers the input leaves unnamed (`scoring.validate`,
#: docs/score-json.md "Default payers"): role code -> (English, Chinese).
DEFAULT_PAYER_WORDS = {"discarder": ("discarder", "放炮者"), "player": ("player", "玩家")}
_SECTION = re.compile(r"§\s*(\d+(?:\.\d+)?[a-z]?)")


@dataclass(frozen=True, slots=True)
class DefaultName:
    """The name the engine gave a payer the input left unnamed, as a code: ``role`` (a key of
    :data:`DEFAULT_PAYER_WORDS`: ``"discarder"`` or ``"player"``) and ``number`` (0: none;
    ``player 1``..``player 3``, or the number added when a given name clashes). Both languages
    are made from the code: :attr:`en` is the JSON ``payer``, :attr:`zh` the name in Chinese
    text. No name is ever read back from its English (a name the input gave, even ``"player
    2"``, has no code and is written as given).

    >>> DefaultName("player", 2).en, DefaultName("player", 2).zh, DefaultName("discarder").zh
    ('player 2', '玩家2', '放炮者')
    """

    role: str
    number: int = 0

    @property
    def en(self) -> str:
        word = DEFAULT_PAYER_WORDS[self.role][0]
        return f"{word} {self.number}" if self.number else word

    @property
    def zh(self) -> str:
        word = DEFAULT_PAYER_WORDS[self.role][1]
        return f"{word}{self.number}" if self.number else word


def rule_sections(ref: str) -> list[str]:
    """The DECISIONS sections a rule reference (``Item.rule``) names, in order, each once.

    >>> rule_sections("DECISIONS §1.3 definitions, §1.3a"), rule_sections("house rule")
    (['1.3', '1.3a'], [])
    """
    return list(dict.fromkeys(_SECTION.findall(ref or "")))


@dataclass(slots=True)
class Item:
    """One line of the score: ``points`` (炮, jiujiang/xingzi) or ``multiplier`` (xinyu).

    ``reason`` (English) and ``reason_zh`` say why it holds; ``rule`` is the DECISIONS section."""

    key: str
    name_zh: str
    name_en: str
    reason: str
    rule: str
    points: int | None = None
    multiplier: float | None = None
    reason_zh: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key}
        if self.multiplier is not None:
            out["multiplier"] = json_number(self.multiplier)
        else:
            out["points"] = self.points
        out.update(name_zh=self.name_zh, name_en=self.name_en, reason=self.reason, reason_zh=self.reason_zh)
        out["rule"] = self.rule
        return out


@dataclass(slots=True)
class Block:
    """One block of the chosen reading.

    ``kind``: ``chow``, ``pung``, ``pair`` for tiles standing in the hand (``single``,
    ``pair``, ``pung``, ``quad`` in xinyu's all-honour free shape), or a meld kind for a
    declared meld. ``source`` is ``"hand"`` or ``"meld"``; ``winning`` marks the block the
    winning tile completes.
    """

    kind: str
    tiles: tuple[Tile, ...]
    source: str = "hand"
    winning: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tiles": format_tiles(self.tiles), "source": self.source}
        if self.winning:
            out["winning"] = True
        return out


@dataclass(slots=True)
class Payment:
    """What one payer pays the winner (DECISIONS §1.5 / §2).

    jiujiang/xingzi: ``amount = (own + eaten) x point_value`` (x2 when ``doubled``, xingzi's
    dealer rule). xinyu: ``amount = own x point_value + kong_money``. ``default_name``: the
    :class:`DefaultName` code when the engine named the payer (`Payer.default_name`), else None.
    """

    payer: str
    is_dealer: bool
    eaten: int
    eaten_items: tuple[Item, ...]
    doubled: bool
    kong_money: int | float | Decimal
    amount: float | Decimal
    default_name: DefaultName | None = None

    @property
    def payer_zh(self) -> str:
        """The payer's name in Chinese text: a default name from its code (``放炮者``, ``玩家1``),
        a name the input gave as it is."""
        return self.payer if self.default_name is None else self.default_name.zh

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"payer": self.payer, "eaten": self.eaten, "amount": _money(self.amount)}
        out["is_dealer"] = self.is_dealer
        out["doubled"] = self.doubled
        if self.kong_money:
            out["kong_money"] = _kong(self.kong_money)
        out["eaten_items"] = [i.to_json() for i in self.eaten_items]
        return out


@dataclass(slots=True)
class ScoreResult:
    """The scored hand (docs/score-json.md "Output").

    ``own``: jiujiang/xingzi — the hand's own 炮 without 吃炮 (items' points add up to it);
    xinyu — the product of the multipliers. ``can_win`` is False with a ``reason`` and a stable
    ``reason_code`` when the hand is complete but may not be won: ``below_minimum`` (二炮起胡
    §1.4) or ``self_draw_only`` (a discard in xinyu, §2). ``rules_applied``: the house-rule
    overrides (table key → value) this score used, empty for the built-in table.
    """

    variant: str
    can_win: bool
    reason: str | None
    own: float | None
    items: tuple[Item, ...]
    decomposition: tuple[Block, ...]
    shape: str
    wait: str | None
    waits: tuple[Tile, ...]
    payments: tuple[Payment, ...] = ()
    point_value: float | Decimal = 1
    readings: int = 1
    notes: tuple[str, ...] = field(default=())
    reason_code: str | None = None
    rules_applied: dict[str, Any] = field(default_factory=dict)
    reason_zh: str | None = None
    winning_tile: Tile | None = None
    notes_zh: tuple[str, ...] = field(default=())

    @property
    def total(self) -> float | Decimal:
        """What the winner collects from all payers together."""
        return sum((p.amount for p in self.payments), 0)

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object (plus a few documented extra fields)."""
        out: dict[str, Any] = {
            "can_win": self.can_win,
            "reason": self.reason,
            "reason_code": self.reason_code,
            "variant": self.variant,
        }
        if self.reason_zh is not None:
            out["reason_zh"] = self.reason_zh
        if self.own is not None:
            out["own"] = json_number(self.own)
        out["items"] = [i.to_json() for i in self.items]
        out["decomposition"] = [b.to_json() for b in self.decomposition]
        out["shape"] = self.shape
        out["wait"] = self.wait
        out["waits"] = format_tiles(self.waits)
        if self.winning_tile is not None:
            out["winning_tile"] = self.winning_tile.code
        out["payments"] = [p.to_json() for p in self.payments]
        if self.payments:
            out["total"] = _money(self.total)
        out["point_value"] = json_number(self.point_value)
        if self.notes:
            out["notes"] = list(self.notes)
            out["notes_zh"] = list(self.notes_zh)
        if self.rules_applied:
            out["rules_applied"] = dict(self.rules_applied)
        return out


def json_number(x: float | Decimal) -> float | int:
    """A number as JSON writes it: an int when whole (``15``, not ``15.0``), a Decimal as int or float.
    The one formatter of numbers for JSON, exports and pages (scoring, ledger and app use it).

    >>> json_number(15.0), json_number(Decimal("2.50")), json_number(Decimal("36.00")), json_number(7)
    (15, 2.5, 36, 7)
    """
    if isinstance(x, Decimal):
        return int(x) if x == x.to_integral() else float(x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def _money(x: float | Decimal) -> float | int:
    """An amount: as :func:`json_number`, with float noise rounded away (0.1 x 12 is 1.2, not
    1.2000000000000002); a Decimal is exact already."""
    if isinstance(x, float) and math.isfinite(x):
        x = float(f"{x:.12g}")
    return json_number(x)


def _kong(x: int | float | Decimal) -> int | float:
    """Kong money in JSON: as computed (``kong_money x point_value`` is a float for a float point
    value); a Decimal as an int when its point value had no decimals, else as a float (``2.0``
    for 4 x 0.5, as the float would be written)."""
    if isinstance(x, Decimal):
        exponent = x.as_tuple().exponent  # "n" / "N" / "F" for NaN and infinity
        return int(x) if isinstance(exponent, int) and exponent >= 0 else float(x)
    return x
