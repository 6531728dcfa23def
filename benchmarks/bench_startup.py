"""Start-up: the CPU time of a one-hand `mjscore score`, against a Typer hello-world.

    python benchmarks/bench_startup.py [--runs 20] [--root CHECKOUT ...]

Each command runs as a fresh process; its CPU time (user + system, from the kernel's account
of the child) is what is compared, not the wall clock, which on a shared machine also measures
the neighbours. The commands run alternately, so both see the same machine state, and the
medians are reported with their ratio. `--root` may name other checkouts of mjscore (an older
commit, say) to measure side by side with the same hello-world. Python's bytecode cache is
allowed, and each command runs once before timing, as on a player's machine. The scheme cache
is used as a player would have it (set MJSCORE_CACHE_DIR="" beforehand to measure without it).
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

HELLO = '''import typer

app = typer.Typer()


@app.command()
def main(name: str = "world") -> None:
    print(f"Hello {name}")


if __name__ == "__main__":
    app()
'''


def cpu_seconds(cmd: list[str], cwd: Path, pythonpath: Path | None, cache: Path | None = None) -> float:
    """User + system CPU seconds of one child process."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    if cache is not None and "MJSCORE_CACHE_DIR" not in os.environ:
        env["MJSCORE_CACHE_DIR"] = str(cache)     # each checkout its own: they must not evict each other
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed in {cwd}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--root", type=Path, nargs="*", default=[ROOT])
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        hello = Path(tmp) / "hello.py"
        hello.write_text(HELLO)
        commands = {"hello-world": ([py, str(hello), "--name", "table"], Path(tmp), None, None)}
        for n, root in enumerate(args.root):
            commands[f"score ({root})"] = ([py, "-m", "mjscore", "score", "sample_hands/win-on-discard.mj"],
                                           root, root, Path(tmp) / f"cache-{n}")
        for cmd, cwd, path, cache in commands.values():            # bytecode and scheme caches written
            cpu_seconds(cmd, cwd, path, cache)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (cmd, cwd, path, cache) in commands.items():
                times[name].append(cpu_seconds(cmd, cwd, path, cache))
    hello_median = statistics.median(times["hello-world"])
    print(f"CPU time, medians of {args.runs} alternating runs:")
    for name, values in times.items():
        m = statistics.median(values)
        print(f"  {name}: {m * 1000:6.1f} ms  ({m / hello_median:.2f}x hello-world)")


if __name__ == "__main__":
    main()
