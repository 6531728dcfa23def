"""Settlement: from the hand scores to who pays whom.

Pure arithmetic over the final hand scores.  The payoff schemes are rule data
(`mjscore.rules.payoffs`); the paying methods are the three of the rule texts (docs/rules.md,
"Paying").  Every payment has a payer and a payee, so under
`winner-only` and `between-all` the nets sum to zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from mjscore.model import plain
from mjscore.model.amounts import Amount, exact, half_up, up_to
from mjscore.model.errors import MjError
from mjscore.model.say import _
from mjscore.model.settings import Paying, Settings
from mjscore.model.table import SeatPenalty, Table
from mjscore.model.tiles import SEATS, Wind
from mjscore.rules.payoffs import EastDouble, Payoff, builtin_payoffs

# A seat as the plain form writes it (a JSON string: "E").
_SEAT_JSON = {w: plain.string(w.letter) for w in SEATS}


class SettlementError(MjError):
    """The table cannot be settled (a player missing, no winner and no draw...): its scores still
    stand, and the result says why there is no settlement."""


class Reason(StrEnum):
    """Why a payment is made (and what kind a special payment is)."""

    WINNER = "winner"                          # a loser pays the winner
    DIFFERENCE = "difference"                  # between two losers, under between-all
    PAYS_FOR_ALL = "pays-for-all"              # a liable player pays what all the losers owed
    PENALTY = "penalty"
    KITTY = "kitty"                            # the kitty's stakes to the winner who takes it
    EXTRA_HANDS = "extra-hands"                # the bonus for East's extra hands in a row


class Payment(NamedTuple):
    payer: Wind
    payee: Wind
    amount: int
    reason: Reason

    def to_json(self) -> str:
        """Its plain object, `{"from": E, "to": S, "amount": N}`, as JSON text (`model.plain`)."""
        return f'{{"from": {_SEAT_JSON[self.payer]}, "to": {_SEAT_JSON[self.payee]}, "amount": {self.amount}}}'


@dataclass(frozen=True)
class Special:
    """A special payment of the hand, beside the score: the kitty, or the bonus for East's extra
    hands.  `amount` is what the winner receives in all (0: nothing paid this hand)."""

    kind: Reason                               # KITTY or EXTRA_HANDS
    count: int                                 # deals in the kitty / East's extra hands
    unit: int                                  # the stake per deal / the bonus per extra hand
    amount: int
    to: Wind | None                            # the winner, when it was paid
    why: str = ""                              # why it was not paid, when it was not

    def as_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind.value, "count": self.count, "unit": self.unit, "amount": self.amount,
             "to": self.to.letter if self.to else None}
        if self.why:
            d["why"] = self.why
        return d

    def to_json(self) -> str:
        return plain.encode(self.as_dict())


class Settlement(NamedTuple):
    settings: Settings
    payments: tuple[Payment, ...]
    net: dict[Wind, int]                       # seat -> gain (negative: loss)
    east_double_applies: bool = False          # whether the East-double switch changed, or could change, a figure
    specials: tuple[Special, ...] = ()
    taken_off: tuple[tuple[Wind, int], ...] = ()   # add-up: each penalty, taken off its payer's total

    def to_json(self) -> str:
        """Its plain object as JSON text (`model.plain`), written from the figures: how the table
        paid, the payments, the penalties among them, each seat's gain, the special payments,
        and with a stake, the stake and each seat's gain in money."""
        s = self.settings
        payments = [p.to_json() for p in self.payments]
        out = ['{"paying": ', plain.string(s.paying.value),
               ', "payoff": ', plain.string(s.payoff) if s.paying is not Paying.ADD_UP else "null",
               ', "east_double": ', plain.boolean(s.east_double),
               ', "east_double_applies": ', plain.boolean(self.east_double_applies),
               ', "payments": [', ", ".join(payments),
               # Penalties are among the payments too; listed here so that a reader can tell them apart.
               # (`payments` is made from self.payments, one for one.)  Under add-up nobody
               # receives a penalty: it is taken off the payer's total.
               '], "penalties": [', ", ".join([j for p, j in zip(self.payments, payments, strict=True)
                                               if p.reason == Reason.PENALTY]
                                              + [f'{{"from": {_SEAT_JSON[w]}, "to": null, "amount": {amount}}}'
                                                 for w, amount in self.taken_off]),
               '], "net": {', ", ".join([f"{_SEAT_JSON[w]}: {self.net[w]}" for w in SEATS if w in self.net]), "}"]
        if self.specials:
            out += [', "specials": [', ", ".join([x.to_json() for x in self.specials]), "]"]
        if s.stake is not None:
            # The stake the table played for, and each seat's gain in money (strings of decimals):
            # the money of its payments, so that the table's money sums to zero at any stake.
            money = s.stake.settled(self.net, self.payments)
            out += [', "stake": ', plain.encode(s.stake.as_dict()), ', "money": {',
                    ", ".join([f"{_SEAT_JSON[w]}: {plain.string(f'{money[w]:f}')}"
                               for w in SEATS if w in self.net]), "}"]
        out.append("}")
        return "".join(out)


# -- finding a payoff ----------------------------------------------------------------------------

def find_payoff(name: str, scheme_payoffs: Mapping[str, Payoff] | None = None) -> Payoff:
    found = dict(builtin_payoffs())
    found.update(scheme_payoffs or {})
    if name not in found:
        raise SettlementError(_("no payoff scheme '{name}'; known: {known}").format(name=name,
                                                                                   known=", ".join(sorted(found))))
    return found[name]


# -- the settlement ------------------------------------------------------------------------------

def _round_up(amount: Amount, unit: int) -> int:
    """A payment as it is handed over: up to the next multiple of the table's unit when it rounds
    payments up, else to the nearest whole number, a half going up (a 1.5u payoff pays 23 for
    22.5, not Python's 22)."""
    return up_to(amount, unit) if unit > 1 else half_up(amount)


def _situation(winner: Wind, discarder: Wind | None) -> str:
    if discarder is None:
        return "east-self-drawn" if winner is Wind.EAST else "other-self-drawn"
    if winner is Wind.EAST:
        return "east-on-discard"
    return "other-on-east-discard" if discarder is Wind.EAST else "other-on-other-discard"


def winner_shares(winner: Wind, discarder: Wind | None, score: int, payoff: Payoff,
                  east_double: bool) -> dict[Wind, Amount]:
    """What each loser owes the winner under the payoff scheme, exactly (before any rounding)."""
    row = payoff.table[_situation(winner, discarder)]
    out = {}
    for loser in SEATS:
        if loser is winner:
            continue
        role = "discarder" if loser is discarder else "east" if loser is Wind.EAST else "others"
        m = exact(row.get(role, 0))
        if payoff.east_double == EastDouble.SWITCH and east_double and Wind.EAST in (loser, winner):
            m *= 2
        out[loser] = score * m
    return out


def settle(table: Table, scores: dict[Wind, int], settings: Settings,
           scheme_payoffs: Mapping[str, Payoff] | None = None, kitty_earned: bool = True) -> Settlement:
    """Payments for one table. `scores` holds the final hand score of every player present;
    `kitty_earned` says whether the winner's hand earns the rule the kitty asks for."""
    if settings.paying is Paying.ADD_UP:
        # No payments at all: each total stands on its own (a settlement of its own below).
        return _add_up(table, scores, settings, kitty_earned)
    unit = settings.round_payments_up or 0
    payments: list[Payment] = []
    net: dict[Wind, int] = {}
    applies = False
    payoff = None
    if not table.draw:
        won = table.winning
        if won is None:
            raise SettlementError(_("there is no winner and the table is not marked 'draw'"))
        winner, win = won
        payoff = find_payoff(settings.payoff, scheme_payoffs)
        applies = (payoff.east_double == EastDouble.SWITCH
                   or (settings.paying is Paying.BETWEEN_ALL and win.liable is None))
        if winner.seat not in scores:
            raise SettlementError(_("the winner's score is missing"))
        u = scores[winner.seat]
        discarder = win.discarder
        shares = winner_shares(winner.seat, discarder, u, payoff, settings.east_double)
        liable = win.liable
        if liable is not None:
            # One lump sum from the liable player, rounded once; the losers settle nothing.
            total = sum(shares.values())
            if total:
                payments.append(Payment(liable, winner.seat, _round_up(total, unit), Reason.PAYS_FOR_ALL))
        else:
            for loser, amount in shares.items():
                if amount:
                    payments.append(Payment(loser, winner.seat, _round_up(amount, unit), Reason.WINNER))
            if settings.paying is Paying.BETWEEN_ALL:
                payments.extend(_between_losers(winner.seat, scores, settings, unit, table))
    specials = _specials(table, settings, kitty_earned, payoff)
    for x in specials:
        payments.extend(_special_payments(x, table, payoff))
    for pen in table.penalties:
        payments.extend(_penalty_payments(pen))
    for p in payments:
        net[p.payer] = net.get(p.payer, 0) - p.amount
        net[p.payee] = net.get(p.payee, 0) + p.amount
    for seat in SEATS:
        net.setdefault(seat, 0)
    return Settlement(settings, tuple(payments), net, east_double_applies=applies, specials=specials)


def _penalty_payments(pen: SeatPenalty) -> list[Payment]:
    """A penalty paid to the player it names, or the same amount to each of the three others."""
    payees = [pen.payee] if pen.payee else [s for s in SEATS if s is not pen.payer]
    return [Payment(pen.payer, payee, pen.amount, Reason.PENALTY) for payee in payees]


def _add_up(table: Table, scores: dict[Wind, int], settings: Settings, kitty_earned: bool) -> Settlement:
    """The settlement under `add-up`: no payments, each player's total her hand score (East's
    doubled where the table plays it so), less her penalties, plus what the special payments
    bring the winner; after a draw only the penalties and specials count."""
    net: dict[Wind, int] = {}
    if not table.draw:
        missing = [table.who(s) for s in SEATS if s not in scores]
        if missing:
            raise SettlementError(_("add-up needs every player's score; missing: {missing} (write '{first}: score "
                                    "0' or '{first}: ...' for a player who scored nothing)").format(
                missing=", ".join(missing), first=missing[0]))
        if table.winner is None:
            raise SettlementError(_("there is no winner and the table is not marked 'draw'"))
        for seat, s in scores.items():
            net[seat] = s * (2 if seat is Wind.EAST and settings.east_double else 1)
    else:
        net = {seat: 0 for seat in SEATS}          # nothing counts after a draw
    taken: list[tuple[Wind, int]] = []
    for pen in table.penalties:
        # Under add-up a penalty is simply taken off the offender's total (docs/rules.md,
        # "Penalties"), doubled for East where the table plays it so.
        double = 2 if pen.payer is Wind.EAST and settings.east_penalty_double else 1
        net[pen.payer] = net.get(pen.payer, 0) - pen.amount * double
        taken.append((pen.payer, pen.amount * double))
    specials = _specials(table, settings, kitty_earned, None)
    for x in specials:
        # The stated sum, not multiplied by the number of payers (docs/rules.md, "Add-up").
        if x.to is not None:
            net[x.to] = net.get(x.to, 0) + x.amount
    return Settlement(settings, (), net, east_double_applies=not table.draw, specials=specials,
                      taken_off=tuple(taken))


# -- special payments ----------------------------------------------------------------------------

def _specials(table: Table, settings: Settings, kitty_earned: bool, payoff: Payoff | None) -> tuple[Special, ...]:
    """The kitty and the extra-hand bonus of this hand, paid or not (docs/rules.md, "Special
    payments").  Never capped by the limit, never doubled for East."""
    out = []
    won = table.winning
    if settings.kitty:
        deals = table.kitty_deals + 1                  # this deal's stakes are in it too
        if table.draw or won is None:
            out.append(Special(Reason.KITTY, deals, settings.kitty, 0, None, _("a draw: the kitty stays")))
        elif not kitty_earned:
            out.append(Special(Reason.KITTY, deals, settings.kitty, 0, None,
                               _("the winner's hand does not earn '{rule}': the kitty stays").format(
                                   rule=settings.kitty_hand)))
        else:
            # Each player put the stake in for every deal; the winner takes the others' stakes
            # (her own come back to her).
            stakes = settings.kitty * deals
            amount = stakes if settings.paying is Paying.ADD_UP else stakes * (len(SEATS) - 1)
            out.append(Special(Reason.KITTY, deals, settings.kitty, amount, won[0].seat))
    if settings.extra_hand_bonus and table.extra_hands:
        bonus = settings.extra_hand_bonus * table.extra_hands
        if table.draw or won is None:
            out.append(Special(Reason.EXTRA_HANDS, table.extra_hands, settings.extra_hand_bonus, 0, None,
                               _("a draw: nothing is paid")))
        else:
            winner, win = won
            amount = bonus if settings.paying is Paying.ADD_UP or payoff is None else sum(
                a for _seat, a in _bonus_shares(bonus, winner.seat, win.discarder, win.liable, payoff))
            out.append(Special(Reason.EXTRA_HANDS, table.extra_hands, settings.extra_hand_bonus, amount, winner.seat))
    return tuple(out)


def _special_payments(x: Special, table: Table, payoff: Payoff | None) -> list[Payment]:
    won = table.winning
    if x.to is None or won is None:
        return []
    if x.kind == Reason.KITTY:
        share = x.amount // (len(SEATS) - 1)
        return [Payment(s, x.to, share, Reason.KITTY) for s in SEATS if s is not x.to]
    if payoff is None:
        return []
    win = won[1]
    bonus = x.unit * x.count
    shares = _bonus_shares(bonus, x.to, win.discarder, win.liable, payoff)
    return [Payment(s, x.to, a, Reason.EXTRA_HANDS) for s, a in shares]


def _bonus_shares(bonus: int, winner: Wind, discarder: Wind | None, liable: Wind | None,
                  payoff: Payoff) -> list[tuple[Wind, int]]:
    """Who pays the extra-hand bonus, and how much: each loser the payoff scheme has pay in this
    situation pays it once; a loser who pays for others (the discarder under `japanese`, a
    liable player) pays their bonus too (docs/rules.md, "Special payments")."""
    row = payoff.table[_situation(winner, discarder)]
    losers = [s for s in SEATS if s is not winner]
    roles = {s: "discarder" if s is discarder else "east" if s is Wind.EAST else "others" for s in losers}
    counted = [s for s in losers if roles[s] in row]           # the losers this situation has pay
    payers = [liable] if liable is not None else [s for s in counted if row[roles[s]] > 0]
    if not payers:
        return []
    total = bonus * len(counted)
    each, extra = divmod(total, len(payers))
    return [(s, each + (1 if n < extra else 0)) for n, s in enumerate(payers)]


def _between_losers(winner: Wind, scores: dict[Wind, int], settings: Settings, unit: int,
                    table: Table) -> list[Payment]:
    losers = [s for s in SEATS if s is not winner]
    missing = [table.who(s) for s in losers if s not in scores]
    if missing:
        raise SettlementError(_("between-all needs every loser's score; missing: {missing}: add '{first}: ...' for a "
                                "loser who scored nothing, or use --paying winner-only").format(
            missing=", ".join(missing), first=missing[0]))
    east_double = settings.east_doubles_between_losers
    out = []
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            diff = scores[a] - scores[b]
            if diff == 0:
                continue
            payer, payee = (b, a) if diff > 0 else (a, b)
            amount = abs(diff)
            if settings.loser_difference_limit is not None:
                amount = min(amount, settings.loser_difference_limit)
            if east_double and Wind.EAST in (a, b):
                amount *= 2
            # Whole numbers (scores, doubled, capped): rounded only up to the table's unit.
            out.append(Payment(payer, payee, up_to(amount, unit) if unit > 1 else amount, Reason.DIFFERENCE))
    return out
