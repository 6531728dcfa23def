"""Seats change between rounds where the rules say so (issue 22, item 9): the rotation setting
`seat_change`, `kajongg` as Kajongg's game exchanges seats at each new round (src/game.py,
`rotateWinds` and `__exchangeSeats`), `none` elsewhere, as each scheme's sources say
(docs/rules.md, "The deal").

The seating below is Kajongg's own: its PlayingGame, given the same results hand by hand, seats
the players so (Ann, Bob, Cid, Dee at East, South, West, North at the first hand).
"""

import json

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.evening.session import play
from mjscore.io.sessionfile import read_session
from mjscore.model.settings import SeatChange
from mjscore.model.tiles import SEATS

runner = CliRunner()

# Who won each hand (by seat) or D for a draw: four rounds with extra hands and draws (a draw does
# not pass the deal in DMJL).
RESULTS = ["E", "S", "D", "W", "N", "S", "E", "W", "S", "N", "D", "E",
           "S", "N", "W", "E", "S", "S", "W", "E", "N", "S", "W"]
# Kajongg's seating of each hand: the prevailing wind, then the initials at E S W N.
KAJONGG = [
    "E ABCD", "E ABCD", "E BCDA", "E BCDA", "E CDAB", "E DABC",
    "S DCBA", "S DCBA", "S CBAD", "S BADC", "S ADCB", "S ADCB", "S ADCB",
    "W CDBA", "W DBAC", "W BACD", "W BACD", "W ACDB",
    "N BDCA", "N DCAB", "N DCAB", "N CABD", "N ABDC",
]
# Without the exchange, only the deal moves round the table.
FIXED = [
    "E ABCD", "E ABCD", "E BCDA", "E BCDA", "E CDAB", "E DABC",
    "S ABCD", "S ABCD", "S BCDA", "S CDAB", "S DABC", "S DABC", "S DABC",
    "W ABCD", "W BCDA", "W CDAB", "W CDAB", "W DABC",
    "N ABCD", "N BCDA", "N BCDA", "N CDAB", "N DABC",
]


def game(results=RESULTS, header="scheme kajongg-dmjl\n"):
    """An evening of counted scores with these results."""
    hands = []
    for n, result in enumerate(results, start=1):
        if result == "D":
            hands.append("draw\n")
            continue
        hands.append("".join(f"{s}: score {20 + 2 * n} win self\n" if s == result
                             else f"{s}: score {(7 * n + 5 * k) % 30}\n"
                             for k, s in enumerate("ESWN")))
    return "players Ann Bob Cid Dee\n" + header + "".join("---\n" + h for h in hands)


def seating(result):
    return [f"{h.result.table.round.value} {''.join(h.names[w][0] for w in SEATS)}" for h in result.hands]


@pytest.mark.parametrize("scheme,expected", [
    ("kajongg-dmjl", KAJONGG),
    ("kajongg-bmja", KAJONGG),
    ("dmjl", KAJONGG),
    ("bmja", FIXED),
])
def test_a_four_round_game_seats_the_players_as_the_scheme_says(scheme, expected):
    r = play(read_session(game(header=f"scheme {scheme}\n"), "<game>"))
    assert seating(r) == expected
    assert [h.dealer for h in r.hands] == [{"A": "Ann", "B": "Bob", "C": "Cid", "D": "Dee"}[s.split()[1][0]]
                                           for s in expected]


@pytest.mark.parametrize("scheme,change", [
    ("classical", SeatChange.NONE), ("dmjl", SeatChange.KAJONGG), ("bmja", SeatChange.NONE),
    ("kajongg-dmjl", SeatChange.KAJONGG), ("kajongg-bmja", SeatChange.KAJONGG), ("babcock", SeatChange.NONE),
    ("millington", SeatChange.NONE), ("european-classical", SeatChange.NONE), ("chinese-classical", SeatChange.NONE),
])
def test_each_scheme_says_whether_the_seats_change(scheme, change):
    assert mjscore.load_scheme(scheme).rotation.seat_change is change


def test_a_session_header_or_the_command_line_says_otherwise():
    assert seating(play(read_session(game(header="scheme kajongg-dmjl\nseat-change none\n"), "<game>"))) == FIXED
    assert seating(play(read_session(game(header="scheme bmja\nseat-change kajongg\n"), "<game>"))) == KAJONGG
    assert seating(play(read_session(game(), "<game>"), given={"seat_change": SeatChange.NONE})) == FIXED
    assert seating(mjscore.play_session(game(), seat_change="none")) == FIXED


@pytest.mark.usefixtures("unwrapped")
def test_next_says_when_the_seats_change(tmp_path):
    path = tmp_path / "game.mj"
    path.write_text(game(RESULTS[:6]))             # the East round, played out
    out = runner.invoke(app, ["session", str(path)]).stdout
    assert ("Next: Hand 7: Dee deals, South round (new round: Cid and Bob swap chairs, "
            "Dee and Ann swap chairs: Dee E, Cid S, Bob W, Ann N)" in out)
    nxt = json.loads(runner.invoke(app, ["session", str(path), "--format", "json"]).stdout)["next"]
    assert nxt["seats"] == {"E": "Dee", "S": "Cid", "W": "Bob", "N": "Ann"} and nxt["seats_change"] is True
    assert nxt["moves"] == "New round: Cid and Bob swap chairs; Dee and Ann swap chairs"     # what the page shows
    out = runner.invoke(app, ["session", str(path), "--seat-change", "none"]).stdout
    assert "Next: Hand 7: Ann deals, South round\n" in out
    # The hand after: the seats stand as changed, and Next says nothing more of them.
    added = runner.invoke(app, ["add", str(path), "-e", "E: score 30 win self; S: score 0; W: score 0; N: score 0"])
    assert "Hand 7: Dee deals, South round." in added.stdout
    assert ("Next: Hand 8: Dee deals, South round (Dee deals again: East's win keeps the deal, extra hand 1)\n"
            in added.stdout)
    undone = runner.invoke(app, ["undo", str(path)]).stdout
    assert ("Next: Hand 7: Dee deals, South round (new round: Cid and Bob swap chairs, "
            "Dee and Ann swap chairs: Dee E, Cid S, Bob W, Ann N)" in undone)


def test_a_hand_that_names_its_players_is_checked_against_the_changed_seats(tmp_path):
    hands = game(RESULTS[:6]).split("---\n")[1:]
    named = ("  - players:\n      E: {name: %s, tiles: score 30, win: self}\n      S: {name: %s, tiles: score 0}\n"
             "      W: {name: %s, tiles: score 0}\n      N: {name: %s, tiles: score 0}\n")
    text = ("players: [Ann, Bob, Cid, Dee]\nscheme: kajongg-dmjl\nhands:\n"
            + "".join("  - |\n" + "".join(f"    {line}\n" for line in h.splitlines()) for h in hands))
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(text + named % ("Dee", "Cid", "Bob", "Ann"))
    assert mjscore.play_session(good).hands[-1].dealer == "Dee"
    bad.write_text(text + named % ("Ann", "Bob", "Cid", "Dee"))      # the seats as they were
    with pytest.raises(mjscore.MjError, match="hand 7 seats Ann at E, but by the rotation Dee sits there"):
        mjscore.play_session(bad)


def test_next_says_why_the_dealer_deals_again(tmp_path):
    """A draw keeps the deal (under bmja), and so does East's win: Next says which."""
    path = tmp_path / "ev.mj"
    path.write_text("players Ann Bob Cid Dee\nscheme bmja\n---\ndraw\n")
    nxt = json.loads(runner.invoke(app, ["session", str(path), "--format", "json"]).stdout)["next"]
    assert nxt["kept"] == "Ann deals again: the draw keeps the deal" and nxt["moves"] is None
    assert nxt["text"] == "Next: Hand 2: Ann deals, East round (Ann deals again: the draw keeps the deal, extra hand 1)"
