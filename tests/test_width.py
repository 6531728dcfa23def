"""Every command fits the width (a terminal's, or $COLUMNS when piped), breaking lines only
between words: at 60 columns the same words as at 200, none cut in two."""

from collections import Counter

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app

runner = CliRunner()


def words(text):
    # The rules under a table's header are as wide as their column: not words.
    return Counter(w for w in text.split() if set(w) != {"-"})


def at(columns, args, input=None):
    return runner.invoke(app, args, env={"COLUMNS": str(columns)}, input=input)


COMMANDS = ([["schemes"], ["schemes", "diff", "classical", "dmjl"], ["schemes", "diff", "dmjl", "babcock"],
             ["check", "-e", "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 78"],
             ["example"], ["help"], ["help", "notation"], ["help", "schemes"]]
            + [["schemes", "show", name] for name in mjscore.shipped_schemes()]
            + [["schemes", "show", "classical", "--payoffs"]])


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_sixty_columns_and_no_word_broken(args):
    narrow, wide = at(60, args), at(200, args)
    assert narrow.exit_code == wide.exit_code
    too_wide = [line for line in narrow.stdout.splitlines() if len(line) > 60]
    # Only a word longer than the width may stand out (a web address); and code as written.
    assert all(len(max(line.split(), key=len)) > 40 or line.startswith("  ") and args[0] == "help"
               for line in too_wide), too_wide
    assert words(narrow.stdout) == words(wide.stdout)


@pytest.mark.parametrize("args", [["score", "-e", "E: 12x win self; S: ..."],
                                  ["show", "-e", "E: 5555p 111s 234m 678p 99s win 9s self"],
                                  ["example", "no-such-sample"],
                                  ["session", "-"]])
@pytest.mark.usefixtures("unwrapped")
def test_an_error_line_wraps_between_words_at_the_width_and_is_one_line_in_a_pipe(args):
    given = "players A B C D\n---\nE: score 10 win self\nS: score 2\n" if args == ["session", "-"] else None
    narrow = at(60, args, given)
    piped = runner.invoke(app, args, input=given)
    assert narrow.exit_code == piped.exit_code == 1
    assert max(map(len, narrow.stderr.splitlines())) <= 60 and narrow.stderr.split() == piped.stderr.split()
    assert piped.stderr.count("\n") == 1


@pytest.mark.usefixtures("unwrapped")
def test_one_double_and_a_hand_named_one_way(tmp_path):
    ev = tmp_path / "ev.mj"
    r = runner.invoke(app, ["add", str(ev), "--players", "Ann", "Bob", "Cid", "Dee", "-e",
                            "E: [111p] 234m 678s 99s 345p win 9s self; S: [EEE] ...; W: ...; N: ..."])
    assert r.exit_code == 0 and "Hand 1: Ann deals, East round." in r.stdout
    assert "1 double" in r.stdout and "1 doubles" not in r.stdout
    narrow = at(60, ["session", "sample_hands/evening-session.mj"]).stdout
    assert "Hand 5: Dee deals, East round." in narrow and "Hand 7: Ann deals, South round." in narrow
    detail = at(60, ["session", "sample_hands/evening-session.mj", "--hand", "5"]).stdout
    assert detail.startswith("Hand 5: Dee deals, East round\n")
