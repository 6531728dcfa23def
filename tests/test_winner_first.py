"""The winner's hand first (seed text 000: "each man scores his hand, beginning with the winner"):
`score`, `add`, `session --hand` and the page list the winner's breakdown first, then the others
in turn from the winner; JSON and CSV keep seat order."""

import json

from typer.testing import CliRunner

import mjscore
from mjscore.cli import app

runner = CliRunner()
TABLE = "E: [111p] ...; S: [555m] ...; W: [CCC] 234m 678m 55p 789s 1f win 5p from N; N: [EEE] ..."


def order(text, marks):
    at = {m: text.index(m) for m in marks}
    return sorted(marks, key=at.get)


def test_score_lists_the_winner_first_then_in_turn():
    out = runner.invoke(app, ["score", "-e", TABLE]).stdout
    assert order(out, ["\nWest - winner:", "\nNorth:", "\nEast:", "\nSouth:"]) == [
        "\nWest - winner:", "\nNorth:", "\nEast:", "\nSouth:"]
    data = json.loads(runner.invoke(app, ["score", "-e", TABLE, "--format", "json"]).stdout)
    assert [p["seat"] for p in data["players"]] == ["E", "S", "W", "N"]          # JSON: seat order


def test_add_and_session_hand_list_the_winner_first(tmp_path):
    evening = tmp_path / "ev.mj"
    mjscore.Evening(evening).start(("Ann", "Bob", "Cid", "Dee"))
    out = runner.invoke(app, ["add", str(evening), "-e", TABLE]).stdout
    assert order(out, ["  Cid ", "  Dee ", "  Ann ", "  Bob "]) == ["  Cid ", "  Dee ", "  Ann ", "  Bob "]
    out = runner.invoke(app, ["session", str(evening), "--hand", "1"]).stdout
    marks = ["West (Cid) - winner:", "North (Dee):", "East (Ann):", "South (Bob):"]
    assert order(out, marks) == marks


def test_a_draw_keeps_seat_order():
    out = runner.invoke(app, ["score", "-e", "draw; E: [111p] ...; S: [555m] ..."]).stdout
    assert out.index("\nEast:") < out.index("\nSouth:")
