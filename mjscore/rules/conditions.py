"""The catalogue of conditions a scheme's rules are built from.

A rule in a scheme file says *when* it applies with a mapping of condition names to
parameters (`when: {sets: {tiles: dragon, count: 3}}`).  This module is that vocabulary: each
condition is a small pure function of the player's situation and one arrangement of the
player's tiles.  Rule values (points, doubles, limits) never live here; only what the words
mean.  Adding a condition here and to `schemes/README.md` is how the format grows; a new
condition may also say which hand features its test cannot pass without (`needs`), so that
the engine skips it on hands that lack them (none is always safe, only slower).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, NamedTuple

from mjscore.hand.arrange import SHAPES, Arrangement, Block
from mjscore.hand.shapes import Counts, counts_of
from mjscore.hand.waits import waits_before_win, waits_of
from mjscore.io.notation import parse_tile
from mjscore.model.table import Form, PlayerHand, SetKind, WinFlag
from mjscore.model.tiles import DRAGON_BASE, FLOWER_BASE, KINDS, SEASON_BASE, WIND_BASE, Wind


@dataclass
class Situation:
    """One player's hand and circumstances: everything but the arrangement."""

    hand: PlayerHand
    round: Wind
    dealer_wins: int
    scheme: Any                     # the Scheme (for shapes, chow limit, rule look-ups)
    win_tile: int | None = None
    self_drawn: bool = False
    flags: frozenset = frozenset()
    cache: dict = field(default_factory=dict)
    set_points: int = 0             # what the sets and pairs of the arrangement in hand scored
    table: Any = None               # the whole table, for what other players show (dead waits)
    # calling(sit, rule_id): is this loser one tile from a hand the rule rewards?  Handed in by
    # the scoring engine, which alone can value the completed hands.
    calling: Callable[[Situation, str], bool] | None = None

    @cached_property
    def counts(self) -> Counts:
        """Every playing tile the player holds, melds included, counted by kind: worked out
        when a condition first asks (a loser's rules often never do), then a plain attribute."""
        return counts_of(self.hand.all_tiles())

    def exposed_elsewhere(self) -> Counts:
        """Tiles face up in the other players' exposed sets and declared kongs (worked out once,
        and only for the schemes that ask)."""
        if "exposed" not in self.cache:
            players = self.table.players if self.table is not None else ()
            self.cache["exposed"] = counts_of([t for p in players if p.seat is not self.seat
                                               for m in p.melds if m.form is not Form.GROUP for t in m.tiles])
        return self.cache["exposed"]

    @property
    def seat(self) -> Wind:
        return self.hand.seat

    @property
    def winner(self) -> bool:
        return self.hand.win is not None


# -- tile classes ------------------------------------------------------------------------------

TILE_CLASSES = ("any", "simple", "terminal", "honour", "major", "wind", "dragon",
                "own-wind", "prevailing-wind", "green")
_GREEN = frozenset({19, 20, 21, 23, 25, DRAGON_BASE + 1})   # 2 3 4 6 8 bamboo, green dragon


def in_class(i: int, cls: str, sit: Situation) -> bool:
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
    if cls == "own-wind":
        return i == WIND_BASE + sit.seat.number - 1
    if cls == "prevailing-wind":
        return i == WIND_BASE + sit.round.number - 1
    if cls == "green":
        return i in _GREEN
    raise ValueError(cls)


# -- parameter checking (used when a scheme is loaded) ----------------------------------------

class ParamError(ValueError):
    pass


def _bool(v):
    if not isinstance(v, bool):
        raise ParamError("takes true or false")
    return v


def _int(v):
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise ParamError("takes a whole number")
    return v


def _count(v):
    """`N` (at least N) or {at_least: N, at_most: M, exactly: K}."""
    if isinstance(v, int) and not isinstance(v, bool):
        return (_int(v), None)
    if isinstance(v, dict):
        unknown = set(v) - {"at_least", "at_most", "exactly"}
        if unknown:
            raise ParamError(f"unknown key {sorted(unknown)[0]!r} (use at_least, at_most, exactly)")
        if "exactly" in v:
            n = _int(v["exactly"])
            return (n, n)
        return (_int(v.get("at_least", 0)), _int(v["at_most"]) if "at_most" in v else None)
    raise ParamError("takes a number or {at_least: N, at_most: N, exactly: N}")


def _choice(*values):
    def check(v):
        if v not in values:
            raise ParamError(f"takes one of: {', '.join(values)}")
        return v
    return check


def _tile_class(v):
    return _choice(*TILE_CLASSES)(v)


def _class_count(v):
    if not isinstance(v, dict) or "tiles" not in v:
        raise ParamError("takes {tiles: CLASS, count: N}")
    unknown = set(v) - {"tiles", "count"}
    if unknown:
        raise ParamError(f"unknown key {sorted(unknown)[0]!r}")
    return (_tile_class(v["tiles"]), _count(v.get("count", 1)))


def _tile(v):
    t = parse_tile(str(v))
    if t is None or t.is_bonus:
        raise ParamError(f"{v!r} is not a tile")
    return t.index


def _tiles(v):
    if not isinstance(v, list) or not v:
        raise ParamError("takes a list of tiles")
    return frozenset(_tile(x) for x in v)


def _shape(v):
    vals = v if isinstance(v, list) else [v]
    for x in vals:
        if x not in SHAPES:
            raise ParamError(f"{x!r} is not a shape; known: {', '.join(sorted(SHAPES))}")
    return frozenset(vals)


def _wind(v):
    if v not in ("E", "S", "W", "N"):
        raise ParamError("takes a wind: E, S, W or N")
    return Wind(v)


def _flag(v):
    try:
        return WinFlag(v)
    except ValueError:
        raise ParamError(f"takes a win flag: {', '.join(f.value for f in WinFlag)}") from None


def _range(v):
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and 1 <= x <= 9 for x in v)):
        raise ParamError("takes [LOW, HIGH], ranks 1 to 9")
    return (v[0], v[1])


def _nine_gates(v):
    if v is True:
        return ((1, 9), False)
    if not isinstance(v, dict):
        raise ParamError("takes true or {extra: [LOW, HIGH], concealed_ends: BOOL}")
    unknown = set(v) - {"extra", "concealed_ends"}
    if unknown:
        raise ParamError(f"unknown key {sorted(unknown)[0]!r}")
    return (_range(v.get("extra", [1, 9])), _bool(v.get("concealed_ends", False)))


def _rule_id(v):
    if not isinstance(v, str):
        raise ParamError("takes a rule id")
    return v


# -- the conditions ----------------------------------------------------------------------------

def _in(n: int, bounds) -> bool:
    lo, hi = bounds
    return n >= lo and (hi is None or n <= hi)


def _suits(sit: Situation):
    key = "suits"
    if key not in sit.cache:
        c = sit.counts
        numbered = any(c[0:9]) + any(c[9:18]) + any(c[18:27])
        sit.cache[key] = (numbered, any(c[WIND_BASE:KINDS]))
    return sit.cache[key]


def _held(sit: Situation):
    held = sit.cache.get("held")
    if held is None:
        held = sit.cache["held"] = [i for i, n in enumerate(sit.counts) if n]
    return held


def c_shape(sit, arr, shapes):
    return arr.shape in shapes


def c_self_drawn(sit, arr, v):
    return sit.winner and sit.self_drawn == v


def c_flag(sit, arr, f):
    return f in sit.flags


def c_winning_tile(sit, arr, t):
    return sit.win_tile == t


def c_seat(sit, arr, w):
    return sit.seat is w


def c_dealer_win(sit, arr, n):
    """East wins for the n-th time in a row (or more)."""
    return sit.winner and sit.seat is Wind.EAST and sit.dealer_wins + 1 >= n


# A partial listing (`...`) leaves out tiles that score nothing, so a condition on the whole
# hand (one suit, only honours, no chows) can never be known to hold for it.

def c_no_chows(sit, arr, v):
    if sit.hand.incomplete:
        return False
    return (not any(b.kind is SetKind.CHOW for b in arr.blocks)) == v


def c_chows(sit, arr, bounds):
    return _in(sum(1 for b in arr.blocks if b.kind is SetKind.CHOW), bounds)


def c_concealed(sit, arr, v):
    """No set claimed from a discard, nor completed by a discarded winning tile (a claimed kong
    as the scheme says)."""
    keeps = sit.scheme.claimed_kong.concealed_hand
    return (not any(b.exposed and not (keeps and b.form is Form.CLAIMED_KONG) for b in arr.blocks)) == v


def c_one_suit(sit, arr, v):
    if sit.hand.incomplete:
        return False
    numbered, honours = _suits(sit)
    if v == "with-honours":
        return numbered == 1 and honours
    if v == "without-honours":
        return numbered == 1 and not honours
    if v == "any":
        return numbered == 1
    return numbered <= 1          # "at-most-one": one suit and/or honours


def c_only(cls):
    def check(sit, arr, v):
        if sit.hand.incomplete:
            return False
        return all(in_class(i, cls, sit) for i in _held(sit)) == v
    return check


def c_only_tiles(sit, arr, tiles):
    return not sit.hand.incomplete and all(i in tiles for i in _held(sit))


def _sets_of(arr: Arrangement, cls: str, sit: Situation) -> int:
    return sum(1 for b in arr.blocks if b.is_pung_or_kong and in_class(b.tile, cls, sit))


def c_sets(sit, arr, spec):
    cls, bounds = spec
    return _in(_sets_of(arr, cls, sit), bounds)


def c_pairs(sit, arr, spec):
    cls, bounds = spec
    return _in(sum(1 for b in arr.blocks if b.kind is SetKind.PAIR and in_class(b.tile, cls, sit)), bounds)


def c_singles(sit, arr, spec):
    """Tiles of a class in no set or pair of the arrangement (a loser's loose tiles)."""
    cls, bounds = spec
    used = [0] * KINDS
    for b in arr.blocks:
        if b.kind is not SetKind.SINGLE:
            for i in b.tiles:
                used[i] += 1
    return _in(sum(sit.counts[i] - used[i] for i in range(KINDS) if sit.counts[i] > used[i] and in_class(i, cls, sit)),
               bounds)


def c_exposed_sets(sit, arr, bounds):
    """Sets claimed from a discard, the one the winning discard completed included."""
    return _in(sum(1 for b in arr.blocks if b.is_set and b.exposed), bounds)


def c_concealed_pungs(sit, arr, bounds):
    counts = sit.scheme.claimed_kong.concealed_pung
    return _in(sum(1 for b in arr.blocks if b.is_pung_or_kong
                   and (not b.exposed or (counts and b.form is Form.CLAIMED_KONG))), bounds)


def c_kongs(sit, arr, bounds):
    return _in(sum(1 for b in arr.blocks if b.kind is SetKind.KONG), bounds)


def c_win_block(sit, arr, kind):
    b = arr.won_block
    if b is None:
        return False
    if kind == "set":
        return b.is_set
    return b.kind.value == kind


def c_winning_tile_class(sit, arr, cls):
    return sit.win_tile is not None and in_class(sit.win_tile, cls, sit)


def _only_possible(v):
    """true, or {ignore_dead: true}: waits whose every copy is exposed at the table do not count."""
    if isinstance(v, bool):
        return (v, False)
    if isinstance(v, dict) and set(v) <= {"ignore_dead"}:
        return (True, _bool(v.get("ignore_dead", False)))
    raise ParamError("takes true or {ignore_dead: true}")


def c_only_possible(sit, arr, spec):
    """Exactly one tile kind would have completed the hand (the winning tile's)."""
    v, ignore_dead = spec
    if sit.win_tile is None or not sit.winner:
        return False
    if "only-possible" not in sit.cache:
        sit.cache["only-possible"] = waits_before_win(sit.hand, sit.scheme, sit.counts)
    waits = sit.cache["only-possible"]
    if ignore_dead:
        held, exposed = sit.counts, sit.exposed_elsewhere()
        # A wait is dead when the player's own copies and the exposed ones leave none to come.
        waits = [t for t in waits if t == sit.win_tile or held[t] + exposed[t] < 4]
    return (waits == [sit.win_tile]) == v


def c_zero_points(sit, arr, v):
    """No set or pair scores points (bonus tiles are not counted)."""
    return (sit.set_points == 0) == v


def c_nine_gates(sit, arr, spec):
    (lo, hi), concealed_ends = spec
    h = sit.hand
    if h.melds:
        return False
    c = sit.counts
    for s in range(3):
        suit = c[s * 9:(s + 1) * 9]
        if sum(suit) != 14:
            continue
        base = (3, 1, 1, 1, 1, 1, 1, 1, 3)
        extra = [r for r in range(9) if suit[r] - base[r] == 1]
        if any(suit[r] < base[r] for r in range(9)) or len(extra) != 1:
            return False
        if not lo <= extra[0] + 1 <= hi:
            return False
        if concealed_ends and not sit.self_drawn and sit.win_tile in (s * 9, s * 9 + 8):
            return False
        return True
    return False


def c_squirming_snake(sit, arr, v):
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


def _bonus(sit: Situation):
    return [t.index for t in sit.hand.bonus]


def c_own_flower(sit, arr, v):
    return (FLOWER_BASE + sit.seat.number - 1 in _bonus(sit)) == v


def c_own_season(sit, arr, v):
    return (SEASON_BASE + sit.seat.number - 1 in _bonus(sit)) == v


def c_own_flower_and_season(sit, arr, v):
    b = _bonus(sit)
    return (FLOWER_BASE + sit.seat.number - 1 in b and SEASON_BASE + sit.seat.number - 1 in b) == v


def c_all_flowers(sit, arr, v):
    return all(FLOWER_BASE + k in _bonus(sit) for k in range(4)) == v


def c_all_seasons(sit, arr, v):
    return all(SEASON_BASE + k in _bonus(sit) for k in range(4)) == v


def c_calling(sit, arr, rule_id):
    """A loser one tile from a hand that the rule `rule_id` (a winner's rule) would reward."""
    if sit.winner or sit.hand.incomplete:
        return False
    return sit.calling(sit, rule_id)


# -- what a rule needs: an index over the conditions ------------------------------------------
#
# A scheme has 30 to 50 rules and most of them fail on most hands (no flag, no dragon set, not
# one suit).  Each condition names the features its test cannot pass without; the engine lists
# the features of a hand once (`features`) and tries only the rules whose needs are all there.
# A need is necessary, never sufficient: the rule's own tests still decide.

def _no_needs(param) -> frozenset:
    return frozenset()


def _needs(*features):
    return lambda param: frozenset(features)


def _needs_if_true(feature):
    return lambda v: frozenset({feature}) if v is True else frozenset()


def _at_least(feature, n: int) -> frozenset:
    """The need for `n` or more of a counted feature: `feature` itself for one, (feature, n)
    for more (`features` lists (feature, 2) .. (feature, count))."""
    if n <= 0:
        return frozenset()
    return frozenset({feature if n == 1 else (feature, n)})


def _needs_at_least_one(feature):
    return lambda bounds: _at_least(feature, bounds[0])


def _needs_of_class(kind):
    return lambda spec: _at_least((kind, spec[0]), spec[1][0])


def _shape_needs(shapes):
    return frozenset({("shape", next(iter(shapes)))}) if len(shapes) == 1 else frozenset()


def _only_tiles_needs(tiles):
    needs = set()
    if all(in_class(i, "major", None) for i in tiles):
        needs.add("only-majors")
    if len({i // 9 for i in tiles if i < WIND_BASE}) <= 1:
        needs.add("one-suit-or-honours")
    return frozenset(needs)


_STATIC_CLASSES = tuple(c for c in TILE_CLASSES if c not in ("own-wind", "prevailing-wind"))
# For each tile kind, the static tile classes it is in, as ("set", class) and ("pair", class).
_SET_FEATURES = tuple(frozenset(("set", c) for c in _STATIC_CLASSES if in_class(i, c, None))
                      for i in range(KINDS))
_PAIR_FEATURES = tuple(frozenset(("pair", c) for c in _STATIC_CLASSES if in_class(i, c, None))
                       for i in range(KINDS))


def _hand_features(sit: Situation) -> frozenset:
    """What a rule may need of the player's circumstances and tiles, the arrangement aside."""
    f = {("seat", sit.seat)}
    for flag in sit.flags:
        f.add(("flag", flag))
    if sit.winner:
        f.add("self-drawn" if sit.self_drawn else "discard")
        if sit.seat is Wind.EAST:
            f.add("east-winner")
    if sit.win_tile is not None:
        f.add(("win-tile", sit.win_tile))
    bonus = len(sit.hand.bonus)
    if bonus:
        f.add("bonus")
        f.update(("bonus", n) for n in range(2, bonus + 1))
    # The two features read off the whole hand's tiles are worked out only if a rule of the
    # scheme needs them (a loser's rules seldom do).
    wanted = _hand_needs(sit.scheme, sit.winner)
    if "one-suit-or-honours" in wanted and _suits(sit)[0] <= 1:
        f.add("one-suit-or-honours")
    c = sit.counts
    if "only-majors" in wanted and not (any(c[1:8]) or any(c[10:17]) or any(c[19:26])):   # no 2 to 8
        f.add("only-majors")
    if "waiting" in wanted and not sit.winner and not sit.hand.incomplete and waits(sit):
        f.add("waiting")
    return frozenset(f)


def waits(sit: Situation) -> list[int]:
    """The tiles that would complete this player's hand as it stands (worked out once)."""
    found = sit.cache.get("waits")
    if found is None:
        found = sit.cache["waits"] = waits_of(sit.hand, sit.scheme, sit.counts)
    return found


def _hand_needs(scheme, winner: bool) -> frozenset:
    """Every need of the scheme's rules for winners (or for losers)."""
    key = ("hand-needs", winner)
    wanted = scheme.memo.get(key)
    if wanted is None:
        rules = scheme.winner_rules if winner else scheme.loser_rules
        wanted = scheme.memo[key] = frozenset(need for r in rules for need in r.needs)
    return wanted


def features(sit: Situation, arr: Arrangement) -> set:
    """The features of this hand in this arrangement (see `Rule.needs`), the set points of the
    arrangement in `sit.set_points` already."""
    f = sit.cache.get("features")
    if f is None:
        f = sit.cache["features"] = _hand_features(sit)
    out = set(f)
    out.add(("shape", arr.shape))
    seat, prevailing = sit.seat, sit.round
    memo = _block_memo(sit.scheme)
    tally = None
    for b in arr.blocks:
        if b.kind is SetKind.SINGLE:
            continue                    # a loser's leftover tiles: no feature, and not remembered
        key = (b, seat, prevailing)
        record = memo.get(key)
        if record is None:
            more = _block_features(b, seat, prevailing, sit.scheme.claimed_kong)
            record = memo[key] = (more, tuple(_counted_needs(sit.scheme).intersection(more)))
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
    if "chow" not in out:
        out.add("no-chow")
    if "open" not in out:
        out.add("concealed")
    won = arr.won_block
    if won is not None:
        out.add(("win-block", won.kind.value))
        if won.is_set:
            out.add(("win-block", "set"))
    if sit.set_points == 0:
        out.add("zero-points")
    return out


def _block_memo(scheme) -> dict:
    """Per scheme: a block's features and those of them the scheme's rules count, keyed by
    the set or pair (its tiles, form, exposure) and the seat and round: a bounded number."""
    memo = scheme.memo.get("block-features")
    if memo is None:
        memo = scheme.memo["block-features"] = {}
    return memo


def _counted_needs(scheme) -> frozenset:
    """The block features whose number some rule of the scheme needs (three concealed pungs,
    four kongs, three sets of dragons): only these are counted."""
    counted = scheme.memo.get("counted-needs")
    if counted is None:
        counted = scheme.memo["counted-needs"] = frozenset(
            need[0] for r in scheme.rules for need in r.needs
            if isinstance(need, tuple) and need[0] in _BLOCK_FEATURE_NAMES)
    return counted


def _block_features(b: Block, seat: Wind, prevailing: Wind, claimed_kong) -> frozenset:
    """The features one set or pair gives an arrangement (the seat and round name the own and
    prevailing winds): "exposed" for a set made with a claimed tile, "open" when that makes the
    hand no longer concealed (a claimed kong may not, as the scheme says)."""
    kind, tile, exposed = b.kind, b.tile, b.exposed
    out = set()
    hidden = False          # counts as a concealed pung though made with a claimed tile
    if exposed:
        out.add("exposed")
        if b.form is Form.CLAIMED_KONG:
            hidden = claimed_kong.concealed_pung
            if not claimed_kong.concealed_hand:
                out.add("open")
        else:
            out.add("open")
    if kind is SetKind.CHOW:
        out.add("chow")
    elif kind is SetKind.PAIR or kind is SetKind.PUNG or kind is SetKind.KONG:
        name = "pair" if kind is SetKind.PAIR else "set"
        out |= _PAIR_FEATURES[tile] if name == "pair" else _SET_FEATURES[tile]
        if tile == WIND_BASE + seat.number - 1:
            out.add((name, "own-wind"))
        if tile == WIND_BASE + prevailing.number - 1:
            out.add((name, "prevailing-wind"))
        if kind is SetKind.KONG:
            out.add("kong")
        if name == "set" and (not exposed or hidden):
            out.add("concealed-pung")
    return frozenset(out)


# Every feature a block can give (what the engine counts, block by block).
_BLOCK_FEATURE_NAMES = frozenset({"exposed", "open", "chow", "kong", "concealed-pung"}
                                 | {(name, c) for name in ("set", "pair") for c in TILE_CLASSES})


class Condition(NamedTuple):
    check: Callable[[Any], Any]       # parameter validation, returns the parsed parameter
    test: Callable[..., bool]
    doc: str
    needs: Callable[[Any], frozenset] = _no_needs   # the features the test cannot pass without


CONDITIONS: dict[str, Condition] = {
    "shape": Condition(_shape, c_shape, "the hand's winning shape: standard or a special shape", _shape_needs),
    "self_drawn": Condition(_bool, c_self_drawn, "the winning tile was drawn (true) or a discard (false)",
                           lambda v: frozenset({"self-drawn" if v else "discard"})),
    "flag": Condition(_flag, c_flag, "a flag of the win clause: loose, last, robbed, heaven, earth, "
                                     "original-call, twofold",
                      lambda f: frozenset({("flag", f)})),
    "winning_tile": Condition(_tile, c_winning_tile, "the winning tile is this tile",
                              lambda t: frozenset({("win-tile", t)})),
    "winning_tile_class": Condition(_tile_class, c_winning_tile_class, "the winning tile is of this class"),
    "seat": Condition(_wind, c_seat, "the player sits in this seat", lambda w: frozenset({("seat", w)})),
    "dealer_win": Condition(_int, c_dealer_win, "East wins for the N-th time in a row, or more",
                            _needs("east-winner")),
    "no_chows": Condition(_bool, c_no_chows, "the arrangement has no chow",
                          lambda v: frozenset({"no-chow" if v else "chow"})),
    "chows": Condition(_count, c_chows, "how many chows the arrangement has", _needs_at_least_one("chow")),
    "concealed": Condition(_bool, c_concealed, "no set exposed, not even by the winning discard",
                           lambda v: frozenset({"concealed" if v else "open"})),
    "one_suit": Condition(_choice("with-honours", "without-honours", "any", "at-most-one"), c_one_suit,
                          "one numbered suit, with honours, without, either; at-most-one: one suit and/or honours",
                          _needs("one-suit-or-honours")),
    "only_honours": Condition(_bool, c_only("honour"), "every tile is a wind or dragon",
                              _needs_if_true("only-majors")),
    "only_majors": Condition(_bool, c_only("major"), "every tile is a terminal or honour",
                             _needs_if_true("only-majors")),
    "only_terminals": Condition(_bool, c_only("terminal"), "every tile is a 1 or a 9",
                                _needs_if_true("only-majors")),
    "only_tiles": Condition(_tiles, c_only_tiles, "every tile is one of these", _only_tiles_needs),
    "sets": Condition(_class_count, c_sets, "pungs and kongs of a tile class: {tiles, count}",
                      _needs_of_class("set")),
    "pairs": Condition(_class_count, c_pairs, "pairs of a tile class: {tiles, count}", _needs_of_class("pair")),
    "singles": Condition(_class_count, c_singles, "single tiles of a tile class: {tiles, count}"),
    "exposed_sets": Condition(_count, c_exposed_sets, "sets claimed from a discard, the set the winning discard "
                                                      "completed included", _needs_at_least_one("exposed")),
    "concealed_pungs": Condition(_count, c_concealed_pungs, "concealed pungs and kongs",
                                 _needs_at_least_one("concealed-pung")),
    "kongs": Condition(_count, c_kongs, "kongs", _needs_at_least_one("kong")),
    "win_block": Condition(_choice("pair", "set", "pung", "chow"), c_win_block,
                           "what the winning tile completed", lambda k: frozenset({("win-block", k)})),
    "only_possible": Condition(_only_possible, c_only_possible, "one tile kind alone could complete the hand; "
                                                              "{ignore_dead: true}: dead waits do not count"),
    "zero_points": Condition(_bool, c_zero_points, "no set or pair scored points", _needs_if_true("zero-points")),
    "nine_gates": Condition(_nine_gates, c_nine_gates, "1112345678999 of one suit plus one tile of it, "
                                                       "all concealed: {extra: [LOW, HIGH], concealed_ends}",
                            _needs("one-suit-or-honours")),
    "squirming_snake": Condition(_bool, c_squirming_snake, "one suit: 111, 999, a pair of 2/5/8, two chows",
                                 _needs_if_true("one-suit-or-honours")),
    "own_flower": Condition(_bool, c_own_flower, "holds the flower of the own seat", _needs_if_true("bonus")),
    "own_season": Condition(_bool, c_own_season, "holds the season of the own seat", _needs_if_true("bonus")),
    "own_flower_and_season": Condition(_bool, c_own_flower_and_season, "holds both",
                                       _needs_if_true(("bonus", 2))),
    "all_flowers": Condition(_bool, c_all_flowers, "holds all four flowers", _needs_if_true(("bonus", 4))),
    "all_seasons": Condition(_bool, c_all_seasons, "holds all four seasons", _needs_if_true(("bonus", 4))),
    "calling": Condition(_rule_id, c_calling, "a loser one tile away from a hand that rule ID rewards",
                         _needs("waiting")),
}

# Conditions of a per-set rule: they look at one block, not the hand.
SET_CONDITIONS: dict[str, Callable] = {
    "kind": lambda v: frozenset(SetKind(_choice("chow", "pung", "kong", "pair")(x))
                                for x in (v if isinstance(v, list) else [v])),
    "tiles": _tile_class,
    "exposed": _bool,
}


def block_matches(sit: Situation, b: Block, when) -> bool:
    for name, param in when:
        if name == "kind":
            if b.kind not in param:
                return False
        elif name == "tiles":
            if not in_class(b.tile, param, sit):
                return False
        elif name == "exposed":
            if b.exposed != param:
                return False
    return True


def set_rule_needs(when) -> frozenset:
    """What a per-set rule needs: a set of its kind and tile class somewhere in the arrangement."""
    params = dict(when)
    kinds = params.get("kind", frozenset())
    cls = params.get("tiles", "any")
    if kinds and kinds <= {SetKind.PUNG, SetKind.KONG}:
        return frozenset({("set", cls)})
    if kinds == {SetKind.CHOW}:
        return frozenset({"chow"})
    return frozenset()
