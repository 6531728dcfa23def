"""The settings are declared once (mjscore/model/settings.py) and every place takes them from there:
the header reader and printer, the scheme's checks, the command line and the API."""

import inspect
import json
from decimal import Decimal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.io.notation import parse_table, print_table
from mjscore.model.money import Stake
from mjscore.model.settings import ROTATION, SETTINGS, Paying, Rotation, Settings, layered

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
HAND = "E: score 40 win self; S: score 8; W: ...; N: ..."
SETTLING = ["score", "batch", "session", "add"]            # every command that settles


def test_the_first_layer_that_gives_a_setting_wins():
    scheme = Settings(paying=Paying.WINNER_ONLY, kitty=10)
    s = layered(scheme, {"kitty": None, "payoff": "japanese"}, {"kitty": 30, "payoff": "official"})
    assert (s.paying, s.kitty, s.payoff) == (Paying.WINNER_ONLY, 30, "japanese")
    assert layered(scheme) is scheme
    assert layered(Rotation(), {"kitty": 5, "draw_passes_deal": False}) == Rotation(draw_passes_deal=False)


def test_the_losers_double_follows_east_double_unless_given_itself():
    """Given at one place (here, one Settings), both stand: East's double off and on between the
    losers doubles East between the losers only (issue: an option given is an option honoured).
    Which place wins, where they are given at different ones: tests/test_settings_that_follow.py."""
    assert Settings(east_double_losers=True).east_doubles_between_losers
    assert Settings(east_double=False, east_double_losers=True).east_doubles_between_losers
    assert not Settings(east_double=False).east_doubles_between_losers
    assert not Settings(east_double_losers=False).east_doubles_between_losers


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_every_table_setting_reads_and_prints_as_a_header(setting):
    value = {bool: True, int: (setting.minimum or 0) + 3, str: "some-name",
             Stake: Stake(Decimal("0.05"), "EUR")}.get(setting.kind) or list(setting.kind)[-1]
    text = f"{setting.word} {setting.text(value)}\nE: score 10 win self\n"
    table = parse_table(text)
    assert dict(table.options) == {setting.name: value}
    assert print_table(table) == text


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.kind is int], ids=lambda s: s.name)
def test_a_number_out_of_range_is_refused_alike_in_a_header_and_a_scheme(setting, tmp_path):
    for wrong in {(setting.minimum or 0) - 1, setting.maximum + 1} - {-1}:
        with pytest.raises(mjscore.NotationError, match=f"'{setting.word}' takes a whole number of .*, not {wrong:,}"):
            parse_table(f"{setting.word} {wrong}\nE: score 10 win self")
    house = tmp_path / "house.yaml"
    house.write_text(f"scheme: house\nextends: classical\nsettlement: {{{setting.name}: {setting.maximum + 1}}}\n")
    with pytest.raises(mjscore.SchemeError, match=f"settlement.{setting.name}: takes a whole number of "
                                                  f"{setting.minimum or 0} or more, at most {setting.maximum:,}"):
        mjscore.load_scheme(house)


@pytest.mark.parametrize("command", SETTLING)
def test_every_settling_command_takes_every_setting(command):
    out = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
    for setting in SETTINGS + (ROTATION if command in ("session", "add") else ()):
        assert f"--{setting.word}" in out, (command, setting.name)


def test_score_takes_the_kitty_as_add_does():
    r = runner.invoke(app, ["score", "-e", HAND, "--kitty", "50", "--format", "json"])
    assert r.exit_code == 0, r.stderr
    [kitty] = json.loads(r.stdout)["settlement"]["specials"]
    assert (kitty["kind"], kitty["amount"], kitty["to"]) == ("kitty", 150, "E")


def test_the_api_names_every_setting():
    for function, declared in ((mjscore.score, SETTINGS), (mjscore.score_many, SETTINGS),
                               (mjscore.play_session, SETTINGS + ROTATION), (mjscore.Evening.add, SETTINGS + ROTATION)):
        params = inspect.signature(function).parameters
        assert all(s.name in params for s in declared), function.__name__
    with pytest.raises(TypeError, match="unexpected keyword argument 'kity'"):
        mjscore.score(HAND, kity=50)
    with pytest.raises(mjscore.SettingError, match="paying: takes one of: winner-only, between-all, add-up"):
        mjscore.score(HAND, paying="everybody")


# A setting added in one place reaches the header, the scheme's checks, the CLI and the API --

MADE_UP = '''
    tip_jar: int = setting(0, "A made-up setting: each loser tips the winner N.", metavar="N", minimum=0, maximum=99)
'''

PROBE = r'''
import json, sys
from typer.testing import CliRunner
import mjscore
from mjscore.cli import app
from mjscore.io.notation import parse_table, print_table

out = {}
t = parse_table("tip-jar 7\nE: score 10 win self")
out["header"] = dict(t.options).get("tip_jar")
out["printed"] = print_table(t).splitlines()[0]
try:
    mjscore.load_scheme(sys.argv[1])
except mjscore.SchemeError as e:
    out["scheme"] = e.message
r = CliRunner().invoke(app, ["score", "-e", "E: score 10 win self; S: ...; W: ...; N: ...", "--tip-jar", "5"])
out["cli"] = r.exit_code
out["cli_help"] = "--tip-jar" in CliRunner().invoke(app, ["batch", "--help"]).stdout
r = CliRunner().invoke(app, ["score", "-e", "E: score 10 win self", "--tip-jar", "500"])
out["cli_range"] = r.exit_code
out["api"] = mjscore.score("E: score 10 win self; S: ...; W: ...; N: ...", tip_jar=3).settlement.settings.tip_jar
out["api_session"] = "tip_jar" in str(__import__("inspect").signature(mjscore.play_session))
print(json.dumps(out))
'''


def test_a_setting_declared_in_one_place_reaches_every_place(tmp_path):
    """A copy of the package, with one field added to `Settings` and nothing else changed."""
    package = tmp_path / "mjscore"
    shutil.copytree(ROOT / "mjscore", package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "schemes", package / "schemes", ignore=shutil.ignore_patterns("__pycache__"))
    declared = package / "model" / "settings.py"
    text = declared.read_text()
    anchor = "\n    @property\n    def east_doubles_between_losers"
    assert text.count(anchor) == 1
    declared.write_text(text.replace(anchor, MADE_UP + anchor))
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nsettlement: {tip_jar: 100}\n")
    env = {"PYTHONPATH": str(tmp_path), "MJSCORE_CACHE_DIR": "", "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-c", PROBE, str(house)], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got == {"header": 7, "printed": "tip-jar 7",
                   "scheme": "settlement.tip_jar: takes a whole number of 0 or more, at most 99, not 100",
                   "cli": 0, "cli_help": True, "cli_range": 2, "api": 3, "api_session": True}
