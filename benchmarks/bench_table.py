"""At the table: how long a player waits for the answer, and how wide the answer is.

    python benchmarks/bench_table.py [--runs 20]

1. `mjscore add` of one hand to an evening that grows to `--runs` hands (each add plays the whole
   evening again before writing): CPU time of each process (user + system), median and slowest.
2. `mjscore session` of the 20-hand sample: CPU time, median of `--runs`.
3. The widest line `score` (every sample table) and `session` print at COLUMNS=60.

CPU time, not the wall clock: on a shared machine the wall clock measures the neighbours too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_startup import cpu_seconds  # noqa: E402  (one way of timing a child, for every benchmark)
HANDS = ["E: score 40 win self; S: score 8; W: ...; N: ...",
         "S: [111p] 222s 333m EEE 99s win 9s from E; E: score 12; W: ...; N: score 30",
         "draw"]


def cpu(cmd: list[str], cwd: Path, env: dict) -> float:
    return cpu_seconds(cmd, cwd, Path(env["PYTHONPATH"]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    py = [sys.executable, "-m", "mjscore"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cpu(py + ["score", str(ROOT / "sample_hands/win-on-discard.mj")], tmp, env)     # caches warm
        adds = []
        for n in range(args.runs):
            extra = ["--players", "Ann", "Bob", "Cid", "Dee"] if n == 0 else []
            adds.append(cpu(py + ["add", "evening.mj", *extra, "-e", HANDS[n % len(HANDS)]], tmp, env))
        session = [cpu(py + ["session", str(ROOT / "sample_hands/evening-session.mj")], tmp, env)
                   for _ in range(args.runs)]
    print(f"add, one hand to an evening of 1..{args.runs} hands: median {statistics.median(adds) * 1000:.0f} ms "
          f"of CPU, slowest {max(adds) * 1000:.0f} ms")
    print(f"session, the 20-hand sample: median {statistics.median(session) * 1000:.0f} ms of CPU")
    widest = 0
    env60 = dict(env, COLUMNS="60")
    commands = [py + ["score", str(p)] for p in sorted((ROOT / "sample_hands").glob("*.mj")) if "session" not in p.name]
    commands += [py + ["session", str(ROOT / "sample_hands/evening-session.mj")],
                 py + ["session", str(ROOT / "sample_hands/evening-session.mj"), "--hand", "3"]]
    for cmd in commands:
        out = subprocess.run(cmd, env=env60, capture_output=True, text=True).stdout
        widest = max([widest, *map(len, out.splitlines())])
    print(f"widest line of score (every sample) and session at COLUMNS=60: {widest} characters")


if __name__ == "__main__":
    main()
