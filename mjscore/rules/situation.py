"""One player's situation: the hand and its circumstances, what every condition reads.

A module of its own so that it stays pure Python when the hot modules are compiled (setup.py,
`MJSCORE_COMPILE=1`): its `once` values are kept in the instance's `__dict__`, which a class
compiled by mypyc has not, and a plain attribute read there costs what it does here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Self, TypeVar, overload

from mjscore.hand.shapes import Counts, counts_of
from mjscore.hand.waits import waits_before_win, waits_of
from mjscore.model.table import Form, PlayerHand, Table, WinFlag
from mjscore.model.tiles import KINDS, WIND_BASE, Wind

if TYPE_CHECKING:
    from mjscore.rules.conditions import Completion, FeatureIndex, Need, RuleSet

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
        return self.index.hand_features(self)      # conditions' own (it imports this module)

