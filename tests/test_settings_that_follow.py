"""A setting that follows another (East's double between losers follows East's double) takes its
value from it unless it is given itself at the same place or a higher one: the command line, then
the table's header, then the scheme file.  An option given is an option honoured."""

import pytest

import mjscore

HAND = "E: score 10; S: score 200; W: score 40 win from N; N: score 0"
# W wins 40 on N's discard; E 10, S 200, N 0.  East's double everywhere: E pays W 80, S 2 x 190,
# and is paid 2 x 10 by N; on nothing: 40, 190, 10; between the losers only: 40, 380, 20.
DOUBLED = {"E": -440, "S": 540, "W": 160, "N": -260}
NONE = {"E": -220, "S": 350, "W": 120, "N": -250}
LOSERS_ONLY = {"E": -400, "S": 540, "W": 120, "N": -260}      # the figures
WINNER_ONLY = {"E": -260, "S": 350, "W": 160, "N": -250}      # East's double on the winner's payments only


def nets(text=HAND, scheme=None, **settings):
    r = mjscore.score(text, scheme=scheme, **settings)
    return {s.value: n for s, n in r.net.items()}


def test_the_three_ways_are_three_settlements():
    assert nets() == DOUBLED and nets(east_double=False) == NONE
    assert nets(east_double=False, east_double_losers=True) == LOSERS_ONLY


@pytest.mark.parametrize("header,given,expected", [
    ("east-double off\neast-double-losers on\n", {}, LOSERS_ONLY),        # the same place: both stand
    ("east-double-losers on\n", {"east_double": False}, NONE),           # East's double given higher: it follows
    ("east-double off\n", {"east_double_losers": True}, LOSERS_ONLY),    # given higher than East's double
    ("east-double off\n", {}, NONE),                                     # not given: as East's double
    ("east-double-losers off\n", {}, WINNER_ONLY),
])
def test_a_header_and_the_command_line(header, given, expected):
    assert nets(header + HAND, **given) == expected


def test_a_scheme_file_that_says_both(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nsettlement: {east_double: false, east_double_losers: true}\n")
    assert nets(scheme=house) == LOSERS_ONLY
    assert nets(scheme=house, east_double=False) == NONE               # the command line's East's double is higher
    assert nets(scheme=house, east_double=True) == DOUBLED
    assert nets("east-double on\n" + HAND, scheme=house) == DOUBLED


def test_the_command_line_honours_both_options():
    from typer.testing import CliRunner

    from mjscore.cli import app

    r = CliRunner().invoke(app, ["score", "-e", HAND, "--no-east-double", "--east-double-losers", "--format", "json"])
    import json

    assert r.exit_code == 0 and json.loads(r.stdout)["settlement"]["net"] == LOSERS_ONLY
