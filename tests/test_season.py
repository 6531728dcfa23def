"""The club's record (issue 30, items 1, 2 and 4): `mjscore season FILE...` over many evenings,
`mjscore session EVENING --stats` over one, `GET /api/stats`, and `mjscore.play_season`.

A small season of three evenings, written here, with every figure worked out by hand below.
Each evening settles `winner-only` without East's double, so every loser pays the winner's
score and a liable player pays three times it."""

import json
import os
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.evening import session as session_module
from mjscore.evening.season import BiggestHand, PlayerFigures
from mjscore.web.app import create_app

runner = CliRunner()
HEAD = "paying winner-only\neast-double off\n"

# Evening A: seats E Ann, S Bob, W Cid, N Dee.
#   1. Ann (E) self-drawn, 40: each pays 40: Ann +120, the others -40. Ann keeps the deal.
#   2. Bob (S) on Ann's discard, 20: Bob +60, the others -20; a penalty, Cid pays Dee 30. Ann
#      dealt it; the deal passes to Bob.
#   3. A draw (Bob deals): the deal passes to Cid.
#   4. Seats E Cid, S Dee, W Ann, N Bob: Dee (S) on Bob's discard, 30, Ann liable: Ann pays
#      all 90, Dee +90. Cid dealt it.
#   Won or lost: Ann 120-20-90 = +10, Bob -40+60 = +20, Cid -40-20-30 = -90, Dee -40-20+30+90 = +60.
A = ("players Ann Bob Cid Dee\n" + HEAD +
     "---\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n"
     "---\npenalty W 30 to N\nE: ...\nS: score 20 win from E\nW: ...\nN: ...\n"
     "---\ndraw\n"
     "---\nE: ...\nS: score 30 win from N liable W\nW: ...\nN: ...\n")

# Evening B, starting at 1000: seats E bob, S ANN, W Eve, N Cid (Bob and Ann spelt otherwise).
#   1. ANN (S) wins Thirteen Orphans on Eve's discard: the limit, 1000: ANN +3000, the others
#      -1000. bob dealt it; the deal passes to ANN.
#   2. ANN (E) self-drawn, 60: +180, the others -60; bob pays each 10 (a penalty): bob -30,
#      the others +10. ANN keeps the deal.
#   3. A draw (ANN deals).
#   Won or lost: ANN 3000+180+10 = +3190, bob -1000-60-30 = -1090, Eve -1000-60+10 = -1050,
#   Cid -1050.
B = ("players bob ANN Eve Cid\nstart 1000\n" + HEAD +
     "---\nE: ...\nS: 19m 19p 19s ESWN CFP 1m win 1m from W\nW: ...\nN: ...\n"
     "---\npenalty N 10\nE: score 60 win self\nS: ...\nW: ...\nN: ...\n"
     "---\ndraw\n")

# Evening C: seats E Ｄｅｅ (full-width: the header reads it as Dee, NFKC), S cid, W Ann, N Bob.
#   1. Dee (E) wins Thirteen Orphans self-drawn: 1000, Dee +3000, the others -1000; she keeps the deal.
#   2. Bob (N) on Ann's discard, 50: Bob +150, the others -50. Dee dealt it.
#   Won or lost: Dee 3000-50 = +2950, cid -1050, Ann -1050, Bob -1000+150 = -850.
C = ("players Ｄｅｅ cid Ann Bob\n" + HEAD +
     "---\nE: 19m 19p 19s ESWN CFP 1m win 1m self\nS: ...\nW: ...\nN: ...\n"
     "---\nE: ...\nS: ...\nW: ...\nN: score 50 win from W\n")

TO = "Thirteen Orphans"
# The season, by hand from the evenings above (the names as first met, in evening A):
#   name, evenings, hands, won or lost, won, self-drawn, on a discard, dealt, draws,
#   biggest hand, limit hands, penalties paid, received, paid for all.
FIGURES = [
    # Ann: wins A1 (self), B1 (discard), B2 (self); dealt A1 A2 B2 B3; draws A3 B3; liable in A4.
    ("Ann", 3, 9, 10 + 3190 - 1050, 3, 2, 1, 4, 2, ("b.mj", 1000, 1, TO), {TO: 1}, 0, 10, 1),
    # Bob: wins A2, C2 (both on a discard); dealt A3 B1; bob pays B2's penalty, 10 to each of three.
    ("Bob", 3, 9, 20 - 1090 - 850, 2, 0, 2, 2, 2, ("c.mj", 50, 2, None), {}, 30, 0, 0),
    # Cid: no win; dealt A4; pays A2's penalty (30), receives 10 of B2's.
    ("Cid", 3, 9, -90 - 1050 - 1050, 0, 0, 0, 1, 2, None, {}, 30, 10, 0),
    # Dee: wins A4 (discard), C1 (self); dealt C1 C2; draw A3; receives A2's penalty.
    ("Dee", 2, 6, 60 + 2950, 2, 1, 1, 2, 1, ("c.mj", 1000, 1, TO), {TO: 1}, 0, 30, 0),
    # Eve: evening B only: no win, no deal, the draw B3, 10 of B2's penalty.
    ("Eve", 1, 3, -1050, 0, 0, 0, 0, 1, None, {}, 0, 10, 0),
]
# Standings: Dee +3010, Ann +2150, Eve -1050, Bob -1920, Cid -2190; averages to the hundredth.
STANDINGS = [(1, "Dee", 3010, 1505.0, 501.67), (2, "Ann", 2150, 716.67, 238.89), (3, "Eve", -1050, -1050.0, -350.0),
             (4, "Bob", -1920, -640.0, -213.33), (5, "Cid", -2190, -730.0, -243.33)]


@pytest.fixture
def club(tmp_path, monkeypatch):
    """The three evenings in a folder of their own, the working folder."""
    for name, text in (("a.mj", A), ("b.mj", B), ("c.mj", C)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def season_json(*args, **env):
    r = runner.invoke(app, ["season", *args, "--format", "json"], env=env or None)
    return r.exit_code, json.loads(r.stdout), r.stderr


@pytest.mark.parametrize("row", FIGURES, ids=[f[0] for f in FIGURES])
def test_each_players_figures_as_worked_out_by_hand(club, row):
    name, *counts, big, limits, paid, received, liable = row
    season = mjscore.play_season(["a.mj", "b.mj", "c.mj"])
    biggest = BiggestHand(big[1], big[0], big[2], big[3]) if big else None
    # Each file given alone is a night of its own: her nights are her evenings.
    assert season.player(name) == PlayerFigures(name, *counts, biggest, limits, paid, received, liable, counts[0])


def test_the_standings_and_the_evenings(club):
    season = mjscore.play_season([Path("a.mj"), "b.mj", Path("c.mj")])
    assert [(s.place, s.name, s.won_or_lost, s.per_evening, s.per_hand) for s in season.standings] == STANDINGS
    assert [(e.file, e.hands, e.won_or_lost) for e in season.evenings] == [
        ("a.mj", 4, {"Ann": 10, "Bob": 20, "Cid": -90, "Dee": 60}),
        ("b.mj", 3, {"Bob": -1090, "Ann": 3190, "Eve": -1050, "Cid": -1050}),
        ("c.mj", 2, {"Dee": 2950, "Cid": -1050, "Ann": -1050, "Bob": -850})]
    assert season.hands == 9 and not season.errors and not season.left_out


@pytest.mark.parametrize("spellings,shown", [
    (("Ann", "ann"), "Ann"),
    (("ann", "ANN"), "ann"),              # the first spelling met is the one shown
    (("Ann", "Ａｎｎ"), "Ann"),            # full-width letters are the plain ones (NFKC) ...
    (("Ａｎｎ", "ａｎｎ"), "Ann"),          # ... as an evening's header writes them
    (("Zoë", "ZOE\u0308"), "Zoë"),       # composed or not, NFKC makes them one
])
def test_a_player_is_matched_by_name_across_evenings(tmp_path, spellings, shown):
    first, second = spellings
    for k, name in enumerate(spellings):
        (tmp_path / f"{k}.mj").write_text(f"players {name} Bob Cid Dee\n---\nE: score 10 win self\nS: ...\nW: ...\n"
                                          "N: ...\n", encoding="utf-8")
    season = mjscore.play_season([tmp_path])
    assert [p.name for p in season.players] == [shown, "Bob", "Cid", "Dee"]
    assert season.player(first) == season.player(second)
    assert season.player(second).evenings == 2 and season.player(second).hands_won == 2


@pytest.mark.usefixtures("unwrapped")
def test_a_bad_evening_is_reported_and_the_others_still_count(club):
    # Hand 2 of bad.mj (its lines 6-9) has a tile that is no tile: the evening is left out.
    Path("bad.mj").write_text("players Ann Bob Cid Dee\n---\nE: score 10 win self\nS: ...\nW: ...\nN: ...\n"
                              "---\nE: 12x win self\nS: ...\nW: ...\nN: ...\n")
    code, out, err = season_json("a.mj", "bad.mj", "missing.mj", "c.mj")
    assert code == 1
    assert err.splitlines() == ["bad.mj:8:4: error: '12x' is not a tile: 'x' is no suit (m p s, or c d b; z for "
                                "honours)", "missing.mj: error: no such file"]
    assert out["left_out"] == ["bad.mj", "missing.mj"]
    assert [e["file"] for e in out["evenings"]] == ["a.mj", "c.mj"]
    assert [(e["file"], e["line"]) for e in out["errors"]] == [("bad.mj", 8), ("missing.mj", 0)]
    ann = next(p for p in out["players"] if p["name"] == "Ann")
    assert (ann["evenings"], ann["won_or_lost"]) == (2, 10 - 1050)
    text = runner.invoke(app, ["season", "a.mj", "bad.mj"], env={"COLUMNS": "60"})
    assert text.exit_code == 1 and "1 evening left out (see the errors): bad.mj" in text.stdout


def test_a_folder_gives_its_evenings_in_name_order_and_passes_over_the_rest(club):
    os.mkdir("club")
    Path("club", "2024-02.mj").write_text(B)
    Path("club", "2024-01.mj").write_text(A)
    Path("club", "2024-03.yaml").write_text(mjscore.example("evening-session.yaml"))   # a YAML session
    Path("club", "house.yaml").write_text("scheme: house\nextends: classical\n")     # a scheme, no evening
    Path("club", "one-table.mj").write_text("E: score 10 win self\n")                # a table, no evening
    Path("club", "notes.txt").write_text("players\n")
    os.mkdir("club/older")
    Path("club/older/x.mj").write_text(A)                                            # sub-folders are not walked
    code, out, _ = season_json("club", "c.mj")
    assert code == 0
    assert [e["file"] for e in out["evenings"]] == [os.path.join("club", n) for n in ("2024-01.mj", "2024-02.mj",
                                                                                     "2024-03.yaml")] + ["c.mj"]


def test_every_format(club):
    code, out, _ = season_json(".")
    assert code == 0
    # The keys of issue 30 first and unchanged; the nights' (issue 42) after them.
    assert list(out) == ["evenings", "hands", "standings", "players", "left_out", "errors",
                         "nights", "stake", "stakes", "unstaked", "money"]
    assert list(out["standings"][0]) == ["place", "name", "evenings", "hands", "won_or_lost", "per_evening", "per_hand",
                                         "nights", "per_night"]
    assert list(out["players"][0]) == ["name", "evenings", "hands", "won_or_lost", "hands_won", "won_self_drawn",
                                       "won_on_discard", "dealt", "draws", "biggest_hand", "limit_hands",
                                       "penalties_paid", "penalties_received", "paid_for_all", "nights", "per_night"]
    assert out["players"][0]["biggest_hand"] == {"score": 1000, "file": "./c.mj", "hand": 1, "limit": TO}
    assert [p["name"] for p in out["players"]] == [s["name"] for s in out["standings"]] == [s[1] for s in STANDINGS]
    csv = runner.invoke(app, ["season", "a.mj", "b.mj", "c.mj", "--format", "csv"]).stdout.splitlines()
    assert csv[0] == ("place,name,evenings,hands,won_or_lost,per_evening,per_hand,hands_won,won_self_drawn,"
                      "won_on_discard,dealt,draws,biggest_hand,biggest_hand_limit,biggest_hand_file,"
                      "biggest_hand_number,limit_hands,penalties_paid,penalties_received,paid_for_all,"
                      "nights,per_night,money,night a,night b,night c")
    assert csv[1] == ("1,Dee,2,6,3010,1505.0,501.67,2,1,1,2,1,1000,Thirteen Orphans,c.mj,1,Thirteen Orphans 1,0,30,0,"
                      "2,1505.0,,60,,2950")
    assert csv[5] == "5,Cid,3,9,-2190,-730.0,-243.33,0,0,0,1,2,,,,,,30,10,0,3,-730.0,,-90,-1050,-1050"
    table = runner.invoke(app, ["season", "a.mj", "b.mj", "c.mj"], env={"COLUMNS": "60"}).stdout
    assert max(map(len, table.splitlines())) <= 60
    assert table.splitlines()[0] == "Season: 3 evenings, 9 hands, 5 players"
    assert "      1  Dee               +3010      +1505.00   +501.67" in table
    assert "  Dee: Thirteen Orphans 1" in table and "Ann            0          10               1" in table


def test_markdown_is_github_tables(club):
    md = runner.invoke(app, ["season", "a.mj", "b.mj", "c.mj", "--format", "markdown"]).stdout.splitlines()
    at = md.index("Standings")
    assert md[at + 1:at + 4] == ["|   place | player   |   won or lost |   an evening |   a hand |",
                                 "|---------|----------|---------------|--------------|----------|",
                                 "|       1 | Dee      |         +3010 |     +1505.00 |  +501.67 |"]
    assert "| Dee      | 1000    | Thirteen Orphans | c.mj      | 1      |" in md
    assert "| Eve      |         | no hand won      |           |        |" in md
    assert all(line.endswith("|") for line in md if line.startswith("|"))


def test_the_chart_draws_each_players_season_total(club):
    r = runner.invoke(app, ["season", "a.mj", "b.mj", "c.mj", "--chart"], env={"COLUMNS": "60"})
    assert r.exit_code == 0
    chart = r.stdout.split("Season totals", 1)[1]
    assert "evening" in chart and all(name in chart for name in ("Ann", "Bob", "Cid", "Dee", "Eve"))
    assert "\x1b" not in chart and max(map(len, chart.splitlines())) <= 60
    assert runner.invoke(app, ["season", "a.mj", "--chart", "--format", "json"]).exit_code == 2


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown"])
def test_session_stats_is_the_season_of_that_one_evening(club, fmt):
    for evening in ("a.mj", "b.mj", "c.mj"):
        stats = runner.invoke(app, ["session", evening, "--stats", "--format", fmt], env={"COLUMNS": "60"})
        season = runner.invoke(app, ["season", evening, "--format", fmt], env={"COLUMNS": "60"})
        assert stats.exit_code == season.exit_code == 0
        assert stats.stdout == season.stdout
    one = json.loads(runner.invoke(app, ["session", "b.mj", "--stats", "--format", "json"]).stdout)
    ann = one["players"][0]
    assert (ann["name"], ann["won_or_lost"], ann["hands_won"], ann["limit_hands"]) == ("ANN", 3190, 2, {TO: 1})


def test_session_stats_goes_with_neither_hand_nor_chart(club):
    assert runner.invoke(app, ["session", "a.mj", "--stats", "--hand", "1"]).exit_code == 2
    assert runner.invoke(app, ["session", "a.mj", "--stats", "--chart"]).exit_code == 2


def test_the_page_api_gives_the_evenings_figures(club):
    token = "s" * 32
    client = TestClient(create_app(str(club / "a.mj"), token), base_url="http://127.0.0.1")
    r = client.get("/api/stats", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    # What `session --stats --format json` prints in the evening's folder (no folder named).
    assert r.json() == json.loads(runner.invoke(app, ["session", "a.mj", "--stats", "--format", "json"]).stdout)
    assert r.json()["players"][0]["name"] == "Dee"
    assert client.get("/api/stats").status_code == 401


def test_a_second_season_reads_the_evenings_checkpoints(club, monkeypatch):
    first = mjscore.play_season([club]).to_dict()
    scored = []
    real = session_module.evaluate
    monkeypatch.setattr(session_module, "evaluate", lambda *a, **k: scored.append(1) or real(*a, **k))
    assert mjscore.play_season([club]).to_dict() == first
    assert scored == []                            # every hand read back, none scored again


def test_the_api_takes_a_list_of_paths():
    with pytest.raises(TypeError, match="list of evening files"):
        mjscore.play_season("a.mj")


# -- the season's won or lost is each evening's, summed ----------------------------------------

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@st.composite
def evenings(draw):
    """An evening's text: four of six players (each written in any case), a start, some
    counted hands (a winner self-drawn or on a discard, losers' scores, now and then a draw or a
    penalty), under one of the paying methods."""
    players = draw(st.permutations(NAMES))[:4]
    written = [draw(st.sampled_from([n, n.lower(), n.upper()])) for n in players]
    start = draw(st.sampled_from([0, 1000, 2000]))
    paying = draw(st.sampled_from(["between-all", "winner-only", "add-up"]))
    hands = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 5)) == 0:
            hands.append("draw")
            continue
        winner = draw(st.sampled_from("ESWN"))
        how = draw(st.sampled_from(["self"] + [f"from {s}" for s in "ESWN" if s != winner]))
        lines = [f"{s}: score {draw(st.integers(0, 60))}" + (f" win {how}" if s == winner else "") for s in "ESWN"]
        if draw(st.booleans()):
            lines.insert(0, f"penalty {draw(st.sampled_from('ESWN'))} {draw(st.integers(1, 50))}")
        hands.append("\n".join(lines))
    return f"players {' '.join(written)}\nstart {start}\npaying {paying}\n---\n" + "\n---\n".join(hands) + "\n"


@settings(max_examples=25, deadline=None)
@given(st.lists(evenings(), min_size=1, max_size=4))
def test_the_seasons_won_or_lost_is_the_sum_of_each_evenings_totals_less_its_start(texts):
    with tempfile.TemporaryDirectory() as tmp:
        season_and_evenings(Path(tmp), texts)


def season_and_evenings(folder, texts):
    paths = []
    for k, text in enumerate(texts):
        paths.append(folder / f"{k:02}.mj")
        paths[-1].write_text(text)
    season = mjscore.play_season([folder])
    expected: dict[str, int] = {}
    hands = 0
    for path in paths:
        evening = mjscore.play_session(path)
        hands += len(evening.hands)
        for name in evening.players:
            key = name.casefold()
            expected[key] = expected.get(key, 0) + evening.totals[name] - evening.start
    assert {p.name.casefold(): p.won_or_lost for p in season.players} == expected
    assert season.hands == hands == sum(p.hands for p in season.players) // 4
