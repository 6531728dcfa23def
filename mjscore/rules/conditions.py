"""The catalogue of conditions a scheme's rules are built from.

A rule in a scheme file says *when* it applies with a mapping of condition names to
parameters (`when: {sets: {tiles: dragon, count: 3}}`).  This module is that vocabulary: each
condition is a small pure function of the player's situation and one arrangement of the
player's tiles.  Rule values (points, doubles, limits) never live here; only what the words
mean.  Adding a condition here and to `schemes/README.md` is how the format grows (a test,
tests/test_conditions_documented.py, holds the two the same); a new condition may also say
which hand features its test cannot pass without (`needs`), so that the engine skips it on
hands that lack them (none is always safe, only slower).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeGuard, TypeVar

from mjscore.hand.arrange import SHAPES, Arrangement, Block, nine_gates
from mjscore.hand.waits import another_wait
from mjscore.io.notation import parse_tile
from mjscore.model.table import Form, SetKind, WinFlag
from mjscore.model.tiles import DRAGON_BASE, FLOWER_BASE, KINDS, SEASON_BASE, WIND_BASE, Wind
from mjscore.rules.features import TILE_CLASSES, ClaimedKong, Feature, FeatureIndex, FeatureKey, Need
# Kept in a module of its own, never compiled (setup.py): its `once` values are kept in each
# situation's __dict__, which a class compiled by mypyc has not.
from mjscore.rules.situation import Situation as Situation
from mjscore.model.say import _

P = TypeVar("P")        # a condition's parameter, as its check makes it


# -- tile classes ------------------------------------------------------------------------------

_GREEN = frozenset({19, 20, 21, 23, 25, DRAGON_BASE + 1})   # 2 3 4 6 8 bamboo, green dragon


def in_class(i: int, cls: str, sit: Situation | None) -> bool:
    """Whether tile kind `i` is of the tile class; the own and prevailing winds are the player's
    (`sit`), the other classes are the same for everyone (`sit` may be None)."""
    if cls == "any":
        return True
    if cls == "simple":
        return i < WIND_BASE and 1 <= i % 9 <= 7
    if cls == "terminal":
        return i < WIND_BASE and i % 9 in (0, 8)
    if cls == "honour":
        return i >= WIND_BASE
    if cls == "major":
        return i >= WIND_BASE or i % 9 in (0, 8)
    if cls == "wind":
        return WIND_BASE <= i < DRAGON_BASE
    if cls == "dragon":
        return DRAGON_BASE <= i < KINDS
    if cls == "own-wind" and sit is not None:
        return i == WIND_BASE + sit.seat.number - 1
    if cls == "prevailing-wind" and sit is not None:
        return i == WIND_BASE + sit.round.number - 1
    if cls == "green":
        return i in _GREEN
    raise ValueError(cls)


# -- parameter checking (used when a scheme is loaded) ----------------------------------------
#
# Each check takes the value as the scheme file writes it (untrusted: anything YAML reads) and
# gives the parameter its condition's test takes, or raises ParamError saying what it takes.

class ParamError(ValueError):
    pass


# The parameters of a per-hand condition's test, as its check makes them.
Bounds = tuple[int, int | None]                    # (at least, at most; None: no most)
ClassCount = tuple[str, Bounds]                    # (tile class, how many)
NineGatesSpec = tuple[tuple[int, int], bool, bool]  # ((LOW, HIGH) of the extra tile, concealed_ends, waited)
OnlyPossible = tuple[bool, bool, bool]             # (the value asked, ignore_dead, own_concealed)
# Any condition's parameter, per set or per hand: what a rule's `when` holds.
Param = (bool | int | str | Wind | WinFlag | Bounds | ClassCount | NineGatesSpec | OnlyPossible
         | tuple[WinFlag, ...] | tuple[str, ...] | frozenset[str] | frozenset[int] | frozenset[SetKind])


def _is_one_of(v: object, values: frozenset[str] | tuple[str, ...]) -> TypeGuard[str]:
    """Whether `v` is one of the words (an unhashable `v` raises TypeError for a set of them, as
    `in` does: the loader says the value is not one this condition takes)."""
    return v in values


def _bool(v: object) -> bool:
    if not isinstance(v, bool):
        raise ParamError(_("takes true or false"))
    return v


def _int(v: object) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise ParamError(_("takes a whole number"))
    return v


def _count(v: object) -> Bounds:
    """`N` (at least N) or {at_least: N, at_most: M, exactly: K}."""
    if isinstance(v, int) and not isinstance(v, bool):
        return (_int(v), None)
    if isinstance(v, dict):
        unknown = set(v) - {"at_least", "at_most", "exactly"}
        if unknown:
            raise ParamError(_("unknown key {key} (use at_least, at_most, exactly)").format(
                key=repr(sorted(unknown)[0])))
        if "exactly" in v:
            n = _int(v["exactly"])
            return (n, n)
        return (_int(v.get("at_least", 0)), _int(v["at_most"]) if "at_most" in v else None)
    raise ParamError(_("takes a number or {at_least: N, at_most: N, exactly: N}"))


def _choice(*values: str) -> Callable[[object], str]:
    def check(v: object) -> str:
        if not _is_one_of(v, values):
            raise ParamError(_("takes one of: {choices}").format(choices=", ".join(values)))
        return v
    return check


def _tile_class(v: object) -> str:
    return _choice(*TILE_CLASSES)(v)


def _class_count(v: object) -> ClassCount:
    if not isinstance(v, dict) or "tiles" not in v:
        raise ParamError(_("takes {tiles: CLASS, count: N}"))
    unknown = set(v) - {"tiles", "count"}
    if unknown:
        raise ParamError(_("unknown key {key}").format(key=repr(sorted(unknown)[0])))
    return (_tile_class(v["tiles"]), _count(v.get("count", 1)))


def _tile(v: object) -> int:
    t = parse_tile(str(v))
    if t is None or t.is_bonus:
        raise ParamError(_("{tile} is not a tile").format(tile=repr(v)))
    return t.index


def _tiles(v: object) -> frozenset[int]:
    if not isinstance(v, list) or not v:
        raise ParamError(_("takes a list of tiles"))
    return frozenset(_tile(x) for x in v)


def _shape(v: object) -> frozenset[str]:
    shapes: list[str] = []
    for x in v if isinstance(v, list) else [v]:
        if not _is_one_of(x, SHAPES):
            raise ParamError(_("{shape} is not a shape; known: {shapes}").format(
                shape=repr(x), shapes=", ".join(sorted(SHAPES))))
        shapes.append(x)
    return frozenset(shapes)


def _wind(v: object) -> Wind:
    if v not in ("E", "S", "W", "N"):
        raise ParamError(_("takes a wind: E, S, W or N"))
    return Wind(v)


def _flag(v: object) -> WinFlag:
    try:
        return WinFlag(v)
    except ValueError:
        raise ParamError(_("takes a win flag: {flags}").format(flags=", ".join(f.value for f in WinFlag))) from None


def _range(v: object) -> tuple[int, int]:
    if isinstance(v, list) and len(v) == 2:
        lo, hi = v
        if isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= 9 and 1 <= hi <= 9:
            return (lo, hi)
    raise ParamError(_("takes [LOW, HIGH], ranks 1 to 9"))


def _nine_gates(v: object) -> NineGatesSpec:
    if v is True:
        return ((1, 9), False, False)
    if not isinstance(v, dict):
        raise ParamError(_("takes true or {extra: [LOW, HIGH], concealed_ends: BOOL, waited: BOOL}"))
    unknown = set(v) - {"extra", "concealed_ends", "waited"}
    if unknown:
        raise ParamError(_("unknown key {key}").format(key=repr(sorted(unknown)[0])))
    return (_range(v.get("extra", [1, 9])), _bool(v.get("concealed_ends", False)), _bool(v.get("waited", False)))


def _rule_id(v: object) -> str:
    if not isinstance(v, str):
        raise ParamError(_("takes a rule id"))
    return v


# -- the conditions ----------------------------------------------------------------------------
#
# Each test is (situation, arrangement, parameter) -> whether the condition holds.

def _in(n: int, bounds: Bounds) -> bool:
    lo, hi = bounds
    return n >= lo and (hi is None or n <= hi)


def c_shape(sit: Situation, arr: Arrangement, shapes: frozenset[str]) -> bool:
    return arr.shape in shapes


def c_self_drawn(sit: Situation, arr: Arrangement, v: bool) -> bool:
    return sit.winner and sit.self_drawn == v


def c_flag(sit: Situation, arr: Arrangement, f: WinFlag) -> bool:
    return f in sit.flags


def c_not_flag(sit: Situation, arr: Arrangement, flags: tuple[WinFlag, ...]) -> bool:
    return not any(f in sit.flags for f in flags)


def _flags(v: object) -> tuple[WinFlag, ...]:
    """One win flag, or a list of them."""
    return tuple(_flag(x) for x in (v if isinstance(v, list) else [v]))


def c_winning_tile(sit: Situation, arr: Arrangement, t: int) -> bool:
    return sit.win_tile == t


def c_seat(sit: Situation, arr: Arrangement, w: Wind) -> bool:
    return sit.seat is w


def c_dealer_win(sit: Situation, arr: Arrangement, n: int) -> bool:
    """East wins for the n-th time in a row (or more)."""
    return sit.winner and sit.seat is Wind.EAST and sit.dealer_wins + 1 >= n


# A partial listing (`...`) leaves out tiles that score nothing, so a condition on the whole
# hand (one suit, only honours, no chows) can never be known to hold for it.

def c_no_chows(sit: Situation, arr: Arrangement, v: bool) -> bool:
    if sit.hand.incomplete:
        return False
    return (not any(b.kind is SetKind.CHOW for b in arr.blocks)) == v


def c_chows(sit: Situation, arr: Arrangement, bounds: Bounds) -> bool:
    return _in(sum(1 for b in arr.blocks if b.kind is SetKind.CHOW), bounds)


def c_concealed(sit: Situation, arr: Arrangement, v: bool) -> bool:
    """No set claimed from a discard, nor completed by a discarded winning tile (a claimed kong
    as the scheme says)."""
    keeps = sit.scheme.claimed_kong.concealed_hand
    return (not any(b.exposed and not (keeps and b.form is Form.CLAIMED_KONG) for b in arr.blocks)) == v


def c_one_suit(sit: Situation, arr: Arrangement, v: str) -> bool:
    if sit.hand.incomplete:
        return False
    numbered, honours = sit.suits
    if v == "with-honours":
        return numbered == 1 and honours
    if v == "without-honours":
        return numbered == 1 and not honours
    if v == "any":
        return numbered == 1
    return numbered <= 1          # "at-most-one": one suit and/or honours


def c_only(cls: str) -> Callable[[Situation, Arrangement, bool], bool]:
    def check(sit: Situation, arr: Arrangement, v: bool) -> bool:
        if sit.hand.incomplete:
            return False
        return all(in_class(i, cls, sit) for i in sit.held) == v
    return check


def c_only_tiles(sit: Situation, arr: Arrangement, tiles: frozenset[int]) -> bool:
    return not sit.hand.incomplete and all(i in tiles for i in sit.held)


def _sets_of(arr: Arrangement, cls: str, sit: Situation) -> int:
    return sum(1 for b in arr.blocks if b.is_pung_or_kong and in_class(b.tile, cls, sit))


def c_sets(sit: Situation, arr: Arrangement, spec: ClassCount) -> bool:
    cls, bounds = spec
    return _in(_sets_of(arr, cls, sit), bounds)


def c_pairs(sit: Situation, arr: Arrangement, spec: ClassCount) -> bool:
    cls, bounds = spec
    return _in(sum(1 for b in arr.blocks if b.kind is SetKind.PAIR and in_class(b.tile, cls, sit)), bounds)


def c_singles(sit: Situation, arr: Arrangement, spec: ClassCount) -> bool:
    """Tiles of a class in no set or pair of the arrangement (a loser's loose tiles)."""
    cls, bounds = spec
    used = [0] * KINDS
    for b in arr.blocks:
        if b.kind is not SetKind.SINGLE:
            for i in b.tiles:
                used[i] += 1
    return _in(sum(sit.counts[i] - used[i] for i in range(KINDS) if sit.counts[i] > used[i] and in_class(i, cls, sit)),
               bounds)


def c_exposed_sets(sit: Situation, arr: Arrangement, bounds: Bounds) -> bool:
    """Sets claimed from a discard, the one the winning discard completed included."""
    return _in(sum(1 for b in arr.blocks if b.is_set and b.exposed), bounds)


def c_exposed_melds(sit: Situation, arr: Arrangement, bounds: Bounds) -> bool:
    """Sets and pairs made with a claimed tile, the one the winning discard completed included: a
    pair completed by a discard counts too, as Kajongg counts melds (MahJonggWithOriginalCall)."""
    return _in(sum(1 for b in arr.blocks if b.exposed and b.kind is not SetKind.SINGLE), bounds)


def c_concealed_pungs(sit: Situation, arr: Arrangement, bounds: Bounds) -> bool:
    counts = sit.scheme.claimed_kong.concealed_pung
    return _in(sum(1 for b in arr.blocks if b.is_pung_or_kong
                   and (not b.exposed or (counts and b.form is Form.CLAIMED_KONG))), bounds)


def c_kongs(sit: Situation, arr: Arrangement, bounds: Bounds) -> bool:
    return _in(sum(1 for b in arr.blocks if b.kind is SetKind.KONG), bounds)


def c_win_block(sit: Situation, arr: Arrangement, kind: str) -> bool:
    b = arr.won_block
    if b is None:
        return False
    if kind == "set":
        return b.is_set
    return b.kind.value == kind


def c_discard_completes(sit: Situation, arr: Arrangement, kinds: tuple[str, ...]) -> bool:
    """A winning discard completed one of these blocks (a self-drawn tile: any)."""
    if sit.self_drawn:
        return True
    b = arr.won_block
    return b is not None and (b.kind.value in kinds or ("set" in kinds and b.is_set))


def _blocks(v: object) -> tuple[str, ...]:
    """A list of block kinds: pair, set, pung, chow."""
    if not isinstance(v, list) or not v:
        raise ParamError(_("takes a list of: pair, set, pung, chow"))
    return tuple(_choice("pair", "set", "pung", "chow")(x) for x in v)


def c_winning_tile_class(sit: Situation, arr: Arrangement, cls: str) -> bool:
    return sit.win_tile is not None and in_class(sit.win_tile, cls, sit)


def _only_possible(v: object) -> OnlyPossible:
    """true, or {ignore_dead: true}: waits whose every copy is out (the player's own and those in
    sight) do not count; {ignore_dead: true, own_concealed: false}: the player's own concealed
    copies are not counted out, only the tiles face up at the table."""
    if isinstance(v, bool):
        return (v, False, True)
    if isinstance(v, dict) and set(v) <= {"ignore_dead", "own_concealed"}:
        ignore_dead = _bool(v.get("ignore_dead", False))
        own_concealed = _bool(v.get("own_concealed", True))
        if ignore_dead or own_concealed:
            return (True, ignore_dead, own_concealed)
    raise ParamError(_("takes true or {ignore_dead: true}, with own_concealed: false if the player's concealed "
                     "tiles are not counted out"))


def c_only_possible(sit: Situation, arr: Arrangement, spec: OnlyPossible) -> bool:
    """Exactly one tile kind would have completed the hand (the winning tile's)."""
    v, ignore_dead, own_concealed = spec
    if sit.win_tile is None or not sit.winner:
        return False
    # A second wait the arrangement shows answers it without every wait worked out.
    other = another_wait(arr, sit.win_tile, sit.counts)
    if not ignore_dead:
        return (other is None and sit.waits_before_win == [sit.win_tile]) == v
    # A wait is dead when the copies out leave none to come: those shown or discarded, and the
    # player's own: all of them (`own_concealed`), or only those of her written sets, as
    # J. C. Bradfield's mj counts them.  A wait she holds all four of is none (`another_wait`,
    # `waits_before_win`), though mj would count it.
    out, mine = sit.out_elsewhere, (sit.counts if own_concealed else sit.shown)
    if other is not None and mine[other] + out[other] < 4:
        return not v
    waits = [t for t in sit.waits_before_win if t == sit.win_tile or mine[t] + out[t] < 4]
    return (waits == [sit.win_tile]) == v


def c_zero_points(sit: Situation, arr: Arrangement, v: bool) -> bool:
    """No set or pair scores points (bonus tiles are not counted)."""
    return (sit.set_points == 0) == v


def c_nine_gates(sit: Situation, arr: Arrangement, spec: NineGatesSpec) -> bool:
    """`waited`: the thirteen tiles before the winning tile were the gates, 1112345678999 (the
    winning tile is the extra one): 11123345678999s won on a 1s was 1123345678999 before it."""
    (lo, hi), concealed_ends, waited = spec
    if sit.hand.melds:
        return False
    found = nine_gates(sit.counts)
    if found is None or not lo <= found[1] <= hi:
        return False
    suit, extra = found
    if waited and sit.win_tile != suit * 9 + extra - 1:
        return False
    return not (concealed_ends and not sit.self_drawn and sit.win_tile in (suit * 9, suit * 9 + 8))


def c_squirming_snake(sit: Situation, arr: Arrangement, v: bool) -> bool:
    """DMJL: one suit, pungs of 1 and 9, a pair of 2, 5 or 8, chows of the other numbers."""
    c = sit.counts
    for s in range(3):
        suit = c[s * 9:(s + 1) * 9]
        if sum(suit) != sum(c):
            continue
        pairs = [r for r in (1, 4, 7) if suit[r] == 2]
        ok = (suit[0] >= 3 and suit[8] >= 3 and len(pairs) == 1 and all(suit)
              and sum(suit) - 5 == 9)
        return ok == v
    return not v


def _bonus(sit: Situation) -> list[int]:
    return [t.index for t in sit.hand.bonus]


def c_own_flower(sit: Situation, arr: Arrangement, v: bool) -> bool:
    return (FLOWER_BASE + sit.seat.number - 1 in _bonus(sit)) == v


def c_own_season(sit: Situation, arr: Arrangement, v: bool) -> bool:
    return (SEASON_BASE + sit.seat.number - 1 in _bonus(sit)) == v


def c_own_flower_and_season(sit: Situation, arr: Arrangement, v: bool) -> bool:
    b = _bonus(sit)
    return (FLOWER_BASE + sit.seat.number - 1 in b and SEASON_BASE + sit.seat.number - 1 in b) == v


def c_all_flowers(sit: Situation, arr: Arrangement, v: bool) -> bool:
    return all(FLOWER_BASE + k in _bonus(sit) for k in range(4)) == v


def c_all_seasons(sit: Situation, arr: Arrangement, v: bool) -> bool:
    return all(SEASON_BASE + k in _bonus(sit) for k in range(4)) == v


def c_calling(sit: Situation, arr: Arrangement, rule_id: str) -> bool:
    """A loser one tile from a hand that the rule `rule_id` (a winner's rule) would reward."""
    if sit.winner or sit.hand.incomplete or sit.calling is None:
        return False
    return sit.calling(sit, rule_id)


# -- what a rule needs: an index over the conditions ------------------------------------------
#
# A scheme has 30 to 50 rules and most of them fail on most hands (no flag, no dragon set, not
# one suit).  Each condition names the features its test cannot pass without; the engine lists
# the features of a hand once (`features`) and tries only the rules whose needs are all there.
# A need is necessary, never sufficient: the rule's own tests still decide.

def _no_needs(param: object) -> frozenset[Need]:
    return frozenset()


def _needs(*features: Need) -> Callable[[object], frozenset[Need]]:
    return lambda param: frozenset(features)


def _needs_if_true(feature: Need) -> Callable[[bool], frozenset[Need]]:
    return lambda v: frozenset({feature}) if v is True else frozenset()


def _at_least(feature: FeatureKey, n: int) -> frozenset[Need]:
    """The need for `n` or more of a counted feature: `feature` itself for one, (feature, n)
    for more (`features` lists (feature, 2) .. (feature, count))."""
    if n <= 0:
        return frozenset()
    return frozenset({feature if n == 1 else (feature, n)})


def _needs_at_least_one(feature: FeatureKey) -> Callable[[Bounds], frozenset[Need]]:
    return lambda bounds: _at_least(feature, bounds[0])


def _needs_of_class(kind: Feature) -> Callable[[ClassCount], frozenset[Need]]:
    return lambda spec: _at_least((kind, spec[0]), spec[1][0])


def _shape_needs(shapes: frozenset[str]) -> frozenset[Need]:
    return frozenset({(Feature.SHAPE, next(iter(shapes)))}) if len(shapes) == 1 else frozenset()


def _only_tiles_needs(tiles: frozenset[int]) -> frozenset[Need]:
    needs: set[Need] = set()
    if all(in_class(i, "major", None) for i in tiles):
        needs.add(Feature.ONLY_MAJORS)
    if len({i // 9 for i in tiles if i < WIND_BASE}) <= 1:
        needs.add(Feature.ONE_SUIT_OR_HONOURS)
    return frozenset(needs)


_STATIC_CLASSES = tuple(c for c in TILE_CLASSES if c not in ("own-wind", "prevailing-wind"))
# For each tile kind, the static tile classes it is in, as (SET, class) and (PAIR, class).
_SET_FEATURES = tuple(frozenset((Feature.SET, c) for c in _STATIC_CLASSES if in_class(i, c, None))
                      for i in range(KINDS))
_PAIR_FEATURES = tuple(frozenset((Feature.PAIR, c) for c in _STATIC_CLASSES if in_class(i, c, None))
                       for i in range(KINDS))


def features(sit: Situation, arr: Arrangement) -> set[Need]:
    """The features of this hand in this arrangement (see `Rule.needs`), the set points of the
    arrangement in `sit.set_points` already."""
    out = set(sit.hand_features)
    out.add((Feature.SHAPE, arr.shape))
    seat, prevailing = sit.seat, sit.round
    index = sit.index
    memo = index.blocks
    tally: dict[FeatureKey, int] | None = None
    for b in arr.blocks:
        if b.kind is SetKind.SINGLE:
            continue                    # a loser's leftover tiles: no feature, and not remembered
        key = (b, seat, prevailing)
        record = memo.get(key)
        if record is None:
            # Met first at this seat and round: the rest of the work is out of the loop, which
            # nearly always finds the block remembered.
            record = _remember_block(index, key, sit.scheme.claimed_kong)
        out |= record[0]
        if record[1]:
            if tally is None:
                tally = {}
            for feature in record[1]:
                tally[feature] = tally.get(feature, 0) + 1
    if tally:
        # Two or more blocks with a feature a rule counts: (feature, 2) .. (feature, n) too.
        for feature, n in tally.items():
            for k in range(2, n + 1):
                out.add((feature, k))
    if Feature.CHOW not in out:
        out.add(Feature.NO_CHOW)
    if Feature.OPEN not in out:
        out.add(Feature.CONCEALED)
    won = arr.won_block
    if won is not None:
        out.add((Feature.WIN_BLOCK, won.kind.value))
        if won.is_set:
            out.add((Feature.WIN_BLOCK, "set"))
    if sit.set_points == 0:
        out.add(Feature.ZERO_POINTS)
    return out


def _remember_block(index: FeatureIndex, key: tuple[Block, Wind, Wind],
                    claimed_kong: ClaimedKong) -> tuple[frozenset[Need], tuple[FeatureKey, ...]]:
    """A block's features and those of them the scheme's rules count, kept in the index under
    its seat and round; one the same for every seat and round (`seat_blind`) is worked out once
    for all of them."""
    memo = index.blocks
    b, seat, prevailing = key
    shared = (b, None, None) if seat_blind(b) else key
    record = memo.get(shared)
    if record is None:
        more = _block_features(b, seat, prevailing, claimed_kong)
        record = memo[shared] = (more, tuple(index.counted.intersection(more)))
    memo[key] = record
    return record


def seat_blind(b: Block) -> bool:
    """Whether a set or pair is the same whoever holds it, in any round: of any tile but a wind
    (only a wind is someone's own or the prevailing one).  Its features and its points are then
    remembered once for every seat and round (`features`, `scoring.score._scores_of`)."""
    return not WIND_BASE <= b.tiles[0] < DRAGON_BASE


def _block_features(b: Block, seat: Wind, prevailing: Wind, claimed_kong: ClaimedKong) -> frozenset[Need]:
    """The features one set or pair gives an arrangement (the seat and round name the own and
    prevailing winds): EXPOSED for a set made with a claimed tile, OPEN when that makes the
    hand no longer concealed (a claimed kong may not, as the scheme says)."""
    kind, tile, exposed = b.kind, b.tiles[0], b.exposed
    out: set[Need] = set()
    hidden = False          # counts as a concealed pung though made with a claimed tile
    if exposed:
        out.add(Feature.EXPOSED)
        if b.form is Form.CLAIMED_KONG:
            hidden = claimed_kong.concealed_pung
            if not claimed_kong.concealed_hand:
                out.add(Feature.OPEN)
        else:
            out.add(Feature.OPEN)
    if kind is SetKind.CHOW:
        out.add(Feature.CHOW)
    elif kind is SetKind.PAIR or kind is SetKind.PUNG or kind is SetKind.KONG:
        name = Feature.PAIR if kind is SetKind.PAIR else Feature.SET
        out |= _PAIR_FEATURES[tile] if name is Feature.PAIR else _SET_FEATURES[tile]
        if tile == WIND_BASE + seat.number - 1:
            out.add((name, "own-wind"))
        if tile == WIND_BASE + prevailing.number - 1:
            out.add((name, "prevailing-wind"))
        if kind is SetKind.KONG:
            out.add(Feature.KONG)
        if name is Feature.SET and (not exposed or hidden):
            out.add(Feature.CONCEALED_PUNG)
    return frozenset(out)


class Condition(NamedTuple, Generic[P]):
    """One condition of a per-hand rule: its check makes the parameter a scheme file writes into
    the one its test takes (or raises ParamError), and `needs` names what the test cannot pass
    without."""

    check: Callable[[object], P]                              # parameter validation, returns the parsed parameter
    test: Callable[[Situation, Arrangement, P], bool]
    doc: str
    needs: Callable[[P], frozenset[Need]] = _no_needs         # the features the test cannot pass without


# A rule's test of one condition, with its parameter (`Rule.tests`): the two agree, condition by
# condition (a Condition[P]), which a tuple of them cannot say, so the parameter is Any here.
BoundTest = tuple[Callable[[Situation, Arrangement, Any], bool], Any]


def _condition(check: Callable[[object], P], test: Callable[[Situation, Arrangement, P], bool], doc: str,
               needs: Callable[[P], frozenset[Need]] = _no_needs) -> Condition[Any]:
    """A catalogue entry, its check, test and needs held to one parameter type (a Condition[P],
    kept among the others as a Condition[Any])."""
    return Condition(check, test, doc, needs)


CONDITIONS: dict[str, Condition[Any]] = {
    "shape": _condition(_shape, c_shape, "the hand's winning shape: standard or a special shape", _shape_needs),
    "self_drawn": _condition(_bool, c_self_drawn, "the winning tile was drawn (true) or a discard (false)",
                            lambda v: frozenset({Feature.SELF_DRAWN if v else Feature.DISCARD})),
    "flag": _condition(_flag, c_flag, "a flag of the win clause: loose, last, robbed, heaven, earth, "
                                      "original-call, twofold",
                       lambda f: frozenset({(Feature.FLAG, f)})),
    "not_flag": _condition(_flags, c_not_flag, "the win clause has none of these flags (a flag or a list: "
                                               "robbed, the tile was no discard; [loose, twofold], it was drawn "
                                               "from the wall proper)", lambda f: frozenset()),
    "winning_tile": _condition(_tile, c_winning_tile, "the winning tile is this tile",
                               lambda t: frozenset({(Feature.WIN_TILE, t)})),
    "winning_tile_class": _condition(_tile_class, c_winning_tile_class, "the winning tile is of this class"),
    "seat": _condition(_wind, c_seat, "the player sits in this seat", lambda w: frozenset({(Feature.SEAT, w)})),
    "dealer_win": _condition(_int, c_dealer_win, "East wins for the N-th time in a row, or more",
                             _needs(Feature.EAST_WINNER)),
    "no_chows": _condition(_bool, c_no_chows, "the arrangement has no chow",
                           lambda v: frozenset({Feature.NO_CHOW if v else Feature.CHOW})),
    "chows": _condition(_count, c_chows, "how many chows the arrangement has", _needs_at_least_one(Feature.CHOW)),
    "concealed": _condition(_bool, c_concealed, "no set exposed, not even by the winning discard",
                            lambda v: frozenset({Feature.CONCEALED if v else Feature.OPEN})),
    "one_suit": _condition(_choice("with-honours", "without-honours", "any", "at-most-one"), c_one_suit,
                           "one numbered suit, with honours, without, either; at-most-one: one suit and/or honours",
                           _needs(Feature.ONE_SUIT_OR_HONOURS)),
    "only_honours": _condition(_bool, c_only("honour"), "every tile is a wind or dragon",
                               _needs_if_true(Feature.ONLY_MAJORS)),
    "only_majors": _condition(_bool, c_only("major"), "every tile is a terminal or honour",
                              _needs_if_true(Feature.ONLY_MAJORS)),
    "only_terminals": _condition(_bool, c_only("terminal"), "every tile is a 1 or a 9",
                                 _needs_if_true(Feature.ONLY_MAJORS)),
    "only_tiles": _condition(_tiles, c_only_tiles, "every tile is one of these", _only_tiles_needs),
    "sets": _condition(_class_count, c_sets, "pungs and kongs of a tile class: {tiles, count}",
                       _needs_of_class(Feature.SET)),
    "pairs": _condition(_class_count, c_pairs, "pairs of a tile class: {tiles, count}", _needs_of_class(Feature.PAIR)),
    "singles": _condition(_class_count, c_singles, "single tiles of a tile class: {tiles, count}"),
    "exposed_sets": _condition(_count, c_exposed_sets, "sets claimed from a discard, the set the winning discard "
                                                       "completed included", _needs_at_least_one(Feature.EXPOSED)),
    "exposed_melds": _condition(_count, c_exposed_melds, "sets and pairs claimed from a discard, the one the "
                                                         "winning discard completed included",
                                _needs_at_least_one(Feature.EXPOSED)),
    "concealed_pungs": _condition(_count, c_concealed_pungs, "concealed pungs and kongs",
                                  _needs_at_least_one(Feature.CONCEALED_PUNG)),
    "kongs": _condition(_count, c_kongs, "kongs", _needs_at_least_one(Feature.KONG)),
    "win_block": _condition(_choice("pair", "set", "pung", "chow"), c_win_block,
                            "what the winning tile completed", lambda k: frozenset({(Feature.WIN_BLOCK, k)})),
    "discard_completes": _condition(_blocks, c_discard_completes, "a winning discard completed one of these "
                                                                  "(pair, set, pung, chow); a drawn tile, any",
                                    lambda k: frozenset()),
    "only_possible": _condition(_only_possible, c_only_possible, "one tile kind alone could complete the hand; "
                                                               "{ignore_dead: true}: dead waits do not count "
                                                               "(own_concealed: false: counted on the tiles "
                                                               "face up only)"),
    "zero_points": _condition(_bool, c_zero_points, "no set or pair scored points",
                              _needs_if_true(Feature.ZERO_POINTS)),
    "nine_gates": _condition(_nine_gates, c_nine_gates, "1112345678999 of one suit plus one tile of it, "
                                                        "all concealed: {extra: [LOW, HIGH], concealed_ends, "
                                                        "waited: the winning tile is the extra one}",
                             _needs(Feature.ONE_SUIT_OR_HONOURS)),
    "squirming_snake": _condition(_bool, c_squirming_snake, "one suit: 111, 999, a pair of 2/5/8, two chows",
                                  _needs_if_true(Feature.ONE_SUIT_OR_HONOURS)),
    "own_flower": _condition(_bool, c_own_flower, "holds the flower of the own seat", _needs_if_true(Feature.BONUS)),
    "own_season": _condition(_bool, c_own_season, "holds the season of the own seat", _needs_if_true(Feature.BONUS)),
    "own_flower_and_season": _condition(_bool, c_own_flower_and_season, "holds both",
                                        _needs_if_true((Feature.BONUS, 2))),
    "all_flowers": _condition(_bool, c_all_flowers, "holds all four flowers", _needs_if_true((Feature.BONUS, 4))),
    "all_seasons": _condition(_bool, c_all_seasons, "holds all four seasons", _needs_if_true((Feature.BONUS, 4))),
    "calling": _condition(_rule_id, c_calling, "a loser one tile away from a hand that rule ID rewards",
                          _needs(Feature.WAITING)),
}


def _kinds(v: object) -> frozenset[SetKind]:
    """A block kind, or a list of them: chow, pung, kong (pair is taken too, and never matches: a
    per-set rule is tried on sets only)."""
    return frozenset(SetKind(_choice("chow", "pung", "kong", "pair")(x)) for x in (v if isinstance(v, list) else [v]))


# Conditions of a per-set rule: they look at one block, not the hand.  Each check makes the
# parameter `block_matches` reads: a frozenset of SetKind, a tile class, a bool.
SET_CONDITIONS: dict[str, Callable[[object], Param]] = {
    "kind": _kinds,
    "tiles": _tile_class,
    "exposed": _bool,
}

When = tuple[tuple[str, Param], ...] | list[tuple[str, Param]]      # a rule's conditions, parsed


def block_matches(sit: Situation, b: Block, when: When) -> bool:
    for name, param in when:
        if name == "kind":
            if not (isinstance(param, frozenset) and b.kind in param):
                return False
        elif name == "tiles":
            if not (isinstance(param, str) and in_class(b.tiles[0], param, sit)):
                return False
        elif name == "exposed" and b.exposed != param:
            return False
    return True


def set_rule_needs(when: When) -> frozenset[Need]:
    """What a per-set rule needs: a set of its kind and tile class somewhere in the arrangement."""
    params = dict(when)
    kinds = params.get("kind", frozenset())
    cls = params.get("tiles", "any")
    if not isinstance(kinds, frozenset) or not isinstance(cls, str):
        return frozenset()              # no such parameters come from `SET_CONDITIONS`: no need is known
    if kinds and kinds <= {SetKind.PUNG, SetKind.KONG}:
        return frozenset({(Feature.SET, cls)})
    if kinds == frozenset({SetKind.CHOW}):
        return frozenset({Feature.CHOW})
    return frozenset()
