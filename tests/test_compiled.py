"""The optional compiled core (setup.py, `MJSCORE_COMPILE=1`): the same package, whichever of
its builds is imported.  CI runs the whole suite twice, on the pure build and on the compiled one
built in place (.ci/run), which sets MJSCORE_EXPECT_COMPILED=1 so that a build that silently
fell back to the `.py` files fails here.  What travels between processes (`batch --jobs`) is
checked on both, and a worker that dies ends the batch with an error, not a wait."""

import importlib
import importlib.machinery
import os
import pickle
import runpy
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from mjscore.evening import batch
from mjscore.io.reader import parse_any
from mjscore.model.money import Stake
from mjscore.model.tiles import TILES
from mjscore.pipeline import evaluate

ROOT = Path(__file__).resolve().parent.parent
HAND = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."


def compiled_modules() -> list[str]:
    modules = runpy.run_path(str(ROOT / "setup.py"), run_name="mjscore_setup")["MODULES"]
    return [m.removesuffix(".py").replace("/", ".") for m in modules]


def is_extension(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@pytest.mark.skipif(os.environ.get("MJSCORE_EXPECT_COMPILED") != "1",
                    reason="the compiled build's run only (MJSCORE_EXPECT_COMPILED=1)")
def test_the_hot_modules_are_the_compiled_ones():
    assert [m for m in compiled_modules() if not is_extension(m)] == []
    assert is_extension("mjscore.core__mypyc")        # the group's shared library, inside the package


@pytest.mark.skipif(os.environ.get("MJSCORE_EXPECT_COMPILED") == "1", reason="the pure build's run only")
def test_the_pure_run_imports_no_compiled_module():
    assert [m for m in compiled_modules() if is_extension(m)] == []


def test_what_stays_pure_is_never_compiled():
    assert not set(compiled_modules()) & {"mjscore.rules.situation", "mjscore.model.settings", "mjscore.evening.batch"}


def test_a_tile_unpickles_as_the_tile_itself():
    assert all(pickle.loads(pickle.dumps(t)) is t for t in TILES)


def test_a_stake_travels_between_processes():
    stake = Stake.read("0.05 EUR")
    assert pickle.loads(pickle.dumps(stake)) == stake


def test_a_table_and_its_result_travel_between_processes():
    table = parse_any(HAND.replace("; ", "\n"))[0]
    again = pickle.loads(pickle.dumps(table))
    assert again == table
    assert evaluate(again, "dmjl").to_dict() == evaluate(table, "dmjl").to_dict()


def _die(chunk, request, encode=None):
    os._exit(3)          # a worker killed while it holds a chunk


@pytest.mark.timeout(120)
def test_a_worker_that_dies_ends_the_batch_with_an_error(monkeypatch):
    if batch.start_method(__import__("multiprocessing").get_all_start_methods(), sys.platform) != "fork":
        pytest.skip("the dying worker is put in place by forking this process")
    monkeypatch.setattr(batch, "_score_chunk", _die)
    rows = [(n, "f", 1, batch.Played(None, {})) for n in range(batch.CHUNK * 2)]  # type: ignore[arg-type]
    with pytest.raises(batch.WorkerLost, match="exit code 3"):
        list(batch._score_in_workers(rows, (None, {}, False), 2))


@pytest.mark.skipif(os.environ.get("MJSCORE_TEST_COMPILED_WHEEL") != "1",
                    reason="builds the compiled wheel (minutes): MJSCORE_TEST_COMPILED_WHEEL=1")
@pytest.mark.timeout(1200)
def test_the_compiled_wheel_installs_and_writes_what_the_pure_build_writes(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True, cwd=tmp_path, env=dict(os.environ, MJSCORE_COMPILE="1"), timeout=1100)
    [wheel] = wheels.glob("mjscore-*.whl")
    assert "-py3-none-any" not in wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for module in compiled_modules():
        path = module.replace(".", "/")
        assert f"{path}.py" in names and any(n.startswith(f"{path}.") and n.endswith(".so") for n in names)
    assert any(n.startswith("mjscore/core__mypyc.") for n in names)
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, cwd=tmp_path, timeout=600)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = subprocess.run([str(python), "-c", "import mjscore.hand.shapes as m; print(m.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True, timeout=60).stdout
    assert where.strip().endswith(".so")
    sample = ROOT / "sample_hands" / "evening.mj"
    args = ["-m", "mjscore", "batch", str(sample), "--format", "json"]
    compiled = subprocess.run([str(python), *args], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    pure = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, timeout=120)
    assert compiled.returncode == pure.returncode == 0 and compiled.stdout == pure.stdout
