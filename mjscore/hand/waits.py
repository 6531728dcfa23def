"""Waits: the tiles that would complete a hand one tile short of going out."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from mjscore.hand.arrange import SPECIAL_NEAR, Arrangement, is_special, readings
from mjscore.hand.shapes import Counts, counts_of, standard_waits
from mjscore.model.table import Form, Meld, PlayerHand, SetKind, Table
from mjscore.model.tiles import KINDS, TILES


class Shapes(Protocol):
    """What the waits need of a scheme: the winning shapes it knows, and the most chows."""

    @property
    def shapes(self) -> frozenset[str]: ...

    @property
    def max_chows(self) -> int: ...


def waiting_hand(hand: PlayerHand) -> PlayerHand:
    """A winner's hand as it stood before the winning tile: that tile taken away, and the player's
    `{ }` groups back among the loose tiles (the wait is counted on the tiles themselves)."""
    loose = list(hand.concealed)
    for m in hand.melds:
        if m.form is Form.GROUP:
            loose.extend(m.tiles)
    loose.sort()
    if hand.win is not None and hand.win.tile in loose:
        loose.remove(hand.win.tile)
    return dataclasses.replace(hand, concealed=tuple(loose), win=None,
                               melds=tuple(m for m in hand.melds if m.form is not Form.GROUP))


def waits_of(hand: PlayerHand, scheme: Shapes, held: Counts | None = None) -> list[int]:
    """Tile indices (sorted) that complete `hand` under the scheme, as a self-drawn tile.

    A tile the player already holds four of is no wait; copies visible elsewhere at the table
    do not matter here (the caller may name them as dead).  `held`: the counts of every
    playing tile of the hand, melds included, when the caller has them.
    """
    if hand.incomplete or hand.score is not None:
        return []
    chows, kongs, written_tiles = _written(hand.melds)
    if len(hand.concealed) + written_tiles != 13 + kongs:
        return []
    if held is None:
        held = counts_of(hand.all_tiles())
    return list(_waits(counts_of(hand.concealed), len(hand.melds), chows, held, scheme.shapes, scheme.max_chows))


def _written(melds: Iterable[Meld]) -> tuple[int, int, int]:
    """(chows, kongs, tiles) of the groups a player wrote."""
    chows = kongs = tiles = 0
    for m in melds:
        chows += m.kind is SetKind.CHOW
        kongs += m.kind is SetKind.KONG
        tiles += len(m.tiles)
    return chows, kongs, tiles


def waits_before_win(hand: PlayerHand, scheme: Shapes, held: Counts | None = None) -> list[int]:
    """`waits_of(waiting_hand(hand))` for a winner, worked out on tile counts without building
    the waiting hand (the "only possible tile" rules ask it of every winner).  `held`: the
    counts of every playing tile of the hand, melds included, when the caller has them."""
    if hand.incomplete or hand.score is not None or hand.win is None or hand.win.tile is None:
        return []
    counts = list(held if held is not None else counts_of(hand.all_tiles()))
    loose = counts[:]
    written = [m for m in hand.melds if m.form is not Form.GROUP]      # `{ }` groups go back among the loose
    chows, kongs, written_tiles = _written(written)
    for m in written:
        for t in m.tiles:
            loose[t.index] -= 1
    win = hand.win.tile.index
    if not loose[win]:
        return []                 # the winning tile is in no loose group: the hand is not as written
    loose[win] -= 1
    counts[win] -= 1
    if sum(loose) + written_tiles != 13 + kongs:
        return []
    return list(_waits(tuple(loose), len(written), chows, counts, scheme.shapes, scheme.max_chows))


def another_wait(arrangement: Arrangement, win_tile: int, held: Sequence[int]) -> int | None:
    """A tile other than the winning one that would also have completed a winner's hand, read
    off one of its standard arrangements without working out every wait; None when the
    arrangement shows none (the hand may still have one: `waits_before_win` says).

    Won on a pung, the thirteen tiles held two pairs (either makes the pung); won on the end of
    a chow whose far side is in the suit, the two tiles left waited at both ends.  `held`: the
    fourteen tiles' counts, melds included; a tile held four times is no wait.  The "only
    possible tile" rules ask this first: on the benchmark's 1,500 tables it answers most winners
    and spares 102 k of 2,381 k instructions a table (callgrind)."""
    won = None
    for b in arrangement.blocks:
        if b.won:
            won = b
    if won is None or arrangement.shape != "standard" or won.form is not Form.CONCEALED and won.form is not Form.GROUP:
        return None                  # a written set stood before the win; a special shape has its own waits
    other = -1
    if won.kind is SetKind.PUNG:
        for b in arrangement.blocks:
            if b.kind is SetKind.PAIR and b.form is Form.CONCEALED and b.tiles[0] != win_tile:
                other = b.tiles[0]
    elif won.kind is SetKind.CHOW:
        low = won.tiles[0]
        if win_tile == low and low % 9 < 6:
            other = low + 3
        elif win_tile == low + 2 and low % 9 > 0:
            other = low - 1
    return other if other >= 0 and held[other] < 4 else None


def _waits(loose: Counts, written: int, written_chows: int, held: Sequence[int], shapes: frozenset[str],
           max_chows: int) -> tuple[int, ...]:
    """Waits from plain values: the loose tile counts, how many sets (and chows) are written."""
    found: set[int] = set()
    if "standard" in shapes and sum(loose) + 1 == 3 * (4 - written) + 2 and written_chows <= max_chows:
        found.update(standard_waits(loose, max_chows - written_chows))
    near = [shape for shape in shapes if shape != "standard" and SPECIAL_NEAR[shape](loose)] if not written else []
    if near:
        # Every special shape holds at least two tiles of each suit it uses (and of the honours,
        # if it uses them), so 13 of its tiles already show every group the last tile comes from.
        groups = {t // 9 for t in range(KINDS) if loose[t]}
        candidates = [t for t in range(KINDS) if t // 9 in groups]
        for shape in near:
            for t in candidates:
                if t not in found:
                    c = list(loose)
                    c[t] += 1
                    if is_special(shape, tuple(c)):
                        found.add(t)
    return tuple(sorted(t for t in found if held[t] < 4))


def table_waits(table: Table, scheme: Shapes) -> list[dict[str, Any]]:
    """For each fully listed player, the tiles that would complete the hand, and which are dead.

    The winner is shown with what the hand waited for before the winning tile.  A wait is dead
    when every other copy of it is visible at the table (it is still listed).
    """
    visible = [0] * KINDS
    for p in table.players:
        for t in p.all_tiles():
            visible[t.index] += 1
    out = []
    for p in table.players:
        if p.incomplete or p.score is not None:
            continue
        if p.win is not None and p.win.tile is not None:
            # What the hand waited for: of each reading, when the player bracketed two sets the
            # discard may have completed (`arrange.readings`).
            waiting = [waiting_hand(r) for r in readings(p)]
            hand = waiting[0]
            ws = sorted({t for h in waiting for t in waits_of(h, scheme)})
        else:
            hand = p
            ws = waits_of(hand, scheme)
        held = counts_of(hand.all_tiles())
        row = {"seat": p.seat.value,
               "waits": [TILES[t].text for t in ws],
               "dead": [TILES[t].text for t in ws if visible[t] - (1 if hand is not p and _won_on(p, t) else 0)
                        >= 4 and held[t] < 4]}
        if p.discards:
            # Her own discards since her last draw: she may not go out on another discard of them.
            own = {t.index for t in p.discards}
            row["sacred"] = [TILES[t].text for t in ws if t in own]
        out.append(row)
    return out


def _won_on(p: PlayerHand, t: int) -> bool:
    return p.win is not None and p.win.tile is not None and p.win.tile.index == t
