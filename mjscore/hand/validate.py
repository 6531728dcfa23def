"""The checks that refuse a table that cannot have happened (notation.md, "What is checked").

Syntax is the parser's business; this module checks a parsed table as a whole.  The winner's
completeness depends on the scheme (which special hands it knows), so it is passed the set of
shape names the scheme accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from bisect import bisect_left
from itertools import accumulate
from operator import attrgetter, eq

from mjscore.hand.arrange import readings, winner_arrangements
from mjscore.model.errors import HandSizeError, IncompleteHandError, TableError, TileCountError, WinClauseError
from mjscore.model.table import Form, PlayerHand, Table, Win, WinFlag, tiles_text
from mjscore.model.tiles import ALL_TILES, KINDS, TILES, Tile, Wind

_INDEX = attrgetter("index")
DEFAULT_SHAPES = frozenset({"standard", "thirteen-orphans"})


def validate_table(table: Table, shapes: frozenset[str] = DEFAULT_SHAPES,
                   incomplete: Callable[[PlayerHand], str | None] | None = None,
                   loose_needs_kong: bool = False, rob_concealed_pung: bool = True,
                   scheme_name: str | None = None) -> None:
    """Raise a TableError if the table is impossible.

    `incomplete(hand)` may replace the completeness check of the winner (the scoring engine
    passes the scheme's): why the hand is not complete, or None when it is; by default the
    standard shape and the names in `shapes` count.
    `loose_needs_kong`: a win on a loose tile needs a kong or a bonus tile in the winner's hand
    (the scheme says; without one, as for `show`, it is not asked).
    `rob_concealed_pung`: a robbed kong may be one the robbed player was declaring from a concealed
    pung and a drawn fourth tile, not only one added to an exposed pung (the scheme says; without
    one it is allowed).  `scheme_name` names the scheme in the messages of these checks.
    """
    _check_tile_counts(table)
    winners = [p for p in table.players if p.win is not None]
    if len(winners) > 1:
        raise WinClauseError(f"two winners at one table ({table.who(winners[0].seat)} and "
                             f"{table.who(winners[1].seat)}): at most one player goes out", winners[1].where,
                             seats=(winners[0].seat.value, winners[1].seat.value))
    if table.draw and winners:
        raise WinClauseError(f"the table is a draw, yet {table.who(winners[0].seat)} has a win clause",
                             winners[0].where, seats=(winners[0].seat.value,))
    for p in table.players:
        try:
            _check_player(p, table, shapes, incomplete)
        except TableError as e:
            e.seats = e.seats or (p.seat.value,)        # the line at fault: what a prompt asks again
            raise
    for p in winners:
        try:
            _check_flags_fit(p, table, loose_needs_kong, rob_concealed_pung, scheme_name)
        except TableError as e:
            e.seats = e.seats or (p.seat.value,)
            raise


def _check_flags_fit(p: PlayerHand, table: Table, loose_needs_kong: bool = False,
                     rob_concealed_pung: bool = True, scheme_name: str | None = None) -> None:
    """The win flags must fit the tiles (docs/rules.md, "When a way of winning is possible"):
    a loose tile is drawn after a kong or a flower or season, so a win on one needs a kong or a
    bonus tile in the hand (where the scheme asks it: Kajongg's own hands leave it out);
    twofold fortune needs two kongs; a robbed kong's tile is the winner's only copy of it, and
    the robbed player shows the pung it was added to: an exposed one, or a concealed one where
    the scheme lets a kong being declared from it be robbed (thirteen orphans always may)."""
    win = p.win
    if p.score is not None or win is None:
        return                                   # a counted score shows no tiles to check against
    kongs = p.kongs
    if WinFlag.LOOSE in win.flags and loose_needs_kong and not kongs and not p.bonus:
        raise WinClauseError("'loose' is a win on the loose tile drawn after a kong, a flower or a season, but the "
                             "hand shows no kong and no flower or season", p.where, "loose")
    if WinFlag.TWOFOLD in win.flags and kongs < 2:
        raise WinClauseError("'twofold' is a win on the loose tile of a second kong, declared with the first "
                             f"kong's loose tile, but the hand shows {('no', 'one')[kongs]} kong", p.where, "twofold")
    if WinFlag.ROBBED in win.flags and win.tile is not None:
        copies = sum(1 for t in p.all_tiles() if t == win.tile)
        if copies > 1:
            raise WinClauseError(f"'robbed' is a win on the tile added to a kong, which leaves the winner no other "
                                 f"{win.tile.text}, but {table.who(p.seat)} holds {copies} of it", p.where, "robbed")
        robbed = next((q for q in table.players if q.seat is win.discarder), None)
        if robbed is None or robbed.incomplete or robbed.score is not None:
            return                               # not listed in full: nothing to hold the claim against
        pung = any(m.form is Form.EXPOSED and len(m.tiles) == 3 and m.tiles[0] == win.tile for m in robbed.melds)
        # Thirteen orphans may rob a kong being declared concealed: the robbed player keeps three.
        kept = sum(1 for t in robbed.concealed if t == win.tile) + sum(
            len(m.tiles) for m in robbed.melds if m.form is Form.GROUP and m.tiles[0] == win.tile
            and len(set(m.tiles)) == 1)
        if pung or (kept >= 3 and rob_concealed_pung):
            return
        orphans = is_complete(p, frozenset({"thirteen-orphans"})) and not is_complete(p, frozenset())
        if kept >= 3 and orphans:
            return
        who = table.who(robbed.seat)
        seats = (p.seat.value, robbed.seat.value)
        if kept >= 3:
            under = f"under '{scheme_name}'" if scheme_name else "here"
            raise WinClauseError(f"'robbed' takes the tile {who} added to a pung, and {who}'s pung of "
                                 f"{win.tile.text} is concealed: {under} only the tile added to an exposed pung "
                                 "may be robbed (a concealed kong only for thirteen orphans)", p.where, "robbed",
                                 seats=seats)
        raise WinClauseError(f"'robbed' is a win on the tile {who} added to a pung, but {who} shows no pung of "
                             f"{win.tile.text}"
                             + (" (thirteen orphans may rob a concealed kong of it)" if orphans else ""),
                             p.where, "robbed", seats=seats)


def _tiles_shown(p: PlayerHand, shown: list[Tile] | None = None) -> list[Tile]:
    """A player's tiles on the table, added to `shown` (a new list when none is given): her
    concealed tiles, her groups', her flowers and seasons and her discards (a discard lies on
    the table: it is one of the four too)."""
    out = [] if shown is None else shown
    out += p.concealed
    for m in p.melds:
        out += m.tiles
    out += p.bonus
    out += p.discards
    return out


def _check_tile_counts(table: Table) -> None:
    # The usual case, said without counting: every tile shown at the table, sorted by kind, has
    # no kind five times (no tile four places on is the same) and no flower or season twice.
    # Made of C's loops (the sort, the comparisons): counted in Python, tile by tile, this check
    # ran 1,326 Python opcodes a table, now 181 (a sys.settrace count over the 1,500 tables).
    shown: list[Tile] = []
    for p in table.players:
        _tiles_shown(p, shown)
    idx = sorted(map(_INDEX, shown))
    bonus = bisect_left(idx, KINDS)
    if not any(map(eq, idx, idx[4:bonus])) and not any(map(eq, idx[bonus:], idx[bonus + 1:])):
        return
    total = [0] * ALL_TILES
    for i in idx:
        total[i] += 1
    per_seat = []
    for p in table.players:
        counts = [0] * ALL_TILES
        for t in _tiles_shown(p):
            counts[t.index] += 1
        per_seat.append((p, counts))
    for i, n in enumerate(total):
        limit = 1 if i >= KINDS else 4
        if n <= limit:
            continue
        t = TILES[i]
        holders = ", ".join(f"{table.who(p.seat)} has {c[i]}" for p, c in per_seat if c[i])
        seats = tuple(p.seat.value for p, c in per_seat if c[i])
        # Point at the player whose tiles push the count over: the fifth 5p, not the first (the
        # seats' counts add up to n, over the limit, so some seat's running count passes it).
        running = accumulate(c[i] for _, c in per_seat)
        over = next(p for (p, _), seen in zip(per_seat, running, strict=True) if seen > limit)
        where = over.place_of(t)
        if t.is_bonus:
            msg = f"{t.text} ({t.name}) appears {n} times at the table ({holders}); there is one"
        else:
            msg = f"{_count_word(n)} {t.text} at the table ({holders}); there are four of each tile"
        raise TileCountError(msg, where, t.text, seats=seats)


def _count_word(n: int) -> str:
    return {5: "five", 6: "six", 7: "seven", 8: "eight"}.get(n, str(n))


def _check_player(p: PlayerHand, table: Table, shapes: frozenset[str],
                  incomplete: Callable[[PlayerHand], str | None] | None) -> None:
    win = p.win
    if p.score is not None:
        return
    if win is not None:
        _check_win_clause(p, win, table)
    kongs = p.kongs
    who = table.who(p.seat)
    size = p.tile_count
    if p.incomplete:
        if win is not None:
            raise HandSizeError(f"the winner {who} must list the whole hand: '...' is only for losers",
                                p.where)
        most = 13 + kongs
        if size > most:
            raise HandSizeError(f"{who} holds {_tiles(size)}, more than a loser can "
                                f"({most} with {kongs} kong{'s' if kongs != 1 else ''}){_kong_hint(p, size - most)}",
                                p.where)
        return
    want = (14 if win is not None else 13) + kongs
    if size != want:
        role = "the winner" if win is not None else "a loser"
        kong_note = f" with {kongs} kong{'s' if kongs != 1 else ''}" if kongs else ""
        hint = _kong_hint(p, size - want)
        if not hint and win is None and size == want + 1:
            hint = "; is this the winner? add 'win TILE self' or 'win TILE from SEAT'"
        elif not hint and win is None and size < want:
            hint = "; mark a partial listing with '...'"
        raise HandSizeError(f"{who} holds {_tiles(size)}; {role} holds {want}{kong_note}{hint}", p.where)
    if win is not None:
        if incomplete is not None:
            why = incomplete(p)
        else:
            why = None if is_complete(p, shapes) else ("its tiles make neither four sets and a pair nor a "
                                                       "special hand the scheme knows")
        if why is not None:
            raise IncompleteHandError(f"{who}'s hand is not complete: {why}", p.where)


def _kong_hint(p: PlayerHand, extra: int) -> str:
    """A hand `extra` tiles too large because kongs were written as loose tiles (`5555p`, which
    counts as 4 tiles and no kong): the hint to bracket them, or "" when that is not it."""
    if extra <= 0:
        return ""
    counts: dict[Tile, int] = {}
    for t in p.concealed:
        counts[t] = counts.get(t, 0) + 1
    fours = [t for t, n in counts.items() if n == 4]
    if len(fours) != extra:
        return ""
    groups = [tiles_text((t,) * 4, sep="") for t in sorted(fours, key=lambda t: t.index)]
    first = groups[0]
    return (f"; a kong is written in brackets: ({first}) if declared concealed, [{first}] if exposed"
            + (f" (and so {' '.join(groups[1:])})" if extra > 1 else ""))


def _check_win_clause(p: PlayerHand, win: Win, table: Table) -> None:
    flags = win.flags
    who = table.who(p.seat)
    if win.tile is not None:
        # Among the concealed tiles, in a { } group, or in a bracketed set the discard completed.
        in_hand = any(win.tile in r.concealed or any(win.tile in m.tiles for m in r.melds if m.form is Form.GROUP)
                      for r in readings(p))
        if not in_hand:
            raise WinClauseError(f"the winning tile {win.tile.text} is not among {who}'s concealed tiles: "
                                 "list the whole hand, the winning tile included", p.where, win.tile.text)
    if win.discarder is not None and win.tile is not None and win.tile in p.discards:
        raise WinClauseError(f"sacred discard: {who} discarded {win.tile.text} since her last draw from the "
                             f"wall, so she may not go out on another {win.tile.text} until she has drawn",
                             p.where, win.tile.text)
    if WinFlag.ROBBED in flags and win.self_drawn:
        raise WinClauseError("'robbed' needs 'from SEAT': the seat whose kong was robbed", p.where, "robbed")
    if WinFlag.UNRECORDED in flags and win.self_drawn:
        raise WinClauseError("'unrecorded' says who discarded the winning tile is not known: it needs 'from SEAT', "
                             "the seat that stands in for the discarder", p.where, "unrecorded")
    if WinFlag.HEAVEN in flags and (p.seat is not Wind.EAST or not win.self_drawn):
        raise WinClauseError("'heaven' is East winning on the dealt tiles: it needs seat E and 'self'",
                             p.where, "heaven")
    if WinFlag.EARTH in flags and (p.seat is Wind.EAST or win.discarder is not Wind.EAST):
        raise WinClauseError("'earth' is winning on East's first discard: it needs 'from E'", p.where, "earth")
    for f in (WinFlag.LOOSE, WinFlag.TWOFOLD):
        if f in flags and not win.self_drawn:
            raise WinClauseError(f"'{f.value}' is a win on a loose tile, which is always self-drawn",
                                 p.where, f.value)
        if f in flags and WinFlag.LAST in flags:
            # Seed text 000: "In counting the fourteen pieces, the one or two loose tiles on the end
            # of the wall, are included in the fourteen".
            raise WinClauseError(f"a winning tile has one source: '{f.value}' is a loose tile, and the loose tiles "
                                 "lie among the fourteen of the dead wall, so none is the wall's last ('last')",
                                 p.where, "last")


def is_complete(p: PlayerHand, shapes: frozenset[str] = DEFAULT_SHAPES) -> bool:
    """Four sets and a pair (the written groups counting as sets), or a special shape in `shapes`."""
    return any(winner_arrangements(r, frozenset(shapes), 4) for r in readings(p))


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"
