"""mjscore as a library: the same pipeline the command line runs, as plain function calls.

Everything here is also importable straight from the package (`import mjscore`).  The command
line and the table page are shells over this module: whatever they print, a function here
returns as data.  Errors in the input are raised as the `MjError` family (`mjscore.MjError`),
never printed: each carries the file, line, column and token at fault, and `str(error)` is the
one-line message the command line would print.

A source of tables is, for every function alike, a path (`pathlib.Path` or any `os.PathLike`;
`Path("-")` is standard input), a `str` (always the text itself, never a file's name), or for
the streaming functions an iterable of compact-notation lines (an open file, a generator).
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

# What scoring a table needs is imported here; the evenings, the season, the Kajongg reader, the
# batch, the words, the page's next hand and what is kept beside a file are imported by the
# functions that use them, and the names this module passes on from them by `__getattr__` below:
# a one-hand `mjscore score` loads none of them (issue 40; tests/test_cli.py lists what it loads).
from mjscore.evening.entry import check_line as _check_line
from mjscore.evening.entry import answer_kind as _answer_kind
from mjscore.evening.entry import entry_line as _entry_line
from mjscore.evening.entry import Penalty as Penalty
from mjscore.evening.entry import hand_parts as hand_parts  # for the shells: a hand taken apart (`mjscore edit`)
from mjscore.hand.validate import validate_table
from mjscore.io.notation import print_table
from mjscore.io.reader import (
    Given,
    Lines,
    file_is_session,
    normalise,
    parse_any,
    read_text,
    tables_of,
)
from mjscore.store import packaged as _packaged
from mjscore.model.errors import InputError, Location, MjError
from mjscore.model.say import _
from mjscore.model.settings import BY_NAME, ROTATION, SETTINGS, Setting
from mjscore.model.settings import given as given_settings
from mjscore.model.table import Table
from mjscore.model.tiles import SEATS as SEATS_ORDER
from mjscore.model.tiles import Wind
from mjscore.pipeline import TableResult, evaluate, evaluate_player, named_in, player_dict, table_waits
from mjscore.rules.scheme import Scheme
from mjscore.scoring.score import PlayerScore
from mjscore.rules.scheme import load_scheme as _load_scheme
from mjscore.rules.shipped import shipped_schemes as _shipped_schemes

if TYPE_CHECKING:      # what type checkers see; at run time, see above
    from mjscore.evening.batch import BatchItem as BatchItem  # for the shells: a batch's item (`score_many`)
    from mjscore.evening.batch import collect_for_a_long_run as collect_for_a_long_run  # for `mjscore batch`
    from mjscore.evening.check import CheckReport
    from mjscore.model.answers import RulesPlain, SettingPlain
    from mjscore.evening.journal import Added, Corrected, Removed
    from mjscore.evening.journal import HandChangedError as HandChangedError  # for the shells: a correction too late
    from mjscore.evening.journal import hand_version as hand_version  # ... and what it names the hand it corrects by
    from mjscore.evening.journal import HandTakenError as HandTakenError  # for the shells: a hand added twice
    from mjscore.evening.journal import NotTheLastHandError as NotTheLastHandError  # ... or taken back twice
    from mjscore.evening.season import SeasonResult as SeasonResult  # for the shells: a season's record
    from mjscore.evening.night import NightResult as NightResult  # for the shells: a night's record
    from mjscore.evening.draw import NightDraw as NightDraw  # for the shells: a night's seats drawn
    from mjscore.evening.night import night_words as night_words  # ... and its phrases
    from mjscore.evening.kajongg import ImportedGame as ImportedGame, KajonggImport
    from mjscore.evening.next_hand import NextHand as NextHand  # for the page: the next hand its phones enter
    from mjscore.evening.next_hand import HandMovedError as HandMovedError, NotSettled as NotSettled  # what it refuses
    from mjscore.evening.next_hand import NotYourSeatError as NotYourSeatError
    from mjscore.evening.session import NextDeal, SessionResult
    from mjscore.evening.words import hand_title as hand_title  # for the shells: a hand named one way
    from mjscore.evening.session import money_so_far as money_so_far  # for the shells: a won or lost after a hand
    from mjscore.evening.words import paid as paid, payment_sentences as payment_sentences  # a hand in words, made once
    from mjscore.evening.words import penalty_sentences as penalty_sentences, said as said
    from mjscore.evening.words import special_sentence as special_sentence
    from mjscore.evening.words import amount as amount, evening_words as evening_words, outcome as outcome
    from mjscore.evening.words import figures as figures, how_won as how_won, won_or_lost as won_or_lost
    from mjscore.evening.words import finished as finished
    from mjscore.evening.words import nobody_pays as nobody_pays, settle_up_lines as settle_up_lines
    from mjscore.evening.words import totals_stop as totals_stop
    from mjscore.evening.words import added_up_said as added_up_said, completed_said as completed_said
    from mjscore.evening.words import draw_said as draw_said, grid_words as grid_words
    from mjscore.evening.words import no_payments_said as no_payments_said, not_settled_said as not_settled_said
    from mjscore.evening.words import payments_said as payments_said, total_said as total_said
    from mjscore.evening.words import settle_up_part as settle_up_part, winner_said as winner_said
    from mjscore.evening.words import left_out_said as left_out_said, season_heading as season_heading
    from mjscore.evening.words import headings as headings, season_words as season_words
    from mjscore.evening.words import prompt_words as prompt_words, scheme_words as scheme_words
    from mjscore.evening.words import items_said as items_said
    from mjscore.evening.words import stakes_differ_said as stakes_differ_said, money_total_said as money_total_said
    from mjscore.evening.page_words import page_words as page_words  # for the page: its own words, made once
    from mjscore.evening.page_words import night_page_words as night_page_words  # ... and a night's
    from mjscore.io.sessionfile import SessionHeader

# The names passed on from modules a one-hand score does not load, each loaded when first asked
# for (PEP 562), as the package face loads this module.
_ELSEWHERE = {
    "BatchItem": "mjscore.evening.batch", "collect_for_a_long_run": "mjscore.evening.batch",
    "HandChangedError": "mjscore.evening.journal", "hand_version": "mjscore.evening.journal",
    "HandTakenError": "mjscore.evening.journal", "NotTheLastHandError": "mjscore.evening.journal",
    "SeasonResult": "mjscore.evening.season", "NightResult": "mjscore.evening.night",
    "NightDraw": "mjscore.evening.draw",
    "night_words": "mjscore.evening.night",
    "ImportedGame": "mjscore.evening.kajongg",
    "hand_title": "mjscore.evening.words", "money_so_far": "mjscore.evening.session",
    "page_words": "mjscore.evening.page_words", "night_page_words": "mjscore.evening.page_words",
    **dict.fromkeys(("NextHand", "HandMovedError", "NotYourSeatError", "NotSettled"), "mjscore.evening.next_hand"),
    **dict.fromkeys(("paid", "payment_sentences", "penalty_sentences", "said", "special_sentence", "amount",
                     "evening_words", "outcome", "figures", "how_won", "won_or_lost", "finished", "nobody_pays",
                     "settle_up_lines", "totals_stop", "added_up_said", "completed_said", "draw_said", "grid_words",
                     "no_payments_said", "not_settled_said", "payments_said", "total_said", "winner_said",
                     "settle_up_part", "left_out_said", "season_heading", "season_words", "headings", "prompt_words",
                     "scheme_words", "items_said", "stakes_differ_said", "money_total_said"),
                    "mjscore.evening.words"),
}


def __getattr__(name: str) -> object:
    module = _ELSEWHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'mjscore.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["parse", "score", "score_many", "play_session", "play_season", "waits", "check", "check_many",
           "check_line", "entry_line", "answer_kind", "help_topics", "help_text", "examples", "example",
           "load_scheme", "shipped_schemes", "tables", "waits_many", "canonical", "Evening", "NextHand", "Penalty",
           "describe_scheme", "diff_schemes", "payoff_tables", "payoff_names", "import_kajongg",
           "night_tables", "play_night", "draw_night", "start_night"]
# Also here, for the shells: Entry, LineCheck, HandTakenError (see their docstrings).

Source = str | os.PathLike[str]
V = TypeVar("V")


class Entry(NamedTuple):
    """One table of a source, as a streaming function gives it: where it stands, and what became
    of it (`value`) or the error that stopped it."""

    file: str
    line: int
    value: Any = None
    error: MjError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


# -- settings as keyword arguments -------------------------------------------------------------

def _takes(*declared: tuple[Setting[Any], ...]) -> Callable[[Callable[..., V]], Callable[..., V]]:
    """Give a function that takes `**settings` a signature naming each setting it takes, so that
    `help()` and editors list them; the names come from the declarations (model.settings)."""
    def mark(func: Callable[..., V]) -> Callable[..., V]:
        sig = inspect.signature(func)
        params = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        params += [inspect.Parameter(x.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                     annotation=f"{getattr(x.kind, '__name__', x.kind)} | None")
                   for group in declared for x in group]
        func.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]  # read by inspect
        return func
    return mark


def _given(settings: dict[str, Any], *declared: tuple[Setting[Any], ...]) -> dict[str, Any]:
    """Keyword arguments as settings: each checked (a wrong value raises SettingError, an MjError);
    a name that is no setting is a TypeError, as for any function."""
    known = {x.name for group in declared for x in group}
    for name in settings:
        if name not in known:
            raise TypeError(f"unexpected keyword argument '{name}' (the settings: {', '.join(sorted(known))})")
    return given_settings(settings)


def _scheme_name(scheme: str | os.PathLike[str] | None) -> str | None:
    return os.fspath(scheme) if scheme is not None else None


def _source(source: Source, name: str | None = None) -> tuple[str, str]:
    """(text, name) of a source read whole: a path's file (`Path("-")`: standard input), or a
    `str`, which is the text itself, called `name` (default `<input>`) in error messages."""
    if isinstance(source, os.PathLike):
        return read_text(os.fspath(source))
    if not isinstance(source, str):
        raise TypeError(f"a source is a path (pathlib.Path) or a text (str), not {type(source).__name__}")
    return source, name or "<input>"


# -- tables ------------------------------------------------------------------------------------

def parse(text: str, *, name: str = "<input>") -> list[Table]:
    """The tables of a text, in the compact notation or YAML (told apart by their content).

    >>> import mjscore
    >>> [t] = mjscore.parse("E: [111p] 234m 567s 99s EEE win 9s self")
    >>> t.winner.seat.value, len(t.players)
    ('E', 1)
    """
    return parse_any(text, name)


def tables(source: Source | Iterable[str], *, name: str | None = None) -> Iterator[Entry]:
    r"""Each table of a source as it is read: an `Entry` whose `value` is the `Table`, or whose
    `error` says why it could not be read (the tables after it are still read).

    >>> import mjscore
    >>> [(e.line, e.ok) for e in mjscore.tables("E: score 10 win self\n---\nE: 12x")]
    [(1, True), (3, False)]
    """
    if isinstance(source, os.PathLike):
        rows = tables_of(source)
    elif isinstance(source, str):
        rows = tables_of(Given(source, name or "<input>"))
    else:
        rows = tables_of(Lines(source, name or "<lines>"))
    for file, line, item in rows:
        yield Entry(file, line, None, item) if isinstance(item, MjError) else Entry(file, line, item)


def canonical(source: Source, *, tiles: str = "text", name: str | None = None) -> Iterator[Entry]:
    r"""Each table of a source in canonical compact notation, checked on the way (`value`: the
    text; `tiles="unicode"` writes tile pictures); a player's runs stay as she grouped them.  A
    session file comes back whole, its header and the players' names kept, so that the text
    plays again to the same evening.

    >>> import mjscore
    >>> [e.value for e in mjscore.canonical("S: [Rd Rd Rd] 432m 876m 55p 789s 1f win 5p from N")]
    ['S: [CCC] 234m 678m 55p 789s 1f win 5p from N\n']
    """
    if isinstance(source, os.PathLike) and os.fspath(source) != "-" and file_is_session(os.fspath(source)):
        from mjscore.evening.journal import print_session

        path = os.fspath(source)
        try:
            yield Entry(path, 1, print_session(*read_text(path), style=tiles))
        except MjError as e:
            yield Entry(path, e.location.line, None, e)
        return
    for entry in tables(source, name=name):
        if entry.error is not None:
            yield entry
            continue
        try:
            validate_table(entry.value)
        except MjError as e:
            yield Entry(entry.file, entry.line, None, e)
            continue
        yield entry._replace(value=print_table(entry.value, style=tiles))


# -- scoring -----------------------------------------------------------------------------------

@_takes(SETTINGS)
def score(text: str | Table, *, scheme: str | os.PathLike[str] | None = None, explain: bool = False,
          **settings: Any) -> TableResult:
    """Score and settle one table, given as text (compact or YAML) or as a parsed `Table`.

    The keyword arguments are those of `mjscore score`: the scheme, `explain`, and every setting
    (`paying`, `payoff`, `east_double`, `kitty`, ...: see `help(mjscore.score)`); a setting left
    out (or None) is the table's header's, then the scheme's.  `result.to_dict()` is the object
    `mjscore score --format json` prints.

    >>> import mjscore
    >>> r = mjscore.score("E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ...")
    >>> [(p.seat.value, p.score) for p in r.players][0], r.net[mjscore.Wind.EAST]
    (('E', 352), 2112)
    >>> mjscore.score("E: score 40 win self; S: ...; W: ...; N: ...", paying="winner-only").net[mjscore.Wind.EAST]
    240
    """
    given = _given(settings, SETTINGS)
    if isinstance(text, Table):
        return evaluate(text, _scheme_name(scheme), given, explain)
    found = parse_any(text, "<input>")
    if len(found) != 1:
        raise InputError(_("score takes one table; this text holds {n} (use score_many, or parse and score "
                           "each)").format(n=len(found)), Location("<input>"))
    return evaluate(found[0], _scheme_name(scheme), given, explain)


@_takes(SETTINGS)
def score_many(*sources: Source | Iterable[str], jobs: int = 1, scheme: str | os.PathLike[str] | None = None,
               name: str | None = None, encode: Callable[[BatchItem], str] | None = None,
               explain: bool = False, sessions: bool = False, **settings: Any) -> Iterator[BatchItem]:
    """Score every table of one or more sources, as they stream (a compact file is read a table
    at a time, so memory does not grow with its length).

    Yields one `BatchItem` per table in input order, numbered across the sources: `item.result`
    (a `TableResult`) or `item.error` (an `MjError`); `item.to_dict()` is the JSON line `mjscore
    batch` writes.  With `sessions`, a session file (a `Path`) gives an item per hand, played
    with its seating (`item.data`: the hand as `play_session` gives it), then one for its end
    (`item.table` 0: the totals, the standings and the settle-up); without, an error item.  The
    scheme, `explain` and the settings as for `score`.  With `jobs` above 1, files are parsed
    and scored in that many worker processes, in the same order; each item then carries its
    plain result (`item.data`, what `to_dict()` holds) rather than a typed one.  `encode`
    turns each item into the text to write, where it was scored (`item.text`): from its plain
    form (`item.to_dict()`) or that form as JSON (`item.to_json()`, written without building it).

    >>> import mjscore
    >>> from pathlib import Path
    >>> for item in mjscore.score_many(Path("sample_hands/evening.mj")):
    ...     print(item.line, item.result.to_dict()["winner"] if item.ok else item.error)
    2 E
    8 None
    16 W
    """
    from mjscore.evening.batch import encoded, score_files, score_stream

    given = _given(settings, SETTINGS)
    if sources and all(isinstance(s, os.PathLike) for s in sources):
        paths = [os.fspath(s) for s in sources]       # type: ignore[arg-type]  # all paths, checked above
        return score_files(paths, _scheme_name(scheme), given, jobs, encode, explain, sessions)
    rows = ((e.file, e.line, e.error or e.value) for s in sources for e in tables(s, name=name))
    items = score_stream(rows, _scheme_name(scheme), given, explain)
    return items if encode is None else (encoded(item, encode) for item in items)


def waits(source: Source, scheme: str | os.PathLike[str] | None = None, *,
          name: str | None = None) -> list[list[dict[str, Any]]]:
    """For each table of the source, each fully listed player's waits: the tiles that complete
    the hand (`waits`), and those of them whose other copies are all in sight (`dead`).

    >>> import mjscore
    >>> mjscore.waits("E: 1m 19p 19s E S W NN C F P")
    [[{'seat': 'E', 'waits': ['9m'], 'dead': []}]]
    """
    text, name = _source(source, name)
    return [table_waits(table, _scheme_name(scheme)) for table in parse_any(text, name)]


def waits_many(source: Source | Iterable[str], scheme: str | os.PathLike[str] | None = None, *,
               name: str | None = None) -> Iterator[Entry]:
    r"""`waits` as a stream: an `Entry` per table, its `value` the players' waits, or its error
    (the tables after it go on).

    >>> import mjscore
    >>> [e.value or str(e.error) for e in mjscore.waits_many("E: 1m 19p 19s E S W NN C F P\n---\nE: 1x")]
    [[{'seat': 'E', 'waits': ['9m'], 'dead': []}],
     "<input>:3:4: error: '1x' is not a tile: 'x' is no suit (m p s, or c d b; z for honours)"]
    """
    for entry in tables(source, name=name):
        if entry.error is not None:
            yield entry
            continue
        try:
            yield entry._replace(value=table_waits(entry.value, _scheme_name(scheme)))
        except MjError as e:
            yield Entry(entry.file, entry.line, None, e)


@_takes(SETTINGS)
def check(source: Source | Iterable[str], *, name: str | None = None, scheme: str | os.PathLike[str] | None = None,
          **settings: Any) -> CheckReport:
    """Compare every `= N` claim of a table file or session with mjscore's score.

    Returns the report's lines (each claim, and why it differs: mjscore's breakdown beside it,
    then what would account for the difference, or that nothing would), how many claims differ,
    and how many tables could not be read or scored (each has its error line in the report; the
    others are still checked).  `check_many` gives the same a table at a time.

    >>> import mjscore
    >>> report = mjscore.check("round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 80")
    >>> report.differences, report.lines[0]
    (1, '<input>:1:10: E claims 80, mjscore counts 160 (40 points, 2 doubles)')
    """
    from mjscore.evening.check import CheckReport

    lines: list[str] = []
    differences = errors = 0
    for entry in check_many(source, name=name, scheme=scheme, **settings):
        if entry.error is not None:
            errors += 1
            lines.append(str(entry.error))
        else:
            lines.extend(entry.value.lines)
            differences += entry.value.differences
    return CheckReport(lines, differences, errors)


@_takes(SETTINGS)
def check_many(source: Source | Iterable[str], *, name: str | None = None,
               scheme: str | os.PathLike[str] | None = None, **settings: Any) -> Iterator[Entry]:
    r"""`check` as a stream: an `Entry` per table (per hand of a session), its `value` a
    `CheckReport` of that table's claims, or its `error`; the tables after a bad one are still
    checked.  A compact file is read a table at a time, and nothing is kept once given, so memory
    does not grow with the number of tables.

    >>> import mjscore
    >>> [(e.line, e.value.lines if e.ok else str(e.error))
    ...  for e in mjscore.check_many("E: score 10 win self = 10\n---\nE: 1x")]
    [(1, ['<input>:1:1: E claims 10 beside a score counted at the table (score 10): there are no tiles to
           compare with']),
     (3, "<input>:3:4: error: '1x' is not a tile: 'x' is no suit (m p s, or c d b; z for honours)")]
    """
    from mjscore.evening.check import check_rows

    given = _given(settings, SETTINGS)
    rows: Iterable[tuple[str, int, Any]]
    if isinstance(source, os.PathLike):
        rows = tables_of(source, sessions=True)
    elif isinstance(source, str):
        rows = tables_of(Given(source, name or "<input>"), sessions=True)
    else:
        rows = tables_of(Lines(source, name or "<lines>"))
    for file, line, item in check_rows(rows, _scheme_name(scheme), given):
        yield Entry(file, line, None, item) if isinstance(item, MjError) else Entry(file, line, item)


# -- evenings ----------------------------------------------------------------------------------

@_takes(SETTINGS, ROTATION)
def play_session(source: Source, *, name: str | None = None, keep_going: bool = False,
                 scheme: str | os.PathLike[str] | None = None, **settings: Any) -> SessionResult:
    """Play a session (an evening) through: seats rotating, running totals, standings, settle-up.

    Give the session's file (a `Path`) or its text.  The scheme and the settings as for
    `score`, and the rotation's (`draw_passes_deal`, ...); they override the session's header.
    `result.to_dict()` is what `mjscore session --format json` prints.  A bad hand raises its
    error; with `keep_going`, every bad hand is in `result.errors` and the totals stop at the
    first.

    >>> import mjscore
    >>> from pathlib import Path
    >>> s = mjscore.play_session(Path("sample_hands/evening-session.mj"))
    >>> s.standings[0], [t.as_dict() for t in s.settle_up][0]
    (('Ann', 2898), {'from': 'Bob', 'to': 'Ann', 'amount': 816})
    """
    from mjscore.evening.resume import play_file
    from mjscore.evening.session import play
    from mjscore.io.sessionfile import read_session

    given = _given(settings, SETTINGS, ROTATION)
    text, shown = _source(source, name)
    session = read_session(text, shown)
    if isinstance(source, os.PathLike) and os.fspath(source) != "-":
        # An evening file keeps a checkpoint (evening.resume): the hands played before are read back.
        return play_file(session, os.fspath(source), _scheme_name(scheme), given, keep_going)
    return play(session, _scheme_name(scheme), given, keep_going)


@_takes(SETTINGS, ROTATION)
def play_season(paths: Iterable[str | os.PathLike[str]] | os.PathLike[str], *,
                scheme: str | os.PathLike[str] | None = None, **settings: Any) -> SeasonResult:
    """The club's record: every evening of a season played as `play_session` plays a file (from
    its checkpoint where it has one), the players matched across evenings by name as an evening
    matches them (`ann` is Ann; the name shown is the first spelling met), and their figures.

    `paths` are the season's nights, in order, each a path (a `str` here is a path, a season
    being files): a folder is one night, its evening files (`.mj`, `.yaml`, `.yml` that are
    sessions, in the order of their names; a link among them never followed) each a table of
    that night; an evening file given alone is a night of one table; `Path("-")` is standard
    input.  A player's night counts once however many of its tables she sat at
    (`PlayerFigures.nights`, her result that night the sum over them: `result.nights`); the
    evenings' counts (`evenings`, `per_evening`) still count evening files.  With stakes, the
    money: `result.stake` where every evening had the same one, `result.money` by currency.
    The scheme and the settings as for `play_session`, for every evening.  An evening that
    cannot be played (a bad header or hand, a file that cannot be read) is left out, its errors
    in `result.errors`; the others still count.  Each
    evening is counted and let go, so a season of any length takes the same memory.
    `result.to_dict()` is what `mjscore season --format json` prints.

    >>> import mjscore
    >>> from pathlib import Path
    >>> season = mjscore.play_season([Path("sample_hands/evening-session.mj")])
    >>> s = season.standings[0]
    >>> s.place, s.name, s.won_or_lost, season.player("ann").hands_won
    (1, 'Ann', 898, 5)
    """
    from mjscore.evening.season import play_season as _play_season

    if isinstance(paths, str):
        raise TypeError("a season is a list of evening files and folders: play_season([path, ...])")
    given = _given(settings, SETTINGS, ROTATION)
    each = [paths] if isinstance(paths, os.PathLike) else paths
    return _play_season((os.fspath(p) for p in each), _scheme_name(scheme), given)


def night_tables(paths: Sequence[str | os.PathLike[str]]) -> list[tuple[str, str]]:
    """A night's tables, (name, path) each: a folder's evening files (every `.mj` and `.yaml`,
    in the order of their names, links and sub-folders passed over), or the files given; each
    table named by its file's stem (`table-1.mj` is `table-1`).  Two of one name: InputError.

    >>> import mjscore
    >>> mjscore.night_tables(["sample_hands/evening-session.mj"])
    [('evening-session', 'sample_hands/evening-session.mj')]
    """
    from mjscore.evening.night import night_files

    return night_files([os.fspath(p) for p in paths])


def play_night(paths: Sequence[str | os.PathLike[str]] | Mapping[str, Evening]) -> NightResult:
    """A club's night of several tables: each table's evening played (a folder or files, as
    `night_tables` finds them; or the tables' `Evening`s by name, as the page holds them), each
    player's won or lost over the night (summed over her tables), and the night's settle-up among
    all its players in the fewest transfers, in money when every table plays at one stake.
    `result.to_dict()` is what the page's `GET /api/night` sends.

    >>> import mjscore
    >>> night = mjscore.play_night(["sample_hands/evening-session.mj"])
    >>> night.standings()[0], night.settle_up[0].as_dict()
    (('Ann', 898), {'from': 'Bob', 'to': 'Ann', 'amount': 816})
    """
    from mjscore.evening.night import play_night as _play_night

    if isinstance(paths, Mapping):
        return _play_night((name, ev.play()) for name, ev in paths.items())
    return _play_night((name, play_session(Path(path))) for name, path in night_tables(paths))


def draw_night(players: Sequence[str], seed: int | None = None) -> NightDraw:
    """A night's seats drawn: `players` (4, 8, 12, ... names, none twice) to tables of four and
    their seats, from `seed` (one chosen at random when None: `result.seed` says which).  One
    shuffle of the names as given by `random.Random(seed)`, then four by four, E S W N: the same
    seed and names give the same draw anywhere.

    >>> import mjscore
    >>> mjscore.draw_night(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"], seed=7).tables
    (('Gus', 'Hal', 'Cid', 'Eve'), ('Ann', 'Dee', 'Bob', 'Fay'))
    """
    from mjscore.evening.draw import chosen_seed, draw

    return draw(players, chosen_seed() if seed is None else seed)


@_takes(SETTINGS, ROTATION)
def start_night(folder: str | os.PathLike[str], drawn: NightDraw, *, start: int | None = None,
                scheme: str | os.PathLike[str] | None = None, **settings: Any) -> list[str]:
    """Make the night's folder and its tables' evening files (`table-1.mj`, ...) as `drawn`
    seats them, each header with `start`, `scheme`, the settings and the draw (its seed) in a
    comment; the files' paths.  Nothing is written where the folder holds evening files already.

    >>> import mjscore, os, tempfile
    >>> from pathlib import Path
    >>> folder = os.path.join(tempfile.mkdtemp(), "friday")
    >>> drawn = mjscore.draw_night(["Ann", "Bob", "Cid", "Dee"], seed=7)
    >>> [os.path.basename(path) for path in mjscore.start_night(folder, drawn, stake="0.05 EUR")]
    ['table-1.mj']
    >>> mjscore.play_session(Path(folder, "table-1.mj")).to_dict()["players"] == list(drawn.tables[0])
    True
    """
    from mjscore.evening.draw import start_night as _start_night

    return _start_night(os.fspath(folder), drawn, start=start, scheme=_scheme_name(scheme),
                        settings=_given(settings, SETTINGS, ROTATION))


def import_kajongg(database: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None, *,
                   game: int | None = None, force: bool = False) -> KajonggImport:
    """Bring in the games of a Kajongg database (KDE Kajongg's sqlite file): one evening file
    each, which `play_session` plays, checked against the scores and balances Kajongg stored.

    The database is opened read-only and never changed.  With a `folder`, each game's file is
    written there, named after the game's start and number (none is replaced unless `force`);
    without one, nothing is written and each game's `text` is the file it would be.  `game`
    takes only that game.  A game under a rule set that no scheme reproduces is in `refused`
    (with `game`, it is raised); a file that is not a Kajongg database raises `InputError`.

    >>> import mjscore
    >>> got = mjscore.import_kajongg("tests/data/kajongg-dmjl-3.db")
    >>> [(g.game, g.scheme, g.check.agreeing, g.check.hands, g.check.balances_agree) for g in got.games]
    [(1, 'kajongg-dmjl', 26, 27, False)]
    >>> print(got.games[0].check.departures[0].why)
    Kajongg left the robbed 5p in Robot_3's kong and scored it as a kong (30); robbed, it is a pung of 5p (18)
    """
    from mjscore.evening.kajongg import import_games
    from mjscore.io.kajongg_db import read_database

    db = read_database(os.fspath(database), game)
    return import_games(db, os.fspath(folder) if folder is not None else None, game=game, force=force)


class LineCheck(NamedTuple):
    """One player's line of the next hand, checked as far as a line alone can be: `error` (with
    its column in the line) or the player's score as the line stands."""

    seat: Wind
    error: MjError | None
    player: PlayerScore | None = None
    line: str = ""              # the line as the evening's file keeps it (`12` is `score 12`), when right

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        # Held by the page as a draft, with more keys (`DraftPlain`): a plain dict here.
        d: dict[str, Any] = {"seat": self.seat.letter, "ok": self.ok}
        if self.ok:
            d["line"] = self.line
        if self.error is not None:
            e = self.error
            d["error"] = {"message": e.message, "line": e.location.line, "column": e.location.column,
                          "token": e.token}
        if self.player is not None:
            d["player"] = player_dict(self.player)
        return d
def check_line(answer: str, seat: str | Wind, names: Sequence[str] | None = None, *,
               scheme: str | os.PathLike[str] | None = None, round: str | Wind = "E",
               name: str = "<typed>") -> MjError | None:
    """The error in one player's line as typed at the table, or None when the line alone is
    right: what `mjscore add` asks at a terminal after each answer, and what a page can ask as
    each player's line is tapped in.

    `seat` is the player's seat wind this hand (`"S"`); `names` the evening's four players in
    this hand's seat order E S W N, so that the line may name them (`win 5s from Bob`, in any
    case); `scheme` the evening's (a winner's hand must be complete under it) and `round` the
    prevailing wind.  The answer may use the prompt's shorthand (`entry_line`): Enter alone for
    a loser who scored nothing, `12` for `score 12`.  A penalty (`penalty NAME N [to NAME]`)
    and `draw` are answers too.  What only the whole table shows (the tiles across players, one
    winner) is checked when the hand is added (`Evening.add`).  The error is an `MjError`
    placed in what was typed (`name`, line 1, its column); its `seats` say whose line it is.

    >>> import mjscore
    >>> names = ("Ann", "Bob", "Cid", "Dee")
    >>> print(mjscore.check_line("[111p] 222s 333m EEE 99s win 9s from Ana", "S", names))
    <typed>:1:38: error: no player 'Ana' at this table: Ann, Bob, Cid, Dee
    >>> mjscore.check_line("[111p] 222s 333m EEE 99s win 9s from ann", "S", names) is None
    True
    >>> print(mjscore.check_line("12", "W", names), mjscore.entry_line("12"))
    None score 12
    """
    error = _check_line(answer, seat, names, scheme=_scheme_name(scheme), round=round, name=name)
    if error is not None and not error.seats:
        error.seats = ((seat if isinstance(seat, str) else seat.value),)
    return error


def answer_kind(answer: str) -> str:
    """What an answer at a player's prompt is: `"draw"`, `"penalty"` (`penalty NAME N [to NAME]`)
    or `"line"` (the player's line).

    >>> import mjscore
    >>> mjscore.answer_kind("draw"), mjscore.answer_kind("penalty Bob 100"), mjscore.answer_kind("")
    ('draw', 'penalty', 'line')
    """
    return _answer_kind(answer)


def entry_line(answer: str) -> str:
    """An answer typed at a player's prompt as the evening's file keeps it: Enter alone is `...`
    (a loser who scored nothing), a number first is the score counted at the table.

    >>> import mjscore
    >>> mjscore.entry_line(""), mjscore.entry_line("12"), mjscore.entry_line("40 win self")
    ('...', 'score 12', 'score 40 win self')
    """
    return _entry_line(answer)


class Evening:
    """An evening kept in one file of the compact notation, as `mjscore add`, `undo` and
    `session` keep it: a header naming the players, then the hands.  It remembers the evening
    as last played, and plays it again only when the file has changed.

    >>> import mjscore, tempfile
    >>> from pathlib import Path
    >>> ev = mjscore.Evening(Path(tempfile.mkdtemp()) / "evening.mj")
    >>> ev.add("E: score 40 win self; S: score 8; W: ...; N: ...", players=("Ann", "Bob", "Cid", "Dee")).created
    True
    >>> ev.play().totals
    {'Ann': 2240, 'Bob': 1936, 'Cid': 1912, 'Dee': 1912}
    >>> ev.check_line("S", "score 12").ok, ev.check_line("S", "123x").error.message
    (True, "'123x' is not a tile: 'x' is no suit (m p s, or c d b; z for honours)")
    >>> ev.next_deal().dealer, len(ev.undo().evening.hands)
    ('Ann', 0)
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = os.fspath(path)
        self._played: tuple[tuple[int, int, int, int], SessionResult, SessionHeader, tuple[str, ...]] | None = None
        # Held while the evening is played again: callers asking at once (a page's phones) share one play.
        self._playing = threading.Lock()

    def exists(self) -> bool:
        return os.path.lexists(self.path)

    def version(self) -> str:
        """What tells one state of the file from another (it changes when the file does)."""
        return "-".join(map(str, self._signature()))

    @_takes(SETTINGS, ROTATION)
    def add(self, hand: Source, *, players: tuple[str, ...] | None = None, start: int | None = None,
            scheme: str | os.PathLike[str] | None = None, name: str | None = None, number: int | None = None,
            **settings: Any) -> Added:
        """Add one hand (its text, `;` breaking lines, or a file holding it) and play the evening
        with it; nothing is written when it is wrong.  A new evening names its `players` in seat
        order, and may give its `start`, `scheme` and settings, which go into its header; on a
        later hand, a table's settings go into the hand's own header.  With `number`, the hand
        must be that hand of the evening (an error, and nothing written, if it is there already)."""
        from mjscore.evening.journal import add_hand

        text, shown = _source(hand, name)
        label = name or ("<typed>" if shown == "<input>" else shown)
        added = add_hand(self.path, text, players=players, start=start, scheme=_scheme_name(scheme),
                         settings=_given(settings, SETTINGS, ROTATION), hand_name=label, number=number)
        self._played = None
        return added

    @_takes(SETTINGS, ROTATION)
    def start(self, players: tuple[str, ...], *, start: int | None = None,
              scheme: str | os.PathLike[str] | None = None, **settings: Any) -> bool:
        """Make the evening's file, its header naming the `players` (and `start`, `scheme`, the
        settings), with no hand yet; False, and nothing written, when the file is there already."""
        from mjscore.evening.journal import start_evening

        made = start_evening(self.path, players, start=start, scheme=_scheme_name(scheme),
                             settings=_given(settings, SETTINGS, ROTATION))
        self._played = None
        return made

    def undo(self, *, number: int | None = None) -> Removed:
        """Take the last hand back out of the file; the evening without it.  With `number`, only
        if that hand is the last (`NotTheLastHandError` otherwise, and nothing written)."""
        from mjscore.evening.journal import remove_last_hand

        removed = remove_last_hand(self.path, number=number)
        self._played = None
        return removed

    def hand_seating(self, number: int) -> tuple[list[str], str, str]:
        """Hand `number` as it was played: its players at E S W N, its round's letter, and its
        text as the file holds it (what `mjscore edit` offers to change)."""
        from mjscore.evening.journal import nth_hand
        from mjscore.io.sessionfile import read_session

        text, name = read_text(self.path)
        source = nth_hand(read_session(text, name), number, self.path)
        hand = self.play().hands[number - 1]
        return ([hand.names[s] for s in SEATS_ORDER], hand.to_dict()["round"], source.text or "")

    def edit(self, number: int, hand: Source, *, name: str | None = None, version: str | None = None) -> Corrected:
        """Correct hand `number`: its text replaced (`;` breaking lines, or a file holding it),
        the hands after it played again; nothing written when it, or a later hand after it, is
        wrong (the later hand named).  With `version` (`hand_version` of the text the correction
        started from), `HandChangedError` and nothing written when the hand is another now.
        `result.changed()`: the totals that moved."""
        from mjscore.evening.journal import replace_hand

        text, shown = _source(hand, name)
        typed = "<typed>" if shown == "<input>" else shown
        corrected = replace_hand(self.path, number, text, hand_name=name or typed, version=version)
        self._played = None
        return corrected

    @_takes(SETTINGS, ROTATION)
    def play(self, *, keep_going: bool = False, scheme: str | os.PathLike[str] | None = None,
             **settings: Any) -> SessionResult:
        """The evening played through, as `play_session` plays it (remembered while the file
        stays as it is, when nothing is asked of it but to play as it stands)."""
        if keep_going or scheme is not None or settings:
            return play_session(Path(self.path), keep_going=keep_going, scheme=scheme, **settings)
        return self._remembered()[0]

    def stats(self) -> SeasonResult:
        """The evening's figures for each player (what `mjscore session EVENING --stats` shows):
        the season of this one evening, its file named without its folder."""
        from mjscore.evening.season import evening_figures

        return evening_figures(os.path.basename(self.path), self.play())

    def next_deal(self) -> NextDeal:
        """Who deals the next hand, in which round, which hand of the evening it is, and who sits where."""
        result = self.play()
        assert result.next is not None          # a played evening always says who deals next
        return result.next

    def scheme(self) -> str | None:
        """The scheme the evening's header names, as the evening reads it (a path relative to
        the evening's folder); None for the default."""
        played, _header = self._remembered()
        return None if played.scheme is None else named_in(played.scheme, self.path)

    def check_line(self, seat: str | Wind, line: str) -> LineCheck:
        """One player's line of the next hand, as typed at the table (`[111p] 234m ... win 5p
        from Bob`, `12` for `score 12`, Enter alone for `...`; see `check_line`), checked as far
        as a line alone can be under the evening's scheme and seating, and scored as it stands.
        An error's column counts in `line`."""
        from mjscore.evening.session import next_hand

        where = Wind(seat) if isinstance(seat, str) else seat
        played, header = self._remembered()
        nxt = played.next
        assert nxt is not None                  # a played evening always says who deals next
        try:
            typed = normalise(line, "<line>").replace("\n", " ")
        except MjError as e:                    # a NUL or a byte that is no UTF-8: the line's own error
            return LineCheck(where, e)
        kind = _answer_kind(typed)
        if kind != "line":
            return LineCheck(where, InputError(_("'{kind}' is not a player's line: a {kind} is entered for the whole "
                                                 "table").format(kind=kind), Location("<line>", 1, 1), typed.strip()))
        error = check_line(typed, where, nxt.seats, scheme=self.scheme(), round=nxt.round, name="<line>")
        if error is not None:
            return LineCheck(where, error)
        body = typed.strip()
        head = body.split(maxsplit=1)[0] if body else ""
        if head.endswith(":"):                  # the player's own seat or name, written first
            body = body[len(head):].strip()
        kept = _entry_line(body)
        try:
            table = next_hand(played, header, f"{where.letter}: {kept}", "<line>")
            return LineCheck(where, None, evaluate_player(table, where, self.scheme()), kept)
        except MjError:
            return LineCheck(where, None, None, kept)   # right alone; what it scores waits for the table

    def rules(self) -> RulesPlain:
        """The rules in force (the page's Rules view): the scheme's name, title and description;
        for a house file, its base and what it changed from it (as `schemes diff BASE FILE`);
        and every setting of the evening as its header would write it, each marked `given` where
        the header sets it rather than the scheme.

        >>> import tempfile
        >>> from pathlib import Path
        >>> ev = Evening(Path(tempfile.mkdtemp()) / "evening.mj")
        >>> ev.start(("Ann", "Bob", "Cid", "Dee"), kitty=20)
        True
        >>> r = ev.rules()
        >>> r["scheme"], r["base"], [s for s in r["settings"] if s["word"] in ("paying", "kitty")]
        ('classical', None, [{'word': 'paying', 'value': 'between-all', 'given': False, 'help': ...}, \
{'word': 'kitty', 'value': '20', 'given': True, 'help': ...}])
        """
        from mjscore.rules import views as _views

        played, header = self._remembered()
        scheme = load_scheme(named_in(played.scheme, self.path) if played.scheme is not None else None)
        given = dict(header.options)
        in_force = ((SETTINGS, scheme.settlement.layered(given)), (ROTATION, scheme.rotation.layered(given)))

        def shown(s: Setting[Any], value: Any) -> str:
            # A setting that follows another when not given says so ("as east-double").
            if value is None:
                return _("as {setting}").format(setting=BY_NAME[s.follows].word) if s.follows else _("none")
            return s.text(value)
        rows: list[SettingPlain] = [
            {"word": s.word, "value": shown(s, getattr(values, s.name)), "given": s.name in given, "help": _(s.help)}
            for group, values in in_force for s in group]
        changes = _views.diff(load_scheme(scheme.base[1]), scheme) if scheme.base else []
        return {"scheme": scheme.name, "title": _(scheme.title), "description": _(scheme.description),
                "file": None if played.scheme is None else played.scheme,
                "base": scheme.base[0] if scheme.base else None,
                "changes": [{"what": what, "base": a, "here": b} for what, a, b in changes],
                "start": played.start, "settings": rows}

    def text(self, *, tiles: str = "text") -> str:
        """The file in canonical form: header, then every hand by the seats it was played at."""
        from mjscore.evening.journal import print_session

        return print_session(*read_text(self.path), style=tiles)

    def state(self) -> tuple[str, SessionResult, tuple[str, ...]]:
        """The file's version, the evening as played at it, and each hand's text: one reading, so
        that an answer tagged with the version holds that version's evening."""
        sig, played, _kept, texts = self._remembering()
        return "-".join(map(str, sig)), played, texts

    def hand_texts(self) -> tuple[str, ...]:
        """Each hand's text as the file holds it now, in order (what tells which hand a change
        beside the page touched)."""
        return self._remembered_texts()

    def kept_next(self) -> Any:
        """What was kept beside the file for its next hand (`keep_next`), as its JSON; None when
        nothing is, or nothing that can be read.  Its contents are the caller's to check."""
        from mjscore.store.beside import read_next

        data = read_next(self.path)
        if data is None:
            return None
        try:
            return json.loads(data.decode("utf-8"))
        except ValueError:
            return None

    def keep_next(self, held: Mapping[str, Any] | None) -> None:
        """Keep `held` (JSON's types) beside the file, for the next hand, under the evening's lock,
        or nothing (None).  InputError when it cannot be written."""
        from mjscore.store.beside import write_next

        write_next(self.path, None if held is None else json.dumps(held, ensure_ascii=False, separators=(",", ":")))

    def _signature(self) -> tuple[int, int, int, int]:
        try:
            st = os.stat(self.path)
        except OSError:
            return (0, 0, 0, 0)
        return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)

    def _remembered(self) -> tuple[SessionResult, SessionHeader]:
        played = self._remembering()
        return played[1], played[2]

    def _remembered_texts(self) -> tuple[str, ...]:
        return self._remembering()[3]

    def _remembering(self) -> tuple[tuple[int, int, int, int], SessionResult, SessionHeader, tuple[str, ...]]:
        from mjscore.evening.resume import play_file
        from mjscore.io.sessionfile import read_session

        with self._playing:
            sig = self._signature()
            if self._played is None or self._played[0] != sig:
                text, name = read_text(self.path)
                session = read_session(text, name)
                self._played = (sig, play_file(session, self.path, every_hand=False), session.header,
                                tuple(h.text or "" for h in session.hands))
            return self._played


# -- what travels with it: the documents and the sample hands --------------------------------

def help_topics() -> dict[str, str]:
    """The documents that come with mjscore, by topic (what `mjscore help TOPIC` shows), each
    with its title.

    >>> import mjscore
    >>> sorted(mjscore.help_topics())
    ['notation', 'rules', 'schemes']
    """
    return _packaged.help_topics()


def help_text(topic: str) -> str:
    """A document that comes with mjscore, as Markdown: `notation` (how hands are written),
    `rules` (the rules the schemes follow, and their sources), `schemes` (scheme files, and
    a house's own).  An unknown topic raises an `InputError` naming the topics.

    >>> import mjscore
    >>> mjscore.help_text("notation").splitlines()[0]
    '# Writing hands down: the notation'
    """
    return _packaged.help_document(topic)


def examples() -> dict[str, str]:
    """The sample tables and evenings that come with mjscore, by name (what `mjscore example
    NAME` prints; `NAME.yaml` for the YAML form), each with what it shows.

    >>> import mjscore
    >>> mjscore.examples()["win-on-discard"]
    "hand 12: South wins on North's discard"
    """
    return _packaged.example_names()


def example(name: str) -> str:
    """The text of a sample file by name (`win-on-discard`, `evening-session.yaml`); an unknown
    name raises an `InputError` naming them.

    >>> import mjscore
    >>> mjscore.score(mjscore.example("win-on-discard")).winner
    <Wind.SOUTH: 'S'>
    """
    return _packaged.example_text(name)


# -- schemes -----------------------------------------------------------------------------------

def load_scheme(name_or_path: str | os.PathLike[str] | None = None) -> Scheme:
    """A scheme by shipped name (`classical`, `dmjl`, `bmja`, ...) or by file path, checked.

    >>> import mjscore
    >>> s = mjscore.load_scheme("dmjl")
    >>> s.limit, s.rule("mahjong").points
    (500, 20)
    """
    return _load_scheme(_scheme_name(name_or_path))


def shipped_schemes() -> list[str]:
    """The names of the schemes that come with mjscore.

    >>> import mjscore
    >>> "classical" in mjscore.shipped_schemes()
    True
    """
    return _shipped_schemes()


def describe_scheme(name_or_path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Every value of a scheme as rows for people (what `mjscore schemes show` lays out):
    parameters (each what it is, its value, and what a house file writes for it), set and pair
    points, the rules by scope with their ids, sources.

    >>> import mjscore
    >>> view = mjscore.describe_scheme("dmjl")
    >>> view["parameters"][0], view["rules"]["winner"][0]["id"]
    (['limit', 500, 'limit: 500'], 'mahjong')
    """
    from mjscore.rules import views as _views

    return _views.describe(load_scheme(name_or_path))


def diff_schemes(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> list[list[str]]:
    """[what, its value under a, under b] for every value two schemes give differently.

    >>> import mjscore
    >>> mjscore.diff_schemes("dmjl", "kajongg-dmjl")[0]
    ['parameter: a loose-tile win needs', 'a kong, a flower or a season', 'nothing (as Kajongg)']
    """
    from mjscore.rules import views as _views

    return _views.diff(load_scheme(a), load_scheme(b))


def payoff_tables(name_or_path: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """Every payoff scheme a scheme can settle with: what each loser pays the winner, as a
    multiple of the winner's score, in each of the five situations.

    >>> import mjscore
    >>> [t["name"] for t in mjscore.payoff_tables("classical")][:3]
    ['chinese-classical', 'chinese-modern', 'japanese']
    """
    from mjscore.rules import views as _views

    return _views.payoff_tables(load_scheme(name_or_path))


def payoff_names(name_or_path: str | os.PathLike[str] | None = None) -> list[str]:
    """The payoff schemes a table under this scheme may name (`--payoff`), sorted.

    >>> import mjscore
    >>> "japanese" in mjscore.payoff_names()
    True
    """
    from mjscore.rules import views as _views

    return _views.payoff_names(load_scheme(name_or_path))
