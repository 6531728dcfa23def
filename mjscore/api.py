"""mjscore as a library: the same pipeline the command line runs, as plain function calls.

Everything here is also importable straight from the package (`import mjscore`).  Errors in
the input are raised as the `MjError` family (`mjscore.MjError`), never printed: each carries
the file, line, column and token at fault, and `str(error)` is the one-line message the
command line would print.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from mjscore.evening.batch import BatchItem, score_files, score_stream
from mjscore.evening.check import CheckReport, check_text
from mjscore.evening.session import SessionResult, play
from mjscore.io.reader import parse_any, stream_lines
from mjscore.io.sessionfile import read_session
from mjscore.io.text import read_text
from mjscore.model.errors import InputError, Location
from mjscore.model.table import Table
from mjscore.pipeline import Choices, TableResult, evaluate, table_waits
from mjscore.rules import scheme as _scheme
from mjscore.rules.scheme import Scheme

__all__ = ["parse", "score", "score_many", "play_session", "waits", "check", "load_scheme",
           "shipped_schemes"]


def _choices(scheme: str | os.PathLike | None = None, *, paying: str | None = None, payoff: str | None = None,
             east_double: bool | None = None, round_payments_up: int | None = None,
             loser_difference_limit: int | None = None, explain: bool = False,
             east_penalty_double: bool | None = None, kitty: int | None = None, kitty_hand: str | None = None,
             extra_hand_bonus: int | None = None) -> Choices:
    return Choices(scheme=os.fspath(scheme) if scheme is not None else None, paying=paying, payoff=payoff,
                   east_double=east_double, round_payments_up=round_payments_up,
                   loser_difference_limit=loser_difference_limit, explain=explain,
                   east_penalty_double=east_penalty_double, kitty=kitty, kitty_hand=kitty_hand,
                   extra_hand_bonus=extra_hand_bonus)


def _source(text_or_path: str | os.PathLike, name: str | None = None) -> tuple[str, str]:
    """(text, name) of a source: a Path (`Path("-")`: standard input), or a one-line string that
    names an existing file, is read as a file; any other string is the text itself, called
    `name` (default `<input>`) in error messages."""
    if isinstance(text_or_path, os.PathLike):
        return read_text(os.fspath(text_or_path))
    if name is None and "\n" not in text_or_path and ";" not in text_or_path and Path(text_or_path).is_file():
        return read_text(text_or_path)
    return text_or_path, name or "<input>"


def parse(text: str, *, name: str = "<input>") -> list[Table]:
    """The tables of a text, in the compact notation or YAML (told apart by their content).

    >>> [t] = mjscore.parse("E: [111p] 234m 567s 99s EEE win 9s self")
    >>> t.winner.seat.value, len(t.players)
    ('E', 1)
    """
    return parse_any(text, name)


def score(text: str | Table, *, scheme: str | os.PathLike | None = None, paying: str | None = None,
          payoff: str | None = None, east_double: bool | None = None, round_payments_up: int | None = None,
          loser_difference_limit: int | None = None, explain: bool = False,
          east_penalty_double: bool | None = None, kitty: int | None = None, kitty_hand: str | None = None,
          extra_hand_bonus: int | None = None) -> TableResult:
    """Score and settle one table, given as text (compact or YAML) or as a parsed `Table`.

    The options are those of `mjscore score`; None leaves the choice to the table's header,
    then to the scheme.  `result.to_dict()` is the object `mjscore score --format json` prints.

    >>> r = mjscore.score("E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ...")
    >>> [(p.seat.value, p.score) for p in r.players][0], r.net[mjscore.Wind.EAST]
    (('E', 352), 2112)
    """
    choices = _choices(scheme, paying=paying, payoff=payoff, east_double=east_double,
                       round_payments_up=round_payments_up, loser_difference_limit=loser_difference_limit,
                       explain=explain, east_penalty_double=east_penalty_double, kitty=kitty,
                       kitty_hand=kitty_hand, extra_hand_bonus=extra_hand_bonus)
    if isinstance(text, Table):
        return evaluate(text, choices)
    tables = parse_any(text, "<input>")
    if len(tables) != 1:
        raise InputError(f"score takes one table; this text holds {len(tables)} "
                         "(use score_many, or parse and score each)", Location("<input>"))
    return evaluate(tables[0], choices)


def score_many(lines_or_path: str | os.PathLike | Iterable[str], *, jobs: int = 1, **options) -> Iterator[BatchItem]:
    """Score every table of a file, or of an iterable of compact-notation lines, as it streams.

    Yields one `BatchItem` per table in input order: `item.result` (a `TableResult`) or
    `item.error` (an `MjError`); `item.to_dict()` is the JSON line `mjscore batch` writes.  A
    path may be a `str` or a `Path`; `-` is standard input.  Options as for `score`.  `jobs`
    above 1 scores a file's tables in that many worker processes, in the same order; each item
    then carries its plain result (`item.data`, what `to_dict()` holds) rather than a typed one.

    >>> for item in mjscore.score_many("evening.mj"):
    ...     print(item.line, item.result.to_dict()["winner"] if item.ok else item.error)
    """
    choices = _choices(**options)
    if isinstance(lines_or_path, (str, os.PathLike)):
        return score_files([os.fspath(lines_or_path)], choices, jobs)
    return score_stream(stream_lines(lines_or_path), choices)


def play_session(text_or_path: str | os.PathLike, *, name: str | None = None, keep_going: bool = False,
                 **options) -> SessionResult:
    """Play a session (an evening) through: seats rotating, running totals, standings, settle-up.

    Give the session's text, or its file (a `Path`, or a one-line string naming a file).  Options as for `score`; they override
    the session's header.  `result.to_dict()` is what `mjscore session --format json` prints.
    A bad hand raises its error; with `keep_going`, every bad hand is in `result.errors` and the
    totals stop at the first.

    >>> s = mjscore.play_session(Path("sample_hands/evening-session.mj"))
    >>> s.standings[0], [t.as_dict() for t in s.settle_up][0]
    (('Ann', 2898), {'from': 'Bob', 'to': 'Ann', 'amount': 816})
    """
    text, name = _source(text_or_path, name)
    return play(read_session(text, name), _choices(**options), keep_going)


def waits(text_or_path: str | os.PathLike, scheme: str | os.PathLike | None = None, *,
          name: str | None = None) -> list[list[dict]]:
    """For each table of the text, each fully listed player's waits: the tiles that complete the
    hand (`waits`), and those of them whose other copies are all in sight (`dead`).

    >>> mjscore.waits("E: 1m 19p 19s E S W NN C F P")
    [[{'seat': 'E', 'waits': ['9m'], 'dead': []}]]
    """
    text, name = _source(text_or_path, name)
    return [table_waits(table, _choices(scheme)) for table in parse_any(text, name)]


def check(text_or_path: str | os.PathLike, *, name: str | None = None, **options) -> CheckReport:
    """Compare every `= N` claim of a table file or session with mjscore's score.

    Returns the report's lines (each claim, and why it differs) and how many claims differ.

    >>> mjscore.check("round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 80").differences
    1
    """
    text, name = _source(text_or_path, name)
    return check_text(text, name, _choices(**options))


def load_scheme(name_or_path: str | os.PathLike | None = None) -> Scheme:
    """A scheme by shipped name (`classical`, `dmjl`, `bmja`, ...) or by file path, checked.

    >>> s = mjscore.load_scheme("dmjl")
    >>> s.limit, s.rule("mahjong").points
    (500, 20)
    """
    return _scheme.load_scheme(os.fspath(name_or_path) if name_or_path is not None else None)


def shipped_schemes() -> list[str]:
    """The names of the schemes that come with mjscore.

    >>> "classical" in mjscore.shipped_schemes()
    True
    """
    return _scheme.shipped_schemes()
