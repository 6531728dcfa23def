"""The set the winning discard completed is chosen for the player, wherever it is written (issue 22,
item 10): of two or more bracketed sets that could have taken the winning tile, the one that
scores best, as for plain tiles, so the order of the sets never decides.

The kajongg-* figures are Kajongg's own engine's, the best of the hand strings in the comments
(one per set the discard may have completed; seat and round as in the table).
"""

import itertools

import pytest

import mjscore
from mjscore.io.notation import parse_table, print_table
from mjscore.model.errors import GroupError

ISSUE = "round W; S: {sets} <4444s> WW 1f 2y 3y win 7m from E"


@pytest.mark.parametrize("order", list(itertools.permutations(["[456m]", "[777m]", "[789m]"])))
@pytest.mark.parametrize("scheme", ["classical", "kajongg-dmjl"])
def test_the_best_set_for_the_discard_whatever_the_order(order, scheme):
    # 789m completed by the discard: 777m was claimed before, 89m waited on 7m alone (2 points).
    # Kajongg: c4c5c6 c7c7c7 b4b4b4B4 c7c8c9 RWwWw fe ys yw md Lc7c7c8c9 = 46 (Lc7c7c7c7: 44)
    r = mjscore.score(ISSUE.format(sets=" ".join(order)), scheme=scheme, paying="winner-only")
    s = r.player("S")
    assert (s.points, s.score) == (46, 46)
    assert "only-possible" in {i.rule for i in s.items}


@pytest.mark.parametrize("table,scheme,score", [
    # 234m or 345m (c3c4c5 c2c3c4 ... Lc4c2c3c4 = 34; c2c3c4 c3c4c5 ... Lc4c3c4c5 = 36)
    ("round S; N: [234m] [345m] 777p 999s SS win 4m from E", "kajongg-dmjl", 36),
    ("round S; N: [345m] [234m] 777p 999s SS win 4m from E", "kajongg-dmjl", 36),
    # 111p or 123p: the same 24 either way
    ("round E; S: [111p] [123p] 456s 789s 99m win 1p from W", "kajongg-dmjl", 24),
    # the pair 55p, not the chow (a pair is never laid down): s5s6s7 s5s5 RC1C1C1B9B9B9WeWeWe md Ls5s5s5
    ("round E; E: [567p] [55p] 111m 999s EEE win 5p from W", "kajongg-dmjl", 384),
    ("round E; E: [567p] [55p] 111m 999s EEE win 5p from W", "kajongg-bmja", 176),
    ("round E; W: [999p] [789p] 111m 222s NN win 9p from N", "kajongg-dmjl", 36),
    ("round E; W: [999p] [789p] 111m 222s NN win 9p from N", "kajongg-bmja", 36),
])
def test_kajongg_figures_for_bracketed_sets_the_discard_may_have_completed(table, scheme, score):
    r = mjscore.score(table, scheme=scheme, paying="winner-only")
    assert next(p for p in r.players if p.winner).score == score


def test_a_set_in_brackets_beside_the_winning_tile_among_the_concealed_ones_was_laid_down_before():
    # 7m is among the concealed tiles: the discard completed 777m, [789m] was on the table already.
    r = mjscore.score("round W; S: [456m] 777m [789m] <4444s> WW 1f 2y 3y win 7m from E", paying="winner-only")
    assert r.player("S").score == 44


def test_one_bracketed_set_is_the_same_hand_as_its_tiles_among_the_concealed_ones():
    assert parse_table("S: [CCC] 234m 678m [55p] 789s win 5p from N") == \
        parse_table("S: [CCC] 234m 678m 55p 789s win 5p from N")


def test_two_bracketed_sets_print_as_written_and_read_back_the_same():
    table = parse_table(ISSUE.format(sets="[789m] [456m] [777m]"))
    text = print_table(table)
    assert text == "round W\nS: [456m] [777m] [789m] <4444s> WW 1f 2y 3y win 7m from E\n"
    assert parse_table(text) == table


@pytest.mark.parametrize("table", [
    "S: [55p] [55p] 123m 456m 11s win 5p from N",          # two pairs in brackets: one at most
    "S: [55p] [56p] 123m 456m 789m 11s win 5p from N",     # no set at all
    "S: [55p] 123m 456m 789m 55s win 5s from N",           # a pair the discard did not complete
])
def test_brackets_still_hold_sets_and_at_most_the_discard_s_pair(table):
    with pytest.raises(GroupError, match=r"is not a set: \[ \] holds a chow"):
        mjscore.score(table, paying="winner-only")


def test_the_waits_of_a_winner_with_two_bracketed_sets_are_those_of_either_reading():
    [[row]] = mjscore.waits("round S; N: [234m] [345m] 777p 999s SS win 4m from E")
    assert row["waits"] == ["1m", "4m"]          # 234m: 23m waited on 1m or 4m; 345m: 35m on 4m
