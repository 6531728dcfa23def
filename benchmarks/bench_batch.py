"""End to end: batch throughput and peak memory, and the start-up time a player at the table feels.

    python benchmarks/bench_batch.py [--sizes 10000 100000] [--runs 15]

1. Generates tables with the seeded generator (generate.py) into temporary files, then runs
   `python -m mjscore batch FILE --format json --jobs 1` over each as a separate process (parse,
   score, settle, write JSON on one core), reading the process's CPU time (user + system, from
   the kernel's account of the child: the wall clock on a shared machine also measures the
   neighbours) and its peak resident memory.
2. Times a one-hand `mjscore score` against a minimal Typer hello-world app, both as fresh
   processes, `--runs` times each, alternately; reports the median CPU times and their ratio.

Python's bytecode cache is allowed for the child processes (PYTHONDONTWRITEBYTECODE is removed
from their environment) and each command runs once before timing, as on a player's machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from bench_startup import HELLO  # noqa: E402  (the same hello-world as the start-up benchmark)


def child_env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run(cmd: list[str], stdout=subprocess.DEVNULL) -> tuple[float, int, int, float]:
    """Wall seconds, peak resident memory (KiB), exit status and CPU seconds (user + system)
    of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.DEVNULL, env=child_env(), cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    return (time.perf_counter() - t0, usage.ru_maxrss, os.waitstatus_to_exitcode(status),
            usage.ru_utime + usage.ru_stime)


def write_tables(path: Path, n: int, seed: int) -> None:
    from generate import tables

    from mjscore.io.notation import print_table

    with path.open("w", encoding="utf-8") as f:
        for i, t in enumerate(tables(seed, n)):
            if i:
                f.write("---\n")
            f.write(print_table(t))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        print("batch: python -m mjscore batch FILE --format json --jobs 1 > /dev/null (one core; CPU time)")
        peaks = {}
        for n in args.sizes:
            path = tmp / f"tables-{n}.mj"
            write_tables(path, n, seed=n)
            seconds, peak, status, cpu = run([py, "-m", "mjscore", "batch", str(path), "--format", "json",
                                              "--jobs", "1"])
            peaks[n] = peak
            print(f"  {n:7,d} tables ({4 * n:,} player-hands): {cpu:6.1f} CPU-s = "
                  f"{4 * n / cpu:6,.0f} player-hands per CPU-second ({seconds:.1f} s wall); "
                  f"peak memory {peak / 1024:6.1f} MiB"
                  f"{'' if status in (0, 1) else f'  (exit status {status})'}")
        if len(peaks) > 1:
            small, big = min(peaks), max(peaks)
            print(f"  peak memory {big:,} tables / {small:,} tables = {peaks[big] / peaks[small]:.2f}x")

        hello = tmp / "hello.py"
        hello.write_text(HELLO)
        score = [py, "-m", "mjscore", "score", "sample_hands/win-on-discard.mj"]
        bare = [py, str(hello), "--name", "table"]
        run(score), run(bare)                                   # bytecode caches written
        times = {"score": [], "hello": []}
        for _ in range(args.runs):                              # interleaved: same machine state
            times["score"].append(run(score)[3])
            times["hello"].append(run(bare)[3])
        s, h = statistics.median(times["score"]), statistics.median(times["hello"])
        print(f"start-up: one-hand `mjscore score` {s * 1000:.0f} ms, Typer hello-world {h * 1000:.0f} ms "
              f"of CPU time (medians of {args.runs}): {s / h:.2f}x")


if __name__ == "__main__":
    main()
