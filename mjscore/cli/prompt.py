"""The prompt: a hand asked for line by line at a terminal, as `mjscore add` (and `edit`) asks it
when no hand is given.

Each player's line is checked as it is given (`mjscore.api.check_line`, the check a page makes
as a line is tapped in) and asked again alone when it is wrong; then the table as a whole, which
asks again only the lines its check names.  Line editing and history come from `readline` where
the platform has it (Up recalls a wrong line to mend).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import typer

import mjscore.api as api
from mjscore.cli.render import hand_title, report_lines, terminal_safe
from mjscore.model.errors import Location, MjError, NoWinnerError
from mjscore.model.tiles import SEAT_WORDS

if TYPE_CHECKING:
    from mjscore.api import Evening

T = TypeVar("T")

# What the prompt says first: at most two lines of 60 columns.
# A counted score needs no tile on the winner's line ('score 40 win self'); tiles do, and their
# check says so ("the win clause needs the winning tile").
PROMPT_HELP = ("A score (12), or tiles, or Enter for none; the winner adds",
               "win self or win from NAME. Or draw, penalty NAME N [to NAME]")

try:
    import readline  # line editing and history for input(), where the platform has it
except ImportError:                              # pragma: no cover - platforms without readline
    def _ask_again(question: str, now: str) -> str:
        """A line asked with its text as it stands beside the question: Enter keeps it."""
        return input(terminal_safe(f"{question}[{now}] ")) or now
else:
    def _ask_again(question: str, now: str) -> str:
        """A line asked with its text as it stands put where the player types: Enter keeps it."""
        readline.set_startup_hook(lambda: readline.insert_text(now))
        try:
            return input(terminal_safe(question))
        finally:
            readline.set_startup_hook(None)


def enter_hand(book: Evening, players: tuple[str, ...] | None, scheme: str | None, add: Callable[[str], T], *,
               width: int | None, seating: tuple[list[str], int, str] | None = None,
               offered: dict[str, str] | None = None, kept: tuple[str, ...] = ()) -> T:
    """The hand asked seat by seat at the terminal, in this hand's seating, each line checked as
    it is given and asked again alone when it is wrong; then the table as a whole, asking again
    only the lines its check names.  Returns what `add` made of the hand.  What is said keeps to
    `width` (a terminal's).  To correct a hand (`mjscore edit`): `seating` is its players,
    number and round, `offered` its lines by seat, each put on the line to change (Enter keeps
    it), and `kept` its penalties and own headers."""
    if seating is not None:
        names, number, round_letter = seating
        scheme, moved = book.scheme(), False
    elif book.exists():
        so_far = book.play()
        nxt = so_far.next
        assert nxt is not None                   # a played evening says who deals next
        names = list(nxt.seats)                 # this hand's seating, changed seats and all
        number, round_letter, scheme, moved = nxt.hand, nxt.round.value, book.scheme(), nxt.seats_change
    elif players:
        names, number, round_letter, moved = list(players), 1, "E", False
    else:
        raise typer.BadParameter("no such evening file: name the players to start one (--players A B C D)")
    api.load_scheme(scheme)                       # a scheme that cannot be read is said once, not at every line

    def say(text: str) -> None:
        typer.echo(terminal_safe("\n".join(report_lines(text, width))))

    say(hand_title(number, names[0], round_letter) + "."
        + (" The players have changed seats: "
           + ", ".join(f"{n} {SEAT_WORDS[s]}" for n, s in zip(names, "ESWN", strict=True)) + "." if moved else ""))
    for line in PROMPT_HELP:
        say(line)
    lines: dict[str, str] = {}
    penalties: list[str] = list(kept)
    if kept:
        say("Kept as they were: " + "; ".join(kept))

    def answer(question: str, now: str = "") -> str:
        try:
            return _ask_again(question, now) if now else input(terminal_safe(question))
        except EOFError:
            typer.echo("")
            raise MjError("nothing written: the hand was not finished", Location("<typed>")) from None

    def ask(seat: str) -> bool:
        """Asks `seat`'s line until it is right; False when a draw was given instead."""
        who = names["ESWN".index(seat)]
        now = (offered or {}).get(seat, "")
        while True:
            given = answer(f"{who} ({SEAT_WORDS[seat]}): ", now)
            now = ""
            kind = api.answer_kind(given)
            if kind == "draw":
                return False
            problem = api.check_line(given, seat, names, scheme=scheme, round=round_letter)
            if problem is not None:
                say(f"  error: {problem.message}")
                continue
            if kind == "penalty":
                penalties.append(given.strip())
                say(f"  Penalty noted. {who}'s line:")
                continue
            lines[seat] = api.entry_line(given)
            return True

    def drawn() -> T:
        return add("\n".join([*penalties, "draw"]))

    for seat in "ESWN":
        if not ask(seat):
            return drawn()
    while True:
        try:
            return add("\n".join([*penalties, *(f"{seat}: {lines[seat]}" for seat in "ESWN")]))
        except NoWinnerError:
            say("  Nobody went out: who did? (a name, or draw)")
            while True:
                winner = answer("Who went out? ").strip()
                if api.answer_kind(winner) == "draw":
                    return drawn()
                found = [s for s, n in zip("ESWN", names, strict=True) if n.casefold() == winner.casefold()]
                if found:
                    break
                say(f"  no player '{winner}' at this table: {', '.join(names)}")
            say(f"  {names['ESWN'.index(found[0])]}'s line, with win TILE self or win TILE from NAME:")
            if not ask(found[0]):
                return drawn()
        except MjError as e:
            again = [seat for seat in "ESWN" if seat in e.seats]
            if not again:
                raise
            say(f"  error: {e.message}")
            for seat in again:
                if not ask(seat):
                    return drawn()
