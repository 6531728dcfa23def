"""Rounding scores and payments as the rule books do: a half goes up.

Python's `round` rounds a half to the even neighbour (`round(22.5) == 22`); the rule books and
Four Winds round it up (65 -> 70, 22.5 -> 23) [4W-RND].  Amounts are worked out exactly (a
payoff's multiplier as the scheme file writes it, 1.5 or 1.15, not its nearest binary fraction),
so a half is a half.

    >>> half_up(22.5), half_up(37.5), half_up(22.4), half_up(7)
    (23, 38, 22, 7)
    >>> exact(1.15) * 10, half_up(exact(1.15) * 10)
    (Fraction(23, 2), 12)
"""

from __future__ import annotations

import math
from fractions import Fraction

Amount = int | Fraction


def exact(value: float) -> Amount:
    """A number read from a file (a multiplier, a limit fraction) as the decimal it was written
    as: a whole number stays an int, 1.15 is 115/100 (the float 1.15 is a little less)."""
    if isinstance(value, int):
        return value
    if value.is_integer():
        return int(value)
    return Fraction(repr(value))


def half_up(amount: Amount | float) -> int:
    """The whole number nearest `amount`, a half going up (amounts here are never negative)."""
    if isinstance(amount, int):
        return amount
    return math.floor(Fraction(amount) + Fraction(1, 2))


def up_to(amount: Amount, unit: int) -> int:
    """`amount` rounded up to a multiple of `unit` (Japanese Modern: each payment up to the next
    100, so 2200.5 is 2300, not 2200 after rounding it to a whole number first)."""
    return math.ceil(Fraction(amount) / unit) * unit
