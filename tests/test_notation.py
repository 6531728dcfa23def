"""The compact notation: every item, alias and header, read and printed back."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjscore.io.notation import parse_run, parse_table, parse_tables, player_text, print_table
from mjscore.model.errors import GroupError, MjError, NotationError
from mjscore.model.table import Form, SetKind, WinFlag, tiles_text
from mjscore.model.tiles import Wind


def texts(run):
    return [t.text for t in parse_run(run)]


@pytest.mark.parametrize("run,expected", [
    ("123m", ["1m", "2m", "3m"]),
    ("5559p", ["5p", "5p", "5p", "9p"]),
    ("789s", ["7s", "8s", "9s"]),
    ("3c", ["3m"]),
    ("3d", ["3p"]),
    ("3b", ["3s"]),
    ("EEE", ["E", "E", "E"]),
    ("CC", ["C", "C"]),
    ("ESWN", ["E", "S", "W", "N"]),
    ("1z", ["E"]), ("2z", ["S"]), ("3z", ["W"]), ("4z", ["N"]),
    ("5z", ["P"]), ("6z", ["F"]), ("7z", ["C"]),
    ("1234z", ["E", "S", "W", "N"]),
    ("Rd", ["C"]), ("Gd", ["F"]), ("Wd", ["P"]),
    ("EWd", ["E", "P"]),
    ("1f", ["1f"]), ("4y", ["4y"]), ("12f", ["1f", "2f"]),
    ("123m456p", ["1m", "2m", "3m", "4p", "5p", "6p"]),
])
def test_tile_runs_and_aliases(run, expected):
    assert texts(run) == expected


@pytest.mark.parametrize("run", ["0m", "123", "m", "8z", "5f", "0y", "123x", "e", "Xd", "1M", ""])
def test_not_tile_runs(run):
    assert parse_run(run) is None


@pytest.mark.parametrize("line,canonical", [
    # each run sorted and written canonically; the runs kept as the player grouped them
    ("E: 234m 678m 55p 789s EEE 1m", "E: 234m 678m 55p 789s EEE 1m"),
    ("E: 678s 99s 234m 567p 111p", "E: 678s 99s 234m 567p 111p"),
    ("E: 1m2m3m 5p5p5p 9s9s 123s 55s", "E: 123m 555p 99s 123s 55s"),
    ("E: 321m 9559p", "E: 123m 5599p"),
    ("S: {123m} 456m 789m 11p EEE", "S: {123m} 456m 789m 11p EEE"),
    ("S: [555p] [123s] [CCCC] 11m 99m", "S: [555p] [123s] [CCCC] 11m 99m"),
    ("W: (5555p) 123m 456m 789m 11s", "W: (5555p) 123m 456m 789m 11s"),
    ("N: 1f 3y 123m 456m 789m 11s 99p", "N: 123m 456m 789m 11s 99p 1f 3y"),
    ("N: [CCC] 1f ...", "N: [CCC] 1f ..."),
    ("E: ...", "E: ..."),
    ("E: 123m 456m 789m 11s 999p = 36", "E: 123m 456m 789m 11s 999p = 36"),
    ("E: 123m 456m 789m 11s 999p =36", "E: 123m 456m 789m 11s 999p = 36"),
    ("E: 123456789m 99p 11s", "E: 123456789m 99p 11s"),
    ("S: score 72 win from N", "S: score 72 win from N"),
    ("S: score 72 win 5p self", "S: score 72 win 5p self"),
    ("E: score 0", "E: score 0"),
    ("E: [ 123m ] 456m 789m 11s 999p", "E: [123m] 456m 789m 11s 999p"),
    ("E: [1111s] [2222s] [3333s] [4444s] 55s", "E: [1111s] [2222s] [3333s] [4444s] 55s"),
    # an honour written a tile at a time is one run of copies
    ("E: Rd Rd Rd Gd Gd 123c 456d 789b", "E: CCC FF 123m 456p 789s"),
    ("E: 19m 19p 19s E S W N C F P C win C self", "E: 19m 19p 19s E S W N C F P C win C self"),
    # the set a discard completed, written in brackets, stands where it was written
    ("S: [CCC] 234m 678m [55p] 789s 1f win 5p from N", "S: [CCC] 234m 678m 55p 789s 1f win 5p from N"),
])
def test_player_lines_print_canonically(line, canonical):
    table = parse_table(line)
    assert print_table(table).strip().splitlines()[-1] == canonical
    again = parse_table(canonical)
    assert again == table and print_table(again) == print_table(table)      # the same table, printed the same


@pytest.mark.parametrize("clause,tile_text,discarder,flags", [
    ("win 5p from N", "5p", Wind.NORTH, set()),
    ("win 5p self", "5p", None, set()),
    ("win 5p self loose", "5p", None, {WinFlag.LOOSE}),
    ("win 5p self last", "5p", None, {WinFlag.LAST}),
    ("win 5p from N last", "5p", Wind.NORTH, {WinFlag.LAST}),
    ("win 5p from W robbed", "5p", Wind.WEST, {WinFlag.ROBBED}),
    ("win 5p self twofold", "5p", None, {WinFlag.TWOFOLD}),
    ("win 5p self original-call", "5p", None, {WinFlag.ORIGINAL_CALL}),
    ("win 5p from W robbed original-call", "5p", Wind.WEST, {WinFlag.ROBBED, WinFlag.ORIGINAL_CALL}),
])
def test_win_clause(clause, tile_text, discarder, flags):
    table = parse_table(f"S: 123m 456m 789m 11s 555p {clause}")
    win = table.players[0].win
    assert (win.tile.text, win.discarder, set(win.flags)) == (tile_text, discarder, flags)


def test_win_clause_anywhere_and_items_after_it():
    a = parse_table("E: win 5p self 123m 456m 789m 11s 555p 1f")
    b = parse_table("E: 123m 456m 789m 11s 555p 1f win 5p self")
    assert a == b


def test_heaven_and_earth_flags():
    assert WinFlag.HEAVEN in parse_table("E: 123m 456m 789m 11s 555p win 5p self heaven").players[0].win.flags
    assert WinFlag.EARTH in parse_table("S: 123m 456m 789m 11s 555p win 5p from E earth").players[0].win.flags


def test_group_forms_and_kinds():
    p = parse_table("E: [123m] (5555p) {EEE} [999s] <FFFF> 11s").players[0]
    forms = {m.text(): (m.form, m.kind) for m in p.melds}
    assert forms == {
        "[123m]": (Form.EXPOSED, SetKind.CHOW),
        "[999s]": (Form.EXPOSED, SetKind.PUNG),
        "(5555p)": (Form.DECLARED_KONG, SetKind.KONG),
        "<FFFF>": (Form.CLAIMED_KONG, SetKind.KONG),
        "{EEE}": (Form.GROUP, SetKind.PUNG),
    }


@pytest.mark.parametrize("text,message", [
    ("E: <555p> 11s", "<555p> is not a kong: < > holds four identical tiles"),
    ("E: <5556p> 11s", "<5556p> is not a kong"),
    ("E: <5555p 11s", "'<' is never closed with '>'"),
    ("E: 5555p> 11s", "'>' closes a group that was never opened"),
    ("E: <55p [55p]> 11s", "'[' cannot stand inside a group opened by '<'"),
])
def test_claimed_kong_is_four_identical_tiles(text, message):
    with pytest.raises(MjError) as info:
        parse_table(text)
    assert message in info.value.message


@pytest.mark.parametrize("header,attr,value", [
    ("round S", "round", Wind.SOUTH),
    ("round N", "round", Wind.NORTH),
    ("scheme dmjl", "scheme", "dmjl"),
    ("scheme schemes/house.yaml", "scheme", "schemes/house.yaml"),
    ("dealer-wins 3", "dealer_wins", 3),
    ("draw", "draw", True),
])
def test_headers(header, attr, value):
    table = parse_table(f"{header}\nE: ...")
    assert getattr(table, attr) == value


def test_seat_and_tiles_without_a_space():
    assert parse_table("E:123m 456m ...") == parse_table("E: 123m 456m ...")
    with pytest.raises(NotationError) as info:
        parse_table("E:12x")
    assert info.value.location.column == 3


def test_round_defaults_to_east():
    assert parse_table("E: ...").round is Wind.EAST


def test_comments_semicolons_and_several_tables():
    text = "# first\nround S # prevailing\nE: ... # a note; not a line\n---\nE: [CCC] ...; S: ...\n"
    tables = parse_tables(text)
    assert len(tables) == 2
    assert tables[0].round is Wind.SOUTH and len(tables[0].players) == 1
    assert [p.seat for p in tables[1].players] == [Wind.EAST, Wind.SOUTH]


def test_players_in_seat_order_whatever_the_input_order():
    t = parse_table("N: ...; W: ...; E: ...")
    assert [p.seat for p in t.players] == [Wind.EAST, Wind.WEST, Wind.NORTH]


def test_printed_table_reads_back_the_same():
    text = """round S
scheme dmjl
dealer-wins 2
E: [111p] 2378m 4455s NN = 8
S: [CCC] 234m 678m 55p 789s 1f win 5p from N last
W: (FFFF) 12345m 99p 2y 568s
N: [EEE] 11m 23p 456s 889s 3f
"""
    t = parse_table(text)
    assert parse_table(print_table(t)) == t
    assert print_table(parse_table(print_table(t))) == print_table(t)


@pytest.mark.parametrize("text,line,col,token,fragment", [
    ("E: 123x", 1, 4, "123x", "'x' is no suit"),
    ("E: 123m 45", 1, 9, "45", "no suit letter"),
    ("E: eee", 1, 4, "eee", "upper case"),
    ("X: 123m", 1, 1, "X:", "does not start a player line"),
    ("e: 123m", 1, 1, "e:", "seats are upper case"),
    ("round Q\nE: ...", 1, 7, "Q", "takes a wind"),
    ("round\nE: ...", 1, 1, "round", "needs a wind"),
    ("draw now", 1, 6, "now", "takes nothing"),
    ("dealer-wins x\nE: ...", 1, 13, "x", "whole number"),
    ("round S\nround W\nE: ...", 2, 1, "round", "given twice"),
    ("E: ...\nE: ...", 2, 1, "E:", "listed twice"),
    ("E: [123m", 1, 4, "[", "never closed"),
    ("E: 123m]", 1, 8, "]", "never opened"),
    ("E: [[123m]]", 1, 5, "[", "cannot stand inside"),
    ("E: 123m win", 1, 9, "win", "'self' or 'from SEAT'"),
    ("E: 123m win 5p", 1, 9, "win", "'self' or 'from SEAT'"),
    ("E: 123m win 5p from", 1, 16, "from", "needs a seat"),
    ("E: 123m win 5p from Q", 1, 21, "Q", "takes a seat"),
    ("E: 123m win 5p from E", 1, 21, "E", "own"),
    ("E: 123m win 5p by N", 1, 16, "by", "goes on with"),
    ("E: 123m win 1f self", 1, 13, "1f", "not a winning tile"),
    ("E: 123m win 5p self loose loose", 1, 27, "loose", "twice"),
    ("E: 123m loose", 1, 9, "loose", "belongs in a win clause"),
    ("E: 123m = x", 1, 11, "x", "whole number"),
    ("E: 123m =", 1, 9, "=", "missing"),
    ("E: score", 1, 4, "score", "missing"),
    ("E: score 12 123m", 1, 4, "score", "lists no tiles"),
    ("E: 123m win self", 1, 1, "E:", "needs the winning tile"),
    ("", 1, 1, None, "no players"),
    ("E: ... ...", 1, 8, "...", "twice"),
    ("E : 123m", 1, 1, "E", "together"),
    ("E: 123m; S: 4x", 1, 13, "4x", "not a tile"),
])
def test_notation_errors_point_at_the_token(text, line, col, token, fragment):
    with pytest.raises(NotationError) as info:
        parse_table(text, "hand.mj")
    err = info.value
    assert (err.location.file, err.location.line, err.location.column) == ("hand.mj", line, col)
    if token is not None:
        assert err.token == token
    assert fragment in err.message
    assert str(err).startswith(f"hand.mj:{line}:{col}: error: ")


@pytest.mark.parametrize("text,fragment", [
    ("E: [1234s]", "is not a set"),
    ("E: [12s]", "is not a set"),
    ("E: [55p]", "is not a set"),
    ("E: [89s1m]", "is not a set"),
    ("E: (555p)", "is not a kong"),
    ("E: (5556p)", "is not a kong"),
    ("E: {55p}", "is not a set"),
    ("E: {5555p}", "declare a concealed kong"),
    ("E: [EEE1f]", "flowers and seasons"),
    ("E: [EWN]", "is not a set"),
])
def test_groups_must_be_real_sets(text, fragment):
    with pytest.raises((GroupError, NotationError)) as info:
        parse_table(text)
    assert fragment in info.value.message


def test_column_counts_after_semicolon_and_comment():
    with pytest.raises(NotationError) as info:
        parse_table("E: ...   ;  S: 12q # 9x")
    assert info.value.location.column == 16


def test_overlong_line_is_refused():
    with pytest.raises(NotationError, match="characters long"):
        parse_table("E: " + "1m" * 10_000)


@pytest.mark.parametrize("compact,spaced", [
    ("E: [777p] (5555s) <NNNN> {123m} 99s ...", "E: [ 777p ] ( 5555s ) < NNNN > { 123m } 99s ..."),
    ("E: [234m] 567p 789s EEE 5p win 5p from S", "E: [ 234m ] 567p 789s EEE 5p win 5p from S"),
    ("E: [55p] 234m 567m 789m 111s win 5p from S", "E: [ 55p ] 234m 567m 789m 111s win 5p from S"),
])
def test_a_group_written_without_spaces_reads_the_same(compact, spaced):
    assert parse_table(compact) == parse_table(spaced)


@pytest.mark.parametrize("text,column,token", [
    ("E: [77p] ...", 4, "[77p]"),                 # not a set: at its bracket
    ("E: [7x7p] ...", 5, "7x7p"),                 # not a tile: at the word inside
    ("E: [1f] ...", 5, "1f"),                     # no flowers in a group
    ("E: {5555p} ...", 4, "{5555p}"),
    ("E: [123m [456m]] ...", 10, "["),            # a group inside a group
])
def test_a_group_written_without_spaces_is_faulted_where_it_is_wrong(text, column, token):
    with pytest.raises(MjError) as info:
        parse_table(text)
    assert (info.value.location.column, info.value.token) == (column, token)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_players_grouping_survives_the_printout_and_the_table_stays_the_same(data):
    """Any split of a player's concealed tiles into runs: `show` keeps the runs (each sorted),
    and reading the printout gives the same table, printed the same again."""
    from tests.strategies import tables as any_table

    table = data.draw(any_table())
    lines = []
    for p in table.players:
        tiles = list(p.concealed)
        if p.score is not None or not tiles:
            lines.append(f"{p.seat.value}: {player_text(p)}")
            continue
        order = data.draw(st.permutations(tiles))
        cuts = sorted(data.draw(st.sets(st.integers(1, max(len(order) - 1, 1)), max_size=4)))
        runs = [order[a:b] for a, b in zip([0, *cuts], [*cuts, len(order)], strict=True) if order[a:b]]
        written = " ".join(tiles_text(run, sep="") for run in runs)
        rest = player_text(dataclasses.replace(p, concealed=()))
        lines.append(f"{p.seat.value}: {written} {rest}".rstrip())
    text = "\n".join(lines)
    parsed = parse_table(text)
    printed = print_table(parsed)
    assert parse_table(printed) == parsed and print_table(parse_table(printed)) == printed
    assert parsed.players == table.players
    for p in parsed.players:                                               # the runs, as written
        if p.written.runs:
            [line] = [x for x in printed.splitlines() if x.startswith(p.seat.value + ":")]
            one_suit = [run for run in p.written.runs
                        if run[0].suit.is_numbered and {t.suit for t in run} == {run[0].suit}]
            assert all(tiles_text(run, sep="") in line.split(" ") for run in one_suit), line


# A line's place is its first word's: found from the text's leading white space, the same place
# the word pattern's first match gives (every character but white space starts a word).
@pytest.mark.parametrize("text,column", [
    ("E: 123m", 1), ("   E: 123m", 4), ("\tE: 1m", 2), ("round E", 1), ("x", 1),
    ("\u00a0\u2003E: 1m", 3),                       # white space beyond ASCII: \s and str.lstrip agree
    ("[777p] E:", 1), ("  = 3", 3), ("  ...", 3),
])
def test_a_line_stands_at_its_first_word(text, column):
    from mjscore.io.notation import logical_lines
    (line,) = logical_lines(text, "f.mj", 7)
    assert line.where == (*line.tokens[0].where[:2], column)
    assert line.where.column == line.tokens[0].column


@given(st.text(alphabet=st.sampled_from(list(" \t\u00a0\u2003\x1fabE:[]()=.;12m#")), max_size=30))
@settings(max_examples=300)
def test_a_line_stands_where_its_first_token_does(text):
    from mjscore.io.notation import logical_lines
    for line in logical_lines(text, "f.mj", 3):
        assert line.where == line.tokens[0].where


@pytest.mark.parametrize("line,order", [
    # groups in their canonical order: exposed, claimed kongs, declared kongs, concealed; by tiles
    ("E: {789s} (1111p) [555m] <CCCC> [123m] 99s", ["[123m]", "[555m]", "<CCCC>", "(1111p)", "{789s}"]),
    ("E: [999m] [111m] [1111m] 99s", ["[111m]", "[1111m]", "[999m]"]),
])
def test_groups_sort_in_canonical_order(line, order):
    (hand,) = parse_table(line).players
    assert [m.text() for m in hand.melds] == order
