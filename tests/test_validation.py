"""One test per validation error: each names what is wrong and where."""

import pytest

from mjscore.hand.validate import validate_table
from mjscore.io.notation import parse_table
from mjscore.model.errors import HandSizeError, IncompleteHandError, TileCountError, WinClauseError

GOOD = """round S
E: [111p] 2378m 4455s NN
S: [CCC] 234m 678m 55p 789s 1f win 5p from N
W: (FFFF) 12345m 99p 2y 568s
N: [EEE] 11m 23p 456s 889s 3f
"""


def check(text):
    validate_table(parse_table(text, "hand.mj"))


def test_a_good_table_passes():
    check(GOOD)


@pytest.mark.parametrize("text,error,fragment,line", [
    ("E: [555p] 123m 456m 789m 11s\nW: 55p 123s 456s 789s 1m", TileCountError,
     "five 5p at the table (E has 3, W has 2)", 2),
    ("E: 1f ...\nS: 1f ...", TileCountError, "1f (flower 1 (plum)) appears 2 times", 2),
    ("E: 123m 456m 789m 11s 22s win 2s self", HandSizeError, "E holds 13 tiles; the winner holds 14", 1),
    ("E: 123m 456m 789m 11s 2s", HandSizeError, "E holds 12 tiles; a loser holds 13", 1),
    ("E: 123m 456m 789m 11s 222s", HandSizeError, "is this the winner?", 1),
    ("E: (1111m) 456m 789m 11s 222s", HandSizeError, "a loser holds 14 with 1 kong", 1),
    ("E: [123m] [456m] [789m] [111s] [222s] 1s ...", HandSizeError, "more than a loser can", 1),
    ("E: 123m 456m 789m 11s 222s ... win 2s self", HandSizeError, "must list the whole hand", 1),
    ("E: 123m 456m 789m 11s 235s win 2s self", IncompleteHandError, "not complete", 1),
    ("E: 123m 456m 789m 11s 222s win 3s self", WinClauseError, "winning tile 3s is not among", 1),
    ("E: 123m 456m 789m 11s 222s win 2s self\nS: 123p 456p 789p 11s 222p win 2p self", WinClauseError,
     "two winners", 2),
    ("draw\nE: 123m 456m 789m 11s 222s win 2s self", WinClauseError, "is a draw", 2),
    ("S: 123m 456m 789m 11s 222s win 2s self robbed", WinClauseError, "'robbed' needs 'from SEAT'", 1),
    ("S: 123m 456m 789m 11s 222s win 2s self heaven", WinClauseError, "'heaven'", 1),
    ("E: 123m 456m 789m 11s 222s win 2s from N heaven", WinClauseError, "'heaven'", 1),
    ("S: 123m 456m 789m 11s 222s win 2s from W earth", WinClauseError, "'earth'", 1),
    ("S: 123m 456m 789m 11s 222s win 2s from W loose", WinClauseError, "always self-drawn", 1),
    ("S: 123m 456m 789m 11s 222s win 2s from W twofold", WinClauseError, "always self-drawn", 1),
    # A table may mix counted scores and tiles; a listed hand must still be whole.
    ("E: score 10\nS: 123m 456m 789m 11s 2s", HandSizeError, "S holds 12 tiles", 2),
])
def test_each_impossible_table_is_refused(text, error, fragment, line):
    with pytest.raises(error) as info:
        check(text)
    assert fragment in info.value.message
    assert info.value.location.file == "hand.mj"
    if line is not None:
        assert info.value.location.line == line


def test_five_tiles_message_names_the_holders():
    with pytest.raises(TileCountError) as info:
        check("E: 555p ...\nW: 55p ...")
    assert str(info.value) == "hand.mj:2:4: error: five 5p at the table (E has 3, W has 2); there are four of each tile"


@pytest.mark.parametrize("text", [
    "E: 19m 19p 19s ESWN CFP C win C self",                         # thirteen orphans
    "E: [1111s] [2222s] [3333s] [4444s] 55s win 5s self",            # four kongs
    "E: {123m} 456m 789m 11s 222s win 2m from S",                    # winning tile in a { } group
    "E: 123m 456m 789m 11s 222s win 2s self heaven",
    "S: score 72 win from N\nE: score 0",
    "E: ...",
])
def test_complete_and_legal(text):
    check(text)


@pytest.mark.parametrize("text,error", [
    # the counts reach their limits and pass; one more of a tile, or a second flower, is refused
    ("E: 5555p ...\nS: 1f 2f 3f 4f 1y 2y 3y 4y ...", None),
    ("E: 5555p ...\nS: 5p ...", "five 5p at the table (E has 4, S has 1)"),
    ("E: 555p discarded 5p ...\nS: 5p ...", "five 5p at the table (E has 4, S has 1)"),   # a discard counts
    ("E: 4y ...\nW: 4y ...", "4y (season 4 (winter)) appears 2 times at the table (E has 1, W has 1)"),
    ("E: ...", None),
])
def test_tile_counts_at_the_limit(text, error):
    table = parse_table(text)
    if error is None:
        validate_table(table)
        return
    with pytest.raises(TileCountError) as info:
        validate_table(table)
    assert error in str(info.value)
