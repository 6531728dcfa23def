"""Winning shapes: is a hand complete, and every way its concealed tiles split into sets.

Works on count vectors over the 34 tile kinds.  Decomposition is memoised on the counts, so a
shape seen once (in a batch, or across the candidate winning sets of one hand) costs nothing
the second time.
"""

from __future__ import annotations

from functools import lru_cache

from mjscore.tiles import KINDS, WIND_BASE, Tile

Counts = tuple[int, ...]
# A block of an arrangement: ("pung" | "chow" | "pair", lowest tile index).
Block = tuple[str, int]

MAJORS = tuple(i for i in range(KINDS) if i >= WIND_BASE or i % 9 in (0, 8))


def counts_of(tiles) -> Counts:
    c = [0] * KINDS
    for t in tiles:
        c[t.index if isinstance(t, Tile) else t] += 1
    return tuple(c)


@lru_cache(maxsize=65536)
def decompositions(counts: Counts, sets: int, pairs: int) -> tuple[tuple[Block, ...], ...]:
    """Every way to split `counts` exactly into `sets` chows/pungs and `pairs` pairs.

    Blocks come in index order, so each split is listed once.
    """
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((),) if sets == 0 and pairs == 0 else ()
    if 3 * sets + 2 * pairs != sum(counts):
        return ()
    out: list[tuple[Block, ...]] = []
    here = counts[i]
    # Decide everything that uses tile i at once (pungs, pairs, then chows starting at i for
    # the rest), so that each split is produced exactly once.
    for n_pung in range(min(here // 3, sets) + 1):
        for n_pair in range(min((here - 3 * n_pung) // 2, pairs) + 1):
            n_chow = here - 3 * n_pung - 2 * n_pair
            if n_chow + n_pung > sets:
                continue
            c = list(counts)
            c[i] = 0
            if n_chow:
                if i >= WIND_BASE or i % 9 > 6 or c[i + 1] < n_chow or c[i + 2] < n_chow:
                    continue
                c[i + 1] -= n_chow
                c[i + 2] -= n_chow
            head = (("pung", i),) * n_pung + (("pair", i),) * n_pair + (("chow", i),) * n_chow
            out.extend(head + rest for rest in
                       decompositions(tuple(c), sets - n_pung - n_chow, pairs - n_pair))
    return tuple(out)


def is_thirteen_orphans(counts: Counts) -> bool:
    """Each terminal and honour once, one of them twice: 14 concealed tiles."""
    return sum(counts) == 14 and all(counts[i] >= 1 for i in MAJORS) and sum(counts[i] for i in MAJORS) == 14


def is_standard(counts: Counts, written_sets: int) -> bool:
    """Four sets and a pair, `written_sets` of the sets already laid out."""
    need = 4 - written_sets
    return need >= 0 and bool(decompositions(counts, need, 1))
