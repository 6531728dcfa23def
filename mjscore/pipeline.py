"""One table through the whole pipeline: validate -> score -> settle -> a typed result.

The API, the command line, batch and sessions all call `evaluate`; it decides which scheme
and which settings apply (what the caller says, then the table's header, then the scheme:
`model.settings.layered`).  The result keeps the typed figures and gives, with `to_dict()`, the plain object
that `mjscore score --format json` prints.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from mjscore.hand.validate import validate_table
from mjscore.hand.waits import table_waits as waits_at_table
from mjscore.model.errors import SchemeError, TableError
from mjscore.model.table import Table
from mjscore.model.tiles import SEATS, Wind
from mjscore.rules.scheme import Scheme, load_scheme
from mjscore.scoring.score import PlayerScore, Valuation, incompleteness, score_table
from mjscore.model.settings import Settings
from mjscore.settle import Payment, Settlement, SettlementError, settle

EMPTY: Mapping[str, Any] = MappingProxyType({})       # no setting given


def scheme_for(table: Table, scheme: str | None = None) -> Scheme:
    """The scheme a table is scored under: the one the caller names, else the table's header's,
    else the default."""
    name = scheme or table.scheme
    if name and scheme is None and table.where.file not in ("<input>", "<-e>", "<stdin>"):
        # A path in a table's header is read relative to the file it stands in, whatever the
        # working folder: a club's tables and its house scheme travel together.
        if ("/" in name or name.endswith((".yaml", ".yml"))) and not Path(name).is_absolute():
            name = str(Path(table.where.file).parent / name)
    try:
        return load_scheme(name)
    except SchemeError as e:
        if scheme is None and table.scheme is not None and e.location.file == table.scheme:
            raise SchemeError(e.message, table.where, table.scheme) from None
        raise


def settings_for(table: Table, scheme: Scheme, given: Mapping[str, Any] = EMPTY) -> Settings:
    """The settings a table settles with: what the caller gives, over the table's header, over
    the scheme's."""
    return scheme.settlement.layered(given, dict(table.options))


class TableResult(NamedTuple):
    """One table scored and settled.

    `players` are the scored hands in seat order as written (each with `seat`, `name`,
    `points`, `doubles`, `limit`, `score`, `items`); `settlement` is None when the table cannot
    be settled, and `settlement_error` then says why.
    """

    table: Table
    scheme: Scheme
    players: tuple[PlayerScore, ...]
    settlement: Settlement | None
    settlement_error: str | None = None
    explain: bool = False
    ruling: str | None = None                # how the table was ruled on before scoring (two winners)

    @property
    def winner(self) -> Wind | None:
        w = self.table.winner
        return w.seat if w else None

    @property
    def payments(self) -> tuple[Payment, ...]:
        return self.settlement.payments if self.settlement else ()

    @property
    def net(self) -> dict[Wind, int]:
        """Each seat's gain (negative: loss), in seat order."""
        net = self.settlement.net if self.settlement else {}
        return {s: net[s] for s in SEATS if s in net}

    def player(self, seat: Wind | str) -> PlayerScore | None:
        seat = Wind(seat) if isinstance(seat, str) else seat
        return next((p for p in self.players if p.seat is seat), None)

    def to_dict(self) -> dict[str, Any]:
        """The plain object of `mjscore score --format json` for this table."""
        t = self.table
        won = t.winning
        d: dict[str, Any] = {
            "scheme": self.scheme.name,
            "round": t.round.letter,
            "winner": won[0].seat.letter if won else None,
            "draw": t.draw,
            "players": [player_dict(p, self.explain) for p in self.players],
        }
        claims = {p.seat: p.claim for p in t.players if p.claim is not None}
        if claims:                               # the score a player claims (`= N`), beside mjscore's
            for p in d["players"]:
                if Wind(p["seat"]) in claims:
                    p["claim"] = claims[Wind(p["seat"])]
        if won is not None:
            win = won[1]
            d["win"] = {"tile": win.tile.text if win.tile else None,
                        "from": win.discarder.letter if win.discarder else None,
                        "flags": sorted(f.value for f in win.flags)}
        if self.ruling:
            d["ruling"] = self.ruling
        d["settlement"] = self.settlement.as_dict() if self.settlement else None
        if self.settlement is None:
            d["settlement_error"] = self.settlement_error or "no settlement was computed"
        return d


def one_winner(table: Table) -> tuple[Table, str | None]:
    """Two players who both go out on the same discard: the one whose turn would come next after
    the discarder takes the tile (the rule text); the other keeps a hand one tile short of going
    out.  Returns the table as played, and the ruling in words (None when there was nothing to
    rule)."""
    winners = [(p, p.win) for p in table.players if p.win is not None]
    if len(winners) != 2:
        return table, None
    (a, wa), (b, wb) = winners
    if (wa.discarder is None or wa.discarder is not wb.discarder or wa.tile != wb.tile or wa.tile is None
            or a.score is not None or b.score is not None):
        return table, None                       # not a claim on one discard: validation says what is wrong
    discarder = wa.discarder
    order = [SEATS[(discarder.number + k) % 4] for k in range(3)]      # the turns after the discarder's
    taker, other = (a, b) if order.index(a.seat) < order.index(b.seat) else (b, a)
    concealed = list(other.concealed)
    if wa.tile not in concealed:
        return table, None
    concealed.remove(wa.tile)
    short = dataclasses.replace(other, concealed=tuple(concealed), win=None)
    players = tuple(short if p is other else p for p in table.players)
    who = table.who
    ruling = (f"{who(taker.seat)} and {who(other.seat)} both go out on {who(discarder)}'s discard of "
              f"{wa.tile.text}: {who(taker.seat)} takes it, being next in turn after {who(discarder)}; "
              f"{who(other.seat)} is scored as a loser without it")
    return dataclasses.replace(table, players=players), ruling


def evaluate(table: Table, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
             explain: bool = False) -> TableResult:
    """Score and settle one table; raises MjError on an impossible table.

    `scheme` names the scheme (None: the table's header's, else the default); `given` holds the
    settings the caller gives (model.settings), over the table's header and the scheme."""
    table, ruling = one_winner(table)
    used = scheme_for(table, scheme)
    validate_table(table, incomplete=lambda hand: incompleteness(hand, used, table),
                   loose_needs_kong=used.ways_of_winning.loose_needs_kong)
    scored = score_table(table, used)
    settings = settings_for(table, used, given)
    settlement, error = None, None
    try:
        settlement = settle(table, {p.seat: p.score for p in scored.players}, settings, used.payoffs,
                            kitty_earned=_kitty_earned(table, settings, used, scored.players))
    except SettlementError as e:
        error = e.message
    return TableResult(table, used, scored.players, settlement, error, explain, ruling)


def _kitty_earned(table: Table, settings: Settings, scheme: Scheme, players: tuple[PlayerScore, ...]) -> bool:
    """Whether the winner's hand earns the rule the kitty asks for (`kitty-hand`), counted or
    left out under a limit hand; any winner takes it when no rule is asked for."""
    if not settings.kitty or settings.kitty_hand is None or table.draw or table.winner is None:
        return True
    if scheme.rule(settings.kitty_hand) is None:
        # A misspelt rule would silently keep the kitty from every winner: refused, not settled.
        raise TableError(f"kitty-hand names no rule of scheme '{scheme.name}': '{settings.kitty_hand}' "
                         "(the id of one of its rules, as the scheme file writes it)", table.where, "kitty-hand")
    won = next(p for p in players if p.winner)
    if won.counted:
        raise SettlementError(f"the kitty goes to a hand that earns '{settings.kitty_hand}', and "
                              f"{table.who(won.seat)}'s score was counted at the table: list the tiles")
    return any(i.rule == settings.kitty_hand for i in won.best.items + won.best.ignored)


# -- the plain form ----------------------------------------------------------------------------

def _valuation(v: Valuation) -> dict[str, Any]:
    return {
        "points": v.points,
        "doubles": v.doubles,
        "limit": v.limit_rule.text if v.limit_rule else None,
        "score": v.score,
        "items": [i.as_dict() for i in v.items],
        "arrangement": v.arrangement.text() if v.arrangement else [],
    }


def player_dict(p: PlayerScore, explain: bool = False) -> dict[str, Any]:
    d = {"seat": p.seat.letter, "winner": p.winner}
    if p.name:
        d["name"] = p.name
    d.update(_valuation(p.best))
    if p.best.ignored:
        d["not_counted"] = [i.as_dict() for i in p.best.ignored]
    if p.counted:
        d["counted"] = True
    if explain:
        d["runner_up"] = _runner_up(p)
    return d


def _runner_up(p: PlayerScore) -> dict[str, Any] | None:
    r = p.runner_up
    if r is None:
        return None
    d = _valuation(r)
    best = {(i.rule, i.applies_to) for i in p.best.items}
    mine = {(i.rule, i.applies_to) for i in r.items}
    d["missing"] = [i.as_dict() for i in p.best.items if (i.rule, i.applies_to) not in mine]
    d["extra"] = [i.as_dict() for i in r.items if (i.rule, i.applies_to) not in best]
    return d


def table_waits(table: Table, scheme: str | None = None) -> list[dict[str, Any]]:
    """Each fully listed player's waits under the table's scheme (see `hand.waits.table_waits`).

    The table is checked as a table, but a hand one tile short of going out is the point here,
    so the winner's completeness is not asked for."""
    validate_table(table, incomplete=lambda hand: None)
    return waits_at_table(table, scheme_for(table, scheme))
