"""A hand entered a player's line at a time (the `mjscore add` prompt, a page tapped at the
table): each line read with the prompt's shorthand and checked as far as a line alone can be,
before the next is asked.

What one line can show is checked here: its tiles and groups, its size, its win clause (a
winning tile held, `from` naming another player at this table, flags that fit), a winner's
hand complete under the scheme, the players it names.  What needs the whole table (the tiles
across players, one winner) is the evening's to check when the hand is added.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import NamedTuple

from mjscore.io.notation import name_seat, parse_table
from mjscore.model.errors import Location, MjError, NotationError
from mjscore.model.say import _
from mjscore.model.tiles import SEATS, WIND_BY_LETTER, Wind
from mjscore.pipeline import scheme_for, validate_under

# A line that starts with a score, written without the word: `12`, `40 win self`.
_BARE_SCORE = re.compile(r"\s*(\d+)(?=\s|$)")


def entry_line(answer: str) -> str:
    """A player's answer as the evening's file keeps it: Enter alone is `...` (a loser who
    scored nothing), a number first is the score counted at the table (`12` is `score 12`,
    `40 win self` is `score 40 win self`); anything else is kept as typed.

    >>> entry_line(""), entry_line("12"), entry_line("40 win from Bob"), entry_line("[111p] ...")
    ('...', 'score 12', 'score 40 win from Bob', '[111p] ...')
    """
    text = answer.strip()
    if not text:
        return "..."
    if _BARE_SCORE.match(text):
        return "score " + text
    return text


def answer_kind(answer: str) -> str:
    """What an answer at a player's prompt is: `draw` (the hand was a draw), `penalty` (a
    penalty, `penalty NAME N [to NAME]`, not the player's line) or `line` (the player's line).

    >>> answer_kind("Draw"), answer_kind("penalty Bob 100"), answer_kind("12")
    ('draw', 'penalty', 'line')
    """
    return "draw" if is_draw(answer) else "penalty" if is_penalty(answer) else "line"


def is_draw(answer: str) -> bool:
    """`draw` typed at a player's prompt: the hand was a draw (in any case)."""
    return answer.strip().lower() == "draw"


def is_penalty(answer: str) -> bool:
    """`penalty NAME N [to NAME]` typed at a player's prompt: a penalty, not the player's line."""
    return answer.strip().split(" ", 1)[0].lower() == "penalty"


def check_line(answer: str, seat: str | Wind, names: Sequence[str] | None = None, *, scheme: str | None = None,
               round: str | Wind = "E", name: str = "<typed>") -> MjError | None:
    """The error in one player's line, as typed at `seat` (with the prompt's shorthand, see
    `entry_line`), or None when the line alone is right; `names` are the four players in this
    hand's seat order E S W N, and the line may name them (`from Bob`, in any case).  A
    penalty line (`penalty NAME N [to NAME]`) and `draw` are checked too.  The error's place is
    in what was typed: `name`, line 1, its column."""
    seat = seat if isinstance(seat, Wind) else WIND_BY_LETTER[seat]
    prevailing = round if isinstance(round, Wind) else WIND_BY_LETTER[round]
    by_name = {n: s.value for n, s in zip(names, SEATS, strict=True)} if names else {}
    typed = answer.rstrip("\n")
    if is_draw(typed):
        return None
    if ";" in typed.split("#", 1)[0]:
        at = typed.index(";")
        return NotationError(_("one player's line at a time: ';' would start another line"),
                             Location(name, 1, at + 1), ";")
    if is_penalty(typed):
        lead = len(typed) - len(typed.lstrip())
        try:
            parse_table("penalty" + typed.lstrip()[len("penalty"):], name, 1, names=by_name, allow_empty=True,
                        column_of=lambda line, col: (1, col + lead))
        except MjError as e:
            return e
        return None
    prefix = f"{seat.value}: "
    body = typed.strip()
    offset = len(typed) - len(typed.lstrip())          # where `body` starts in what was typed
    head = body.split(maxsplit=1)[0] if body else ""
    said = head[:-1]
    if head.endswith(":") and (said in WIND_BY_LETTER or name_seat(by_name, said) is not None):
        # The seat or the name typed before the line, as in a file: right only if it is this seat's.
        if (said if said in WIND_BY_LETTER else name_seat(by_name, said)) != seat.value:
            who = names[seat.number - 1] if names else seat.value
            return NotationError(_("this is {player}'s line: leave out '{head}'").format(player=who, head=head),
                                 Location(name, 1, offset + 1), head)
        rest = body[len(head):]
        offset += len(head) + len(rest) - len(rest.lstrip())
        body = rest.strip()
    line = entry_line(body)
    inserted = len("score ") if line.startswith("score ") and not body.startswith("score") else 0

    def column(line_no: int, col: int) -> tuple[int, int]:
        return 1, max(offset + 1, col - len(prefix) - inserted + offset)

    try:
        table = parse_table(prefix + line, name, 1, column_of=column, names=by_name)
        table = dataclasses.replace(table, round=prevailing, names=tuple(names) if names else ())
        used = scheme_for(table, scheme)
        # The line alone: what the table as a whole shows is the evening's to check.
        validate_under(dataclasses.replace(table, players=table.players[:1], draw=False), used)
    except MjError as e:
        if e.location.file == name and e.location.line != 1:
            e.location = Location(name, 1, e.location.column)
        if e.location.file == name and not e.location.column:
            e.location = Location(name, 1, 1)
        return e
    return None


class Penalty(NamedTuple):
    """A penalty of a hand, between players by name: `payee` None for one paid to each other player.

    >>> Penalty("Dee", 100, "Ann").line(), Penalty("Bob", 20).line()
    ('penalty Dee 100 to Ann', 'penalty Bob 20')
    """

    payer: str
    amount: int
    payee: str | None = None

    def line(self) -> str:
        """The penalty as a hand's line writes it."""
        return f"penalty {self.payer} {self.amount}" + (f" to {self.payee}" if self.payee else "")


class HandParts(NamedTuple):
    """A hand's lines taken apart, as the people at the table entered them: each seat's line
    (its seat left off), the penalties, whether it was a draw, and its other lines (a hand's own
    headers: `paying add-up`, `round S`), kept as they were."""

    lines: dict[str, str]
    penalties: tuple[Penalty, ...]
    draw: bool
    other: tuple[str, ...]


def hand_parts(text: str, names: Sequence[str]) -> HandParts:
    """A hand as its file holds it (a taken-back hand), read into the parts a table enters:
    `names` are the players at E S W N for that hand; a seat may be written by its letter or its
    player's name, and so may a penalty's players.

    >>> p = hand_parts("penalty Dee 100 to E\\nE: score 40 win self  # a comment\\nbob: 12\\nW: ...\\n",
    ...                ("Ann", "Bob", "Cid", "Dee"))
    >>> p.lines, p.penalties, p.draw
    ({'E': 'score 40 win self', 'S': '12', 'W': '...'}, (Penalty(payer='Dee', amount=100, payee='Ann'),), False)
    """
    by_name = {n: s.value for n, s in zip(names, SEATS, strict=True)}

    def player(word: str) -> str | None:
        seat = word if word in WIND_BY_LETTER else name_seat(by_name, word)
        return names[WIND_BY_LETTER[seat].number - 1] if seat is not None else None

    lines: dict[str, str] = {}
    penalties: list[Penalty] = []
    other: list[str] = []
    draw = False
    for raw in text.split("\n"):
        body = raw.split("#", 1)[0].strip()
        if not body or body == "---":
            continue
        words = body.split()
        head = words[0]
        if is_draw(body):
            draw = True
        elif head.lower() == "penalty" and len(words) in (3, 5) and words[2].isdigit() \
                and (len(words) == 3 or words[3].lower() == "to"):
            payer, payee = player(words[1]), player(words[4]) if len(words) == 5 else None
            if payer is None or (len(words) == 5 and payee is None):
                other.append(raw)
            else:
                penalties.append(Penalty(payer, int(words[2]), payee))
        elif head.endswith(":") and (head[:-1] in WIND_BY_LETTER or name_seat(by_name, head[:-1]) is not None):
            said = head[:-1]
            seat = said if said in WIND_BY_LETTER else name_seat(by_name, said)
            assert seat is not None
            lines[seat] = body[len(head):].strip()
        else:
            other.append(raw)
    return HandParts(lines, tuple(penalties), draw, tuple(other))
