"""Input: a file, standard input or an inline text, in compact notation or YAML -> tables.

This is the only module that touches files.  It decides the form (by the file's ending, or by
looking at the text when it has none), decodes it safely and hands the text to the parser of
that form.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO, Literal, NamedTuple, TypeVar, overload

from mjscore.io.notation import logical_lines, parse_table, parse_tables, split_tables
from mjscore.io.text import (
    MAX_INPUT_BYTES,
    MAX_LINE,
    decode,
    lines_of,
    looks_like_yaml,
    normalise,
    open_regular,
    read_limited,
    read_text,
    too_long,
)
from mjscore.io.yamlform import iter_yaml_tables, parse_yaml_tables
from mjscore.model.errors import InputError, Location, MjError, NotationError, SessionError
from mjscore.model.table import Table

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

_Item = TypeVar("_Item")


def parse_any(text: str, name: str = "<input>", *, yaml_form: bool | None = None) -> list[Table]:
    """Every table of a text, in whichever form it is written (its line ends read as a file's
    are: a lone CR ends a line, as in `add`)."""
    text = normalise(text, name)
    if yaml_form is None:
        yaml_form = looks_like_yaml(text, name)
    if _YAML_HANDS.search(text) if yaml_form else is_compact_session(text):
        raise not_tables(name)
    if yaml_form:
        return parse_yaml_tables(text, name)
    return parse_tables(text, name)


def not_tables(name: str) -> SessionError:
    """A session file given where tables go: its hands only mean something with its seating."""
    return SessionError("this is a session (an evening: players, then hands): play it with "
                        "'mjscore session FILE', or add a hand with 'mjscore add FILE'", Location(name, 1, 1))


_SESSION_START = re.compile(r"\A(?:[ \t]*(?:#.*)?\n)*[ \t]*players[ \t]")


_YAML_HANDS = re.compile(r"^hands\s*:", re.M)


def is_session(text: str, name: str) -> bool:
    """A session file: a compact header block naming the players, or YAML with `hands:`."""
    if looks_like_yaml(text, name):
        return bool(_YAML_HANDS.search(text))
    return is_compact_session(text)


def file_is_session(path: str) -> bool:
    """Whether a file (not standard input) is a session, from its first 64 KiB; False when it
    cannot be read (reading it properly will say why)."""
    try:
        with open_regular(path) as f:
            head = f.read(_HEAD).decode("utf-8-sig", "replace").replace("\r", "\n")
    except (MjError, OSError):
        return False
    return is_session(head, path)


def is_compact_session(text: str) -> bool:
    """A compact session opens with a header block naming the players (`players A B C D`)."""
    return bool(_SESSION_START.match(text))


def read_tables(path: str) -> list[Table]:
    text, name = read_text(path)
    return parse_any(text, name)


def iter_tables(text: str, name: str) -> Iterator[tuple[int, Table | MjError]]:
    """Each table of a text with the line it starts on: (line, Table) or (line, MjError).

    A bad table does not stop the others: batch reports it as an error row and goes on.
    """
    if is_session(text, name):
        yield 1, not_tables(name)
        return
    if looks_like_yaml(text, name):
        yield from iter_yaml_tables(text, name)
        return
    for first, chunk in split_tables(text, name):
        if not chunk.strip() or all(not ln.split("#", 1)[0].strip() for ln in chunk.splitlines()):
            continue
        try:
            yield first, parse_table(chunk, name, first)
        except MjError as e:
            yield first, e


class SessionText(NamedTuple):
    """A session file met among tables (`stream_tables(..., sessions=True)`): its whole text, to
    be played through with its seating rather than read as tables."""

    text: str
    file: str


@overload
def stream_tables(path: str, parse: Literal[True] = True,
                  sessions: bool = False) -> Iterator[tuple[str, int, Table | SessionText | MjError]]: ...
@overload
def stream_tables(path: str, parse: bool,
                  sessions: bool = False) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]: ...
def stream_tables(path: str, parse: bool = True,
                  sessions: bool = False) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]:
    """(display name, line, Table | MjError) for each table of a file (`-`: standard input),
    read as it goes.

    A compact file is read a line at a time and each table parsed when its `---` arrives, so
    memory does not grow with the number of tables (with `parse` False, it comes as a
    TableText).  YAML files and sessions are read whole (they are bounded in size); with
    `sessions`, a session comes as one SessionText at line 1, else as an error (its hands are no
    tables on their own).  A file that cannot be read, or that holds no table at all, gives one
    error row.
    """
    name = "<stdin>" if path == "-" else path
    return _not_empty(_stream_tables(path, name, parse, sessions), name)


def text_tables(text: str, name: str) -> Iterator[tuple[str, int, Table | MjError]]:
    """(name, line, Table | MjError) for each table of a text, as `stream_tables` gives them."""
    text = normalise(text, name)
    return _not_empty(((name, line, item) for line, item in iter_tables(text, name)), name)


def _not_empty(items: Iterable[tuple[str, int, _Item]], name: str) -> Iterator[tuple[str, int, _Item | MjError]]:
    empty = True
    for item in items:
        empty = False
        yield item
    if empty:
        yield name, 0, NotationError("holds no table: write each player's line as 'E: ...'", Location(name))


def _stream_tables(path: str, name: str, parse: bool = True,
                   sessions: bool = False) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]:
    try:
        stream: BinaryIO = sys.stdin.buffer if path == "-" else open_regular(path)
    except MjError as e:
        yield name, 0, e
        return
    try:
        # What is there now, without waiting for more: a table typed into a pipe is answered
        # before the next one comes.
        read1 = getattr(stream, "read1", None)     # standard input's buffer has it, a raw file not
        head: bytes = read1(_HEAD) if read1 is not None else stream.read(_HEAD)
        head_text = head.decode("utf-8-sig", "replace")
        if looks_like_yaml(head_text, name) or is_compact_session(head_text.replace("\r", "\n")):
            try:
                text = decode(head + read_limited(stream, MAX_INPUT_BYTES - len(head), name), name)
            except MjError as e:
                yield name, e.location.line, e
                return
            if sessions and is_session(text, name):
                yield name, 1, SessionText(text, name)
                return
            for line, table in iter_tables(text, name):
                yield name, line, table
            return
        raw: BinaryIO = io.BufferedReader(_Prefixed(head, stream)) if head else stream
        for line, item in compact_tables(lines_of(raw, name), name, parse):
            yield name, line, item
    except OSError as e:          # the rest of the file cannot be read
        yield name, 0, InputError(f"cannot read: {e.strerror or e}", Location(name))
    finally:
        if path != "-":
            stream.close()


_HEAD = 65536        # bytes read to tell the file's form


def _text_lines(lines: Iterable[str], name: str) -> Iterator[tuple[int, str | MjError]]:
    """(number, text) for each of an iterable of text lines, as `lines_of` gives them."""
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        if len(line) > MAX_LINE:
            yield number, NotationError(too_long(), Location(name, number, 1))
        else:
            yield number, line


class TableText(NamedTuple):
    """One table of a compact file, not yet parsed: a worker process parses it (`batch --jobs`)."""

    text: str
    file: str
    first: int                        # the line it starts on

    def parse(self) -> Table:
        return parse_table(self.text, self.file, self.first)


MAX_TABLE_CHARS = 100_000       # a table longer than this (a few hundred lines) is no table


@overload
def compact_tables(numbered_lines: Iterable[tuple[int, str | MjError]], name: str,
                   parse: Literal[True] = True) -> Iterator[tuple[int, Table | MjError]]: ...
@overload
def compact_tables(numbered_lines: Iterable[tuple[int, str | MjError]], name: str,
                   parse: bool) -> Iterator[tuple[int, Table | TableText | MjError]]: ...
def compact_tables(numbered_lines: Iterable[tuple[int, str | MjError]], name: str,
                   parse: bool = True) -> Iterator[tuple[int, Table | TableText | MjError]]:
    """(line, Table | MjError) for each table of numbered compact lines, parsed as each `---`
    arrives, so memory does not grow with the number of tables.  With `parse` False a table
    comes as its TableText (at the line it starts on), for another process to parse.  A table
    longer than MAX_TABLE_CHARS is an error row as soon as it is, and its lines up to the next
    `---` are passed over, not kept: a stream with no `---` costs no more than one table."""
    chunk: list[str] = []
    size = 0
    first = 1
    problem: MjError | None = None

    def emit() -> tuple[int, Table | TableText | MjError] | None:
        if problem is not None:
            return first, problem
        text = "\n".join(chunk)
        if not parse:
            return (first, TableText(text, name, first)) if _holds_anything(chunk) else None
        try:
            # Its lines read once: whether it holds anything but comments, and then the table.
            lines = list(logical_lines(text, name, first))
            if not lines and not _holds_anything(chunk):
                return None                             # comments alone (`;` alone is an empty table)
            table = parse_table(text, name, first, lines=lines)
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
                yield first, NotationError(f"this table is longer than {MAX_TABLE_CHARS:,} characters with no '---' "
                                           "to end it; its lines are passed over up to the next '---'",
                                           Location(name, first, 1))
                chunk, problem = [], _TOO_LONG
    if problem is not _TOO_LONG:
        out = emit()
        if out is not None:
            yield out


def _holds_anything(chunk: list[str]) -> bool:
    """Whether a table's lines hold anything but comments and blank lines."""
    return any(ln.split("#", 1)[0].strip() for ln in chunk)


_TOO_LONG = NotationError("too long")         # the mark of a table whose lines are being passed over


def stream_lines(lines: Iterable[str], name: str = "<lines>") -> Iterator[tuple[str, int, Table | MjError]]:
    """(name, line, Table | MjError) for each table of an iterable of compact-notation lines."""
    for line, item in compact_tables(_text_lines(lines, name), name):
        yield name, line, item


class _Prefixed(io.RawIOBase):
    """A raw stream that first gives back the bytes already read to tell the file's form."""

    def __init__(self, head: bytes, stream: BinaryIO):
        super().__init__()
        self.head = head
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        buf = memoryview(buffer).cast("B")
        if self.head:
            n = min(len(buf), len(self.head))
            buf[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.stream.read(len(buf))
        buf[:len(data)] = data
        return len(data)
