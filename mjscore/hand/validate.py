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
from mjscore.model.say import _, n_
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
        raise WinClauseError(_("two winners at one table ({a} and {b}): at most one player goes out").format(
                                 a=table.who(winners[0].seat), b=table.who(winners[1].seat)), winners[1].where,
                             seats=(winners[0].seat.value, winners[1].seat.value))
    if table.draw and winners:
        raise WinClauseError(_("the table is a draw, yet {player} has a win clause").format(
                                 player=table.who(winners[0].seat)),
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
        raise WinClauseError(_("'loose' is a win on the loose tile drawn after a kong, a flower or a season, but the "
                               "hand shows no kong and no flower or season"), p.where, "loose")
    if WinFlag.TWOFOLD in win.flags and kongs < 2:
        raise WinClauseError((_("'twofold' is a win on the loose tile of a second kong, declared with the first "
                                "kong's loose tile, but the hand shows no kong") if not kongs else
                              _("'twofold' is a win on the loose tile of a second kong, declared with the first "
                                "kong's loose tile, but the hand shows one kong")), p.where, "twofold")
    if WinFlag.ROBBED in win.flags and win.tile is not None:
        copies = sum(1 for t in p.all_tiles() if t == win.tile)
        if copies > 1:
            raise WinClauseError(_("'robbed' is a win on the tile added to a kong, which leaves the winner no other "
                                   "{tile}, but {player} holds {n} of it").format(tile=win.tile.text,
                                                                                   player=table.who(p.seat), n=copies),
                                 p.where, "robbed")
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
            under = _("under '{scheme}'").format(scheme=scheme_name) if scheme_name else _("here")
            raise WinClauseError(_("'robbed' takes the tile {player} added to a pung, and {player}'s pung of {tile} "
                                   "is concealed: {under} only the tile added to an exposed pung may be robbed (a "
                                   "concealed kong only for thirteen orphans)").format(player=who, tile=win.tile.text,
                                                                                      under=under),
                                 p.where, "robbed", seats=seats)
        raise WinClauseError(_("'robbed' is a win on the tile {player} added to a pung, but {player} shows no pung of "
                               "{tile}").format(player=who, tile=win.tile.text)
                             + (_(" (thirteen orphans may rob a concealed kong of it)") if orphans else ""),
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
        holders = ", ".join(_("{player} has {n}").format(player=table.who(p.seat), n=c[i]) for p, c in per_seat if c[i])
        seats = tuple(p.seat.value for p, c in per_seat if c[i])
        # Point at the player whose tiles push the count over: the fifth 5p, not the first (the
        # seats' counts add up to n, over the limit, so some seat's running count passes it).
        running = accumulate(c[i] for _seat, c in per_seat)
        over = next(p for (p, _counts), seen in zip(per_seat, running, strict=True) if seen > limit)
        where = over.place_of(t)
        if t.is_bonus:
            msg = _("{tile} ({name}) appears {n} times at the table ({holders}); there is one").format(
                tile=t.text, name=t.name, n=n, holders=holders)
        else:
            msg = _("{n} {tile} at the table ({holders}); there are four of each tile").format(
                n=_count_word(n), tile=t.text, holders=holders)
        raise TileCountError(msg, where, t.text, seats=seats)


def _count_word(n: int) -> str:
    return {5: _("five"), 6: _("six"), 7: _("seven"), 8: _("eight")}.get(n, str(n))


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
            raise HandSizeError(_("the winner {player} must list the whole hand: '...' is only for losers").format(
                player=who), p.where)
        most = 13 + kongs
        if size > most:
            raise HandSizeError(n_("{player} holds {tiles}, more than a loser can ({most} with {n} kong){hint}",
                                   "{player} holds {tiles}, more than a loser can ({most} with {n} kongs){hint}",
                                   kongs).format(player=who, tiles=_tiles(size), most=most, n=kongs,
                                                 hint=_kong_hint(p, size - most)), p.where)
        return
    want = (14 if win is not None else 13) + kongs
    if size != want:
        role = _("the winner") if win is not None else _("a loser")
        kong_note = n_(" with {n} kong", " with {n} kongs", kongs).format(n=kongs) if kongs else ""
        hint = _kong_hint(p, size - want)
        if not hint and win is None and size == want + 1:
            hint = _("; is this the winner? add 'win TILE self' or 'win TILE from SEAT'")
        elif not hint and win is None and size < want:
            hint = _("; mark a partial listing with '...'")
        raise HandSizeError(_("{player} holds {tiles}; {role} holds {want}{kongs}{hint}").format(
            player=who, tiles=_tiles(size), role=role, want=want, kongs=kong_note, hint=hint), p.where)
    if win is not None:
        if incomplete is not None:
            why = incomplete(p)
        else:
            why = None if is_complete(p, shapes) else _("its tiles make neither four sets and a pair nor a special "
                                                        "hand the scheme knows")
        if why is not None:
            raise IncompleteHandError(_("{player}'s hand is not complete: {why}").format(player=who, why=why), p.where)


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
    return (_("; a kong is written in brackets: ({kong}) if declared concealed, [{kong}] if exposed").format(kong=first)
            + (_(" (and so {more})").format(more=" ".join(groups[1:])) if extra > 1 else ""))


def _check_win_clause(p: PlayerHand, win: Win, table: Table) -> None:
    flags = win.flags
    who = table.who(p.seat)
    if win.tile is not None:
        # Among the concealed tiles, in a { } group, or in a bracketed set the discard completed.
        in_hand = any(win.tile in r.concealed or any(win.tile in m.tiles for m in r.melds if m.form is Form.GROUP)
                      for r in readings(p))
        if not in_hand:
            raise WinClauseError(_("the winning tile {tile} is not among {player}'s concealed tiles: list the whole "
                                   "hand, the winning tile included").format(tile=win.tile.text, player=who),
                                 p.where, win.tile.text)
    if win.discarder is not None and win.tile is not None and win.tile in p.discards:
        raise WinClauseError(_("sacred discard: {player} discarded {tile} since her last draw from the wall, so she "
                               "may not go out on another {tile} until she has drawn").format(player=who,
                                                                                            tile=win.tile.text),
                             p.where, win.tile.text)
    if WinFlag.ROBBED in flags and win.self_drawn:
        raise WinClauseError(_("'robbed' needs 'from SEAT': the seat whose kong was robbed"), p.where, "robbed")
    if WinFlag.UNRECORDED in flags and win.self_drawn:
        raise WinClauseError(_("'unrecorded' says who discarded the winning tile is not known: it needs 'from "
                               "SEAT', the seat that stands in for the discarder"), p.where, "unrecorded")
    if WinFlag.HEAVEN in flags and (p.seat is not Wind.EAST or not win.self_drawn):
        raise WinClauseError(_("'heaven' is East winning on the dealt tiles: it needs seat E and 'self'"),
                             p.where, "heaven")
    if WinFlag.EARTH in flags and (p.seat is Wind.EAST or win.discarder is not Wind.EAST):
        raise WinClauseError(_("'earth' is winning on East's first discard: it needs 'from E'"), p.where, "earth")
    for f in (WinFlag.LOOSE, WinFlag.TWOFOLD):
        if f in flags and not win.self_drawn:
            raise WinClauseError(_("'{flag}' is a win on a loose tile, which is always self-drawn").format(
                                 flag=f.value),
                                 p.where, f.value)
        if f in flags and WinFlag.LAST in flags:
            # Seed text 000: "In counting the fourteen pieces, the one or two loose tiles on the end
            # of the wall, are included in the fourteen".
            raise WinClauseError(_("a winning tile has one source: '{flag}' is a loose tile, and the loose tiles lie "
                                   "among the fourteen of the dead wall, so none is the wall's last ('last')").format(
                                     flag=f.value),
                                 p.where, "last")


def is_complete(p: PlayerHand, shapes: frozenset[str] = DEFAULT_SHAPES) -> bool:
    """Four sets and a pair (the written groups counting as sets), or a special shape in `shapes`."""
    return any(winner_arrangements(r, frozenset(shapes), 4) for r in readings(p))


def _tiles(n: int) -> str:
    return n_("{n} tile", "{n} tiles", n).format(n=n)
