"""The Python API: the same figures as the command line, typed, errors raised and never printed."""

import glob
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjscore
import mjscore.api
from mjscore.cli import app

runner = CliRunner()
TABLE_SAMPLES = [p for p in sorted(glob.glob("sample_hands/*.mj")) if "session" not in p]


def cli_json(*args):
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("path", TABLE_SAMPLES)
@pytest.mark.parametrize("options,flags", [
    ({}, []),
    ({"scheme": "dmjl", "paying": "winner-only"}, ["--scheme", "dmjl", "--paying", "winner-only"]),
    ({"payoff": "japanese", "round_payments_up": 100, "east_double": False},
     ["--payoff", "japanese", "--round-payments-up", "100", "--no-east-double"]),
])
def test_to_dict_equals_the_json_of_score(path, options, flags):
    expected = cli_json("score", path, "--format", "json", *flags)
    got = [mjscore.score(t, **options).to_dict() for t in mjscore.parse(Path(path).read_text(), name=path)]
    assert got == expected


def test_typed_players_and_settlement():
    r = mjscore.score("E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ...")
    east = r.player("E")
    assert (east.seat, east.points, east.doubles, east.limit, east.score) == (mjscore.Wind.EAST, 44, 3, None, 352)
    assert east.winner and r.winner is mjscore.Wind.EAST
    assert {i.rule for i in east.items} >= {"mahjong", "self-drawn"}
    assert all(isinstance(i, mjscore.Item) for i in east.items)
    assert sum(r.net.values()) == 0 and r.net[mjscore.Wind.EAST] == 2112
    assert {(p.payer.value, p.payee.value, p.amount) for p in r.payments} >= {("S", "E", 704)}
    assert isinstance(r.scheme, mjscore.Scheme) and r.scheme.name == "classical"


def test_score_refuses_a_text_of_several_tables():
    with pytest.raises(mjscore.InputError, match="holds 3"):
        mjscore.score(Path("sample_hands/evening.mj").read_text())


def test_errors_are_raised_with_their_location_and_never_printed(capsys):
    with pytest.raises(mjscore.TableError) as e:
        mjscore.score("E: 5555p ...; W: 5p ...")
    assert e.value.location.line == 1 and "five 5p" in str(e.value)
    with pytest.raises(mjscore.SchemeError, match="no scheme named 'nope'"):
        mjscore.load_scheme("nope")
    with pytest.raises(mjscore.NotationError):
        mjscore.parse("E: 12x")
    assert capsys.readouterr() == ("", "")


def test_score_many_streams_in_order_with_error_rows(tmp_path):
    f = tmp_path / "mixed.mj"
    f.write_text("E: score 10 win self\n---\nE: 12x\n---\nE: [111p] 222s 333m EEE 99s win 9s self\n")
    items = list(mjscore.score_many(f))
    assert [(i.table, i.line, i.ok) for i in items] == [(1, 1, True), (2, 3, False), (3, 5, True)]
    assert isinstance(items[1].error, mjscore.NotationError)
    r = runner.invoke(app, ["batch", str(f)])
    assert [json.loads(line) for line in r.stdout.splitlines()] == [i.to_dict() for i in items]
    lines = f.read_text().splitlines(keepends=True)
    from_lines = list(mjscore.score_many(iter(lines)))
    assert [(i.line, i.ok) for i in from_lines] == [(i.line, i.ok) for i in items]
    assert from_lines[2].result.to_dict() == items[2].result.to_dict()


def test_score_many_is_lazy():
    lines = iter(["E: score 10 win self", "---", "E: score 20 win self", "---"] + ["E: 12x"] * 10**6)
    first = next(mjscore.score_many(lines))
    assert first.result.player("E").score == 10
    assert next(lines) == "E: score 20 win self"      # read up to the first table's '---', no further


@pytest.mark.parametrize("path", ["sample_hands/evening-session.mj", "sample_hands/evening-session.yaml"])
def test_play_session_equals_the_json_of_session(path):
    [expected] = cli_json("session", path, "--format", "json")
    played = mjscore.play_session(Path(path))
    assert played.to_dict() == expected
    with pytest.raises(mjscore.NotationError, match="<input>:1:1"):      # a str is the text, never a file's name
        mjscore.play_session(path)
    assert mjscore.play_session(Path(path).read_text(), name=path).to_dict() == expected
    assert played.standings[0] == ("Ann", 2898) and len(played.hands) == 20
    assert played.hands[2].dealer == "Bob" and played.hands[2].names[mjscore.Wind.NORTH] == "Ann"


def test_waits_and_check():
    assert mjscore.waits("E: 1m 19p 19s E S W NN C F P") == [[{"seat": "E", "waits": ["9m"], "dead": []}]]
    report = mjscore.check("round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 80")
    assert report.differences == 1 and "mjscore counts 160" in report.lines[0]


def test_the_package_face_lists_what_it_offers():
    for name in mjscore.__all__:
        assert getattr(mjscore, name) is not None
    with pytest.raises(AttributeError):
        mjscore.no_such_thing  # noqa: B018 -- the attribute access itself is what must raise


def test_public_names_have_docstrings_with_an_example():
    for name in mjscore.api.__all__:
        doc = getattr(mjscore.api, name).__doc__
        assert doc and ">>>" in doc, name


def test_a_library_user_loads_no_shell():
    """`import mjscore` and scoring or playing an evening load nothing of the command line or the
    page (README, "Use it from Python")."""
    import subprocess
    import sys

    code = ("import sys, mjscore; mjscore.score('E: score 40 win self; S: ...; W: ...; N: ...'); "
            "import pathlib; mjscore.play_session(pathlib.Path('sample_hands/evening-session.mj')); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'fastapi', 'uvicorn', "
            "'starlette') or m.startswith(('mjscore.cli', 'mjscore.web'))))")
    root = __import__("pathlib").Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "[]", (r.stdout, r.stderr)
