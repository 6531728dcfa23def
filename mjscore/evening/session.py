"""Sessions: a whole evening's hands, seats rotating as the rules say, running totals, settle-up.

A session file names the players in seat order at the first hand and lists the hands, each
written by that hand's seat winds.  mjscore keeps the seating itself (docs/rules.md,
"The deal"): East keeps the deal when East wins (up to the scheme's streak limit), the deal
passes to South otherwise; after a draw it passes or stays as the scheme says; the prevailing
wind moves on once every seat has dealt, and the players change seats then if the rotation's
`seat_change` says so (Kajongg's exchange).  A hand may state its round, its dealer-wins or its
players' names; if they contradict the rotation, that is an error naming the hand.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast, overload

from mjscore.io.notation import parse_table
from mjscore.io.sessionfile import Session, SessionHeader
from mjscore.model.errors import MjError, NoWinnerError, SchemeError, SessionError, excerpt

from mjscore.model.money import Stake
from mjscore.model.say import _, n_
from mjscore.model.settings import EVENING, ROTATION, SETTINGS, Paying, Rotation, SeatChange, ordered
from mjscore.model.table import COUNTERS, Table, name_key
from mjscore.evening import words
from mjscore.evening.words import hand_title
from mjscore.model.tiles import SEATS, Wind
from mjscore.pipeline import EMPTY, TableResult, evaluate, named_in
from mjscore.rules.scheme import Scheme, load_scheme
from mjscore.settle import Reason

if TYPE_CHECKING:
    from mjscore.model.answers import HandPlain, NextPlain, SessionPlain, SummaryPlain, TransferPlain


@dataclass
class Seating:
    """Who sits where, the prevailing wind, and East's run of wins."""

    # Who sits at East, South, West and North: indices into the header's names.
    seats: list[int] = field(default_factory=lambda: [0, 1, 2, 3])
    round: int = 0           # 0 = East round ... 3 = North round; beyond: the game goes on round the winds
    passes: int = 0          # deals passed in this round
    # The counts a table carries over (model.table.COUNTERS), under the same names.
    dealer_wins: int = 0     # East's wins in a row
    extra_hands: int = 0     # deals East has kept in a row: this dealer's extra hands so far
    kitty_deals: int = 0     # deals whose stakes lie in the kitty, untaken
    seats_changed: bool = False      # the players changed seats for the round the next deal begins

    def player_at(self, seat: Wind) -> int:
        return self.seats[seat.number - 1]

    def pass_deal(self, seat_change: SeatChange = SeatChange.NONE) -> None:
        """The deal passes to South, who becomes East, every seat wind moving on one place; once
        every seat has dealt, the prevailing wind moves on, and the players change seats if the
        rotation says so."""
        self.seats = self.seats[1:] + self.seats[:1]
        self.dealer_wins = 0
        self.extra_hands = 0
        self.passes += 1
        if self.passes == 4:
            self.passes = 0
            self.round += 1
            for a, b in _EXCHANGES[seat_change][SEATS[self.round % 4]]:
                i, j = a.number - 1, b.number - 1
                self.seats[i], self.seats[j] = self.seats[j], self.seats[i]
                self.seats_changed = True


# Who exchanges seats when a new round begins, after the deal has passed as at any other hand:
# Kajongg (src/game.py, Game.__exchangeSeats, called from rotateWinds when a round is complete).
_EXCHANGES: dict[SeatChange, dict[Wind, tuple[tuple[Wind, Wind], ...]]] = {
    SeatChange.NONE: {w: () for w in SEATS},
    SeatChange.KAJONGG: {Wind.EAST: (),
                         Wind.SOUTH: ((Wind.SOUTH, Wind.WEST), (Wind.EAST, Wind.NORTH)),
                         Wind.WEST: ((Wind.SOUTH, Wind.EAST),),
                         Wind.NORTH: ((Wind.WEST, Wind.EAST),)},
}


class Transfer(NamedTuple):
    """One payment of the settle-up at the end of the evening, between players by name."""

    payer: str
    payee: str
    amount: int

    def as_dict(self, stake: Stake | None = None) -> TransferPlain:
        """Its plain object; with the evening's stake, its money too (`"money": "29.80"`)."""
        d: TransferPlain = {"from": self.payer, "to": self.payee, "amount": self.amount}
        if stake is not None:
            d["money"] = stake.money_text(self.amount)
        return d


@dataclass(frozen=True)
class PlayedHand:
    """One hand of the evening: its number, who sat where, its result, the totals after it.

    A hand read back from the evening's checkpoint (`evening.resume`) holds its plain form
    as JSON, what `to_dict()` gives, and is scored again only if its typed `result` is asked for."""

    number: int
    names: dict[Wind, str]                   # seat -> player's name for this hand
    scored: TableResult | Callable[[], TableResult]     # the result, or how to score the hand again
    totals: dict[str, int]                   # name -> running total after this hand
    kept: str | None = field(default=None, compare=False, repr=False)   # to_dict() as JSON, when read back

    @cached_property
    def result(self) -> TableResult:
        return self.scored if isinstance(self.scored, TableResult) else self.scored()

    @property
    def dealer(self) -> str:
        return self.names[Wind.EAST]

    def names_by_letter(self) -> dict[str, str]:
        """Seat letter -> the player's name, for this hand."""
        return {s.value: self.names[s] for s in SEATS}

    def to_dict(self) -> HandPlain:
        if self.kept is not None:
            # A dict of its own each time, as for a hand scored here (json's C parser: 3 times
            # faster than copy.deepcopy of the dict, 33 ms a thousand hands).
            plain: HandPlain = json.loads(self.kept)
            return plain
        # The table's object (written by `TableResult.to_json`, its shape held by the suite's
        # checks), then the hand's own keys, each checked against the declaration.
        d = cast("HandPlain", self.result.to_dict())
        d["hand"] = self.number
        d["dealer"] = self.dealer
        d["names"] = {s.letter: self.names[s] for s in SEATS}
        d["totals"] = dict(self.totals)
        if self.result.table.kajongg_hand is not None:
            d["kajongg_hand"] = self.result.table.kajongg_hand      # its number in the Kajongg game
        return d


class Hands(Sequence[PlayedHand]):
    """An evening's hands in order.  The first `before` are fetched only when one of them is
    asked for (`fetch`): an `add` that starts from the evening's checkpoint holds only the
    hands it played."""

    def __init__(self, held: Iterable[PlayedHand] = (), before: int = 0,
                 fetch: Callable[[], Sequence[PlayedHand]] | None = None):
        self._held = list(held)
        self._before = before
        self._fetch = fetch
        self._earlier: Sequence[PlayedHand] | None = None if before else ()

    def __len__(self) -> int:
        return self._before + len(self._held)

    @overload
    def __getitem__(self, i: int) -> PlayedHand: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[PlayedHand]: ...

    def __getitem__(self, i: int | slice) -> PlayedHand | Sequence[PlayedHand]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError("hand index out of range")
        if i >= self._before:
            return self._held[i - self._before]
        if self._earlier is None:
            assert self._fetch is not None
            self._earlier = self._fetch()
        return self._earlier[i]

    def append(self, hand: PlayedHand) -> None:
        self._held.append(hand)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Sequence) and len(other) == len(self)
                and all(a == b for a, b in zip(self, other, strict=True)))

    __hash__ = None  # type: ignore[assignment]  # a sequence that grows: not hashable, as a list

    def __repr__(self) -> str:
        return f"Hands({len(self)} hands)"


class NextDeal(NamedTuple):
    """Who deals next, in which round, and which hand of the evening it is; who sits where, and
    whether the players changed seats for it (a new round, under a rotation that changes them)."""

    dealer: str
    round: Wind
    hand: int
    extra_hands: int = 0        # deals the dealer has kept in a row
    kitty_deals: int = 0        # deals whose stakes lie in the kitty
    seats: tuple[str, ...] = ()     # the players at East, South, West and North
    seats_change: bool = False      # the players changed seats for the round this deal begins
    dealer_wins: int = 0            # East's wins in a row

    def as_dict(self) -> NextPlain:
        return {"dealer": self.dealer, "round": self.round.letter, "hand": self.hand,
                "extra_hands": self.extra_hands, "kitty_deals": self.kitty_deals,
                "seats": {s.letter: n for s, n in zip(SEATS, self.seats, strict=True)},
                "seats_change": self.seats_change,
                "dealer_wins": self.dealer_wins, "title": hand_title(self.hand, self.dealer, self.round.letter),
                "text": self.sentence(), "moves": self.moves(),
                "kept": self.kept()}

    def swaps(self) -> list[tuple[str, str]]:
        """The players who exchanged chairs for the round this deal begins (none when nobody
        moved).  Kajongg's exchange is the one rotation that moves anyone, so the round says who."""
        if not self.seats_change or len(self.seats) != 4:
            return []
        return [(self.seats[a.number - 1], self.seats[b.number - 1])
                for a, b in _EXCHANGES[SeatChange.KAJONGG][self.round]]

    def moves(self) -> str | None:
        """Who moves where at a new round, for the table to see before it sits down: `New round:
        Ann and Dee swap chairs; Bob and Cid swap chairs`; None when nobody moves."""
        pairs = self.swaps()
        return words.new_round(pairs) if pairs else None

    def kept(self) -> str | None:
        """Why the dealer deals again: `Dee deals again: the draw keeps the deal` (or East's win);
        None when the deal passed.  A draw breaks East's run of wins, so a run says a win."""
        if not self.extra_hands:
            return None
        return words.deals_again(self.dealer, by_a_win=bool(self.dealer_wins))

    def sentence(self) -> str:
        """The next deal in words, made here once for every shell (the command line, the page):
        `Next: Hand 2: Ann deals, East round (extra hand 1; the kitty holds 2 deals' stakes)`."""
        kept = self.kept()
        # A new round under a rotation that changes seats: who sits where from this deal on.
        chairs = [(s.letter, n) for s, n in zip(SEATS, self.seats, strict=True)] if self.seats_change else None
        return words.next_deal(hand_title(self.hand, self.dealer, self.round.letter),
                               (kept, self.extra_hands) if self.extra_hands and kept else None,
                               self.kitty_deals, self.swaps() if self.seats_change else None, chairs)


@dataclass(frozen=True)
class SessionResult:
    """A whole evening played through: every hand, the totals, the standings, the settle-up.

    `settle_up` is None when every hand was added up (add-up): the totals only grow and nobody
    hands anything over.  An evening that mixes paying methods settles up the payments of the
    hands that paid, and `settle_up_note` says which hands were added up instead.
    """

    players: tuple[str, ...]                 # seat order E S W N at the first hand
    start: int
    hands: Sequence[PlayedHand]
    totals: dict[str, int]
    settle_up: tuple[Transfer, ...] | None
    next: NextDeal | None = None             # who deals the hand after the last one played
    errors: tuple[MjError, ...] = ()         # bad hands (with keep_going): the totals stop at the first
    settle_up_note: str | None = None        # how an evening with added-up hands settles
    scheme: str | None = None                # the scheme the session's header names (None: the default)
    stake: Stake | None = None               # what a point is worth in money (None: points only)
    finished: bool = False                   # the header says the game is over: no hand follows

    @property
    def standings(self) -> list[tuple[str, int]]:
        """(name, total), best first; equal totals in seat order of the first hand."""
        order = sorted(self.players, key=lambda n: (-self.totals[n], self.players.index(n)))
        return [(n, self.totals[n]) for n in order]

    def to_dict(self) -> SessionPlain:
        """The plain object of `mjscore session --format json`."""
        return {"players": list(self.players), "start": self.start, "hands": [h.to_dict() for h in self.hands],
                **self.summary()}

    def won_or_lost(self, name: str) -> int:
        """A player's total less what she started with: what the settle-up pays her (or she pays)."""
        return self.totals[name] - self.start

    def money(self, stake: Stake) -> dict[str, Decimal]:
        """Each player's won or lost in money: the money of her transfers in the settle-up, each
        rounded on its own, so that the evening's money sums to zero at any stake (and what an
        added-up hand left unsettled, at the stake as it stands: `Stake.settled`)."""
        return stake.settled({n: self.won_or_lost(n) for n in self.totals}, self.settle_up or ())

    def summary(self) -> SummaryPlain:
        """The evening as it stands, its hands aside: the totals, the standings, the settle-up,
        who deals next (what `add` and `undo` show with the hand they changed).  With a stake,
        the stake, and the money of each player's won or lost and of each transfer."""
        stake = self.stake
        # Built key by key in the order it is written (the stake first), each key checked against
        # the declaration as it is set.
        out = cast("SummaryPlain", {})
        if stake is not None:
            out["stake"] = stake.as_dict()
        out["totals"] = dict(self.totals)
        if stake is None:
            out["standings"] = [{"name": n, "total": t} for n, t in self.standings]
        else:
            money = {n: f"{m:f}" for n, m in self.money(stake).items()}
            out["money"] = money
            out["standings"] = [{"name": n, "total": t, "money": money[n]} for n, t in self.standings]
        out["settle_up"] = [t.as_dict(stake) for t in self.settle_up] if self.settle_up is not None else None
        if self.settle_up_note is not None:
            out["settle_up_note"] = self.settle_up_note
        if self.finished:
            out["finished"] = True
        elif self.next is not None:
            out["next"] = self.next.as_dict()
        if self.errors:
            out["errors"] = [str(e) for e in self.errors]
        return out


def play(session: Session, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
         keep_going: bool = False, explain: bool = False) -> SessionResult:
    """Every hand scored and settled in order, under the scheme named (None: the session's) and
    the settings given (model.settings), which win over the session's and the hands' headers.

    A bad hand raises its MjError, unless `keep_going`: then every later hand is still read and
    checked (against the seating as it stood), the errors are collected, and the totals stop at
    the first bad hand, since who deals after it cannot be known.
    """
    state = EveningState(session.header)
    for _number, _line, outcome in hands_of(session, scheme, given, explain, state):
        if isinstance(outcome, MjError) and not keep_going:
            raise outcome
    return state.result()


class EveningState:
    """An evening as it is played through: the seating, the totals, the hands counted, the errors."""

    def __init__(self, header: SessionHeader):
        self.header = header
        self.totals = {n: header.start for n in header.names}
        self.seating = Seating()
        self.played = Hands()
        self.errors: list[MjError] = []
        self.paid = {n: 0 for n in header.names}     # what the hands that paid moved, by name
        self.added: list[int] = []                   # the hands that were added up (add-up)
        self.stake: Stake | None = None              # the evening's (`evening_stake`), once it is played

    def result(self) -> SessionResult:
        h, names, seating, totals = self.header, self.header.names, self.seating, self.totals
        transfers, note = _settling(self.paid, self.added, len(self.played))
        coming = NextDeal(names[seating.player_at(Wind.EAST)], SEATS[seating.round % 4], len(self.played) + 1,
                          seating.extra_hands, seating.kitty_deals, tuple(names[seating.player_at(s)] for s in SEATS),
                          seating.seats_changed, seating.dealer_wins)
        return SessionResult(tuple(names), h.start, self.played, dict(totals), transfers, coming,
                             tuple(self.errors), note, h.scheme, self.stake, h.finished)

    def snapshot(self) -> dict[str, Any]:
        """What the evening carries into its next hand, as plain data (the checkpoint's record):
        the seating and its counts, each player's total and paid balance (in the header's order),
        the hands added up, how many hands were counted."""
        names = self.header.names
        return {**dataclasses.asdict(self.seating),          # its fields, by name: seats, round, passes, ...
                "totals": [self.totals[n] for n in names], "paid": [self.paid[n] for n in names],
                "added": list(self.added), "counted": len(self.played)}

    @classmethod
    def restored(cls, header: SessionHeader, snapshot: Mapping[str, Any], played: Hands) -> EveningState:
        """The state a `snapshot` holds, `played` its hands (the snapshot is checked first:
        `valid_snapshot`)."""
        state = cls(header)
        state.seating = Seating(**{f.name: snapshot[f.name] for f in dataclasses.fields(Seating)})
        state.seating.seats = list(state.seating.seats)
        state.totals = dict(zip(header.names, snapshot["totals"], strict=True))
        state.paid = dict(zip(header.names, snapshot["paid"], strict=True))
        state.added = list(snapshot["added"])
        state.played = played
        return state


_COUNT_KEYS = ("round", "passes", "dealer_wins", "extra_hands", "kitty_deals", "counted")
_LARGEST = 10 ** 15                 # no count or total of a real evening comes near


def valid_snapshot(snapshot: object, counted: int) -> bool:
    """Whether `snapshot` is one `EveningState.snapshot` could have made after `counted` hands:
    every value of its type and in its range (a checkpoint is checked before it is believed)."""
    if not isinstance(snapshot, dict):
        return False

    def whole(v: object, low: int, high: int) -> bool:
        return type(v) is int and low <= v <= high

    seats, added = snapshot.get("seats"), snapshot.get("added")
    return (isinstance(seats, list) and sorted(seats) == [0, 1, 2, 3] and all(type(x) is int for x in seats)
            and all(whole(snapshot.get(k), 0, _LARGEST) for k in _COUNT_KEYS) and snapshot["passes"] <= 3
            and snapshot["counted"] == counted and type(snapshot.get("seats_changed")) is bool
            and all(isinstance(snapshot.get(k), list) and len(snapshot[k]) == 4
                    and all(whole(x, -_LARGEST, _LARGEST) for x in snapshot[k]) for k in ("totals", "paid"))
            and isinstance(added, list) and all(whole(x, 1, counted) for x in added) and added == sorted(set(added)))


def hands_of(session: Session, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
             explain: bool = False, state: EveningState | None = None
             ) -> Iterator[tuple[int, int, PlayedHand | MjError | None]]:
    """Each hand of the session in order as it is played: (its number, the line it starts on,
    the hand as played, or the error that stopped it).  After a bad hand the others are still
    read and checked (against the seating as it stood), but not counted, since who deals after
    it cannot be known: those give None, or their own error."""
    state = state or EveningState(session.header)
    h, seating, totals = state.header, state.seating, state.totals
    evening_scheme: Scheme | None = None
    if scheme is None and h.scheme is not None:
        # The header's scheme, read once: one it cannot be read is the header's error, at its
        # `scheme` line, not every hand's.
        try:
            evening_scheme = load_scheme(named_in(h.scheme, h.where.file))
        except SchemeError as e:
            raise SchemeError(_("scheme '{name}': {why}").format(name=excerpt(h.scheme), why=e.message),
                              h.scheme_where if h.scheme_where.line else h.where, h.scheme) from None
    state.stake = evening_stake(h, scheme, given, evening_scheme)
    names = h.names
    counted = len(state.played)             # hands counted before (a state restored from a checkpoint)
    # From the first hand not counted: the counted ones are not walked (a 2,000-hand evening's add).
    for number, source in enumerate(itertools.islice(session.hands, counted, None), start=counted + 1):
        by_seat = {s: names[seating.player_at(s)] for s in SEATS}
        prevailing = SEATS[seating.round % 4]
        try:
            hand = source.read({name: s.value for s, name in by_seat.items()})
            _check_own_settings(hand, number)
            _check_against_rotation(hand, number, prevailing, seating, names)
            table = _with_session_values(hand, h, prevailing, seating, tuple(by_seat[s] for s in SEATS))
            result = evaluate(table, scheme, given, explain)
            if result.settlement is None:
                why = _("hand {hand} cannot be settled: {why}").format(hand=number, why=result.settlement_error)
                if table.winner is None and not table.draw:
                    raise NoWinnerError(why, hand.where, seats=tuple(p.seat.value for p in table.players))
                # The seats with no line, where one is missing: the lines a table must still give.
                given_seats = {p.seat for p in table.players}
                raise SessionError(why, hand.where, seats=tuple(s.value for s in SEATS if s not in given_seats))
        except MjError as e:
            state.errors.append(e)
            yield number, source.line, e
            continue
        if state.errors:
            yield number, source.line, None     # checked, not counted: the evening stopped at the first bad hand
            continue
        adds_up = result.settlement.settings.paying is Paying.ADD_UP
        if adds_up:
            state.added.append(number)
        for s in SEATS:
            net = result.settlement.net.get(s, 0)
            totals[by_seat[s]] += net
            if not adds_up:
                state.paid[by_seat[s]] += net
        played = PlayedHand(number, by_seat, result, dict(totals))
        state.played.append(played)
        kitty = next((x for x in result.settlement.specials if x.kind == Reason.KITTY), None)
        # The kitty grows deal by deal until a winner takes it.
        seating.kitty_deals = kitty.count if kitty is not None and kitty.to is None else 0
        _rotate(seating, table, _rotation(result.scheme, h, given))
        yield number, source.line, played


def evening_stake(h: SessionHeader, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
                  evening_scheme: Scheme | None = None) -> Stake | None:
    """The evening's stake: what the caller gives, over the session's header, over the evening's
    scheme (the one named, else the header's, else the default: `evening_scheme` when it is read
    already).  A scheme that cannot be read gives none here: its hands say what is wrong with it."""
    for layer in (given, dict(h.options)):
        if layer.get("stake") is not None:
            return typing.cast(Stake, layer["stake"])
    try:
        if evening_scheme is None:
            evening_scheme = load_scheme(scheme if scheme is not None
                                         else named_in(h.scheme, h.where.file) if h.scheme is not None else None)
    except MjError:
        return None
    return evening_scheme.settlement.stake


def _check_own_settings(hand: Table, number: int) -> None:
    """A hand may give its own settings, but not one of the whole evening's (the stake): the
    evening's money is its points' at one stake."""
    own = [k for k, _value in hand.options if k in EVENING]
    if own:
        word = own[0].replace("_", "-")
        raise SessionError(_("hand {hand} gives its own {word}: the {word} is the whole evening's, given in the "
                             "session's header (or --{word}), not in a hand's").format(hand=number, word=word),
                           hand.where, word)


def _settling(paid: dict[str, int], added: list[int], played: int) -> tuple[tuple[Transfer, ...] | None, str | None]:
    """The settle-up, chosen by the paying method of each hand (not by whether the balances
    happen to sum to zero): the payments of the hands that paid are settled; a hand added up
    (add-up) hands nothing over, so its scores stay in the totals.  With the note that says so
    when some hands were added up."""
    if not added:
        return tuple(settle_up(paid)), None
    if len(added) == played:
        return None, _("the totals were added up (add-up): no payments to settle")
    return tuple(settle_up(paid)), n_(
        "the settle-up leaves out {hands}: it was added up under add-up, so its scores stay in the totals, unsettled",
        "the settle-up leaves out {hands}: they were added up under add-up, so their scores stay in the totals, "
        "unsettled", len(added)).format(hands=_hand_list(added))


def _hand_list(numbers: list[int]) -> str:
    """`hand 3`, `hands 2 and 5`, `hands 1, 4 and 6`."""
    if len(numbers) == 1:
        return _("hand {hand}").format(hand=numbers[0])
    return _("hands {some} and {last}").format(some=", ".join(map(str, numbers[:-1])), last=numbers[-1])


def _check_against_rotation(hand: Table, number: int, prevailing: Wind, seating: Seating,
                            names: tuple[str, ...]) -> None:
    if "round" in hand.stated and hand.round is not prevailing:
        raise SessionError(_("hand {hand} says round {said}, but by the rotation it is played in the {wind} "
                             "round").format(hand=number, said=hand.round.value, wind=_(prevailing.name.lower())),
                           hand.where, "round")
    for word, name in COUNTERS.items():
        said, counted = getattr(hand, name), getattr(seating, name)
        if word in hand.stated and said != counted:
            raise SessionError(_("hand {hand} says {word} {said}, but {counted}").format(
                hand=number, word=word, said=said, counted=_counted(name, counted)), hand.where, word)
    for p in hand.players:
        if p.name is not None:
            expected = names[seating.player_at(p.seat)]
            if name_key(p.name) != name_key(expected):
                raise SessionError(_("hand {hand} seats {player} at {seat}, but by the rotation {expected} sits "
                                     "there").format(hand=number, player=p.name, seat=p.seat.value, expected=expected),
                                   p.where, p.name)


def _counted(name: str, counted: int) -> str:
    """A count a hand states, when the session counted otherwise: what the session counted, in words."""
    return {"dealer_wins": _("East has won {n} in a row"),
            "extra_hands": _("East's run of extra hands is {n}"),
            "kitty_deals": _("the kitty's count of deals before it is {n}")}[name].format(n=counted)


class _Counted(Protocol):
    """What a hand carries over from the hands before it (model.table.COUNTERS)."""

    @property
    def dealer_wins(self) -> int: ...

    @property
    def extra_hands(self) -> int: ...

    @property
    def kitty_deals(self) -> int: ...


def next_hand(played: SessionResult, header: SessionHeader, text: str, name: str) -> Table:
    """A hand's text (compact notation) read as the next hand of the evening played so far: its
    players' names where seats go, the round, the counts and the session's settings, as `play`
    reads a hand of the file.  (Checking a player's line while the hand is being entered.)"""
    nxt = played.next
    if nxt is None:
        raise SessionError(_("the evening has no next hand"), header.where)
    hand = parse_table(text, name, 1, names={n: s.value for s, n in zip(SEATS, nxt.seats, strict=True)})
    return _with_session_values(hand, header, nxt.round, nxt, nxt.seats)


def _with_session_values(hand: Table, h: SessionHeader, prevailing: Wind, seating: _Counted,
                         names: tuple[str, ...]) -> Table:
    options = {k: v for k, v in h.options if k in _TABLE_SETTINGS}
    options.update(dict(hand.options))           # the hand's own header wins over the session's
    return dataclasses.replace(hand, round=prevailing, **{name: getattr(seating, name) for name in COUNTERS.values()},
                               scheme=hand.scheme or h.scheme, options=ordered(options), names=names)


_TABLE_SETTINGS = frozenset(s.name for s in SETTINGS)
_ROTATION = frozenset(s.name for s in ROTATION)


def _rotation(scheme: Scheme, h: SessionHeader, given: Mapping[str, Any]) -> Rotation:
    """How the deal moves: what the caller gives, over the session's header, over the scheme."""
    return scheme.rotation.layered({k: v for k, v in given.items() if k in _ROTATION},
                                   {k: v for k, v in h.options if k in _ROTATION})


def _rotate(seating: Seating, table: Table, rotation: Rotation) -> None:
    seating.seats_changed = False       # said of the next deal only
    winner = table.winner
    if table.draw or winner is None:
        if rotation.draw_passes_deal:
            seating.pass_deal(rotation.seat_change)
        else:
            seating.dealer_wins = 0     # a draw breaks East's run of wins; East deals again
            seating.extra_hands += 1    # ... an extra hand all the same
        return
    if winner.seat is Wind.EAST:
        seating.dealer_wins += 1
        seating.extra_hands += 1
        limit = rotation.dealer_streak_limit
        if limit and seating.dealer_wins >= limit:
            seating.pass_deal(rotation.seat_change)     # the limit-hand win ends East's deal
    else:
        seating.pass_deal(rotation.seat_change)


# -- settle-up ---------------------------------------------------------------------------------

def settle_up(balance: dict[str, int]) -> list[Transfer]:
    """Who pays whom at the end, in the fewest transfers.

    Players split into as many groups as possible whose balances sum to zero; each group of k
    players settles in k - 1 transfers (largest debtor to largest creditor, repeatedly), which
    is the fewest possible.
    """
    people = [p for p, b in balance.items() if b != 0]
    best = _zero_groups(tuple(people), balance)
    out = []
    for group in best:
        debt = {p: balance[p] for p in group}
        while any(debt.values()):
            payer = min(debt, key=lambda p: (debt[p], p))
            payee = max(debt, key=lambda p: (debt[p], p))
            amount = min(-debt[payer], debt[payee])
            out.append(Transfer(payer, payee, amount))
            debt[payer] += amount
            debt[payee] -= amount
    return out


def money_so_far(stake: Stake, won_or_lost: Mapping[str, int]) -> dict[str, Decimal]:
    """Each player's won or lost in money after a hand, as the settle-up would pay it were the
    evening to end there (the figures of an evening with added-up hands, which need not sum to
    zero, each at the stake as it stands)."""
    balance = dict(won_or_lost)
    return stake.settled(balance, settle_up(balance) if sum(balance.values()) == 0 else ())


def _zero_groups(people: tuple[str, ...], balance: dict[str, int]) -> list[tuple[str, ...]]:
    """The partition of `people` into the most zero-sum groups (few players: exhaustive)."""
    if not people:
        return []
    first, rest = people[0], people[1:]
    best = None
    for size in range(1, len(rest) + 1):
        for others in itertools.combinations(rest, size):
            group = (first,) + others
            if sum(balance[p] for p in group) != 0:
                continue
            remaining = tuple(p for p in rest if p not in others)
            split = [group] + _zero_groups(remaining, balance)
            if best is None or len(split) > len(best):
                best = split
    return best or [people]
