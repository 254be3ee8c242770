"""Settlement (结算): each seat's net and the fewest transfers that settle the table.

Nets are the fold's running totals (they sum to zero: every hand's money moves between seats).
:func:`transfers` splits the seats into the most groups whose nets sum to zero (exact search;
four seats) and settles each group of n seats with n - 1 transfers, the largest debtor paying
the largest creditor first, which is the fewest transfers possible.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring.result import json_number

__all__ = ["Settlement", "Transfer", "settle", "transfers"]


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (seat indices); ``text`` is "李四 → 张三 36"."""

    payer: int
    payee: int
    amount: Decimal


@dataclass(frozen=True)
class Settlement:
    """``nets`` per seat (sum 0) and the ``transfers`` that settle them."""

    seats: tuple[str, ...]
    nets: tuple[Decimal, ...]
    transfers: tuple[Transfer, ...]

    def lines(self) -> list[str]:
        """One line per transfer, ``"李四 → 张三 36"``."""
        seats = self.seats
        return [f"{seats[t.payer]} → {seats[t.payee]} {json_number(t.amount)}" for t in self.transfers]

    def to_json(self) -> dict[str, Any]:
        return {
            "nets": {name: json_number(n) for name, n in zip(self.seats, self.nets, strict=True)},
            "transfers": [
                {"from": self.seats[t.payer], "to": self.seats[t.payee], "amount": json_number(t.amount)}
                for t in self.transfers
            ],
            "lines": self.lines(),
        }


def settle(seats: tuple[str, ...], nets: tuple[Decimal, ...]) -> Settlement:
    """The settlement of ``nets`` (one per seat; they must sum to zero).

    >>> s = settle(("张三", "李四", "王五", "赵六"), tuple(map(Decimal, (36, -36, 10, -10))))
    >>> s.lines()
    ['李四 → 张三 36', '赵六 → 王五 10']
    """
    if sum(nets, Decimal(0)) != 0:
        raise ValueError(f"nets must sum to zero: {nets}")
    return Settlement(tuple(seats), tuple(nets), transfers(nets))


def transfers(nets: tuple[Decimal, ...]) -> tuple[Transfer, ...]:
    """The fewest transfers that bring every net to zero (exact for up to ~12 seats)."""
    live = tuple(i for i, n in enumerate(nets) if n)
    out: list[Transfer] = []
    for group in _groups(tuple(nets[i] for i in live)):
        out.extend(_greedy([live[j] for j in group], nets))
    return tuple(sorted(out, key=lambda t: (-t.amount, t.payer, t.payee)))


def _groups(values: tuple[Decimal, ...]) -> list[list[int]]:
    """Split indices into the most zero-sum groups (bitmask search over subsets)."""
    n = len(values)
    full = (1 << n) - 1
    sums = [sum((values[j] for j in range(n) if m >> j & 1), Decimal(0)) for m in range(full + 1)]

    @functools.cache
    def best(mask: int) -> tuple[int, ...]:
        if not mask:
            return ()
        low = mask & -mask  # the group that holds the lowest seat left
        top: tuple[int, ...] = (mask,)
        sub = (mask - 1) & mask
        while sub:
            if sub & low and sums[sub] == 0:
                cand = (sub, *best(mask ^ sub))
                if len(cand) > len(top):
                    top = cand
            sub = (sub - 1) & mask
        return top

    return [[j for j in range(n) if m >> j & 1] for m in best(full)]


def _greedy(seats: list[int], nets: tuple[Decimal, ...]) -> list[Transfer]:
    bal = {s: nets[s] for s in seats}
    out = []
    while any(bal.values()):
        debtor = min(bal, key=lambda s: (bal[s], s))
        creditor = max(bal, key=lambda s: (bal[s], -s))
        amount = min(-bal[debtor], bal[creditor])
        out.append(Transfer(debtor, creditor, amount))
        bal[debtor] += amount
        bal[creditor] -= amount
    return out
