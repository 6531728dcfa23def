"""The command line: parses options, calls the library (`mjscore.api` and the steps under it),
renders.  No scoring lives here.

Every `MjError` becomes one line `FILE:LINE:COL: error: ...` on standard error with exit
status 1.  The library is imported inside each command, so that `--help` and start-up stay
quick: this is the one place in the package where imports are deferred.
"""

from __future__ import annotations

import copy
import errno
import functools
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from mjscore.model.errors import MjError
from mjscore.version import __version__

app = typer.Typer(
    name="mjscore",
    help="Score and settle finished Mahjong hands under the classical Chinese (Western) rules.\n\n"
         "Hands are written in the compact notation (.mj) or YAML (.yaml), described in docs/notation.md "
         "of the mjscore repository; 'mjscore COMMAND --help' shows each command with an example.\n\n"
         "Example: mjscore score -e \"S: [CCC] 234m 678m 55p 789s 1f win 5p from N; "
         "E: [111p] 2378m 4455s NN; W: (FFFF) 12345m 99p 2y 568s; N: [EEE] 11m 23p 456s 889s 3f\"",
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class TileStyle(str, Enum):
    text = "text"
    unicode = "unicode"


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


class Paying(str, Enum):
    winner_only = "winner-only"
    between_all = "between-all"
    add_up = "add-up"


class BatchFormat(str, Enum):
    json = "json"
    csv = "csv"


class WaitsFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


class CheckFormat(str, Enum):
    table = "table"
    json = "json"


class ViewFormat(str, Enum):
    table = "table"
    markdown = "markdown"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mjscore {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Score and settle finished Mahjong hands under the classical Chinese (Western) rules."""


def fail(err: MjError) -> None:
    typer.echo(str(err), err=True)
    raise typer.Exit(1)


def table_stream(file: Optional[str], inline: Optional[str], stdin_when_piped: bool = False):
    """(name, line, Table | MjError) for each table of FILE, `-` (standard input) or `-e TEXT`
    (exactly one of them), read as it goes: a command prints each table's result before the
    next is read."""
    from mjscore.io.reader import stream_tables, text_tables

    if inline is not None and file is not None:
        raise typer.BadParameter("give a FILE or -e TEXT, not both")
    if inline is None and file is None:
        if not stdin_when_piped or sys.stdin.isatty():
            raise typer.BadParameter("give a FILE, '-' for standard input, or -e TEXT")
        file = "-"                                # `mjscore score < hand.mj`
    return text_tables(inline, "<-e>") if inline is not None else stream_tables(file)


def _check_payoff(payoff: str, scheme: str | None) -> None:
    """A mistyped --payoff is a wrong command line: said at once, with the choices."""
    from mjscore.rules.payoffs import builtin_payoffs
    from mjscore.rules.scheme import load_scheme

    try:
        known = set(builtin_payoffs()) | set(load_scheme(scheme).payoffs)
    except MjError:
        return                                   # the scheme itself is wrong: the command says so
    if payoff not in known:
        raise typer.BadParameter(f"no payoff scheme '{payoff}'; choose from {', '.join(sorted(known))}",
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
        typer.echo(str(err), err=True)

    def exit(self) -> None:
        if self.count:
            raise typer.Exit(1)


def _path(file: str | None):
    """A FILE argument as the API takes it: a path, or `-` for standard input."""
    from pathlib import Path

    if file is None:
        raise typer.BadParameter("give a FILE, '-' for standard input, or -e TEXT")
    return Path(file)           # Path("-") is standard input to the API, as `-` is here


FILE_ARG = typer.Argument(None, metavar="FILE", show_default=False,
                          help="A hand file (.mj or .yaml); '-' reads standard input.")
INLINE_OPT = typer.Option(None, "-e", "--expr", metavar="TEXT", show_default=False,
                          help="The table itself, lines separated by ';'.")


@app.command()
def show(
    file: Optional[str] = FILE_ARG,
    inline: Optional[str] = INLINE_OPT,
    tiles: TileStyle = typer.Option(TileStyle.text, "--tiles", help="text: the notation; unicode: tile pictures."),
) -> None:
    """Print tables in canonical compact notation (checks them on the way).

    \b
    Example:
      mjscore show -e "S: [CCC] 234m 678m 55p 789s 1f win 5p from N"
      S: [CCC] 234678m 55p 789s 1f win 5p from N
    \b
      mjscore show sample_hands/east-self-drawn.mj --tiles unicode
    """
    from mjscore.hand.validate import validate_table
    from mjscore.io.notation import print_table

    if file not in (None, "-") and inline is None:
        from mjscore.io.reader import file_is_session

        if file_is_session(file):                  # the header and the names stay: it plays again
            from mjscore.evening.journal import print_session
            from mjscore.io.text import read_text

            try:
                sys.stdout.write(print_session(*read_text(file), style=tiles.value))
            except MjError as e:
                fail(e)
            return
    failures, shown = Failures(), 0
    for _, _, table in table_stream(file, inline):
        try:
            if isinstance(table, MjError):
                raise table
            validate_table(table)
        except MjError as e:
            failures.report(e)
            continue
        sys.stdout.write(("---\n" if shown else "") + print_table(table, style=tiles.value))
        shown += 1
    failures.exit()


SCHEME_OPT = typer.Option(None, "--scheme", "-s", metavar="NAME|FILE",
                          help="A shipped scheme (see 'mjscore schemes': classical, dmjl, bmja, babcock, "
                               "millington, ...) or a scheme file; default: the table's 'scheme' header, "
                               "else classical.")
PAYING_OPT = typer.Option(None, "--paying", help="How the table settles: winner-only (only the winner is paid), "
                                                 "between-all (losers also settle their differences), add-up "
                                                 "(no payments: scores are added to totals).")
PAYOFF_OPT = typer.Option(None, "--payoff", metavar="NAME",
                          help="How the winner is paid: chinese-classical, chinese-modern, japanese, "
                               "or a payoff defined in the scheme file.")
EAST_OPT = typer.Option(None, "--east-double/--no-east-double",
                        help="East pays and receives double: on payments to the winner under "
                             "chinese-classical, on differences between losers under between-all, and "
                             "East's added score under add-up. chinese-modern never doubles for East; "
                             "japanese has East's double built in.")
ROUND_OPT = typer.Option(None, "--round-payments-up", metavar="N", min=1,
                         help="Round every payment up to a multiple of N (Japanese Modern: 100).")
DIFF_OPT = typer.Option(None, "--loser-difference-limit", metavar="N", min=1,
                        help="Cut each difference between two losers to N before East's double.")
FORMAT_OPT = typer.Option(Format.table, "--format", "-f", help="table, json, csv or markdown.")
EAST_PENALTY_OPT = typer.Option(None, "--east-penalty-double/--no-east-penalty-double",
                                help="Under add-up, a penalty East incurs is taken off twice.")
KITTY_OPT = typer.Option(None, "--kitty", metavar="N", min=1,
                         help="A kitty: each player puts N in every deal; a winner takes it (see --kitty-hand).")
KITTY_HAND_OPT = typer.Option(None, "--kitty-hand", metavar="RULE",
                              help="Only a winner whose hand earns this rule of the scheme takes the kitty "
                                   "(e.g. no-chow); default: any winner.")
BONUS_OPT = typer.Option(None, "--extra-hand-bonus", metavar="N", min=1,
                         help="The winner is paid N for each of East's extra hands in a row (deals East kept).")


def _choices(scheme, paying, payoff, east_double, round_up, diff_limit, explain=False, east_penalty=None):
    from mjscore.pipeline import Choices

    if payoff is not None:
        _check_payoff(payoff, scheme)

    return Choices(scheme=scheme, paying=paying.value if paying else None, payoff=payoff,
                   east_double=east_double, round_payments_up=round_up, loser_difference_limit=diff_limit,
                   explain=explain, east_penalty_double=east_penalty)


@app.command()
def score(
    file: Optional[str] = FILE_ARG,
    inline: Optional[str] = INLINE_OPT,
    scheme: Optional[str] = SCHEME_OPT,
    paying: Optional[Paying] = PAYING_OPT,
    payoff: Optional[str] = PAYOFF_OPT,
    east_double: Optional[bool] = EAST_OPT,
    round_payments_up: Optional[int] = ROUND_OPT,
    loser_difference_limit: Optional[int] = DIFF_OPT,
    east_penalty_double: Optional[bool] = EAST_PENALTY_OPT,
    format: Format = FORMAT_OPT,
    explain: bool = typer.Option(False, "--explain", help="Also show the runner-up arrangement and why it scored less."),
) -> None:
    """Score every player of a table, then settle: the breakdown, the payments and each net.

    \b
    Example (South wins on North's discard):
      mjscore score -e "round S; E: [111p] 2378m 4455s NN; S: [CCC] 234m 678m 55p 789s 1f win 5p from N; W: (FFFF) 12345m 99p 2y 568s; N: [EEE] 11m 23p 456s 889s 3f"
    \b
      mjscore score sample_hands/east-self-drawn.mj --scheme dmjl --format json
      mjscore score sample_hands/win-on-discard.mj --paying winner-only --payoff japanese --round-payments-up 100
    """
    from mjscore.cli.render import csv_rows, render_csv, render_text, terminal_safe, to_json
    from mjscore.pipeline import evaluate

    choices = _choices(scheme, paying, payoff, east_double, round_payments_up, loser_difference_limit, explain,
                       east_penalty_double)
    failures, shown = Failures(), 0
    width = output_width() if format is Format.table else None
    if format is Format.csv:
        sys.stdout.write(render_csv([], header=True))
    for number, (name, line, table) in enumerate(table_stream(file, inline, stdin_when_piped=True), start=1):
        try:
            if isinstance(table, MjError):
                raise table
            result = evaluate(table, choices).to_dict()
        except MjError as e:
            failures.report(e)
            continue
        if format is Format.json:
            sys.stdout.write(to_json(result) + "\n")
        elif format is Format.csv:
            sys.stdout.write(render_csv(csv_rows(result, number, name, line), header=False))
        else:
            sys.stdout.write(terminal_safe(("\n---\n\n" if shown else "") + render_text(result, format.value, width)))
        shown += 1
    failures.exit()


@app.command()
def batch(
    files: list[str] = typer.Argument(..., metavar="FILE...", help="Hand files; '-' reads standard input."),
    scheme: Optional[str] = SCHEME_OPT,
    paying: Optional[Paying] = PAYING_OPT,
    payoff: Optional[str] = PAYOFF_OPT,
    east_double: Optional[bool] = EAST_OPT,
    round_payments_up: Optional[int] = ROUND_OPT,
    loser_difference_limit: Optional[int] = DIFF_OPT,
    east_penalty_double: Optional[bool] = EAST_PENALTY_OPT,
    format: BatchFormat = typer.Option(BatchFormat.json, "--format", "-f", help="json (one line per table) or csv."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, metavar="N",
                                       help="Worker processes (default: the usable cores); the output is the same, "
                                            "in input order, whatever N."),
) -> None:
    """Score many tables: one JSON line (or CSV rows) per table, in input order.

    A table that cannot be read or scored gives an error row and the others go on; the exit
    status is 1 when any table had an error.

    \b
    Example:
      mjscore batch sample_hands/evening.mj sample_hands/draw.mj --scheme dmjl > results.jsonl
    """
    from mjscore.cli.render import batch_line
    from mjscore.evening.batch import score_files

    choices = _choices(scheme, paying, payoff, east_double, round_payments_up, loser_difference_limit,
                       east_penalty=east_penalty_double)
    # A running count on the terminal, only while the results go elsewhere (a file, a pipe):
    # on a terminal showing the results too, the count would glue onto their lines.
    progress = sys.stderr if sys.stderr.isatty() and not sys.stdout.isatty() else None
    out = sys.stdout
    if format is BatchFormat.csv:
        out.write(batch_line(None, "csv", header=True))
    n = errors = 0
    try:
        encode = functools.partial(batch_line, fmt=format.value)
        for item in score_files(files, choices, jobs or usable_cores(), encode=encode):
            n += 1
            errors += not item.ok
            out.write(item.text)
            if progress is not None and n % 500 == 0:
                progress.write(f"\r  {n:,} tables, {errors:,} with errors")
                progress.flush()
    except KeyboardInterrupt:
        if progress is not None and n >= 500:
            progress.write("\n")                    # the count's line ends before the shell's prompt
        raise
    if progress is not None and n >= 500:
        progress.write(f"\r  {n:,} tables, {errors:,} with errors\n")
    if errors:
        raise typer.Exit(1)


@app.command()
def waits(
    file: Optional[str] = FILE_ARG,
    inline: Optional[str] = INLINE_OPT,
    scheme: Optional[str] = SCHEME_OPT,
    format: WaitsFormat = typer.Option(WaitsFormat.table, "--format", "-f", help="table, json or csv."),
) -> None:
    """For each player one tile from going out, the tiles that complete the hand.

    Settles sacred-discard and false-Mah-Jong disputes. A tile the player holds four of is no
    wait; a wait whose other copies are all visible at the table is listed and also named dead.

    \b
    Example:
      mjscore waits -e "E: 1m 19p 19s E S W NN C F P" --format json
      {"players": [{"seat": "E", "waits": ["9m"], "dead": []}]}
    """

    from mjscore.pipeline import Choices, table_waits

    choices = Choices(scheme=scheme)
    failures = Failures()
    for _, _, table in table_stream(file, inline):
        try:
            if isinstance(table, MjError):
                raise table
            players = table_waits(table, choices)
        except MjError as e:
            failures.report(e)
            continue
        _print_waits(players, format)
    failures.exit()


def _print_waits(players: list[dict], format: WaitsFormat) -> None:
    import json
    if format is WaitsFormat.json:
        typer.echo(json.dumps({"players": players}))
    elif format is WaitsFormat.csv:
        typer.echo("seat,waits,dead")
        for p in players:
            typer.echo(f"{p['seat']},{' '.join(p['waits'])},{' '.join(p['dead'])}")
    else:
        for p in players:
            ready = " ".join(p["waits"]) if p["waits"] else "not one tile from going out"
            dead = f"   (dead: {' '.join(p['dead'])})" if p["dead"] else ""
            sacred = f"   (sacred: {' '.join(p['sacred'])}: not on another's discard)" if p.get("sacred") else ""
            typer.echo(f"{p['seat']}: {ready}{dead}{sacred}")


@app.command()
def check(
    file: Optional[str] = FILE_ARG,
    inline: Optional[str] = INLINE_OPT,
    scheme: Optional[str] = SCHEME_OPT,
    format: CheckFormat = typer.Option(CheckFormat.table, "--format", "-f", help="table (text lines) or json."),
) -> None:
    """Compare every '= N' claim with mjscore's score, and explain any difference.

    Exit status 1 when any claim differs. Works on session files too (every claimed hand,
    scored with the session's seating).

    \b
    Example:
      mjscore check -e "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 80"
      <-e>:1:10: E claims 80, mjscore counts 160 (40 points, 2 doubles)
          any one of these would account for the difference:
            the claim leaves out Pung or kong of dragons [CCC] (1 double)
            the claim leaves out Pung or kong of own wind EEE (1 double)
            the claim leaves out Going out (20 points)
    """
    import json

    from mjscore.api import check as check_claims

    if inline is not None and file is not None:
        raise typer.BadParameter("give a FILE or -e TEXT, not both")
    if inline is None and file is None:
        raise typer.BadParameter("give a FILE, '-' for standard input, or -e TEXT")
    try:
        out, differ = check_claims(inline if inline is not None else _path(file), scheme=scheme, name="<-e>")
    except MjError as e:
        fail(e)
    if format is CheckFormat.json:
        typer.echo(json.dumps({"differences": differ, "report": out}))
    else:
        if not out:
            name = "<-e>" if inline is not None else "<stdin>" if file == "-" else file
            out = [f"{name}: no claims ('= N') to check"]
        from mjscore.cli.render import terminal_safe

        typer.echo(terminal_safe("\n".join(out)))
    if differ:
        raise typer.Exit(1)


@app.command()
def session(
    file: Optional[str] = FILE_ARG,
    scheme: Optional[str] = SCHEME_OPT,
    paying: Optional[Paying] = PAYING_OPT,
    payoff: Optional[str] = PAYOFF_OPT,
    east_double: Optional[bool] = EAST_OPT,
    round_payments_up: Optional[int] = ROUND_OPT,
    loser_difference_limit: Optional[int] = DIFF_OPT,
    east_penalty_double: Optional[bool] = EAST_PENALTY_OPT,
    format: Format = FORMAT_OPT,
    chart: bool = typer.Option(False, "--chart", help="Also draw the running totals as a terminal chart."),
    hand: Optional[int] = typer.Option(None, "--hand", min=1, metavar="N",
                                       help="Show hand N in detail: every player's items and the payments."),
) -> None:
    """A recorded session: every hand in order, seats rotating, running totals, standings, settle-up.

    The file names the players in seat order at the first hand, then lists the hands, each
    written by that hand's seat winds; mjscore keeps the seating (East keeps the deal when
    East wins, a draw passes it or not as the scheme says).

    \b
    Example:
      mjscore session sample_hands/evening-session.mj
      mjscore session sample_hands/evening-session.yaml --format json
    """
    from mjscore.api import play_session
    from mjscore.cli.render import render_session, session_chart, session_csv, terminal_safe, to_json

    choices = _choices(scheme, paying, payoff, east_double, round_payments_up, loser_difference_limit,
                       east_penalty=east_penalty_double)
    if file is None:
        raise typer.BadParameter("give a session FILE, or '-' for standard input")
    if chart and format in (Format.json, Format.csv):
        raise typer.BadParameter(f"--chart draws for people: it goes with --format table or markdown, not {format.value}")
    try:
        played = play_session(_path(file), keep_going=True, **choices._asdict())
    except MjError as e:
        fail(e)
    result = played.to_dict()
    if hand is not None:
        if hand > len(result["hands"]):
            raise typer.BadParameter(f"the evening has {len(result['hands'])} hands played", param_hint="'--hand'")
        one = result["hands"][hand - 1]
        if format is Format.json:
            typer.echo(to_json(one))
        else:
            from mjscore.cli.render import render_text

            totals = "  ".join(f"{n} {t}" for n, t in one["totals"].items())
            text = render_text(one, "markdown" if format is Format.markdown else "table", output_width())
            sys.stdout.write(terminal_safe(f"Hand {hand}, {one['dealer']} deals\n\n{text}\nTotals after it: {totals}\n"))
        return
    if format is Format.json:
        typer.echo(to_json(result))
    elif format is Format.csv:
        sys.stdout.write(session_csv(result))
    else:
        sys.stdout.write(terminal_safe(render_session(result, format.value, output_width())))
    for e in played.errors:
        typer.echo(str(e), err=True)
    if chart:
        try:
            color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            sys.stdout.write("\n" + session_chart(result, color=color, width=output_width()))
        except ImportError:
            typer.echo("mjscore: error: --chart needs the plotext package (pip install plotext)", err=True)
            raise typer.Exit(1)
    if played.errors:
        raise typer.Exit(1)


NAMES_OPT = typer.Option(None, "--players", metavar="E S W N", show_default=False,
                         help="The four players in seat order at the first hand: starts a new evening file.")


@app.command()
def add(
    evening: str = typer.Argument(..., metavar="EVENING", help="The evening's file (.mj); made when it does not exist."),
    file: Optional[str] = typer.Argument(None, metavar="[FILE]", show_default=False,
                                         help="The hand in a file; '-' reads standard input."),
    inline: Optional[str] = INLINE_OPT,
    players: Optional[tuple[str, str, str, str]] = NAMES_OPT,
    scheme: Optional[str] = typer.Option(None, "--scheme", "-s", metavar="NAME|FILE",
                                         help="The scheme of a new evening (see 'mjscore schemes')."),
    start: Optional[int] = typer.Option(None, "--start", min=0, help="Each player's points before the first hand "
                                                                      "(a new evening; default 2000)."),
    paying: Optional[Paying] = PAYING_OPT,
    payoff: Optional[str] = PAYOFF_OPT,
    east_double: Optional[bool] = EAST_OPT,
    round_payments_up: Optional[int] = ROUND_OPT,
    loser_difference_limit: Optional[int] = DIFF_OPT,
    east_penalty_double: Optional[bool] = EAST_PENALTY_OPT,
    kitty: Optional[int] = KITTY_OPT,
    kitty_hand: Optional[str] = KITTY_HAND_OPT,
    extra_hand_bonus: Optional[int] = BONUS_OPT,
) -> None:
    """Add one hand to an evening's file and show who pays whom, the totals and who deals next.

    Write the hand by the seats of this hand, or by the players' names (Ann: score 40 win self).
    On a terminal with no hand given, mjscore asks for it seat by seat: tiles, 'score N' or
    '...', and the win clause on the winner's line; Enter alone is '...' for a loser.

    \b
    Examples:
      mjscore add evening.mj --players Ann Bob Cid Dee -e "E: score 40 win self; S: score 8; W: ...; N: ..."
      mjscore add evening.mj -e "Bob: [111p] 222s 333m EEE 99s win 9s from Ann; Ann: score 12; Cid: ...; Dee: ..."
      mjscore add evening.mj
    """
    from mjscore.cli.render import render_hand, terminal_safe
    from mjscore.evening.journal import add_hand

    if inline is not None and file is not None:
        raise typer.BadParameter("give a FILE or -e TEXT, not both")
    options = {"paying": paying.value if paying else None, "payoff": payoff, "east_double": east_double,
               "round_payments_up": round_payments_up, "loser_difference_limit": loser_difference_limit,
               "east_penalty_double": east_penalty_double, "kitty": kitty, "kitty_hand": kitty_hand,
               "extra_hand_bonus": extra_hand_bonus}
    try:
        if inline is not None:
            hand = inline
        elif file is not None:
            from mjscore.io.text import read_text

            hand = read_text(file)[0]
        elif sys.stdin.isatty():
            hand = _ask_for_hand(evening, players)
        else:
            hand = sys.stdin.read()
        name = "<-e>" if inline is not None else "<stdin>" if file == "-" else file if file else "<typed>"
        added = add_hand(evening, hand, players=players, start=start, scheme=scheme, options=options, hand_name=name)
    except MjError as e:
        fail(e)
    if added.created:
        typer.echo(f"Started {evening}: {', '.join(added.evening.players)}")
    sys.stdout.write(terminal_safe(render_hand(added.evening.to_dict(), output_width())))


def _ask_for_hand(evening: str, players) -> str:
    """The hand, asked seat by seat at the terminal: whose seat it is, then that player's line."""
    import os as _os

    from mjscore.api import play_session
    from mjscore.cli.render import SEAT_NAMES

    if _os.path.lexists(evening):
        so_far = play_session(Path(evening))
        nxt, order = so_far.next, so_far.players
        at = order.index(nxt.dealer)
        names = [order[(at + k) % 4] for k in range(4)]
        typer.echo(f"Hand {nxt.hand}: {nxt.dealer} deals, {nxt.round.name.capitalize()} round.")
    elif players:
        names = list(players)
        typer.echo(f"Hand 1: {names[0]} deals, East round.")
    else:
        raise typer.BadParameter("no such evening file: name the players to start one (--players A B C D)")
    typer.echo("Each line: tiles, 'score N' or '...'; the winner adds")
    typer.echo("'win TILE self' or 'win TILE from NAME'.")
    lines = []
    for seat, name in zip("ESWN", names):
        answer = typer.prompt(f"{name} ({SEAT_NAMES[seat]})", default="", show_default=False).strip()
        lines.append(f"{seat}: {answer or '...'}")
    return "\n".join(lines)


@app.command()
def undo(evening: str = typer.Argument(..., metavar="EVENING", help="The evening's file (.mj).")) -> None:
    """Take the last hand back out of an evening's file; show it, and the standings without it.

    \b
    Example:
      mjscore undo evening.mj
    """
    from mjscore.cli.render import render_standings, terminal_safe
    from mjscore.evening.journal import remove_last_hand

    try:
        removed = remove_last_hand(evening)
    except MjError as e:
        fail(e)
    typer.echo("Removed this hand:")
    typer.echo(terminal_safe("".join(f"  {line}\n" for line in removed.text.rstrip("\n").split("\n"))))
    sys.stdout.write(terminal_safe(render_standings(removed.evening.to_dict(), output_width())))


schemes_app = typer.Typer(help="The shipped scoring schemes: list them, show one, compare two.",
                          no_args_is_help=False, rich_markup_mode=None)
app.add_typer(schemes_app, name="schemes")


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
    from mjscore.api import load_scheme, shipped_schemes
    from mjscore.cli.render import terminal_safe

    try:
        rows = [(name, load_scheme(name)) for name in shipped_schemes()]
    except MjError as e:
        fail(e)
    width = max(len(n) for n, _ in rows)
    for name, s in rows:
        typer.echo(terminal_safe(f"{name:<{width}}  {s.title} (limit {s.limit})"))


@schemes_app.command("show")
def schemes_show(name: str = typer.Argument(..., help="A shipped scheme or a scheme file."),
                 format: ViewFormat = typer.Option(ViewFormat.table, "--format", "-f", help="table or markdown."),
                 payoffs: bool = typer.Option(False, "--payoffs", help="Show the payoff tables instead: what each "
                                                                      "loser pays the winner, in every situation.")
                 ) -> None:
    """Print every value of a scheme as readable tables (--payoffs: its payoff tables).

    \b
    Example:
      mjscore schemes show bmja
    """
    from mjscore.api import load_scheme
    from mjscore.cli.render import terminal_safe
    from mjscore.cli.schemeview import payoff_tables, show

    if payoffs:
        try:
            sys.stdout.write(terminal_safe(payoff_tables(load_scheme(name), format.value)))
        except MjError as e:
            fail(e)
        return

    try:
        sys.stdout.write(terminal_safe(show(load_scheme(name), format.value)))
    except MjError as e:
        fail(e)


@schemes_app.command("diff")
def schemes_diff(a: str = typer.Argument(..., help="A scheme name or file."),
                 b: str = typer.Argument(..., help="Another scheme name or file."),
                 format: ViewFormat = typer.Option(ViewFormat.table, "--format", "-f", help="table or markdown.")) -> None:
    """Print what differs between two schemes (a shipped one and a house file, say).

    \b
    Example:
      mjscore schemes diff classical bmja
    """
    from mjscore.api import load_scheme
    from mjscore.cli.render import terminal_safe
    from mjscore.cli.schemeview import render_diff

    try:
        sys.stdout.write(terminal_safe(render_diff(load_scheme(a), load_scheme(b), format.value)))
    except MjError as e:
        fail(e)


def _app_for(argv: list[str]) -> typer.Typer:
    """The app, holding only the command the line names when it names one.

    Typer works out the options of every command before it runs one (a third of a one-hand
    `score`'s own time); the command named runs the same either way.  Help, completion and
    anything else that is not a command name get the whole app.
    """
    name = argv[1] if len(argv) > 1 else ""
    commands = [c for c in app.registered_commands
                if (c.name or typer.main.get_command_name(c.callback.__name__)) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return one


def main() -> None:
    for stream in (sys.stdout, sys.stderr):
        # A terminal or file that cannot show a character (LC_ALL=C, a Latin-1 terminal) gets an
        # escape for it instead of an error that would lose the rows after it.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        _app_for(sys.argv)()
        sys.stdout.flush()         # a full disk shows here, not at exit
    except MjError as e:  # raised outside a command's own handler
        typer.echo(str(e), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # The reader went away (`mjscore batch ... | head`): nothing more to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as e:
        if e.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
            raise
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # nothing more can be written
        typer.echo(f"mjscore: error: cannot write the output: {e.strerror}", err=True)
        sys.exit(1)
    except RecursionError:
        typer.echo("mjscore: error: input nested too deeply", err=True)
        sys.exit(1)
    except Exception as e:  # a bug of ours: one line for the user, never a traceback
        typer.echo(f"mjscore: internal error ({type(e).__name__}: {e}); please report it with the input",
                   err=True)
        sys.exit(1)
