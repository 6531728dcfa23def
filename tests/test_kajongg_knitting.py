"""Issue 39, items 1 and 5: every hand string Kajongg writes is read, the knitted sets of BMJA's
Knitting and Triple Knitting among them (and the single tiles of the Thirteen Unique Wonders); a
hand string that cannot be read costs that hand (named, with why), never the database; what the
importer's report says.

The hand strings below are Kajongg's own: from the games its robots played (tests/data/README.md
says how each database was made) and from its scoring tests (src/scoringtest.py in the
KDE/kajongg repository, commit 469a588b3c93c2d2ee2455c71211f23ccb59e516).  Kajongg's figures are
read straight from the databases with sqlite3, not through mjscore's reader.
"""

import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.io.kajongg_db import parse_hand_string

DATA = Path(__file__).resolve().parent / "data"
runner = CliRunner()

# Kajongg's `Meld` (src/tile.py, `Meld.__setMeldType`, lines 812-820 and 829-836) reads a
# two-tile set of one number in two suits, and a three-tile set of one number in the three suits,
# each all of one case, as a knitted set: `isKnitted`.  BMJA's Knitting is seven knitted pairs in
# two suits and Triple Knitting four knitted triples and a knitted pair (src/rulecode.py,
# `Knitting`, `TripleKnitting`), and Kajongg writes the winner's hand as those sets.
# Each: the hand string, where it comes from, the sets read (as mjscore's tiles), the last tile,
# the set it completed.
READ = [
    ("s5c5 ye S3C3 S4C4 S5C5 S5C5 S6C6 S8C8 md Lc5s5c5",
     "tests/data/kajongg-knitting.db, game 1, Kajongg's hand 4: Tester's Knitting; Kajongg scored it 500",
     ["5p5m", "3p3m", "4p4m", "5p5m", "5p5m", "6p6m", "8p8m"], "5m", "5p5m"),
    ("s9b9 yw S3B3 S4B4 S5B5 S6B6 S7B7 S7B7 md Lb9s9b9",
     "issue 39: the hand a robot-played game held, which the importer refused whole",
     ["9p9s", "3p3s", "4p4s", "5p5s", "6p6s", "7p7s", "7p7s"], "9s", "9p9s"),
    ("s8c8 fe ye ys S7B7C7 S8B8C8 S8B8C8 S9B9C9 md Ls8s8c8",
     "tests/data/kajongg-triple-knitting.db, game 1, Kajongg's hand 13: Robot 2's Triple Knitting",
     ["8p8m", "7p7s7m", "8p8s8m", "8p8s8m", "9p9s9m"], "8p", "8p8m"),
    ("s5b5c5 fe fw S1B1C1 S1B1 S2B2C2 S6B6C6 md Lc5s5b5c5",
     "a robot-played game not kept here (Classical Chinese BMJA, seed 194), Kajongg's hand 13: Robot 2's "
     "Triple Knitting, won on a 5m that completed a knitted triple; Kajongg scored it 500",
     ["5p5s5m", "1p1s1m", "1p1s", "2p2s2m", "6p6s6m"], "5m", "5p5s5m"),
    # Not knitting, found while trying seeds for it: the Thirteen Unique Wonders, which Kajongg
    # writes as single tiles and a pair (src/rulecode.py, ThirteenOrphans.rearrange), the set the
    # last tile completed a single (ThirteenOrphans.computeLastMelds).
    ("s1 fe fs fw fn yw yn Db Dg Dr We Ws Ww Wn S9 B1 B9 C1C1 C9 md Ls1s1",
     "a robot-played game not kept here (Classical Chinese BMJA, seed 116), Kajongg's hand 21: Robot 1's "
     "Thirteen Unique Wonders on a discarded 1p; Kajongg scored it 1000",
     ["1p", "P", "F", "C", "E", "S", "W", "N", "9p", "1s", "9s", "1m1m", "9m"], "1p", "1p"),
    ("fs yw Db DgDg Dr We Ws Ww Wn S1 S9 B1 B9 C1 C9 mw LWeWe",
     "a robot-played game not kept here (Classical Chinese BMJA, seed 196), Kajongg's hand 8: Robot 3's "
     "Thirteen Unique Wonders, self-drawn; Kajongg scored it 1000",
     ["P", "FF", "C", "E", "S", "W", "N", "1p", "9p", "1s", "9s", "1m", "9m"], "E", "E"),
    ("RS2B2S3B3S4B4S5B5S6B6S7B7 s9b9 Ls9s9b9", "src/scoringtest.py line 854, Knitting.testMe",
     ["9p9s"], "9p", "9p9s"),
    ("RS2B2C2S4B4C4S6B6C6S7B7C7 s8b8 Ls8s8b8", "src/scoringtest.py line 811, TripleKnitting.testMe",
     ["8p8s"], "8p", "8p8s"),
    ("RS2B2C2S6B6C6S7B7C7 s4b4c4 s8b8 Ls8s8b8", "src/scoringtest.py line 826, TripleKnitting.testMe",
     ["4p4s4m", "8p8s"], "8p", "8p8s"),
    ("RS2B2S3B3S4B4S5B5S6B6S7B7 s9c9 Ls9s9c9", "src/scoringtest.py line 861 (c9 after s9)",
     ["9p9m"], "9p", "9p9m"),
]

# Sets Kajongg's `Meld` does not read (src/tile.py, `Meld.__setMeldType`: "is malformed").
REFUSED = [
    ("s9S9", "a knitted pair of two cases (`self.case[0] == self.case[1]`)"),
    ("S3B3c3", "a knitted triple of two cases (`self.case in ('aaa', 'AAA')`)"),
    ("S3B3S3", "two tiles of one suit and one of another"),
    ("S3B4", "two suits, two numbers"),
    ("S3S4", "one suit, two numbers: no set"),
    ("WeWs", "winds are not of a suit (`x.lowerGroup in Tile.colors`)"),
    ("S3B3C3S3", "four tiles that are not one tile"),
]


def tiles_of(meld):
    return "".join(t.text for t in meld.tiles)


@pytest.mark.parametrize("text, source, sets, last, completed", READ)
def test_the_hand_strings_kajongg_writes_are_read(text, source, sets, last, completed):
    kh = parse_hand_string(text)
    assert [tiles_of(m) for m in kh.melds] == sets, source
    assert kh.last is not None and kh.last.text == last and kh.last_meld is not None
    assert tiles_of(kh.last_meld) == completed


@pytest.mark.parametrize("word, why", REFUSED)
def test_a_set_kajongg_s_meld_refuses_is_refused_with_the_word(word, why):
    with pytest.raises(ValueError, match=f"'{word}' is not a set Kajongg writes"):
        parse_hand_string(f"{word} RS1S1")


def one_error(args):
    result = runner.invoke(app, ["import", "kajongg", *map(str, args)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr.strip()


def test_an_sqlite_error_that_quotes_a_byte_that_is_not_utf8_is_not_a_kajongg_database(tmp_path):
    """A broken schema whose table name holds the byte 0xff: SQLite's error quotes the name, and
    Python's decoding of that error fails (UnicodeDecodeError, not sqlite3.Error)."""
    db = tmp_path / "broken.db"
    shutil.copyfile(DATA / "kajongg-dmjl-3.db", db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA writable_schema = ON")
    con.execute("INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) VALUES ('table', "
                "CAST(X'6EFF' AS TEXT), CAST(X'6EFF' AS TEXT), 0, 'CREATE TABLE x(')")
    con.commit()
    con.close()
    assert one_error([db, "-o", tmp_path / "out"]) == (
        f"{db}: error: not a Kajongg database: SQLite cannot read it (its error quotes a byte that is not "
        "UTF-8 text)")
    assert not (tmp_path / "out").exists()


def stored(db, game=1):
    """Kajongg's final balances, by the evening's names."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT p.name, s.balance FROM score s JOIN player p ON p.id = s.player WHERE "
                           "s.game = ? AND s.penalty = 0 AND s.hand = (SELECT max(hand) FROM score WHERE game = ?)",
                           (game, game)).fetchall()
    finally:
        con.close()
    return {n.replace(" ", "_"): b for n, b in rows}


@pytest.mark.parametrize("data, why", [
    ("b1b2b3 Qx", "'Qx' is not a tile"),
    ("b1b2b4 RS1S1 mw", "'b1b2b4' is not a set Kajongg writes (a single tile, pair, pung, kong, chow or "
                        "knitted set)"),
    ("s9S9 RS1S1 mw", "'s9S9' is not a set Kajongg writes"),
    ("RS1 RS2 mw", "'RS2': a second R word"),
])
def test_a_loser_s_hand_string_that_cannot_be_read_costs_that_hand_never_the_database(tmp_path, data, why):
    """tests/data/kajongg-dmjl-3.db, Kajongg's hand 4 (the evening's hand 5): Robot 1 won; West's
    string spoiled.  The hand is named with why; West's line carries the score Kajongg stored,
    so the payments and every balance after it are still Kajongg's."""
    db = tmp_path / "spoiled.db"
    shutil.copyfile(DATA / "kajongg-dmjl-3.db", db)
    con = sqlite3.connect(db)
    (who, points), = con.execute("SELECT p.name, s.points FROM score s JOIN player p ON p.id = s.player "
                                 "WHERE s.hand = 4 AND s.wind = 'W'").fetchall()
    con.execute("UPDATE score SET data = ? WHERE hand = 4 AND wind = 'W'", (data,))
    con.commit()
    con.close()
    result = runner.invoke(app, ["import", "kajongg", str(db), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    name = who.replace(" ", "_")
    out = result.stdout.replace("\n    ", " ")         # the report wraps long lines
    assert "session agrees with Kajongg on 25 of 27 hands; 1 not read (each named below)" in out
    assert f"hand 5 (Kajongg's hand 4) not read: {name}'s hand '{data}' is not a hand string Kajongg " \
           f"writes: {why}" in out
    [g] = mjscore.import_kajongg(db).games
    [u] = g.check.unread
    assert (u.hand, u.kajongg_hand, u.players) == (5, 4, (name,))
    assert u.why.endswith("the file gives Kajongg's score for it")
    hand5 = g.text.split("\n---\n")[5]
    assert f"W: score {points}" in hand5.splitlines() and "# not read:" in hand5
    assert [d.hand for d in g.check.departures] == [10]          # the robbed kong, as before
    assert g.check.totals == mjscore.import_kajongg(DATA / "kajongg-dmjl-3.db").games[0].check.totals


def test_a_winner_s_hand_string_that_cannot_be_read_costs_that_hand(tmp_path):
    """The winner's tiles not read (Kajongg's hand 4 of kajongg-dmjl-3.db, Robot 1's win): the
    line is `score N win ...`, how the tile came taken from the string's `m` word, and no set."""
    db = tmp_path / "spoiled.db"
    shutil.copyfile(DATA / "kajongg-dmjl-3.db", db)
    con = sqlite3.connect(db)
    (seat, data, points), = con.execute("SELECT wind, data, points FROM score WHERE hand = 4 AND won = 1").fetchall()
    spoiled = data.replace(data.split()[0], "b1b2b4", 1)
    con.execute("UPDATE score SET data = ? WHERE hand = 4 AND won = 1", (spoiled,))
    con.commit()
    con.close()
    [g] = mjscore.import_kajongg(db).games
    [u] = g.check.unread
    assert u.kajongg_hand == 4 and "'b1b2b4' is not a set Kajongg writes" in u.why
    line = next(ln for ln in g.text.split("\n---\n")[5].splitlines() if ln.startswith(f"{seat}:"))
    assert line.startswith(f"{seat}: score {points} win ")
    assert g.check.agreeing == 25 and [d.hand for d in g.check.departures] == [10]
    assert mjscore.play_session(g.text).totals == g.check.totals


def test_every_hand_unread_still_imports_and_says_so(tmp_path):
    db = tmp_path / "spoiled.db"
    shutil.copyfile(DATA / "kajongg-bmja-4.db", db)
    con = sqlite3.connect(db)
    con.execute("UPDATE score SET data = 'Qx'")
    con.commit()
    con.close()
    [g] = mjscore.import_kajongg(db).games
    assert g.check.agreeing == 0 and len(g.check.unread) == g.check.hands == 41
    assert not g.check.errors and g.check.totals == stored(db)


def test_the_triple_knitting_win_of_a_robot_played_game_scores_as_kajongg_scored_it():
    """tests/data/kajongg-triple-knitting.db (Classical Chinese BMJA, seed 104), Kajongg's hand
    13: Robot 2 (North) won with 's8c8 fe ye ys S7B7C7 S8B8C8 S8B8C8 S9B9C9 md Ls8s8c8', which
    Kajongg scored 500 (`manualrules` 'Flower||Season||Season||Triple Knitting||No Chow'); before
    issue 39 the importer refused the whole database at this hand."""
    db = DATA / "kajongg-triple-knitting.db"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = dict(con.execute("SELECT wind, points FROM score WHERE hand = 13").fetchall())
        (rules,), = con.execute("SELECT manualrules FROM score WHERE hand = 13 AND won = 1").fetchall()
    finally:
        con.close()
    assert rows["N"] == 500 and "Triple Knitting" in rules.split("||")
    [g] = mjscore.import_kajongg(db).games
    assert not g.check.unread and 14 not in [d.hand for d in g.check.departures]
    hand = g.text.split("\n---\n")[14].splitlines()
    assert "N: 8p8m 7p7s7m 8p8s8m 8p8s8m 9p9s9m 1f 1y 2y win 8p from W unrecorded" in hand
    played = mjscore.play_session(g.text).hands[13].result
    assert {s.letter: played.player(s).score for s in mjscore.Wind} == rows
    best = played.player(mjscore.Wind.NORTH).best
    assert best.shape == "triple-knitting" and best.limit_rule is not None and best.limit_rule.text == "Triple Knitting"


# Kajongg's own score for each winning hand string, from its engine (src/hand.py `Hand`, under
# the rule set of src/predefined.py `ClassicalChineseBMJA`, East's round, the winner at East):
# the hand string, the evening's line for it, Kajongg's total, the limit hand it names.
KAJONGG_SCORED = [
    ("s9b9 yw S3B3 S4B4 S5B5 S6B6 S7B7 S7B7 md Lb9s9b9",
     "9p9s 3p3s 4p4s 5p5s 6p6s 7p7s 7p7s 3y win 9s from N unrecorded", 500, "Knitting"),
    ("s8c8 fe ye ys S7B7C7 S8B8C8 S8B8C8 S9B9C9 md Ls8s8c8",
     "8p8m 7p7s7m 8p8s8m 8p8s8m 9p9s9m 1f 1y 2y win 8p from N unrecorded", 500, "Triple Knitting"),
    ("s5b5c5 fe fw S1B1C1 S1B1 S2B2C2 S6B6C6 md Lc5s5b5c5",
     "5p5s5m 1p1s1m 1p1s 2p2s2m 6p6s6m 1f 3f win 5m from N unrecorded", 500, "Triple Knitting"),
    ("s1 fe fs fw fn yw yn Db Dg Dr We Ws Ww Wn S9 B1 B9 C1C1 C9 md Ls1s1",
     "1p P F C E S W N 9p 1s 9s 11m 9m 1f 2f 3f 4f 3y 4y win 1p from N unrecorded", 1000, "The 13 Unique Wonders"),
    ("fs yw Db DgDg Dr We Ws Ww Wn S1 S9 B1 B9 C1 C9 mw LWeWe",
     "P FF C E S W N 1p 9p 1s 9s 1m 9m 2f 3y win E self", 1000, "The 13 Unique Wonders"),
]


@pytest.mark.parametrize("data, line, total, limit", KAJONGG_SCORED)
def test_a_winner_s_string_becomes_the_line_that_scores_as_kajongg_scores_it(data, line, total, limit):
    """The evening's line for each winning string, and its score under kajongg-bmja: Kajongg's."""
    from mjscore.evening.kajongg import evening_of
    from mjscore.io.kajongg_db import KajonggGame, KajonggHand, KajonggRow

    winds = list(mjscore.Wind)
    loser = "RS1S1S1B2B2B2C3C3C3WeWeWsWs mw"
    rows = tuple(KajonggRow(player=k + 1, wind=w, won=k == 0, points=total if k == 0 else 0, payments=0,
                            balance=0, data=data if k == 0 else loser, rules=()) for k, w in enumerate(winds))
    game = KajonggGame(1, "1", "", None, "Classical Chinese BMJA", tuple((k + 1, f"P{k + 1}") for k in range(4)),
                       (KajonggHand(0, mjscore.Wind.EAST, 0, 0, rows),))
    evening = evening_of(game, "in-memory.db")
    assert not evening.hands[0].unread
    assert f"E: {line}" in evening.text.splitlines()
    result = mjscore.score(f"round E\nE: {line}\n", scheme="kajongg-bmja")
    best = result.player(mjscore.Wind.EAST).best
    assert best.score == total and best.limit_rule is not None and best.limit_rule.text == limit


def test_the_knitting_win_of_a_robot_played_game_scores_as_kajongg_scored_it():
    """tests/data/kajongg-knitting.db (Classical Chinese BMJA, seed 217), Kajongg's hand 4:
    Tester (West) won with 's5c5 ye S3C3 S4C4 S5C5 S5C5 S6C6 S8C8 md Lc5s5c5', which Kajongg
    scored 500 (`manualrules` 'Season||Knitting||No Chow'); before issue 39 the importer refused
    the whole database at this hand."""
    db = DATA / "kajongg-knitting.db"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = dict(con.execute("SELECT wind, points FROM score WHERE hand = 4").fetchall())
        (rules,), = con.execute("SELECT manualrules FROM score WHERE hand = 4 AND won = 1").fetchall()
    finally:
        con.close()
    assert rows["W"] == 500 and "Knitting" in rules.split("||")
    [g] = mjscore.import_kajongg(db).games
    assert not g.check.unread and not g.check.departures and g.check.agreeing == g.check.hands == 32
    assert g.check.balances_agree and g.check.totals == stored(db)
    hand = g.text.split("\n---\n")[5].splitlines()
    assert "W: 5p5m 3p3m 4p4m 5p5m 5p5m 6p6m 8p8m 1y win 5m from S unrecorded" in hand
    played = mjscore.play_session(g.text).hands[4].result
    assert {s.letter: played.player(s).score for s in mjscore.Wind} == rows
    best = played.player(mjscore.Wind.WEST).best
    assert best.shape == "knitting" and best.limit_rule is not None and best.limit_rule.text == "Knitting"
