"""When a way of winning is possible, and how a counted score meets the limit.

docs/rules.md, "When a way of winning is possible" and "The limit"; the rulings issue's items
say which figures each case checks (issue 22: items 1 and 2, and item 3, robbing a kong made
from a concealed pung).
"""

import pytest

import mjscore
from mjscore.model.errors import WinClauseError

LOSERS = "S: score 0; W: score 0; N: score 0"


# A counted score is held to the limit --------------------------------------------------------

@pytest.mark.parametrize("scheme,counted,held,net_east", [
    ("classical", 1500, 1000, 6000),         # limit 1000: as if 1500 were 1000 (not +9000)
    ("classical", 35840, 1000, 6000),        # Sontag's hand under classical's limit
    ("classical", 1000, 1000, 6000),         # at the limit: unchanged
    ("classical", 999, 999, 5994),
    ("dmjl", 600, 500, 3000),
    ("babcock", 400, 300, 1800),
])
def test_a_counted_score_is_held_to_the_limit(scheme, counted, held, net_east):
    r = mjscore.score(f"E: score {counted} win self; {LOSERS}", scheme=scheme)
    east = r.player("E")
    assert (east.points, east.score) == (counted, held)
    assert r.net[mjscore.Wind.EAST] == net_east
    assert sum(r.net.values()) == 0


def test_a_counted_losers_score_is_held_to_the_limit_too():
    r = mjscore.score("E: score 1500 win self; S: score 1200; W: ...; N: ...")
    assert [p.score for p in r.players] == [1000, 1000, 0, 0]
    assert {s.value: n for s, n in r.net.items()} == {"E": 6000, "S": 0, "W": -3000, "N": -3000}


def test_the_breakdown_says_a_counted_score_was_held_to_the_limit():
    from typer.testing import CliRunner

    from mjscore.cli import app

    out = CliRunner().invoke(app, ["score", "-e", f"E: score 1500 win self; {LOSERS}"]).stdout
    assert "score 1500 (counted at the table), held to the limit: 1000" in out
    out = CliRunner().invoke(app, ["score", "-e", f"E: score 900 win self; {LOSERS}"]).stdout
    assert "score 900 (counted at the table)\n" in out


def test_no_limit_under_the_roof_off():
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        house = pathlib.Path(d) / "roofless.yaml"
        house.write_text("scheme: roofless\nextends: classical\nroof_off: true\n")
        r = mjscore.score(f"E: score 1500 win self; {LOSERS}", scheme=house)
    assert r.player("E").score == 1500 and r.net[mjscore.Wind.EAST] == 9000


# A win on a loose tile needs a kong, a flower or a season ------------------------------------

@pytest.mark.parametrize("scheme", ["classical", "dmjl", "bmja", "babcock", "millington", "chinese-classical",
                                    "european-classical"])
@pytest.mark.parametrize("hand", ["E: 333444m 33p 888s EEE win E self loose",
                                  "E: 33344455789m EEE win E self loose"])
def test_a_loose_tile_win_without_a_kong_or_a_bonus_tile_is_refused(scheme, hand):
    with pytest.raises(WinClauseError, match="'loose' .* no kong and no flower or season"):
        mjscore.score(hand, scheme=scheme, paying="winner-only")


@pytest.mark.parametrize("scheme", ["kajongg-dmjl", "kajongg-bmja"])
def test_kajongg_accepts_a_loose_tile_win_without_a_kong_as_kajongg_does(scheme):
    r = mjscore.score("E: 333444m 33p 888s EEE win E self loose", scheme=scheme, paying="winner-only")
    assert r.player("E").score > 0


@pytest.mark.parametrize("hand", [
    "E: (5555p) 111m 222m 333s 11s win 1s self loose",           # a declared kong
    "E: [5555p] 111m 222m 333s 11s win 1s self loose",           # an exposed kong
    "E: <5555p> 111m 222m 333s 11s win 1s self loose",           # a claimed kong
    "E: 555p 111m 222m 333s 11s 1f win 1s self loose",           # a flower's replacement
    "E: 555p 111m 222m 333s 11s 3y win 1s self loose",           # a season's
])
def test_a_loose_tile_win_with_a_kong_or_a_bonus_tile_is_accepted(hand):
    for scheme in ("classical", "dmjl", "bmja"):
        mjscore.score(hand, scheme=scheme, paying="winner-only")


def test_a_scheme_file_may_say_a_loose_tile_needs_nothing(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nways_of_winning: {loose_needs_kong: false}\n")
    mjscore.score("E: 333444m 33p 888s EEE win E self loose", scheme=house, paying="winner-only")
    bad = tmp_path / "bad.yaml"
    bad.write_text("scheme: bad\nextends: classical\nways_of_winning: {loose_needs_kongs: false}\n")
    with pytest.raises(mjscore.SchemeError, match="ways_of_winning.loose_needs_kongs: unknown key"):
        mjscore.load_scheme(bad)


# Robbing a kong takes the winner's only copy of the tile -------------------------------------

@pytest.mark.parametrize("hand,copies", [
    ("S: [111m] [999p] 456s 444p 88s win 4p from E robbed", 3),
    ("S: [111m] [999p] 456s 44p 888s win 4p from E robbed", 2),
    ("S: [444p] [111m] 999p 345p 88s win 4p from E robbed", 4),
])
def test_robbing_a_kong_with_another_copy_of_the_tile_is_refused(hand, copies):
    with pytest.raises(WinClauseError, match=f"leaves the winner no other 4p, but S holds {copies} of it"):
        mjscore.score(hand, paying="winner-only")


@pytest.mark.parametrize("hand", [
    "S: [111m] [999p] 456s 345p 88s win 4p from E robbed",
    "S: [111m] [999p] 456s 345p 88s win 4p from E robbed; E: [444p] ...",
    "E: 19m 19p 19s ESWN CFP 9m win 1m from S robbed; S: 111m ...",      # thirteen orphans: one 1m
])
def test_robbing_a_kong_with_the_only_copy_is_accepted(hand):
    mjscore.score(hand, paying="winner-only")


# Robbing a kong made from a concealed pung (issue 22, item 3) ---------------------------------

# W held 555p concealed, drew the fourth 5p and declared a kong; S, fishing, robs it.
ROB_CONCEALED = "E: ...; S: 123m 456m 789m 345p 99s win 5p from W robbed; W: {pung} 123s 456s 789s E; N: ..."
ROB_EXPOSED = "E: ...; S: 123m 456m 789m 345p 99s win 5p from W robbed; W: [555p] 123s 456s 789s E; N: ..."


@pytest.mark.parametrize("pung", ["555p", "{555p}"])
def test_classical_lets_a_kong_made_from_a_concealed_pung_be_robbed(pung):
    # The seed text: "a player who is fishing may claim a tile added to a concealed pung to turn it
    # to a kong, and thus win".  S: 20 for going out, robbing the kong 1 double = 40; W's concealed
    # pung of simples 4.
    r = mjscore.score(ROB_CONCEALED.format(pung=pung))
    assert [p.score for p in r.players] == [0, 40, 4, 0]
    assert {s.value: n for s, n in r.net.items()} == {"E": -88, "S": 160, "W": -28, "N": -44}


@pytest.mark.parametrize("scheme,allowed", [
    ("classical", True),             # the seed text
    ("dmjl", True),                  # Kajongg: any kong being declared may be robbed
    ("kajongg-dmjl", True),
    ("kajongg-bmja", True),
    ("bmja", False),                 # BMJA: only the tile added to an exposed pung
    ("babcock", False),
    ("millington", False),
    ("european-classical", False),   # Four Winds: only a melded pung completed to a kong
    ("chinese-classical", False),
])
def test_each_scheme_says_whether_a_kong_made_from_a_concealed_pung_may_be_robbed(scheme, allowed):
    assert mjscore.load_scheme(scheme).ways_of_winning.rob_concealed_pung is allowed
    # One chow only, for the BMJA schemes: the same robbery with a pung hand.
    hand = "E: ...; S: 111m 444m 999m 345p 99s win 5p from W robbed; W: 555p 123s 456s 789s E; N: ..."
    if allowed:
        assert mjscore.score(hand, scheme=scheme).player("S").winner
    else:
        with pytest.raises(WinClauseError, match=f"W's pung of 5p is concealed: under '{scheme}' only the tile "
                                                 "added to an exposed pung may be robbed"):
            mjscore.score(hand, scheme=scheme)


@pytest.mark.parametrize("scheme", ["classical", "bmja", "babcock", "european-classical", "chinese-classical"])
def test_the_tile_added_to_an_exposed_pung_may_always_be_robbed(scheme):
    hand = ROB_EXPOSED.replace("123m 456m 789m", "111m 444m 999m")
    assert mjscore.score(hand, scheme=scheme).player("S").winner


def test_robbing_from_a_player_who_shows_no_pung_of_the_tile_is_still_refused():
    with pytest.raises(WinClauseError, match="W shows no pung of 5p"):
        mjscore.score(ROB_CONCEALED.format(pung="55p 6p"))


def test_a_scheme_file_may_say_a_concealed_pung_may_not_be_robbed(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nways_of_winning: {rob_concealed_pung: false}\n")
    with pytest.raises(WinClauseError, match="under 'house' only the tile added to an exposed pung"):
        mjscore.score(ROB_CONCEALED.format(pung="555p"), scheme=house)
    bad = tmp_path / "bad.yaml"
    bad.write_text("scheme: bad\nextends: classical\nways_of_winning: {rob_concealed_pung: maybe}\n")
    with pytest.raises(mjscore.SchemeError, match="ways_of_winning.rob_concealed_pung: takes true or false"):
        mjscore.load_scheme(bad)
