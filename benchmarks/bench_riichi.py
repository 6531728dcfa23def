"""Per winning hand, side by side: mjscore against the riichi `mahjong` package on the same hands.

    pip install -r benchmarks/requirements.txt      # the `mahjong` package: for benchmarks only
    python benchmarks/bench_riichi.py [TABLES] [SCHEME]

The winners of the seeded generated tables are given to both engines: to mjscore's
`score_player` under SCHEME (default dmjl), and to `mahjong`'s
`HandCalculator.estimate_hand_value` with the same tiles, sets and winning tile (flowers and
seasons, which riichi has not, are left out of its copy).  Every input and `HandConfig` is
built outside the timing.  The two engines are timed alternately, hand by hand, in CPU time
(`time.process_time_ns`), over several passes; the median pass of each is reported.  Riichi
refuses some of these hands (no yaku, say) only after arranging them, so its time is still the
work of valuing the hand.

It times the `mjscore` the interpreter has installed, never the checkout beside it: after
`MJSCORE_COMPILE=1 pip install .` the compiled build, after `pip install -e .` the source.  The
first line it prints names the file `mjscore.scoring.score` was imported from, and whether it is
compiled (an extension module, `.so` or `.pyd`).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import mjscore.scoring.score
from mjscore.model.table import Form
from mjscore.rules.scheme import load_scheme
from mjscore.scoring.score import is_complete_under, score_player


def _beside(name: str) -> ModuleType:
    """A module of this folder (generate.py), loaded from its file: no folder goes on sys.path,
    so nothing here can stand in front of the installed `mjscore`."""
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", Path(__file__).resolve().parent / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tables = _beside("generate").tables


def timed_build() -> str:
    """Which build of mjscore is timed: the file of `mjscore.scoring.score`, compiled or not."""
    where = str(mjscore.scoring.score.__file__)
    compiled = where.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    return f"timing mjscore.scoring.score from {where} ({'compiled' if compiled else 'not compiled: Python source'})"


try:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld
except ImportError:
    sys.exit("bench_riichi.py needs the `mahjong` package: pip install -r benchmarks/requirements.txt")

PASSES = 5
# Our tile index: characters, dots, bamboo, winds E S W N, then red, green, white dragons.
# Riichi's: man, pin, sou, winds E S W N, then white (haku), green (hatsu), red (chun).
_RIICHI_KIND = list(range(31)) + [33, 32, 31]


def _riichi_input(hand, table):
    """The winner's hand as riichi `mahjong` takes it: 136-tile ids, melds, winning tile, config."""
    used = [0] * 34

    def take(tile) -> int:
        kind = _RIICHI_KIND[tile.index]
        used[kind] += 1
        return kind * 4 + used[kind] - 1

    melds = []
    tiles = []
    for meld in hand.melds:
        ids = [take(t) for t in meld.tiles]
        tiles += ids
        kind = {"chow": Meld.CHI, "pung": Meld.PON, "kong": Meld.KAN}[meld.kind.value]
        melds.append(Meld(kind, ids, opened=meld.form is Form.EXPOSED))
    concealed = [take(t) for t in hand.concealed]
    tiles += concealed
    win = hand.win.tile
    win_id = next(i for i in concealed if i // 4 == _RIICHI_KIND[win.index])
    config = HandConfig(is_tsumo=hand.win.self_drawn, player_wind=27 + "ESWN".index(hand.seat.value),
                        round_wind=27 + "ESWN".index(table.round.value))
    return tiles, win_id, melds, config


def main() -> None:
    print(timed_build(), flush=True)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    scheme = load_scheme(sys.argv[2] if len(sys.argv) > 2 else "dmjl")
    hands = []
    for table in tables(20261129, n):
        winner = table.winner
        if winner is None or winner.score is not None or not is_complete_under(winner, scheme):
            continue
        if any(m.form is Form.GROUP for m in winner.melds):
            continue
        hands.append((winner, table, _riichi_input(winner, table)))
    calculator = HandCalculator()
    ours_passes, theirs_passes = [], []
    refused = 0
    for _ in range(PASSES):
        ours = theirs = 0
        refused = 0
        for winner, table, (tiles, win_id, melds, config) in hands:
            t0 = time.process_time_ns()
            score_player(winner, table, scheme)
            t1 = time.process_time_ns()
            result = calculator.estimate_hand_value(tiles, win_id, melds=melds, config=config)
            t2 = time.process_time_ns()
            ours += t1 - t0
            theirs += t2 - t1
            refused += result.error is not None
        ours_passes.append(ours)
        theirs_passes.append(theirs)
    first_ratio = theirs_passes[0] / ours_passes[0]
    ours = sorted(ours_passes)[PASSES // 2]
    theirs = sorted(theirs_passes)[PASSES // 2]
    print(f"{len(hands)} winning hands ({refused} refused by riichi after arranging, e.g. no yaku)")
    print(f"mjscore ({scheme.name}): {ours / len(hands) / 1000:7.1f} µs a hand, "
          f"{len(hands) / (ours / 1e9):8.0f} hands per CPU-second")
    print(f"riichi mahjong:  {theirs / len(hands) / 1000:7.1f} µs a hand, "
          f"{len(hands) / (theirs / 1e9):8.0f} hands per CPU-second")
    print(f"mjscore is {theirs / ours:.2f}x riichi's speed per winning hand (median of {PASSES} passes; "
          f"{first_ratio:.2f}x on the first pass, when mjscore's pattern caches are new)")


if __name__ == "__main__":
    main()
