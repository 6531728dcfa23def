"""Mutation testing of the modules that decide money: does the test suite notice a changed line?

    python tools/mutate.py [--sample 105] [--seed 1] [--jobs 2] [--module mjscore/settle.py ...]

Each mutant changes one thing in one module — a comparison (< for <=, == for !=, in for not
in), an arithmetic operator, a whole-number constant (n for n + 1), a boolean constant, and/or,
a `not`, or a returned value (None instead) — in a copy of the checkout, then runs the tests
that cover these modules with -x; a failing run kills the mutant. The report gives the share
killed, and lists the survivors with their line and change: each is either a gap in the tests
or an equivalent mutant (one that changes nothing a caller could see). Survivors found to be
equivalent go into tools/equivalent-mutants.txt (one `module:line:change` a line, with why), and
are left out of the share. It runs on demand, never in CI: a sample of 105 takes a few minutes
on two cores.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["mjscore/settle.py", "mjscore/scoring/score.py", "mjscore/rules/conditions.py",
           "mjscore/evening/session.py"]
TESTS = ["tests/test_settlement.py", "tests/test_scoring.py", "tests/test_session.py", "tests/test_schemes.py",
         "tests/test_conformance.py", "tests/test_rule_conditions.py", "tests/test_payment_details.py",
         "tests/test_api.py"]
EQUIVALENT = ROOT / "tools" / "equivalent-mutants.txt"

COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
           ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Div: ast.Mult,
         ast.Pow: ast.Mult, ast.Mod: ast.FloorDiv}


def mutation_points(tree: ast.AST) -> list[tuple[int, str]]:
    """(node number in walk order, description) for every place a mutant can be made."""
    points = []
    annotated = [node.annotation for node in ast.walk(tree)
                 if isinstance(node, (ast.arg, ast.AnnAssign)) and node.annotation is not None]
    annotations = {id(n) for a in annotated for n in ast.walk(a)}
    for i, node in enumerate(ast.walk(tree)):
        if id(node) in annotations:
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in COMPARE:
            points.append((i, f"{type(node.ops[0]).__name__} -> {COMPARE[type(node.ops[0])].__name__}"))
        elif isinstance(node, ast.BinOp) and type(node.op) in ARITH:
            points.append((i, f"{type(node.op).__name__} -> {ARITH[type(node.op)].__name__}"))
        elif isinstance(node, ast.BoolOp):
            points.append((i, "and <-> or"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            points.append((i, "drop not"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            points.append((i, f"{node.value} -> {not node.value}"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            points.append((i, f"{node.value} -> {node.value + 1}"))
        elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            points.append((i, "return None"))
    return points


def mutate(source: str, index: int) -> tuple[str, int]:
    """The module's source with the mutant at walk index `index`, and its line."""
    tree = ast.parse(source)
    node = list(ast.walk(tree))[index]
    if isinstance(node, ast.Compare):
        node.ops[0] = COMPARE[type(node.ops[0])]()
    elif isinstance(node, ast.BinOp):
        node.op = ARITH[type(node.op)]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp):
        node.op = ast.UAdd()          # `+x` keeps the operand's truth: the `not` is gone
        node.operand = ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        node.value = not node.value
    elif isinstance(node, ast.Constant):
        node.value += 1
    elif isinstance(node, ast.Return):
        node.value = ast.Constant(None)
    return ast.unparse(ast.fix_missing_locations(tree)), node.lineno


def run_mutant(work: Path, module: str, index: int) -> tuple[str, int, bool]:
    path = work / module
    original = path.read_text()          # the copy made at the start: the checkout may change meanwhile
    mutated, line = mutate(original, index)
    path.write_text(mutated)
    env = dict(os.environ, PYTHONPATH=str(work), MJSCORE_CACHE_DIR="", PYTHONDONTWRITEBYTECODE="1")
    try:
        r = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                            "--hypothesis-seed=0", *TESTS], cwd=work, env=env, capture_output=True, timeout=600)
        killed = r.returncode != 0
    except subprocess.TimeoutExpired:
        killed = True                 # a mutant that hangs the tests is noticed
    finally:
        path.write_text(original)
    return module, line, killed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int, default=105)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--module", nargs="*", default=MODULES)
    args = ap.parse_args()
    candidates = []
    for module in args.module:
        tree = ast.parse((ROOT / module).read_text())
        candidates += [(module, index, what) for index, what in mutation_points(tree)]
    rng = random.Random(args.seed)
    chosen = rng.sample(candidates, min(args.sample, len(candidates)))
    equivalent = set()
    if EQUIVALENT.exists():
        equivalent = {line.split("#")[0].strip() for line in EQUIVALENT.read_text().splitlines()
                      if line.split("#")[0].strip()}
    with tempfile.TemporaryDirectory() as tmp:
        works = []
        for n in range(args.jobs):
            work = Path(tmp) / f"w{n}"
            shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
            works.append(work)
        free = list(works)

        def job(item):
            module, index, what = item
            work = free.pop()
            try:
                return run_mutant(work, module, index) + (what,)
            finally:
                free.append(work)

        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(job, chosen))
    survivors = [(m, line, what) for m, line, killed, what in results if not killed]
    counted = [r for r in results if f"{r[0]}:{r[1]}:{r[3]}" not in equivalent]
    killed = sum(r[2] for r in counted)
    print(f"{len(results)} mutants of {len(candidates)} places in {', '.join(args.module)} (seed {args.seed})")
    print(f"killed {sum(r[2] for r in results)}; survived {len(survivors)}, "
          f"of which {len(results) - len(counted)} listed as equivalent")
    print(f"share of non-equivalent mutants killed: {killed}/{len(counted)} = {killed / max(len(counted), 1):.0%}")
    for m, line, what in sorted(survivors):
        mark = " (equivalent)" if f"{m}:{line}:{what}" in equivalent else ""
        print(f"  survived: {m}:{line}:{what}{mark}")


if __name__ == "__main__":
    main()
