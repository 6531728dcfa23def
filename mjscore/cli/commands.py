"""The command line: parses options, calls the library (`mjscore.api`, and nothing under it but
the model's types), renders.  No scoring lives here.  Its other rooms: `render` lays results out
(`schemeview` the schemes), `plain` declares the shapes of the results it lays out, `prompt` asks
for a hand at a terminal, `output` is standard output as the commands write it.

Every `MjError` becomes one line `FILE:LINE:COL: error: ...` on standard error with exit
status 1.  The library is imported inside each command, so that `--help` and start-up stay
quick: this is the one place in the package where imports are deferred.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import os
import signal
import stat
import sys
from collections.abc import Callable, Iterable
from enum import Enum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer
import typer.core

from mjscore.cli import usage
from mjscore.model.errors import InputError, Location, MjError
from mjscore.model.say import Language, _, n_
from mjscore.model.settings import ROTATION, SETTINGS, Setting
from mjscore.version import __version__

if TYPE_CHECKING:
    import socket

    from mjscore.api import SeasonResult
    from mjscore.model.answers import (
        AddedPlain,
        CorrectedPlain,
        HandPlain,
        PayoffTablePlain,
        RemovedPlain,
        SchemeViewPlain,
        SeasonPlain,
        SessionPlain,
        TablePlain,
        WaitsPlain,
    )

app = typer.Typer(
    name="mjscore",
    cls=usage.Group,
    help=_("Score and settle finished Mahjong hands under the classical Chinese (Western) rules.\n\n"
         "Hands are written in the compact notation (.mj) or YAML (.yaml): 'mjscore help notation' says how, "
         "'mjscore example' lists sample tables and evenings to try the commands on, and 'mjscore COMMAND "
         "--help' shows each command with an example.\n\n"
         "Example: mjscore score -e \"S: [CCC] 234m 678m 55p 789s 1f win 5p from N; "
         "E: [111p] 2378m 4455s NN; W: (FFFF) 12345m 99p 2y 568s; N: [EEE] 11m 23p 456s 889s 3f\""),
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class TileStyle(StrEnum):
    text = "text"
    unicode = "unicode"


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


class ReportFormat(StrEnum):
    """`session` and `season`: the forms `Format` names, and a document to print."""
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    html = "html"


class BatchFormat(StrEnum):
    json = "json"
    csv = "csv"


class WaitsFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


class CheckFormat(StrEnum):
    table = "table"
    json = "json"


class ChangeFormat(StrEnum):
    table = "table"
    json = "json"


class ViewFormat(StrEnum):
    table = "table"
    markdown = "markdown"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mjscore {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help=_("Print the version and exit."))] = False,
          lang: Annotated[Language | None, typer.Option(
              "--lang", help=_("The language to write in (anywhere on the line); without it MJSCORE_LANG, "
                               "else the locale's (LC_ALL, LC_MESSAGES, LANG), else English."))] = None) -> None:
    """Score and settle finished Mahjong hands under the classical Chinese (Western) rules."""
    # The installed command has chosen its language before the app was made (mjscore.cli.start);
    # here for a caller of the app itself (a test's CliRunner).
    if lang is not None:
        from mjscore.cli.language import use

        use(lang.value)


def error_width() -> int | None:
    """The width error lines keep to: $COLUMNS, else standard error's terminal's; none for a
    file or pipe (a script reads each error as one line)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(int(columns), 40)
    if sys.stderr.isatty():
        import shutil

        return max(shutil.get_terminal_size().columns, 40)
    return None


def say_error(err: MjError | str) -> None:
    """An error on standard error, its words wrapped at the width (never a word broken)."""
    from mjscore.cli.render import report_lines

    typer.echo("\n".join(report_lines(str(err), error_width())), err=True)


def fail(err: MjError) -> NoReturn:
    say_error(err)
    raise typer.Exit(1)


def settings_options(*groups: tuple[Setting[Any], ...]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Every setting of `groups` as an option of the command, derived from its declaration
    (model.settings), as sqlite-utils gives every command its output options with one
    decorator.  The command receives them as `settings` (keyword-only, with no default: only
    this decorator gives it): the ones given, by name."""
    declared = [x for group in groups for x in group]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        sig = inspect.signature(command, eval_str=True)
        params = [p for p in sig.parameters.values() if p.name != "settings"]
        for x in declared:
            option = typer.Option(None, *x.flags, help=_(x.help), metavar=x.metavar, min=x.minimum, max=x.maximum,
                                  show_default=False, parser=_value_parser(x))
            params.append(inspect.Parameter(x.name, inspect.Parameter.KEYWORD_ONLY, default=option,
                                            annotation=x.kind | None))

        arguments = [p.name for p in params if any(isinstance(m, typer.models.ArgumentInfo)
                                                    for m in getattr(p.annotation, "__metadata__", ()))]

        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> None:
            given = {x.name: kwargs.pop(x.name) for x in declared}
            if given.get("stake") is not None:
                _stake_in_one(given["stake"], [kwargs.get(name) for name in arguments])
            command(*args, settings={k: v for k, v in given.items() if v is not None}, **kwargs)

        run.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]  # read by Typer
        return run
    return decorate


def _stake_in_one(stake: Any, arguments: list[Any]) -> None:
    """`--stake 0.05 EUR`, the currency not quoted: the shell gives the stake 0.05 and the
    command a FILE (or an EVENING) EUR.  A wrong command line (exit 2) saying how to quote it,
    when a stake with no currency comes with an argument that is a currency-like word (three
    letters) and names no file."""
    if getattr(stake, "currency", "") is not None:
        return
    words = [w for a in arguments for w in (a if isinstance(a, list) else [a])]
    for word in words:
        if isinstance(word, str) and len(word) == 3 and word.isascii() and word.isalpha() and not Path(word).exists():
            raise typer.BadParameter(_('the stake takes one argument, so quote it: --stake "{stake} {currency}" (not '
                                       '--stake {stake} {word})').format(stake=stake, currency=word.upper(), word=word),
                                     param_hint="'--stake'")


def _value_parser(x: Setting[Any]) -> Callable[[str], Any] | None:
    """How a flag's text becomes the setting's value, where Typer does not know its kind (a
    stake, `--stake "0.05 EUR"`): read as a header reads it, a wrong one a bad flag (exit 2)."""
    if x.kind in (bool, int, str) or issubclass(x.kind, Enum):
        return None

    def parse(text: str) -> Any:
        if not isinstance(text, str):
            return text                          # the value already made (Typer passes a default through)
        try:
            return x.parse(text, Location(f"--{x.word}"))
        except MjError as e:
            said = e.message.removeprefix(f"'{x.word}' ")
            raise typer.BadParameter(_("the {setting} {said}").format(setting=x.word.replace("-", " "), said=said)
                                     if said != e.message else said) from None
    return parse


def source(file: str | None, inline: str | None, stdin_when_piped: bool = False) -> Path | str:
    """What FILE, `-` (standard input) or `-e TEXT` (exactly one of them) names, as the API
    takes it: a path (`Path("-")` is standard input), or the text."""
    if inline is not None and file is not None:
        raise typer.BadParameter(_("give a FILE or -e TEXT, not both"))
    if inline is None and file is None:
        if not stdin_when_piped or sys.stdin.isatty():
            raise typer.BadParameter(_("give a FILE, '-' for standard input, or -e TEXT"))
        return Path("-")                          # `mjscore score < hand.mj`
    return inline if inline is not None else Path(file or "-")


def _check_payoff(settings: dict[str, Any], scheme: str | None) -> None:
    """A mistyped --payoff is a wrong command line: said at once, with the choices."""
    import mjscore.api as api

    payoff = settings.get("payoff")
    if payoff is None:
        return
    try:
        known = api.payoff_names(scheme)
    except MjError:
        return                                   # the scheme itself is wrong: the command says so
    if payoff not in known:
        raise typer.BadParameter(_("no payoff scheme '{payoff}'; choose from {known}").format(payoff=payoff,
                                                                                           known=", ".join(known)),
                                 param_hint="'--payoff'")


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def output_width() -> int | None:
    """The width text output must keep to: the terminal's (or $COLUMNS), none for a file or pipe."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(int(columns), 40)
    if sys.stdout.isatty():
        import shutil

        return max(shutil.get_terminal_size().columns, 40)
    return None


class Failures:
    """Errors met on the way: each printed to standard error as it comes; exit 1 at the end."""

    def __init__(self) -> None:
        self.count = 0

    def report(self, err: MjError) -> None:
        self.count += 1
        say_error(err)

    def exit(self) -> None:
        if self.count:
            raise typer.Exit(1)


def _path(file: str | None) -> Path:
    """A FILE argument as the API takes it: a path, or `-` for standard input."""
    if file is None:
        raise typer.BadParameter(_("give a FILE, '-' for standard input, or -e TEXT"))
    return Path(file)           # Path("-") is standard input to the API, as `-` is here


# The options and arguments that several commands take, each with its type (Typer's Annotated form).
FileArg = Annotated[str | None, typer.Argument(
    metavar="FILE", show_default=False,
    help=_("A hand file (.mj or .yaml); '-' reads standard input ('mjscore example' has some)."))]
InlineOpt = Annotated[str | None, typer.Option("-e", "--expr", metavar="TEXT", show_default=False,
                                               help=_("The table itself, lines separated by ';'."))]


@app.command()
def show(
    file: FileArg = None,
    inline: InlineOpt = None,
    tiles: Annotated[TileStyle, typer.Option(
        "--tiles", help=_("text: the notation; unicode: tile pictures."))] = TileStyle.text,
) -> None:
    """Print tables in canonical compact notation (checks them on the way): every tile written
    one way, in order, each player's runs kept as she grouped them (678s 99s stays so).

    \b
    Example:
      mjscore show -e "S: [Rd Rd Rd] 432m 876m 55p 789s 1f win 5p from N"
      S: [CCC] 234m 678m 55p 789s 1f win 5p from N
    \b
      mjscore example east-self-drawn | mjscore show - --tiles unicode
    """
    import mjscore.api as api
    from mjscore.cli.render import terminal_safe

    failures, shown = Failures(), 0
    for entry in api.canonical(source(file, inline), tiles=tiles.value, name="<-e>"):
        if entry.error is not None:
            failures.report(entry.error)
            continue
        sys.stdout.write(terminal_safe(("---\n" if shown else "") + entry.value))
        shown += 1
    failures.exit()


SchemeOpt = Annotated[str | None, typer.Option(
    "--scheme", "-s", metavar="NAME|FILE",
    help=_("A shipped scheme (see 'mjscore schemes': classical, dmjl, bmja, babcock, millington, ...) or a scheme "
         "file; default: the table's 'scheme' header, else classical."))]
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help=_("table, json, csv or markdown."))]
ReportOpt = Annotated[ReportFormat, typer.Option(
    "--format", "-f", help=_("table, json, csv, markdown, or html (one self-contained page to print or keep)."))]


@app.command()
@settings_options(SETTINGS)
def score(
    file: FileArg = None,
    inline: InlineOpt = None,
    scheme: SchemeOpt = None,
    format: FormatOpt = Format.table,
    explain: Annotated[bool, typer.Option(
        "--explain", help=_("Also show the runner-up arrangement and why it scored less."))] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """Score every player of a table, then settle: the breakdown, the payments and each net.

    \b
    Example (South wins on North's discard):
      mjscore score -e "round S; E: [111p] 2378m 4455s NN; S: [CCC] 234m 678m 55p 789s 1f win 5p from N; W: (FFFF) 12345m 99p 2y 568s; N: [EEE] 11m 23p 456s 889s 3f"
    \b
      mjscore example east-self-drawn | mjscore score - --scheme dmjl --format json
      mjscore example win-on-discard | mjscore score - --paying winner-only --payoff japanese --round-payments-up 100
    """  # noqa: E501 - an example is one command line, however long
    import mjscore.api as api
    from mjscore.cli.render import csv_rows, render_csv, render_text, terminal_safe, to_json

    _check_payoff(settings, scheme)
    failures, shown = Failures(), 0
    width = output_width() if format is Format.table else None
    if format is Format.csv:
        sys.stdout.write(render_csv([], header=True))
    # Each table read and scored as it comes, numbered as `batch` numbers them; not through the
    # batch, which a one-hand score need not load (issue 40).
    for number, entry in enumerate(api.tables(source(file, inline, stdin_when_piped=True), name="<-e>"), start=1):
        if entry.error is not None:
            failures.report(entry.error)
            continue
        try:
            scored = api.score(entry.value, scheme=scheme, explain=explain, **settings)
        except MjError as e:
            failures.report(e)
            continue
        result = cast("TablePlain", scored.to_dict())
        if format is Format.json:
            sys.stdout.write(to_json(result) + "\n")
        elif format is Format.csv:
            sys.stdout.write(render_csv(csv_rows(result, number, entry.file, entry.line), header=False))
        else:
            sys.stdout.write(terminal_safe(("\n---\n\n" if shown else "")
                                           + render_text(result, format.value, width)))
        shown += 1
    failures.exit()


@app.command()
@settings_options(SETTINGS)
def batch(
    files: Annotated[list[str], typer.Argument(metavar="FILE...", help=_("Hand files; '-' reads standard input."))],
    scheme: SchemeOpt = None,
    format: Annotated[BatchFormat, typer.Option(
        "--format", "-f", help=_("json (one line per table) or csv."))] = BatchFormat.json,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, metavar="N",
                                             help=_("Worker processes (default: the usable cores); the output is the "
                                                  "same, in input order, whatever N."))] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Score many tables: one JSON line (or CSV rows) per table, in input order.

    A session file among them gives one per hand (its number, the players by name, each
    player's score, net and running total), then the evening's totals and settle-up.  The CSV
    has a row for every player of every table, draws included.  A table that cannot be read or
    scored gives an error row and the others go on; the exit status is 1 when any table had an
    error.  The shapes are in the README ("Batch output").

    \b
    Example:
      mjscore example evening > tables.mj
      mjscore example evening-session > session.mj
      mjscore batch tables.mj session.mj --scheme dmjl --format csv > results.csv
    """
    import mjscore.api as api
    from mjscore.cli.render import batch_line

    _check_payoff(settings, scheme)
    api.collect_for_a_long_run()
    # A running count on the terminal, only while the results go elsewhere (a file, a pipe):
    # on a terminal showing the results too, the count would glue onto their lines.
    progress = sys.stderr if sys.stderr.isatty() and not sys.stdout.isatty() else None
    out = sys.stdout
    if format is BatchFormat.csv:
        out.write(batch_line(None, "csv", header=True))
    n = errors = 0
    encode = functools.partial(batch_line, fmt=format.value)
    items = api.score_many(*[Path(f) for f in files], scheme=scheme, jobs=jobs or usable_cores(),
                           encode=encode, sessions=True, **settings)
    try:
        for item in items:
            n += 1
            errors += not item.ok
            out.write(item.text or "")
            if progress is not None and n % 500 == 0:
                progress.write("\r" + _("  {n} tables, {errors} with errors").format(n=f"{n:,}",
                                                                                      errors=f"{errors:,}"))
                progress.flush()
    except (KeyboardInterrupt, Stopped):
        if progress is not None and n >= 500:
            progress.write("\n")                    # the count's line ends before the shell's prompt
        raise
    finally:
        # Stopped early (Ctrl-C, SIGTERM, a reader gone): the workers end here, now, not at exit.
        close = getattr(items, "close", None)
        if close is not None:
            close()
    if progress is not None and n >= 500:
        progress.write("\r" + _("  {n} tables, {errors} with errors").format(n=f"{n:,}", errors=f"{errors:,}")
                       + "\n")
    if errors:
        raise typer.Exit(1)


@app.command()
def waits(
    file: FileArg = None,
    inline: InlineOpt = None,
    scheme: SchemeOpt = None,
    format: Annotated[WaitsFormat, typer.Option("--format", "-f", help=_("table, json or csv."))] = WaitsFormat.table,
) -> None:
    """For each player one tile from going out, the tiles that complete the hand.

    Settles sacred-discard and false-Mah-Jong disputes. A tile the player holds four of is no
    wait; a wait whose other copies are all visible at the table is listed and also named dead.

    \b
    Example:
      mjscore waits -e "E: 1m 19p 19s E S W NN C F P" --format json
      {"players": [{"seat": "E", "waits": ["9m"], "dead": []}]}
    """
    import mjscore.api as api

    failures = Failures()
    for entry in api.waits_many(source(file, inline), scheme, name="<-e>"):
        if entry.error is not None:
            failures.report(entry.error)
            continue
        _print_waits(entry.value, format)
    failures.exit()


def _print_waits(players: list[WaitsPlain], format: WaitsFormat) -> None:
    import json
    if format is WaitsFormat.json:
        typer.echo(json.dumps({"players": players}))
    elif format is WaitsFormat.csv:
        typer.echo("seat,waits,dead")
        for p in players:
            typer.echo(f"{p['seat']},{' '.join(p['waits'])},{' '.join(p['dead'])}")
    else:
        for p in players:
            ready = " ".join(p["waits"]) if p["waits"] else _("not one tile from going out")
            dead = _("   (dead: {tiles})").format(tiles=" ".join(p["dead"])) if p["dead"] else ""
            held = p.get("sacred")
            sacred = _("   (sacred: {tiles}: not on another's discard)").format(tiles=" ".join(held)) if held else ""
            typer.echo(f"{p['seat']}: {ready}{dead}{sacred}")


@app.command()
def check(
    file: FileArg = None,
    inline: InlineOpt = None,
    scheme: SchemeOpt = None,
    format: Annotated[CheckFormat, typer.Option(
        "--format", "-f", help=_("table (text lines) or json."))] = CheckFormat.table,
) -> None:
    """Compare every '= N' claim with mjscore's score, and explain any difference.

    A claim that differs is shown beside mjscore's breakdown, item by item, with what would
    account for the difference (items left out or counted twice, points or doubles), or that
    nothing would.  Works on session files too (every claimed hand, scored with the session's
    seating).  A table that cannot be read gives its error and the others are still checked.
    Exit status 1 when any claim differs or any table has an error.

    \b
    Example:
      mjscore check -e "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 80"
      <-e>:1:10: E claims 80, mjscore counts 160 (40 points, 2 doubles)
          mjscore's breakdown:
             4 points  Exposed pung of honours [CCC]
             ...
            20 points  Going out
            = 40 points x 2^2 = 160
          any one of these would account for the difference:
            the claim leaves out Pung or kong of dragons [CCC] (1 double)
            the claim leaves out Pung or kong of own wind EEE (1 double)
            the claim leaves out Going out (20 points)
    """
    import json

    import mjscore.api as api
    from mjscore.cli.render import report_lines, terminal_safe

    width = output_width()
    failures, claims, differ = Failures(), 0, 0
    out = sys.stdout
    if format is CheckFormat.json:
        out.write('{"report": [')
    for entry in api.check_many(source(file, inline), scheme=scheme, name="<-e>"):
        if entry.error is not None:
            if format is CheckFormat.json:
                out.write((", " if claims else "") + json.dumps(str(entry.error)))
                claims += 1
                failures.count += 1
            else:
                failures.report(entry.error)
            continue
        differ += entry.value.differences
        for line in entry.value.lines:
            if format is CheckFormat.json:
                out.write((", " if claims else "") + json.dumps(line))
            else:
                out.write(terminal_safe("\n".join(report_lines(line, width))) + "\n")
            claims += 1
    if format is CheckFormat.json:
        out.write(f'], "differences": {differ}, "errors": {failures.count}}}\n')
    elif not claims and not failures.count:
        name = "<-e>" if inline is not None else "<stdin>" if file == "-" else file
        out.write(terminal_safe(_("{file}: no claims ('= N') to check").format(file=name)) + "\n")
    if differ or failures.count:
        raise typer.Exit(1)


@app.command()
@settings_options(SETTINGS, ROTATION)
def session(
    file: FileArg = None,
    scheme: SchemeOpt = None,
    format: ReportOpt = ReportFormat.table,
    chart: Annotated[bool, typer.Option("--chart",
                                        help=_("Also draw the running totals as a terminal chart."))] = False,
    hand: Annotated[int | None, typer.Option(
        "--hand", min=1, metavar="N", help=_("Show hand N in detail: every player's items and the payments."))] = None,
    stats: Annotated[bool, typer.Option("--stats", help=_("Show each player's figures instead: hands won (self-drawn, "
                                                        "on a discard), dealt, draws, the biggest hand, limit hands, "
                                                        "penalties, paying for all (as 'season' does)."))] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """A recorded session: every hand in order, seats rotating, running totals, standings, settle-up.

    The file names the players in seat order at the first hand, then lists the hands, each
    written by that hand's seat winds; mjscore keeps the seating (East keeps the deal when
    East wins, a draw passes it or not as the scheme says).

    \b
    Example:
      mjscore example evening-session | mjscore session -
      mjscore example evening-session.yaml | mjscore session - --format json
      mjscore example evening-session | mjscore session - --stats
      mjscore example evening-session | mjscore session - --format html > evening.html
    """
    import mjscore.api as api
    from mjscore.cli.render import render_session, session_chart, session_csv, terminal_safe, to_json

    _check_payoff(settings, scheme)
    page = format is ReportFormat.html
    if page and (chart or hand is not None):
        raise typer.BadParameter(_("--format html is the whole evening with its chart: it goes with neither --hand "
                                   "nor --chart"))
    fmt = Format.table if page else Format(format.value)
    file = _session_options(file, fmt, chart, hand, stats)
    if stats:
        # The season's code over this one evening: the same figures, the same forms.
        _print_season(api.play_season([_path(file)], scheme=scheme, **settings), format, chart=False)
        return
    if page:
        _print_session_page(_path(file), scheme, settings)
        return
    try:
        played = api.play_session(_path(file), keep_going=True, scheme=scheme, **settings)
    except MjError as e:
        fail(e)
    if hand is not None:
        if hand > len(played.hands):
            raise typer.BadParameter(_("the evening has {n} hands played").format(n=len(played.hands)),
                                     param_hint="'--hand'")
        one = played.hands[hand - 1].to_dict()
        if fmt is Format.json:
            typer.echo(to_json(one))
        else:
            from mjscore.cli.render import emphasis_safe, hand_title, render_text, won_or_lost_line

            totals = "  ".join(f"{n} {t}" for n, t in one["totals"].items())
            text = render_text(one, "markdown" if fmt is Format.markdown else "table", output_width())
            head = f"{hand_title(hand, one['dealer'], one['round'], one.get('kajongg_hand'))}\n\n"
            final = played.stake is not None and one["totals"] == played.totals   # the standings' own money then
            won = won_or_lost_line(one["totals"], played.start, played.stake, output_width(),
                                   _("Won or lost after it:"),
                                   played.summary().get("money") if final else None)
            tail = "\n" + _("Totals after it: {totals}").format(totals=totals) + "\n" + "".join(
                f"{line}\n" for line in won)
            if fmt is Format.markdown:
                head, tail = emphasis_safe(head), emphasis_safe(tail)
            sys.stdout.write(terminal_safe(f"{head}{text}{tail}"))
        return
    # Each hand's plain form made as it is written, and let go (a season of 5,000 hands is not
    # held twice over); JSON is written whole.
    hands: Iterable[HandPlain] = (h.to_dict() for h in played.hands)
    if chart:
        hands = list(hands)                     # drawn from twice
    result = cast("SessionPlain", {"players": list(played.players), "start": played.start, "hands": hands,
                                   **played.summary()})
    if fmt is Format.json:
        typer.echo(to_json(played.to_dict()))
    elif fmt is Format.csv:
        sys.stdout.write(session_csv(result))
    else:
        sys.stdout.write(terminal_safe(render_session(result, fmt.value, output_width())))
    for bad in played.errors:
        say_error(bad)
    if chart:
        _write_chart(lambda color, width: session_chart(result, color=color, width=width))
    if played.errors:
        raise typer.Exit(1)


def _print_session_page(path: Path, scheme: str | None, settings: dict[str, Any]) -> None:
    """`session --format html`: the evening's plain form (what `--format json` prints) as one
    document, its errors on standard error."""
    import mjscore.api as api
    from mjscore.cli.html import session_html

    try:
        played = api.play_session(path, keep_going=True, scheme=scheme, **settings)
    except MjError as e:
        fail(e)
    sys.stdout.write(session_html(played.to_dict()))
    for bad in played.errors:
        say_error(bad)
    if played.errors:
        raise typer.Exit(1)


def _session_options(file: str | None, format: Format, chart: bool, hand: int | None, stats: bool) -> str:
    """The evening's file, once `session`'s options are known to go together (checked before the
    file is read)."""
    if file is None:
        raise typer.BadParameter(_("give a session FILE, or '-' for standard input"))
    _check_chart(chart, format)
    if stats and (hand is not None or chart):
        raise typer.BadParameter(_("--stats shows the evening's figures: it goes with neither --hand nor --chart"))
    return file


def _check_chart(chart: bool, format: Format | ReportFormat) -> None:
    """`--chart` refused with a format written for programs (`session`, `season`), and with html,
    whose page draws its own chart."""
    if chart and format in (Format.json, Format.csv, ReportFormat.html):
        raise typer.BadParameter(_("--chart draws for people: it goes with --format table or markdown, not "
                                   "{format}").format(format=format.value))


@app.command()
@settings_options(SETTINGS, ROTATION)
def season(
    files: Annotated[list[str], typer.Argument(metavar="FILE...",
                                               help=_("The nights, in order: a folder is a night of its evening "
                                                    "files (a table each), a file (.mj, or a YAML session) a "
                                                    "night of one table; '-' reads standard input."))],
    scheme: SchemeOpt = None,
    format: ReportOpt = ReportFormat.table,
    chart: Annotated[bool, typer.Option(
        "--chart", help=_("Also draw each player's season total, night by night."))] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """The club's record: many evenings played as 'session' plays each, the players matched by
    name across them ('ann' is Ann), the season's standings and each player's figures.

    The nights count in the order given: a folder is one night, its evening files (.mj, .yaml,
    .yml that are sessions, in the order of their names; a link among them never followed)
    the night's tables; a file given alone is a night of one table. A player's night counts
    once however many tables she sat at. Each player's nights, evenings, hands, won or lost
    (each evening's total less its start, summed), a place; her hands won (self-drawn, on a
    discard), dealt, draws, biggest hand, limit hands, penalties paid and received, and the
    times she paid for all; then each player's won or lost night by night, and the money
    where the evenings had a stake. An evening with an error is left out, its errors said,
    and the others still count (exit status 1).

    \b
    Example:
      mjscore example evening-session > evening.mj
      mjscore season evening.mj --format json
      mjscore season evening.mj --format html > season.html
    """
    import mjscore.api as api

    _check_payoff(settings, scheme)
    _check_chart(chart, format)
    _print_season(api.play_season([Path(f) for f in files], scheme=scheme, **settings), format, chart)


def _print_season(played: SeasonResult, format: ReportFormat, chart: bool) -> None:
    """A season's record (or one evening's figures) in the form asked, its errors on standard
    error, exit status 1 when an evening was left out."""
    from mjscore.cli.render import render_season, season_chart, season_csv, terminal_safe, to_json

    result = cast("SeasonPlain", played.to_dict())
    if format is ReportFormat.html:
        from mjscore.cli.html import season_html

        sys.stdout.write(season_html(result))
    elif format is ReportFormat.json:
        typer.echo(to_json(result))
    elif format is ReportFormat.csv:
        sys.stdout.write(season_csv(result))
    else:
        sys.stdout.write(terminal_safe(render_season(result, format.value, output_width())))
    for bad in played.errors:
        say_error(bad)
    if chart and result["players"]:
        _write_chart(lambda color, width: season_chart(result, color=color, width=width))
    if played.errors:
        raise typer.Exit(1)


def _write_chart(draw: Callable[[bool, int | None], str]) -> None:
    """A chart after the figures (`--chart`), in colour on a terminal that takes it."""
    try:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        sys.stdout.write("\n" + draw(color, output_width()))
    except ImportError:
        typer.echo(_("mjscore: error: --chart needs the plotext package (pip install plotext)"), err=True)
        raise typer.Exit(1) from None


NamesOpt = Annotated[tuple[str, str, str, str] | None, typer.Option(
    "--players", metavar="E S W N", show_default=False,
    help=_("The four players in seat order at the first hand: starts a new evening file."))]
# A new evening's header, for `add` and `serve`.
NewSchemeOpt = Annotated[str | None, typer.Option("--scheme", "-s", metavar="NAME|FILE",
                                                  help=_("The scheme of a new evening (see 'mjscore schemes')."))]
StartOpt = Annotated[int | None, typer.Option("--start", min=0, help=_("Each player's points before the first hand "
                                                                     "(a new evening; default 2000)."))]
EveningArg = Annotated[str, typer.Argument(metavar="EVENING",
                                           help=_("The evening's file (.mj); made when it does not exist."))]
HandFileArg = Annotated[str | None, typer.Argument(metavar="[FILE]", show_default=False,
                                                   help=_("The hand in a file; '-' reads standard input."))]


@app.command()
@settings_options(SETTINGS, ROTATION)
def add(
    evening: EveningArg,
    file: HandFileArg = None,
    inline: InlineOpt = None,
    players: NamesOpt = None,
    scheme: NewSchemeOpt = None,
    start: StartOpt = None,
    format: Annotated[ChangeFormat, typer.Option(
        "--format", "-f",
        help=_("table (text for the table) or json (the hand and the evening)."))] = ChangeFormat.table,
    *,
    settings: dict[str, Any],
) -> None:
    """Add one hand to an evening's file and show who pays whom, the totals and who deals next.

    Write the hand by the seats of this hand, or by the players' names (Ann: score 40 win self).
    On a terminal with no hand given, mjscore asks for it player by player: tiles, a score (12
    is 'score 12') or Enter alone for a loser who scored nothing, and the win clause on the
    winner's line.  Each line is checked as it is given and asked again alone when it is wrong
    (Up recalls it to mend); 'draw' at any prompt records a draw, 'penalty NAME N [to NAME]' a
    penalty.  The settings given with a new evening go into its header; with a later hand, into
    that hand's.

    \b
    Examples:
      mjscore add evening.mj --players Ann Bob Cid Dee -e "E: score 40 win self; S: score 8; W: ...; N: ..."
      mjscore add evening.mj -e "Bob: [111p] 222s 333m EEE 99s win 9s from Ann; Ann: score 12; Cid: ...; Dee: ..."
      mjscore add evening.mj
    """
    import mjscore.api as api
    from mjscore.cli.render import render_hand, terminal_safe, to_json

    if inline is not None and file is not None:
        raise typer.BadParameter(_("give a FILE or -e TEXT, not both"))
    _check_payoff(settings, scheme)
    book = api.Evening(evening)
    hand: str | Path
    name: str | None
    try:
        if inline is not None or file is not None or not sys.stdin.isatty():
            if inline is not None:
                hand, name = inline, "<-e>"
            else:
                hand, name = Path(file or "-"), None
            added = book.add(hand, players=players, start=start, scheme=scheme, name=name, **settings)
        else:
            from mjscore.cli.prompt import enter_hand

            added = enter_hand(book, players, scheme, lambda typed: book.add(
                typed, players=players, start=start, scheme=scheme, name="<typed>", **settings), width=output_width())
    except MjError as e:
        fail(e)
    if format is ChangeFormat.json:
        _report_after_change(to_json(added.to_dict()) + "\n", _("the hand was added to {evening}").format(
            evening=evening))
        return
    # The hand added, not the whole evening again (its start: what each player won or lost).
    text = render_hand(cast("AddedPlain", added.to_dict()), output_width())
    if added.created:
        scheme_note = _("; scheme {scheme} (read from the evening's folder)").format(
            scheme=added.scheme) if added.scheme else ""
        text = _("Started {evening}: {list}{scheme_note}\n{text}").format(
            evening=evening, list=', '.join(added.evening.players), scheme_note=scheme_note, text=text)
    _report_after_change(terminal_safe(text), _("the hand was added to {evening}").format(evening=evening))


@app.command()
def undo(evening: Annotated[str, typer.Argument(metavar="EVENING", help=_("The evening's file (.mj)."))],
         format: Annotated[ChangeFormat, typer.Option(
             "--format", "-f", help=_("table (text) or json (the hand taken out and the "
                                      "evening)."))] = ChangeFormat.table
         ) -> None:
    """Take the last hand back out of an evening's file; show it, and the standings without it.

    \b
    Example:
      mjscore undo evening.mj
    """
    import mjscore.api as api
    from mjscore.cli.render import render_standings, terminal_safe, to_json

    try:
        removed = api.Evening(evening).undo()
    except MjError as e:
        fail(e)
    if format is ChangeFormat.json:
        _report_after_change(to_json(removed.to_dict()) + "\n", _("the last hand was taken out of {evening}").format(
            evening=evening))
        return
    shown = "".join(f"  {line}\n" for line in removed.text.rstrip("\n").split("\n"))
    standings = render_standings(cast("RemovedPlain", removed.to_dict()),
                                 output_width())
    _report_after_change(terminal_safe(_("Removed this hand:\n{shown}\n{standings}").format(
        shown=shown, standings=standings)),
                         _("the last hand was taken out of {evening}").format(evening=evening))


@app.command()
def edit(evening: Annotated[str, typer.Argument(metavar="EVENING", help=_("The evening's file (.mj)."))],
         number: Annotated[int, typer.Argument(metavar="N", min=1, help=_("The hand to correct (1 is the first)."))],
         file: HandFileArg = None,
         inline: InlineOpt = None,
         format: Annotated[ChangeFormat, typer.Option("--format", "-f",
                                                      help=_("table (text) or json (the hand as it was and is, what "
                                                           "changed, the evening)."))] = ChangeFormat.table) -> None:
    """Correct any hand of an evening, not only the last: its text replaced, the hands after it
    played again, and the totals that changed shown.  Nothing is written when the hand, or a
    later hand after it, is wrong (the later hand is named).  On a terminal with no hand given,
    the hand's own lines are offered one by one, as 'add' asks them: Enter keeps a line, or
    change it first.

    
    Example:
      mjscore edit evening.mj 3 -e "E: score 48 win self; S: score 8; W: ...; N: ..."
    """
    import mjscore.api as api
    from mjscore.cli.render import render_hand, report_lines, terminal_safe, to_json

    if inline is not None and file is not None:
        raise typer.BadParameter(_("give a FILE or -e TEXT, not both"))
    book = api.Evening(evening)
    try:
        if inline is None and file is None and sys.stdin.isatty():
            from mjscore.cli.prompt import enter_hand

            # At a terminal: the hand's own lines offered one by one, as `add` asks them.
            names, round_letter, old = book.hand_seating(number)
            parts = api.hand_parts(old, names)
            corrected = enter_hand(book, None, None, lambda typed: book.edit(number, typed, name="<typed>"),
                                   width=output_width(), seating=(names, number, round_letter), offered=parts.lines,
                                   kept=tuple(p.line() for p in parts.penalties) + parts.other)
        else:
            hand: str | Path = inline if inline is not None else Path(file or "-")
            corrected = book.edit(number, hand, name="<-e>" if inline is not None else None)
    except MjError as e:
        fail(e)
    done = _("hand {number} of {evening} was corrected").format(number=number, evening=evening)
    if format is ChangeFormat.json:
        _report_after_change(to_json(corrected.to_dict()) + "\n", done)
        return
    d = cast("CorrectedPlain", corrected.to_dict())
    changed = d["changed"]
    moved = ("  ".join(f"{n} {c['before']} -> {c['after']}" for n, c in changed.items()) if changed
             else _("no total changed"))
    width = output_width()
    changed_line = "\n".join(report_lines(_("The evening's totals that changed: {moved}").format(moved=moved), width))
    _report_after_change(terminal_safe(_("Corrected hand {number}.\n{render_hand}\n{changed_line}\n").format(
        number=number, render_hand=render_hand(d, width), changed_line=changed_line)), done)


def _report_after_change(text: str, done: str) -> None:
    """What a command that changed the evening prints.  The change is made, so a failure to
    print it is a warning and the exit status stays 0: a script that retries on failure must not
    add the hand twice."""
    from mjscore.cli import output

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (output.OutputError, OSError) as e:
        output.silence()
        reason = e.reason if isinstance(e, output.OutputError) else (e.strerror or str(e))
        typer.echo(_("mjscore: warning: {done}, but the output could not be written: {reason}").format(
            done=done, reason=reason), err=True)


DEFAULT_PORT = 8421


@app.command()
@settings_options(SETTINGS, ROTATION)
def night(
    folder: Annotated[str, typer.Argument(metavar="NIGHT", help=_(
        "The night's folder: made, with an evening file for each table (table-1.mj, table-2.mj, ...)."))],
    names: Annotated[list[str], typer.Argument(metavar="PLAYERS...", help=_(
        "The night's players, 4, 8, 12, ... (after --players, or alone)."))],
    players_flag: Annotated[bool, typer.Option("--players", help=_(
        "The names that follow are the night's players (as 'add --players' writes them)."))] = False,
    seed: Annotated[int | None, typer.Option("--seed", min=0, max=2 ** 64 - 1, help=_(
        "The draw's seed, to draw a night again (default: one chosen at random, and printed)."))] = None,
    scheme: NewSchemeOpt = None,
    start: StartOpt = None,
    format: Annotated[ChangeFormat, typer.Option(
        "--format", "-f", help=_("table (text) or json (the draw and the files)."))] = ChangeFormat.table,
    *,
    settings: dict[str, Any],
) -> None:
    """Draw a club night's seats: the players to tables of four and to seats at random, and an
    evening file for each table, ready for 'add', 'serve' and 'session'.

    The draw is one shuffle of the names as given by Python's random.Random(SEED), then four by
    four: the first four are table 1, East, South, West, North; the next four table 2.  The seed
    is printed and kept in a comment at the head of each table's file with the names as given,
    so that anyone can draw the night again and check it.  A number of players that is no
    multiple of four is refused, and nothing is written.

    \b
    Example:
      mjscore night thursday --players Ann Bob Cid Dee Eve Fay Gus Hal --stake "0.05 EUR"
      mjscore session thursday/table-1.mj
    """
    import mjscore.api as api
    from mjscore.cli.render import render_draw, terminal_safe, to_json

    del players_flag                    # the names are the same with it or without
    _check_payoff(settings, scheme)
    try:
        drawn = api.draw_night(names, seed)
        files = api.start_night(folder, drawn, start=start, scheme=scheme, **settings)
    except MjError as e:
        say_error(e)
        raise typer.Exit(2 if e.location.file in ("--players", "--seed") else 1) from None
    plain = {**drawn.to_dict(), "files": files}
    if format is ChangeFormat.json:
        typer.echo(to_json(plain))
    else:
        typer.echo(terminal_safe(render_draw(plain, output_width())), nl=False)


@app.command()
@settings_options(SETTINGS, ROTATION)
def serve(
    evenings: Annotated[list[str], typer.Argument(
        metavar="EVENING|NIGHT...", show_default=False,
        help=_("The evening's file (.mj; made when it does not exist), or a night of several tables: a folder of "
               "evening files (every .mj and .yaml in it, a table each, named by its file's stem), or several "
               "evening files."))],
    players: NamesOpt = None,
    scheme: NewSchemeOpt = None,
    start: StartOpt = None,
    port: Annotated[int | None, typer.Option("--port", "-p", min=0, max=65535, metavar="N",
                                             help=_("The port (default {port}, or a free one when it is taken; "
                                                    "0: a free one).").format(port=DEFAULT_PORT))] = None,
    lan: Annotated[bool, typer.Option(
        "--lan", help=_("Listen on this machine's network address, for the phones on the table's network (default: "
                      "this machine only, 127.0.0.1)."))] = False,
    token_file: Annotated[Path | None, typer.Option(
        "--token-file", metavar="FILE",
        help=_("Keep the page's token in FILE (made if missing, mode 600; a kept one must be your own, unreadable by "
             "others, 128 bits or more), so that a restart keeps the phones' address; default: a new one each "
             "start."))] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Serve the table page: every player enters their own hand on their own phone.

    Prints the address to open (with its token) and, on a terminal, a QR code of it. The page
    writes to the evening's file as 'mjscore add' does; 'add', 'undo' and 'session' can be used
    beside it. Ctrl-C stops it.

    A night (a folder, or several files) is served on one address: each phone picks its table,
    then its name; each table keeps its own next hand; the Night view adds the tables up.

    \b
    Examples:
      mjscore serve evening.mj --players Ann Bob Cid Dee --lan
      mjscore serve thursday/ --lan
    """
    import mjscore.api as api

    try:
        # Before anything is written: the page's server and what it stands on.
        from mjscore.web.serve import TableServer
    except ImportError as e:
        fail(InputError(_("'mjscore serve' needs the page's server, which cannot be loaded here ({name}): pip install "
                          "'fastapi>=0.132' 'uvicorn>=0.29' (nothing was written)").format(name=e.name or e),
                        Location("serve")))
    _check_payoff(settings, scheme)
    if len(evenings) > 1 or os.path.isdir(evenings[0]):
        _serve_night(evenings, port, lan, token_file, bool(players or scheme or start is not None or settings))
        return
    evening = evenings[0]
    book = api.Evening(evening)
    try:
        token = _token(token_file)
        host = _lan_address() if lan else "127.0.0.1"
        sock = _bind(host, port)                # before the evening is made: a port taken writes nothing
        if players is not None:
            # The same command line again, after a restart: the evening it made is served as it stands.
            again = book.exists() and start is None and not scheme and not settings and _same_players(book, players)
            if not again and not book.start(players, start=start, scheme=scheme, **settings):
                raise typer.BadParameter(_("the evening's header already stands: --players, --start, --scheme and "
                                         "the settings are for a new file (the same --players alone serve it again)"))
        elif not book.exists():
            raise typer.BadParameter(_("no such evening file: name the players to start one (--players A B C D)"))
        elif start is not None or scheme or settings:
            raise typer.BadParameter(_("the evening's header already stands: --players, --start, --scheme and the "
                                     "settings are for a new file"))
        book.play()                                     # the evening plays, before anyone is told to open it
    except MjError as e:
        fail(e)
    address = f"http://{host}:{sock.getsockname()[1]}/?token={token}"
    server = TableServer(evening, token)        # from here on, Ctrl-C stops it cleanly
    typer.echo(_("Open {address}  (Ctrl-C stops)").format(address=address))
    if sys.stdout.isatty():
        sys.stdout.write(_qr(address))
    sys.stdout.flush()
    server.serve_on(sock)
    typer.echo("Stopped.")


def _serve_night(paths: list[str], port: int | None, lan: bool, token_file: Path | None, new: bool) -> None:
    """`serve` of a night: every table's evening file as it stands, on one port, one token, one QR code."""
    import mjscore.api as api
    from mjscore.web.serve import TableServer

    if new:
        raise typer.BadParameter(_("a night's tables are served as their files stand: --players, --start, --scheme "
                                   "and the settings are for one new evening"))
    try:
        tables = api.night_tables(paths)
        for _name, path in tables:
            if not api.Evening(path).exists():
                raise InputError(_("no such evening file"), Location(path))
        api.play_night(dict((name, api.Evening(path)) for name, path in tables))    # each plays, before anyone opens it
        token = _token(token_file)
        host = _lan_address() if lan else "127.0.0.1"
        sock = _bind(host, port)
    except MjError as e:
        fail(e)
    address = f"http://{host}:{sock.getsockname()[1]}/?token={token}"
    server = TableServer(tables, token)
    typer.echo(n_("Open {address}  (a night of {n} table: {tables}; Ctrl-C stops)",
                  "Open {address}  (a night of {n} tables: {tables}; Ctrl-C stops)", len(tables)).format(
        address=address, n=len(tables), tables=", ".join(name for name, _path in tables)))
    if sys.stdout.isatty():
        sys.stdout.write(_qr(address))
    sys.stdout.flush()
    server.serve_on(sock)
    typer.echo("Stopped.")


def _same_players(book: Any, players: tuple[str, ...]) -> bool:
    """Whether the evening in the file is of these players in this order (an empty file, or one
    that does not play, is no evening of theirs: `start` says what is wrong with it)."""
    try:
        return tuple(book.play().players) == tuple(players)
    except MjError:
        return False


_TOKEN_FILE_BYTES = 256         # a token and its line end, with room to spare


def _token(path: Path | None) -> str:
    """A new random token (192 bits), or the one kept in `path` (made there, 0600, when it is
    not).  A kept token must be the user's own secret: a regular file (no link, no folder) that
    they own and nobody else may read, holding 128 bits or more."""
    import secrets

    if path is None:
        return secrets.token_urlsafe(24)
    where = Location(str(path))
    nofollow, nonblock = getattr(os, "O_NOFOLLOW", 0), getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, os.O_RDONLY | nofollow | nonblock)
    except FileNotFoundError:
        token = secrets.token_urlsafe(24)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow, 0o600)
        except OSError as e:
            raise InputError(_("cannot make the token file: {strerror}").format(strerror=e.strerror), where) from None
        with os.fdopen(fd, "w") as f:
            f.write(token + "\n")
        return token
    except OSError as e:
        if os.path.islink(path):
            raise InputError(_("the token file is a link: keep the token in a regular file of your own"),
                             where) from None
        raise InputError(_("cannot read the token file: {strerror}").format(strerror=e.strerror), where) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise InputError(_("the token file is not a regular file"), where)
    with os.fdopen(fd, "rb") as f:
        # Windows has no user ids, and its modes show only the read-only flag (a file reads
        # 666 there): both checks are skipped; who may read the file is its ACL's to say.
        owner = getattr(os, "geteuid", None)
        if owner is not None and st.st_uid != owner():
            raise InputError(_("the token file belongs to another user: keep the token in a file of your own"), where)
        if owner is not None and st.st_mode & 0o077:
            raise InputError(_("others may read the token file (mode {mode:o}): a token is kept in a file of its "
                               "own that only you may read (mode 600)").format(mode=stat.S_IMODE(st.st_mode)), where)
        if st.st_size > _TOKEN_FILE_BYTES:
            raise InputError(_("the token file holds more than a token (over {most} bytes)").format(
                most=_TOKEN_FILE_BYTES), where)
        token = f.read(_TOKEN_FILE_BYTES + 1).decode("ascii", "replace").strip()
    # 128 bits at least: 4 a character for a hex token, 6 for letters, digits, - and _.
    alphabet = all(c.isascii() and (c.isalnum() or c in "-_") for c in token)
    bits = len(token) * (4 if all(c in "0123456789abcdefABCDEF" for c in token) else 6)
    if not token or not alphabet or bits < 128:
        raise InputError(_("the token file holds no token of 128 bits or more (22 or more letters, digits, - or _; "
                         "32 or more hex digits)"), where)
    return token


def _lan_address() -> str:
    """This machine's address on its network (the one a packet out would leave from; none is sent)."""
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))                    # TEST-NET-1: never routed, never sent to
        return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def _bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on `port`, or on the default (a free one when the default is taken)."""
    import socket

    wanted = [DEFAULT_PORT, 0] if port is None else [port]
    for p in wanted:
        # IPPROTO_TCP named: asyncio turns Nagle off (TCP_NODELAY) only on sockets made so, and a
        # request that follows another on the same connection waited 40 ms for the delayed ACK.
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM,
                             socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, p))
            sock.listen(32)                     # as the page's server listens (web.serve.BACKLOG)
            return sock
        except OSError as e:
            sock.close()
            if p == wanted[-1]:
                raise typer.BadParameter(_("cannot listen on {host}:{p}: {strerror}").format(
                    host=host, p=p, strerror=e.strerror), param_hint="'--port'") from None
    raise AssertionError("unreachable")


def _qr(text: str) -> str:
    """The address as a QR code in the terminal: two rows of modules a line (half blocks, so
    that it fits a laptop's terminal), the dark modules drawn as the characters' ink."""
    import itertools

    import segno

    # Black ink on white paper, the quiet zone painted white too: the code reads on a light
    # terminal and a dark one alike (drawn in the terminal's own colours, it read on one only).
    # The standard colours 30 and 47, which every terminal that takes colour has; reset before
    # each line's end, so that nothing the terminal scrolls in is painted.  NO_COLOR, as for the
    # charts: no escape codes, the code in the terminal's own ink, which reads on a light
    # terminal (a dark one shows it reversed, which not every phone reads).
    paint, reset = ("", "") if os.environ.get("NO_COLOR") else ("\x1b[30;47m", "\x1b[0m")
    rows = iter(segno.make(text, error="m").matrix_iter(scale=1, border=4))   # the standard's 4-module quiet zone
    # An odd last row is paired with a light one: the quiet zone a half line deeper.
    pairs = itertools.zip_longest(rows, rows, fillvalue=itertools.repeat(0))
    lines = ("".join(" ▄▀█"[2 * upper + lower] for upper, lower in zip(*pair, strict=False)) for pair in pairs)
    return "".join(paint + line + reset + "\n" for line in lines)


@app.command("help")
def help_topic(topic: Annotated[str | None, typer.Argument(
        metavar="[TOPIC]", help=_("notation, rules or schemes; none: the list."))] = None) -> None:
    """Read a document that comes with mjscore: how hands are written, the rules, scheme files.

    \b
    Examples:
      mjscore help
      mjscore help notation
      mjscore help schemes
    """
    import mjscore.api as api
    from mjscore.cli.render import markdown_text, term_lines, terminal_safe

    try:
        if topic is None:
            topics = api.help_topics()
            wide = max(map(len, topics))
            for name, title in topics.items():
                typer.echo(terminal_safe("\n".join(term_lines(name, title, wide, output_width()))))
            typer.echo(_("Read one with 'mjscore help TOPIC'."))
            return
        sys.stdout.write(terminal_safe(markdown_text(api.help_text(topic), output_width())))
    except MjError as e:
        fail(e)


@app.command()
def example(name: Annotated[str | None, typer.Argument(metavar="[NAME]",
                                                      help=_("A sample's name (NAME.yaml: its YAML form); none: the "
                                                           "list."))] = None) -> None:
    """Print a sample table or evening that comes with mjscore, to try the commands on.

    \b
    Examples:
      mjscore example
      mjscore example win-on-discard | mjscore score -
      mjscore example evening-session > evening.mj
    """
    import mjscore.api as api
    from mjscore.cli.render import term_lines, terminal_safe

    try:
        if name is None:
            found = api.examples()
            compact = {k: v for k, v in found.items() if not k.endswith(".yaml")}
            wide = max(map(len, compact))
            for key, what in compact.items():
                typer.echo(terminal_safe("\n".join(term_lines(key, what, wide, output_width()))))
            if all(f"{k}.yaml" in found for k in compact):
                typer.echo(_("Each also in YAML: 'mjscore example NAME.yaml'."))
            return
        sys.stdout.write(api.example(name))
    except MjError as e:
        fail(e)


schemes_app = typer.Typer(cls=usage.Group, help=_("The shipped scoring schemes: list them, show one, compare two."),
                          no_args_is_help=False, rich_markup_mode=None)
app.add_typer(schemes_app, name="schemes")
ViewFormatOpt = Annotated[ViewFormat, typer.Option("--format", "-f", help=_("table or markdown."))]


@schemes_app.callback(invoke_without_command=True)
def schemes_list(ctx: typer.Context) -> None:
    """List the shipped schemes with a one-line description.

    \b
    Examples:
      mjscore schemes
      mjscore schemes show dmjl
      mjscore schemes diff classical bmja
      mjscore schemes diff classical my-club.yaml
    """
    if ctx.invoked_subcommand is not None:
        return
    import mjscore.api as api
    from mjscore.cli.render import terminal_safe

    try:
        rows = [(name, api.load_scheme(name)) for name in api.shipped_schemes()]
    except MjError as e:
        fail(e)
    from mjscore.cli.render import term_lines

    wide = max(len(n) for n, _limit in rows)
    for name, s in rows:
        said = _("{title} (limit {limit})").format(title=_(s.title), limit=s.limit)
        typer.echo(terminal_safe("\n".join(term_lines(name, said, wide, output_width()))))


@schemes_app.command("show")
def schemes_show(name: Annotated[str, typer.Argument(help=_("A shipped scheme or a scheme file."))],
                 format: ViewFormatOpt = ViewFormat.table,
                 payoffs: Annotated[bool, typer.Option(
                     "--payoffs", help=_("Show the payoff tables instead: what each loser pays the winner, in every "
                                       "situation."))] = False) -> None:
    """Print every value of a scheme as readable tables (--payoffs: its payoff tables).

    \b
    Example:
      mjscore schemes show bmja
    """
    import mjscore.api as api
    from mjscore.cli.render import terminal_safe
    from mjscore.cli.schemeview import payoff_tables, show

    try:
        if payoffs:
            tables = cast("list[PayoffTablePlain]", api.payoff_tables(name))
            sys.stdout.write(terminal_safe(payoff_tables(tables, format.value, output_width())))
        else:
            view = cast("SchemeViewPlain", api.describe_scheme(name))
            sys.stdout.write(terminal_safe(show(view, format.value, output_width())))
    except MjError as e:
        fail(e)


@schemes_app.command("diff")
def schemes_diff(a: Annotated[str, typer.Argument(help=_("A scheme name or file."))],
                 b: Annotated[str, typer.Argument(help=_("Another scheme name or file."))],
                 format: ViewFormatOpt = ViewFormat.table) -> None:
    """Print what differs between two schemes (a shipped one and a house file, say).

    \b
    Example:
      mjscore schemes diff classical bmja
    """
    import mjscore.api as api
    from mjscore.cli.render import terminal_safe
    from mjscore.cli.schemeview import render_diff

    try:
        sa, sb = api.load_scheme(a), api.load_scheme(b)
        sys.stdout.write(terminal_safe(render_diff(sa.name, sb.name, api.diff_schemes(a, b), format.value,
                                                   output_width())))
    except MjError as e:
        fail(e)


import_app = typer.Typer(cls=usage.Group, help=_("Bring in games another program recorded: KDE Kajongg's."),
                         no_args_is_help=True, rich_markup_mode=None)
app.add_typer(import_app, name="import")


@import_app.command("kajongg")
def import_kajongg(
    database: Annotated[str, typer.Argument(metavar="DATABASE", show_default=False,
                                            help=_("Kajongg's database file (~/.local/share/kajongg/kajongg3.db, or a "
                                                 "game server's local3.db); it is read, never changed."))],
    folder: Annotated[str, typer.Option("-o", "--output", metavar="FOLDER",
                                        help=_("The folder the evening files go into."))] = ".",
    game: Annotated[int | None, typer.Option("--game", min=0, metavar="N", show_default=False,
                                             help=_("Only Kajongg's game N."))] = None,
    force: Annotated[bool, typer.Option("--force", help=_("Replace evening files that are there already."))] = False,
) -> None:
    """Write each game of a Kajongg database as an evening file that 'mjscore session' plays,
    and say whether session of it gives Kajongg's own scores and balances.

    One file per game, named after its start and number: the players in Kajongg's seat order,
    the scheme of its rule set (kajongg-dmjl for Classical Chinese DMJL, kajongg-bmja for
    Classical Chinese BMJA; any other is refused), every hand with each player's tiles.  A hand
    whose figures depart from Kajongg's is named, with the reason.

    \b
    Example:
      mjscore import kajongg ~/.local/share/kajongg/kajongg3.db -o kajongg-games
      mjscore session kajongg-games/*-game1.mj
    """
    import mjscore.api as api
    from mjscore.cli.render import terminal_safe

    try:
        got = api.import_kajongg(database, folder, game=game, force=force)
    except MjError as e:
        fail(e)
    from mjscore.cli.render import report_lines

    def say(line: str) -> None:
        typer.echo(terminal_safe("\n".join(report_lines(line, output_width()))))

    for g in got.games:
        c = g.check
        say(_("wrote {path}: Kajongg's game {game} ({ruleset}{more}), {hands} hands, scheme {scheme}").format(
            path=g.path, game=g.game, ruleset=g.ruleset, more="" if g.finished else _(", not finished"),
            hands=c.hands, scheme=g.scheme))
        final = ", ".join(f"{n} {t}" for n, t in c.balances.items())
        if c.errors:
            say(_("  session cannot play {n} of its hands:").format(n=len(c.errors)))
            for bad in c.errors:
                say(f"    {bad}")
            continue
        unread = _("; {n} not read (each named below)").format(n=len(c.unread)) if c.unread else ""
        say(_("  session agrees with Kajongg on {agreeing} of {hands} hands{unread}").format(
            agreeing=c.agreeing, hands=c.hands, unread=unread))
        if c.balances_agree:
            say(_("  the final balances agree:  {final}").format(final=final))
        else:
            say(_("  the final balances differ: Kajongg's  {final}").format(final=final))
            say(_("                             session's  {list}").format(
                list=', '.join(f'{n} {c.totals[n]}' for n in c.balances)))
        for d in c.unread:
            say(_("  hand {hand} (Kajongg's hand {kajongg_hand}) not read: {why}").format(
                hand=d.hand, kajongg_hand=d.kajongg_hand, why=d.why))
        for d in c.departures:
            say(_("  hand {hand} (Kajongg's hand {kajongg_hand}): {why}").format(
                hand=d.hand, kajongg_hand=d.kajongg_hand, why=d.why))
    for refused in got.refused:
        say_error(refused)
    if got.refused:
        raise typer.Exit(1)


def _said_help(*apps: typer.Typer) -> None:
    """Each command's help (its docstring, which Typer shows) in the language in use; the
    docstrings are in the catalogue (tools/catalogues.py takes them from here).  Each command is
    made a `usage.Command`, whose usage line and help option are said in it too."""
    for one in apps:
        for c in one.registered_commands:
            if c.cls in (None, typer.core.TyperCommand):
                c.cls = usage.Command
            if c.help is None and c.callback is not None and c.callback.__doc__:
                c.help = _(inspect.cleandoc(c.callback.__doc__))


_said_help(app, schemes_app, import_app)


def _app_for(argv: list[str]) -> typer.Typer:
    """The app, holding only the command the line names when it names one.

    Typer works out the options of every command before it runs one (a third of a one-hand
    `score`'s own time); the command named runs the same either way.  Help, completion and
    anything else that is not a command name get the whole app.
    """
    name = argv[1] if len(argv) > 1 else ""
    commands = [c for c in app.registered_commands
                if (c.name or typer.main.get_command_name(getattr(c.callback, "__name__", ""))) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return one


class Stopped(BaseException):
    """Ctrl-C (SIGINT) or SIGTERM: the command stops, its workers ended, its lines whole.

    Not a KeyboardInterrupt, which Typer would turn into exit status 130 without a word."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, frame: object) -> None:
    raise Stopped(signum)


def _stopped(signum: int) -> NoReturn:
    """The lines written so far, whole; one line saying what stopped the command; exit status
    128 + the signal's number (130, 143).  A second signal from here on ends the process at once,
    by the signal's own default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    with contextlib.suppress(Exception):
        sys.stderr.write("mjscore: " + ("interrupted" if signum == signal.SIGINT else "terminated") + "\n")
        sys.stderr.flush()
    sys.exit(128 + signum)


def main() -> None:
    from mjscore.cli import output

    output.install()
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        _app_for(sys.argv)()
        sys.stdout.flush()         # a full disk shows here, not at exit
    except MjError as e:  # raised outside a command's own handler
        say_error(e)
        sys.exit(1)
    except KeyboardInterrupt:      # raised by a handler not ours
        _stopped(signal.SIGINT)
    except Stopped as e:
        _stopped(e.signum)
    except BrokenPipeError:
        # The reader went away (`mjscore batch ... | head`): nothing more to say to it.
        output.silence()
        sys.exit(1)
    except output.OutputError as e:
        output.silence()           # nothing more can be written
        typer.echo(_("mjscore: error: cannot write the output: {reason}").format(reason=e.reason), err=True)
        sys.exit(1)
    except RecursionError:
        typer.echo(_("mjscore: error: input nested too deeply"), err=True)
        sys.exit(1)
    except Exception as e:  # a bug of ours: one line for the user, never a traceback
        typer.echo(_("mjscore: internal error ({name}: {e}); please report it with the input").format(
            name=type(e).__name__, e=e),
                   err=True)
        sys.exit(1)
