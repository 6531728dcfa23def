"""The compact notation, both ways: text -> `Table` (parse) and `Table` -> canonical text (print).

Grammar (see docs/notation.md): a table is a run of lines; `#`
starts a comment, `;` stands for a line break, a line `---` separates tables.  A line is a
header (`round W`, `scheme NAME`, `draw`, `dealer-wins N`, a settlement option...) or a player line `SEAT: item...`.

It parses the text or the lines it is handed; reading them (files, standard input, the form) is io.reader's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any, Literal, NamedTuple, overload

from mjscore.io.text import MAX_LINE, text_lines, too_long
from mjscore.model.errors import GroupError, Location, MjError, NotationError, excerpt
from mjscore.model.settings import ROTATION, SETTINGS, Setting, SettingError, header_lines, ordered
from mjscore.model.table import (
    COUNTERS,
    RECORD_NUMBERS,
    AsWritten,
    Form,
    Meld,
    SeatPenalty,
    PlayerHand,
    SetKind,
    Table,
    Win,
    WinFlag,
    name_key,
    set_kind,
    tiles_text,
)
from mjscore.model.tiles import (
    BY_GLYPH,
    DRAGON_BASE,
    FLOWER_BASE,
    SEASON_BASE,
    SEATS,
    TILES,
    WIND_BASE,
    WIND_BY_LETTER,
    Tile,
    Wind,
)
from mjscore.model.say import N_, _, n_

MAX_SCORE = 10**9
# Where a position inside a value stands in its file: (line, column) in the text -> (line,
# column) in the file, for text that sits inside another form (a YAML string).
ColumnOf = Callable[[int, int], tuple[int, int]]
# A run's tiles, its playing tiles, and its flowers and seasons.
RunParts = tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...]]

FLAGS = {f.value: f for f in WinFlag}
TABLE_SETTINGS = {s.word: s for s in SETTINGS}          # the settings a table's header may give
SESSION_SETTINGS = {s.word: s for s in SETTINGS + ROTATION}   # ... and a session's
HEADERS = ("round", "scheme", "draw", *COUNTERS, *RECORD_NUMBERS, "penalty", *TABLE_SETTINGS)
_OPEN = {"[": Form.EXPOSED, "(": Form.DECLARED_KONG, "<": Form.CLAIMED_KONG, "{": Form.GROUP}
_CLOSE = {"[": "]", "(": ")", "<": ">", "{": "}"}

# The token grammar.  A word is anything up to white space, a bracket or `=`; a token is a
# bracket, `=`, `...`, or a word (`_WORD`).  When a line is read, a group written without spaces
# (`[777p]`, `(5555p)`) is one token too (`_TOKEN`): the same groups come back table after table,
# and each is read once (`_compact_meld`).
_PLAIN = r"[^\s\[\](){}<>=]+"
_WORD = re.compile(rf"[\[\](){{}}<>]|\.\.\.|=|{_PLAIN}")
_TOKEN = re.compile("|".join(rf"\{left}{_PLAIN}\{right}" for left, right in ("[]", "()", "<>", "{}"))
                    + "|" + _WORD.pattern)

# One unit of a tile run: digits with their suit letter, an honour alias, or an honour letter.
_UNIT = re.compile(r"(?P<digits>[0-9]+)(?P<suit>[mpscdbzfy])|(?P<alias>Rd|Gd|Wd)|(?P<honour>[ESWNCFP])")
_SUIT_BASE = {"m": 0, "c": 0, "p": 9, "d": 9, "s": 18, "b": 18}
_Z = {1: "E", 2: "S", 3: "W", 4: "N", 5: "P", 6: "F", 7: "C"}
_HONOUR = {"E": WIND_BASE, "S": WIND_BASE + 1, "W": WIND_BASE + 2, "N": WIND_BASE + 3,
           "C": DRAGON_BASE, "F": DRAGON_BASE + 1, "P": DRAGON_BASE + 2}
_ALIAS = {"Rd": "C", "Gd": "F", "Wd": "P"}
# A run's digits, suit by suit: each rank's digit and its tile (the numbered suits 1-9, `z` the
# seven honours, flowers and seasons 1-4).
_DIGIT_TILES: dict[str, dict[str, Tile]] = {
    **{suit: {str(r): TILES[base + r - 1] for r in range(1, 10)} for suit, base in _SUIT_BASE.items()},
    "z": {str(r): TILES[_HONOUR[letter]] for r, letter in _Z.items()},
    "f": {str(r): TILES[FLOWER_BASE + r - 1] for r in range(1, 5)},
    "y": {str(r): TILES[SEASON_BASE + r - 1] for r in range(1, 5)},
}


class Token(NamedTuple):
    """One word of the input and where it stood.  The place is kept as plain fields and made a
    Location only when a message asks for it: a batch splits millions of words and reports few."""

    text: str
    file: str
    line: int
    column: int

    @classmethod
    def at(cls, text: str, where: Location) -> Token:
        return cls(text, where.file, where.line, where.column)

    @property
    def where(self) -> Location:
        return Location(self.file, self.line, self.column)


# -- tiles --------------------------------------------------------------------------------------

def parse_run(word: str) -> tuple[Tile, ...] | None:
    """The tiles of one run (`123m`, `EEE`, `1z`, `Rd`, `2f`), or None if it is not one."""
    parts = run_parts(word)
    return parts[0] if parts is not None else None


def run_parts(word: str) -> RunParts | None:
    """A run's tiles, its playing tiles and its flowers and seasons; None if it is no run.

    Short runs are remembered: the same ones come back table after table in a batch.
    """
    return _short_run_parts(word) if len(word) <= 24 else _parts(_parse_run(word))


@lru_cache(maxsize=4096)
def _short_run_parts(word: str) -> RunParts | None:
    return _parts(_parse_run(word))


def _parts(run: tuple[Tile, ...] | None) -> RunParts | None:
    if run is None:
        return None
    flowers = tuple(x for x in run if x.index >= FLOWER_BASE)
    return run, (tuple(x for x in run if x.index < FLOWER_BASE) if flowers else run), flowers


def _parse_run(word: str) -> tuple[Tile, ...] | None:
    if word and word[0] in BY_GLYPH:             # tile pictures, as `show --tiles unicode` prints them
        glyphs = word.replace("\ufe0e", "").replace("\ufe0f", "")
        return tuple(BY_GLYPH[ch] for ch in glyphs) if all(ch in BY_GLYPH for ch in glyphs) else None
    out: list[Tile] = []
    pos = 0
    while pos < len(word):
        m = _UNIT.match(word, pos)
        if not m:
            return None
        pos = m.end()
        if m["digits"]:
            # Each digit's tile looked up in C: a rank out of range for the suit (0m, 8z, 5f) has none.
            by_digit = _DIGIT_TILES[m["suit"]]
            digits = m["digits"]
            if not all(map(by_digit.__contains__, digits)):
                return None
            out.extend(map(by_digit.__getitem__, digits))
        elif m["alias"]:
            out.append(TILES[_HONOUR[_ALIAS[m["alias"]]]])
        else:
            out.append(TILES[_HONOUR[m["honour"]]])
    return tuple(out) or None


def parse_tile(word: str) -> Tile | None:
    ts = parse_run(word)
    return ts[0] if ts and len(ts) == 1 else None


# -- lines and tokens ---------------------------------------------------------------------------

class Line(NamedTuple):
    """One logical line: its words, and where they stood.

    A word's place is found again from the line's text only when a message asks for it: a batch
    reads millions of words and reports few, so the reader keeps the words as plain strings (the
    regular expression's `findall`) and makes no token for them.  A line made of tokens gathered
    elsewhere (the YAML reader's fields, a session's names put in seats) carries them (`given`).
    """

    words: Sequence[str]
    file: str = "<input>"
    number: int = 0                           # its line in the file
    start: int = 0                            # where `text` starts on that line (0: the first column)
    text: str = ""                            # what the words were read from
    given: tuple[Token, ...] | None = None

    @classmethod
    def of_tokens(cls, tokens: Sequence[Token]) -> Line:
        return cls(tuple(t.text for t in tokens), given=tuple(tokens))

    @property
    def tokens(self) -> tuple[Token, ...]:
        """Each word with its place."""
        if self.given is not None:
            return self.given
        return tuple(Token(m[0], self.file, self.number, self.start + m.start() + 1)
                     for m in _TOKEN.finditer(self.text))

    def token(self, k: int) -> Token:
        return self.tokens[k]

    def place(self, k: int) -> Location:
        """Where word `k` stood."""
        return self.tokens[k].where

    @property
    def where(self) -> Location:
        """Where the line's first word stood."""
        if self.given is not None:
            return self.given[0].where
        # Every character but white space starts a word (a bracket, `=`, `...` or a plain word),
        # so the first word stands after the text's leading white space: no search is needed, and
        # every player line asks (`\\s` and `str.lstrip` know the same white space).
        text = self.text
        rest = text.lstrip()
        return Location(self.file, self.number, self.start + (len(text) - len(rest) if rest else 0) + 1)


def split_tables(text: str, file: str = "<input>", first_line: int = 1) -> Iterator[tuple[int, str]]:
    """Yield (first line number, text) of each `---`-separated table.  (A session's: read whole and
    kept as written, for its next reading to read only what was appended; tables go `tables_in`.)"""
    start = first_line
    buf: list[str] = []
    for n, raw in enumerate(text.split("\n"), start=first_line):
        if raw.strip() == "---":
            yield start, "\n".join(buf)
            buf = []
            start = n + 1
        else:
            buf.append(raw)
    yield start, "\n".join(buf)


def logical_lines(text: str, file: str = "<input>", first_line: int = 1,
                  column_of: ColumnOf | None = None) -> Iterator[Line]:
    """The lines' words: comments dropped, `;` splitting a line in two, empty lines skipped.

    `column_of(line_no, col)` maps a position in `text` to a position in the file (YAML block
    strings sit indented in their file); the default is the identity.
    """
    for n, raw in enumerate(text.split("\n"), start=first_line):
        if len(raw) > MAX_LINE:
            raise NotationError(too_long(),
                                _loc(file, n, 1, column_of))
        body = raw.split("#", 1)[0]
        col = 0
        for segment in body.split(";"):
            if column_of is None:
                words = _TOKEN.findall(segment)
                if words:
                    yield Line(words, file, n, col, segment)
            else:
                tokens = [Token.at(m[0], _loc(file, n, col + m.start() + 1, column_of))
                          for m in _TOKEN.finditer(segment)]
                if tokens:
                    yield Line.of_tokens(tokens)
            col += len(segment) + 1


def _loc(file: str, line: int, col: int, column_of: ColumnOf | None) -> Location:
    if column_of is not None:
        line, col = column_of(line, col)
    return Location(file, line, col)


class TableText(NamedTuple):
    """One table of a compact file, not yet parsed: a worker process parses it (`batch --jobs`)."""

    text: str
    file: str
    first: int                        # the line it starts on

    def parse(self) -> Table:
        return parse_table(self.text, self.file, self.first)


MAX_TABLE_CHARS = 100_000       # a table longer than this (a few hundred lines) is no table


@overload
def tables_in(numbered_lines: Iterable[tuple[int, str | MjError]], file: str, parse: Literal[True] = True,
              every_chunk: bool = False) -> Iterator[tuple[int, Table | MjError]]: ...
@overload
def tables_in(numbered_lines: Iterable[tuple[int, str | MjError]], file: str, parse: bool,
              every_chunk: bool = False) -> Iterator[tuple[int, Table | TableText | MjError]]: ...
def tables_in(numbered_lines: Iterable[tuple[int, str | MjError]], file: str, parse: bool = True,
              every_chunk: bool = False) -> Iterator[tuple[int, Table | TableText | MjError]]:
    """(line, Table | MjError) for each `---`-separated table of numbered lines (as io.text's
    `lines_of` and `text_lines` give them), parsed as each `---` arrives, so memory does not grow
    with the number of tables.  With `parse` False a table comes as its TableText (at the line it
    starts on), for another process to parse.  A table longer than MAX_TABLE_CHARS is an error
    row as soon as it is, and its lines up to the next `---` are passed over, not kept: a stream
    with no `---` costs no more than one table.  Tables of comments alone are passed over, but
    with `every_chunk` (`parse_tables`), where each is a table that lists no players."""
    chunk: list[str] = []
    size = 0
    first = 1
    problem: MjError | None = None

    def emit() -> tuple[int, Table | TableText | MjError] | None:
        if problem is not None:
            return first, problem
        text = "\n".join(chunk)
        if not parse:
            return (first, TableText(text, file, first)) if holds_anything(chunk) else None
        try:
            # Its lines read once: whether it holds anything but comments, and then the table.
            lines = list(logical_lines(text, file, first))
            if not lines and not every_chunk and not holds_anything(chunk):
                return None                             # comments alone (`;` alone is an empty table)
            table = parse_table(text, file, first, lines=lines)
            return table.where.line, table
        except MjError as e:
            return first, e

    for number, line in numbered_lines:
        if isinstance(line, MjError):
            problem = problem or line
        elif line.strip() == "---":
            if problem is not _TOO_LONG:
                out = emit()
                if out is not None:
                    yield out
            chunk, size, first, problem = [], 0, number + 1, None
        elif problem is _TOO_LONG:
            continue                                    # passed over until the next `---`
        else:
            chunk.append(line)
            size += len(line) + 1
            if size > MAX_TABLE_CHARS:
                yield first, NotationError(_("this table is longer than {most} characters with no '---' to end it; "
                                             "its lines are passed over up to the next '---'").format(
                                                 most=f"{MAX_TABLE_CHARS:,}"),
                                           Location(file, first, 1))
                chunk, problem = [], _TOO_LONG
    if problem is not _TOO_LONG:
        out = emit()
        if out is not None:
            yield out


def holds_anything(lines: Iterable[str]) -> bool:
    """Whether a table's lines hold anything but comments and blank lines."""
    return any(ln.split("#", 1)[0].strip() for ln in lines)


_TOO_LONG = NotationError(N_("too long"))         # the mark of a table whose lines are being passed over


# -- the parser ---------------------------------------------------------------------------------

def parse_tables(text: str, file: str = "<input>") -> list[Table]:
    """Every `---`-separated table of a compact-notation text, each of them a table (one of
    comments alone is an error too); the first error is raised."""
    tables: list[Table] = []
    for __, item in tables_in(text_lines(text.split("\n"), file), file, every_chunk=True):
        if isinstance(item, MjError):
            raise item
        tables.append(item)
    return tables


def name_seat(names: Mapping[str, str], word: str) -> str | None:
    """The seat letter a player's name sits at (`names`: name -> seat letter), or None.  Names
    match as `name_key` compares them: `from bob` is Bob."""
    seat = names.get(word)
    if seat is None:
        key = name_key(word)
        seat = next((s for n, s in names.items() if name_key(n) == key), None)
    return seat


_NAMED = ("from", "liable", "penalty", "to")       # the words a seat (or a player's name) follows


def resolve_names(tokens: tuple[Token, ...], names: dict[str, str]) -> tuple[Token, ...]:
    """A line with players' names where seats go (`Ann: ...`, `from Bob`, `liable Cid`,
    `penalty Dee 100 to Ann`) turned into the seats they sit in for this hand.  A word where a
    player goes that is neither a seat nor a player's name is refused, naming the players."""
    out = list(tokens)
    head = out[0].text
    own = None
    if head.endswith(":") and (seat := name_seat(names, head[:-1])) is not None:
        out[0] = out[0]._replace(text=seat + ":")
        own = seat
    elif ":" in head and (seat := name_seat(names, head.split(":", 1)[0])) is not None:   # `Ann:123m`
        name, rest = head.split(":", 1)
        out[0:1] = [out[0]._replace(text=seat + ":"),
                    out[0]._replace(text=rest, column=out[0].column + len(name) + 1)]
        own = seat
    elif head[:-1] in WIND_BY_LETTER and head.endswith(":"):
        own = head[:-1]
    for i in range(len(out) - 1):
        if out[i].text not in _NAMED:
            continue
        tok = out[i + 1]
        seat = tok.text if tok.text in WIND_BY_LETTER else name_seat(names, tok.text)
        if seat is None:
            if out[i].text == "penalty" and tok.text.isdigit():
                continue                         # the parser says what 'penalty' takes
            raise NotationError(_("no player '{token}' at this table: {players}").format(
                token=excerpt(tok.text), players=', '.join(names)), tok.where,
                                tok.text)
        if out[i].text == "from" and seat == own:
            who = next((n for n, s in names.items() if s == seat), seat)
            raise NotationError(_("{player} cannot win on her own discard: 'from' names another player").format(
                player=who), tok.where,
                                tok.text)
        out[i + 1] = tok._replace(text=seat)
    return tuple(out)


def parse_table(text: str, file: str = "<input>", first_line: int = 1, column_of: ColumnOf | None = None,
                allow_empty: bool = False, names: dict[str, str] | None = None,
                settings: Mapping[str, Setting[Any]] = TABLE_SETTINGS,
                lines: Iterable[Line] | None = None) -> Table:
    """One table in compact notation. Raises NotationError (or GroupError) on bad input.

    `names` (a player's name -> the seat letter it sits at) lets a session's hand name its
    players wherever a seat goes; `settings` are the settings its header may give, by word (a
    session's header may give more); `lines`, the text's `logical_lines`, where the caller has
    read them already."""
    round_wind = Wind.EAST
    scheme = None
    draw = False
    counters: dict[str, int] = {}
    seen_headers: dict[str, Line] = {}
    players: dict[Wind, PlayerHand] = {}
    penalties: list[SeatPenalty] = []
    options: dict[str, object] = {}
    where = None
    for line in logical_lines(text, file, first_line, column_of) if lines is None else lines:
        if names:
            line = Line.of_tokens(resolve_names(line.tokens, names))
        where = where or line.where
        word = line.words[0]
        if len(word) > 2 and word[1] == ":" and word[0] in WIND_BY_LETTER:
            # `E:123m` typed without a space: the seat, then the rest of the word (no header
            # has a colon, so this may be asked first)
            head, *rest = line.tokens
            line = Line.of_tokens([head._replace(text=word[:2]), head._replace(text=word[2:], column=head.column + 2),
                                   *rest])
            word = line.words[0]
        if word in _SEAT_WORDS:
            # A player's line, most lines of every table: asked first (no header ends in ':').
            hand = _parse_player(_SEAT_WORDS[word], line)
            if hand.seat in players:
                name = next((n for n, s in (names or {}).items() if s == hand.seat.value), None)
                twice = (_("seat {seat} is listed twice").format(seat=hand.seat.value) if name is None
                         else _("{player} is listed twice").format(player=name))
                raise NotationError(twice, line.where, word)
            players[hand.seat] = hand
            continue
        if word == "penalty":
            tokens = line.tokens
            penalties.append(_parse_penalty(tokens[0], tokens[1:]))
            continue
        if word in settings:
            _note_header(word, line, seen_headers)
            tokens = line.tokens
            options[settings[word].name] = parse_setting(tokens[0], tokens[1:], settings)
            continue
        if word in HEADERS:
            _note_header(word, line, seen_headers)
            words = line.words
            if word == "round" and len(words) == 2 and words[1] in WIND_BY_LETTER:
                round_wind = WIND_BY_LETTER[words[1]]      # as written most often: no word's place needed
                continue
            head, *args = line.tokens
            if word == "draw":
                _expect_args(head, args, 0)
                draw = True
            elif word == "round":
                round_wind = _round_wind(head, args)
            elif word == "scheme":
                _expect_args(head, args, 1, N_("a scheme name or a scheme file's path"))
                scheme = args[0].text
            else:
                _expect_args(head, args, 1, N_("a whole number"))
                counters[COUNTERS.get(word) or RECORD_NUMBERS[word]] = parse_number(args[0], f"'{word}'")
            continue
        raise _not_a_line(word, line)
    if not players and not draw and not allow_empty:
        raise NotationError(_("the table lists no players"), where or Location(file, first_line, 1))
    seated = tuple(players[w] for w in SEATS if w in players)
    # Most tables have no headers but `round`: nothing more to gather then.
    stated = frozenset(k for k in _STATED if k in seen_headers) if seen_headers else frozenset()
    return Table(players=seated, round=round_wind, scheme=scheme, draw=draw, **counters,
                 penalties=tuple(penalties), stated=stated, options=ordered(options) if options else (),
                 where=where or Location(file, first_line, 1), names=())


_SEAT_WORDS = {f"{letter}:": wind for letter, wind in WIND_BY_LETTER.items()}     # `E:` .. `N:`
_STATED = ("round", *COUNTERS)        # the headers a session checks against its own count


def _note_header(word: str, line: Line, seen_headers: dict[str, Line]) -> None:
    """A header line of the table noted, or refused when the table gave it already: one table
    says its round, scheme or setting once (a session checks what it stated)."""
    if word in seen_headers:
        raise NotationError(_("'{word}' is given twice in one table").format(word=word), line.where, word)
    seen_headers[word] = line


def _round_wind(head: Token, args: Sequence[Token]) -> Wind:
    """The wind of a `round` line not written as the usual two words (`parse_table` takes those
    at once): a wind missing, one too many, or no wind."""
    _expect_args(head, args, 1, N_("a wind: E, S, W or N"))
    if args[0].text not in WIND_BY_LETTER:
        raise NotationError(_("'round' takes a wind (E, S, W or N), not '{token}'").format(token=args[0].text),
                            args[0].where, args[0].text)
    return WIND_BY_LETTER[args[0].text]


def _not_a_line(word: str, line: Line) -> NotationError:
    """What is wrong with a line that starts with neither a seat nor a header: a seat with its
    colon apart (`E :`) is named as such, anything else lists what a line may start with."""
    if word in WIND_BY_LETTER and len(line.words) > 1 and line.words[1].startswith(":"):
        return NotationError(_("write the seat and its colon together: '{word}:'").format(word=word), line.where, word)
    return NotationError(_unknown_line(word), line.where, word)


_PENALTY_USAGE = N_("'penalty' takes SEAT AMOUNT, or SEAT AMOUNT to SEAT")    # said only on an error


def _parse_penalty(head: Token, args: Sequence[Token]) -> SeatPenalty:
    """`penalty SEAT N` (to each other player) or `penalty SEAT N to SEAT`."""
    if len(args) not in (2, 4):
        at = args[0] if args else head
        raise NotationError(_(_PENALTY_USAGE), at.where, at.text)
    if args[0].text not in WIND_BY_LETTER:
        raise NotationError(_("{usage}; '{token}' is not a seat").format(
            usage=_(_PENALTY_USAGE), token=args[0].text), args[0].where, args[0].text)
    payer = WIND_BY_LETTER[args[0].text]
    amount = parse_number(args[1], "'penalty'")
    payee = None
    if len(args) == 4:
        if args[2].text != "to":
            raise NotationError(_("{usage}; expected 'to', not '{token}'").format(
                usage=_(_PENALTY_USAGE), token=args[2].text), args[2].where, args[2].text)
        if args[3].text not in WIND_BY_LETTER:
            raise NotationError(_("{usage}; '{token}' is not a seat").format(
                usage=_(_PENALTY_USAGE), token=args[3].text), args[3].where, args[3].text)
        payee = WIND_BY_LETTER[args[3].text]
        if payee is payer:
            raise NotationError(_("a player cannot pay a penalty to himself"), args[3].where, args[3].text)
    return SeatPenalty(payer, amount, payee)


def parse_setting(head: Token, args: Sequence[Token], settings: Mapping[str, Setting[Any]] = TABLE_SETTINGS) -> Any:
    """A setting's header line (`east-double off`, `stake 0.05 EUR`): its value, one word (a
    stake's two), read as the setting says."""
    word = head.text
    declared = settings[word]
    if not args or len(args) > declared.words:
        at = args[declared.words] if len(args) > declared.words else head
        takes = _("one value") if declared.words == 1 else declared.describe()
        raise NotationError(_("'{word}' takes {takes}").format(word=word, takes=takes), at.where, at.text)
    try:
        return declared.parse_words([(v.text, v.where) for v in args])
    except SettingError as e:
        raise NotationError(e.message, e.location, e.token) from None


def _unknown_line(word: str) -> str:
    hint = ""
    if word.rstrip(":") in ("e", "s", "w", "n"):
        hint = _(" (seats are upper case: '{seat}:')").format(seat=word.rstrip(':').upper())
    elif word.endswith(":"):
        hint = _(" (a seat is E, S, W or N)")
    return (_("'{word}' does not start a player line (E: S: W: N:) or a header ({headers}){hint}").format(
        word=word, headers=', '.join(HEADERS), hint=hint))


def _expect_args(head: Token, args: Sequence[Token], n: int, what: str = "") -> None:
    """`n` words after a header; `what` says what they are (marked N_, translated here, on the error)."""
    if len(args) != n:
        if n == 0:
            raise NotationError(_("'{header}' takes nothing after it").format(
                header=head.text), args[0].where, args[0].text)
        if not args:
            raise NotationError(_("'{header}' needs {what}").format(header=head.text, what=_(what)),
                                head.where, head.text)
        raise NotationError(_("'{header}' takes one value, {what}; '{extra}' is one too many").format(
            header=head.text, what=_(what), extra=args[n].text),
                            args[n].where, args[n].text)


def parse_number(tok: Token, what: str) -> int:
    if not tok.text.isdigit() or not tok.text.isascii():
        raise NotationError(_("{what} takes a whole number, not '{token}'").format(
            what=what, token=excerpt(tok.text)), tok.where, tok.text)
    value = int(tok.text[:12])
    if len(tok.text) > 10 or value > MAX_SCORE:
        # A number of thousands of digits is shown by its first and how many: one line.
        shown = tok.text if len(tok.text) <= 24 else n_("{first}…({n} digit)", "{first}…({n} digits)",
                                                         len(tok.text)).format(first=tok.text[:5],
                                                                               n=f"{len(tok.text):,}")
        raise NotationError(_("{what}: {number} is too large").format(
            what=what, number=shown), tok.where, excerpt(tok.text))
    return value


class _Keywords:
    """What a player's line says besides its tiles and groups (`...`, `= N`, `score N`, the win
    clause, `discarded`): made when the line's first keyword is read, as most lines have none."""

    __slots__ = ("discards", "incomplete", "claim", "score", "win")

    def __init__(self) -> None:
        self.discards: list[Tile] = []
        self.incomplete = False
        self.claim: int | None = None
        self.score: int | None = None
        self.win: Win | None = None


_NO_KEYWORDS = _Keywords()          # a line of tiles alone: never written to (`_parse_player` makes its own)


def _parse_player(seat: Wind, line: Line) -> PlayerHand:
    """A player's line (its first word the seat, `E:`): its words read, each as what it is (a
    group, tiles, or a keyword: `_read_keyword`), then the questions about the line as a whole,
    each its own step.  Words are read as plain strings, and a word's place is asked of the line
    only for a message (`Line.place`).  Tiles and groups, most of the words, are read in this
    loop with plain local lists: it runs for every word of every table."""
    concealed: list[Tile] = []
    bonus: list[Tile] = []
    melds: list[Meld] = []
    places: list[tuple[int, tuple[Tile, ...]]] = []       # each word (its number) and the tiles it wrote
    runs: list[tuple[Tile, ...]] = []    # the concealed tiles, run by run as written
    among: list[int] = []                # for each group of `melds`, how many runs stood before it
    opened: list[int] = []               # the word that opened each group of `melds`
    kw = _NO_KEYWORDS
    words = line.words
    i = 1
    n = len(words)
    while i < n:
        k = i
        t = words[i]
        i += 1
        if t[0] in _OPEN and len(t) > 1:        # a whole group: [777p]
            meld = _compact_meld(t) or _parse_compact_group(line.token(k))
            melds.append(meld)
            opened.append(k)
            among.append(len(runs))
            places.append((k, meld.tiles))
            continue
        # Most words are tiles: tried first, through `run_parts`'s memo without its frame (a
        # Python call for each word of each table: 283 of the parser's 5,148 opcodes a table).
        parts = _short_run_parts(t) if len(t) <= 24 else run_parts(t)
        if parts is not None:
            run, playing, flowers = parts
            if playing:
                concealed.extend(playing)
                runs.append(playing)
            if flowers:
                bonus.extend(flowers)
            places.append((k, run))
        elif t in _OPEN:
            meld, i = _parse_group(line, k, i)
            melds.append(meld)
            opened.append(k)
            among.append(len(runs))
            places.append((k, meld.tiles))
        else:
            if kw is _NO_KEYWORDS:
                kw = _Keywords()
            i = _read_keyword(kw, seat, line, k, i)
    win = kw.win
    if kw.score is not None or win is not None:
        _check_score_line(kw, bool(concealed or melds or bonus), line)
    may_have_taken: list[int] = []
    if win is not None and melds:
        may_have_taken = _take_the_discards_set(win, concealed, melds, runs, among, opened)
    if melds and SetKind.PAIR in map(_KIND_OF, melds):       # a bracketed pair, seldom written
        _check_pairs(melds, opened, may_have_taken, line)
    if len(melds) > 1:
        melds.sort(key=meld_order)
    concealed.sort(key=_INDEX)
    discards = kw.discards
    return PlayerHand(seat=seat, concealed=tuple(concealed), melds=tuple(melds),
                      bonus=tuple(sorted(bonus, key=_INDEX)) if bonus else (), incomplete=kw.incomplete,
                      claim=kw.claim, score=kw.score, win=win,
                      discards=tuple(sorted(discards, key=_INDEX)) if discards else (),
                      written=AsWritten(line, tuple(places), tuple(runs) if len(runs) > 1 else ()))


def _read_keyword(w: _Keywords, seat: Wind, line: Line, k: int, i: int) -> int:
    """Word `k`, which is no tile and opens no group: a keyword and what it takes (from word
    `i` on), kept in `w`; the number of the word after them."""
    t = line.words[k]
    if t in (")", "]", ">", "}"):
        raise NotationError(_("'{token}' closes a group that was never opened").format(token=t), line.place(k), t)
    if t == "...":
        if w.incomplete:
            raise NotationError(_("'...' is given twice"), line.place(k), t)
        w.incomplete = True
        return i
    if t == "=":
        if w.claim is not None:
            raise NotationError(_("a claim '= N' is given twice"), line.place(k), t)
        w.claim = parse_number(_next(line, i, N_("the claimed score after '='")), "'='")
        return i + 1
    if t == "score":
        if w.score is not None:
            raise NotationError(_("'score' is given twice"), line.place(k), t)
        w.score = parse_number(_next(line, i, N_("the score after 'score'")), "'score'")
        return i + 1
    if t == "win":
        if w.win is not None:
            raise NotationError(_("a player has one win clause"), line.place(k), t)
        w.win, i = _parse_win(seat, line, i)
        return i
    if t == "discarded":
        # Her own discards since her last draw from the wall (the sacred-discard rule).
        words, start = line.words, i
        while i < len(words) and (parts := run_parts(words[i])) is not None and not parts[2]:
            w.discards.extend(parts[0])
            i += 1
        if i == start:
            raise NotationError(_("'discarded' takes the tiles the player discarded since her last draw"),
                                line.place(k), t)
        return i
    if t in FLAGS or t in ("self", "from"):
        raise NotationError(_("'{token}' belongs in a win clause: win TILE self|from SEAT [flags]").format(
            token=t), line.place(k), t)
    raise NotationError(_bad_word(t), line.place(k), t)


def _check_score_line(w: _Keywords, has_tiles: bool, line: Line) -> None:
    """A `score N` line lists no tiles, and a win clause names its tile unless the score was counted."""
    if w.score is not None and (has_tiles or w.incomplete):
        raise NotationError(_("a 'score N' line lists no tiles: the score was counted at the table"),
                            line.place(1), line.words[1])
    if w.win is not None and w.win.tile is None and w.score is None:
        raise NotationError(_("the win clause needs the winning tile: win TILE self|from SEAT"), line.where,
                            line.words[0])


def _take_the_discards_set(win: Win, concealed: list[Tile], melds: list[Meld], runs: list[tuple[Tile, ...]],
                           among: list[int], opened: list[int]) -> list[int]:
    """The bracketed sets the winning discard may have completed, written as the breakdown prints
    it ([55p], [345p]).  One such set is the same hand as its tiles among the concealed ones, and
    is moved there; of two or more, the scorer takes the one that scores best, as for plain tiles
    (`hand.arrange.readings`): their places are returned, and they stay."""
    if win.discarder is None or win.tile is None or win.tile in concealed:
        return []
    may_have_taken = [k for k, m in enumerate(melds)
                      if m.form is Form.EXPOSED and win.tile in m.tiles and len(m.tiles) <= 3]
    if len(may_have_taken) == 1:
        k = may_have_taken.pop()
        concealed.extend(melds[k].tiles)
        runs.insert(among[k], melds[k].tiles)
        del melds[k], opened[k], among[k]
    return may_have_taken


def _check_pairs(melds: list[Meld], opened: list[int], may_have_taken: list[int], line: Line) -> None:
    """A pair in brackets is no set, but for the one the winning discard completed."""
    pairs = 0
    for k, (m, at) in enumerate(zip(melds, opened, strict=True)):
        if m.form is Form.EXPOSED and len(m.tiles) == 2:
            pairs += 1
            if k not in may_have_taken or pairs > 1:     # only the discard's pair, and one of them
                text = f"[{tiles_text(m.tiles, sep='')}]"
                raise GroupError(_not_a_set(text), line.place(at), text)


_KIND_OF = attrgetter("kind")
_INDEX = attrgetter("index")      # tiles sort by index; the key is read in C, not compared in Python


def _next(line: Line, i: int, what: str) -> Token:
    """Word `i`, which the word before it needs, with its place (a plain function, not a closure
    over the parser's position: that would make every step of its loop slower).  `what` is marked
    N_ and translated here, on the error."""
    if i >= len(line.words):
        last = line.token(i - 1)
        raise NotationError(_("{what} is missing at the end of the line").format(what=_(what)), last.where,
                            last.text)
    return line.token(i)


def parse_player_tokens(seat: Wind, head: Token, tokens: tuple[Token, ...]) -> PlayerHand:
    """A player from tokens gathered elsewhere (the YAML reader builds them field by field)."""
    return _parse_player(seat, Line.of_tokens((head, *tokens)))


def tokens_of(text: str, file: str, first_line: int, column_of: ColumnOf | None = None) -> tuple[Token, ...]:
    """All tokens of a text, lines and `;` joined: for a player written as one YAML string."""
    out: list[Token] = []
    for line in logical_lines(text, file, first_line, column_of):
        out.extend(line.tokens)
    return tuple(out)


def _bad_word(t: str) -> str:
    if t.lower() in HEADERS or t in ("round", "scheme"):
        return _("'{token}' is a header: give it on a line of its own").format(token=t)
    if re.fullmatch(r"[0-9]+", t):
        return _("'{token}' has no suit letter: write e.g. {token}m, {token}p or {token}s").format(token=t)
    m = re.fullmatch(r"[0-9]+([a-zA-Z])", t)
    if m:
        letter = m.group(1)
        if letter in "mpscdbzfy":
            return _("'{token}' is not a tile: a rank is out of range for '{letter}'").format(token=t, letter=letter)
        return _("'{token}' is not a tile: '{letter}' is no suit (m p s, or c d b; z for honours)").format(
            token=t, letter=letter)
    if re.fullmatch(r"[eswncfp]+", t):
        return _("'{token}' is not a tile: honours are upper case ({tiles})").format(token=t, tiles=t.upper())
    return _("'{token}' is not a tile, a group or a keyword").format(token=t)


def _parse_group(line: Line, opened: int, i: int) -> tuple[Meld, int]:
    """The group opened by word `opened` of the line, its tiles from word `i` on: the meld, and
    the word after the group's closing bracket."""
    words = line.words
    bracket = words[opened]
    closing = _CLOSE[bracket]
    form = _OPEN[bracket]
    tiles: list[Tile] = []
    while True:
        if i >= len(words):
            raise NotationError(_("'{bracket}' is never closed with '{closing}'").format(
                bracket=bracket, closing=closing), line.place(opened), bracket)
        t = words[i]
        i += 1
        if t == closing:
            break
        if t[0] in _OPEN or (len(t) == 1 and t in "[](){}<>"):      # `[`, or a whole group `[456m]`
            raise NotationError(_("'{token}' cannot stand inside a group opened by '{bracket}'").format(
                token=t[0], bracket=bracket), line.place(i - 1), t[0])
        parts = run_parts(t)
        if parts is None:
            raise NotationError(_bad_word(t), line.place(i - 1), t)
        run, __, flowers = parts
        if flowers:
            raise NotationError(_("flowers and seasons do not go in a group"), line.place(i - 1), t)
        tiles.extend(run)
    tiles.sort(key=_INDEX)
    run = tuple(tiles)
    kind = set_kind(run) if run else None
    if form is Form.EXPOSED:
        # A pair in [ ] is a set the winner completed with a discard, as the breakdown prints it;
        # the player's line decides (`_parse_player`), knowing the win clause.
        fits = kind is not None
    elif form is Form.GROUP:
        fits = kind is SetKind.CHOW or kind is SetKind.PUNG
    else:
        fits = kind is SetKind.KONG
    if not fits:
        raise _group_error(line.token(opened), form, kind, run, closing)
    return Meld(run, form, kind=kind), i


@lru_cache(maxsize=4096)
def _compact_meld(word: str) -> Meld | None:
    """The group a token like `[777p]` writes, or None when it is no group (the caller then
    reads it bracket by bracket, to say what is wrong and where)."""
    try:
        tokens = tuple(Token(m[0], "", 0, m.start() + 1) for m in _WORD.finditer(word))
        meld, end = _parse_group(Line.of_tokens(tokens), 0, 1)
    except MjError:
        return None
    return meld if end == len(tokens) else None


def _parse_compact_group(tok: Token) -> Meld:
    """A whole-group token that is no group, read bracket by bracket: its error, at its place."""
    tokens = tuple(Token(m[0], tok.file, tok.line, tok.column + m.start()) for m in _WORD.finditer(tok.text))
    return _parse_group(Line.of_tokens(tokens), 0, 1)[0]


def _group_error(open_tok: Token, form: Form, kind: SetKind | None, tiles: tuple[Tile, ...],
                 closing: str) -> GroupError:
    text = f"{open_tok.text}{tiles_text(tiles, sep='')}{closing}"
    if form is Form.DECLARED_KONG:
        return GroupError(_("{group} is not a kong: ( ) holds four identical tiles").format(
            group=text), open_tok.where, text)
    if form is Form.CLAIMED_KONG:
        return GroupError(_("{group} is not a kong: < > holds four identical tiles, a concealed pung and the discard "
                            "claimed to make it a kong").format(group=text), open_tok.where, text)
    if form is Form.EXPOSED:
        return GroupError(_not_a_set(text), open_tok.where, text)
    why = _(" (declare a concealed kong with ( ))") if kind is SetKind.KONG else ""
    return GroupError(_("{group} is not a set: {{ }} holds a chow or a pung{why}").format(
        group=text, why=why), open_tok.where, text)


def _not_a_set(text: str) -> str:
    return _("{group} is not a set: [ ] holds a chow (three in sequence), a pung or a kong").format(group=text)


def _parse_win(seat: Wind, line: Line, i: int) -> tuple[Win, int]:
    """The win clause whose `win` is word `i - 1` of the line: the win, and the word after it."""
    words = line.words
    n = len(words)
    at_win = i - 1
    tile = None
    if i < n and words[i] not in ("self", "from"):
        t = words[i]
        tile = parse_tile(t)
        if tile is None or tile.is_bonus:
            raise NotationError(_("'{token}' is not a winning tile: write win TILE self|from SEAT").format(
                token=t), line.place(i), t)
        i += 1
    if i >= n:
        raise NotationError(_("the win clause needs 'self' or 'from SEAT'"), line.place(at_win), words[at_win])
    t = words[i]
    i += 1
    discarder = None
    if t == "from":
        if i >= n:
            raise NotationError(_("'from' needs a seat: E, S, W or N"), line.place(i - 1), t)
        st = words[i]
        i += 1
        if st not in WIND_BY_LETTER:
            raise NotationError(_("'from' takes a seat (E, S, W or N), not '{token}'").format(
                token=st), line.place(i - 1), st)
        discarder = WIND_BY_LETTER[st]
        if discarder is seat:
            raise NotationError(_("{seat} cannot win on a discard of its own: 'from' names another seat").format(
                seat=seat.value),
                                line.place(i - 1), st)
    elif t != "self":
        raise NotationError(_("the win clause goes on with 'self' or 'from SEAT', not '{token}'").format(
            token=t), line.place(i - 1), t)
    flags: list[WinFlag] = []
    liable = None
    while i < n and (words[i] in FLAGS or words[i] == "liable"):
        if words[i] == "liable":
            if liable is not None:
                raise NotationError(_("'liable' is given twice"), line.place(i), words[i])
            if i + 1 >= n or words[i + 1] not in WIND_BY_LETTER:
                at = i + 1 if i + 1 < n else i
                raise NotationError(_("'liable' takes the seat that pays for all: liable "
                                      "SEAT"), line.place(at), words[at])
            liable = WIND_BY_LETTER[words[i + 1]]
            if liable is seat:
                raise NotationError(_("the winner cannot be liable: 'liable' names a loser"), line.place(i + 1),
                                    words[i + 1])
            i += 2
            continue
        f = FLAGS[words[i]]
        if f in flags:
            raise NotationError(_("flag '{flag}' is given twice").format(flag=f.value), line.place(i), f.value)
        flags.append(f)
        i += 1
    return Win(tile, discarder, frozenset(flags), liable), i


# -- the printer --------------------------------------------------------------------------------

_FLAG_ORDER = list(WinFlag)
_FORM_ORDER = (Form.EXPOSED, Form.CLAIMED_KONG, Form.DECLARED_KONG, Form.GROUP)
_FORM_PLACE = {form: n for n, form in enumerate(_FORM_ORDER)}


def meld_order(m: Meld) -> tuple[int, tuple[int, ...]]:
    """Canonical order of written groups: exposed, claimed kongs, declared kongs, concealed
    groups; by tiles."""
    return (_FORM_PLACE[m.form], m.indices)


def player_text(p: PlayerHand, *, style: str = "text") -> str:
    """One player line in canonical form (without the seat)."""
    parts: list[str] = []
    if p.score is not None:
        parts.append(f"score {p.score}")
    parts.extend(m.text(style=style) for m in sorted(p.melds, key=meld_order))
    if p.concealed:
        parts.extend(tiles_text(run, style=style) for run in _as_written(p))
    if p.bonus:
        parts.append(" ".join(t.glyph if style == "unicode" else t.text for t in p.bonus))
    if p.incomplete:
        parts.append("...")
    if p.discards:
        parts.append("discarded " + tiles_text(p.discards, style=style))
    if p.win is not None:
        w = p.win
        clause = ["win"]
        if w.tile is not None:
            clause.append(w.tile.glyph if style == "unicode" else w.tile.text)
        clause.append("self" if w.discarder is None else f"from {w.discarder.value}")
        clause.extend(f.value for f in _FLAG_ORDER if f in w.flags)
        if w.liable is not None:
            clause.append(f"liable {w.liable.value}")
        parts.append(" ".join(clause))
    if p.claim is not None:
        parts.append(f"= {p.claim}")
    return " ".join(parts)


def _as_written(p: PlayerHand) -> list[tuple[Tile, ...]]:
    """The player's concealed tiles in the runs she wrote them, when she wrote them in several
    and they are still these tiles (a ruling may have taken one away); else all in one.

    Each run is printed as one word: a word's tiles are sorted and split by suit (and by honour),
    and an honour written a tile at a time (`Rd Rd Rd`, `C C C`) is one run of copies (`CCC`),
    so that reading the printout gives these runs again, and printing them the same text."""
    written = p.written.runs
    if not written or sorted(t.index for run in written for t in run) != [t.index for t in p.concealed]:
        return [p.concealed]
    out: list[list[Tile]] = []
    for word in written:
        start = len(out)
        for t in sorted(word, key=_INDEX):
            last = out[-1] if out else None
            if last is not None and (len(out) > start or not t.suit.is_numbered) and (
                    last[0].suit is t.suit if t.suit.is_numbered else last[0] == t):
                last.append(t)
            else:
                out.append([t])
    return [tuple(run) for run in out]


def print_table(table: Table, *, style: str = "text") -> str:
    """The table in canonical compact notation; parsing it gives the same table."""
    lines: list[str] = []
    if table.round is not Wind.EAST:
        lines.append(f"round {table.round.value}")
    if table.scheme is not None:
        lines.append(f"scheme {table.scheme}")
    for word, name in COUNTERS.items():
        if getattr(table, name):
            lines.append(f"{word} {getattr(table, name)}")
    for word, name in RECORD_NUMBERS.items():
        if getattr(table, name) is not None:
            lines.append(f"{word} {getattr(table, name)}")
    if table.draw:
        lines.append("draw")
    if table.options:
        lines.extend(header_lines(dict(table.options)).splitlines())
    for pen in table.penalties:
        lines.append(f"penalty {pen.payer.value} {pen.amount}" + (f" to {pen.payee.value}" if pen.payee else ""))
    for p in table.players:
        body = player_text(p, style=style)
        lines.append(f"{p.seat.value}: {body}".rstrip())
    return "\n".join(lines) + "\n"


def print_tables(tables: Iterable[Table], *, style: str = "text") -> str:
    return "---\n".join(print_table(t, style=style) for t in tables)
