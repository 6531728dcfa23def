"""End to end: the CLI through Typer's runner and as a real process."""

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mjscore import __version__
from mjscore.cli import app

runner = CliRunner()

HAND = "S: [CCC] 234m 678m 55p 789s 1f win 5p from N; E: [111p] 2378m 4455s NN"


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and r.stdout.strip() == f"mjscore {__version__}"


def test_show_inline():
    r = run("show", "-e", HAND)
    assert r.exit_code == 0
    assert r.stdout == "E: [111p] 2378m 4455s NN\nS: [CCC] 234m 678m 55p 789s 1f win 5p from N\n"


def test_show_stdin():
    r = run("show", "-", input=HAND.replace(";", "\n"))
    assert r.exit_code == 0 and "win 5p from N" in r.stdout


def test_show_unicode():
    r = run("show", "-e", "E: [CCC] ...", "--tiles", "unicode")
    assert r.exit_code == 0 and r.stdout == "E: [\U0001F004\U0001F004\U0001F004] ...\n"


@pytest.mark.parametrize("args,needle", [
    (["show", "-e", "E: 12x"], "<-e>:1:4: error: '12x' is not a tile"),
    (["show", "-e", "E: 5555p ...; W: 5p ..."], "<-e>:1:18: error: five 5p at the table"),
    (["show", "no/such/file.mj"], "no/such/file.mj: error: no such file"),
])
@pytest.mark.usefixtures("unwrapped")
def test_input_errors_exit_1_with_one_line(args, needle):
    r = run(*args)
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [r.stderr.strip()]
    assert needle in r.stderr


@pytest.mark.parametrize("args", [
    ["show", "--tiles", "pictures", "-e", "E: ..."],
    ["show", "--no-such-option"],
    ["no-such-command"],
    ["show", "a.mj", "-e", "E: ..."],
    ["show"],
])
def test_usage_errors_exit_2(args):
    assert run(*args).exit_code == 2


def test_help_has_a_worked_example():
    r = run("show", "--help")
    assert r.exit_code == 0 and "Example" in r.stdout and "mjscore show -e" in r.stdout


# -- a real process: what a user's shell sees ---------------------------------------------------

def mjscore(*args, input=None):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "mjscore", *args], input=input, capture_output=True,
                          env=env, timeout=60)


@pytest.mark.parametrize("name,data", [
    ("binary.mj", bytes(range(256)) * 4),
    ("latin1.mj", "E: 123m é".encode("latin-1")),
    ("long.mj", b"E: " + b"1m" * 600_000),
    ("bomb.yaml", b"a: &a [x,x,x,x,x,x,x,x,x]\n" + b"".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n".encode() for i in range(15))),
    ("python.yaml", b"players: !!python/object/apply:os.system ['echo pwned']\n"),
    ("nested.mj", b"E: " + b"[" * 5000 + b"]" * 5000),
    ("nested.yaml", b"players: " + b"[" * 5000 + b"]" * 5000 + b"\n"),
    ("empty.mj", b""),
])
@pytest.mark.usefixtures("unwrapped")
def test_no_traceback_whatever_the_input(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    r = mjscore("show", str(path))
    assert r.returncode == 1
    err = r.stderr.decode("utf-8")
    assert "Traceback" not in err and "pwned" not in r.stdout.decode()
    assert err.startswith(str(path)) and ": error: " in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.usefixtures("unwrapped")
def test_process_exit_codes_and_streams(tmp_path):
    ok = mjscore("show", "-", input=HAND.encode())
    assert ok.returncode == 0 and ok.stderr == b"" and b"win 5p from N" in ok.stdout
    bad = mjscore("show", "-", input=b"E: 1x")
    assert bad.returncode == 1 and bad.stdout == b""
    assert bad.stderr.decode().strip() == (
        "<stdin>:1:4: error: '1x' is not a tile: 'x' is no suit (m p s, or c d b; z for honours)")
    usage = mjscore("show", "--bogus")
    assert usage.returncode == 2 and b"Traceback" not in usage.stderr


# What a one-hand `score` may load (issue 40): scoring and its printing, nothing of an evening.
SCORE_MAY_IMPORT = {
    "mjscore", "mjscore.version", "mjscore.api",
    "mjscore.cli", "mjscore.cli.start", "mjscore.cli.language", "mjscore.cli.commands", "mjscore.cli.output",
    "mjscore.cli.usage",
    "mjscore.cli.render",
    "mjscore.model", "mjscore.model.amounts", "mjscore.model.errors", "mjscore.model.money", "mjscore.model.plain",
    "mjscore.model.settings", "mjscore.model.table", "mjscore.model.tiles",
    "mjscore.io", "mjscore.io.notation", "mjscore.io.reader", "mjscore.io.text", "mjscore.io.yamlform",
    "mjscore.io.yamlsafe",
    "mjscore.store", "mjscore.store.cache_folder", "mjscore.store.packaged", "mjscore.store.scheme_cache",
    "mjscore.hand", "mjscore.hand.arrange", "mjscore.hand.shapes", "mjscore.hand.validate", "mjscore.hand.waits",
    "mjscore.rules", "mjscore.rules.conditions", "mjscore.rules.features", "mjscore.rules.payoffs",
    "mjscore.rules.scheme", "mjscore.rules.shipped", "mjscore.rules.situation",
    "mjscore.scoring", "mjscore.scoring.score", "mjscore.settle", "mjscore.pipeline",
    "mjscore.evening", "mjscore.evening.entry",
    "mjscore.evening.words",        # the sentences under the table (how it was won, who pays whom, penalties)
    "mjscore.model.say",            # ... each through the one door a translation hooks in
}
SCORE_MUST_NOT_IMPORT = {
    "sqlite3", "mjscore.io.kajongg_db", "mjscore.evening.kajongg", "mjscore.evening.season",
    "mjscore.evening.batch", "mjscore.evening.session", "mjscore.evening.journal", "mjscore.evening.resume",
    "mjscore.evening.check", "mjscore.io.sessionfile", "mjscore.rules.views",
    "mjscore.store.checkpoints", "mjscore.store.beside", "mjscore.store.lock", "mjscore.store.atomic",
}


@pytest.mark.parametrize("args", [[], ["--format", "json"]])
def test_a_one_hand_score_imports_only_what_scoring_needs(args):
    """`mjscore score FILE` as a process (its own `-X importtime` list): no evening, season,
    Kajongg reader, batch or file kept beside an evening (start-up, issue 40)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "mjscore", "score", "sample_hands/win-on-discard.mj",
                        *args], capture_output=True, text=True, cwd=root, timeout=60)
    assert r.returncode == 0 and ("Winner: South" in r.stdout or '"winner": "S"' in r.stdout), r.stderr[-2000:]
    loaded = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    # The compiled build (mypyc) loads one shared library, `mjscore.core__mypyc`, that holds every
    # compiled module's code; it is not a module of ours that does work at start.
    ours = {m for m in loaded if m.split(".")[0] == "mjscore" and not m.endswith("__mypyc")}
    assert ours <= SCORE_MAY_IMPORT, sorted(ours - SCORE_MAY_IMPORT)
    assert not loaded & SCORE_MUST_NOT_IMPORT, sorted(loaded & SCORE_MUST_NOT_IMPORT)


# -- the app a command line gets ---------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["score", "--help"], ["batch", "--help"], ["waits", "--help"], ["check", "--help"], ["show", "--help"],
    ["session", "--help"], ["add", "--help"], ["undo", "--help"], ["schemes", "--help"],
    ["schemes", "show", "dmjl"], ["schemes", "diff", "dmjl", "bmja"],
    ["score", "-e", "E: [111p] 222s 333m EEE 99s win 9s self; S: 123m ...; W: 456p ...; N: 789s ..."],
    ["score", "--format", "json", "sample_hands/win-on-discard.mj"],
    ["score", "--bogus"], ["score", "--format", "nonsense", "sample_hands/win-on-discard.mj"],
])
def test_the_app_with_one_command_answers_as_the_whole_app(argv):
    """main() hands Typer only the command the line names (start-up); nothing else changes."""
    from mjscore.cli.commands import _app_for, app

    one = _app_for(["mjscore", *argv])
    assert one is not app
    assert len(one.registered_commands) + len(one.registered_groups) == 1
    whole = CliRunner().invoke(app, argv, prog_name="mjscore")
    alone = CliRunner().invoke(one, argv, prog_name="mjscore")
    assert (alone.exit_code, alone.stdout, alone.stderr) == (whole.exit_code, whole.stdout, whole.stderr)


@pytest.mark.parametrize("argv", [[], ["--help"], ["--version"], ["scor"], ["-e", "x"]])
def test_anything_but_a_command_name_gets_the_whole_app(argv):
    from mjscore.cli.commands import _app_for, app

    assert _app_for(["mjscore", *argv]) is app
