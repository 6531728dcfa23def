"""Settlement: from the hand scores to who pays whom.

Pure arithmetic over the final hand scores.  The payoff schemes are rule data
(`mjscore.rules.payoffs`); the paying methods are the three of the rule texts (docs/rules.md,
"Paying").  Every payment has a payer and a payee, so under
`winner-only` and `between-all` the nets sum to zero.
"""

from __future__ import annotations

from typing import NamedTuple

from mjscore.model.table import PAYING, Table
from mjscore.model.tiles import SEATS, Wind
from mjscore.rules.payoffs import Payoff, builtin_payoffs


class SettlementError(Exception):
    """The table cannot be settled (a player missing, no winner and no draw...)."""


class Options(NamedTuple):
    paying: str = "between-all"
    payoff: str = "chinese-classical"
    east_double: bool = True
    east_double_losers: bool | None = None     # differences between losers; None: as east_double
    round_payments_up: int = 0                 # 0: no rounding
    loser_difference_limit: int | None = None  # cut a loser-to-loser difference to this, before East's double
    east_penalty_double: bool = False          # add-up: a penalty East incurs is taken off twice


class Payment(NamedTuple):
    payer: Wind
    payee: Wind
    amount: int
    reason: str                                # winner | difference | pays-for-all | penalty

    def as_dict(self) -> dict:
        return {"from": self.payer.value, "to": self.payee.value, "amount": self.amount}


class Settlement(NamedTuple):
    options: Options
    payments: tuple[Payment, ...]
    net: dict                                  # seat -> gain (negative: loss)
    east_double_applies: bool = False          # whether the East-double switch changed, or could change, a figure

    def as_dict(self) -> dict:
        return {"paying": self.options.paying,
                "payoff": self.options.payoff if self.options.paying != "add-up" else None,
                "east_double": self.options.east_double,
                "east_double_applies": self.east_double_applies,
                "payments": [p.as_dict() for p in self.payments],
                # Penalties are among the payments too; listed here so that a reader can tell them apart.
                "penalties": [p.as_dict() for p in self.payments if p.reason == "penalty"],
                "net": {s.value: self.net.get(s, 0) for s in SEATS if s in self.net}}


# -- finding a payoff ----------------------------------------------------------------------------

def find_payoff(name: str, scheme_payoffs: dict | None = None) -> Payoff:
    found = dict(builtin_payoffs())
    found.update(scheme_payoffs or {})
    if name not in found:
        raise SettlementError(f"no payoff scheme '{name}'; known: {', '.join(sorted(found))}")
    return found[name]


# -- the settlement ------------------------------------------------------------------------------

def _round_up(amount: float, unit: int) -> int:
    amount = round(amount)
    return -(-amount // unit) * unit if unit > 1 else amount


def _situation(winner: Wind, discarder: Wind | None) -> str:
    if discarder is None:
        return "east-self-drawn" if winner is Wind.EAST else "other-self-drawn"
    if winner is Wind.EAST:
        return "east-on-discard"
    return "other-on-east-discard" if discarder is Wind.EAST else "other-on-other-discard"


def winner_shares(winner: Wind, discarder: Wind | None, score: int, payoff: Payoff,
                  east_double: bool) -> dict[Wind, float]:
    """What each loser owes the winner under the payoff scheme (before any rounding)."""
    row = payoff.table[_situation(winner, discarder)]
    out = {}
    for loser in SEATS:
        if loser is winner:
            continue
        role = "discarder" if loser is discarder else "east" if loser is Wind.EAST else "others"
        m = row.get(role, 0)
        if payoff.east_double == "switch" and east_double and Wind.EAST in (loser, winner):
            m *= 2
        out[loser] = score * m
    return out


def settle(table: Table, scores: dict[Wind, int], options: Options, scheme_payoffs: dict | None = None) -> Settlement:
    """Payments for one table. `scores` holds the final hand score of every player present."""
    if options.paying not in PAYING:
        raise SettlementError(f"no paying method '{options.paying}'; known: {', '.join(PAYING)}")
    unit = options.round_payments_up or 0
    payments: list[Payment] = []
    net: dict[Wind, int] = {}
    winner = table.winner
    if options.paying == "add-up":
        if not table.draw:
            missing = [s.value for s in SEATS if s not in scores]
            if missing:
                raise SettlementError(f"add-up needs every player's score; missing: {', '.join(missing)} "
                                      f"(write '{missing[0]}: score 0' or '{missing[0]}: ...' for a player "
                                      "who scored nothing)")
            if winner is None:
                raise SettlementError("there is no winner and the table is not marked 'draw'")
            for seat, s in scores.items():
                net[seat] = s * (2 if seat is Wind.EAST and options.east_double else 1)
        else:
            net = {seat: 0 for seat in SEATS}          # nothing counts after a draw
        for pen in table.penalties:
            # Under add-up a penalty is simply taken off the offender's total (docs/rules.md,
            # "Penalties"), doubled for East where the table plays it so.
            double = 2 if pen.payer is Wind.EAST and options.east_penalty_double else 1
            net[pen.payer] = net.get(pen.payer, 0) - pen.amount * double
        return Settlement(options, (), net, east_double_applies=not table.draw)

    applies = False
    if not table.draw:
        if winner is None:
            raise SettlementError("there is no winner and the table is not marked 'draw'")
        payoff = find_payoff(options.payoff, scheme_payoffs)
        applies = payoff.east_double == "switch" or (options.paying == "between-all" and winner.win.liable is None)
        if winner.seat not in scores:
            raise SettlementError("the winner's score is missing")
        u = scores[winner.seat]
        discarder = winner.win.discarder
        shares = winner_shares(winner.seat, discarder, u, payoff, options.east_double)
        liable = winner.win.liable
        if liable is not None:
            # One lump sum from the liable player, rounded once; the losers settle nothing.
            total = sum(shares.values())
            if total:
                payments.append(Payment(liable, winner.seat, _round_up(total, unit), "pays-for-all"))
        else:
            for loser, amount in shares.items():
                if amount:
                    payments.append(Payment(loser, winner.seat, _round_up(amount, unit), "winner"))
            if options.paying == "between-all":
                payments.extend(_between_losers(winner.seat, scores, options, unit))
    for pen in table.penalties:
        payees = [pen.payee] if pen.payee else [s for s in SEATS if s is not pen.payer]
        for payee in payees:
            payments.append(Payment(pen.payer, payee, pen.amount, "penalty"))
    for p in payments:
        net[p.payer] = net.get(p.payer, 0) - p.amount
        net[p.payee] = net.get(p.payee, 0) + p.amount
    for seat in SEATS:
        net.setdefault(seat, 0)
    return Settlement(options, tuple(payments), net, east_double_applies=applies)


def _between_losers(winner: Wind, scores: dict[Wind, int], options: Options, unit: int) -> list[Payment]:
    losers = [s for s in SEATS if s is not winner]
    missing = [s.value for s in losers if s not in scores]
    if missing:
        raise SettlementError(f"between-all needs every loser's score; missing: {', '.join(missing)}: add "
                              f"'{missing[0]}: ...' for a loser who scored nothing, or use --paying winner-only")
    east_double = options.east_double if options.east_double_losers is None else options.east_double_losers
    out = []
    for i, a in enumerate(losers):
        for b in losers[i + 1:]:
            diff = scores[a] - scores[b]
            if diff == 0:
                continue
            payer, payee = (b, a) if diff > 0 else (a, b)
            amount = abs(diff)
            if options.loser_difference_limit is not None:
                amount = min(amount, options.loser_difference_limit)
            if east_double and Wind.EAST in (a, b):
                amount *= 2
            out.append(Payment(payer, payee, _round_up(amount, unit), "difference"))
    return out
