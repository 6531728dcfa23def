"""One error hierarchy for everything a user can get wrong; the CLI catches `MjError` once.

Every error knows where it happened (file, line, column, token) so that the message can point
at it: ``hand.mj:3:14: error: five 5p at the table (E has 3, W has 2)``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mjscore.model.say import _


class Location(NamedTuple):
    """Where something stands in the input (a tuple: every token carries one, so it is cheap)."""

    file: str = "<input>"
    line: int = 0      # 1-based; 0 = unknown
    column: int = 0    # 1-based; 0 = unknown

    def __str__(self) -> str:
        if not self.line:
            return self.file
        if not self.column:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


def excerpt(value: object, limit: int = 24) -> str:
    """A value as a message may show it: its text, control and invisible characters escaped,
    cut to `limit` characters.  A file's content never reaches a message whole."""
    text = value if isinstance(value, str) else repr(value)
    cut = len(text) > limit
    return escaped(text[:limit]) + ("…" if cut else "")


def escaped(text: str) -> str:
    """Text with control characters, and characters that print as nothing or reorder a line
    (zero-width spaces, direction marks), written as escapes, so a terminal shows what is there."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii") for c in text)


class MjError(Exception):
    """Anything wrong with the input: printed as one line, exit status 1."""

    def __init__(self, message: str, location: Location | None = None, token: str | None = None, *,
                 seats: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.location = location or Location()
        self.token = token
        # The seats (E S W N) whose lines the error is about, where it names players: what a
        # prompt asks again.  Empty when it names none.
        self.seats = seats

    def __str__(self) -> str:
        return _("{where}: error: {message}").format(where=escaped(str(self.location)), message=escaped(self.message))

    def __reduce__(self) -> tuple[Any, ...]:
        # Whole across processes (`batch --jobs`): the location, token and seats too, not only the message.
        return (_rebuilt, (self.__class__, self.message, self.location, self.token, self.seats))


def _rebuilt(kind: type[MjError], message: str, location: Location, token: str | None,
             seats: tuple[str, ...]) -> MjError:
    return kind(message, location, token, seats=seats)


class InputError(MjError):
    """The input cannot be read at all: missing file, not text, too large."""


class NotationError(MjError):
    """A token that is not a tile, a group or a keyword of the notation, or one out of place."""


class YamlFormError(MjError):
    """YAML that is malformed, unsafe, too large or not shaped like a table."""


class TableError(MjError):
    """A well-formed table that cannot have happened at a real table."""


class TileCountError(TableError):
    """More than four of a tile kind, or a bonus tile twice, at the table."""


class GroupError(TableError):
    """A `[ ]`, `( )` or `{ }` group that is not a real set."""


class HandSizeError(TableError):
    """A hand with the wrong number of tiles for a loser or a winner."""


class WinClauseError(TableError):
    """A win clause that does not fit: two winners, the winning tile not held, flags that clash."""


class IncompleteHandError(TableError):
    """A winner whose tiles do not make a complete hand under the scheme."""


class SessionError(TableError):
    """A hand that contradicts the rotation, or a session file without players."""


class NoWinnerError(SessionError):
    """A hand of an evening that nobody went out on and that is not marked a draw: it cannot be
    settled (a prompt asks who went out)."""


class SchemeError(MjError):
    """A scheme file that is missing, malformed or inconsistent."""
