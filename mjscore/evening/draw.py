"""A club night's seats, drawn: the players given to tables of four and to seats at random, from a
seed that anyone can use to draw them again.

The draw, so that it can be checked by hand or by any Python: `random.Random(seed)` shuffles the
names as they were given (`shuffle`, once); the first four of the shuffled list are table 1, East,
South, West and North, the next four table 2, and so on.  The same seed and the same names in the
same order give the same draw on every machine (Python's Mersenne Twister and its shuffle have
been the same since Python 3.2).  Each table's evening file keeps the seed, the table's number and
the names as given in comment lines at the head of its header, where `add`, `session` and `serve`
pass over them.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mjscore.evening.journal import start_evening
from mjscore.io.sessionfile import player_names
from mjscore.model.errors import InputError, Location
from mjscore.model.say import _
from mjscore.model.table import name_key

# Each table's evening file in the night's folder: table-1.mj, table-2.mj, ...
TABLE_FILE = "table-{n}.mj"
SEATS = ("E", "S", "W", "N")
# A seed anyone can type again: drawn below 10^12 when none is given.
SEED_BELOW = 10 ** 12


@dataclass(frozen=True)
class NightDraw:
    """A night's draw: its seed, the names as given (the order the shuffle starts from) and the
    tables, each its four players at E S W N at the first hand."""

    seed: int
    players: tuple[str, ...]
    tables: tuple[tuple[str, str, str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "players": list(self.players),
                "tables": [{"table": i + 1, "seats": dict(zip(SEATS, four, strict=True))}
                           for i, four in enumerate(self.tables)]}


def chosen_seed() -> int:
    """A seed for a draw nobody asked a seed for: from the system's randomness, printed."""
    return secrets.randbelow(SEED_BELOW)


def draw(players: Sequence[str], seed: int) -> NightDraw:
    """The night's tables from `players` (as given, a multiple of four, no name twice in any
    case) and `seed`: one shuffle, then four by four (the module's docstring)."""
    if len(players) < 4 or len(players) % 4:
        raise InputError(_("a night is tables of four: {n} players are not (give 4, 8, 12, ... names; "
                           "a table of five is not drawn)").format(n=len(players)), Location("--players"))
    seen: dict[str, str] = {}
    for name in players:
        if name_key(name) in seen:
            raise InputError(_("'{name}' is named twice (as '{first}'): each player once").format(
                name=name, first=seen[name_key(name)]), Location("--players"), name)
        seen[name_key(name)] = name
    # Each name as a header reads it (letters, no spaces, not a word of the notation).
    names = tuple(player_names(list(players), [Location("--players")] * len(players)))
    if not 0 <= seed < 2 ** 64:
        raise InputError(_("a seed is a whole number from 0 to {most}").format(most=2 ** 64 - 1), Location("--seed"))
    order = list(names)
    random.Random(seed).shuffle(order)
    tables = tuple((order[i], order[i + 1], order[i + 2], order[i + 3]) for i in range(0, len(order), 4))
    return NightDraw(seed, names, tables)


def table_paths(folder: str, drawn: NightDraw) -> list[str]:
    return [os.path.join(folder, TABLE_FILE.format(n=i + 1)) for i in range(len(drawn.tables))]


def start_night(folder: str, drawn: NightDraw, *, start: int | None = None, scheme: str | None = None,
                settings: Mapping[str, Any] | None = None) -> list[str]:
    """Make the night's folder and one evening file a table, its players seated as drawn; the
    files' paths.  Refused, with nothing written, where the folder holds an evening file already
    or any of the tables' files (or a link) is there."""
    if os.path.islink(folder):
        raise InputError(_("the night's folder is a link: give the folder itself"), Location(folder))
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise InputError(_("is not a folder: a night is a folder of evening files"), Location(folder))
    if os.path.isdir(folder):
        there = sorted(n for n in os.listdir(folder) if n.lower().endswith((".mj", ".yaml", ".yml")))
        if there:
            raise InputError(_("the folder holds evening files already ({files}): a night is drawn into a "
                               "folder of its own").format(files=", ".join(there)), Location(folder))
    paths = table_paths(folder, drawn)
    for path in paths:
        if os.path.lexists(path):
            raise InputError(_("is there already: nothing is written over"), Location(path))
    os.makedirs(folder, exist_ok=True)
    for i, (path, four) in enumerate(zip(paths, drawn.tables, strict=True)):
        # The draw kept where anyone reading the file finds it: a comment, which the readers pass over.
        comment = (f"# mjscore night: table {i + 1} of {len(drawn.tables)}, seed {drawn.seed}, "
                   f"drawn from: {' '.join(drawn.players)}\n")
        start_evening(path, four, start=start, scheme=scheme, settings=settings or {}, comment=comment)
    return paths
