"""Winning shapes: is a hand complete, and every way its concealed tiles split into sets.

Works on count vectors over the 34 tile kinds.  Decomposition is memoised on the counts, so a
shape seen once (in a batch, or across the candidate winning sets of one hand) costs nothing
the second time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from mjscore.model.tiles import KINDS, WIND_BASE, Tile

Counts = tuple[int, ...]
# A block of an arrangement: ("pung" | "chow" | "pair", lowest tile index).
Block = tuple[str, int]

MAJORS = tuple(i for i in range(KINDS) if i >= WIND_BASE or i % 9 in (0, 8))


def counts_of(tiles: Sequence[Tile] | Sequence[int]) -> Counts:
    """How many of each tile kind: from tiles or tile indices."""
    c = [0] * KINDS
    if tiles and isinstance(tiles[0], Tile):
        for t in cast(Sequence[Tile], tiles):        # all tiles (the usual case): no test per tile
            c[t.index] += 1
    else:
        for x in tiles:
            c[x.index if isinstance(x, Tile) else x] += 1
    return tuple(c)


def decompositions(counts: Counts, sets: int, pairs: int) -> tuple[tuple[Block, ...], ...]:
    """Every way to split `counts` exactly into `sets` chows/pungs and `pairs` pairs.

    Blocks come in index order, so each split is listed once.  A suit's tiles split apart from
    the other suits', so each suit is split on its own (and remembered: the same few tiles of a
    suit come back hand after hand) and the hand's splits are the suits' splits combined.
    """
    if 3 * sets + 2 * pairs != sum(counts):
        return ()
    combined: list[tuple[tuple[Block, ...], int, int]] = [((), 0, 0)]
    for base, end in _SUIT_SPANS:
        lo = base
        while lo < end and not counts[lo]:
            lo += 1
        if lo == end:
            continue
        hi = end
        while not counts[hi - 1]:
            hi -= 1
        splits = _suit_decompositions(counts[lo:hi], lo, pairs)
        combined = [(blocks + more, n_sets + m_sets, n_pairs + m_pairs)
                    for blocks, n_sets, n_pairs in combined
                    for more, m_sets, m_pairs in splits
                    if n_sets + m_sets <= sets and n_pairs + m_pairs <= pairs]
        if not combined:
            return ()
    return tuple(blocks for blocks, n_sets, n_pairs in combined if n_sets == sets and n_pairs == pairs)


_SUIT_SPANS = ((0, 9), (9, 18), (18, 27), (WIND_BASE, KINDS))


# Sizes of the caches: large enough for the reuse within a hand and across similar hands, small
# enough that a batch of any length holds the same memory (a long batch fills them, then keeps
# them at this size).
@lru_cache(maxsize=16384)
def _suit_decompositions(counts: tuple[int, ...], first: int,
                         pairs: int) -> tuple[tuple[tuple[Block, ...], int, int], ...]:
    """Every full split of one suit's held ranks (`counts`, the first of them tile `first`) into
    pungs, chows and at most `pairs` pairs: (blocks, sets, pairs), in the order of the whole
    hand's search (the lowest tile's pungs, then its pairs, then chows from it)."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return (((), 0, 0),)
    out: list[tuple[tuple[Block, ...], int, int]] = []
    here = counts[i]
    tile = first + i
    honours = first >= WIND_BASE
    for n_pung in range(here // 3 + 1):
        for n_pair in range(min((here - 3 * n_pung) // 2, pairs) + 1):
            n_chow = here - 3 * n_pung - 2 * n_pair
            c = list(counts)
            c[i] = 0
            if n_chow:
                if honours or i + 2 >= len(c) or c[i + 1] < n_chow or c[i + 2] < n_chow:
                    continue
                c[i + 1] -= n_chow
                c[i + 2] -= n_chow
            head = (("pung", tile),) * n_pung + (("pair", tile),) * n_pair + (("chow", tile),) * n_chow
            out.extend((head + rest, n_pung + n_chow + m_sets, n_pair + m_pairs)
                       for rest, m_sets, m_pairs in _suit_decompositions(tuple(c), first, pairs - n_pair))
    return tuple(out)


# -- fast completeness: suit by suit -------------------------------------------------------------
# Whether tiles make four sets and a pair does not need every split, only the answer; and a suit's
# tiles split independently of the other suits'.  So each suit's 9 counts are solved once (and
# remembered) as the set of (pairs, chows) its full splits can have, and a hand is complete when
# one choice per suit gives exactly one pair and few enough chows.

def _suit_splits(counts: tuple[int, ...], honours: bool) -> tuple[tuple[int, int], ...]:
    """(pairs, chows) of every full split of one suit's counts into sets and at most one pair."""
    return _splits(_trim(counts), honours)


def _trim(counts: Sequence[int]) -> tuple[int, ...]:
    # Empty ranks at either end change no split (a chow needs its three ranks held), so
    # 2233m and 6677m are one state: fewer states to solve and to remember.
    lo, hi = 0, len(counts)
    while lo < hi and not counts[lo]:
        lo += 1
    while hi > lo and not counts[hi - 1]:
        hi -= 1
    return tuple(counts[lo:hi])


@lru_cache(maxsize=16384)
def _splits(counts: tuple[int, ...], honours: bool) -> tuple[tuple[int, int], ...]:
    """_suit_splits of counts that start and end with a held rank.

    A tuple of int tuples, not a set: the collector stops tracking such values, and the cache
    holds many of them.
    """
    if not counts:
        return ((0, 0),)
    out: set[tuple[int, int]] = set()
    c = list(counts)
    if c[0] >= 3:
        c[0] -= 3
        out.update(_splits(_trim(c), honours))
        c[0] += 3
    if c[0] >= 2:
        c[0] -= 2
        out |= {(p + 1, ch) for p, ch in _splits(_trim(c), honours) if p == 0}
        c[0] += 2
    if not honours and len(c) >= 3 and c[1] and c[2]:
        c[0] -= 1
        c[1] -= 1
        c[2] -= 1
        out |= {(p, ch + 1) for p, ch in _splits(_trim(c), honours)}
    return tuple(sorted(out))


Splits = tuple[tuple[int, int], ...]      # (pairs, chows) of each split


def _combine(a: Splits, b: Splits) -> Splits:
    return tuple({(p1 + p2, c1 + c2) for p1, c1 in a for p2, c2 in b if p1 + p2 <= 1})


def _part(counts: Counts, s: int) -> Splits:
    """The (pairs, chows) splits of suit s (0-2 numbered, 3 honours) of a count vector."""
    if s < 3:
        return _suit_splits(counts[s * 9:(s + 1) * 9], False)
    return _suit_splits(counts[WIND_BASE:KINDS], True)


@lru_cache(maxsize=4096)
def standard_waits(counts: Counts, max_chows: int) -> tuple[int, ...]:
    """The tiles that turn `counts` (3n+1 loose tiles) into sets and one pair with at most
    `max_chows` chows.  Only the suit of the added tile changes, so the other three suits are
    combined once per suit, not once per tile."""
    if _isolated(counts) >= 2:
        # A lone tile with no neighbour can only become a pair, with the added tile; a second
        # one would be left over.  Most losers stop here.
        return ()
    parts = [_part(counts, s) for s in range(4)]
    out: list[int] = []
    for s in range(4):
        others: Splits = ((0, 0),)
        for k in range(4):
            if k != s:
                others = _combine(others, parts[k])
                if not others:
                    break
        if not others:
            continue
        lo, hi = (s * 9, s * 9 + 9) if s < 3 else (WIND_BASE, KINDS)
        for r, part in _suit_waits(counts[lo:hi], s == 3):
            if any(p1 + p2 == 1 and c1 + c2 <= max_chows for p1, c1 in others for p2, c2 in part):
                out.append(lo + r)
    return tuple(out)


@lru_cache(maxsize=16384)
def _suit_waits(counts: tuple[int, ...], honours: bool) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """For each rank a tile added to this suit could join, the (pairs, chows) splits the suit
    then has: worked out once per suit pattern, which comes back in hand after hand."""
    out = []
    for r in range(len(counts)):
        # A tile with no neighbour in its suit (or, for honours, no copy) joins nothing.
        if honours:
            if not counts[r]:
                continue
        elif not any(counts[max(0, r - 2):r + 3]):
            continue
        c = list(counts)
        c[r] += 1
        part = _suit_splits(tuple(c), honours)
        if part:
            out.append((r, part))
    return tuple(out)


def _isolated(counts: Counts) -> int:
    """Single tiles with no tile of their suit within two ranks (an honour: no second copy)."""
    n = 0
    for i in range(WIND_BASE):
        if counts[i] == 1:
            r = i % 9
            lo, hi = i - min(r, 2), i + min(8 - r, 2)
            if sum(counts[lo:hi + 1]) == 1:
                n += 1
    return n + sum(1 for i in range(WIND_BASE, KINDS) if counts[i] == 1)
