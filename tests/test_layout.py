"""The package's layout: the pipeline's layers, every import pointing down, nothing left out of
the wheel."""

import ast
import tomllib
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_imports_keep_the_layers_contract(monkeypatch):
    """A circle, or a lower layer importing a higher one, breaks the contract in pyproject.toml."""
    monkeypatch.chdir(ROOT)
    assert lint_imports(no_cache=True, no_logo=True) == 0


def test_the_contract_names_every_module_of_the_package():
    contract = PYPROJECT["tool"]["importlinter"]["contracts"][0]
    named = {m.strip() for layer in contract["layers"] for m in layer.split("|")}
    top = {f"mjscore.{p.stem}" for p in (ROOT / "mjscore").iterdir()
           if (p.suffix == ".py" and p.stem not in ("__init__", "__main__")) or (p / "__init__.py").exists()}
    assert top == named


def test_every_subpackage_is_built_into_the_wheel():
    packages = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {"mjscore"} | {f"mjscore.{p.name}" for p in (ROOT / "mjscore").iterdir() if (p / "__init__.py").exists()}
    # The data folders installed as packages: the schemes (and their payoff tables), the docs, the samples.
    assert packages == found | {"mjscore.schemes", "mjscore.schemes.settlement", "mjscore.docs", "mjscore.sample_hands"}


def test_library_modules_import_our_own_modules_at_the_top():
    """Deferred imports hide the import graph; only the command line defers, and the API what a
    one-hand `score` does not need (both for start-up: issue 40; import-linter still reads them)."""
    hidden = []
    for path in (ROOT / "mjscore").rglob("*.py"):
        if path.parts[-2] == "cli" or path.name == "__init__.py" or path == ROOT / "mjscore" / "api.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom) and (inner.module or "").startswith("mjscore"):
                        hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert hidden == []


def test_no_module_imports_one_that_imports_it():
    """No circle of imports, not even through an import for type checkers only (which the layers'
    contract does not read): a type two modules share lives in a module below both."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
               for p in (ROOT / "mjscore").rglob("*.py")}
    imports: dict[str, set[str]] = {m: set() for m in modules}
    for m, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mjscore"):
                # `from mjscore.cli import output` imports the module mjscore.cli.output
                names = {f"{node.module}.{a.name}" for a in node.names} & modules.keys()
                imports[m] |= names or {node.module}
            elif isinstance(node, ast.Import):
                imports[m] |= {a.name for a in node.names} & modules.keys()
    circles = []
    for start in modules:
        seen, todo = set(), [(start, (start,))]
        while todo:
            here, path = todo.pop()
            for there in imports[here] - {here}:
                if there == start:
                    circles.append(" -> ".join((*path, start)))
                elif there not in seen and there in modules:
                    seen.add(there)
                    todo.append((there, (*path, there)))
    assert circles == []


def test_the_shells_may_import_only_the_api_the_model_and_the_version():
    """Every library module but the API, the model and the version is forbidden to the shells, so a
    module added to the library is forbidden to them too."""
    [contract] = [c for c in PYPROJECT["tool"]["importlinter"]["contracts"] if c["type"] == "forbidden"]
    shells = {"mjscore.cli", "mjscore.web"}
    allowed = {"mjscore.api", "mjscore.model", "mjscore.version"}
    top = {f"mjscore.{p.stem}" for p in (ROOT / "mjscore").iterdir()
           if (p.suffix == ".py" and p.stem not in ("__init__", "__main__")) or (p / "__init__.py").exists()}
    assert set(contract["source_modules"]) == shells & top
    assert set(contract["forbidden_modules"]) == top - shells - allowed


def test_types_check(monkeypatch, tmp_path):
    """mypy with the project's configuration, which is `strict` on the whole package with no
    per-module list: a type error anywhere fails the suite."""
    from mypy import api

    config = PYPROJECT["tool"]["mypy"]
    assert config["strict"] is True
    assert all(set(o) == {"module", "ignore_missing_imports"} for o in config.get("overrides", [])), \
        "an override may only say that a library ships no types"
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--cache-dir", str(tmp_path / "mypy")])
    assert status == 0, out + err


@pytest.mark.timeout(600)       # its first run fetches pyright's own copy of Node's package
def test_pyright_finds_nothing():
    """pyright, a second reader of the same annotations, finds no error in the package."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "--outputjson"],
                         cwd=ROOT, capture_output=True, text=True, timeout=540)
    import json

    report = json.loads(run.stdout)
    errors = [f"{d['file']}:{d['range']['start']['line'] + 1}: {d['message']}"
              for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert report["summary"]["filesAnalyzed"] > 50
    assert errors == []


def test_ruff_finds_nothing():
    """ruff with the project's rule set (pyproject.toml: E, F, B, UP, SIM, and C90 on the package:
    no function with more than 15 branches) on the package, its tests, benchmarks and tools."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                          "mjscore", "tests", "benchmarks", "tools"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    lint = PYPROJECT["tool"]["ruff"]["lint"]
    assert {"E", "F", "B", "UP", "SIM", "C90"} <= set(lint["select"])
    assert lint["mccabe"]["max-complexity"] <= 15
    assert not any("C90" in ignored for path, ignored in lint["per-file-ignores"].items() if path.startswith("mjscore"))


def test_a_type_ignore_says_which_error_and_why():
    """No blanket ignores: each `# type: ignore` names its error code and gives a reason after it."""
    import re

    bare = []
    for path in (ROOT / "mjscore").rglob("*.py"):
        for n, line in enumerate(path.read_text().splitlines(), start=1):
            if "type: ignore" in line and not re.search(r"type: ignore\[[a-z-]+(, [a-z-]+)*\]\s+#\s*\S", line):
                bare.append(f"{path.relative_to(ROOT)}:{n}")
    assert bare == []
    config = PYPROJECT["tool"]["mypy"]
    assert "ignore_errors" not in config and "exclude" not in config
    assert all("ignore_errors" not in o for o in config.get("overrides", []))


def test_one_module_name_and_one_class_name_per_thing():
    """No two modules of the package share a name (no `shipped.py` in two folders, no `checkpoint`
    beside `checkpoints`), and no two classes do: a newcomer finds a thing by its name."""
    import difflib

    modules = [p for p in (ROOT / "mjscore").rglob("*.py") if p.name != "__init__.py" and p.name != "__main__.py"]
    stems = sorted(p.stem for p in modules)
    assert len(stems) == len(set(stems)), [s for s in stems if stems.count(s) > 1]
    near = [(a, b) for i, a in enumerate(stems) for b in stems[i + 1:]
            if a.rstrip("s") == b.rstrip("s") or difflib.SequenceMatcher(None, a, b).ratio() > 0.9]
    assert near == []
    classes: dict[str, list[str]] = {}
    for p in modules:
        for node in ast.parse(p.read_text()).body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(str(p.relative_to(ROOT)))
    assert {name: where for name, where in classes.items() if len(where) > 1} == {}
