"""Scoring throughput, in process: player-hands scored per second and the slowest single hand.

    python benchmarks/bench_score.py [TABLES] [SCHEME]

Tables come from the seeded generator; every table is validated first (outside the timing),
then scored once to warm the caches, then scored again under the clock.  The caches hold tile
patterns, not tables, so the timed pass is what a long batch sees.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import tables  # noqa: E402

from mjscore.rules.scheme import load_scheme  # noqa: E402
from mjscore.scoring.score import score_player  # noqa: E402


def _pass(hands, scheme):
    times = []
    for p, t in hands:
        t0 = time.process_time()
        score_player(p, t, scheme)
        times.append(time.process_time() - t0)
    return times


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    names = sys.argv[2:] or ["classical", "dmjl", "bmja"]
    from mjscore.scoring.score import is_complete_under

    for name in names:
        scheme = load_scheme(name)
        # Warm-up on other tables (another seed), so the timed passes also meet new tile patterns.
        warm = [(p, t) for t in tables(1, n // 5) if is_complete_under(t.winner, scheme) for p in t.players]
        _pass(warm, scheme)
        # BMJA refuses winning hands with two chows or more: those tables are input errors there.
        hands = [(p, t) for t in tables(20261129, n) if is_complete_under(t.winner, scheme) for p in t.players]
        first = _pass(hands, scheme)                  # meets every pattern for the first time
        repeats = [sum(_pass(hands, scheme)) for _ in range(4)]
        median = sorted(repeats + [sum(first)])[2]
        ordered = sorted(first)
        p999 = ordered[int(len(ordered) * 0.999)]
        print(f"{name:>12}: {len(hands):6d} player-hands; median of 5 passes {median:5.2f} s = "
              f"{len(hands) / median:7.0f} per second; first pass {len(hands) / sum(first):7.0f} per second; "
              f"slowest hand {max(first) * 1000:.2f} ms, 99.9th percentile {p999 * 1000:.2f} ms")


if __name__ == "__main__":
    main()
