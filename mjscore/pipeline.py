"""One table through the whole pipeline: validate -> score -> settle -> a typed result.

The API, the command line, batch and sessions all call `evaluate`; it decides which scheme
and which settings apply (what the caller says, then the table's header, then the scheme:
`model.settings.layered`).  The result keeps the typed figures and gives, with `to_dict()`, the plain object
that `mjscore score --format json` prints, and with `to_json()` that object's JSON, written straight
from the figures.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from mjscore.hand.arrange import readings
from mjscore.hand.validate import validate_table
from mjscore.hand.waits import table_waits as waits_at_table
from mjscore.model.errors import SchemeError, TableError, WinClauseError
from mjscore.model.plain import boolean, encode, string
from mjscore.model.say import _, n_
from mjscore.model.table import PlayerHand, Table, WinFlag
from mjscore.model.tiles import SEATS, Tile, Wind
from mjscore.rules.scheme import Scheme, load_scheme
from mjscore.scoring.score import Item, PlayerScore, Valuation, incompleteness, score_player, score_table
from mjscore.model.settings import Settings
from mjscore.settle import Payment, Settlement, SettlementError, settle

EMPTY: Mapping[str, Any] = MappingProxyType({})       # no setting given


def named_in(scheme: str, file: str) -> str:
    """A scheme as a file's header names it, read as that file reads it: a path relative to the
    file's folder, whatever the working folder (a club's tables and its house scheme travel
    together); a shipped name, an absolute path, or a header of text given without a file
    (`<-e>`, standard input, a typed line) as it stands."""
    if file.startswith("<") or Path(scheme).is_absolute() or not ("/" in scheme or scheme.endswith((".yaml", ".yml"))):
        return scheme
    return str(Path(file).parent / scheme)


def scheme_for(table: Table, scheme: str | None = None) -> Scheme:
    """The scheme a table is scored under: the one the caller names, else the table's header's,
    else the default."""
    name = scheme or table.scheme
    if name and scheme is None:
        name = named_in(name, table.where.file)
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
    ruling: str | None = None                # how the table was ruled on before scoring (two or three winners)

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
        """The plain object of `mjscore score --format json` for this table: its JSON read back
        (what `to_json` writes is where the form is declared)."""
        result: dict[str, Any] = json.loads(self.to_json())
        return result

    def to_json(self) -> str:
        """The plain object as JSON text (`model.plain`), written from the results without building
        the object first (the same items come back table after table, and each is written once:
        `_item_json`)."""
        t = self.table
        won = t.winning
        claims = {p.seat: p.claim for p in t.players if p.claim is not None}
        out = ['{"scheme": ', string(self.scheme.name), ', "round": ', string(t.round.letter),
               ', "winner": ', string(won[0].seat.letter) if won else "null",
               ', "draw": ', boolean(t.draw),
               ', "players": [', ", ".join([player_json(p, self.explain, claims.get(p.seat)) for p in self.players]),
               "]"]
        if won is not None:
            win = won[1]
            out += [', "win": {"tile": ', string(win.tile.text) if win.tile else "null",
                    ', "from": ', string(win.discarder.letter) if win.discarder else "null",
                    ', "flags": [', ", ".join([string(f) for f in sorted(f.value for f in win.flags)]), "]"]
            if win.liable is not None:
                out += [', "liable": ', string(win.liable.letter)]      # that seat pays for all
            out.append("}")
        if self.ruling:
            out += [', "ruling": ', string(self.ruling)]
        out += [', "settlement": ', self.settlement.to_json() if self.settlement else "null"]
        if self.settlement is None:
            out += [', "settlement_error": ', string(self.settlement_error or _("no settlement was computed"))]
        out.append("}")
        return "".join(out)


def one_winner(table: Table) -> tuple[Table, str | None]:
    """Two or three players who all go out on the same discard: the tile goes to the one whose
    turn comes first after the discarder's (the rule text), passing over any who may not take it,
    having discarded that tile since their last draw (a sacred discard); the others keep hands
    one tile short of going out and are scored as losers.  Returns the table as played, and the
    ruling in words (None when there was nothing to rule)."""
    winners = [(p, p.win) for p in table.players if p.win is not None]
    if len(winners) < 2:
        return table, None
    tile, discarder = winners[0][1].tile, winners[0][1].discarder
    if (discarder is None or tile is None
            or any(w.discarder is not discarder or w.tile != tile or p.score is not None
                   or not any(tile in r.concealed for r in readings(p)) for p, w in winners)):
        return table, None                       # not a claim on one discard: validation says what is wrong
    order = [SEATS[(discarder.number + k) % 4] for k in range(3)]      # the turns after the discarder's
    claimants = sorted((p for p, _won in winners), key=lambda p: order.index(p.seat))
    taker = next((p for p in claimants if tile not in p.discards), None)
    if taker is None:
        seats = " and ".join(table.who(p.seat) for p in claimants)
        raise WinClauseError(_("sacred discard: {players} each discarded {tile} since their last draw from the wall, "
                               "so none of them may go out on {discarder}'s discard of it").format(
                                 players=seats, tile=tile.text, discarder=table.who(discarder)),
                             claimants[0].where, tile.text, seats=tuple(p.seat.value for p in claimants))
    others = [p for p in claimants if p is not taker]
    players = tuple(_without(p, tile) if p in others else p for p in table.players)
    return dataclasses.replace(table, players=players), _ruling(table, claimants, taker, others, discarder, tile)


def _without(p: PlayerHand, tile: Tile) -> PlayerHand:
    """A claimant who does not get the tile: her hand without it, a loser's (when she wrote two
    bracketed sets the discard may have completed, the tile is taken from the first of them)."""
    reading = readings(p)[0]
    concealed = list(reading.concealed)
    concealed.remove(tile)
    return dataclasses.replace(reading, concealed=tuple(concealed), win=None)


def _ruling(table: Table, claimants: list[PlayerHand], taker: PlayerHand, others: list[PlayerHand],
            discarder: Wind, tile: Tile) -> str:
    """What happened, in words (the players by name within an evening): who goes out, who may
    not take the tile and why, who loses."""
    who_ = table.who
    seats = [who_(p.seat) for p in claimants]
    if len(seats) == 2:
        out = _("{a} and {b} both go out on {discarder}'s discard of {tile}: ").format(
            a=seats[0], b=seats[1], discarder=who_(discarder), tile=tile.text)
    else:
        out = _("{some} and {last} all go out on {discarder}'s discard of {tile}: ").format(
            some=", ".join(seats[:-1]), last=seats[-1], discarder=who_(discarder), tile=tile.text)
    barred = claimants[:claimants.index(taker)]          # passed over: their turn came first
    if barred:
        out += n_("{barred} may not take it, having discarded {tile} since her last draw (a sacred discard), so "
                  "{taker} takes it, being next in turn after {discarder} who may; ",
                  "{barred} may not take it, having discarded {tile} since their last draw (a sacred discard), so "
                  "{taker} takes it, being next in turn after {discarder} who may; ", len(barred)).format(
            barred=_and(who_(p.seat) for p in barred), tile=tile.text, taker=who_(taker.seat),
            discarder=who_(discarder))
    else:
        out += _("{taker} takes it, being next in turn after {discarder}; ").format(taker=who_(taker.seat),
                                                                                  discarder=who_(discarder))
    return out + n_("{losers} is scored as a loser without it", "{losers} are scored as losers without it",
                    len(others)).format(losers=_and(who_(p.seat) for p in others))


def _and(names: Iterable[str]) -> str:
    """`Ann and Bob`: names joined as the ruling names them."""
    return _(" and ").join(names)


def evaluate(table: Table, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
             explain: bool = False) -> TableResult:
    """Score and settle one table; raises MjError on an impossible table.

    `scheme` names the scheme (None: the table's header's, else the default); `given` holds the
    settings the caller gives (model.settings), over the table's header and the scheme."""
    table, ruling = one_winner(table)
    used = scheme_for(table, scheme)
    validate_under(table, used)
    scored = score_table(table, used)
    robbed_last = _robbed_last(table, used, scored.players)
    if robbed_last:
        ruling = f"{ruling}; {robbed_last}" if ruling else robbed_last
    settings = settings_for(table, used, given)
    settlement, error = None, None
    try:
        settlement = settle(table, {p.seat: p.best.score for p in scored.players}, settings, used.payoffs,
                            kitty_earned=_kitty_earned(table, settings, used, scored.players))
    except SettlementError as e:
        error = e.message
    return TableResult(table, used, scored.players, settlement, error, explain, ruling)


def _robbed_last(table: Table, used: Scheme, players: Sequence[PlayerScore]) -> str | None:
    """How the scheme counted a kong robbed with the wall's last tile, for the breakdown: robbing
    only (seed text 000: a winning tile has one source), or both, where a rule of the scheme on
    the last tile paid the winner (as Bradfield's `mj` and Pomax's scorer do); None for any
    other win."""
    w = table.winner
    flags = w.win.flags if w is not None and w.win is not None else frozenset()
    if WinFlag.ROBBED not in flags or WinFlag.LAST not in flags:
        return None
    paid = {i.rule for p in players if p.winner for i in p.best.items}
    if any(r.id in paid and ("flag", WinFlag.LAST) in r.when for r in used.rules):
        return _("the last tile made the kong that was robbed: this scheme pays both robbing the kong and the last "
                 "tile")
    return _("the last tile made the kong that was robbed: a robbed tile is neither a discard nor drawn, so robbing "
             "the kong counts and the last tile does not")


def validate_under(table: Table, used: Scheme) -> None:
    """Raise a TableError if the table is impossible under the scheme: a winner's hand complete
    in the scheme's shapes, the ways of winning as the scheme allows them."""
    ways = used.ways_of_winning
    validate_table(table, incomplete=lambda hand: incompleteness(hand, used, table),
                   loose_needs_kong=ways.loose_needs_kong, rob_concealed_pung=ways.rob_concealed_pung,
                   scheme_name=used.name)


def evaluate_player(table: Table, seat: Wind, scheme: str | None = None) -> PlayerScore:
    """One player's line of a table, checked (as far as a line alone can be: its tiles, its
    groups, its win clause, a winner's whole hand) and scored; nothing is settled."""
    used = scheme_for(table, scheme)
    validate_under(table, used)
    hand = table.player(seat)
    if hand is None:
        raise TableError(_("the line is not {seat}'s").format(seat=seat.value), table.where)
    return score_player(hand, table, used)


def _kitty_earned(table: Table, settings: Settings, scheme: Scheme, players: tuple[PlayerScore, ...]) -> bool:
    """Whether the winner's hand earns the rule the kitty asks for (`kitty-hand`), counted or
    left out under a limit hand; any winner takes it when no rule is asked for."""
    if not settings.kitty or settings.kitty_hand is None or table.draw or table.winner is None:
        return True
    if scheme.rule(settings.kitty_hand) is None:
        # A misspelt rule would silently keep the kitty from every winner: refused, not settled.
        raise TableError(_("kitty-hand names no rule of scheme '{scheme}': '{rule}' (the id of one of its rules, as "
                           "the scheme file writes it)").format(scheme=scheme.name, rule=settings.kitty_hand),
                         table.where, "kitty-hand")
    won = next(p for p in players if p.winner)
    if won.counted:
        raise SettlementError(_("the kitty goes to a hand that earns '{rule}', and {player}'s score was counted at "
                                "the table: list the tiles").format(rule=settings.kitty_hand,
                                                                    player=table.who(won.seat)))
    return any(i.rule == settings.kitty_hand for i in won.best.items + won.best.ignored)


# -- the plain form ----------------------------------------------------------------------------

def _valuation_json(v: Valuation) -> str:
    """A valuation's figures, items and arrangement: the members of a player's object from
    "points" to "arrangement", each after a comma."""
    return "".join([', "points": ', str(v.points), ', "doubles": ', str(v.doubles),
                    ', "limit": ', string(v.limit_rule.text) if v.limit_rule else "null",
                    ', "score": ', str(v.score), ', "items": ', _items_json(v.items),
                    ', "arrangement": [', v.arrangement.text_json() if v.arrangement else "", "]"])


def _items_json(items: tuple[Item, ...] | list[Item]) -> str:
    return "[" + ", ".join([_item_json(i) for i in items]) + "]"


# What one item writes: remembered, since the same few thousand come back table after table.
@lru_cache(maxsize=8192)
def _item_json(item: Item) -> str:
    return encode(item.as_dict())


def player_json(p: PlayerScore, explain: bool = False, claim: int | None = None) -> str:
    """A scored player's object in the plain form, as JSON text; `claim` is the score the player
    claimed (`= N`), shown beside mjscore's."""
    out = ['{"seat": ', string(p.seat.letter), ', "winner": ', boolean(p.winner)]
    if p.name:
        out += [', "name": ', string(p.name)]
    out.append(_valuation_json(p.best))
    completed = p.best.arrangement.completed_by_discard() if p.winner and p.best.arrangement else None
    if completed:
        out += [', "completed": ', string(completed)]
    if p.best.ignored:
        out += [', "not_counted": ', _items_json(p.best.ignored)]
    if p.counted:
        out.append(', "counted": true')
    if explain:
        out += [', "runner_up": ', _runner_up_json(p)]
    if claim is not None:
        out += [', "claim": ', str(int(claim))]
    out.append("}")
    return "".join(out)


def player_dict(p: PlayerScore, explain: bool = False) -> dict[str, Any]:
    """A scored player's object in the plain form."""
    d: dict[str, Any] = json.loads(player_json(p, explain))
    return d


def _runner_up_json(p: PlayerScore) -> str:
    r = p.runner_up
    if r is None:
        return "null"
    best = {(i.rule, i.applies_to) for i in p.best.items}
    mine = {(i.rule, i.applies_to) for i in r.items}
    return "".join(["{", _valuation_json(r)[2:],
                    ', "missing": ', _items_json([i for i in p.best.items if (i.rule, i.applies_to) not in mine]),
                    ', "extra": ', _items_json([i for i in r.items if (i.rule, i.applies_to) not in best]), "}"])


def table_waits(table: Table, scheme: str | None = None) -> list[dict[str, Any]]:
    """Each fully listed player's waits under the table's scheme (see `hand.waits.table_waits`).

    The table is checked as a table, but a hand one tile short of going out is the point here,
    so the winner's completeness is not asked for."""
    validate_table(table, incomplete=lambda hand: None)
    return waits_at_table(table, scheme_for(table, scheme))
