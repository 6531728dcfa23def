"""A club's season: what `mjscore season FOLDER` costs over 100 and 1,000 evenings of 20 hands.

    python benchmarks/bench_season.py [--sizes 100 1000] [--hands 20] [--runs 3] [--python PY ...]

Each evening is a file of `--hands` realistic hands (`generate.py`'s tables, seed 7, their
`round` lines left out: the evening keeps the round), its four players drawn from a club of
eight and now and then written in lower case (the season matches them by name), all in one
folder, named in date order. Then, each as a fresh process of `python -m mjscore season FOLDER
--format json > /dev/null`:

- the first season (no checkpoint yet: every hand of every evening scored, and remembered);
- the season again, `--runs` times (every evening read back from its checkpoint).

Figures are CPU time (user + system, from the kernel's account of the child; the second run's
a median), never the wall clock, and the child's peak resident memory (`ru_maxrss`), which
stays flat as the season grows: each evening is counted into running figures and let go. The
cache is a fresh folder of the benchmark's own for each size.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import tables as generated  # noqa: E402

from mjscore.io.notation import print_table  # noqa: E402

CLUB = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def write_season(folder: Path, evenings: int, hands: int) -> None:
    rng = random.Random(30)
    deal = generated(7, evenings * hands)
    for k in range(evenings):
        names = [n.lower() if rng.random() < 0.1 else n for n in rng.sample(CLUB, 4)]
        body = []
        for _ in range(hands):
            text = print_table(next(deal))
            body.append("\n".join(line for line in text.splitlines() if not line.startswith("round ")))
        (folder / f"evening-{k + 1:04}.mj").write_text(f"players {' '.join(names)}\n---\n" + "\n---\n".join(body)
                                                        + "\n")


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    """(CPU seconds, peak resident KiB) of one child process."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", nargs="*", default=[sys.executable])
    args = ap.parse_args()
    print(f"CPU seconds (the second run: median of {args.runs}), peak resident memory in MiB")
    print(f"{'python':40} {'evenings':>8} {'hands':>7} {'1st CPU s':>10} {'1st MiB':>8} {'again CPU s':>12} "
          f"{'again MiB':>10} {'again/1st':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for n in args.sizes:
            folder = base / f"season-{n}"
            folder.mkdir()
            write_season(folder, n, args.hands)
            for py in args.python:
                cache = base / f"cache-{n}-{abs(hash(py))}"
                cache.mkdir(mode=0o700)
                env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
                env.update(MJSCORE_CACHE_DIR=str(cache), PYTHONHASHSEED="0")
                cmd = [py, "-m", "mjscore", "season", str(folder), "--format", "json"]
                first, first_kib = run(cmd, env)
                again = [run(cmd, env) for _ in range(args.runs)]
                cpu = statistics.median(a[0] for a in again)
                kib = max(a[1] for a in again)
                print(f"{py[-40:]:40} {n:>8} {n * args.hands:>7} {first:>10.2f} {first_kib / 1024:>8.1f} "
                      f"{cpu:>12.2f} {kib / 1024:>10.1f} {cpu / first:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
