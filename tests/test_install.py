"""The package as a stranger installs it: a wheel built from this checkout, installed into a new
virtual environment, run from a folder outside the checkout.

An editable install hides what a wheel leaves out (the shipped schemes were once missing from
it), so this test never imports mjscore from the checkout: it only runs the installed program.
"""

import json
import os
import re
import shlex
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


def test_the_wheel_carries_its_licence_and_classifiers(installed):
    """The licence as an SPDX expression, its text in the wheel (PEP 639), and the classifiers."""
    bin_dir, here = installed
    r = run(bin_dir / "python", "-c",
            "import importlib.metadata as m; d = m.distribution('mjscore'); md = d.metadata; "
            "print(md['License-Expression']); print(md.get_all('License-File')); "
            "print([f.name for f in d.files if 'licenses' in str(f)]); print(len(md.get_all('Classifier')))",
            cwd=here, env=env_without_checkout())
    expression, files, inside, classifiers = r.stdout.splitlines()
    assert expression == "MIT" and files == "['LICENSE']" and inside == "['LICENSE']" and int(classifiers) >= 10
    assert (ROOT / "LICENSE").read_text().startswith("MIT License") and (ROOT / "CHANGELOG.md").is_file()


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


@pytest.mark.usefixtures("unwrapped")
def test_schemes_list_show_diff_and_payoffs(installed):
    bin_dir, here = installed
    env = env_without_checkout()
    listed = run(bin_dir / "mjscore", "schemes", cwd=here, env=env).stdout.splitlines()
    assert [line.split()[0] for line in listed] == sorted(p.stem for p in (ROOT / "schemes").glob("*.yaml"))
    shown = run(bin_dir / "mjscore", "schemes", "show", "dmjl", cwd=here, env=env).stdout
    assert "Standard Mah Jongg" in shown and "500" in shown
    diff = run(bin_dir / "mjscore", "schemes", "diff", "classical", "dmjl", cwd=here, env=env).stdout
    assert re.search(r"parameter: limit +1000 +500", diff)
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


@pytest.mark.usefixtures("unwrapped")
def test_bad_input_is_one_line_from_the_installed_program(installed):
    bin_dir, here = installed
    r = run(bin_dir / "mjscore", "score", "-e", "E: 5555p ...; W: 5p ...", cwd=here, env=env_without_checkout(),
            check=False)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "five 5p" in r.stderr
    assert "Traceback" not in r.stderr


def test_shell_completion(installed, tmp_path):
    bin_dir, here = installed
    # The shell named, not guessed from the processes above this one (shellingham finds none when
    # the suite runs detached, and `--show-completion bash` then said "Shell  not supported").
    env = env_without_checkout() | {"SHELL": "/bin/bash", "HOME": str(tmp_path),
                                    "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
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


def test_the_notation_and_the_sample_hands_travel_with_it(installed):
    bin_dir, here = installed
    env = env_without_checkout() | {"COLUMNS": "60"}
    topics = run(bin_dir / "mjscore", "help", cwd=here, env=env).stdout
    assert [line.split()[0] for line in topics.splitlines()[:3]] == ["notation", "rules", "schemes"]
    notation = run(bin_dir / "mjscore", "help", "notation", cwd=here, env=env).stdout
    assert notation.startswith("Writing hands down: the notation\n") and "win TILE self" in notation
    assert "docs/rules.md" not in notation and "'mjscore help rules'" in notation
    prose = [line for line in notation.splitlines() if not line.startswith("  ")]      # code is as written
    assert max(map(len, prose)) <= 60
    names = run(bin_dir / "mjscore", "example", cwd=here, env=env).stdout
    shipped = sorted(p.stem for p in (ROOT / "sample_hands").glob("*.mj"))
    assert sorted(line.split()[0] for line in names.splitlines() if not line.startswith((" ", "Each"))) == shipped
    for sample in (ROOT / "sample_hands").glob("*.*"):
        if sample.suffix in (".mj", ".yaml"):
            name = sample.stem if sample.suffix == ".mj" else sample.name
            assert run(bin_dir / "mjscore", "example", name, cwd=here, env=env).stdout == sample.read_text()


def test_every_help_example_works_from_a_folder_of_ones_own(installed):
    """Each command line of each --help, pasted into a shell in an empty folder outside the
    checkout: nothing it names (a sample, a document) is missing."""
    bin_dir, here = installed
    env = env_without_checkout() | {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "200"}
    folder = here / "pasted"
    folder.mkdir()
    commands = [[], ["score"], ["batch"], ["waits"], ["check"], ["session"], ["season"], ["show"], ["add"], ["undo"],
                ["help"], ["example"], ["schemes"], ["schemes", "show"], ["schemes", "diff"], ["night"]]
    pasted = 0
    for command in commands:
        text = run(bin_dir / "mjscore", *command, "--help", cwd=folder, env=env).stdout
        assert "sample_hands/" not in text and "docs/" not in text, command
        for line in (x.strip() for x in text.splitlines() if x.strip().startswith("mjscore ")):
            if line == "mjscore add evening.mj":
                continue                                  # asks at a terminal (tests/test_prompt.py)
            r = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=folder, capture_output=True, text=True,
                               env=env, timeout=120, stdin=subprocess.DEVNULL)
            assert r.returncode == (1 if command == ["check"] else 0), (line, r.stderr)
            assert shlex.split(line)[0] == "mjscore"
            pasted += 1
    assert pasted >= 20


def test_schemes_show_names_each_rule_and_what_a_house_file_writes(installed):
    bin_dir, here = installed
    env = env_without_checkout() | {"COLUMNS": "60"}
    shown = run(bin_dir / "mjscore", "schemes", "show", "classical", cwd=here, env=env).stdout
    assert re.search(r"^mahjong +points: 20 +Going out", shown, re.M)
    assert "rules: [{id: dragon-pung, doubles: 1}]" in shown.replace("\n  ", " ")
    assert max(len(line) for line in shown.splitlines() if "https://" not in line) <= 60
    (here / "house.yaml").write_text("scheme: house\nextends: classical\nrules:\n  - {id: mahjong, points: 30}\n")
    house = run(bin_dir / "mjscore", "schemes", "show", "house.yaml", cwd=here, env=env).stdout
    assert re.search(r"^mahjong +points: 30 +Going out", house, re.M)


def test_a_hand_typed_at_the_prompt_of_the_installed_program(installed):
    import pexpect

    bin_dir, here = installed
    env = env_without_checkout() | {"COLUMNS": "60", "TERM": "xterm"}
    child = pexpect.spawn(str(bin_dir / "mjscore"), ["add", "typed.mj", "--players", "Ann", "Bob", "Cid", "Dee"],
                          cwd=str(here), env=env, encoding="utf-8", timeout=60, dimensions=(40, 60))
    child.expect_exact("Ann (East):")
    child.sendline("[111p] 222s 333m EEE 99s win 9s slef")
    child.expect_exact("error:")
    child.expect_exact("Ann (East):")
    child.send("\x1b[A" + "\x7f" * 4 + "self\r")                 # Up, mend the last word
    for who in ("Bob (South):", "Cid (West):", "Dee (North):"):
        child.expect_exact(who)
        child.sendline("")
    child.expect_exact("Next: Hand 2: Ann deals")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "E: [111p] 222s 333m EEE 99s win 9s self\n" in (here / "typed.mj").read_text()


def test_python_m_mjscore_in_the_repository_folder_after_pip_install(installed):
    """With the wheel installed, `python -m mjscore` run in the checkout finds ./mjscore first (the
    working folder leads sys.path); its schemes, documents and samples are then the folders the
    build installs from, beside it."""
    bin_dir, _ = installed
    for args in (["score", "sample_hands/win-on-discard.mj", "--scheme", "dmjl"], ["help", "notation"],
                 ["example", "win-on-discard"], ["schemes"]):
        r = run(bin_dir / "python", "-m", "mjscore", *args, cwd=ROOT, env=env_without_checkout())
        assert r.stderr == "" and r.stdout, args
    where = run(bin_dir / "python", "-c", "import mjscore; print(mjscore.__file__)", cwd=ROOT,
                env=env_without_checkout()).stdout
    assert where.startswith(str(ROOT))          # it was the checkout's package that ran
