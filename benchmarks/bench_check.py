"""`mjscore check` on a long stream of claimed tables: its peak memory and CPU time.

    python benchmarks/bench_check.py [--sizes 1000 10000] [--bad 0]

Generates tables with the seeded generator (generate.py); the winner of each claims a score:
mjscore's own for two tables in three, and a slip for the third (the score a double fewer, or
ten points more).  With `--bad N`, every Nth table is made unreadable (a tile that is no tile),
to show that `check` goes on past it.  Each file is checked by `python -m mjscore check FILE`
as a separate process, reading its CPU time (user + system) and its peak resident memory from
the kernel's account of the child.  Memory that stays flat as the file grows is the point:
the figures for two sizes are printed side by side.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))


from bench_batch import child_env as batch_env  # noqa: E402  (the batch benchmark's environment)


def child_env() -> dict:
    """The batch benchmark's environment, with no cache: every check reads its schemes afresh."""
    return {**batch_env(), "MJSCORE_CACHE_DIR": ""}


def run(cmd: list[str]) -> tuple[float, int, int, float]:
    """Wall seconds, peak resident memory (KiB), exit status and CPU seconds of one child."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env(), cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - t0, usage.ru_maxrss, os.waitstatus_to_exitcode(status),
            usage.ru_utime + usage.ru_stime)


def write_claims(path: Path, n: int, seed: int, bad: int = 0) -> None:
    """n tables, the winner of each with a claim (one in three a slip); every `bad`th unreadable."""
    from generate import tables

    import mjscore
    from mjscore.io.notation import print_table

    with path.open("w", encoding="utf-8") as f:
        for i, t in enumerate(tables(seed, n)):
            if i:
                f.write("---\n")
            try:
                result = mjscore.score(t, explain=False)
            except mjscore.MjError:
                f.write(print_table(t))
                continue
            winner = next(p for p in result.players if p.winner)
            claim = winner.score
            if i % 3 == 2:
                claim = winner.score // 2 if winner.doubles else winner.score + 10
            lines = print_table(t).splitlines()
            lines = [ln + f" = {claim}" if ln.startswith(f"{winner.seat.value}:") else ln for ln in lines]
            if bad and i % bad == bad - 1:
                lines[-1] += " 12x"
            f.write("\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    ap.add_argument("--bad", type=int, default=0, help="make every Nth table unreadable (0: none)")
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        print("check: python -m mjscore check FILE > /dev/null"
              + (f" (every {args.bad}th table unreadable)" if args.bad else ""))
        peaks = {}
        for n in args.sizes:
            path = Path(tmp) / f"claims-{n}.mj"
            write_claims(path, n, seed=n, bad=args.bad)
            seconds, peak, status, cpu = run([py, "-m", "mjscore", "check", str(path)])
            peaks[n] = peak
            print(f"  {n:7,d} tables: {cpu:6.1f} CPU-s ({seconds:.1f} s wall); peak memory {peak / 1024:6.1f} MiB; "
                  f"exit status {status}")
        if len(peaks) > 1:
            small, big = min(peaks), max(peaks)
            print(f"  peak memory {big:,} tables / {small:,} tables = {peaks[big] / peaks[small]:.2f}x")


if __name__ == "__main__":
    main()
