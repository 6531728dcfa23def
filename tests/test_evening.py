"""At the table: an evening kept hand by hand with `add` and `undo`, played back by `session`,
and output that fits a narrow terminal."""

import json
import os
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

try:                              # a terminal to drive: pexpect's pty spawn, which Windows lacks
    import pexpect
    pexpect.spawn  # noqa: B018 -- the access raises AttributeError where pexpect has no spawn
except (ImportError, AttributeError):
    pexpect = None

runner = CliRunner()
HAND1 = "E: score 40 win self; S: score 8; W: ...; N: ..."
HAND2 = "Bob: [111p] 222s 333m EEE 99s win 9s from Ann; Ann: score 12; Cid: ...; Dee: score 30"


def add(path, *args, input=None):
    return runner.invoke(app, ["add", str(path), *args], input=input)


def test_add_starts_an_evening_and_answers_by_name(tmp_path):
    ev = tmp_path / "ev.mj"
    r = add(ev, "--players", "Ann", "Bob", "Cid", "Dee", "--scheme", "dmjl", "--paying", "winner-only",
            "-e", HAND1)
    assert r.exit_code == 0, r.output
    assert ev.read_text().startswith("players Ann Bob Cid Dee\nscheme dmjl\npaying winner-only\n---\n")
    assert "Bob pays Ann 80" in r.stdout and "Next: Hand 2: Ann deals, East round" in r.stdout
    r = add(ev, "-e", HAND2)
    assert r.exit_code == 0, r.output
    assert "Ann pays Bob " in r.stdout and "Next: Hand 3: Bob deals, East round" in r.stdout
    pays = [line for line in r.stdout.splitlines() if " pays " in line]
    assert all(line.endswith(tuple("0123456789")) and " pays Bob " in line for line in pays)   # winner-only
    # the file plays back to the same totals
    played = json.loads(runner.invoke(app, ["session", str(ev), "--format", "json"]).stdout)
    assert played["next"] == {"dealer": "Bob", "round": "E", "hand": 3, "extra_hands": 0, "kitty_deals": 0,
                              "seats": {"E": "Bob", "S": "Cid", "W": "Dee", "N": "Ann"}, "seats_change": False,
                              "dealer_wins": 0, "title": "Hand 3: Bob deals, East round",
                              "text": "Next: Hand 3: Bob deals, East round", "moves": None,
                              "kept": None}
    assert [h["winner"] for h in played["hands"]] == ["E", "S"]


@pytest.mark.usefixtures("unwrapped")
def test_add_starts_an_evening_with_a_kitty_and_an_extra_hand_bonus(tmp_path):
    ev = tmp_path / "ev.mj"
    r = add(ev, "--players", "Ann", "Bob", "Cid", "Dee", "--scheme", "dmjl", "--kitty", "50", "--kitty-hand",
            "no-chow", "--extra-hand-bonus", "20",
            "-e", "E: [111p] 222s 333m EEE 99s win 9s self; S: ...; W: ...; N: ...")
    assert r.exit_code == 0, r.output
    assert ev.read_text().startswith("players Ann Bob Cid Dee\nscheme dmjl\nkitty 50\nkitty-hand no-chow\n"
                                     "extra-hand-bonus 20\n---\n")
    assert "Kitty: 1 deal x 50 from each player: Ann (E) receives 150" in r.stdout
    assert "Next: Hand 2: Ann deals, East round (Ann deals again: East's win keeps the deal, extra hand 1)" in r.stdout
    # East keeps the deal; a chow hand leaves the kitty where it is, the bonus is paid
    r = add(ev, "-e", "Ann: [123p] 456s 333m 789m 99s win 9s from Bob; Bob: ...; Cid: ...; Dee: ...")
    assert r.exit_code == 0, r.output
    assert "the winner's hand does not earn 'no-chow': the kitty stays" in r.stdout
    assert "Extra hands: East's 1 extra hand in a row x 20: Ann (E) receives 60" in r.stdout
    assert "(Ann deals again: East's win keeps the deal, extra hand 2; the kitty holds 1 deal's stakes)" in r.stdout
    r = add(ev, "--kitty-hand", "no-such-rule", "-e", "Ann: [111p] 222s 333m FFF 99s win 9s self; Bob: ...; "
            "Cid: ...; Dee: ...")
    assert r.exit_code == 1 and "kitty-hand names no rule of scheme 'dmjl'" in r.output
    assert ev.read_text().count("---") == 2                       # nothing written for the refused hand


@pytest.mark.usefixtures("unwrapped")
def test_a_wrong_hand_is_refused_before_anything_is_written(tmp_path):
    ev = tmp_path / "ev.mj"
    add(ev, "--players", "Ann", "Bob", "Cid", "Dee", "-e", HAND1)
    before = ev.read_bytes()
    for bad in ("E: 5555p ...; W: 5p ...", "Eve: score 10 win self", "E: score 10 win self; S: score 10 win self"):
        r = add(ev, "-e", bad)
        assert r.exit_code == 1 and r.stderr.count("\n") == 1 and ": error: " in r.stderr
        assert ev.read_bytes() == before
    # no temporary file left behind (the lock file beside the evening stays: it is how writers take turns)
    assert not [p for p in tmp_path.iterdir() if p.name not in ("ev.mj", ".ev.mj.lock")]


def test_a_wrong_hand_is_located_in_what_was_typed(tmp_path):
    ev = tmp_path / "ev.mj"
    add(ev, "--players", "Ann", "Bob", "Cid", "Dee", "-e", HAND1)
    r = add(ev, "-e", "E: score 10 win self; S: 12q; W: ...; N: ...")
    assert r.exit_code == 1 and r.stderr.startswith("<-e>:2:"), r.stderr
    hand = tmp_path / "hand.mj"
    hand.write_text("E: score 10 win self\nS: ...\nW: ...\nN: 12q\n")
    r = add(ev, str(hand))
    assert r.exit_code == 1 and r.stderr.startswith(f"{hand}:4:"), r.stderr


def test_add_reads_a_file_or_standard_input(tmp_path):
    ev = tmp_path / "ev.mj"
    hand = tmp_path / "hand.mj"
    hand.write_text(HAND1.replace("; ", "\n"))
    assert add(ev, str(hand), "--players", "A", "B", "C", "D").exit_code == 0
    assert add(ev, "-", input="E: score 10 win self\nS: ...\nW: ...\nN: ...\n").exit_code == 0
    assert ev.read_text().count("---") == 2


def test_a_new_evening_needs_its_players(tmp_path):
    r = add(tmp_path / "new.mj", "-e", HAND1)
    assert r.exit_code == 1 and "--players" in r.stderr and not (tmp_path / "new.mj").exists()


@pytest.mark.usefixtures("unwrapped")
def test_undo_takes_back_the_last_hand(tmp_path):
    ev = tmp_path / "ev.mj"
    add(ev, "--players", "Ann", "Bob", "Cid", "Dee", "-e", HAND1)
    after_one = ev.read_text()
    add(ev, "-e", HAND2)
    r = runner.invoke(app, ["undo", str(ev)])
    assert r.exit_code == 0 and "Bob: [111p] 222s 333m EEE 99s win 9s from Ann" in r.stdout
    assert "Ann          2240" in r.stdout and "Next: Hand 2: Ann deals, East round" in r.stdout
    assert ev.read_text() == after_one
    runner.invoke(app, ["undo", str(ev)])
    r = runner.invoke(app, ["undo", str(ev)])
    assert r.exit_code == 1 and "no hand to take back" in r.stderr


@pytest.mark.usefixtures("unwrapped")
def test_session_reports_every_bad_hand_and_the_standings_up_to_the_first(tmp_path):
    f = tmp_path / "bad.mj"
    f.write_text("players A B C D\n---\nE: score 10 win self\nS: score 0\nW: score 0\nN: score 0\n---\nE: 12x\n"
                 "---\nE: score 10 win self\nS: 5555p ...\nW: 5p ...\n")
    r = runner.invoke(app, ["session", str(f)])
    assert r.exit_code == 1
    assert [line.split(": error:")[0] for line in r.stderr.splitlines()] == [f"{f}:8:4", f"{f}:12:4"]
    assert "A            2060" in r.stdout and "The totals stop before hand 2" in r.stdout


def test_names_stand_for_seats_through_the_rotation():
    text = ("players Ann Bob Cid Dee\n---\nBob: score 20 win self\nAnn: score 0\nCid: score 0\nDee: score 0\n---\n"
            "Cid: score 30 win 5p from Ann\nAnn: score 4\nBob: score 0\nDee: score 0\npenalty Dee 10 to Ann\n")
    r = runner.invoke(app, ["session", "-", "--format", "json"], input=text)
    hands = json.loads(r.stdout)["hands"]
    assert hands[0]["winner"] == "S" and hands[1]["winner"] == "S"              # Bob dealt hand 2: Cid sits South
    assert hands[1]["win"]["from"] == "N" and hands[1]["names"]["N"] == "Ann"
    assert hands[1]["settlement"]["penalties"] == [{"from": "W", "to": "N", "amount": 10}]


def test_an_add_up_evening_with_draws():
    text = "players A B C D\npaying add-up\n---\ndraw\n---\nE: score 10 win self\nS: score 2\nW: score 0\nN: score 0\n"
    r = runner.invoke(app, ["session", "-", "--format", "json"], input=text)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["totals"] == {"A": 2000, "B": 2020, "C": 2002, "D": 2000}


# -- a real terminal ---------------------------------------------------------------------------

def spawn(args, cwd, columns=80):
    env = dict(os.environ, COLUMNS=str(columns), TERM="dumb", MJSCORE_CACHE_DIR="")
    if pexpect is None:
        pytest.skip("no pty to drive a terminal with (Windows)")
    child = pexpect.spawn(sys.executable, ["-m", "mjscore", *args], cwd=str(cwd), env=env, encoding="utf-8",
                          timeout=30, dimensions=(40, columns))
    return child


def test_add_asks_for_the_hand_seat_by_seat_at_a_terminal(tmp_path):
    child = spawn(["add", "ev.mj", "--players", "Ann", "Bob", "Cid", "Dee"], tmp_path)
    child.expect_exact("Ann (East):")
    child.sendline("[111p] 222s 333m EEE 99s win 9s self")
    child.expect_exact("Bob (South):")
    child.sendline("score 8")
    child.expect_exact("Cid (West):")
    child.sendline("")                                       # nothing: a loser who scored nothing
    child.expect_exact("Dee (North):")
    child.sendline("...")
    child.expect_exact("Next: Hand 2: Ann deals, East round")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = (tmp_path / "ev.mj").read_text()
    assert "E: [111p] 222s 333m EEE 99s win 9s self\nS: score 8\nW: ...\nN: ...\n" in text
    # the next hand is asked in the new seating, by name
    child = spawn(["add", "ev.mj"], tmp_path)
    child.expect_exact("Hand 2: Ann deals")
    child.expect_exact("Ann (East):")
    child.sendline("score 10 win self")
    for who in ("Bob (South):", "Cid (West):", "Dee (North):"):
        child.expect_exact(who)
        child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and (tmp_path / "ev.mj").read_text().count("---") == 2


def test_a_hand_left_unfinished_at_the_terminal_writes_nothing(tmp_path):
    child = spawn(["add", "ev.mj", "--players", "Ann", "Bob", "Cid", "Dee"], tmp_path)
    child.expect_exact("Ann (East):")
    child.sendline("12x win 1m self")
    child.expect_exact("error: '12x' is not a tile")
    child.expect_exact("Ann (East):")                       # asked again, alone
    child.sendeof()
    child.expect("nothing written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and not (tmp_path / "ev.mj").exists()


# -- narrow terminals --------------------------------------------------------------------------

SAMPLES = sorted(p for p in Path("sample_hands").glob("*.mj") if "session" not in p.name)


@pytest.mark.parametrize("args", [["score", str(p)] for p in SAMPLES] + [
    ["session", "sample_hands/evening-session.mj"], ["session", "sample_hands/evening-session.yaml"]])
def test_nothing_is_wider_than_sixty_columns(args):
    r = runner.invoke(app, args, env={"COLUMNS": "60"})
    assert r.exit_code == 0, r.output
    wide = [line for line in r.stdout.splitlines() if len(line) > 60]
    assert wide == []


def test_at_sixty_columns_no_figure_is_broken():
    r = runner.invoke(app, ["session", "sample_hands/evening-session.mj"], env={"COLUMNS": "60"})
    wide = runner.invoke(app, ["session", "sample_hands/evening-session.mj"], env={"COLUMNS": "300"})
    figures = sorted(re.findall(r"[+-]?\d+", wide.stdout))
    assert sorted(re.findall(r"[+-]?\d+", r.stdout)) == figures


# -- the matrix ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [p for p in Path("sample_hands").glob("*") if "penalt" in p.read_text()])
@pytest.mark.usefixtures("unwrapped")
def test_the_matrix_equals_the_nets(path):
    r = runner.invoke(app, ["score", str(path)])
    lines = r.stdout.splitlines()
    top = next(n for n, line in enumerate(lines) if line.startswith("pays \\ receives"))
    spans = [m.span() for m in re.finditer(r"-+", lines[top + 1])]          # the columns, from the rule line

    def cells(line):
        return [line[a:b].strip() for a, b in spans]

    rows = {}
    for line in lines[top + 2:top + 6]:
        c = cells(line)
        rows[c[0].split()[0]] = [0 if x in (".", "") else int(x) for x in c[1:5]]
    net = [int(x) for x in cells(lines[top + 6])[1:5]]
    seats = ["East", "South", "West", "North"]
    for j, seat in enumerate(seats):
        received = sum(rows[s][j] for s in seats)
        paid = sum(rows[seat])
        assert received - paid == net[j], seat
    assert sum(net) == 0


def test_the_chart_is_plain_off_a_terminal_and_never_in_json():
    r = runner.invoke(app, ["session", "sample_hands/evening-session.mj", "--chart"])
    assert r.exit_code == 0 and "Running totals" in r.stdout and "\x1b" not in r.stdout
    axis = next(line for line in r.stdout.splitlines()[::-1] if re.fullmatch(r"[\s\d]+", line) and line.strip())
    assert all(x.isdigit() for x in axis.split())                     # whole hand numbers
    assert runner.invoke(app, ["session", "sample_hands/evening-session.mj",
                               "--chart", "--format", "json"]).exit_code == 2


# -- the command line --------------------------------------------------------------------------

COMMANDS = [[], ["score"], ["batch"], ["waits"], ["check"], ["session"], ["show"], ["add"], ["undo"], ["help"],
            ["example"], ["schemes"], ["schemes", "show"], ["schemes", "diff"]]


def help_examples():
    """Every command line of every --help, as it would be pasted into a shell."""
    out = []
    for command in COMMANDS:
        text = runner.invoke(app, [*command, "--help"]).stdout
        out += [(command, x.strip()) for x in text.splitlines() if x.strip().startswith("mjscore ")]
    return out


def test_every_help_example_works_when_pasted_in_a_folder_of_ones_own(tmp_path):
    import subprocess

    bin_dir = os.path.dirname(sys.executable)                 # where the mjscore command is installed
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], MJSCORE_CACHE_DIR="")
    for command, line in help_examples():
        if line == "mjscore add evening.mj":
            continue                                   # asks at a terminal: see tests/test_prompt.py
        r = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=tmp_path, capture_output=True, text=True,
                           timeout=60, stdin=subprocess.DEVNULL, env=env)
        assert r.returncode == (1 if command == ["check"] else 0), (line, r.stderr)   # the check example differs
    assert not any("sample_hands/" in line or "docs/" in line for _, line in help_examples())


@pytest.mark.parametrize("args", [["check", "-e", "E: ...", "--format", "csv"],
                                  ["waits", "-e", "E: ...", "--format", "markdown"],
                                  ["schemes", "show", "dmjl", "--format", "json"],
                                  ["schemes", "diff", "dmjl", "bmja", "--format", "csv"],
                                  ["score", "-e", "E: score 10 win self", "--payoff", "japanse"],
                                  ["score", "-e", "E: score 10 win self", "--paying", "everybody"]])
def test_a_format_or_choice_a_command_does_not_have_is_a_usage_error(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 2
    if "--payoff" in args:
        assert "chinese-classical, chinese-modern, japanese" in r.output


def test_score_reads_standard_input_when_it_is_not_a_terminal():
    r = runner.invoke(app, ["score", "--format", "json"], input=Path("sample_hands/draw.mj").read_text())
    assert r.exit_code == 0 and json.loads(r.stdout)["draw"] is True


def test_the_payoff_tables_can_be_read():
    r = runner.invoke(app, ["schemes", "show", "classical", "--payoffs"])
    assert r.exit_code == 0 and "japanese" in r.stdout and "other-on-other-discard" in r.stdout


def test_a_lone_winner_under_between_all_is_told_how_to_go_on():
    r = runner.invoke(app, ["score", "-e", "E: [111p] 222s 333m EEE 99s win 9s self"])
    assert "add 'S: ...' for a loser who scored nothing, or use --paying winner-only" in r.stdout


@pytest.mark.parametrize("sample", ["evening-session.mj", "evening-session.yaml"])
def test_show_keeps_a_sessions_header_and_names_so_it_plays_again(tmp_path, sample):
    shown = runner.invoke(app, ["show", f"sample_hands/{sample}"])
    assert shown.exit_code == 0 and shown.stdout.startswith("players Ann Bob Cid Dee\n")
    again = tmp_path / "again.mj"
    again.write_text(shown.stdout)
    a = json.loads(runner.invoke(app, ["session", str(again), "--format", "json"]).stdout)
    b = json.loads(runner.invoke(app, ["session", f"sample_hands/{sample}", "--format", "json"]).stdout)
    assert a["totals"] == b["totals"] and [h["winner"] for h in a["hands"]] == [h["winner"] for h in b["hands"]]


def test_the_tile_pictures_read_back_as_the_same_tables():
    pictures = runner.invoke(app, ["show", "sample_hands/evening.mj", "--tiles", "unicode"]).stdout
    back = runner.invoke(app, ["show", "-"], input=pictures)
    assert back.exit_code == 0 and back.stdout == runner.invoke(app, ["show", "sample_hands/evening.mj"]).stdout


@pytest.mark.parametrize("written,plain", [
    ("S: [CCC] 234m 678m [55p] 789s 1f win 5p from N", "S: [CCC] 234m 678m 55p 789s 1f win 5p from N"),
    ("S: [CCC] 234m 678m 55p [789s] 1f win 9s from N", "S: [CCC] 234m 678m 55p 789s 1f win 9s from N"),
])
def test_the_winning_set_written_as_the_breakdown_prints_it(written, plain):
    a = runner.invoke(app, ["score", "-e", written, "--format", "json", "--paying", "winner-only"])
    b = runner.invoke(app, ["score", "-e", plain, "--format", "json", "--paying", "winner-only"])
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert runner.invoke(app, ["show", "-e", "E: [55p] ..."]).exit_code == 1      # a pair is no exposed set


@pytest.mark.usefixtures("unwrapped")
def test_check_says_alternatives_and_where_each_claim_stands():
    r = runner.invoke(app, ["check", "-e", "round S\nN: ...\nE: [CCC] 123p 567p 99s EEE 1f win 9s self = 80"])
    assert "<-e>:3:1: E claims 80" in r.stdout and "any one of these would account for the difference:" in r.stdout
    together = runner.invoke(app, ["check", "-e", "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = 40"])
    assert "together" in together.stdout
    counted = runner.invoke(app, ["check", "-e", "E: score 40 win self = 40"])
    assert "no tiles to compare with" in counted.stdout and "agreed" not in counted.stdout


def test_one_hand_of_the_evening_in_detail():
    r = runner.invoke(app, ["session", "sample_hands/evening-session.mj", "--hand", "3"], env={"COLUMNS": "60"})
    assert r.exit_code == 0 and "Hand 3: Bob deals, East round" in r.stdout and "South (Cid) - winner" in r.stdout
    assert max(map(len, r.stdout.splitlines())) <= 60
    assert runner.invoke(app, ["session", "sample_hands/evening-session.mj", "--hand", "99"]).exit_code == 2


def test_score_accepts_a_trailing_separator_and_its_csv_says_where_each_table_stands(tmp_path):
    f = tmp_path / "two.mj"
    f.write_text("E: score 10 win self\n---\nE: score 20 win self\n---\n")
    r = runner.invoke(app, ["score", str(f), "--format", "csv", "--paying", "winner-only"])
    assert r.exit_code == 0, r.output
    rows = [line.split(",") for line in r.stdout.splitlines()[1:]]
    assert [(row[1], row[2]) for row in rows] == [(str(f), "1")] * 4 + [(str(f), "3")] * 4    # a row a seat


def test_a_data_package_not_found_is_looked_up_once(monkeypatch, tmp_path):
    """A copied source folder without its data: the failure is said, and remembered (every
    table of a batch would otherwise search the import system again)."""
    import importlib.util

    import mjscore
    from mjscore.store import packaged
    from mjscore.rules.shipped import scheme_dir

    calls = []
    monkeypatch.setattr(packaged, "find_spec", lambda name: calls.append(name))
    monkeypatch.setattr(packaged, "__file__", str(tmp_path / "mjscore" / "store" / "packaged.py"))   # no pyproject
    packaged.data_folder.cache_clear()
    try:
        for _ in range(3):
            with pytest.raises(mjscore.SchemeError, match="shipped schemes are not installed"):
                scheme_dir()
        assert calls == ["mjscore.schemes"]
    finally:
        monkeypatch.undo()
        packaged.data_folder.cache_clear()
    assert importlib.util.find_spec("mjscore.schemes") is not None and scheme_dir().is_dir()
