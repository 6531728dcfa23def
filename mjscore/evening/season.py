"""A season: the club's record over many evenings, and one evening's figures (`session --stats`).

Every evening is played as `mjscore session` plays it (`checkpoint.play_file`: from its
checkpoint where it has one), then counted into running figures per player and let go: a
season of a thousand evenings holds each player's tallies and a line per evening (its file,
its hands, what each player won or lost), never the evenings' hands.

A season counts nights (issue 42): a folder is one night, each evening file in it a table of
that night; a file given alone is a night of one table.  A player's night counts once however
many of its tables she sat at (`nights`, `per_night`), her result that night the sum over them
(`NightLine`); `evenings` and `per_evening` still count evening files.  Money is kept by
currency where the evenings have a stake, and never added across currencies.

The players are matched across evenings by name as an evening matches them (`name_key`: NFKC,
without case); the name shown is the first spelling met.  An evening that cannot be played (a
file that cannot be read, a header or a hand that is wrong) is left out whole, its errors kept:
the others still count; so is one whose file's name is not UTF-8.  The figures are read from
each hand's plain form (`to_dict()`), which is what a checkpoint holds, so a hand read back
counts as one scored here.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from mjscore.evening.resume import play_file
from mjscore.evening.session import SessionResult, play
from mjscore.io.reader import file_is_session, read_text
from mjscore.io.sessionfile import read_session
from mjscore.model.errors import InputError, Location, MjError
from mjscore.model.money import Stake
from mjscore.model.table import name_key
from mjscore.pipeline import EMPTY
from mjscore.model.say import _

# The files of a folder that may be evenings (a folder's other files, and its files of these
# endings that are no session, such as a house scheme, are passed over).
EVENING_ENDINGS = (".mj", ".yaml", ".yml")


@dataclass(frozen=True)
class BiggestHand:
    """A player's highest-scoring winning hand of the season: its score, the evening's file and
    the hand's number in it, and its limit hand's name where it was one.  The first met of equal
    scores."""

    score: int
    file: str
    hand: int
    limit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "file": self.file, "hand": self.hand, "limit": self.limit}


@dataclass(frozen=True)
class PlayerFigures:
    """One player's season: the evenings and hands she played, what she won or lost over them
    (each evening's total less its start, summed), and how her hands went."""

    name: str                       # as first met
    evenings: int
    hands: int                      # hands played (counted)
    won_or_lost: int
    hands_won: int
    won_self_drawn: int
    won_on_discard: int             # won on another player's tile (a kong robbed counts here)
    dealt: int                      # hands she dealt (was East)
    draws: int                      # draws she played
    biggest_hand: BiggestHand | None
    limit_hands: dict[str, int]     # limit hand's name -> times, most first (then by name)
    penalties_paid: int             # amounts
    penalties_received: int
    paid_for_all: int               # times liable: she alone paid the winner for all
    nights: int = 0                 # nights she played: a night of several tables she sat at counts once

    @property
    def per_evening(self) -> float:
        """Won or lost an evening (an evening file: a table), to the hundredth (a half away from zero)."""
        return _average(self.won_or_lost, self.evenings)

    @property
    def per_night(self) -> float:
        """Won or lost a night (her tables of the night summed), to the hundredth."""
        return _average(self.won_or_lost, self.nights)

    @property
    def per_hand(self) -> float:
        return _average(self.won_or_lost, self.hands)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "evenings": self.evenings, "hands": self.hands, "won_or_lost": self.won_or_lost,
                "hands_won": self.hands_won, "won_self_drawn": self.won_self_drawn,
                "won_on_discard": self.won_on_discard, "dealt": self.dealt, "draws": self.draws,
                "biggest_hand": self.biggest_hand.to_dict() if self.biggest_hand is not None else None,
                "limit_hands": dict(self.limit_hands), "penalties_paid": self.penalties_paid,
                "penalties_received": self.penalties_received, "paid_for_all": self.paid_for_all,
                "nights": self.nights, "per_night": self.per_night}


def _average(total: int, count: int) -> float:
    if not count:
        return 0.0
    return float((Decimal(total) / count).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Standing:
    """A player's place in the season: by what she won or lost, most first; equal amounts share
    a place (1, 2, 2, 4), listed in the order the players were first met."""

    place: int
    name: str
    evenings: int
    hands: int
    won_or_lost: int
    per_evening: float
    per_hand: float
    nights: int = 0
    per_night: float = 0.0
    money: Decimal | None = None    # her won or lost in money, when every evening had one stake

    def to_dict(self) -> dict[str, Any]:
        out = {"place": self.place, "name": self.name, "evenings": self.evenings, "hands": self.hands,
               "won_or_lost": self.won_or_lost, "per_evening": self.per_evening, "per_hand": self.per_hand,
               "nights": self.nights, "per_night": self.per_night}
        if self.money is not None:
            out["money"] = f"{self.money:f}"
        return out


Money = dict[str | None, dict[str, Decimal]]      # currency (None: none named) -> player -> money


def _money_plain(money: Money) -> list[dict[str, Any]]:
    """Money by currency as the JSON writes it: `[{"currency": "EUR", "won_or_lost": {"Ann": "12.00"}}]`."""
    return [{"currency": c, "won_or_lost": {n: f"{m:f}" for n, m in by.items()}} for c, by in money.items()]


def _add_money(into: Money, currency: str | None, money: Mapping[str, Decimal]) -> None:
    """Money added to money of its own currency only: different currencies are never added."""
    by = into.setdefault(currency, {})
    for n, m in money.items():
        total = by.get(n, Decimal(0)) + m
        by[n] = total.copy_abs() if total.is_zero() else total


@dataclass(frozen=True)
class NightLine:
    """One night of the season: its name (its folder's, or its one file's without the ending),
    its evening files counted (one a table), its hands, what each player won or lost that night
    (her tables summed), the stakes its tables played for and the money, by currency."""

    name: str
    files: tuple[str, ...]
    hands: int
    won_or_lost: dict[str, int]
    stakes: tuple[Stake, ...] = ()
    money: Money = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "files": list(self.files), "hands": self.hands,
                "won_or_lost": dict(self.won_or_lost), "stakes": [s.as_dict() for s in self.stakes],
                "money": _money_plain(self.money)}


@dataclass(frozen=True)
class EveningLine:
    """One evening of the season, as the season keeps it: its file, its hands counted, and what
    each of its players won or lost (by the season's spelling of her name)."""

    file: str
    hands: int
    won_or_lost: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "hands": self.hands, "won_or_lost": dict(self.won_or_lost)}


@dataclass(frozen=True)
class SeasonResult:
    """A season played through: its evenings in order, each player's figures (in the order the
    players were first met), the evenings left out and why."""

    evenings: tuple[EveningLine, ...]
    players: tuple[PlayerFigures, ...]
    left_out: tuple[str, ...] = ()           # the files of the evenings that could not be played
    errors: tuple[MjError, ...] = ()         # why, each as `mjscore session` reports it
    nights: tuple[NightLine, ...] = ()       # the nights, in order: each folder given, or file given alone
    stakes: tuple[Stake, ...] = ()           # the stakes played for, as first met
    unstaked: int = 0                        # evenings counted that played for no stake
    money: Money = field(default_factory=dict)     # each player's money over the season, by currency

    @property
    def stake(self) -> Stake | None:
        """The season's one stake: when every evening counted played for the same one."""
        return self.stakes[0] if len(self.stakes) == 1 and not self.unstaked else None

    @property
    def hands(self) -> int:
        return sum(e.hands for e in self.evenings)

    @property
    def standings(self) -> list[Standing]:
        order = sorted(range(len(self.players)), key=lambda i: (-self.players[i].won_or_lost, i))
        out: list[Standing] = []
        stake = self.stake
        money = self.money.get(stake.currency, {}) if stake is not None else {}
        for k, i in enumerate(order):
            p = self.players[i]
            place = out[-1].place if out and out[-1].won_or_lost == p.won_or_lost else k + 1
            out.append(Standing(place, p.name, p.evenings, p.hands, p.won_or_lost, p.per_evening, p.per_hand,
                                p.nights, p.per_night, money.get(p.name, Decimal(0)) if stake is not None else None))
        return out

    def player(self, name: str) -> PlayerFigures | None:
        """A player's figures by name, matched as the evenings match names (`ann` is Ann)."""
        key = name_key(name)
        return next((p for p in self.players if name_key(p.name) == key), None)

    def to_dict(self) -> dict[str, Any]:
        """The plain object of `mjscore season --format json` (and `session --stats`): the
        evenings, the standings, each player's figures in the standings' order, the errors."""
        standings = self.standings
        by_name = {p.name: p for p in self.players}
        return {"evenings": [e.to_dict() for e in self.evenings], "hands": self.hands,
                "standings": [s.to_dict() for s in standings],
                "players": [by_name[s.name].to_dict() for s in standings],
                "left_out": list(self.left_out),
                "errors": [{"file": e.location.file, "line": e.location.line, "error": str(e)} for e in self.errors],
                "nights": [n.to_dict() for n in self.nights],
                "stake": self.stake.as_dict() if self.stake is not None else None,
                "stakes": [s.as_dict() for s in self.stakes], "unstaked": self.unstaked,
                "money": _money_plain(self.money)}


@dataclass
class _Tally:
    """A player's running figures, as the evenings are counted."""

    name: str
    evenings: int = 0
    nights: int = 0
    hands: int = 0
    won_or_lost: int = 0
    hands_won: int = 0
    won_self_drawn: int = 0
    won_on_discard: int = 0
    dealt: int = 0
    draws: int = 0
    biggest_hand: BiggestHand | None = None
    limit_hands: dict[str, int] = field(default_factory=dict)
    penalties_paid: int = 0
    penalties_received: int = 0
    paid_for_all: int = 0

    def figures(self) -> PlayerFigures:
        limits = dict(sorted(self.limit_hands.items(), key=lambda kv: (-kv[1], kv[0])))
        return PlayerFigures(self.name, self.evenings, self.hands, self.won_or_lost, self.hands_won,
                             self.won_self_drawn, self.won_on_discard, self.dealt, self.draws, self.biggest_hand,
                             limits, self.penalties_paid, self.penalties_received, self.paid_for_all, self.nights)


class SeasonBook:
    """The season's record as it is kept, an evening at a time: `count` each evening played,
    `leave_out` each that could not be; `result()` at any point."""

    def __init__(self) -> None:
        self._tallies: dict[str, _Tally] = {}          # name_key -> the player's tally
        self._evenings: list[EveningLine] = []
        self._left_out: list[str] = []
        self._errors: list[MjError] = []
        self._nights: list[NightLine] = []
        self._night: tuple[str, list[str], dict[str, int], list[int], list[Stake], Money] | None = None
        self._in_night: set[str] = set()             # name_keys of the players met in the night being counted
        self._stakes: list[Stake] = []
        self._unstaked = 0
        self._money: Money = {}

    def begin_night(self, name: str) -> None:
        """The evenings counted from here on are the tables of one night, `name`, until the next."""
        self.end_night()
        self._night = (name, [], {}, [0], [], {})
        self._in_night = set()

    def end_night(self) -> None:
        """The night being counted closed (one with no evening counted is no night)."""
        night, self._night = self._night, None
        line = self._night_line(night)
        if line is not None:
            self._nights.append(line)

    @staticmethod
    def _night_line(night: tuple[str, list[str], dict[str, int], list[int], list[Stake], Money] | None
                    ) -> NightLine | None:
        if night is None or not night[1]:
            return None
        name, files, won_or_lost, hands, stakes, money = night
        return NightLine(name, tuple(files), hands[0], dict(won_or_lost), tuple(stakes),
                         {c: dict(by) for c, by in money.items()})

    def _tally(self, name: str) -> _Tally:
        key = name_key(name)
        tally = self._tallies.get(key)
        if tally is None:
            tally = self._tallies[key] = _Tally(name)
        return tally

    def count(self, file: str, played: SessionResult) -> None:
        """One evening played through (with no error), named `file`: its hands read one at a
        time from their plain form and let go."""
        players = {n: self._tally(n) for n in played.players}
        if self._night is None:                      # an evening counted alone is a night of its own
            self.begin_night(night_name(file))
        assert self._night is not None
        _name, files, night_won_or_lost, night_hands, night_stakes, night_money = self._night
        files.append(file)
        night_hands[0] += len(played.hands)
        for n, tally in players.items():
            tally.evenings += 1
            tally.won_or_lost += played.won_or_lost(n)
            if name_key(n) not in self._in_night:
                self._in_night.add(name_key(n))
                tally.nights += 1
            night_won_or_lost[tally.name] = night_won_or_lost.get(tally.name, 0) + played.won_or_lost(n)
        stake = played.stake
        if stake is None:
            self._unstaked += 1
        else:
            if stake not in self._stakes:
                self._stakes.append(stake)
            if stake not in night_stakes:
                night_stakes.append(stake)
            money = {players[n].name: m for n, m in played.money(stake).items()}
            _add_money(night_money, stake.currency, money)
            _add_money(self._money, stake.currency, money)
        for hand in played.hands:
            self._count_hand(file, hand.to_dict(), players)
        self._evenings.append(EveningLine(file, len(played.hands),
                                          {t.name: played.won_or_lost(n) for n, t in players.items()}))

    @staticmethod
    def _count_hand(file: str, d: Mapping[str, Any], players: Mapping[str, _Tally]) -> None:
        at = {seat: players[name] for seat, name in d["names"].items()}
        for tally in at.values():
            tally.hands += 1
            if d.get("draw"):
                tally.draws += 1
        players[d["dealer"]].dealt += 1
        for p in d.get("players", ()):
            limit = p.get("limit")
            if limit:
                counts = at[p["seat"]].limit_hands
                counts[limit] = counts.get(limit, 0) + 1
        winner = d.get("winner")
        if winner is not None:
            tally = at[winner]
            win = d.get("win") or {}
            tally.hands_won += 1
            if win.get("from") is None:
                tally.won_self_drawn += 1
            else:
                tally.won_on_discard += 1
            if win.get("liable") is not None:
                at[win["liable"]].paid_for_all += 1
            scored = next((p for p in d.get("players", ()) if p["seat"] == winner), None)
            if scored is not None and (tally.biggest_hand is None or scored["score"] > tally.biggest_hand.score):
                tally.biggest_hand = BiggestHand(scored["score"], file, d["hand"], scored.get("limit"))
        for pen in (d.get("settlement") or {}).get("penalties", ()):
            at[pen["from"]].penalties_paid += pen["amount"]
            if pen.get("to") is not None:
                at[pen["to"]].penalties_received += pen["amount"]

    def leave_out(self, file: str, errors: Iterable[MjError]) -> None:
        """An evening that could not be played: not counted, its errors kept."""
        self._left_out.append(file)
        self._errors.extend(errors)

    def result(self) -> SeasonResult:
        open_night = self._night_line(self._night)     # still open: what is counted next joins it
        nights = tuple(self._nights) + ((open_night,) if open_night is not None else ())
        return SeasonResult(tuple(self._evenings), tuple(t.figures() for t in self._tallies.values()),
                            tuple(self._left_out), tuple(self._errors), nights, tuple(self._stakes),
                            self._unstaked, {c: dict(by) for c, by in self._money.items()})


def night_name(path: str) -> str:
    """A night's name: its folder's; a file given alone, its name without the folder or the
    ending of an evening file (`club/2026-01-08.mj` is `2026-01-08`)."""
    if path in ("-", "<stdin>"):
        return "<stdin>"
    base = os.path.basename(os.path.normpath(path)) or path
    stem, ending = os.path.splitext(base)
    return stem if stem and ending.lower() in EVENING_ENDINGS and not os.path.isdir(path) else base


def _is_link(path: str) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def night_files(folder: str) -> Iterator[str]:
    """A night's evening files, one a table: its `.mj`, `.yaml`, `.yml` files that are sessions
    (or that cannot be read) in the order of their names; its sub-folders and other files
    passed over.  A link is yielded as it is, never followed (`play_season` leaves it out, and
    says so); a folder that cannot be listed is yielded itself, which says why when played."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        yield folder
        return
    for n in names:
        child = os.path.join(folder, n)
        if not n.lower().endswith(EVENING_ENDINGS):
            continue
        if _is_link(child):
            yield child
            continue
        if os.path.isdir(child):
            continue
        # One that cannot be read (a pipe, no permission: None) is played all the same, which
        # says why: a season never drops an evening without a word.
        if file_is_session(child) is not False:
            yield child


def nights(paths: Iterable[str]) -> Iterator[tuple[str, list[str], bool]]:
    """The season's nights in the order given, each its name and its evening files: a folder is
    one night (`night_files`: every evening file in it a table of that night), a file given
    alone a night of one table; with each, whether it is a folder's."""
    for path in paths:
        if path != "-" and os.path.isdir(path):
            yield night_name(path), list(night_files(path)), True
        else:
            yield night_name(path), [path], False


def evening_files(paths: Iterable[str]) -> Iterator[str]:
    """The season's evening files in order, its nights' one after another (`nights`)."""
    for _name, files, _folder in nights(paths):
        yield from files


def _name_not_text(path: str) -> MjError | None:
    """The error for a file whose name is not UTF-8 (its undecodable bytes arrive as the
    surrogates that stand for them): the season keeps each evening by its name, in its figures
    and its JSON, where such a name cannot be written."""
    bad = next((c for c in path if "\udc80" <= c <= "\udcff"), None)
    if bad is None:
        return None
    return InputError(_("its name is not UTF-8 text (byte 0x{byte}): rename the file to count the evening").format(
        byte=f"{ord(bad) - 0xDC00:02x}"), Location(path))


def play_evening(path: str, scheme: str | None = None, given: Mapping[str, Any] = EMPTY) -> SessionResult:
    """An evening file played as `mjscore session` plays it: from its checkpoint where it has
    one, every bad hand kept in `errors` (`-` is standard input)."""
    text, shown = read_text(path)
    session = read_session(text, shown)
    if path == "-":
        return play(session, scheme, given, keep_going=True)      # standard input keeps no checkpoint
    return play_file(session, path, scheme, given, keep_going=True)


def play_season(paths: Iterable[str], scheme: str | None = None, given: Mapping[str, Any] = EMPTY) -> SeasonResult:
    """Every evening of `paths` (files and folders: `evening_files`) played and counted, one at
    a time; an evening that cannot be played is left out with its errors."""
    book = SeasonBook()
    for name, files, in_folder in nights(paths):
        book.begin_night(name)
        for path in files:
            _count_evening(book, path, scheme, given, in_folder)
    book.end_night()
    return book.result()


def _count_evening(book: SeasonBook, path: str, scheme: str | None, given: Mapping[str, Any],
                   in_folder: bool) -> None:
    """One evening file counted into the night being counted, or left out with why.  A folder's
    file that is a link is never followed (a link planted in a night's folder could read any
    file); a file named on the command line is read as named."""
    shown = "<stdin>" if path == "-" else path
    unnamed = _name_not_text(shown)
    if unnamed is not None:
        book.leave_out(shown, [unnamed])
        return
    if in_folder and _is_link(path):
        book.leave_out(shown, [InputError(_("a link: a night's evening files are read where they are, "
                                            "never through a link"), Location(shown))])
        return
    try:
        played = play_evening(path, scheme, given)
    except MjError as e:
        book.leave_out(shown, [e])
        return
    if played.errors:
        book.leave_out(shown, played.errors)
    else:
        book.count(shown, played)


def evening_figures(file: str, played: SessionResult) -> SeasonResult:
    """One evening's figures: the season of that evening alone (what `session --stats` shows)."""
    book = SeasonBook()
    if played.errors:
        book.leave_out(file, played.errors)
    else:
        book.count(file, played)
    return book.result()
