"""The table model: what was on the table when the hand ended.

Plain frozen values, built by the readers (`notation`, `yamlform`) and read by everything after
them.  Source positions ride along for error messages but never take part in equality, so a
table read from YAML equals the same table read from the compact form.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from enum import Enum
from functools import lru_cache
from itertools import groupby
from operator import attrgetter, le
import unicodedata
from typing import Any, NamedTuple, Protocol

from mjscore.model.errors import Location
from mjscore.model.tiles import FLOWER_BASE, TILES, WIND_BASE, Tile, Wind


class SetKind(Enum):
    __hash__ = object.__hash__      # members are singletons: identity hashing, at C speed

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    KNITTED = "knitted"   # the same number in different suits (BMJA's knitting hands)
    SINGLE = "single"     # a tile that belongs to no set (a loser's, or thirteen orphans')


class Form(Enum):
    """How a set stands: written by the player, or arranged by mjscore from concealed tiles."""

    __hash__ = object.__hash__

    EXPOSED = "exposed"              # [ ]  claimed from a discard
    DECLARED_KONG = "declared kong"  # ( )  a concealed kong declared during play
    CLAIMED_KONG = "claimed kong"    # < >  a concealed pung completed by a claimed fourth tile
    GROUP = "group"                  # { }  concealed, laid out by the player, never regrouped
    CONCEALED = "concealed"          # arranged by mjscore from the concealed tiles


BRACKETS = {Form.EXPOSED: ("[", "]"), Form.DECLARED_KONG: ("(", ")"), Form.CLAIMED_KONG: ("<", ">"),
            Form.GROUP: ("{", "}"), Form.CONCEALED: ("", "")}
# Written sets that stand on the table, made with a claimed discard: scored as exposed, unless
# the scheme says otherwise for a claimed kong.
CLAIMED_FORMS = frozenset({Form.EXPOSED, Form.CLAIMED_KONG})


@lru_cache(maxsize=4096)
def set_kind(tiles: tuple[Tile, ...]) -> SetKind | None:
    """The kind of set these tiles make (sorted input), or None if they make none."""
    n = len(tiles)
    if not n:
        return None
    first = tiles[0]
    if n >= 2 and all(t == first for t in tiles):
        return {2: SetKind.PAIR, 3: SetKind.PUNG, 4: SetKind.KONG}.get(n)
    if (n == 3 and first.suit.is_numbered and tiles[1].index == first.index + 1
            and tiles[2].index == first.index + 2 and tiles[2].suit is first.suit):
        return SetKind.CHOW
    return None



def name_key(name: str) -> str:
    """How two players' names are compared: normalised (NFKC: a full-width or composed letter
    is the plain one) and without regard to case, so `from bob` is Bob."""
    return unicodedata.normalize("NFKC", name).casefold()


def _reduced(made: Any) -> tuple[Any, ...]:
    # Pickled as its class and the fields it is made from (`batch --jobs` sends tables to the
    # workers): a frozen dataclass compiled by mypyc cannot be unpickled field by field.
    return _rebuilt, (type(made), {f.name: getattr(made, f.name) for f in fields(made) if f.init})


def _rebuilt(kind: type[Any], values: dict[str, Any]) -> Any:
    return kind(**values)


@dataclass(frozen=True, slots=True)
class Meld:
    """A set (or a pair, in an arrangement): its tiles, sorted, and how it stands."""

    tiles: tuple[Tile, ...]
    form: Form
    # Worked out once, when the meld is made (or given by a reader that has just worked it
    # out): scoring asks a meld's kind many times.
    kind: SetKind | None = field(default=None, compare=False, repr=False, kw_only=True)
    # Its tiles' indices, worked out once, when the meld is made: every table's arrangements
    # and its written order read them (a player's groups come back table after table, made once
    # by the reader's memo, so this is paid once for each).
    indices: tuple[int, ...] = field(default=(), init=False, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduced(self)

    def __post_init__(self) -> None:
        if self.kind is None:
            object.__setattr__(self, "kind", set_kind(self.tiles))
        object.__setattr__(self, "indices", tuple(t.index for t in self.tiles))

    @property
    def tile(self) -> Tile:
        """The set's lowest tile: the tile of a pung or kong, the start of a chow."""
        return self.tiles[0]

    def text(self, *, style: str = "text") -> str:
        left, right = BRACKETS[self.form]
        return f"{left}{tiles_text(self.tiles, style=style, sep='')}{right}"

    def __str__(self) -> str:
        return self.text()


class WinFlag(Enum):
    __hash__ = object.__hash__

    LOOSE = "loose"
    LAST = "last"
    ROBBED = "robbed"
    HEAVEN = "heaven"
    EARTH = "earth"
    ORIGINAL_CALL = "original-call"
    TWOFOLD = "twofold"
    # Who discarded the winning tile was not recorded (a game imported from Kajongg, which does
    # not keep it): `from SEAT` stands in for the discarder, and the words never name it.
    UNRECORDED = "unrecorded"


@dataclass(frozen=True, slots=True)
class Win:
    tile: Tile | None                 # None only on a score-only line
    discarder: Wind | None            # None: self-drawn
    flags: frozenset[WinFlag] = frozenset()
    liable: Wind | None = None        # `liable SEAT`: that seat pays for all (a dangerous discard)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduced(self)

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None


class WordPlaces(Protocol):
    """A player's line as the reader read it: where it and each of its words stood."""

    @property
    def where(self) -> Location: ...

    def place(self, k: int) -> Location: ...


class AsWritten(NamedTuple):
    """A player's line as the reader found it, which a hand carries as one value and never
    compares: the line, which says where it and each of its words stood (the reader's: a place
    is worked out only when a message asks for it); where each tile stood, as (the number of the
    word on the line, the tiles it wrote); and the concealed tiles in the runs the player wrote
    them (`678s 99s`), so that a printout keeps them so.  One value rather than four fields: a
    frozen dataclass sets its fields one by one, and four hands are made for every table."""

    line: WordPlaces | None = None
    tile_places: tuple[tuple[int, tuple[Tile, ...]], ...] = ()
    runs: tuple[tuple[Tile, ...], ...] = ()


NOT_WRITTEN = AsWritten()       # a hand made by a program, not read from a line
_NOWHERE = Location()


@dataclass(frozen=True, slots=True)
class PlayerHand:
    seat: Wind
    concealed: tuple[Tile, ...] = ()          # loose concealed tiles, sorted
    melds: tuple[Meld, ...] = ()              # the groups the player wrote: [ ] ( ) { }
    bonus: tuple[Tile, ...] = ()              # flowers and seasons, sorted
    incomplete: bool = False                  # `...`: tiles that score nothing were left out
    claim: int | None = None                  # `= N`
    score: int | None = None                  # `score N`: a counted score, no tiles
    win: Win | None = None
    name: str | None = None
    discards: tuple[Tile, ...] = ()           # `discarded 5p`: her own discards since her last draw, sorted
    # The line as the reader found it, for messages and printing: the same hand however it was written.
    written: AsWritten = field(default=NOT_WRITTEN, compare=False, repr=False)
    _hash: int | None = field(default=None, init=False, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduced(self)

    def __hash__(self) -> int:
        # Remembered: the arrangement search is memoised on the hand, which hashes every tile.
        h = self._hash
        if h is None:
            # The compared fields (`_COMPARED`), each tile by its index: a tuple of tiles would
            # call a tile's Python __hash__ for each of them (16 a winner).
            h = hash((self.seat, tuple(map(_INDEX_OF, self.concealed)), tuple(map(_MELD_KEY, self.melds)),
                      tuple(map(_INDEX_OF, self.bonus)), self.incomplete, self.claim, self.score, self.win,
                      self.name, tuple(map(_INDEX_OF, self.discards))))
            object.__setattr__(self, "_hash", h)
        return h

    @property
    def where(self) -> Location:
        """Where the player's line stood (worked out when a message asks)."""
        line = self.written.line
        return line.where if line is not None else _NOWHERE

    @property
    def is_winner(self) -> bool:
        return self.win is not None

    @property
    def kongs(self) -> int:
        return list(map(_KIND, self.melds)).count(SetKind.KONG) if self.melds else 0

    @property
    def tile_count(self) -> int:
        """Playing tiles held (bonus tiles aside), a kong counting four."""
        return len(self.concealed) + sum(map(len, map(_MELD_TILES, self.melds)))

    def all_tiles(self) -> tuple[Tile, ...]:
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return tuple(out)

    def place_of(self, t: Tile) -> Location:
        """Where the last word of tile `t` stood on this player's line, or the line itself."""
        found = None
        line, places, __ = self.written
        for k, tiles in places:
            if t in tiles:
                found = k
        return line.place(found) if found is not None and line is not None else self.where


# The fields that make two hands equal, and so their hash.
_COMPARED = tuple(f.name for f in fields(PlayerHand) if f.compare)
_INDEX_OF = attrgetter("index")
_MELD_KEY = attrgetter("indices", "form")
_KIND = attrgetter("kind")
_MELD_TILES = attrgetter("tiles")


class SeatPenalty(NamedTuple):
    """`penalty SEAT N`: SEAT pays N to each other player; `... to SEAT`: to that one player."""

    payer: Wind
    amount: int
    payee: Wind | None = None


# What a table carries over from the hands before it (a session counts these itself): header
# word -> Table field.
COUNTERS = {"dealer-wins": "dealer_wins", "kitty-deals": "kitty_deals", "extra-hands": "extra_hands"}
# A hand's number in the record it was imported from, shown beside its own (Kajongg counts from
# 0); it changes no score.
RECORD_NUMBERS = {"kajongg-hand": "kajongg_hand"}


@dataclass(frozen=True, slots=True)
class Table:
    players: tuple[PlayerHand, ...] = ()      # in seat order E S W N, each seat at most once
    round: Wind = Wind.EAST                   # the prevailing wind
    scheme: str | None = None
    draw: bool = False
    dealer_wins: int = 0                      # East's wins in a row before this hand
    kitty_deals: int = 0                      # deals whose stakes lie in the kitty, this one not counted
    extra_hands: int = 0                      # East's extra hands before this one: deals kept in a row
    kajongg_hand: int | None = None           # the hand's own number in the Kajongg game it came from
    penalties: tuple[SeatPenalty, ...] = ()
    # The settings its header gives (model.settings.SETTINGS), as (name, value) in their order.
    options: tuple[tuple[str, object], ...] = ()
    where: Location = field(default_factory=Location, compare=False, repr=False)
    # Which of `round` and the COUNTERS the text stated (a session checks them against its count).
    stated: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    # The players' names in seat order E S W N, where an evening knows them: messages name them.
    names: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduced(self)

    def option(self, name: str) -> object:
        return dict(self.options).get(name)

    @property
    def winner(self) -> PlayerHand | None:
        for p in self.players:
            if p.win is not None:
                return p
        return None

    @property
    def winning(self) -> tuple[PlayerHand, Win] | None:
        """The winner and the win clause together (the winner's `win` is never None)."""
        for p in self.players:
            if p.win is not None:
                return p, p.win
        return None

    def who(self, seat: Wind) -> str:
        """The player at `seat` as a message names her: by name within an evening, else by seat."""
        return self.names[seat.number - 1] if self.names else seat.letter

    def player(self, seat: Wind) -> PlayerHand | None:
        for p in self.players:
            if p.seat is seat:
                return p
        return None


def tiles_text(tiles: Iterable[Tile], *, style: str = "text", sep: str = " ") -> str:
    """Tiles in compact notation, one run per suit and per honour: `234678m 55p EEE NN`.

    `style="unicode"` writes the glyphs instead, one per tile.
    """
    if style == "unicode":
        return "".join(t.glyph for t in sorted(tiles))
    return indices_text(sorted(t.index for t in tiles), sep)


def indices_text(indices: Iterable[int], sep: str = " ") -> str:
    """`tiles_text` of tile indices, sorted: what every printed breakdown calls, so it reads
    plain integers rather than tile objects.

    Sorted indices (every block's, every sorted hand's) are cut at the suits' bounds and each
    suit's ranks written in one join: a loser's leftover tiles are written for every table, and
    this way (C's loops, not one Python step a tile): 565 Python opcodes a table, not 831.
    Indices out of order are written tile by tile, a chunk each time the suit changes."""
    idx = indices if isinstance(indices, (tuple, list)) else list(indices)
    if not all(map(le, idx, idx[1:])):
        return _indices_text_in_order(idx, sep)
    chunks: list[str] = []
    dots = bisect_left(idx, 9)
    bamboo = bisect_left(idx, 18, dots)
    honours = bisect_left(idx, WIND_BASE, bamboo)
    if dots:
        chunks.append("".join(map(_DIGIT_OF.__getitem__, idx[:dots])) + "m")
    if bamboo > dots:
        chunks.append("".join(map(_DIGIT_OF.__getitem__, idx[dots:bamboo])) + "p")
    if honours > bamboo:
        chunks.append("".join(map(_DIGIT_OF.__getitem__, idx[bamboo:honours])) + "s")
    if honours < len(idx):
        for i, copies in groupby(idx[honours:]):
            n = len(list(copies))
            if i < FLOWER_BASE:
                chunks.append(_TEXT_OF[i] * n)        # EEE: an honour's copies run together
            else:
                chunks.extend([_TEXT_OF[i]] * n)
    return sep.join(chunks)


def _indices_text_in_order(indices: Iterable[int], sep: str) -> str:
    chunks: list[str] = []
    digits = ""
    suit = -1
    for i in indices:
        if i < WIND_BASE:
            if i // 9 != suit and digits:
                chunks.append(digits + _SUIT_LETTER[suit])
                digits = ""
            suit = i // 9
            digits += _RANK_DIGIT[i % 9]
            continue
        if digits:
            chunks.append(digits + _SUIT_LETTER[suit])
            digits, suit = "", -1
        text = TILES[i].text
        if i < FLOWER_BASE and chunks and chunks[-1][-1] == text and not chunks[-1][0].isdigit():
            chunks[-1] += text            # EEE: an honour's copies run together
        else:
            chunks.append(text)
    if digits:
        chunks.append(digits + _SUIT_LETTER[suit])
    return sep.join(chunks)


_SUIT_LETTER = "mps"
_RANK_DIGIT = "123456789"
_TEXT_OF = tuple(t.text for t in TILES)
_DIGIT_OF = tuple(_RANK_DIGIT[i % 9] for i in range(WIND_BASE))     # a numbered tile index -> its rank digit
