"""The words (issue: every ruling right, round four, item 8): a lone CR is a line end wherever a
text is read; a scheme the header names that cannot be read is the header's error, at its line,
once; a huge number is shown as an excerpt, in one line; a hand numbered past the evening's says
which hand it would be."""

import pytest

import mjscore


def test_a_lone_cr_ends_a_line_in_score_check_waits_and_the_api():
    text = "E: score 40 win self\rS: score 8\rW: ...\rN: ..."
    assert mjscore.score(text).net[mjscore.Wind.EAST] == 240
    assert [t.ok for t in mjscore.tables(text)] == [True]
    assert mjscore.waits("E: 123m 456m 789m 234p 9s\rS: ...")[0][0]["waits"] == ["9s"]


def test_an_unreadable_scheme_is_blamed_on_the_headers_scheme_line_once(tmp_path):
    evening = tmp_path / "ev.mj"
    evening.write_text("players A B C D\nscheme /etc/passwd\n---\nE: score 40 win self; S: ...; W: ...; N: ...\n"
                       "---\nE: score 8 win self; S: ...; W: ...; N: ...\n")
    try:
        mjscore.play_session(evening, keep_going=True)
    except mjscore.MjError as e:
        assert (e.location.line, e.location.column) == (2, 8)
        assert e.message == "scheme '/etc/passwd': a scheme file is a mapping of keys to values"
    else:
        raise AssertionError("the evening played")


def test_a_huge_number_is_an_excerpt_in_one_line(tmp_path):
    evening = tmp_path / "ev.mj"
    evening.write_text("players A B C D\nstart " + "9" * 5000 + "\n---\n")
    try:
        mjscore.play_session(evening)
    except mjscore.MjError as e:
        assert str(e) == f"{evening}:2:7: error: 'start': 99999…(5,000 digits) is too large"
    else:
        raise AssertionError("the evening played")


def test_a_hand_numbered_past_the_evening_says_which_it_would_be(tmp_path):
    ev = mjscore.Evening(tmp_path / "ev.mj")
    ev.start(("Ann", "Bob", "Cid", "Dee"))
    try:
        ev.add("draw", number=5)
    except mjscore.MjError as e:
        assert e.message == "the evening has no hand yet; this would be hand 1, not hand 5: nothing was written"
    else:
        raise AssertionError("added")


def test_a_hand_is_named_one_way_everywhere(tmp_path):
    from typer.testing import CliRunner

    from mjscore.cli import app

    evening = tmp_path / "ev.mj"
    out = CliRunner().invoke(app, ["add", str(evening), "--players", "Ann", "Bob", "Cid", "Dee", "-e",
                                   "S: score 20 win self; E: ...; W: ...; N: ..."]).stdout
    assert "Hand 1: Ann deals, East round." in out and "Next: Hand 2: Bob deals, East round" in out
    out = CliRunner().invoke(app, ["session", str(evening), "--hand", "1"]).stdout
    assert out.startswith("Hand 1: Ann deals, East round")


def test_markdown_escapes_emphasis_in_names(tmp_path):
    from typer.testing import CliRunner

    from mjscore.cli import app

    evening = tmp_path / "ev.mj"
    mjscore.Evening(evening).start(("Ann_1", "B*b", "Cid", "Dee"))
    mjscore.Evening(evening).add("E: score 40 win self; S: ...; W: ...; N: ...")
    for args in (["session", str(evening)], ["session", str(evening), "--hand", "1"]):
        out = CliRunner().invoke(app, [*args, "--format", "markdown"]).stdout
        assert "Ann\\_1" in out and "B\\*b" in out and "Ann_1" not in out and "B*b" not in out, out
    plain = CliRunner().invoke(app, ["session", str(evening)]).stdout
    assert "Ann_1" in plain and "B*b" in plain                  # only Markdown escapes them


@pytest.mark.usefixtures("unwrapped")
def test_a_set_a_discard_completed_says_so_where_it_is_shown_exposed():
    from typer.testing import CliRunner

    from mjscore.cli import app

    table = "S: 123m 456m 789m 345p 5p5p win 5p from N; E: ...; W: ...; N: ..."
    out = CliRunner().invoke(app, ["score", "-e", table]).stdout
    assert "South - winner: 123m 456m 789m 345p [55p]\n  [55p]: the 5p from North completed it\n" in out
    south = next(p for p in mjscore.score(table).to_dict()["players"] if p["seat"] == "S")
    assert south["completed"] == "[55p]"
    # Written exposed by the player, or self-drawn: nothing to say.
    for other in ("S: 123m 456m 789m 345p 5p5p win 5p self; E: ...; W: ...; N: ...",
                  "S: [123m] 456m 789m 345p 5p5p win 5p self; E: ...; W: ...; N: ..."):
        assert "completed it" not in CliRunner().invoke(app, ["score", "-e", other]).stdout
