"""The words a rule's needs are written in: the features a hand may have, what a scheme's rules
need of them (its `FeatureIndex`), and what the conditions read of the scheme.

Below both the situation (rules.situation), which keeps a hand's own features, and the
conditions (rules.conditions), which work out the rest and test them: each of them imports this
module, neither imports the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple, Protocol

from mjscore.hand.arrange import Block
from mjscore.model.table import WinFlag
from mjscore.model.tiles import Wind

# The tile classes a scheme's conditions name (schemes/README.md); a SET or PAIR feature stands
# with one of them.
TILE_CLASSES = ("any", "simple", "terminal", "honour", "major", "wind", "dragon",
                "own-wind", "prevailing-wind", "green")


class ClaimedKong(NamedTuple):
    """How a concealed pung completed by a claimed fourth tile counts, scheme by scheme (the
    scheme's `sets.claimed_kong`): the associations score it as exposed but let it keep the hand
    concealed."""

    exposed_points: bool = True      # scores the exposed column of `sets.kong`
    concealed_hand: bool = False     # leaves the hand concealed, for the concealed-hand rules
    concealed_pung: bool = False     # counts among concealed pungs (three concealed pungs)


class RuleSet(Protocol):
    """What the conditions read of the scheme a hand is scored under (a `Scheme` is one)."""

    @property
    def claimed_kong(self) -> ClaimedKong: ...

    @property
    def shapes(self) -> frozenset[str]: ...

    @property
    def max_chows(self) -> int: ...


class Feature(Enum):
    """What a hand may have that a rule may need (see `Rule.needs`): the engine lists a hand's
    features once and tries only the rules whose needs are all among them.  The last seven
    stand with a value, as (feature, value): (Feature.SET, "dragon"), (Feature.SEAT, Wind.EAST);
    a counted one with its count, as (feature, n) for n of 2 or more."""

    __hash__ = object.__hash__      # members are singletons: identity hashing, at C speed

    EXPOSED = "exposed"                       # a set made with a claimed tile
    OPEN = "open"                             # ... that makes the hand no longer concealed
    CHOW = "chow"
    KONG = "kong"
    CONCEALED_PUNG = "concealed-pung"
    NO_CHOW = "no-chow"
    CONCEALED = "concealed"
    ZERO_POINTS = "zero-points"
    SELF_DRAWN = "self-drawn"
    DISCARD = "discard"
    EAST_WINNER = "east-winner"
    BONUS = "bonus"
    ONE_SUIT_OR_HONOURS = "one-suit-or-honours"
    ONLY_MAJORS = "only-majors"
    WAITING = "waiting"
    SEAT = "seat"                             # (SEAT, Wind)
    FLAG = "flag"                             # (FLAG, WinFlag)
    WIN_TILE = "win-tile"                     # (WIN_TILE, tile index)
    SHAPE = "shape"                           # (SHAPE, shape name)
    SET = "set"                               # (SET, tile class): a pung or kong of the class
    PAIR = "pair"                             # (PAIR, tile class)
    WIN_BLOCK = "win-block"                   # (WIN_BLOCK, "pair" | "set" | "pung" | "chow")


# What a feature stands with: a seat, a win flag, a tile index or count, a shape, tile class or block kind.
FeatureValue = Wind | WinFlag | int | str
# A feature, a feature with its value, or either counted: (feature, n).
FeatureKey = Feature | tuple[Feature, FeatureValue]
Need = FeatureKey | tuple[FeatureKey, int]
# Per scheme, each set's or pair's features and those of them the scheme's rules count, keyed by
# the block and the seat and round that name the own and prevailing winds.
BlockFeatures = dict[tuple[Block, Wind | None, Wind | None], tuple[frozenset[Need], tuple[FeatureKey, ...]]]


@dataclass(eq=False)
class FeatureIndex:
    """What a scheme's rules need, worked out once from its rules, and each block's features as
    they are met (kept by the scoring engine, one index for each scheme it scores under)."""

    winner_needs: frozenset[Need]             # every need of the rules a winner can earn
    loser_needs: frozenset[Need]              # ... a loser can earn
    counted: frozenset[FeatureKey]            # the block features whose number a rule needs
    blocks: BlockFeatures = field(default_factory=dict)

    @classmethod
    def of(cls, winner: Iterable[frozenset[Need]], loser: Iterable[frozenset[Need]]) -> FeatureIndex:
        """The index of a scheme's rules, from the needs of those a winner and a loser can earn."""
        winner_needs = frozenset(n for needs in winner for n in needs)
        loser_needs = frozenset(n for needs in loser for n in needs)
        return cls(winner_needs, loser_needs,
                   frozenset(n[0] for n in winner_needs | loser_needs
                             if isinstance(n, tuple) and n[0] in _BLOCK_FEATURE_KEYS))


# Every feature a block can give (what the engine counts, block by block).
_BLOCK_FEATURE_KEYS: frozenset[FeatureKey] = frozenset(
    {Feature.EXPOSED, Feature.OPEN, Feature.CHOW, Feature.KONG, Feature.CONCEALED_PUNG}
    | {(name, c) for name in (Feature.SET, Feature.PAIR) for c in TILE_CLASSES})
