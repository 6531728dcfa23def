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
from mjscore.api import prompt_words
from mjscore.cli.render import hand_title, report_lines, terminal_safe
from mjscore.model.errors import Location, MjError, NoWinnerError
from mjscore.model.tiles import SEAT_WORDS

if TYPE_CHECKING:
    from mjscore.api import Evening

T = TypeVar("T")


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
    names, number, round_letter, scheme, moved = _this_hands_seating(book, players, scheme, seating)
    api.load_scheme(scheme)                       # a scheme that cannot be read is said once, not at every line
    typed = _TypedHand(names, scheme, round_letter, width, offered or {}, list(kept))
    p = prompt_words()
    typed.say(hand_title(number, names[0], round_letter) + "."
              + (p["moved"].format(seats=", ".join(f"{n} {SEAT_WORDS[s]}" for n, s in zip(names, "ESWN", strict=True)))
                 if moved else ""))
    for line in p["help"].split("\n"):
        typed.say(line)
    if kept:
        typed.say(p["kept"].format(kept="; ".join(kept)))
    for seat in "ESWN":
        if not typed.ask(seat):
            return add(typed.as_draw())
    while True:
        try:
            return add(typed.as_table())
        except NoWinnerError:
            # Every line a loser's: the winner is asked for by name, then her line again.
            typed.say(p["who_went_out"])
            winner = typed.who_went_out()
            if winner is None:
                return add(typed.as_draw())
            typed.say(p["winners_line"].format(player=names["ESWN".index(winner)]))
            if not typed.ask(winner):
                return add(typed.as_draw())
        except MjError as e:
            # The table's check names the seats whose lines it cannot take: those are asked again.
            again = [seat for seat in "ESWN" if seat in e.seats]
            if not again:
                raise
            typed.say(p["error"].format(message=e.message))
            for seat in again:
                if not typed.ask(seat):
                    return add(typed.as_draw())


def _this_hands_seating(book: Evening, players: tuple[str, ...] | None, scheme: str | None,
                        seating: tuple[list[str], int, str] | None) -> tuple[list[str], int, str, str | None, bool]:
    """The players in this hand's seat order, its number, its round's letter, its scheme and
    whether the players have changed seats since the last hand: a corrected hand's own
    (`seating`), else the next hand of the evening, else the first hand of a new one."""
    if seating is not None:
        names, number, round_letter = seating
        return names, number, round_letter, book.scheme(), False
    if book.exists():
        so_far = book.play()
        nxt = so_far.next
        assert nxt is not None                   # a played evening says who deals next
        # this hand's seating, changed seats and all
        return list(nxt.seats), nxt.hand, nxt.round.value, book.scheme(), nxt.seats_change
    if players:
        return list(players), 1, "E", scheme, False
    raise typer.BadParameter(prompt_words()["no_evening"])


class _TypedHand:
    """A hand's lines as the player types them at the prompt, each checked as it is given: the
    players' lines by seat and the penalties, in the order typed after those kept."""

    def __init__(self, names: list[str], scheme: str | None, round_letter: str, width: int | None,
                 offered: dict[str, str], penalties: list[str]) -> None:
        self.names = names
        self.scheme = scheme
        self.round_letter = round_letter
        self.width = width
        self.offered = offered
        self.penalties = penalties
        self.lines: dict[str, str] = {}

    def say(self, text: str) -> None:
        typer.echo(terminal_safe("\n".join(report_lines(text, self.width))))

    def answer(self, question: str, now: str = "") -> str:
        try:
            return _ask_again(question, now) if now else input(terminal_safe(question))
        except EOFError:
            typer.echo("")
            raise MjError(prompt_words()["unfinished"], Location("<typed>")) from None

    def ask(self, seat: str) -> bool:
        """Asks `seat`'s line until it is right; False when a draw was given instead."""
        who = self.names["ESWN".index(seat)]
        now = self.offered.get(seat, "")
        while True:
            given = self.answer(f"{who} ({SEAT_WORDS[seat]}): ", now)
            now = ""
            kind = api.answer_kind(given)
            if kind == "draw":
                return False
            problem = api.check_line(given, seat, self.names, scheme=self.scheme, round=self.round_letter)
            if problem is not None:
                self.say(prompt_words()["error"].format(message=problem.message))
                continue
            if kind == "penalty":
                self.penalties.append(given.strip())
                self.say(prompt_words()["penalty_noted"].format(player=who))
                continue
            self.lines[seat] = api.entry_line(given)
            return True

    def who_went_out(self) -> str | None:
        """The seat of the player named as the winner, asked until one is; None for a draw."""
        while True:
            winner = self.answer(prompt_words()["who"]).strip()
            if api.answer_kind(winner) == "draw":
                return None
            found = [s for s, n in zip("ESWN", self.names, strict=True) if n.casefold() == winner.casefold()]
            if found:
                return found[0]
            self.say(prompt_words()["no_player"].format(name=winner, players=", ".join(self.names)))

    def as_draw(self) -> str:
        """The hand as a draw: the penalties typed, then `draw`."""
        return "\n".join([*self.penalties, "draw"])

    def as_table(self) -> str:
        """The hand as typed: the penalties, then every player's line."""
        return "\n".join([*self.penalties, *(f"{seat}: {self.lines[seat]}" for seat in "ESWN")])
