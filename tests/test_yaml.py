"""Tables in YAML: both spellings of a player, several tables, errors with positions, safety."""

import pytest

from mjscore.io.notation import parse_table
from mjscore.io.reader import parse_any
from mjscore.io.yamlform import parse_yaml_tables
from mjscore.model.errors import MjError, NotationError, YamlFormError

COMPACT = """round S
E: [111p] 2378m 4455s NN
S: [CCC] 234m 678m 55p 789s 1f win 5p from N last
W: (FFFF) 12345m 99p 2y 568s
N: [EEE] 11m 23p 456s 889s 3f = 10
"""

STRINGS = """round: S
players:
  E: "[111p] 2378m 4455s NN"
  S: "[CCC] 234m 678m 55p 789s 1f win 5p from N last"
  W: "(FFFF) 12345m 99p 2y 568s"
  N: "[EEE] 11m 23p 456s 889s 3f = 10"
"""

MAPPINGS = """round: S
players:
  E: {tiles: "[111p] 2378m 4455s NN"}
  S:
    tiles: "[CCC] 234m 678m 55p 789s"
    bonus: [1f]
    win: {tile: 5p, from: N, flags: [last]}
  W:
    tiles: [(FFFF), 12345m, 99p, 568s]
    bonus: 2y
  N:
    tiles: "[EEE] 11m 23p 456s 889s"
    bonus: "3f"
    claim: 10
"""


@pytest.mark.parametrize("text", [STRINGS, MAPPINGS])
def test_both_spellings_give_the_compact_table(text):
    assert parse_yaml_tables(text, "t.yaml") == [parse_table(COMPACT)]


def test_self_drawn_mapping_and_names():
    text = """players:
  E: {tiles: "123m 456m 789m 11s 222s", win: {tile: 2s}, name: Ann}
  S: {score: 4}
"""
    # a counted score beside a listed hand is caught later; tiles+score in one line now
    with pytest.raises(NotationError):
        parse_yaml_tables(text.replace("S: {score: 4}", "S: {score: 4, tiles: 1m}"), "t.yaml")
    (t,) = parse_yaml_tables(text, "t.yaml")
    e = t.players[0]
    assert e.win.self_drawn and e.win.tile.text == "2s" and e.name == "Ann"
    assert t.players[1].score == 4


@pytest.mark.parametrize("text,count", [
    ("- players: {E: '...'}\n- players: {S: '...'}\n- 'draw'\n", 3),
    ("players: {E: '...'}\n---\nplayers: {S: '...'}\n", 2),
    ("players: [Ann, Bob, Cid, Dee]\nhands:\n  - |\n    E: ...\n    S: ...\n  - draw\n", 2),
])
def test_several_tables(text, count):
    assert len(parse_yaml_tables(text, "t.yaml")) == count


def test_draw_and_headers():
    (t,) = parse_yaml_tables("round: W\ndraw: true\ndealer-wins: 2\nscheme: bmja\nplayers: {E: '...'}\n")
    assert t.draw and t.dealer_wins == 2 and t.scheme == "bmja" and t.round.value == "W"


@pytest.mark.parametrize("text,line,col,fragment", [
    ("players:\n  E: \"123m 45x\"\n", 2, 12, "'45x' is not a tile"),
    ("players:\n  E: 123m 45x\n", 2, 11, "'45x' is not a tile"),
    ("players:\n  E: |\n    123m\n    45x\n", 4, 5, "'45x' is not a tile"),
    ("players:\n  Q: 123m\n", 2, 3, "unknown key 'Q'"),
    ("players:\n  E: {tile: 123m}\n", 2, 7, "unknown key 'tile'"),
    ("round: X\nplayers: {E: '...'}\n", 1, 8, "takes a wind"),
    ("players: {E: '...'}\nfoo: 1\n", 2, 1, "unknown key 'foo'"),
    ("players:\n  E: [1, 2\n", 3, 1, "YAML"),
    ("round: E\n", 1, 1, "needs 'players'"),
    ("players:\n  E: {tiles: '123m 456m 789m 11s 222s', win: {tile: 2s, from: E}}\n", 2, 63, "own"),
    ("players:\n  E: {claim: x}\n", 2, 14, "whole number"),
])
def test_yaml_errors_point_at_the_value(text, line, col, fragment):
    with pytest.raises(MjError) as info:
        parse_yaml_tables(text, "t.yaml")
    err = info.value
    assert fragment in err.message
    assert (err.location.file, err.location.line, err.location.column) == ("t.yaml", line, col)


ALIAS_BOMB = """a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
j: &j [*i,*i,*i,*i,*i,*i,*i,*i,*i]
k: &k [*j,*j,*j,*j,*j,*j,*j,*j,*j]
l: &l [*k,*k,*k,*k,*k,*k,*k,*k,*k]
m: &m [*l,*l,*l,*l,*l,*l,*l,*l,*l]
players: {E: *m}
"""


@pytest.mark.parametrize("text,fragment", [
    (ALIAS_BOMB, "alias"),
    ("players: !!python/object/apply:os.system ['echo hi']\n", "not allowed"),
    ("players:\n  E: !!python/name:os.system\n", "not allowed"),
    ("players: !custom {E: '...'}\n", "not allowed"),
    ("players: " + "[" * 5000 + "]" * 5000 + "\n", "nested"),
    ("players:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 60)), "nested"),
    ("x: " + "a" * (5 * 1024 * 1024) + "\n", "larger than"),
    ("{{{{", "YAML"),
])
def test_absurd_or_unsafe_yaml_is_refused(text, fragment):
    with pytest.raises(YamlFormError) as info:
        parse_yaml_tables(text, "t.yaml")
    assert fragment in info.value.message


def test_form_is_sniffed_when_there_is_no_file_name():
    assert parse_any(STRINGS, "<stdin>") == parse_any(COMPACT, "<stdin>")
