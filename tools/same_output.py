"""Do two builds of mjscore write the same bytes?  What a speed change (or the compiled build)
must keep: every line of `batch`, and every message.

    python tools/same_output.py OLD NEW [--tables 1500] [--mutants 6000] [--yaml 1500]

OLD and NEW are each a Python interpreter with mjscore installed (a virtual environment's
`bin/python`), or a source tree (a folder holding `mjscore/`), run with this interpreter and that
tree first on its path.  Both run the same commands on the same files, in a temporary folder
with a scheme cache of their own:

- `batch --jobs 1` of the benchmark's generated tables (`benchmarks/generate.py`, seed 7) under
  each of the nine shipped schemes, `--format json` and `--format csv`;
- `batch --jobs 1 --format json` of mutated compact tables (a word dropped, doubled or changed,
  a character taken out or put in, two words swapped: mostly tables that cannot be read or
  cannot have happened), and of mutated YAML tables; each of these is also scored alone
  (`score FILE`), a few hundred of them, so that its message, exit status and standard error
  are compared as a user meets them.

Standard output, standard error and the exit status must be equal for every command; the first
difference is shown, and the exit status is 1.  It runs on demand, never in CI: about two
minutes for the defaults on two cores.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import random_table  # noqa: E402

from mjscore.io.notation import player_text, print_table  # noqa: E402
from mjscore.rules.scheme import shipped_schemes  # noqa: E402

WORDS = ["win", "self", "from", "E", "S", "W", "N", "[", "]", "(", ")", "{", "}", "<", ">", "...", "=", "score",
         "discarded", "loose", "last", "robbed", "5m", "5p", "5s", "55555m", "[123m]", "[12m]", "(555p)", "1f",
         "1f1f", "9y", "0m", "10m", "round", "draw", "dealer-wins", "E:", "x", "liable", "penalty", "🀄", "Rd"]


def _mutant(text: str, rng: random.Random) -> str:
    """One random slip of the pen in a table's text."""
    lines = text.splitlines()
    k = rng.randrange(len(lines))
    words = lines[k].split(" ")
    how = rng.randrange(6)
    j = rng.randrange(len(words))
    if how == 0 and len(words) > 1:
        del words[j]
    elif how == 1:
        words.insert(j, words[j])
    elif how == 2:
        words[j] = rng.choice(WORDS)
    elif how == 3 and words[j]:
        c = rng.randrange(len(words[j]))
        words[j] = words[j][:c] + words[j][c + 1:]
    elif how == 4:
        c = rng.randrange(len(words[j]) + 1)
        words[j] = words[j][:c] + rng.choice("123456789mpsz[](){}<>EWNSCFP:;#= ") + words[j][c:]
    elif len(words) > 2:
        a, b = rng.sample(range(len(words)), 2)
        words[a], words[b] = words[b], words[a]
    lines[k] = " ".join(words)
    return "\n".join(lines) + "\n"


def _yaml(table: object, rng: random.Random) -> str:
    """A table as the YAML form writes it, each player a string (a mutated word among them)."""
    players = table.players  # type: ignore[attr-defined]
    rows = [f"round: {table.round.value}", "players:"]  # type: ignore[attr-defined]
    for p in players:
        body = player_text(p)
        if rng.random() < 0.5:
            body = _mutant(body, rng).strip()
        rows.append(f"  {p.seat.value}: '{body.replace(chr(39), chr(39) * 2)}'")
    return "\n".join(rows) + "\n"


def _command(build: str) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    if Path(build, "mjscore").is_dir():
        env["PYTHONPATH"] = str(Path(build).resolve())
        return [sys.executable, "-m", "mjscore"], env
    return [build, "-m", "mjscore"], env


def _run(build: str, args: list[str], cache: Path, cwd: Path) -> tuple[int, bytes, bytes]:
    cmd, env = _command(build)
    env["XDG_CACHE_HOME"] = str(cache)
    done = subprocess.run(cmd + args, env=env, cwd=cwd, capture_output=True, timeout=1800)
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tables", type=int, default=1500)
    ap.add_argument("--mutants", type=int, default=6000)
    ap.add_argument("--yaml", type=int, default=1500)
    ap.add_argument("--alone", type=int, default=300, help="mutated files scored one by one with `score`")
    a = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tables = [random_table(rng) for _ in range(a.tables)]
        (work / "tables.mj").write_text("---\n".join(print_table(t) for t in tables), encoding="utf-8")
        texts = [print_table(random_table(rng)) for _ in range(a.mutants)]
        (work / "mutants.mj").write_text("---\n".join(_mutant(t, rng) for t in texts), encoding="utf-8")
        yamls = [_yaml(random_table(rng), rng) for _ in range(a.yaml)]
        (work / "mutants.yaml").write_text("\n".join("---\n" + y for y in yamls), encoding="utf-8")
        alone = []
        for n in range(a.alone):
            path = work / (f"alone{n}.mj" if n % 2 else f"alone{n}.yaml")
            path.write_text(_mutant(texts[n], rng) if n % 2 else yamls[n], encoding="utf-8")
            alone.append(path.name)
        runs: list[list[str]] = []
        for scheme in shipped_schemes():
            for fmt in ("json", "csv"):
                runs.append(["batch", "tables.mj", "--jobs", "1", "--format", fmt, "--scheme", scheme])
        runs.append(["batch", "mutants.mj", "--jobs", "1", "--format", "json"])
        runs.append(["batch", "mutants.mj", "--jobs", "1", "--format", "json", "--scheme", "bmja"])
        runs.append(["batch", "mutants.yaml", "--jobs", "1", "--format", "json"])
        runs += [["score", name] for name in alone]
        runs += [["score", name, "--format", "json"] for name in alone[:50]]
        caches = {b: work / f"cache{n}" for n, b in enumerate((a.old, a.new))}
        errors = lines = 0
        for args in runs:
            old, new = (_run(b, args, caches[b], work) for b in (a.old, a.new))
            lines += old[1].count(b"\n")
            errors += old[0] != 0
            if old != new:
                print(f"differ: mjscore {' '.join(args)}")
                for what, x, y in zip(("exit status", "standard output", "standard error"), old, new, strict=True):
                    if x != y:
                        print(f"  {what}: {str(x)[:300]}\n   against {str(y)[:300]}")
                return 1
        print(f"same: {len(runs)} commands ({len(alone)} files scored alone, {errors} of the runs exit 1), "
              f"{lines:,} lines of output compared byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
