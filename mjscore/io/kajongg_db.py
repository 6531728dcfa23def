"""Kajongg's database, read: the games KDE Kajongg recorded, their hands and each player's tiles.

Kajongg (the KDE game) keeps every game it plays or scores in an SQLite file (its own
`kajongg3.db`, or a local game server's `local3.db`).  Four of its tables tell a game
(src/query.py in the KDE/kajongg repository, `PrepareDB.schema`):

- `player(id, name)`;
- `ruleset(id, name, hash, description)`: the game's rule set, by name ("Classical Chinese DMJL");
- `game(id, seed, autoplay, starttime, endtime, ruleset, p0, p1, p2, p3)`: `p0`..`p3` are the
  players at East, South, West and North when the game began;
- `score(game, hand, data, manualrules, rotated, notrotated, player, scoretime, won, penalty,
  prevailing, wind, points, payments, balance)`: one row a player a hand (src/game.py,
  `Game._saveScores`): `hand` counts the game's hands from 0, `prevailing` is the round's wind,
  `wind` the player's seat, `won` 1 for the winner, `points` the hand's score, `payments` what the
  player gained in it (negative: paid), `balance` the running total (from 0), `rotated` how often
  the deal had passed in this round and `notrotated` how many hands in a row the dealer kept it;
  `data` is the player's hand string (src/hand.py, `Hand.newString`) and `manualrules` the names
  of the rules it earned, `||` between them.  A row with `penalty` 1 is a penalty a scoring game
  recorded (src/scoring.py, `savePenalty`): its `payments` is what that player paid or received.

A hand string is words (src/hand.py, `Hand.__parseString`; src/tile.py, `Meld`): two characters
a tile, a group letter and a value, upper case concealed and lower case exposed: `s` dots
(stones) 1-9, `b` bamboo, `c` characters, `w` winds `e s w n`, `d` dragons `b g r` (white,
green, red), `f` flowers and `y` seasons `e s w n` (1-4).  A word of tiles is a meld: `b2b2b2`
an exposed pung, `c1c2c3` an exposed chow, `s5s5s5s5` an exposed kong, `s5s5s5S5` a kong claimed
onto a concealed pung, `s5S5S5s5` a concealed kong; upper-case words are concealed sets the
winner laid out; `R...` holds the loose concealed tiles; `m` and a letter say where the last
tile came from (`w` the wall, `d` a discard, `e` the dead wall, `z` the wall's last tile, `Z`
the last discard, `k` a robbed kong, `1` East's dealt fourteenth tile), with `a` (original call)
or `t` (twofold fortune) after it; `L` a tile and a meld: the winning tile and the set it
completed.

The file is opened read-only (an SQLite `mode=ro` URI, the schema not trusted, queries only) and
never changed.  It must be a regular file, not a link, no larger than `MAX_DATABASE_BYTES`.  The
file may have been written by anyone: every value read is checked for its type and range, and
anything that is not what Kajongg writes is one `InputError` naming the file (and the game, hand
and column).
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from mjscore.io.text import open_regular
from mjscore.model.errors import InputError, Location, excerpt
from mjscore.model.tiles import Tile, Wind, flower, season, tile
from mjscore.model.say import _

MAX_DATABASE_BYTES = 64 * 1024 * 1024
MAX_ROWS = 200_000                 # score rows read at most (about 2,000 games)
MAX_HANDS = 10_000                 # hands of one game
MAX_TEXT = 2_000                   # characters of a hand string, a name, a rule list
_LARGE = 10 ** 9                   # no score, payment or balance of a real game comes near
_SQLITE_MAGIC = b"SQLite format 3\x00"

# The columns each table must have (Kajongg's schema: src/query.py).
_COLUMNS = {
    "game": ("id", "seed", "starttime", "endtime", "ruleset", "p0", "p1", "p2", "p3"),
    "score": ("game", "hand", "data", "manualrules", "rotated", "notrotated", "player", "won", "penalty",
              "prevailing", "wind", "points", "payments", "balance"),
    "player": ("id", "name"),
    "ruleset": ("id", "name"),
}


@dataclass(frozen=True)
class KajonggRow:
    """One player's row of one hand (`score`)."""

    player: int                    # player.id
    wind: Wind                     # the player's seat in this hand
    won: bool
    points: int                    # the hand's score for this player
    payments: int                  # what the player gained in this hand (negative: paid)
    balance: int                   # the running total after it
    data: str                      # the hand string
    rules: tuple[str, ...]         # `manualrules`: the rules the hand earned
    penalty: bool = False          # a penalty row (a scoring game's `savePenalty`)


@dataclass(frozen=True)
class KajonggHand:
    number: int                    # score.hand: 0, 1, ...
    prevailing: Wind
    rotated: int
    notrotated: int
    rows: tuple[KajonggRow, ...]   # the four players' rows, East first
    penalties: tuple[KajonggRow, ...] = ()

    def row_at(self, seat: Wind) -> KajonggRow:
        return next(r for r in self.rows if r.wind is seat)

    def row_of(self, player: int) -> KajonggRow:
        return next(r for r in self.rows if r.player == player)

    @property
    def winner(self) -> KajonggRow | None:
        return next((r for r in self.rows if r.won), None)


@dataclass(frozen=True)
class KajonggGame:
    id: int
    seed: str
    start: str                     # game.starttime as Kajongg wrote it (ISO 8601)
    end: str | None                # None: the game was not finished
    ruleset: str                   # the rule set's name
    players: tuple[tuple[int, str], ...]   # (player.id, name) at East, South, West, North at the first hand
    hands: tuple[KajonggHand, ...]


@dataclass(frozen=True)
class KajonggDatabase:
    path: str
    games: tuple[KajonggGame, ...]     # the games with at least one hand, by id


# -- opening the file safely -------------------------------------------------------------------

def read_database(path: str, game: int | None = None) -> KajonggDatabase:
    """The games of a Kajongg database (only game `game`, when given), read-only and checked."""
    con = _connect(path)
    try:
        return KajonggDatabase(path, tuple(_games(con, path, game)))
    except (sqlite3.Error, UnicodeDecodeError) as e:
        raise _unreadable(path, e) from None
    finally:
        con.close()


def _not_kajongg(path: str, why: str) -> InputError:
    return InputError(_("not a Kajongg database: {why}").format(why=why), Location(path))


def _unreadable(path: str, e: sqlite3.Error | UnicodeDecodeError, doing: str = "read") -> InputError:
    """SQLite's refusal, as one message.  Python decodes SQLite's error text as UTF-8: an error
    that quotes a byte that is not (a table so named in a broken schema) comes as a
    UnicodeDecodeError in place of SQLite's own, and Kajongg writes UTF-8 only."""
    opening = doing == "open"           # a whole sentence for each, not the verb put in
    if isinstance(e, UnicodeDecodeError):
        return _not_kajongg(path, _("SQLite cannot open it (its error quotes a byte that is not UTF-8 text)") if opening
                            else _("SQLite cannot read it (its error quotes a byte that is not UTF-8 text)"))
    return _not_kajongg(path, (_("SQLite cannot open it ({error})") if opening
                               else _("SQLite cannot read it ({error})")).format(error=e))


def _connect(path: str) -> sqlite3.Connection:
    where = Location(path)
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        raise InputError(_("no such file"), where) from None
    except OSError as e:
        raise InputError(_("cannot read: {error}").format(error=e.strerror or e), where) from None
    if stat.S_ISLNK(before.st_mode):
        raise InputError(_("is a link: give the database file itself, not a link to it"), where)
    with open_regular(path, what="database") as f:        # a regular file, or one clear error
        st = os.fstat(f.fileno())
        if st.st_size > MAX_DATABASE_BYTES:
            raise InputError(_("is larger than {limit} bytes, the most that is read").format(
                limit=f"{MAX_DATABASE_BYTES:,}"), where)
        try:
            head = f.read(len(_SQLITE_MAGIC))
        except OSError as e:
            raise InputError(_("cannot read: {error}").format(error=e.strerror or e), where) from None
    if (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
        raise InputError(_("the file changed while it was opened"), where)
    if head != _SQLITE_MAGIC:
        raise _not_kajongg(path, _("it is not an SQLite database file"))
    uri = f"file:{quote(os.path.abspath(path))}?mode=ro"
    try:
        con = sqlite3.connect(uri, uri=True)
        con.execute("PRAGMA query_only = ON")
        con.execute("PRAGMA trusted_schema = OFF")
        after = os.lstat(path)
    except (sqlite3.Error, UnicodeDecodeError) as e:
        raise _unreadable(path, e, "open") from None
    except OSError as e:
        raise _not_kajongg(path, _("SQLite cannot open it ({error})").format(error=e)) from None
    if stat.S_ISLNK(after.st_mode) or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
        con.close()
        raise InputError(_("the file changed while it was opened"), where)
    try:
        _check_schema(con, path)
    except (sqlite3.Error, UnicodeDecodeError) as e:
        con.close()
        raise _unreadable(path, e) from None
    except BaseException:
        con.close()
        raise
    return con


def _check_schema(con: sqlite3.Connection, path: str) -> None:
    tables = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, columns in _COLUMNS.items():
        if table not in tables:
            raise _not_kajongg(path, _("it has no table '{table}' (Kajongg keeps its games in the tables game, score, "
                                       "player and ruleset)").format(table=table))
        have = {str(r[1]) for r in con.execute(f"PRAGMA table_info('{table}')")}
        missing = [c for c in columns if c not in have]
        if missing:
            raise _not_kajongg(path, _("its table '{table}' has no column '{column}'").format(
                table=table, column=missing[0]))


# -- reading and checking the rows -------------------------------------------------------------

def _games(con: sqlite3.Connection, path: str, only: int | None) -> Iterator[KajonggGame]:
    names = _players(con, path)
    rulesets = _rulesets(con, path)
    (count,) = con.execute("SELECT count(*) FROM score").fetchone()
    if count > MAX_ROWS:
        raise InputError(_("holds {n} score rows, more than the {limit} that are read").format(
            n=f"{count:,}", limit=f"{MAX_ROWS:,}"), Location(path))
    if only is not None:
        query = con.execute("SELECT id, seed, starttime, endtime, ruleset, p0, p1, p2, p3 FROM game WHERE id = ?",
                            (only,))
    else:
        query = con.execute("SELECT id, seed, starttime, endtime, ruleset, p0, p1, p2, p3 FROM game ORDER BY id")
    rows = query.fetchall()
    if only is not None and not rows:
        ids = [r[0] for r in con.execute("SELECT id FROM game ORDER BY id LIMIT 21").fetchall()]
        held = ", ".join(str(i) for i in ids[:20]) + (", ..." if len(ids) > 20 else "")
        said = (_("holds no game {game}; its games are {games}") if ids
                else _("holds no game {game}; it holds no game"))
        raise InputError(said.format(game=only, games=held), Location(path))
    for row in rows:
        game = _game(con, path, row, names, rulesets)
        if game is not None:
            yield game


def _players(con: sqlite3.Connection, path: str) -> dict[int, str]:
    out = {}
    for pid, name in con.execute("SELECT id, name FROM player").fetchall():
        at = _("player {player}").format(player=excerpt(pid))
        out[_whole(pid, path, at, "id", 0, _LARGE)] = _text(name, path, at, "name", 1, 200)
    return out


def _rulesets(con: sqlite3.Connection, path: str) -> dict[int, str]:
    out = {}
    for rid, name in con.execute("SELECT id, name FROM ruleset").fetchall():
        at = _("ruleset {ruleset}").format(ruleset=excerpt(rid))
        out[_whole(rid, path, at, "id", -_LARGE, _LARGE)] = _text(name, path, at, "name", 0, 200)
    return out


def _game(con: sqlite3.Connection, path: str, row: tuple[Any, ...], names: dict[int, str],
          rulesets: dict[int, str]) -> KajonggGame | None:
    gid = _whole(row[0], path, _("a game"), "id", 0, _LARGE)
    at = _("game {game}").format(game=gid)
    seed = row[1]
    seed_text = "0" if seed is None else _text(str(seed) if type(seed) is int else seed, path, at, "seed", 0, 40)
    start = _text(row[2], path, at, "starttime", 0, 40) if row[2] is not None else ""
    end = _text(row[3], path, at, "endtime", 0, 40) if row[3] is not None else None
    # Kajongg reads a game's missing ruleset as its first (src/game.py, _loadGameRecord).
    rid = 1 if row[4] is None else _whole(row[4], path, at, "ruleset", -_LARGE, _LARGE) or 1
    if rid not in rulesets:
        raise InputError(_("{at}: its ruleset {ruleset} is not in the table ruleset").format(
            at=at, ruleset=rid), Location(path))
    players = []
    for k, column in enumerate(("p0", "p1", "p2", "p3")):
        pid = _whole(row[5 + k], path, at, column, 0, _LARGE)
        if pid not in names:
            raise InputError(_("{at}: its player {column} = {player} is not in the table player").format(
                at=at, column=column, player=pid), Location(path))
        players.append((pid, names[pid]))
    if len({p for p, __ in players}) != 4:
        raise InputError(_("{at}: p0..p3 do not name four different players").format(at=at), Location(path))
    rows = con.execute("SELECT hand, data, manualrules, rotated, notrotated, player, won, penalty, prevailing, "
                       "wind, points, payments, balance FROM score WHERE game = ? ORDER BY hand, rowid",
                       (gid,)).fetchall()
    if not rows:
        return None
    hands = _hands(rows, path, at, {p for p, __ in players})
    return KajonggGame(gid, seed_text, start, end, rulesets[rid], tuple(players), hands)


def _hands(rows: list[tuple[Any, ...]], path: str, at: str, players: set[int]) -> tuple[KajonggHand, ...]:
    by_hand: dict[int, list[tuple[Any, ...]]] = {}
    for r in rows:
        number = _whole(r[0], path, at, "score.hand", 0, MAX_HANDS)
        by_hand.setdefault(number, []).append(r)
    if sorted(by_hand) != list(range(len(by_hand))):
        missing = next(n for n in range(len(by_hand) + 1) if n not in by_hand)
        raise InputError(_("{at}: hand {hand} has no score rows, but later hands have").format(
            at=at, hand=missing), Location(path))
    out = []
    for number in sorted(by_hand):
        where = _("{at}, hand {number}").format(at=at, number=number)
        scored: list[KajonggRow] = []
        penalties: list[KajonggRow] = []
        prevailing = rotated = notrotated = None
        for r in by_hand[number]:
            one = _row(r, path, where, players)
            (penalties if one.penalty else scored).append(one)
            if not one.penalty:
                here = (_wind(r[8], path, where, "prevailing"), _whole(r[3], path, where, "rotated", 0, 3),
                        _whole(r[4], path, where, "notrotated", 0, MAX_HANDS))
                if prevailing is None:
                    prevailing, rotated, notrotated = here
                elif here != (prevailing, rotated, notrotated):
                    raise InputError(_("{where}: the players' rows disagree on the round").format(
                        where=where), Location(path))
        if len(scored) != 4 or {r.player for r in scored} != players or {r.wind for r in scored} != set(Wind):
            raise InputError(_("{where}: not one row for each of the game's four players, each at a seat of their "
                               "own").format(where=where), Location(path))
        if sum(r.won for r in scored) > 1:
            raise InputError(_("{where}: more than one winner").format(where=where), Location(path))
        assert prevailing is not None and rotated is not None and notrotated is not None
        scored.sort(key=lambda x: x.wind.number)
        out.append(KajonggHand(number, prevailing, rotated, notrotated, tuple(scored), tuple(penalties)))
    return tuple(out)


def _row(r: tuple[Any, ...], path: str, where: str, players: set[int]) -> KajonggRow:
    pid = _whole(r[5], path, where, "player", 0, _LARGE)
    if pid not in players:
        raise InputError(_("{where}: a row of player {player}, who is not one of the game's four").format(
            where=where, player=pid), Location(path))
    rules = () if r[2] is None else tuple(
        x for x in _text(r[2], path, where, "manualrules", 0, MAX_TEXT).split("||") if x)
    return KajonggRow(
        player=pid,
        wind=_wind(r[9], path, where, "wind"),
        won=bool(_whole(r[6], path, where, "won", 0, 1)),
        points=_whole(r[10], path, where, "points", 0, _LARGE),
        payments=_whole(r[11], path, where, "payments", -_LARGE, _LARGE),
        balance=_whole(r[12], path, where, "balance", -_LARGE, _LARGE),
        data=_text(r[1] if r[1] is not None else "", path, where, "data", 0, MAX_TEXT),
        rules=rules,
        penalty=bool(_whole(r[7] if r[7] is not None else 0, path, where, "penalty", 0, 1)),
    )


def _whole(value: object, path: str, at: str, column: str, low: int, high: int) -> int:
    if type(value) is not int:
        raise InputError(_("{at}: {column} is {value}, not a whole number").format(
            at=at, column=column, value=excerpt(value)), Location(path))
    if not low <= value <= high:
        raise InputError(_("{at}: {column} is {value}, outside {low}..{high}").format(
            at=at, column=column, value=value, low=low, high=high), Location(path))
    return value


def _text(value: object, path: str, at: str, column: str, shortest: int, longest: int) -> str:
    if type(value) is not str:
        raise InputError(_("{at}: {column} is {value}, not text").format(
            at=at, column=column, value=excerpt(value)), Location(path))
    if not shortest <= len(value) <= longest:
        raise InputError(_("{at}: {column} is {n} characters long, not {shortest} to {longest}").format(
            at=at, column=column, n=len(value), shortest=shortest, longest=longest),
                         Location(path))
    return value


def _wind(value: object, path: str, at: str, column: str) -> Wind:
    if type(value) is bytes:
        value = value.decode("ascii", "replace")
    if type(value) is not str or value not in ("E", "S", "W", "N"):
        raise InputError(_("{at}: {column} is {value}, not a wind (E, S, W or N)").format(
            at=at, column=column, value=excerpt(value)), Location(path))
    return Wind(value)


# -- hand strings ------------------------------------------------------------------------------

class Source:
    """Where the last tile came from: Kajongg's `m` letter (src/tilesource.py)."""

    WALL = "w"
    DISCARD = "d"
    DEAD_WALL = "e"                 # a loose tile, after a kong or a bonus tile
    LAST_OF_WALL = "z"
    LAST_DISCARD = "Z"
    ROBBED_KONG = "k"
    EAST_14TH = "1"                 # East's fourteenth tile, dealt: heaven (East), earth (another)
    UNKNOWN = "."
    ALL = frozenset("wdezZk1.")


@dataclass(frozen=True)
class KMeld:
    """A word of a hand string: its tiles and its case pattern (`aaa`, `aaaA`, `aAAa`, `AAA`)."""

    tiles: tuple[Tile, ...]
    case: str

    @property
    def exposed(self) -> bool:
        return self.case.islower() or self.case == "aaaA"

    @property
    def kong(self) -> bool:
        return len(self.tiles) == 4 and self.case != "AAAA"


@dataclass(frozen=True)
class KHand:
    """A hand string taken apart."""

    melds: tuple[KMeld, ...]              # every meld word, in the order written
    bonus: tuple[Tile, ...]
    loose: tuple[Tile, ...]               # the `R` word: concealed tiles in no set
    source: str | None                    # the `m` letter, if any
    announcements: str                    # `a` original call, `t` twofold fortune
    last: Tile | None                     # the `L` tile
    last_exposed: bool                    # the `L` tile in lower case: a discard
    last_meld: KMeld | None               # the set the `L` tile completed


_GROUPS = {"s": "p", "b": "s", "c": "m"}
_WINDS = {"e": "E", "s": "S", "w": "W", "n": "N"}
_DRAGONS = {"b": "P", "g": "F", "r": "C"}
_BONUS_NUMBER = {"e": 1, "s": 2, "w": 3, "n": 4}


def kajongg_tile(text: str) -> tuple[Tile, bool]:
    """One Kajongg tile (`b3`, `We`, `Dr`, `fe`): the tile and whether it is exposed (lower case)."""
    if len(text) == 2:
        group, value = text[0], text[1]
        low = group.lower()
        if low in _GROUPS and value in "123456789":
            return tile(f"{value}{_GROUPS[low]}"), group.islower()
        if low == "w" and value in _WINDS:
            return tile(_WINDS[value]), group.islower()
        if low == "d" and value in _DRAGONS:
            return tile(_DRAGONS[value]), group.islower()
        if group in "fy" and value in _BONUS_NUMBER:
            n = _BONUS_NUMBER[value]
            return (flower(n) if group == "f" else season(n)), True
    raise ValueError(_("'{tile}' is not a tile").format(tile=excerpt(text, 30)))


def _tiles(word: str) -> list[tuple[Tile, bool]]:
    if len(word) % 2:
        raise ValueError(_("'{word}' is not whole tiles (two characters a tile)").format(word=excerpt(word, 30)))
    return [kajongg_tile(word[i:i + 2]) for i in range(0, len(word), 2)]


def _meld(word: str) -> KMeld:
    """A set as Kajongg's `Meld` reads one (src/tile.py, `Meld.__setMeldType`): a single tile (the
    Thirteen Unique Wonders' thirteen, src/rulecode.py `ThirteenOrphans.rearrange`), a pair, a
    pung, a kong (`aaaa`, `aaaA`, `aAAa`, `AAAA`), a chow, or a knitted set (`_knitted`)."""
    tiles = _tiles(word)
    case = "".join("a" if low else "A" for __, low in tiles)
    values = [t for t, __ in tiles]
    same = len(set(values)) == 1
    if not 1 <= len(tiles) <= 4 or any(t.is_bonus for t in values) \
            or case not in ("a", "A", "aa", "AA", "aaa", "AAA", "aaaa", "aaaA", "aAAa", "AAAA") \
            or (len(tiles) == 4 and not same) \
            or (len(tiles) in (2, 3) and not same and not _knitted(values) and not _chow(values)):
        raise ValueError(_("'{word}' is not a set Kajongg writes (a single tile, pair, pung, kong, chow or knitted "
                           "set)").format(word=excerpt(word, 30)))
    return KMeld(tuple(values), case)


def _chow(values: list[Tile]) -> bool:
    ranks = sorted(t.index for t in values)
    return (len(values) == 3 and len({t.suit for t in values}) == 1 and values[0].suit.is_numbered
            and ranks == list(range(ranks[0], ranks[0] + 3)))


def _knitted(values: list[Tile]) -> bool:
    """A knitted set (src/tile.py, `Meld.__setMeldType`): the same number in two suits (`S3B3`, a
    pair of Knitting) or in all three (`S3B3C3`, a set of Triple Knitting), all of one case, the
    suits in any order.  BMJA's two knitting hands are made of them (src/rulecode.py, `Knitting`
    and `TripleKnitting`), and Kajongg writes the winner's hand so."""
    return (all(t.suit.is_numbered for t in values) and len({t.rank for t in values}) == 1
            and len({t.suit for t in values}) == len(values))


def parse_hand_string(text: str) -> KHand:
    """A Kajongg hand string taken apart; ValueError, saying which word and why, for anything
    Kajongg does not write."""
    melds: list[KMeld] = []
    bonus: list[Tile] = []
    loose: list[Tile] = []
    source = None
    announcements = ""
    last: Tile | None = None
    last_exposed = False
    last_meld = None
    seen_r = seen_m = seen_l = False
    for word in text.split():
        kind = word[0]
        if kind == "R":
            if seen_r:
                raise ValueError(_("'{word}': a second R word (Kajongg writes the loose tiles as one)").format(
                    word=excerpt(word, 30)))
            seen_r = True
            for t, low in _tiles(word[1:]):
                if low or t.is_bonus:
                    raise ValueError(_("'{word}': the loose tiles are concealed tiles (upper case), no flower or "
                                       "season").format(word=excerpt(word, 30)))
                loose.append(t)
        elif kind == "m":
            if seen_m or len(word) < 2 or word[1] not in Source.ALL or any(c not in "at" for c in word[2:]) \
                    or len(set(word[2:])) != len(word[2:]):
                raise ValueError(_("'{word}' does not say where the last tile came from as Kajongg does (one m "
                                   "word: m, a source letter, then a or t)").format(word=excerpt(word, 30)))
            seen_m = True
            source, announcements = word[1], word[2:]
        elif kind == "L":
            if seen_l or len(word) < 3:
                raise ValueError(_("'{word}' is not the last tile as Kajongg writes it (one L word: L, the tile, "
                                   "the set it completed)").format(word=excerpt(word, 30)))
            seen_l = True
            last, last_exposed = kajongg_tile(word[1:3])      # a loser's may be a flower or season
            if last.is_bonus and len(word) > 3:
                raise ValueError(_("'{word}': a flower or season completes no set").format(
                    word=excerpt(word, 30)))
            last_meld = _meld(word[3:]) if len(word) > 3 else None
            if last_meld is not None and last not in last_meld.tiles:
                raise ValueError(_("'{word}': the last tile is not in the set it completed").format(
                    word=excerpt(word, 30)))
        elif kind in "fy" and len(word) == 2:
            t, __ = kajongg_tile(word)
            bonus.append(t)
        else:
            melds.append(_meld(word))
    return KHand(tuple(melds), tuple(bonus), tuple(loose), source, announcements, last, last_exposed, last_meld)
