"""Within an evening every message names the players by name, and names match without regard to
case; outside one, seats as before.  Penalties show on lines of their own."""

import json

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app

runner = CliRunner()
HEAD = "players Ann Bob Cid Dee\n---\n"


@pytest.mark.parametrize("hand,message", [
    ("E: score 10 win from Ana\nS: ...\nW: ...\nN: ...", "no player 'Ana' at this table: Ann, Bob, Cid, Dee"),
    ("E: score 10 win self\nS: score 2", "missing: Cid, Dee: add 'Cid: ...' for a loser who scored nothing"),
    ("E: score 10 win self\nS: 5555p ...\nW: 5p ...\nN: ...", "five 5p at the table (Bob has 4, Cid has 1)"),
    ("ann: score 10 win from ANN\nS: ...\nW: ...\nN: ...", "Ann cannot win on her own discard"),
    ("E: score 10 win self\nS: score 10 win self\nW: ...\nN: ...", "two winners at one table (Ann and Bob)"),
    ("E: 123m 456m 789m 111p 2p win 2p self\nS: ...\nW: ...\nN: ...", "Ann holds 13 tiles; the winner holds 14"),
    ("penalty Eve 100\nE: score 10 win self\nS: ...\nW: ...\nN: ...", "no player 'Eve' at this table"),
    ("E: score 10 win self\nS: ...\nbob: ...\nW: ...\nN: ...", "Bob is listed twice"),
    ("draw\nE: score 10 win self\nS: ...\nW: ...\nN: ...", "the table is a draw, yet Ann has a win clause"),
])
@pytest.mark.usefixtures("unwrapped")
def test_an_evenings_messages_name_the_players(hand, message):
    r = runner.invoke(app, ["session", "-"], input=HEAD + hand + "\n")
    assert r.exit_code == 1 and message in r.stderr, r.stderr


@pytest.mark.parametrize("table,message", [
    ("E: score 10 win self; S: score 2", "missing: W, N: add 'W: ...'"),
    ("E: 5555p ...; W: 5p ...", "five 5p at the table (E has 4, W has 1)"),
    ("E: score 10 win from Ana", "'from' takes a seat (E, S, W or N), not 'Ana'"),
])
@pytest.mark.usefixtures("unwrapped")
def test_a_table_outside_an_evening_names_seats_as_before(table, message):
    r = runner.invoke(app, ["score", "-e", table])
    assert message in r.stdout + r.stderr


@pytest.mark.parametrize("text", [
    HEAD + "ann: score 10 win from BOB\nbob: ...\nCID: ...\ndee: ...\npenalty dee 10 to Ann\n",
    "players: [Ann, Bob, Cid, Dee]\nhands:\n"
    "  - players: {ann: 'score 10 win from bob', BOB: '...', cid: '...', Dee: '...'}\n"
    "    penalties: ['dee 10 to ann']\n",
])
def test_names_match_without_regard_to_case(text, tmp_path):
    f = tmp_path / ("e.yaml" if text.startswith("players:") else "e.mj")
    f.write_text(text)
    hand = mjscore.play_session(f).hands[0].to_dict()
    assert hand["winner"] == "E" and hand["win"]["from"] == "S"
    assert hand["settlement"]["penalties"] == [{"from": "N", "to": "E", "amount": 10}]


@pytest.mark.usefixtures("unwrapped")
def test_a_penalty_is_shown_on_a_line_of_its_own(tmp_path):
    ev = tmp_path / "ev.mj"
    r = runner.invoke(app, ["add", str(ev), "--players", "Ann", "Bob", "Cid", "Dee", "-e",
                            "penalty Bob 100 to Ann; E: score 40 win self; S: ...; W: ...; N: ..."])
    assert r.exit_code == 0 and "Bob pays Ann 180" in r.stdout and "Penalty: Bob pays Ann 100" in r.stdout
    detail = runner.invoke(app, ["session", str(ev), "--hand", "1"])
    assert "Penalty: Bob (S) pays Ann (E) 100" in detail.stdout
    score = runner.invoke(app, ["score", "sample_hands/penalties.mj"])
    assert "Penalty: West pays East, South and North 50 each" in score.stdout
    assert "Penalty: North pays East 100" in score.stdout
    add_up = runner.invoke(app, ["score", "-e", "paying add-up; penalty W 50; E: score 10 win self; S: ...; W: ...; "
                                 "N: ...", "--format", "json"])
    assert json.loads(add_up.stdout)["settlement"]["penalties"] == [{"from": "W", "to": None, "amount": 50}]
    assert "Penalty: West pays 50, taken off the total (add-up)" in runner.invoke(app, [
        "score", "-e", "paying add-up; penalty W 50; E: score 10 win self; S: ...; W: ...; N: ..."]).stdout


@pytest.mark.parametrize("line,hint", [
    ("E: 5555p 111s 234m 678p 99s win 9s self", "E holds 15 tiles; the winner holds 14; a kong is written in brackets: "
                                                "(5555p) if declared concealed, [5555p] if exposed"),
    ("E: 5555p 111s 234m 678p 9s", "a kong is written in brackets: (5555p) if declared concealed"),
    ("E: 5555p EEEE 234m 678p 9s", "(5555p) if declared concealed, [5555p] if exposed (and so EEEE)"),
    ("E: 55556p 111s 234m 678p 99s win 9s self", "E holds 16 tiles; the winner holds 14"),
])
@pytest.mark.usefixtures("unwrapped")
def test_an_unbracketed_kong_gets_the_hint_to_bracket_it(line, hint):
    r = runner.invoke(app, ["show", "-e", line])
    assert r.exit_code == 1 and hint in r.stderr
    if "16 tiles" in hint:
        assert "bracket" not in r.stderr


def test_the_payoff_descriptions_say_each_thing_once():
    r = runner.invoke(app, ["schemes", "show", "classical", "--payoffs"], env={"COLUMNS": "200"})
    for line in r.stdout.splitlines():
        if ":" in line and not line.startswith(("situation", "-")):
            clauses = line.split(": ", 1)[1].lower().split("; ")
            assert sum("east" in c and "(east twice)" not in c for c in clauses) == 1, line   # East's double, once
