"""Input: a file, standard input or a text given whole, in compact notation or YAML -> tables.

One way in: `tables_of(source)`.  It takes a file's path (`-`: standard input), a text given
whole (`Given`) or lines given one at a time (`Lines`); decides the form once (by the file's
ending, else by how the text starts); and hands the text to the parser of that form, a table at
a time.  `parse_any` reads a text given whole the same way, every table of it required;
`read_text` gives a file's whole text to those that read it as a session.  io.text reads the
bytes safely and decodes them; io.notation and io.yamlform parse what they are handed.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, BinaryIO, Literal, NamedTuple, TypeVar, overload

# Named here too (`as`): what callers outside io meet through this door, and take from it.
from mjscore.io.notation import MAX_TABLE_CHARS as MAX_TABLE_CHARS
from mjscore.io.notation import TableText as TableText
from mjscore.io.notation import parse_tables, tables_in
from mjscore.io.text import MAX_INPUT_BYTES, lines_of, open_regular, peek, read_limited, text_lines
from mjscore.io.text import decode as decode
from mjscore.io.text import normalise as normalise
from mjscore.io.text import read_text as read_text
from mjscore.io.yamlform import iter_yaml_tables, parse_yaml_tables
from mjscore.model.errors import InputError, Location, MjError, NotationError, SessionError
from mjscore.model.table import Table
from mjscore.model.say import _

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

_Item = TypeVar("_Item")


class Given(NamedTuple):
    """A text given whole (`-e`, a request's body, a `str` to the API), and the name its
    messages call it by (whose ending, `.yaml` or `.mj`, names its form as a file's does)."""

    text: str
    name: str = "<input>"


class Lines(NamedTuple):
    """Lines given one at a time (an iterable of `str`, the API's), in the compact notation."""

    lines: Iterable[str]
    name: str = "<lines>"


class SessionText(NamedTuple):
    """A session file met among tables (`tables_of(..., sessions=True)`): its whole text, to be
    played through with its seating rather than read as tables."""

    text: str
    file: str


Source = str | os.PathLike[str] | Given | Lines        # a path names a file, `-` standard input


# -- the form ------------------------------------------------------------------------------------

_YAML_START = re.compile(r"^(players|hands|round|scheme|draw|dealer[-_]wins)\s*:(\s|$)|^- |^%YAML", re.M)
_SESSION_START = re.compile(r"\A(?:[ \t]*(?:#.*)?\n)*[ \t]*players[ \t]")
_YAML_HANDS = re.compile(r"^hands\s*:", re.M)


def yaml_by_name(name: str) -> bool | None:
    """The form a file's ending names: YAML (True) for `.yaml` and `.yml`, compact (False) for
    `.mj`; None for any other, whose text tells."""
    lower = name.lower()
    if lower.endswith((".yaml", ".yml")):
        return True
    if lower.endswith(".mj"):
        return False
    return None


def looks_like_yaml(text: str, name: str) -> bool:
    """Whether a text (or the start of one) is YAML: by its name's ending, else by its lines."""
    by_name = yaml_by_name(name)
    return bool(_YAML_START.search(text)) if by_name is None else by_name


def is_compact_session(text: str) -> bool:
    """A compact session opens with a header block naming the players (`players A B C D`)."""
    return bool(_SESSION_START.match(text))


def _holds_session(text: str, yaml: bool) -> bool:
    """A session in the form given: a compact header block naming the players, or YAML with `hands:`."""
    return bool(_YAML_HANDS.search(text)) if yaml else is_compact_session(text)


def is_session(text: str, name: str) -> bool:
    """A session file: a compact header block naming the players, or YAML with `hands:`."""
    return _holds_session(text, looks_like_yaml(text, name))


def file_is_session(path: str) -> bool | None:
    """Whether a file (not standard input) is a session, from its first 64 KiB; None when it
    cannot be read (reading it properly will say why)."""
    try:
        with open_regular(path) as f:
            head = peek(_head(f))
    except (MjError, OSError):
        return None
    return is_session(head, path)


def not_tables(name: str) -> SessionError:
    """A session file given where tables go: its hands only mean something with its seating."""
    return SessionError(_("this is a session (an evening: players, then hands): play it with "
                        "'mjscore session FILE', or add a hand with 'mjscore add FILE'"), Location(name, 1, 1))


# -- the one way in ------------------------------------------------------------------------------

@overload
def tables_of(source: Source, parse: Literal[True] = True,
              sessions: Literal[False] = False) -> Iterator[tuple[str, int, Table | MjError]]: ...
@overload
def tables_of(source: Source, parse: Literal[True] = True,
              sessions: bool = False) -> Iterator[tuple[str, int, Table | SessionText | MjError]]: ...
@overload
def tables_of(source: Source, parse: bool,
              sessions: bool = False) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]: ...
def tables_of(source: Source, parse: bool = True,
              sessions: bool = False) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]:
    """(display name, line, Table | MjError) for each table of a source, read as it goes.

    A compact file (or standard input, or lines given) is read a line at a time and each table
    parsed when its `---` arrives, so memory does not grow with the number of tables (with
    `parse` False, it comes as a TableText).  YAML and sessions are read whole (they are bounded
    in size); with `sessions`, a session comes as one SessionText at line 1, else as an error
    (its hands are no tables on their own).  A file that cannot be read, or a source that holds
    no table at all, gives one error row; a text given whole that cannot be read as text (a NUL,
    a byte that was not UTF-8) is raised, as `parse_any` raises it.
    """
    rows: Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]
    if isinstance(source, Given):
        name = source.name
        rows = _given_rows(source.text, name, parse, sessions)
    elif isinstance(source, Lines):
        name = source.name
        rows = _named(name, tables_in(text_lines(source.lines, name), name, parse))
    else:
        path = os.fspath(source)
        name = "<stdin>" if path == "-" else path
        rows = _file_rows(path, name, parse, sessions)
    return _not_empty(rows, name)


def parse_any(text: str, name: str = "<input>", *, yaml_form: bool | None = None) -> list[Table]:
    """Every table of a text given whole, in whichever form it is written (its line ends read as
    a file's are: a lone CR ends a line, as in `add`), each of them a table: the first error is
    raised.  `yaml_form` decides the form instead of the name and the text."""
    text = normalise(text, name)
    yaml = looks_like_yaml(text, name) if yaml_form is None else yaml_form
    if _holds_session(text, yaml):
        raise not_tables(name)
    return parse_yaml_tables(text, name) if yaml else parse_tables(text, name)


def read_tables(path: str) -> list[Table]:
    """Every table of a file read whole, as `parse_any` reads a text."""
    return parse_any(*read_text(path))


def _named(name: str, rows: Iterable[tuple[int, _Item]]) -> Iterator[tuple[str, int, _Item]]:
    """Each (line, item) of a source as (its name, line, item), as it comes.  A generator of its
    own, never a generator expression: mypyc makes those lists (its documented difference from
    Python), which would read every line before the first table is answered."""
    for line, item in rows:
        yield name, line, item


def _given_rows(text: str, name: str, parse: bool,
                sessions: bool) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]:
    text = normalise(text, name)            # a text given whole that is no text is refused whole: raised
    yield from _whole(text, name, looks_like_yaml(text, name), parse, sessions)


def _whole(text: str, name: str, yaml: bool, parse: bool,
           sessions: bool) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]:
    """The rows of a text read whole (its line ends made `\\n`), in the form decided."""
    if _holds_session(text, yaml):
        yield name, 1, SessionText(text, name) if sessions else not_tables(name)
        return
    rows = iter_yaml_tables(text, name) if yaml else tables_in(text_lines(text.split("\n"), name), name, parse)
    yield from _named(name, rows)


def _file_rows(path: str, name: str, parse: bool,
               sessions: bool) -> Iterator[tuple[str, int, Table | TableText | SessionText | MjError]]:
    try:
        stream: BinaryIO = sys.stdin.buffer if path == "-" else open_regular(path)
    except MjError as e:
        yield name, 0, e
        return
    try:
        head = _head(stream)
        start = peek(head)
        yaml = looks_like_yaml(start, name)
        # A YAML document and a session's seating need all of the text: read whole (bounded).
        if yaml or is_compact_session(start):
            try:
                text = decode(head + read_limited(stream, MAX_INPUT_BYTES - len(head), name), name)
            except MjError as e:
                yield name, e.location.line, e
                return
            yield from _whole(text, name, yaml, parse, sessions)
            return
        raw: BinaryIO = io.BufferedReader(_Prefixed(head, stream)) if head else stream
        yield from _named(name, tables_in(lines_of(raw, name), name, parse))
    except OSError as e:          # the rest of the file cannot be read
        yield name, 0, InputError(_("cannot read: {strerror}").format(strerror=e.strerror or e), Location(name))
    finally:
        if path != "-":
            stream.close()


_HEAD = 65536        # bytes read to tell the file's form


def _head(stream: BinaryIO) -> bytes:
    """The first bytes of a stream, to tell its form: what is there now, without waiting for
    more (a table typed into a pipe is answered before the next one comes)."""
    read1 = getattr(stream, "read1", None)     # a buffered stream's (standard input's, a file's)
    head: bytes = read1(_HEAD) if read1 is not None else stream.read(_HEAD)
    return head


def _not_empty(items: Iterable[tuple[str, int, _Item]], name: str) -> Iterator[tuple[str, int, _Item | MjError]]:
    empty = True
    for item in items:
        empty = False
        yield item
    if empty:
        yield name, 0, NotationError(_("holds no table: write each player's line as 'E: ...'"), Location(name))


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

