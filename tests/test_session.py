"""Sessions, check and the grown-up batch."""

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.evening.session import play, settle_up
from mjscore.io.sessionfile import read_session
from mjscore.model.errors import MjError

runner = CliRunner()
SESSION = "sample_hands/evening-session.mj"

# Worked out by hand (see the comments in the sample): who deals each hand, in which round,
# and the nets of Ann, Bob, Cid and Dee.
EXPECTED = [
    # hand, round, East, nets (Ann, Bob, Cid, Dee)
    (1, "E", "Ann", (720, -236, -212, -272)),
    (2, "E", "Ann", (0, 0, 0, 0)),
    (3, "E", "Bob", (-92, -280, 240, 132)),
    (4, "E", "Cid", (-50, -50, -100, 200)),
    (5, "E", "Dee", (-80, -80, -80, 240)),
    (6, "E", "Dee", (120, -30, -30, -60)),
    (7, "S", "Ann", (-200, -100, 400, -100)),
    (8, "S", "Bob", (-100, 300, -100, -100)),
    (9, "S", "Bob", (-40, 120, -40, -40)),
    (10, "S", "Bob", (0, 0, 0, 0)),
    (11, "S", "Cid", (320, -90, -180, -50)),
    (12, "S", "Dee", (-40, -40, 160, -80)),
    (13, "W", "Ann", (600, -200, -200, -200)),
    (14, "W", "Ann", (-120, -60, -60, 240)),
    (15, "W", "Bob", (0, 0, 0, 0)),
    (16, "W", "Cid", (-30, 120, -60, -30)),
    (17, "W", "Dee", (-160, -160, -160, 480)),
    (18, "W", "Dee", (-50, 200, -50, -100)),
    (19, "N", "Ann", (-180, -90, 360, -90)),
    (20, "N", "Bob", (280, -140, -70, -70)),
]


def played(path=SESSION):
    with open(path) as f:
        text = f.read()
    return play(read_session(text, path)).to_dict()


@pytest.mark.parametrize("path", [SESSION, SESSION.replace(".mj", ".yaml")])
def test_twenty_hand_session_rotation_nets_and_totals(path):
    r = played(path)
    assert len(r["hands"]) == 20
    names = r["players"]
    totals = {n: 2000 for n in names}
    for hand, (number, rnd, east, nets) in zip(r["hands"], EXPECTED, strict=True):
        assert (hand["hand"], hand["round"], hand["dealer"]) == (number, rnd, east)
        seat_of = {v: k for k, v in hand["names"].items()}
        got = tuple(hand["settlement"]["net"][seat_of[n]] for n in names)
        assert got == nets, number
        for n, x in zip(names, nets, strict=True):
            totals[n] += x
        assert hand["totals"] == totals
    assert r["totals"] == {"Ann": 2898, "Bob": 1184, "Cid": 1818, "Dee": 2100}
    assert sum(r["totals"].values()) == 4 * 2000
    assert [s["name"] for s in r["standings"]] == ["Ann", "Dee", "Cid", "Bob"]
    assert r["settle_up"] == [{"from": "Bob", "to": "Ann", "amount": 816},
                              {"from": "Cid", "to": "Dee", "amount": 100},
                              {"from": "Cid", "to": "Ann", "amount": 82}]


def test_session_command_outputs():
    text = runner.invoke(app, ["session", SESSION])
    assert text.exit_code == 0
    assert "Final standings" in text.stdout and "Bob pays Ann 816" in text.stdout
    js = json.loads(runner.invoke(app, ["session", SESSION, "--format", "json"]).stdout)
    assert ({"hands", "totals"} <= set(js)
            and js["hands"][2]["names"] == {"E": "Bob", "S": "Cid", "W": "Dee", "N": "Ann"})
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, ["session", SESSION, "--format", "csv"]).stdout)))
    assert len(rows) == 80 and {r["name"]: r["total"] for r in rows[-4:]} == \
        {"Ann": "2898", "Bob": "1184", "Cid": "1818", "Dee": "2100"}
    md = runner.invoke(app, ["session", SESSION, "--format", "markdown"]).stdout
    assert "| place" in md or "|   place" in md


@pytest.mark.parametrize("columns", ["60", "100"])
def test_session_chart_tells_the_players_apart_without_colour(columns):
    import re

    r = runner.invoke(app, ["session", SESSION, "--chart"], env={"COLUMNS": columns})
    assert r.exit_code == 0 and "Running totals" in r.stdout and "\x1b" not in r.stdout
    chart = r.stdout[r.stdout.index("Running totals"):].splitlines()
    assert max(map(len, chart)) <= int(columns)                            # fits the width, piped
    plot = [line for line in chart if "│" in line or "┤" in line]
    for marker, name in zip("ox+*", ("Ann", "Bob", "Cid", "Dee"), strict=True):
        assert f"{marker}{marker} {name}" in "\n".join(plot)                 # the legend: a marker each
        assert any(re.search(rf"{re.escape(marker)} {name} *│$", line) for line in plot), name   # named at the end
    ticks = [int(line.split("┤")[0]) for line in chart if "┤" in line]
    step = ticks[0] - ticks[1]
    assert step in (100, 200, 500, 1000) and all(t % step == 0 for t in ticks)   # whole chips, round numbers


def session_text(*hands, header="players Ann Bob Cid Dee\nscheme classical"):
    return header + "\n---\n" + "\n---\n".join(hands)


WIN_E = "E: score 10 win self\nS: score 0\nW: score 0\nN: score 0"
WIN_S = "E: score 0\nS: score 10 win self\nW: score 0\nN: score 0"


@pytest.mark.parametrize("hands,fragment", [
    ((WIN_S, "round S\n" + WIN_E), "hand 2 says round S"),
    ((WIN_E, "dealer-wins 0\n" + WIN_E), "says dealer-wins 0, but East has won 1"),
    ((WIN_S, "E: score 0\nS: score 0\nW: score 0\nN: score 0"), "no winner"),
])
def test_contradictions_name_the_hand(hands, fragment):
    with pytest.raises(MjError, match=fragment):
        play(read_session(session_text(*hands), "s.mj"))


def test_yaml_names_contradicting_the_rotation():
    text = """players: [Ann, Bob, Cid, Dee]
hands:
  - "E: score 0; S: score 10 win self; W: score 0; N: score 0"
  - players: {E: {name: Ann, score: 10, win: self}, S: {score: 0}, W: {score: 0}, N: {score: 0}}
"""
    with pytest.raises(MjError, match="hand 2 seats Ann at E, but by the rotation Bob sits there"):
        play(read_session(text, "s.yaml"))


def test_dmjl_draw_keeps_the_deal_and_ninth_win_passes_it():
    draw = session_text("draw", WIN_S, header="players A B C D\nscheme dmjl")
    r = play(read_session(draw, "s.mj")).to_dict()
    assert [h["dealer"] for h in r["hands"]] == ["A", "A"]
    nine = session_text(*([WIN_E] * 10), header="players A B C D\nscheme dmjl")
    r = play(read_session(nine, "s.mj")).to_dict()
    assert [h["dealer"] for h in r["hands"]] == ["A"] * 9 + ["B"]


def test_east_streak_reaches_scoring():
    hand = "E: [123m] [456m] [789p] 11s 234s win 4s self\nS: score 0\nW: score 0\nN: score 0"
    hand = "E: [123m] [456m] [789p] 11s 234s win 4s self"
    text = session_text(*([hand] * 9), header="players A B C D\nscheme dmjl\npaying winner-only")
    r = play(read_session(text, "s.mj")).to_dict()
    assert r["hands"][8]["players"][0]["limit"] == "East won nine times in a row"
    assert r["hands"][7]["players"][0]["limit"] is None


def test_add_up_session_has_nothing_to_settle():
    text = session_text(WIN_E, WIN_S, header="players A B C D\npaying add-up")
    r = play(read_session(text, "s.mj")).to_dict()
    assert r["settle_up"] is None and r["totals"]["A"] == 2000 + 20


@pytest.mark.parametrize("balance,transfers", [
    ({"A": 100, "B": -100, "C": 50, "D": -50}, 2),
    ({"A": 898, "B": -816, "C": -182, "D": 100}, 3),
    ({"A": 0, "B": 0, "C": 0, "D": 0}, 0),
    ({"A": 30, "B": -10, "C": -10, "D": -10}, 3),
])
def test_settle_up_uses_fewest_transfers(balance, transfers):
    moves = [t.as_dict() for t in settle_up(balance)]
    assert len(moves) == transfers
    left = dict(balance)
    for m in moves:
        left[m["from"]] += m["amount"]
        left[m["to"]] -= m["amount"]
    assert set(left.values()) <= {0}


# -- check ----------------------------------------------------------------------------------

@pytest.mark.usefixtures("unwrapped")
def test_check_agreement_and_difference():
    ok = runner.invoke(app, ["check", "-e", "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 160"])
    assert ok.exit_code == 0 and "agreed" in ok.stdout
    bad = runner.invoke(app, ["check", "-e", "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 80"])
    assert bad.exit_code == 1
    assert "claims 80, mjscore counts 160" in bad.stdout
    assert "leaves out Pung or kong of dragons [CCC] (1 double)" in bad.stdout


def test_check_explains_a_forgotten_limit():
    bad = runner.invoke(app, ["check", "-e", "round E; E: [EEE] [SSS] NNN C [WWWW] = 512", "--scheme", "dmjl"])
    assert bad.exit_code == 1 and "goes over the limit" in bad.stdout


def test_check_works_on_sessions(tmp_path):
    path = tmp_path / "s.mj"
    path.write_text(session_text("E: [123m] [456m] [789p] 11s 234s win 4s self = 22\nS: ... = 0",
                                 header="players Ann Bob Cid Dee\npaying winner-only"))
    r = runner.invoke(app, ["check", str(path)])
    assert r.exit_code == 0, r.stdout
    assert "hand 1: Ann claims 22: agreed" in r.stdout and "hand 1: Bob claims 0: agreed" in r.stdout


def test_check_without_claims():
    r = runner.invoke(app, ["check", "sample_hands/draw.mj"])
    assert r.exit_code == 0 and "no claims" in r.stdout


# -- batch ----------------------------------------------------------------------------------

def test_batch_csv_has_a_row_per_player_with_file_and_line(tmp_path):
    r = runner.invoke(app, ["batch", "sample_hands/evening.mj", str(tmp_path / "missing.mj"), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert r.exit_code == 1
    good = [x for x in rows if not x["error"]]
    assert len(good) == 12 and {x["line"] for x in good} == {"2", "8", "16"}
    assert rows[-1]["error"].endswith("no such file")


def test_batch_inputs_equal_results_plus_errors(tmp_path):
    import random
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from generate import random_table

    from mjscore.io.notation import print_table

    rng = random.Random(5)
    chunks = []
    for i in range(60):
        chunks.append(print_table(random_table(rng)) if i % 7 else "E: 5555p ...\nW: 5p ...\n")
    f = tmp_path / "many.mj"
    f.write_text("---\n".join(chunks))
    r = runner.invoke(app, ["batch", str(f), "--scheme", "bmja"])
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 60
    assert [x["table"] for x in lines] == list(range(1, 61))
    assert sum("error" in x for x in lines) >= 9     # the 9 bad tables, and BMJA refuses two-chow winners


def test_batch_streams_a_file_with_an_overlong_line_and_bad_bytes(tmp_path):
    f = tmp_path / "odd.mj"
    with open("sample_hands/win-on-discard.mj", "rb") as sample:
        good = sample.read()
    f.write_bytes(good + b"---\nE: " + b"1m" * 20000 + b"\n---\nE: \xff\xfe\n---\n" + good)
    r = runner.invoke(app, ["batch", str(f)])
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert ["error" in x for x in lines] == [False, True, True, False]


# -- batch: sessions among the inputs, and a row for every player ------------------------------

def batch_csv(*args):
    r = runner.invoke(app, ["batch", *args, "--format", "csv"])
    return r.exit_code, list(csv.DictReader(io.StringIO(r.stdout)))


def test_batch_plays_a_session_hand_by_hand_with_names_totals_and_the_settle_up():
    status, rows = batch_csv(SESSION)
    assert status == 0
    hands = [r for r in rows if r["hand"] != "end"]
    assert len(hands) == 4 * 20 and {r["file"] for r in rows} == {SESSION}
    for hand, _round, _east, nets in EXPECTED:
        got = {r["name"]: int(r["net"]) for r in hands if r["hand"] == str(hand)}
        assert got == dict(zip(("Ann", "Bob", "Cid", "Dee"), nets, strict=True)), hand
    assert [r["draw"] for r in hands if r["hand"] == "2"] == ["yes"] * 4           # a draw has its rows
    last = {r["name"]: int(r["total"]) for r in hands if r["hand"] == "20"}
    end = {r["name"]: r for r in rows if r["hand"] == "end"}
    assert {n: int(r["total"]) for n, r in end.items()} == last == {"Ann": 2898, "Bob": 1184, "Cid": 1818, "Dee": 2100}
    assert end["Bob"]["settle_up"] == "pays Ann 816" and end["Ann"]["settle_up"].startswith("receives 816 from Bob")
    lines = [json.loads(x) for x in runner.invoke(app, ["batch", SESSION]).stdout.splitlines()]
    assert [x.get("hand") for x in lines] == [*range(1, 21), None]
    assert lines[2]["names"] == {"E": "Bob", "S": "Cid", "W": "Dee", "N": "Ann"} and lines[2]["totals"]["Ann"] == 2628
    assert lines[-1]["settle_up"][0] == {"from": "Bob", "to": "Ann", "amount": 816} and "table" not in lines[-1]


@pytest.mark.parametrize("table,rows", [
    # a bare draw: a row for every seat, marked a draw
    ("draw", [("E", "yes", "", "", "0", ""), ("S", "yes", "", "", "0", ""), ("W", "yes", "", "", "0", ""),
              ("N", "yes", "", "", "0", "")]),
    # no winner and no draw: the reason there is no settlement, on every row
    ("E: score 10\nS: score 4", [("E", "", "10", "", "", "there is "), ("S", "", "4", "", "", "there is "),
                                  ("W", "", "", "", "", "there is "), ("N", "", "", "", "", "there is ")]),
    # claims beside the score; a seat left out under winner-only still pays
    ("paying winner-only\nE: [111p] 222s 333m EEE 99s win 9s self = 300\nS: [555m] ... = 2",
     [("E", "", "352", "300", "2112", ""), ("S", "", "2", "2", "-704", ""), ("W", "", "", "", "-704", ""),
      ("N", "", "", "", "-704", "")]),
])
def test_the_batch_csv_has_a_row_for_every_player_of_every_table(tmp_path, table, rows):
    f = tmp_path / "t.mj"
    f.write_text(table + "\n")
    _, got = batch_csv(str(f))
    assert [(r["seat"], r["draw"], r["score"], r["claim"], r["net"], r["no_settlement"][:9]) for r in got] == rows
    if rows[0][5]:
        assert got[0]["no_settlement"] == "there is no winner and the table is not marked 'draw'"


def test_the_batch_csv_of_draws_bad_tables_and_a_bad_session(tmp_path):
    tables = tmp_path / "tables.mj"
    tables.write_text("E: score 10 win self\nS: ...\nW: ...\nN: ...\n---\ndraw\n---\nE: 12x\n")
    evening = tmp_path / "evening.mj"
    evening.write_text("players A B C D\n---\nE: score 10 win self = 10\nS: score 2\nW: ...\nN: ...\n---\n"
                       "E: 12x\n---\ndraw\n")
    status, rows = batch_csv(str(tables), str(evening))
    assert status == 1
    assert [r["table"] for r in rows] == ["1"] * 4 + ["2"] * 4 + ["3"] + ["4"] * 4 + ["5", "6"] + [""] * 4
    assert "'12x' is not a tile" in rows[8]["error"] and "'12x' is not a tile" in rows[13]["error"]
    assert "hand 3 is not counted" in rows[14]["error"]
    assert rows[9]["claim"] == "10" and rows[9]["name"] == "A" and rows[9]["total"] == "2060"
    assert [r["settle_up"] for r in rows[-4:]][1:] == ["pays A 16", "pays A 22", "pays A 22"]
    assert "the totals stop before hand 2" in rows[-1]["no_settlement"]
    lines = [json.loads(x) for x in runner.invoke(app, ["batch", str(evening)]).stdout.splitlines()]
    assert lines[0]["players"][0]["claim"] == 10 and "claim" not in lines[0]["players"][1]
