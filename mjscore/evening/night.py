"""A club's night: several tables played at once, each an evening of its own file, and what the
night adds up to across them.

- `night_files` finds the night's evening files: every `.mj` and `.yaml` in a folder, in the order
  of their names, each table named by its file's stem (`table-1.mj` is `table-1`); a link in the
  folder is never followed (someone who can write in the folder could point one at any file), nor
  is a sub-folder entered.
- `play_night` plays each table's evening and adds them up: each player's won or lost summed over
  the tables she played at that night (players matched by name as a season matches them: `ann`
  is Ann), and the night's settle-up among all its players in the fewest transfers
  (`session.settle_up`, the one an evening uses).
- Money: when every table plays at one stake, the night's figures and transfers carry their money
  at that stake.  When the tables' stakes differ (or one has none), points at one table are not
  worth points at another: the night settles in points only and says so (`stake_note`); each
  table's own money stays in its own standings.
- The night's settle-up hands over what the tables' own settle-ups would, added up and settled
  again: a table's added-up hands, which its own settle-up leaves out (their won and lost need
  not sum to zero), stay unsettled at night too, and the night says which tables have them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mjscore.evening import words
from mjscore.evening.session import SessionResult, Transfer, settle_up
from mjscore.model.errors import InputError, Location
from mjscore.model.money import Stake
from mjscore.model.say import N_, _
from mjscore.model.table import name_key

NIGHT_ENDINGS = (".mj", ".yaml")
STAKES_DIFFER = N_("the tables play at different stakes: the night is settled in points, each table's money is in "
                   "its own standings")
NOT_SETTLED = N_("the night's settle-up hands over what each table's own does: the added-up hands of {tables} stay in "
                 "the totals, unsettled")


def table_name(path: str) -> str:
    """A table's name: its file's stem (`night/table-1.mj` is `table-1`)."""
    return os.path.splitext(os.path.basename(os.path.normpath(path)))[0]


def night_files(paths: Sequence[str]) -> list[tuple[str, str]]:
    """The night's tables, (name, path) each: one folder's `.mj` and `.yaml` files in the order of
    their names (links and sub-folders passed over), or the files given, in the order given.  Two
    tables of one name, or a night of no table, is an InputError."""
    if len(paths) == 1 and os.path.isdir(paths[0]) and not os.path.islink(paths[0]):
        folder = paths[0]
        try:
            with os.scandir(folder) as entries:
                found = sorted(e.name for e in entries
                               if e.name.endswith(NIGHT_ENDINGS) and e.is_file(follow_symlinks=False))
        except OSError as e:
            raise InputError(_("the night's folder cannot be read: {why}").format(why=e.strerror or e),
                             Location(folder)) from None
        files = [os.path.join(folder, n) for n in found]
        if not files:
            raise InputError(_("the night's folder holds no evening file (.mj, .yaml), one a table"), Location(folder))
    else:
        files = list(paths)
    tables: dict[str, str] = {}
    for path in files:
        name = table_name(path)
        if name in tables:
            raise InputError(_("two tables are named '{name}' ({first}, {second}): a table is named by its file's "
                               "stem").format(name=name, first=os.path.basename(tables[name]),
                                              second=os.path.basename(path)), Location(path))
        tables[name] = path
    return list(tables.items())


@dataclass(frozen=True)
class NightResult:
    """The night as it stands: each table's evening, and what they add up to."""

    tables: tuple[tuple[str, SessionResult], ...]

    @property
    def players(self) -> list[str]:
        """Every player of the night, once each, as first met (table by table, seat by seat); the
        name shown is the first spelling met."""
        seen: dict[str, str] = {}
        for _name, played in self.tables:
            for p in played.players:
                seen.setdefault(name_key(p), p)
        return list(seen.values())

    def won_or_lost(self) -> dict[str, int]:
        """Each player's won or lost over the night: the sum of her tables'."""
        shown = {name_key(p): p for p in reversed(self.players)}
        out = dict.fromkeys(self.players, 0)
        for _name, played in self.tables:
            for p in played.players:
                out[shown[name_key(p)]] += played.won_or_lost(p)
        return out

    def tables_of(self, player: str) -> list[str]:
        """The tables a player played at this night."""
        key = name_key(player)
        return [name for name, played in self.tables if any(name_key(p) == key for p in played.players)]

    @property
    def stake(self) -> Stake | None:
        """The night's stake: the one every table plays at (None: points only, or stakes that differ)."""
        stakes = {played.stake for _name, played in self.tables}
        return stakes.pop() if len(stakes) == 1 else None

    @property
    def stake_note(self) -> str | None:
        """What the night says when its tables' stakes differ (None when they agree)."""
        stakes = {played.stake for _name, played in self.tables}
        return _(STAKES_DIFFER) if len(stakes) > 1 else None

    def owed(self) -> dict[str, int]:
        """What each player is owed over the night (negative: owes): the sum, over her tables,
        of what each table's own settle-up hands her (an added-up hand's score, which a table
        leaves unsettled, stays unsettled here too)."""
        shown = {name_key(p): p for p in reversed(self.players)}
        out = dict.fromkeys(self.players, 0)
        for _name, played in self.tables:
            for t in played.settle_up or ():
                out[shown[name_key(t.payer)]] -= t.amount
                out[shown[name_key(t.payee)]] += t.amount
        return out

    @property
    def settle_up(self) -> tuple[Transfer, ...]:
        """Who pays whom among all the night's players, in the fewest transfers: what the tables'
        own settle-ups hand over, added up across tables and settled again."""
        return tuple(settle_up(self.owed()))

    @property
    def unsettled(self) -> list[str]:
        """The tables whose added-up hands stay unsettled (their settle-up leaves them out)."""
        return [name for name, played in self.tables if played.settle_up is None or played.settle_up_note]

    def standings(self) -> list[tuple[str, int]]:
        """(name, won or lost), best first; equal figures in the order first met."""
        balance = self.won_or_lost()
        order = self.players
        return sorted(balance.items(), key=lambda x: (-x[1], order.index(x[0])))

    def to_dict(self) -> dict[str, Any]:
        """The plain object of `GET /api/night`: each table's summary (as `GET /api/standings`
        gives it, named), the night's standings (each player's won or lost and tables), and its
        settle-up; with a shared stake, the money of each figure and transfer."""
        stake = self.stake
        transfers = self.settle_up
        out: dict[str, Any] = {}
        if stake is not None:
            out["stake"] = stake.as_dict()
        out["tables"] = [{"table": name, "players": list(played.players), "start": played.start,
                          "hands": len(played.hands), **played.summary()} for name, played in self.tables]
        balance = self.won_or_lost()
        money = ({n: f"{m:f}" for n, m in stake.settled(balance, transfers).items()}
                 if stake is not None else None)
        standings = []
        for name, figure in self.standings():
            row: dict[str, Any] = {"name": name, "won_or_lost": figure, "tables": self.tables_of(name)}
            if money is not None:
                row["money"] = money[name]
            standings.append(row)
        out["standings"] = standings
        out["settle_up"] = [t.as_dict(stake) for t in transfers]
        unsettled = self.unsettled
        notes = [note for note in (self.stake_note, _(NOT_SETTLED).format(tables=", ".join(unsettled))
                                   if unsettled else None) if note]
        if notes:
            out["notes"] = notes
        return out


def play_night(tables: Iterable[tuple[str, SessionResult]]) -> NightResult:
    """The night of these tables' evenings, each (name, evening as played)."""
    return NightResult(tuple(tables))


def night_words(night: dict[str, Any]) -> dict[str, Any]:
    """The night's phrases, as `evening_words` says an evening's: each table's (its standings'
    won or lost, its settle-up), and the night's standings and settle-up ("Bob pays Ann 596 (EUR 29.80)")."""
    summed = {"start": 0, "stake": night.get("stake"), "settle_up": night["settle_up"],
              "standings": [{"total": s["won_or_lost"], "money": s.get("money")} for s in night["standings"]]}
    return {"tables": [words.evening_words(t) for t in night["tables"]], **words.evening_words(summed)}
