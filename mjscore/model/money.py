"""Money: the stake (what a point is worth), and money as every shell shows it, declared once.

A stake (`stake 0.05 EUR`, `--stake "0.05 EUR"`) turns the points an evening settles into money:
each settle-up and each player's won-or-lost is shown with its money beside it, `596 (EUR 29.80)`.
Money is worked out in decimals, never in binary floats (0.05 is no float), and rounded to the
cent with a half going away from zero, so that a half cent goes up and a loss mirrors the gain
it pays: 0.05 x 597 is 29.85, and -597 is -29.85.

    >>> stake = Stake.read("0.05 EUR")
    >>> stake.money(597), stake.shown(596), stake.shown(-596, signed=True)
    (Decimal('29.85'), '596 (EUR 29.80)', '-596 (EUR -29.80)')
    >>> Stake.read("0.333").shown(3), str(Stake.read("0.125 GBP")), Stake.read("0.125").money_text(3)
    ('3 (1.00)', '0.125 GBP', '0.38')
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from mjscore.model.say import _, number

if TYPE_CHECKING:
    from mjscore.model.answers import StakePlain

K = TypeVar("K", bound=Hashable)
K_co = TypeVar("K_co", bound=Hashable, covariant=True)

MAX_PLACES = 4                          # a stake finer than a hundredth of a cent is no stake anyone plays
MAX_PER_POINT = Decimal(10_000)         # the most a point may be worth (a currency's smallest units too)
CENT = Decimal("0.01")
# Money's own arithmetic, whatever the caller's decimal context says: room for any total of any
# evening (no figure of mjscore comes near 10**15 points) times the largest stake, exactly.
_MONEY = Context(prec=60, rounding=ROUND_HALF_UP)
_AMOUNT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,12})?")
_CURRENCY = re.compile(r"[A-Z]{3}")
EXAMPLE = "0.05, or 0.05 EUR"
def currencies() -> str:
    """What a stake's currency is, as its refusals say it."""
    return _("a currency of three capital letters (EUR, USD, GBP)")


class Paid(Protocol[K_co]):
    """A payment as money sees it (a hand's `Payment`, an evening's `Transfer`)."""

    @property
    def payer(self) -> K_co: ...
    @property
    def payee(self) -> K_co: ...
    @property
    def amount(self) -> int: ...


class BadStake(ValueError):
    """A stake written wrong: what is wrong (a clause that follows the setting's name: `takes
    ...`), and which of its words (0: the amount, 1: the currency, 2: one too many)."""

    def __init__(self, message: str, word: int = 0):
        super().__init__(message)
        self.message = message
        self.word = word


@dataclass(frozen=True)
class Stake:
    """The money a point is worth, and the currency it is counted in (3 capital letters, as
    ISO 4217 writes them: EUR, USD, GBP; None: the money is shown without one)."""

    per_point: Decimal
    currency: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.per_point, Decimal) or not self.per_point.is_finite():
            raise BadStake(_("takes an amount a point ({example}), not {given}").format(example=EXAMPLE,
                                                                                      given=repr(self.per_point)))
        if self.per_point <= 0:
            raise BadStake(_("takes an amount above 0 ({example}), not {given}").format(
                example=EXAMPLE, given=_plain(self.per_point)))
        if self.per_point > MAX_PER_POINT:
            raise BadStake(_("takes at most {most} a point, not {given}").format(most=f"{MAX_PER_POINT:,}",
                                                                                given=_plain(self.per_point)))
        exponent = self.per_point.normalize().as_tuple().exponent
        if isinstance(exponent, int) and -exponent > MAX_PLACES:
            raise BadStake(_("takes at most {places} decimal places, not {given}").format(
                places=MAX_PLACES, given=_plain(self.per_point)))
        code = self.currency
        if code is not None and (not isinstance(code, str) or not _CURRENCY.fullmatch(code)):
            hint = (_(" (capitals: {code})").format(code=code.upper())
                    if isinstance(code, str) and _CURRENCY.fullmatch(code.upper()) else "")
            raise BadStake(_("takes {currencies}, not '{given}'{hint}").format(currencies=currencies(),
                                                                               given=_cut(str(code)), hint=hint), 1)

    def __reduce__(self) -> tuple[Any, ...]:
        # Made again from its fields (`batch --jobs` sends it to the workers): a compiled frozen
        # dataclass cannot be unpickled field by field.
        return Stake, (self.per_point, self.currency)

    @classmethod
    def from_words(cls, words: Sequence[str]) -> Stake:
        """The stake a header or a flag writes, word by word: the amount a point, then the
        currency if any (`0.05`, `0.05 EUR`).  A BadStake says what is wrong, and at which word."""
        if not words or not words[0]:
            raise BadStake(_("takes an amount a point ({example})").format(example=EXAMPLE))
        if len(words) > 2:
            raise BadStake(_("takes an amount a point and a currency, nothing more ({example}), not '{given}'").format(
                example=EXAMPLE, given=_cut(words[2])), 2)
        amount = words[0]
        if not _AMOUNT.fullmatch(amount):
            if amount.startswith("-") and _AMOUNT.fullmatch(amount[1:]):
                raise BadStake(_("takes an amount above 0 ({example}), not {given}").format(example=EXAMPLE,
                                                                                          given=_cut(amount)))
            pointed = amount.replace(",", ".", 1)
            if _AMOUNT.fullmatch(pointed):
                raise BadStake(_("takes its amount with a decimal point ({pointed}), not '{given}'").format(
                    pointed=pointed, given=_cut(amount)))
            raise BadStake(_("takes an amount a point ({example}), not '{given}'").format(example=EXAMPLE,
                                                                                        given=_cut(amount)))
        try:
            per_point = Decimal(amount).normalize(_MONEY)
        except InvalidOperation:                # pragma: no cover - the pattern admits only decimals
            raise BadStake(_("takes an amount a point ({example}), not '{given}'").format(
                example=EXAMPLE, given=_cut(amount))) from None
        return cls(per_point, words[1] if len(words) == 2 else None)     # checked as it is made

    @classmethod
    def read(cls, text: str) -> Stake:
        """The stake as one text (`"0.05 EUR"`: a flag's value, a YAML key's)."""
        return cls.from_words(text.split())

    @classmethod
    def from_plain(cls, plain: Mapping[str, object]) -> Stake:
        """The stake back from its plain form (`as_dict`), as a shell reads it from a result."""
        return cls(Decimal(str(plain["per_point"])), None if plain.get("currency") is None else str(plain["currency"]))

    def money(self, points: int) -> Decimal:
        """What `points` are worth, to the cent, a half going away from zero (never -0.00)."""
        cents = _MONEY.multiply(self.per_point, Decimal(points)).quantize(CENT, context=_MONEY)
        return cents.copy_abs() if cents.is_zero() else cents

    def money_text(self, points: int) -> str:
        """The money of `points` as the plain form writes it: `"29.80"`, `"-29.80"` (a string of
        the decimal, never a float)."""
        return f"{self.money(points):f}"

    def settled(self, nets: Mapping[K, int], payments: Iterable[Paid[K]]) -> dict[K, Decimal]:
        """Each player's money: the sum of the money of her payments, each payment's rounded on
        its own (what is handed over), so that a player's money is what she pays or receives and
        the money of a table or an evening sums to zero at any stake (0.005 a point, a penalty of
        1 to each of three: -0.03, not the -0.02 of her -3 points rounded once).  The points of
        `nets` that no payment carries (an added-up hand's score) are turned into money as they
        stand, one figure.  Never -0.00."""
        money = dict.fromkeys(nets, Decimal(0))
        carried = dict.fromkeys(nets, 0)
        for p in payments:
            cents = self.money(p.amount)
            money[p.payer] = money.get(p.payer, Decimal(0)) - cents
            money[p.payee] = money.get(p.payee, Decimal(0)) + cents
            carried[p.payer] = carried.get(p.payer, 0) - p.amount
            carried[p.payee] = carried.get(p.payee, 0) + p.amount
        for who, net in nets.items():
            money[who] += self.money(net - carried[who])
        return {who: m.copy_abs() if m.is_zero() else m for who, m in money.items()}

    def shown(self, points: int, signed: bool = False) -> str:
        """Points with their money beside them: `596 (EUR 29.80)`; `signed`, as a gain or a loss:
        `+596 (EUR +29.80)`, `-596 (EUR -29.80)`."""
        return with_money(points, self.money_text(points), self.currency, signed)

    def as_dict(self) -> StakePlain:
        """The plain form: `{"per_point": "0.05", "currency": "EUR"}` (currency None without one)."""
        return {"per_point": _plain(self.per_point), "currency": self.currency}

    def __str__(self) -> str:
        """As a header writes it: `0.05 EUR`, `0.05`."""
        return _plain(self.per_point) + (f" {self.currency}" if self.currency else "")


def with_money(points: int, money: str, currency: str | None = None, signed: bool = False) -> str:
    """Points and their money (as `Stake.money_text` writes it) as every shell shows them:
    `596 (EUR 29.80)`, `596 (29.80)` without a currency; `signed`: `+596 (EUR +29.80)`.  Money
    that rounds to nothing is signed as its points are: a loss is never shown with a plus
    (`-3 (EUR -0.00)`)."""
    if signed and not money.startswith(("-", "+")):
        nothing = not money.strip("0.")
        money = ("-" if nothing and points < 0 else "+") + money
    figure = f"{points:+d}" if signed else str(points)
    # As the reader's language writes money: German `596 (29,80 EUR)`, its decimal comma too.
    money = number(money)
    if currency:
        return _("{points} ({currency} {money})").format(points=figure, currency=currency, money=money)
    return _("{points} ({money})").format(points=figure, money=money)


def _plain(d: Decimal) -> str:
    """A decimal as it was meant: 0.05, 10, 0.125 (never 1E+1, nor 0.050)."""
    return f"{d.normalize(_MONEY):f}"


def _cut(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."
