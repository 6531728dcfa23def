"""A winning tile has one source (seed text 000: "In counting the fourteen pieces, the one or two
loose tiles on the end of the wall, are included in the fourteen"): a loose tile is never the
wall's last, and a robbed tile is neither a discard nor self-drawn, so a kong robbed with the last
tile counts the robbing only, and the breakdown says why."""

import pytest

import mjscore

ROBBED_LAST = "S: 123m 456m 789m 345p 99s win 5p from W robbed last; E: ...; W: ...; N: ..."


@pytest.mark.parametrize("line", ["S: [1111m] 456m 789m 345p 99s win 5p self loose last",
                                  "S: [1111m] [2222p] 789m 345p 99s win 5p self twofold last"])
def test_a_loose_tile_is_never_the_walls_last(line):
    with pytest.raises(mjscore.MjError) as e:
        mjscore.score(line + "; E: ...; W: ...; N: ...")
    assert e.value.message.startswith("a winning tile has one source") and e.value.token == "last"
    error = mjscore.check_line(line.split(": ", 1)[1], "S")          # the page's and the prompt's check
    assert error is not None and error.message.startswith("a winning tile has one source")


@pytest.mark.parametrize("scheme,score,last", [
    ("classical", 40, False), ("european-classical", 40, False), ("dmjl", 80, False),   # dmjl: + no-score double
    # The schemes that score as an engine does pay its last-tile double on a robbed kong too:
    # Pomax's scorer, chinese-classical.js l.271; Bradfield's mj, scoring.c l.583 (issue 39).
    ("chinese-classical", 80, True), ("millington", 160, True)])
def test_a_kong_robbed_with_the_last_tile_counts_as_each_scheme_says(scheme, score, last):
    r = mjscore.score(ROBBED_LAST, scheme=scheme)
    south = next(p for p in r.players if p.seat.value == "S")
    rules = [i.rule for i in south.items]
    assert ("last-discard" in rules) == last and any("rob" in x for x in rules), rules
    assert south.score == score
    assert "robbed" in r.ruling
    assert ("pays both robbing the kong and the last tile" in r.ruling) == last
    assert ("the last tile does not" in r.ruling) == (not last)


@pytest.mark.usefixtures("unwrapped")
def test_the_breakdown_says_why_and_names_the_kong():
    from typer.testing import CliRunner

    from mjscore.cli import app

    out = CliRunner().invoke(app, ["score", "-e", ROBBED_LAST]).stdout
    assert "5p robbed from West's kong" in out and "Ruling: the last tile made the kong that was robbed" in out
    assert "[345p]: the 5p robbed from West's kong completed it" in out
    assert "Total: 20 points x 2^1 = 40" in out


def test_the_last_discard_still_counts_on_a_discard():
    r = mjscore.score("S: 123m 456m 789m 345p 99s win 5p from W last; E: ...; W: ...; N: ...")
    south = next(p for p in r.players if p.seat.value == "S")
    assert "last-discard" in [i.rule for i in south.items] and south.score == 40 and r.ruling is None
