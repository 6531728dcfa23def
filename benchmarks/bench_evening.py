"""An evening as it grows: what `add`, `undo` and `session` cost at 10 hands and at 5,000.

    python benchmarks/bench_evening.py [--sizes 10 500 1000 5000] [--runs 5] [--python PY ...]
                                       [--instructions]

Each evening is a file of that many realistic hands (`generate.py`'s tables, seed 7, their
`round` lines left out: the evening keeps the round), written straight to disk. Then, as a
player meets them, each a fresh process of `python -m mjscore` (each `--python` an environment
with mjscore installed, so an older version can be measured beside this one):

- `session` the first time (no checkpoint yet: every hand scored, and remembered), then again;
- `add` of one more hand, then `undo` of it, `--runs` times over.

Figures are CPU time (user + system, from the kernel's account of the child; medians), never the
wall clock; with `--instructions`, one `add` and one `session` (from the checkpoint) at each
size are counted by callgrind as well (`PYTHONHASHSEED=0`: the same count each time). The
checkpoint's size per hand is reported too. The cache is a fresh folder of the benchmark's own.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import tables as generated  # noqa: E402

from mjscore.io.notation import print_table  # noqa: E402

HAND = "E: score 10 win self; S: ...; W: ...; N: ..."


def evening_text(hands: int) -> str:
    tables = generated(7, hands)
    body = []
    for t in tables:
        text = print_table(t)
        body.append("\n".join(line for line in text.splitlines() if not line.startswith("round ")))
    return "players Ann Bob Cid Dee\n---\n" + "\n---\n".join(body) + "\n"


def cpu(cmd: list[str], env: dict[str, str], cwd: Path) -> float:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{err}")
    return usage.ru_utime + usage.ru_stime


def instructions(cmd: list[str], env: dict[str, str], cwd: Path) -> int:
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cwd / 'cg.out'}", *cmd],
                       env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or found is None:
        raise SystemExit(f"callgrind could not count {' '.join(cmd)}:\n{r.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 500, 1000, 5000])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--python", nargs="*", default=[sys.executable])
    ap.add_argument("--instructions", action="store_true", help="also count one add at each size (callgrind)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"CPU ms (medians of {args.runs} runs; session: first, then again)")
        print(f"{'python':40} {'hands':>6} {'session 1st':>12} {'session':>9} {'add':>8} {'undo':>8}"
              f"{'M instr: add  session':>22} {'checkpoint/hand':>16}")
        texts = {n: evening_text(n) for n in args.sizes}
        for py in args.python:
            for n in args.sizes:
                cache = folder / f"cache-{abs(hash((py, n)))}"
                cache.mkdir(mode=0o700)
                env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
                env.update(MJSCORE_CACHE_DIR=str(cache), PYTHONHASHSEED="0")
                path = folder / "evening.mj"
                path.write_text(texts[n])
                run = [py, "-m", "mjscore"]
                first = cpu([*run, "session", str(path)], env, folder)
                again = statistics.median(cpu([*run, "session", str(path)], env, folder) for _ in range(args.runs))
                adds, undos = [], []
                for _ in range(args.runs):
                    adds.append(cpu([*run, "add", str(path), "-e", HAND], env, folder))
                    undos.append(cpu([*run, "undo", str(path)], env, folder))
                counted = ""
                if args.instructions:
                    add_count = instructions([*run, 'add', str(path), '-e', HAND], env, folder)
                    cpu([*run, "undo", str(path)], env, folder)
                    session_count = instructions([*run, "session", str(path)], env, folder)
                    counted = f"{add_count / 1e6:>8.0f} {session_count / 1e6:>8.0f}"
                kept = sum(f.stat().st_size for f in (cache / "evenings").glob("*.jsonl")) \
                    if (cache / "evenings").is_dir() else 0
                print(f"{py[-40:]:40} {n:>6} {first * 1000:>12.0f} {again * 1000:>9.0f} "
                      f"{statistics.median(adds) * 1000:>8.0f} {statistics.median(undos) * 1000:>8.0f}"
                      f"{counted:>22} {kept / n / 1024:>13.1f} KB", flush=True)


if __name__ == "__main__":
    main()
