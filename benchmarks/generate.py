"""A seeded generator of realistic full tables, for benchmarks and property tests.

Each table is dealt from one set of 136 tiles and 8 bonus tiles, so no tile appears more than
four times.  The winner holds a complete hand (four sets and a pair, some sets exposed, now and
then a kong); the losers hold 13 tiles, a few of them in exposed sets, and some bonus tiles.
"""

from __future__ import annotations

import random

from mjscore.io.notation import meld_order, print_table
from mjscore.model.table import Form, Meld, PlayerHand, Table, Win, WinFlag
from mjscore.model.tiles import KINDS, TILES, Wind


def _take_set(rng: random.Random, pool: list[int], kinds=("chow", "pung", "pung", "chow", "kong")):
    for _ in range(60):
        kind = rng.choice(kinds)
        i = rng.randrange(KINDS)
        if kind == "chow":
            if i >= 27 or i % 9 > 6 or not (pool[i] and pool[i + 1] and pool[i + 2]):
                continue
            tiles = [i, i + 1, i + 2]
        else:
            n = 4 if kind == "kong" else 3
            if pool[i] < n:
                continue
            tiles = [i] * n
        for t in tiles:
            pool[t] -= 1
        return tiles
    return None


def _take_pair(rng: random.Random, pool: list[int]):
    choices = [i for i in range(KINDS) if pool[i] >= 2]
    i = rng.choice(choices)
    pool[i] -= 2
    return [i, i]


def _take_loose(rng: random.Random, pool: list[int], n: int):
    out = []
    for _ in range(n):
        i = rng.choice([k for k in range(KINDS) if pool[k]])
        pool[i] -= 1
        out.append(i)
    return out


def random_table(rng: random.Random, max_chows: int = 4, claimed_kongs: bool = False) -> Table:
    """A full table; the winner holds at most `max_chows` chows (a scheme's own limit, so that
    the scheme accepts the hand).  With `claimed_kongs`, a kong may also be a concealed pung
    completed by a claimed tile (off by default: the benchmarks' tables stay as they were)."""
    kong_forms = [Form.EXPOSED, Form.DECLARED_KONG] + ([Form.CLAIMED_KONG] if claimed_kongs else [])
    pool = [4] * KINDS
    bonus = list(range(34, 42))
    rng.shuffle(bonus)
    winner = rng.choice(list(Wind))
    players = []
    for seat in Wind:
        melds, concealed = [], []
        if seat is winner:
            chows = 0
            for _ in range(4):
                tiles = _take_set(rng, pool) if chows < max_chows else _take_set(rng, pool, ("pung", "pung", "kong"))
                if tiles is None:
                    tiles = _take_set(rng, pool, ("pung", "chow") if chows < max_chows else ("pung",))
                chows += len(tiles) == 3 and tiles[0] != tiles[1]
                if len(tiles) == 4:
                    form = rng.choice(kong_forms)
                    melds.append(Meld(tuple(TILES[t] for t in tiles), form))
                elif rng.random() < 0.4:
                    melds.append(Meld(tuple(TILES[t] for t in sorted(tiles)), Form.EXPOSED))
                else:
                    concealed += tiles
            concealed += _take_pair(rng, pool)
        else:
            for _ in range(rng.choice((0, 0, 1, 1, 2))):
                tiles = _take_set(rng, pool, ("pung", "chow", "pung"))
                if tiles:
                    melds.append(Meld(tuple(TILES[t] for t in sorted(tiles)), Form.EXPOSED))
            concealed += _take_loose(rng, pool, 13 - 3 * len(melds))
        b = [bonus.pop() for _ in range(rng.choice((0, 0, 1, 1, 2)))]
        win = None
        if seat is winner:
            tile = TILES[rng.choice(concealed)]
            discarder = None if rng.random() < 0.4 else rng.choice([w for w in Wind if w is not seat])
            flags = frozenset()
            if discarder is None and rng.random() < 0.1:
                flags = frozenset({WinFlag.LAST})
            win = Win(tile, discarder, flags)
        players.append(PlayerHand(seat=seat, concealed=tuple(sorted(TILES[t] for t in concealed)),
                                  melds=tuple(sorted(melds, key=meld_order)),
                                  bonus=tuple(sorted(TILES[t] for t in b)), win=win))
    return Table(players=tuple(players), round=rng.choice(list(Wind)))


def tables(seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield random_table(rng)


if __name__ == "__main__":
    import sys

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    sys.stdout.write("---\n".join(print_table(t) for t in tables(seed, n)))
