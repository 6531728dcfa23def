"""The 34 tile kinds and the 8 bonus tiles.

A tile is an immutable value; the 42 of them are made once and looked up by index or text.
Index order is the notation's sort order: characters, dots, bamboo (1-9 each), winds E S W N,
dragons C F P (red, green, white), then flowers 1-4 and seasons 1-4.  Scoring works on index
arrays (counts over the 34 kinds), so the index is what the engine uses; the rest of this
module is for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from mjscore.model.say import N_, Said, _

# A seat, and a round, by its wind's letter: what every result and payment writes.
SeatLetter = Literal["E", "S", "W", "N"]


class Suit(Enum):
    __hash__ = object.__hash__      # members are singletons: identity hashing, at C speed

    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    WIND = "wind"
    DRAGON = "dragon"
    FLOWER = "f"
    SEASON = "y"

    @property
    def is_numbered(self) -> bool:
        return self in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)

    @property
    def is_honour(self) -> bool:
        return self in (Suit.WIND, Suit.DRAGON)

    @property
    def is_bonus(self) -> bool:
        return self in (Suit.FLOWER, Suit.SEASON)


class Wind(Enum):
    """A wind, as a tile, a seat or the prevailing wind of a round (E is the dealer's seat)."""

    __hash__ = object.__hash__

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"

    # Plain attributes, set once below: scoring asks a seat's number for every set and pair,
    # and an enum property is a Python call each time.
    number: int          # 1 for East ... 4 for North: the number of its flower and season
    letter: SeatLetter   # E S W N, its value: what every result and payment writes

    @property
    def tile(self) -> Tile:
        return TILES[WIND_BASE + self.number - 1]

    def next(self, steps: int = 1) -> Wind:
        return _WIND_ORDER[(_WIND_ORDER.index(self) + steps) % 4]

    def __str__(self) -> str:
        return self.letter


_WIND_ORDER = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
SEATS = _WIND_ORDER


def _number_the_seats() -> None:
    """Each wind's seat number (East 1) and letter, kept on the member: read for every tile and seat."""
    for number, wind in enumerate(_WIND_ORDER, start=1):
        wind.number, wind.letter = number, wind.value


_number_the_seats()
# The seats as the plain forms of results write them (E S W N), as people say them (East ...),
# and from their letter back to the wind.
SEAT_LETTERS: tuple[SeatLetter, ...] = tuple(w.letter for w in SEATS)
# Said where read, in the reader's language (say.Said).
SEAT_WORDS: Mapping[str, str] = Said({"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")})
WIND_BY_LETTER: dict[str, Wind] = {w.letter: w for w in SEATS}


class Dragon(Enum):
    RED = "C"
    GREEN = "F"
    WHITE = "P"


_DRAGONS = (Dragon.RED, Dragon.GREEN, Dragon.WHITE)
NUMBERED_SUITS = (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)
WIND_BASE = 27
DRAGON_BASE = 31
FLOWER_BASE = 34
SEASON_BASE = 38
KINDS = 34          # playing tile kinds: 4 copies of each
ALL_TILES = 42      # with the 8 bonus tiles

# The tiles' names, as a player reads them (`Tile.name`, said in the language in use where it is
# asked for: a message, never scoring): a numbered tile's by its suit, the rank put in.
_DRAGON_NAMES = {Dragon.RED: N_("red dragon"), Dragon.GREEN: N_("green dragon"), Dragon.WHITE: N_("white dragon")}
_SUIT_NAMES = {Suit.CHARACTERS: N_("{rank} characters"), Suit.DOTS: N_("{rank} dots"),
               Suit.BAMBOO: N_("{rank} bamboo")}
_WIND_NAMES = (N_("east wind"), N_("south wind"), N_("west wind"), N_("north wind"))
_FLOWER_NAMES = (N_("plum"), N_("orchid"), N_("chrysanthemum"), N_("bamboo"))
_SEASON_NAMES = (N_("spring"), N_("summer"), N_("autumn"), N_("winter"))


def _suit_of(i: int) -> Suit:
    if i < WIND_BASE:
        return NUMBERED_SUITS[i // 9]
    if i < DRAGON_BASE:
        return Suit.WIND
    if i < FLOWER_BASE:
        return Suit.DRAGON
    if i < SEASON_BASE:
        return Suit.FLOWER
    return Suit.SEASON


def _rank_of(i: int) -> int:
    for base in (SEASON_BASE, FLOWER_BASE, DRAGON_BASE, WIND_BASE):
        if i >= base:
            return i - base + 1
    return i % 9 + 1


@dataclass(frozen=True, slots=True, eq=False)
class Tile:
    """One tile kind. Compare and sort by index (the notation's order).

    Suit and rank are stored, not computed: scoring asks for them millions of times.  There is
    one Tile of each kind (`TILES`; unpickled and copied as that one), so two tiles are equal
    when they are the same object: `tile in hand` is asked in C, not through a Python `__eq__`
    for every other tile (ten times a table, each a Python call).
    """

    index: int
    suit: Suit = field(default=Suit.CHARACTERS, compare=False, repr=False)   # set from the index
    rank: int = field(default=0, compare=False, repr=False)   # 1-9; winds, bonus 1-4 (E=1); dragons 1-3

    def __post_init__(self) -> None:
        object.__setattr__(self, "suit", _suit_of(self.index))
        object.__setattr__(self, "rank", _rank_of(self.index))

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled as the one tile of its index (`TILES`), not a copy: a compiled Tile (frozen,
        # slotted) cannot be unpickled field by field, and the tiles are made once.
        return _tile_at, (self.index,)

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index

    def __le__(self, other: Tile) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Tile) -> bool:
        return self.index > other.index

    def __ge__(self, other: Tile) -> bool:
        return self.index >= other.index

    @property
    def wind(self) -> Wind | None:
        return _WIND_ORDER[self.rank - 1] if self.suit is Suit.WIND else None

    @property
    def owner(self) -> Wind | None:
        """The seat a flower or season belongs to (flower n to seat n)."""
        return _WIND_ORDER[self.rank - 1] if self.is_bonus else None

    # -- classes ----------------------------------------------------------------------------
    @property
    def is_bonus(self) -> bool:
        return self.index >= FLOWER_BASE

    @property
    def is_honour(self) -> bool:
        return WIND_BASE <= self.index < FLOWER_BASE

    @property
    def is_terminal(self) -> bool:
        return self.index < WIND_BASE and self.rank in (1, 9)

    @property
    def is_major(self) -> bool:
        """A terminal or an honour: the tiles whose sets score double."""
        return self.is_terminal or self.is_honour

    @property
    def is_simple(self) -> bool:
        return self.index < WIND_BASE and 2 <= self.rank <= 8

    # -- text -------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """Canonical notation: 5p, E, C, 2f, 3y."""
        return _TEXT[self.index]

    @property
    def glyph(self) -> str:
        """The Unicode Mahjong Tiles glyph (U+1F000 block)."""
        return chr(_GLYPH[self.index])

    @property
    def name(self) -> str:
        s = self.suit
        if s.is_numbered:
            return _(_SUIT_NAMES[s]).format(rank=self.rank)
        if s is Suit.WIND:
            return _(_WIND_NAMES[self.rank - 1])
        if s is Suit.DRAGON:
            return _(_DRAGON_NAMES[_DRAGONS[self.rank - 1]])
        if s is Suit.FLOWER:
            return _("flower {rank} ({flower})").format(rank=self.rank, flower=_(_FLOWER_NAMES[self.rank - 1]))
        return _("season {rank} ({season})").format(rank=self.rank, season=_(_SEASON_NAMES[self.rank - 1]))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"tile({self.text!r})"


def _texts() -> list[str]:
    out = [f"{r}{s.value}" for s in NUMBERED_SUITS for r in range(1, 10)]
    out += ["E", "S", "W", "N", "C", "F", "P"]
    out += [f"{r}f" for r in range(1, 5)] + [f"{r}y" for r in range(1, 5)]
    return out


def _glyphs() -> list[int]:
    # The Unicode block orders characters, bamboo, circles; winds; red, green, white dragon;
    # plum, orchid, bamboo, chrysanthemum; spring ... winter.
    chars = [0x1F007 + r for r in range(9)]
    dots = [0x1F019 + r for r in range(9)]
    bamboo = [0x1F010 + r for r in range(9)]
    winds = [0x1F000, 0x1F001, 0x1F002, 0x1F003]
    dragons = [0x1F004, 0x1F005, 0x1F006]
    flowers = [0x1F022, 0x1F023, 0x1F025, 0x1F024]  # plum, orchid, chrysanthemum, bamboo
    seasons = [0x1F026 + r for r in range(4)]
    return chars + dots + bamboo + winds + dragons + flowers + seasons


_TEXT = _texts()
_GLYPH = _glyphs()
TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(ALL_TILES))
_BY_TEXT = {t: TILES[i] for i, t in enumerate(_TEXT)}


BY_GLYPH = {chr(g): TILES[i] for i, g in enumerate(_GLYPH)}     # the tile pictures, read back


def _tile_at(index: int) -> Tile:
    return TILES[index]


def tile(text: str) -> Tile:
    """The tile of a canonical text (`5p`, `E`, `C`, `2f`); KeyError if there is none."""
    return _BY_TEXT[text]


def numbered(suit: Suit, rank: int) -> Tile:
    return TILES[NUMBERED_SUITS.index(suit) * 9 + rank - 1]


def flower(n: int) -> Tile:
    return TILES[FLOWER_BASE + n - 1]


def season(n: int) -> Tile:
    return TILES[SEASON_BASE + n - 1]
