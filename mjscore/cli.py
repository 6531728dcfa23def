"""The command line: parses options, calls the pipeline, prints.  No scoring lives here.

Every command reads its input through `reader`, and every `MjError` becomes one line
`FILE:LINE:COL: error: ...` on standard error with exit status 1.
"""

from __future__ import annotations

import sys
from enum import Enum
from typing import Optional

import typer

from mjscore import __version__
from mjscore.errors import MjError

app = typer.Typer(
    name="mjscore",
    help="Score and settle finished Mahjong hands under the classical Chinese (Western) rules.\n\n"
         "Hands are written in the compact notation (.mj) or YAML (.yaml); see README.md.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class TileStyle(str, Enum):
    text = "text"
    unicode = "unicode"


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


def load_tables(file: Optional[str], inline: Optional[str]):
    """Tables from FILE, `-` (standard input) or `-e TEXT`; exactly one of them."""
    from mjscore.reader import parse_any, read_tables

    if inline is not None and file is not None:
        raise typer.BadParameter("give a FILE or -e TEXT, not both")
    if inline is not None:
        return parse_any(inline, "<-e>")
    if file is None:
        raise typer.BadParameter("give a FILE, '-' for standard input, or -e TEXT")
    return read_tables(file)


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
    from mjscore.notation import print_tables
    from mjscore.validate import validate_table

    try:
        tables = load_tables(file, inline)
        for t in tables:
            validate_table(t)
    except MjError as e:
        fail(e)
    sys.stdout.write(print_tables(tables, style=tiles.value))


def main() -> None:
    try:
        app()
    except MjError as e:  # raised outside a command's own handler
        typer.echo(str(e), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except RecursionError:
        typer.echo("mjscore: error: input nested too deeply", err=True)
        sys.exit(1)
