"""One player's situation: the hand and its circumstances, what every condition reads.

A module of its own so that it stays pure Python when the hot modules are compiled (setup.py,
`MJSCORE_COMPILE=1`): its `once` values are kept in the instance's `__dict__`, which a class
compiled by mypyc has not, and a plain attribute read there costs what it does here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Self, TypeVar, overload

from mjscore.hand.arrange import Arrangement
from mjscore.hand.shapes import Counts, counts_of
from mjscore.hand.waits import waits_before_win, waits_of
from mjscore.model.table import Form, PlayerHand, Table, WinFlag
from mjscore.model.tiles import KINDS, WIND_BASE, Wind
from mjscore.rules.features import Feature, FeatureIndex, Need, RuleSet

S = TypeVar("S")        # what a `once` property is read off
T = TypeVar("T")        # ... and what it gives


class once(Generic[S, T]):
    """A property worked out on first use, then kept as a plain attribute: what
    `functools.cached_property` does, without the lock Python 3.11's takes on every first use
    (a situation's values are worked out by one thread; 3.12 dropped the lock for that reason).
    A situation is made for every player of every table: 15 M fewer of 4,066 M instructions
    (0.4 %) on the 1,500-table benchmark batch (callgrind)."""

    def __init__(self, compute: Callable[[S], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type[S], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type[S] | None = None) -> Self: ...

    @overload
    def __get__(self, obj: S, owner: type[S] | None = None) -> T: ...

    def __get__(self, obj: S | None, owner: type[S] | None = None) -> Self | T:
        if obj is None:
            return self                 # the descriptor itself, read off the class
        value = obj.__dict__[self.name] = self.compute(obj)
        return value

    if TYPE_CHECKING:
        # Assigning the attribute sets the value it keeps (`scoring.score.situation` sets a
        # winner's counts so).  For type checkers only, as typeshed declares it for
        # cached_property: a real __set__ would make this a data descriptor, asked on every read.
        def __set__(self, obj: S, value: T) -> None: ...



@dataclass
class Situation:
    """One player's hand and circumstances: everything but the arrangement.  What the conditions
    work out of it once (its tile counts, its waits, its features) is kept on it, worked out
    when a condition first asks (a loser's rules often never do)."""

    hand: PlayerHand
    round: Wind
    dealer_wins: int
    scheme: RuleSet                 # for shapes, the chow limit, how a claimed kong counts
    index: FeatureIndex             # the scheme's, from the engine
    win_tile: int | None = None
    self_drawn: bool = False
    flags: frozenset[WinFlag] = frozenset()
    set_points: int = 0             # what the sets and pairs of the arrangement in hand scored
    table: Table | None = None      # the whole table, for what other players show (dead waits)
    # calling(sit, rule_id): is this loser one tile from a hand the rule rewards?  Handed in by
    # the scoring engine, which alone can value the completed hands.
    calling: Callable[[Situation, str], bool] | None = None
    calling_found: dict[str, bool] = field(default_factory=dict)     # rule id -> calling for it
    # The hand completed by each wait, with its arrangements: built by the engine for `calling`.
    completions: list[Completion] = field(default_factory=list)
    # The hand's seat and whether it won, kept as plain attributes: the conditions and the
    # engine ask them about 23 times a table, each a Python call as properties.
    seat: Wind = field(init=False, compare=False, repr=False)
    winner: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.seat = self.hand.seat
        self.winner = self.hand.win is not None

    @once
    def counts(self) -> Counts:
        """Every playing tile the player holds, melds included, counted by kind."""
        return counts_of(self.hand.all_tiles())

    @once
    def out_elsewhere(self) -> Counts:
        """Tiles out of play but for the player's own hand (only for the schemes that ask): face
        up in the other players' exposed sets and declared kongs, and the discards the table
        writes (`discarded 5p`, every player's: they lie on the table, docs/notation.md)."""
        players = self.table.players if self.table is not None else ()
        return counts_of([t for p in players if p.seat is not self.seat
                          for m in p.melds if m.form is not Form.GROUP for t in m.tiles]
                         + [t for p in players for t in p.discards])

    @once
    def shown(self) -> Counts:
        """The player's own tiles face up at the table (only for the schemes that ask): her
        written sets, exposed, claimed and declared kongs, not her loose tiles nor `{ }` groups."""
        return counts_of([t for m in self.hand.melds if m.form is not Form.GROUP for t in m.tiles])

    @once
    def suits(self) -> tuple[int, bool]:
        """How many numbered suits the hand holds, and whether it holds honours."""
        c = self.counts
        return any(c[0:9]) + any(c[9:18]) + any(c[18:27]), any(c[WIND_BASE:KINDS])

    @once
    def held(self) -> list[int]:
        """The tile kinds held."""
        return [i for i, n in enumerate(self.counts) if n]

    @once
    def waits(self) -> list[int]:
        """The tiles that would complete this player's hand as it stands."""
        return waits_of(self.hand, self.scheme, self.counts)

    @once
    def waits_before_win(self) -> list[int]:
        """The tiles that would have completed a winner's hand before the winning tile."""
        return waits_before_win(self.hand, self.scheme, self.counts)

    @once
    def hand_features(self) -> frozenset[Need]:
        """What a rule may need of the player's circumstances and tiles, the arrangement aside
        (the conditions add each arrangement's own: `conditions.features`)."""
        f: set[Need] = {(Feature.SEAT, self.seat)}
        for flag in self.flags:
            f.add((Feature.FLAG, flag))
        if self.winner:
            f.add(Feature.SELF_DRAWN if self.self_drawn else Feature.DISCARD)
            if self.seat is Wind.EAST:
                f.add(Feature.EAST_WINNER)
        if self.win_tile is not None:
            f.add((Feature.WIN_TILE, self.win_tile))
        bonus = len(self.hand.bonus)
        if bonus:
            f.add(Feature.BONUS)
            f.update((Feature.BONUS, n) for n in range(2, bonus + 1))
        # The features read off the whole hand's tiles are worked out only if a rule of the scheme
        # needs them (a loser's rules seldom do).
        wanted = self.index.winner_needs if self.winner else self.index.loser_needs
        if Feature.ONE_SUIT_OR_HONOURS in wanted and self.suits[0] <= 1:
            f.add(Feature.ONE_SUIT_OR_HONOURS)
        c = self.counts
        if Feature.ONLY_MAJORS in wanted and not (any(c[1:8]) or any(c[10:17]) or any(c[19:26])):   # no 2 to 8
            f.add(Feature.ONLY_MAJORS)
        if Feature.WAITING in wanted and not self.winner and not self.hand.incomplete and self.waits:
            f.add(Feature.WAITING)
        return frozenset(f)


# A hand a loser's wait completes, as a winner's situation, with its arrangements, the set points
# and the features of each (`scoring.score._completions`).
Completion = tuple[Situation, list[tuple[Arrangement, int, set[Need]]]]

