"""The words (issue 39, item 6): a loser who entered nothing reads "nothing", said once by the
library (`figures`) for `add`, `edit` and `check`; a stake whose currency was not quoted is a
wrong command line that says how to quote it."""

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import mjscore.api as api
from mjscore.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "80", "NO_COLOR": "1"}
WIN = "[111p] 222s 333m EEE 99s win 9s self"


@pytest.mark.parametrize("line,said", [
    ("...", "nothing"),                                           # a loser who entered nothing
    ("score 8", "counted"),                                       # a score counted at the table
    ("123m 456m 789m 234p 5p", "0 points, 0 doubles"),           # tiles that count nothing say so
    ("[555m] 123p 456p 789p 1s", "2 points, 0 doubles"),
    ("[555m] ...", "2 points, 0 doubles"),                        # a partial listing's figures
])
def test_a_losers_figures_beside_the_score(tmp_path, line, said):
    r = runner.invoke(app, ["add", str(tmp_path / "ev.mj"), "--players", "Ann", "Bob", "Cid", "Dee",
                            "-e", f"E: {WIN}; S: {line}; W: ...; N: ..."], env=ENV)
    assert r.exit_code == 0, r.output
    bob = next(x for x in r.stdout.splitlines() if x.startswith("  Bob "))
    assert bob.split(maxsplit=3)[3] == said
    assert r.stdout.count("0 points, 0 doubles") == (said == "0 points, 0 doubles")     # Cid and Dee: nothing


@pytest.mark.parametrize("player,said", [
    ({"points": 24, "doubles": 1, "score": 48, "limit": None, "arrangement": ["CCC"], "items": [{}]},
     "24 points, 1 double"),
    ({"points": 0, "doubles": 0, "score": 0, "limit": None, "arrangement": [], "items": []}, "nothing"),
    ({"points": 0, "doubles": 0, "score": 0, "limit": None, "arrangement": ["123m"], "items": []},
     "0 points, 0 doubles"),
    ({"points": 8, "doubles": 0, "score": 8, "limit": None, "counted": True, "arrangement": []}, "counted"),
    ({"points": 0, "doubles": 0, "score": 1000, "limit": "Thirteen orphans", "arrangement": ["19m"]},
     "Thirteen orphans"),
])
def test_figures_is_the_librarys_one_sentence(player, said):
    assert api.figures(player) == said


def test_check_says_nothing_of_a_loser_who_entered_nothing(tmp_path):
    r = runner.invoke(app, ["check", "-e", f"E: {WIN}; S: ... = 8; W: ...; N: ..."], env=ENV)
    assert "S claims 8, mjscore counts 0 (nothing)" in r.stdout + r.stderr


STAKE_SAID = "Invalid value for '--stake': the stake takes one argument, so quote it: --stake \"0.05 EUR\""
HAND = "E: score 40 win self; S: score 8; W: ...; N: ..."


@pytest.mark.parametrize("args", [
    ["add", "ev.mj", "--players", "A", "B", "C", "D", "--stake", "0.05", "EUR"],
    ["add", "ev.mj", "--players", "A", "B", "C", "D", "--stake", "0.05", "EUR", "-e", HAND],
    ["add", "ev.mj", "--players", "A", "B", "C", "D", "--stake", "0.05", "eur", "-e", HAND],
    ["add", "--stake", "0.05", "EUR", "ev.mj", "-e", HAND],
    ["score", "--stake", "0.05", "EUR", "-e", HAND],
    ["session", "--stake", "0.05", "EUR"],
    ["batch", "--stake", "0.05", "EUR", "ev.mj"],
])
def test_a_stake_in_two_words_says_how_to_quote_it(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, args, env=ENV)
    assert r.exit_code == 2, r.output
    assert STAKE_SAID in " ".join(r.stderr.split())
    assert "not both" not in r.stderr and "no such file" not in r.stderr
    assert not (tmp_path / "ev.mj").exists()                  # nothing written


def test_a_file_of_that_name_is_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "EUR").write_text(HAND + "\n")
    r = runner.invoke(app, ["add", "ev.mj", "--players", "A", "B", "C", "D", "--stake", "0.05", "EUR"], env=ENV)
    assert r.exit_code == 0, r.output
    assert "(+12.00)" in r.stdout


def test_a_quoted_stake_is_taken(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["add", "ev.mj", "--players", "A", "B", "C", "D", "--stake", "0.05 EUR", "-e", HAND],
                      env=ENV)
    assert r.exit_code == 0, r.output
    assert "(EUR +12.00)" in r.stdout


def test_the_stake_in_two_words_as_a_real_process(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mjscore", "add", "ev.mj", "--stake", "0.05", "EUR"], cwd=tmp_path,
                       capture_output=True, text=True, env={**os.environ, **ENV}, timeout=60)
    assert r.returncode == 2
    assert STAKE_SAID in " ".join(r.stderr.split())
