"""Table codes: the key to a table's ledger. Whoever knows a table's code may write to it.

A code is 11 characters from a 25-symbol alphabet without look-alikes (no 0, 1, 2,
5, B, G, I, L, O, S, Z), drawn with :mod:`secrets`: 11 x log2(25) = 51.1 random bits, so codes
cannot be guessed and the store never lists them. Input is forgiving about case, spaces and dashes.
"""

from __future__ import annotations

import math
import secrets

from ledger.errors import LedgerError, shown

__all__ = ["ALPHABET", "BITS", "LENGTH", "new_code", "normalize_code"]

ALPHABET = "346789ACDEFHJKMNPQRTUVWXY"
LENGTH = 11
BITS = LENGTH * math.log2(len(ALPHABET))


def new_code() -> str:
    """A fresh random table code, e.g. ``'K7QM9ACXTRE'``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize_code(text: str) -> str:
    """``text`` as a code (upper case, spaces and dashes dropped); raises ``bad_code``.

    >>> normalize_code("k7qm-9acx tre")
    'K7QM9ACXTRE'
    """
    code = "".join(str(text).split()).replace("-", "").upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        raise LedgerError(
            "bad_code", f"{shown(text)} is not a table code: {LENGTH} characters from {ALPHABET}"
        )
    return code
