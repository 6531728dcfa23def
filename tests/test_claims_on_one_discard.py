"""Two or three players going out on one discard (issue 22, item 4): the tile goes to the first of
them in turn after the discarder who may take it; a player barred by a sacred discard (`discarded`)
is passed over; the others are scored as losers without the tile, and the `Ruling:` line says so.
"""

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.model.errors import WinClauseError

S = "S: 123m 456m 789m 345p 99s win 5p from E"
W = "W: 123s 456s 789s EEE 55p win 5p from E"
N = "N: 111p 222p 333p 44p 567p win 5p from E"
SACRED = " discarded 5p"


@pytest.mark.parametrize("table,winner,scores,nets,ruling", [
    # South's turn comes first, but she discarded 5p since her last draw: West takes it.
    (f"E: ...; {S}{SACRED}; {W}; N: ...", "W", [0, 0, 60, 0], {"E": -120, "S": -60, "W": 240, "N": -60},
     "S and W both go out on E's discard of 5p: S may not take it, having discarded 5p since her last draw "
     "(a sacred discard), so W takes it, being next in turn after E who may; S is scored as a loser without it"),
    # Three on one discard: South, next in turn; West and North keep their hands without the tile.
    (f"E: ...; {S}; {W}; {N}", "S", [0, 20, 16, 16], {"E": -104, "S": 80, "W": 12, "N": 12},
     "S, W and N all go out on E's discard of 5p: S takes it, being next in turn after E; W and N are scored as "
     "losers without it"),
    # Three, South barred: West, next in turn who may.
    (f"E: ...; {S}{SACRED}; {W}; {N}", "W", [0, 0, 60, 16], {"E": -152, "S": -76, "W": 240, "N": -12},
     "S, W and N all go out on E's discard of 5p: S may not take it, having discarded 5p since her last draw "
     "(a sacred discard), so W takes it, being next in turn after E who may; S and N are scored as losers "
     "without it"),
    # Two with the barred player later in turn: the first in turn takes it as ever.
    (f"E: ...; S: ...; {W}; {N}{SACRED.replace('5p', '6p')}", "W", [0, 0, 60, 16],
     {"E": -152, "S": -76, "W": 240, "N": -12},
     "W and N both go out on E's discard of 5p: W takes it, being next in turn after E; N is scored as a loser "
     "without it"),
])
def test_the_first_in_turn_who_may_take_the_discard_goes_out(table, winner, scores, nets, ruling):
    r = mjscore.score(table)
    assert r.winner.value == winner
    assert [p.score for p in r.players] == scores
    assert {s.value: n for s, n in r.net.items()} == nets
    assert r.ruling == ruling and r.to_dict()["ruling"] == ruling


@pytest.mark.usefixtures("unwrapped")
def test_the_ruling_line_says_what_happened():
    out = CliRunner().invoke(app, ["score", "-e", f"E: ...; {S}{SACRED}; {W}; N: ..."]).stdout
    assert "Winner: West, 5p on East's discard" in out
    assert "Ruling: S and W both go out on E's discard of 5p: S may not take it" in out


def test_when_every_claimant_is_barred_the_sacred_discard_is_refused():
    with pytest.raises(WinClauseError, match="sacred discard: S and N each discarded 5p since their last draw"):
        mjscore.score(f"E: ...; {S}{SACRED}; W: ...; {N}{SACRED}")
    with pytest.raises(WinClauseError, match="sacred discard: S discarded 5p since her last draw"):
        mjscore.score(f"E: ...; {S}{SACRED}; W: ...; N: ...")


@pytest.mark.parametrize("table", [
    f"E: ...; {S}; W: 123s 456s 789s EEE 55p win 5p self; N: ...",           # one self-drawn
    f"E: ...; {S}; W: 123s 456s 789s EEE 55p win 5p from N; N: ...",         # another discarder
])
def test_winners_on_different_tiles_are_still_refused(table):
    with pytest.raises(WinClauseError, match="two winners at one table"):
        mjscore.score(table)
