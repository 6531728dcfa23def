"""Scoring: every player's hand under a scheme.

For each player the engine lists the arrangements of the tiles (`arrange`), values each one by
interpreting the scheme's records (set and pair tables, bonus tiles, rules from the catalogue
in `rules.conditions`), and keeps the best.  Nothing here knows a rule by name: the scheme says
what counts, this module only adds it up.

The hand score (docs/rules.md, "The score model"): points add, doubles add, base = P * 2**D; a
full limit hand replaces everything; a fractional limit counts only when it is at least the
base; otherwise the base is capped at the limit (unless the roof is off); then the scheme's
rounding.  Among arrangements the highest score wins, ties broken by: larger limit fraction,
larger uncapped base, more doubles, more points, then the arrangement's text in notation order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from mjscore.hand.arrange import (
    Arrangement,
    Block,
    losing_arrangements,
    readings,
    winner_arrangements,
    winning_arrangements,
    written_blocks,
)
from mjscore.hand.shapes import counts_of
from mjscore.model.amounts import exact, half_up
from mjscore.model.errors import IncompleteHandError
from mjscore.model.table import Form, PlayerHand, SetKind, Table, Win
from mjscore.model.tiles import DRAGON_BASE, KINDS, TILES, WIND_BASE, Tile, Wind
from mjscore.rules.conditions import Situation, block_matches, features, seat_blind
from mjscore.rules.features import FeatureIndex
from mjscore.rules.scheme import RoundingStage, Rule, Scheme
from mjscore.rules.situation import Completion
from mjscore.model.say import N_, _


class Item(NamedTuple):
    rule: str
    text: str
    applies_to: str | None = None
    points: int = 0
    doubles: int = 0
    limit: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        # The text in English, as the scheme writes it: a result is kept (a checkpoint, an
        # evening played once for every phone) whatever language reads it; the shells say it in
        # the reader's language (evening.words.items_said).
        d: dict[str, Any] = {"rule": self.rule, "text": self.text}
        if self.applies_to is not None:
            d["applies_to"] = self.applies_to
        if self.limit:
            d["limit"] = self.limit
        elif self.doubles:
            d["doubles"] = self.doubles
        else:
            d["points"] = self.points
        return d


class Valuation(NamedTuple):
    """One arrangement, valued."""

    arrangement: Arrangement | None
    items: tuple[Item, ...]            # the items that count
    ignored: tuple[Item, ...]          # items found that do not count (a limit decided, or a fraction lost)
    points: int
    doubles: int
    limit_rule: Rule | None            # the limit hand that decides the score, if any
    fraction: float                    # the largest limit fraction found (counted or not)
    base: int                          # points * 2**doubles, uncapped
    score: int

    def rank(self) -> tuple[int | float, ...]:
        return (-self.score, -self.fraction, -self.base, -self.doubles, -self.points)

    def sort_key(self) -> tuple[int | float | tuple[str, ...], ...]:
        return self.rank() + (tuple(self.layout()),)

    def layout(self) -> list[str]:
        """The arrangement's blocks as the player would lay them out (none for a counted score)."""
        return self.arrangement.text() if self.arrangement else []

    @property
    def shape(self) -> str | None:
        return self.arrangement.shape if self.arrangement else None


class PlayerScore(NamedTuple):
    """One player's hand, scored: the best arrangement's valuation (and the runner-up)."""

    seat: Wind
    winner: bool
    best: Valuation
    runner_up: Valuation | None = None
    counted: bool = False              # a `score N` line: counted at the table, not by mjscore
    name: str | None = None

    @property
    def score(self) -> int:
        return self.best.score

    @property
    def points(self) -> int:
        return self.best.points

    @property
    def doubles(self) -> int:
        return self.best.doubles

    @property
    def limit(self) -> str | None:
        """The limit hand that decides the score, by name; None for a hand scored on its points."""
        return self.best.limit_rule.text if self.best.limit_rule else None


    @property
    def items(self) -> tuple[Item, ...]:
        return self.best.items


class TableScore(NamedTuple):
    table: Table
    scheme: Scheme
    players: tuple[PlayerScore, ...]

    def player(self, seat: Wind) -> PlayerScore | None:
        return next((p for p in self.players if p.seat is seat), None)


# -- what the engine keeps of a scheme ---------------------------------------------------------

# A rule with its place in the scheme's order (the breakdown's).
RuleEntry = tuple[int, Rule]
# What a per-set rule gives a set: (the rule's place, the rule, the item).
Earned = tuple[int, Rule, Item]


@dataclass(eq=False)
class Engine:
    """What the engine works out from one scheme's records and keeps for the next hand: the
    rules each role can earn, unpacked once, and what each set and pair scores, remembered as
    they are met (the same sets and pairs come back hand after hand).  One for each scheme
    object (`engine_for`), so two schemes that compare equal never share what they remember."""

    scheme: Scheme
    rules: dict[tuple[bool, bool], tuple[RuleEntry, ...]]     # (winner, per set) -> the rules
    index: FeatureIndex                                         # the features the rules need
    # What a set or pair scores, and the per-set rules it earns, by set, seat, round and role.
    block_scores: dict[tuple[Block, Wind | None, Wind | None, bool], tuple[tuple[Item, ...], tuple[Earned, ...]]] = \
        field(default_factory=dict)
    bonus_items: dict[int, Item] = field(default_factory=dict)            # by tile index
    rule_items: dict[str, Item] = field(default_factory=dict)             # a rule's item, by rule id

    @classmethod
    def of(cls, scheme: Scheme) -> Engine:
        rules = {}
        for winner in (True, False):
            role = scheme.winner_rules if winner else scheme.loser_rules
            for per_set in (True, False):
                rules[winner, per_set] = tuple((n, r) for n, r in enumerate(role) if r.per_set == per_set)
        return cls(scheme, rules, FeatureIndex.of((r.needs for r in scheme.winner_rules),
                                                  (r.needs for r in scheme.loser_rules)))

    def calling_for(self, sit: Situation, rule_id: str) -> bool:
        """The `calling` condition's question, answered by valuing the completed hands."""
        return calling_for(self, sit, rule_id)


_ENGINES: dict[int, Engine] = {}


def engine_for(scheme: Scheme) -> Engine:
    """The engine of this scheme object, made on first use and kept until `forget`."""
    # The engine holds its scheme, so no other scheme takes this id while it is kept (no weak
    # reference: a compiled Scheme takes none, and one never fired while the engine held it).
    engine = _ENGINES.get(id(scheme))
    if engine is None or engine.scheme is not scheme:
        engine = _ENGINES[id(scheme)] = Engine.of(scheme)
    return engine


def forget(scheme: Scheme) -> None:
    """Let the engine forget what it remembered of a scheme (benchmarks time hands from cold)."""
    _ENGINES.pop(id(scheme), None)


# -- the table ---------------------------------------------------------------------------------

def score_table(table: Table, scheme: Scheme) -> TableScore:
    """Score every player present (a draw too: every hand is valued; the settlement pays nothing)."""
    return TableScore(table, scheme, tuple(score_player(p, table, scheme) for p in table.players))


def is_complete_under(hand: PlayerHand, scheme: Scheme, table: Table | None = None) -> bool:
    arrangements = [a for reading in readings(hand) for a in winner_arrangements(reading, scheme.shapes,
                                                                                  scheme.max_chows)]
    if table is None or any(a.shape == "standard" for a in arrangements):
        return bool(arrangements)                # a standard arrangement needs no valuing to go out
    return bool(_winning(hand, scheme, table))


def winning_valuations(hand: PlayerHand, table: Table, scheme: Scheme) -> list[Valuation]:
    """Every way the winner's hand goes out, valued: what the best score is chosen from (an
    importer shows with it how another program read the same tiles)."""
    return _winning(hand, scheme, table)


def _winning(hand: PlayerHand, scheme: Scheme, table: Table) -> list[Valuation]:
    """The winner's arrangements that go out, valued: the standard ones, and a special shape only
    as the limit hand it stands for (Gates won on the wrong tile, a snake won on a discard are
    then judged as ordinary hands).  Each reading of the hand (the bracketed set the winning
    discard may have completed, `arrange.readings`) is valued as it stands, its waits its own."""
    engine = engine_for(scheme)
    out: list[Valuation] = []
    for reading in readings(hand):
        sit = situation(reading, table, scheme, engine)
        out.extend(v for v in (value(engine, sit, a)
                               for a in winner_arrangements(reading, scheme.shapes, scheme.max_chows))
                   if v.shape == "standard" or v.fraction > 0)
    return out


def incompleteness(hand: PlayerHand, scheme: Scheme, table: Table | None = None) -> str | None:
    """Why the winner's hand is not complete under the scheme; None when it is."""
    if is_complete_under(hand, scheme, table):
        return None
    return f"under '{scheme.name}' " + _why_incomplete(hand, scheme)


def situation(hand: PlayerHand, table: Table, scheme: Scheme, engine: Engine | None = None) -> Situation:
    win = hand.win
    engine = engine or engine_for(scheme)
    sit = Situation(hand=hand, round=table.round, dealer_wins=table.dealer_wins, table=table, scheme=scheme,
                    index=engine.index,
                    win_tile=win.tile.index if win is not None and win.tile is not None else None,
                    self_drawn=bool(win is not None and win.self_drawn),
                    flags=win.flags if win is not None else frozenset(), calling=engine.calling_for)
    if win is not None:
        # A winner's rules always read the counts: set them now rather than through the cached
        # property's first, locked, look-up.
        sit.counts = counts_of(hand.all_tiles())
    return sit


def score_player(hand: PlayerHand, table: Table, scheme: Scheme) -> PlayerScore:
    if hand.score is not None:
        # A counted score is held to the limit like any other hand (docs/rules.md, "The limit"):
        # its points stay as counted, the score is what is paid on.
        item = Item("counted", N_("score counted at the table"), None, points=hand.score)
        v = Valuation(None, (item,), (), hand.score, 0, None, 0.0, hand.score, held_to_limit(hand.score, scheme))
        return PlayerScore(hand.seat, (hand.win is not None), v, counted=True, name=hand.name)
    if (hand.win is not None):
        valued = _winning(hand, scheme, table)
        if not valued:
            raise IncompleteHandError(_("{player}'s hand is not complete: {why}").format(
                player=table.who(hand.seat), why=incompleteness(hand, scheme, table)), hand.where)
    else:
        engine = engine_for(scheme)
        sit = situation(hand, table, scheme, engine)
        valued = [value(engine, sit, a) for a in losing_arrangements(hand, scheme.losers_exhaustive)]
    if len(valued) == 1:
        return PlayerScore(hand.seat, (hand.win is not None), valued[0], None, name=hand.name)
    valued = sorted(valued, key=Valuation.rank)
    if valued[0].rank() == valued[1].rank():
        # Equal in every figure: the arrangement's text decides, so input order never does.
        top = [v for v in valued if v.rank() == valued[0].rank()]
        valued = sorted(top, key=Valuation.sort_key) + valued[len(top):]
    best = valued[0].layout()
    runner = next((v for v in valued[1:] if v.layout() != best), None)
    return PlayerScore(hand.seat, (hand.win is not None), valued[0], runner, name=hand.name)


def _why_incomplete(hand: PlayerHand, scheme: Scheme) -> str:
    if scheme.max_chows < 4 and any(winner_arrangements(r, scheme.shapes, 4) for r in readings(hand)):
        return (_("it needs more chows than the {max_chows} the scheme allows in a winning hand").format(
            max_chows=scheme.max_chows))
    return _("its tiles make neither four sets and a pair nor a special hand the scheme knows")


# -- one arrangement ---------------------------------------------------------------------------

def _set_class(i: int) -> str:
    if i >= 27:
        return "honour"
    return "terminal" if i % 9 in (0, 8) else "simple"


def _set_items(arr: Arrangement, scheme: Scheme, sit: Situation) -> list[Item]:
    """The points of the arrangement's sets and pairs, an item each."""
    return _block_scores(arr, engine_for(scheme), sit)[0]


def _block_scores(arr: Arrangement, engine: Engine, sit: Situation) -> tuple[list[Item], list[Earned]]:
    """The points of the arrangement's sets and pairs, an item each; and the items of the
    per-set rules its sets earn, as (the rule's place in the scheme, rule, item)."""
    # Remembered by the engine: only sets and pairs are keys (a loser's leftovers are not), so
    # the memo stays small.  What a set earns under a per-set rule depends on the set, the seat
    # and the round alone.
    memo = engine.block_scores
    seat, prevailing, winner = sit.seat, sit.round, sit.winner
    items: list[Item] = []
    earned: list[Earned] = []
    for b in arr.blocks:
        if b.kind in _SCORED:
            key = (b, seat, prevailing, winner)
            scores = memo.get(key)
            if scores is None:
                scores = memo[key] = _scores_of(b, engine, sit)
            items.extend(scores[0])
            if scores[1]:
                earned.extend(scores[1])
    return items, earned


def _scores_of(b: Block, engine: Engine, sit: Situation) -> tuple[tuple[Item, ...], tuple[Earned, ...]]:
    """What a set or pair scores and earns, for `_block_scores`'s memo.  Only a wind's set or
    pair scores by whose seat and which round it is (own and prevailing winds): any other is
    worked out once for every seat and round, kept under a key without them, so the memo fills
    in a sixteenth of the hands: on the benchmark's 1,500 tables a set's or pair's points are
    worked out 983 times, not 5,619 (and its features 706 times, not 3,887: `features`)."""
    if not seat_blind(b):
        return _block_items(b, engine.scheme, sit.seat, sit.round), _per_set_items(b, engine, sit)
    memo = engine.block_scores
    key = (b, None, None, sit.winner)
    scores = memo.get(key)
    if scores is None:
        scores = memo[key] = (_block_items(b, engine.scheme, sit.seat, sit.round), _per_set_items(b, engine, sit))
    return scores


def _per_set_items(b: Block, engine: Engine, sit: Situation) -> tuple[Earned, ...]:
    if b.kind not in _SETS:
        return ()
    return tuple((n, r, _rule_item(r, b.text())) for n, r in engine.rules[sit.winner, True]
                 if block_matches(sit, b, r.when))


_SCORED = frozenset({SetKind.PAIR, SetKind.PUNG, SetKind.KONG, SetKind.CHOW})
_SETS = frozenset({SetKind.PUNG, SetKind.KONG, SetKind.CHOW})


def _bonus_item(t: Tile, engine: Engine) -> Item:
    item = engine.bonus_items.get(t.index)
    if item is None:
        kind = "flower" if t.suit.value == "f" else "season"
        item = engine.bonus_items[t.index] = Item(kind, _BONUS_TEXT[kind], t.text,
                                                  points=engine.scheme.bonus_tile_points)
    return item


def _block_items(b: Block, scheme: Scheme, seat: Wind, prevailing: Wind) -> tuple[Item, ...]:
    """What one set or pair scores."""
    if b.kind is SetKind.PAIR:
        return _pair_items(b, scheme, seat, prevailing)
    if b.kind not in (SetKind.PUNG, SetKind.KONG, SetKind.CHOW):
        return ()
    kind = _KIND_NAME[b.kind]
    cls = _set_class(b.tile)
    if b.form is Form.CLAIMED_KONG:
        pts = scheme.set_points[(kind, cls, scheme.claimed_kong.exposed_points)]
        state = "claimed"
    else:
        pts = scheme.set_points[(kind, cls, b.exposed)]
        if not pts and b.kind is SetKind.CHOW:
            return ()
        state = "exposed" if b.exposed else "concealed"
    return (Item(f"{state}-{kind}", _SET_TEXT[(state, kind, cls)], b.text(), points=pts),)


_KIND_NAME = {k: k.value for k in SetKind}
# An item's text is English here, marked (N_) and said in the reader's language where an answer is
# shown (evening.words.items_said): a scored hand is kept and may be shown to phones of several languages.
# Whole names, one a set: a language puts "of honours" where it belongs.
_SET_TEXT = {
    ("exposed", "pung", "simple"): N_("Exposed pung"),
    ("exposed", "pung", "terminal"): N_("Exposed pung of terminals"),
    ("exposed", "pung", "honour"): N_("Exposed pung of honours"),
    ("concealed", "pung", "simple"): N_("Concealed pung"),
    ("concealed", "pung", "terminal"): N_("Concealed pung of terminals"),
    ("concealed", "pung", "honour"): N_("Concealed pung of honours"),
    ("exposed", "kong", "simple"): N_("Exposed kong"),
    ("exposed", "kong", "terminal"): N_("Exposed kong of terminals"),
    ("exposed", "kong", "honour"): N_("Exposed kong of honours"),
    ("concealed", "kong", "simple"): N_("Concealed kong"),
    ("concealed", "kong", "terminal"): N_("Concealed kong of terminals"),
    ("concealed", "kong", "honour"): N_("Concealed kong of honours"),
    ("claimed", "kong", "simple"): N_("Claimed kong"),
    ("claimed", "kong", "terminal"): N_("Claimed kong of terminals"),
    ("claimed", "kong", "honour"): N_("Claimed kong of honours"),
    ("exposed", "chow", "simple"): N_("Exposed chow"),
    ("concealed", "chow", "simple"): N_("Concealed chow"),
    # a chow from a 1 or to a 9, where a club's scheme scores chows by class
    ("exposed", "chow", "terminal"): N_("Exposed chow of terminals"),
    ("concealed", "chow", "terminal"): N_("Concealed chow of terminals"),
}
_BONUS_TEXT = {"flower": N_("Flower"), "season": N_("Season")}


def _pair_items(b: Block, scheme: Scheme, seat: Wind, prevailing: Wind) -> tuple[Item, ...]:
    pp = scheme.pair_points
    i = b.tile
    if DRAGON_BASE <= i < KINDS:
        return (Item("dragon-pair", N_("Pair of dragons"), b.text(), points=pp["dragon"]),) if pp.get("dragon") else ()
    own = i == WIND_BASE + seat.number - 1
    round_wind = i == WIND_BASE + prevailing.number - 1
    if own and round_wind and "own-and-prevailing" in pp:
        pts = pp["own-and-prevailing"]
        return (Item("own-and-prevailing-wind-pair", N_("Pair of own and prevailing wind"), b.text(), points=pts),) \
            if pts else ()
    out = []
    if own and pp.get("own-wind"):
        out.append(Item("own-wind-pair", N_("Pair of own wind"), b.text(), points=pp["own-wind"]))
    if round_wind and pp.get("prevailing-wind"):
        out.append(Item("prevailing-wind-pair", N_("Pair of prevailing wind"), b.text(), points=pp["prevailing-wind"]))
    return tuple(out)


def _rule_item(r: Rule, applies_to: str | None) -> Item:
    return Item(r.id, r.text, applies_to, points=r.points, doubles=r.doubles, limit=r.limit)


def _rule_applies(r: Rule, sit: Situation, arr: Arrangement) -> bool:
    # A loop, not all() over a generator: asked of every rule whose needs a hand has, where the
    # generator's frame costs a quarter more for the one to three tests a rule has.
    for test, param in r.tests:  # noqa: SIM110
        if not test(sit, arr, param):
            return False
    return True


def value(engine: Engine, sit: Situation, arr: Arrangement) -> Valuation:
    """One arrangement of the player's tiles, valued under the engine's scheme."""
    scheme = engine.scheme
    found, rule_items = _block_scores(arr, engine, sit)
    sit.set_points = sum(map(_POINTS, found))
    if scheme.bonus_tiles and sit.hand.bonus:
        found.extend(_bonus_item(t, engine) for t in sit.hand.bonus)
    hand_rules = engine.rules[sit.winner, False]
    if hand_rules:
        present = features(sit, arr)
        for n, r in hand_rules:
            if not r.needs <= present:
                continue
            if _rule_applies(r, sit, arr):
                item = engine.rule_items.get(r.id)
                if item is None:
                    item = engine.rule_items[r.id] = _rule_item(r, None)
                rule_items.append((n, r, item))
    if not rule_items:
        return _total(scheme, arr, found, [])
    if len(rule_items) > 1:
        rule_items.sort(key=_PLACE)             # the scheme's order; a rule's sets in the hand's order
    if any(r.excludes for _place, r, _item in rule_items):
        excluded = {x for _place, r, _item in rule_items for x in r.excludes}
        rule_items = [e for e in rule_items if e[1].id not in excluded]
    found.extend(item for _place, _rule, item in rule_items)
    return _total(scheme, arr, found, [r for _place, r, _item in rule_items])


_PLACE = itemgetter(0)
_POINTS, _DOUBLES, _LIMIT = attrgetter("points"), attrgetter("doubles"), attrgetter("limit")


def _total(scheme: Scheme, arr: Arrangement, found: list[Item], rules: list[Rule]) -> Valuation:
    fraction, limit_rule = 0.0, None
    for r in rules:
        if r.limit > fraction:            # the first of equal limits, as max() would choose
            fraction, limit_rule = r.limit, r
    if any(map(_LIMIT, found)):
        plain = [i for i in found if not i.limit]
        limit_items = [i for i in found if i.limit]
    else:
        plain, limit_items = found, []          # most hands: the items' figures summed in C
    points = sum(map(_POINTS, plain))
    doubles = sum(map(_DOUBLES, plain))
    points, base, score = hand_score(points, doubles, scheme)
    if limit_rule is not None and (fraction >= 1 or fraction * scheme.limit >= base):
        score = limit_value(fraction, scheme)
        decided = [i for i in limit_items if i.rule == limit_rule.id][:1]
        return Valuation(arr, tuple(decided), tuple(i for i in found if i not in decided), 0, 0,
                         limit_rule, fraction, base, score)
    return Valuation(arr, tuple(plain), tuple(limit_items), points, doubles, None, fraction, base, score)


def hand_score(points: int, doubles: int, scheme: Scheme) -> tuple[int, int, int]:
    """(points, base, score) of a hand of these points and doubles, no limit hand among them:
    the points rounded if the scheme rounds before the doubles, base = points * 2**doubles, the
    score held to the limit, then rounded if the scheme rounds after the doubles.  What `check`
    weighs a claim's other figures with, too."""
    rounding = scheme.rounding
    if rounding.stage == RoundingStage.BEFORE_DOUBLES:
        points = rounding.apply(points)
    base = points * 2 ** doubles
    score = base if scheme.roof_off else min(base, scheme.limit)      # `held_to_limit`, asked of every hand
    if rounding.stage == RoundingStage.AFTER_DOUBLES:
        score = rounding.apply(score)
    return points, base, score


def limit_value(fraction: float, scheme: Scheme) -> int:
    """What a limit hand of this fraction is worth: the fraction of the limit, a half going up
    (a third of a 500 limit is 167)."""
    return half_up(exact(fraction) * scheme.limit)


def held_to_limit(value: int, scheme: Scheme) -> int:
    """No hand scores more than the limit, unless the scheme takes the roof off."""
    return value if scheme.roof_off else min(value, scheme.limit)


# -- calling (a loser one tile from a special hand) --------------------------------------------

def calling_for(engine: Engine, sit: Situation, rule_id: str) -> bool:
    """Would some tile, drawn by this loser, complete a hand that rule `rule_id` rewards?"""
    found = sit.calling_found.get(rule_id)
    if found is None:
        target = engine.scheme.rule(rule_id)
        found = sit.calling_found[rule_id] = bool(sit.waits) and target is not None and \
            _calling_for(engine, sit, target, sit.waits)
    return found


def _calling_for(engine: Engine, sit: Situation, target: Rule, waits: list[int]) -> bool:
    # A completed hand is a winner's: the rule's needs are tested against the features of each
    # arrangement, as `value` tests a winner's rules, before its conditions are.  The slowest
    # BMJA losers, one tile from several one-suit hands, ask 14 rules of every arrangement of
    # every wait: 7.45 M -> 6.49 M instructions a hand for three of them, every memo empty.
    # A rule whose needs the winner's index does not list is tested in full.
    indexed = not target.per_set and target.needs <= engine.index.winner_needs
    for wsit, arrangements in _completions(engine, sit, waits):
        for arr, set_points, present in arrangements:
            if target.per_set:
                hit = any(b.is_set and block_matches(wsit, b, target.when) for b in arr.blocks)
            elif indexed and not target.needs <= present:
                continue
            else:
                wsit.set_points = set_points
                hit = _rule_applies(target, wsit, arr)
            if hit:
                return True
    return False


def _completions(engine: Engine, sit: Situation,
                 waits: list[int]) -> Iterator[Completion]:
    """For each wait, the hand completed by it and its arrangements with their set points and
    their features (`features`).

    Built once per loser and shared by every calling rule of the scheme (BMJA has 14): the
    arrangements of a completed hand do not depend on which rule asks.  Lazily, so a rule that
    finds its hand on the first wait does not pay for the others.
    """
    done = sit.completions
    yield from done
    if len(done) == len(waits):
        return
    scheme = engine.scheme
    hand = sit.hand
    written = written_blocks(hand)
    loose = counts_of(hand.concealed)
    for t in waits[len(done):]:
        counts = list(loose)
        counts[t] += 1
        tile = TILES[t]
        full = dataclasses.replace(hand, concealed=tuple(sorted(hand.concealed + (tile,))),
                                   win=Win(tile, None, frozenset()))
        wsit = dataclasses.replace(sit, hand=full, win_tile=t, self_drawn=True, flags=frozenset(),
                                   calling_found={}, completions=[])
        arrangements = []
        for arr in winning_arrangements(written, tuple(counts), t, False, scheme.shapes, scheme.max_chows):
            wsit.set_points = sum(i.points for i in _block_scores(arr, engine, wsit)[0])
            arrangements.append((arr, wsit.set_points, features(wsit, arr)))
        done.append((wsit, arrangements))
        yield done[-1]
