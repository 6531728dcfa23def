"""The package as a stranger installs it: a wheel built from this checkout, installed into a new
virtual environment, run from a folder outside the checkout.

An editable install hides what a wheel leaves out (the shipped schemes were once missing from
it), so this test never imports mjscore from the checkout: it only runs the installed program.
"""

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HAND = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."


def run(*args, cwd, env=None, check=True):
    r = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    if check and r.returncode != 0:
        raise AssertionError(f"{args} exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder, a working folder outside the checkout) of a fresh venv holding the wheel."""
    base = tmp_path_factory.mktemp("install")
    wheels = base / "wheels"
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, ROOT,
        cwd=base)
    [wheel] = wheels.glob("mjscore-*.whl")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    run(bin_dir / "python", "-m", "pip", "install", "-q", wheel, cwd=base)
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return bin_dir, elsewhere


def env_without_checkout():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env["MJSCORE_CACHE_DIR"] = ""          # nothing remembered from a run against the checkout
    return env


def test_the_wheel_holds_the_schemes_and_payoffs(installed):
    bin_dir, here = installed
    r = run(bin_dir / "python", "-c",
            "import importlib.resources as r, mjscore, pathlib; "
            "root = r.files('mjscore.schemes'); "
            "print(mjscore.__file__); print(sorted(p.name for p in root.iterdir() if p.name.endswith('.yaml'))); "
            "from mjscore.rules.shipped import scheme_dir; "
            "print((root / 'settlement' / 'payoffs.yaml').is_file(), (r.files('mjscore') / 'py.typed').is_file(), "
            "scheme_dir() == pathlib.Path(str(root)))",
            cwd=here, env=env_without_checkout())
    where, names, flags = r.stdout.splitlines()
    assert str(ROOT) not in where and "site-packages" in where
    shipped = sorted(p.name for p in (ROOT / "schemes").glob("*.yaml"))
    assert eval(names) == shipped and len(shipped) == 9
    assert flags == "True True True"          # mjscore finds the schemes where importlib.resources does


def test_every_shipped_scheme_scores_from_outside_the_checkout(installed):
    bin_dir, here = installed
    names = sorted(p.stem for p in (ROOT / "schemes").glob("*.yaml"))
    for name in names:
        r = run(bin_dir / "mjscore", "score", "-e", HAND, "--scheme", name, "--format", "json",
                cwd=here, env=env_without_checkout())
        result = json.loads(r.stdout)
        assert result["scheme"] == name and result["players"][0]["score"] > 0
        assert sum(result["settlement"]["net"].values()) == 0


def test_schemes_list_show_diff_and_payoffs(installed):
    bin_dir, here = installed
    env = env_without_checkout()
    listed = run(bin_dir / "mjscore", "schemes", cwd=here, env=env).stdout.splitlines()
    assert [line.split()[0] for line in listed] == sorted(p.stem for p in (ROOT / "schemes").glob("*.yaml"))
    shown = run(bin_dir / "mjscore", "schemes", "show", "dmjl", cwd=here, env=env).stdout
    assert "Standard Mah Jongg" in shown and "500" in shown
    diff = run(bin_dir / "mjscore", "schemes", "diff", "classical", "dmjl", cwd=here, env=env).stdout
    assert "parameter: limit                1000                 500" in diff
    r = run(bin_dir / "mjscore", "score", "-e", HAND, "--paying", "winner-only", "--payoff", "japanese",
            "--round-payments-up", "100", "--format", "json", cwd=here, env=env)
    assert all(p["amount"] % 100 == 0 for p in json.loads(r.stdout)["settlement"]["payments"])


def test_a_house_scheme_extends_a_shipped_one(installed):
    bin_dir, here = installed
    (here / "club.yaml").write_text("scheme: club\nextends: classical\nrules:\n  - {id: mahjong, points: 30}\n")
    env = env_without_checkout()
    club = json.loads(run(bin_dir / "mjscore", "score", "-e", HAND, "--scheme", "club.yaml", "--format", "json",
                          cwd=here, env=env).stdout)
    plain = json.loads(run(bin_dir / "mjscore", "score", "-e", HAND, "--format", "json", cwd=here, env=env).stdout)
    assert club["players"][0]["points"] == plain["players"][0]["points"] + 10
    diff = run(bin_dir / "mjscore", "schemes", "diff", "classical", "club.yaml", cwd=here, env=env).stdout
    assert "30" in diff


def test_the_python_api_matches_the_command_line(installed):
    bin_dir, here = installed
    env = env_without_checkout()
    cli = json.loads(run(bin_dir / "mjscore", "score", "-e", HAND, "--format", "json", cwd=here, env=env).stdout)
    api = run(bin_dir / "python", "-c", f"import json, mjscore; print(json.dumps(mjscore.score({HAND!r}).to_dict()))",
              cwd=here, env=env).stdout
    assert json.loads(api) == cli


def test_bad_input_is_one_line_from_the_installed_program(installed):
    bin_dir, here = installed
    r = run(bin_dir / "mjscore", "score", "-e", "E: 5555p ...; W: 5p ...", cwd=here, env=env_without_checkout(),
            check=False)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "five 5p" in r.stderr
    assert "Traceback" not in r.stderr


def test_shell_completion(installed, tmp_path):
    bin_dir, here = installed
    env = env_without_checkout() | {"SHELL": "/bin/bash", "HOME": str(tmp_path)}
    script = run(bin_dir / "mjscore", "--show-completion", "bash", cwd=here, env=env).stdout
    assert "_mjscore_completion" in script and "complete " in script
    words = run(bin_dir / "mjscore", cwd=here, env=env | {"_MJSCORE_COMPLETE": "complete_bash",
                                                         "COMP_WORDS": "mjscore sc", "COMP_CWORD": "1"}).stdout
    assert words.split() == ["score", "schemes"]
    choices = run(bin_dir / "mjscore", cwd=here, env=env | {"_MJSCORE_COMPLETE": "complete_bash",
                                                           "COMP_WORDS": "mjscore score --paying ",
                                                           "COMP_CWORD": "3"}).stdout
    assert choices.split() == ["winner-only", "between-all", "add-up"]
    run(bin_dir / "mjscore", "--install-completion", "bash", cwd=here, env=env)
    assert "mjscore" in (tmp_path / ".bashrc").read_text()
