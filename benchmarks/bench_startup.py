"""Start-up: what a short command costs as a whole process, in instructions and in CPU time.

    python benchmarks/bench_startup.py [--runs 20] [--python PY ...] [--no-instructions]

Each `--python` is the interpreter of an environment with mjscore installed (a wheel, `pip
install .`, pipx's venv or an editable install; default: this one), so two versions can be
measured side by side: `python -m venv /tmp/old && /tmp/old/bin/pip install mjscore==0.2.0`,
then `--python /tmp/old/bin/python .venv/bin/python`. The commands run in a folder of their
own, outside any checkout, on copies of the sample hands, so the installed package is what is
measured, never the source tree.

Instructions are counted by valgrind's callgrind (one run per command, `PYTHONHASHSEED=0`:
the same count every time, whoever else uses the machine). CPU time is user + system from the
kernel's account of each child, the medians of `--runs` runs made alternately so that every
interpreter sees the same machine; never the wall clock. Both after one warm-up run, so the
bytecode and the scheme cache are written, as on a player's machine (set
MJSCORE_CACHE_DIR="" beforehand to measure without the scheme cache). A Typer hello-world is
measured beside, with each interpreter's Typer.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_hands"

HELLO = '''import typer

app = typer.Typer()


@app.command()
def main(name: str = "world") -> None:
    print(f"Hello {name}")


if __name__ == "__main__":
    app()
'''

# name: the arguments after `python -m mjscore` (None: the hello-world); `evening.mj` is a fresh
# copy of the 20-hand sample evening before each run.
COMMANDS: dict[str, list[str] | None] = {
    "hello-world": None,
    "score (one hand)": ["score", "win-on-discard.mj"],
    "score --format json": ["score", "win-on-discard.mj", "--format", "json"],
    "--help": ["--help"],
    "score --help": ["score", "--help"],
    "session (20 hands)": ["session", "evening.mj"],
    "add (21st hand)": ["add", "evening.mj", "-e", "E: score 10 win self; S: ...; W: ...; N: ..."],
    "undo": ["undo", "evening.mj"],
    "batch (one table)": ["batch", "win-on-discard.mj"],
    "check (one table)": ["check", "win-on-discard.mj"],
    "schemes": ["schemes"],
    # The same commands in German (issue 41: the catalogue is read, every sentence looked up);
    # mjscore 0.x before --lang: leave them out with --only.
    "score (one hand), de": ["--lang", "de", "score", "win-on-discard.mj"],
    "session (20 hands), de": ["--lang", "de", "session", "evening.mj"],
    "--help, de": ["--lang", "de", "--help"],
}


def command(python: str, args: list[str] | None, folder: Path) -> list[str]:
    if args is None:
        return [python, str(folder / "hello.py"), "--name", "table"]
    return [python, "-m", "mjscore", *args]


def fresh(folder: Path) -> None:
    shutil.copyfile(SAMPLES / "evening-session.mj", folder / "evening.mj")


def environment(cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env.setdefault("MJSCORE_CACHE_DIR", str(cache))      # each interpreter its own: they must not evict each other
    env["PYTHONHASHSEED"] = "0"
    return env


def cpu_seconds(cmd: list[str], folder: Path, env: dict[str, str]) -> float:
    """User + system CPU seconds of one child process."""
    fresh(folder)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=folder)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed in {folder}")
    return usage.ru_utime + usage.ru_stime


def instructions(cmd: list[str], folder: Path, env: dict[str, str]) -> int:
    """The instructions callgrind counts for one run of the command."""
    fresh(folder)
    out = folder / "callgrind.out"
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd], cwd=folder, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or found is None:
        raise SystemExit(f"callgrind could not count {' '.join(cmd)}:\n{r.stderr[-2000:]}")
    out.unlink(missing_ok=True)
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="CPU-time runs per command and interpreter")
    ap.add_argument("--python", nargs="*", default=[sys.executable], help="interpreters with mjscore installed")
    ap.add_argument("--no-instructions", action="store_true", help="CPU time only (no valgrind)")
    ap.add_argument("--only", nargs="*", help="these commands only (their names as printed), and the hello-world")
    args = ap.parse_args()
    if args.only:
        for name in [n for n in COMMANDS if n != "hello-world" and n not in args.only]:
            del COMMANDS[name]
    count = not args.no_instructions and shutil.which("valgrind") is not None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "hello.py").write_text(HELLO)
        shutil.copyfile(SAMPLES / "win-on-discard.mj", folder / "win-on-discard.mj")
        envs = {py: environment(folder / f"cache-{n}") for n, py in enumerate(args.python)}
        for py in args.python:                         # bytecode and scheme caches written
            for cmd_args in COMMANDS.values():
                cpu_seconds(command(py, cmd_args, folder), folder, envs[py])
        counted = {(name, py): instructions(command(py, a, folder), folder, envs[py])
                   for name, a in COMMANDS.items() for py in args.python} if count else {}
        times: dict[tuple[str, str], list[float]] = {(name, py): [] for name in COMMANDS for py in args.python}
        for _ in range(args.runs):
            for name, cmd_args in COMMANDS.items():
                for py in args.python:
                    times[name, py].append(cpu_seconds(command(py, cmd_args, folder), folder, envs[py]))
    print(f"Instructions (callgrind, one run) and CPU time (median of {args.runs} alternating runs):")
    for py in args.python:
        print(f"\n{py}")
        hello = statistics.median(times["hello-world", py])
        for name in COMMANDS:
            cpu = statistics.median(times[name, py])
            ins = f"{counted[name, py] / 1e6:8.0f} M" if counted else ""
            print(f"  {name:22} {ins}  {cpu * 1000:7.1f} ms CPU  ({cpu / hello:.2f}x hello-world)")
    if not count:
        print("\n(no instruction counts: valgrind is not installed, or --no-instructions)")


if __name__ == "__main__":
    main()
