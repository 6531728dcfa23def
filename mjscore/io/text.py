"""Bytes to text: files and standard input read safely, decoded, split into lines.

Every command and every file mjscore reads (tables, sessions, schemes, payoff tables) goes
through here, so the same bytes give the same lines everywhere:

- UTF-8, with a byte-order mark at the start dropped;
- a line ends at `\\n`, `\\r\\n` or a lone `\\r`, and nowhere else (a form feed, a vertical tab,
  NEL or U+2028 inside a line is white space to the notation, never a line break);
- a NUL byte or a byte that is not UTF-8 is an error naming its line and column;
- only regular files are read (never a folder, a device or a pipe, which could block or never
  end), and never more than a size limit, counted while reading.

The bytes and the lines only: which form a text is in and what it holds is io.reader's to tell.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from typing import BinaryIO
import re
import stat
import sys

from mjscore.model.errors import InputError, Location, MjError, NotationError
from mjscore.model.say import N_, _

MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_LINE = 10_000          # characters; a longer line is refused, not parsed
_BAD = re.compile(r"[\x00\udc80-\udcff]")


def open_regular(path: str, display: str | None = None, what: str = N_("file")) -> BinaryIO:
    """A binary stream of a regular file; anything else is refused before it is read.  `what`
    names it in the message of one that is missing (marked N_, translated there).

    Opening never blocks (a FIFO is opened without waiting for a writer, then refused), and a
    terminal never becomes the controlling one.
    """
    name = display or path
    # O_BINARY, Windows only: without it a descriptor reads in text mode there (CRLF made LF, and
    # Ctrl-Z taken for the end), and a CRLF file's line ends could not be kept when it is written.
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_BINARY", 0))
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputError(_("no such {what}").format(what=_(what)), Location(name)) from None
    except IsADirectoryError:
        raise InputError(_("is a folder, not a file"), Location(name)) from None
    except PermissionError:
        raise InputError(_("permission denied"), Location(name)) from None
    except OSError as e:
        raise InputError(_("cannot read: {strerror}").format(strerror=e.strerror or e), Location(name)) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = _("a folder") if stat.S_ISDIR(mode) else _("a pipe") if stat.S_ISFIFO(mode) else _("a device or socket")
        raise InputError(_("is {kind}, not a regular file").format(kind=kind), Location(name))
    return os.fdopen(fd, "rb")


def read_limited(stream: BinaryIO, limit: int, name: str) -> bytes:
    """At most `limit` bytes of a stream; more is an error (counted as it is read, so an endless
    stream costs no more than the limit)."""
    try:
        data = stream.read(limit + 1)
    except OSError as e:
        raise InputError(_("cannot read: {strerror}").format(strerror=e.strerror or e), Location(name)) from None
    if len(data) > limit:
        raise InputError(_("is larger than {limit} bytes, the most that is read").format(limit=f"{limit:,}"),
                         Location(name))
    return data


def read_bytes(path: str, limit: int, display: str | None = None, what: str = N_("file")) -> bytes:
    """The bytes of a regular file, refused beyond `limit`."""
    with open_regular(path, display, what) as f:
        return read_limited(f, limit, display or path)


def read_text(path: str) -> tuple[str, str]:
    """(text, display name) of a file path, or of standard input for `-`."""
    if path == "-":
        return decode(read_limited(sys.stdin.buffer, MAX_INPUT_BYTES, "<stdin>"), "<stdin>"), "<stdin>"
    return decode(read_bytes(path, MAX_INPUT_BYTES), path), path


def _checked(line: str, number: int, name: str) -> str:
    """The line itself, or the error for its first NUL or undecodable byte."""
    bad = _BAD.search(line)
    if bad is None:
        return line
    if bad[0] == "\x00":
        raise InputError(_("this is not a text file (it holds NUL bytes)"), Location(name, number, bad.start() + 1))
    raise InputError(_("not UTF-8 text: byte 0x{byte} cannot be read").format(byte=f"{ord(bad[0]) - 0xDC00:02x}"),
                     Location(name, number, bad.start() + 1))


def peek(head: bytes) -> str:
    """The first bytes of a file as text enough to tell its form from, never read as its text:
    a bad byte stands as U+FFFD (reading it properly will say where), line ends made `\\n`."""
    return head.decode("utf-8-sig", "replace").replace("\r\n", "\n").replace("\r", "\n")


def decode(data: bytes, name: str) -> str:
    """The text of some bytes, its line ends made `\\n`; an error names the first bad byte."""
    return normalise(data.decode("utf-8-sig", "surrogateescape"), name)


def normalise(text: str, name: str) -> str:
    """A text as every reader takes it, whether it came from a file or a command line (`-e`,
    a name): a byte-order mark dropped, its line ends made `\\n` (a lone `\\r` too), and an
    error for a NUL or a byte that was not UTF-8 (a command line's undecodable bytes arrive
    as the surrogates that stand for them)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    # An ASCII text can hold no surrogate, and NUL is found by memchr: the pattern is searched
    # only when it may match (a 2,000-hand evening: 1.3 ms a reading, five in an add and undo).
    if (not text.isascii() or "\x00" in text) and _BAD.search(text):
        for number, line in enumerate(text.split("\n"), start=1):
            _checked(line, number, name)
    return text


def lines_of(stream: BinaryIO, name: str) -> Iterator[tuple[int, str | MjError]]:
    """(number, line) for each line of a binary stream, decoded as `decode` does, or (number,
    error) for a line that is too long or holds a bad byte; a line is never held whole beyond
    MAX_LINE characters, and the stream is read as it goes."""
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline=None)
    try:
        number = 0
        while True:
            line = text.readline(MAX_LINE + 2)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE + 1 or (len(line) == MAX_LINE + 1 and not line.endswith("\n")):
                while line and not line.endswith("\n"):         # skip the rest of an overlong line
                    line = text.readline(MAX_LINE + 2)
                yield number, NotationError(too_long(), Location(name, number, 1))
                continue
            if line.isascii() and "\x00" not in line:
                yield number, line.rstrip("\n")        # no surrogate, no NUL: nothing to search for
                continue
            try:
                yield number, _checked(line.rstrip("\n"), number, name)
            except InputError as e:
                yield number, e
    finally:
        text.detach()           # the caller owns the stream (standard input stays open)


def text_lines(lines: Iterable[str], name: str) -> Iterator[tuple[int, str | MjError]]:
    """(number, line) for each of some text lines (a text split at its line ends, or lines given
    one at a time), or (number, error) for a line that is too long, as `lines_of` gives them."""
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        if len(line) > MAX_LINE:
            yield number, NotationError(too_long(), Location(name, number, 1))
        else:
            yield number, line


def too_long() -> str:
    return _("line is more than {most} characters long; at most {most} are read").format(most=f"{MAX_LINE:,}")
