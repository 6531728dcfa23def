"""The prompt of `mjscore add` at a real terminal (a pty): each line checked as it is given and
asked again alone, line editing and history, `draw`, penalties and bare numbers, the table-wide
checks asking again only the lines they name; and the keystrokes of a ten-hand evening."""

import io
import json
import os
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.api import prompt_words

PROMPT_HELP = prompt_words()["help"].split("\n")

try:                              # a terminal to drive: pexpect's pty spawn, which Windows lacks
    import pexpect
except ImportError:
    pexpect = None
if pexpect is not None and not hasattr(pexpect, "spawn"):
    pexpect = None

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
UP, BACKSPACE = "\x1b[A", "\x7f"
WINNER = "[111p] 222s 333m EEE 99s win 9s self"


class Typist:
    """A player at a real terminal: what is typed goes to the prompt, each key counted (a key
    that sends an escape sequence, Up, counts once)."""

    def __init__(self, args, cwd, columns=120):
        env = dict(os.environ, COLUMNS=str(columns), TERM="xterm", MJSCORE_CACHE_DIR="")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if pexpect is None:
            pytest.skip("no pty to drive a terminal with (Windows)")
        self.child = pexpect.spawn(sys.executable, ["-m", "mjscore", *args], cwd=str(cwd), env=env,
                                   encoding="utf-8", timeout=30, dimensions=(40, columns))
        self.child.logfile_read = self.seen = io.StringIO()      # everything the terminal showed
        self.keys = 0

    def expect(self, text):
        self.child.expect_exact(text)
        return self

    def line(self, text):
        self.child.sendline(text)
        self.keys += len(text) + 1
        return self

    def key(self, key, times=1):
        for _ in range(times):
            self.child.send(key)
            self.keys += 1
        return self

    def answer(self, prompt, text):
        return self.expect(prompt).line(text)

    def done(self):
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus, self.seen.getvalue().replace("\r\n", "\n")


def start(tmp_path, *more):
    return Typist(["add", "ev.mj", "--players", "Ann", "Bob", "Cid", "Dee", *more], tmp_path)


def hands(tmp_path):
    return json.loads(runner.invoke(app, ["session", str(tmp_path / "ev.mj"), "--format", "json"]).stdout)["hands"]


def test_the_prompt_says_what_it_takes_in_two_lines_of_sixty_columns(tmp_path):
    assert len(PROMPT_HELP) <= 2 and all(len(line) <= 60 for line in PROMPT_HELP)
    said = " ".join(PROMPT_HELP)
    for word in ("score (12)", "tiles", "Enter", "win self or win from NAME", "draw", "penalty NAME N [to NAME]"):
        assert word in said
    assert "TILE" not in said                    # a counted score's win clause needs no tile (issue 39)
    t = start(tmp_path)
    t.expect("Hand 1: Ann deals, East round.")
    for line in PROMPT_HELP:
        t.expect(line)
    t.answer("Ann (East):", "draw")
    assert t.done()[0] == 0


def test_a_loser_who_enters_nothing_reads_nothing_and_a_tile_less_win_clause_is_taken(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", "40 win self")                   # as the prompt's second line says: no tile
    t.answer("Bob (South):", "8")
    t.answer("Cid (West):", "")
    t.answer("Dee (North):", "")
    status, out = t.done()
    assert status == 0, out
    rows = {line.split()[0]: line.split()[2:] for line in out.splitlines()
            if re.match(r"  (Ann|Bob|Cid|Dee) +[ESWN] ", line)}
    assert rows == {"Ann": ["40", "counted"], "Bob": ["8", "counted"], "Cid": ["0", "nothing"], "Dee": ["0", "nothing"]}
    assert "points" not in out


def test_a_wrong_line_is_asked_again_by_itself_with_the_message(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", WINNER)
    t.answer("Bob (South):", "score 8 win 5s from Ana")
    t.expect("error: no player 'Ana' at this table: Ann, Bob, Cid, Dee")
    t.answer("Bob (South):", "5555p ...")                       # asked again, alone: Ann's line stands
    t.answer("Cid (West):", "[123m] 456m 789m 11p 222s")         # 14 tiles: no win clause
    t.expect("error: Cid holds 14 tiles; a loser holds 13; is this the winner?")
    t.answer("Cid (West):", "")
    t.answer("Dee (North):", "")
    status, out = t.done()
    assert status == 0 and "Ann (E) wins self-drawn" in out
    assert "S: 5555p ...\nW: ...\n" in (tmp_path / "ev.mj").read_text()


def test_up_recalls_a_line_to_be_mended(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", "[111p] 222s 333m EEE 99s win 9s slef")
    t.expect("error: the win clause goes on with 'self' or 'from SEAT', not 'slef'")
    t.expect("Ann (East):").key(UP).key(BACKSPACE, 4).line("self")
    for who in ("Bob (South):", "Cid (West):", "Dee (North):"):
        t.answer(who, "")
    status, _ = t.done()
    assert status == 0 and f"E: {WINNER}\n" in (tmp_path / "ev.mj").read_text()


@pytest.mark.parametrize("at", ["Ann (East):", "Cid (West):"])
def test_draw_at_any_prompt_records_a_draw(tmp_path, at):
    t = start(tmp_path)
    for who, text in (("Ann (East):", "12"), ("Bob (South):", "4"), ("Cid (West):", "")):
        if who == at:
            t.answer(who, "Draw")
            break
        t.answer(who, text)
    status, out = t.done()
    assert status == 0 and "Ann deals, East round. A draw." in out
    assert [h["draw"] for h in hands(tmp_path)] == [True]
    assert (tmp_path / "ev.mj").read_text().endswith("---\ndraw\n")


def test_a_bare_number_is_a_score_and_enter_alone_scored_nothing(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", "40 win self")
    t.answer("Bob (South):", "12")
    t.answer("Cid (West):", "")
    t.answer("Dee (North):", "  8 ")
    status, _ = t.done()
    assert status == 0
    assert (tmp_path / "ev.mj").read_text().endswith("E: score 40 win self\nS: score 12\nW: ...\nN: score 8\n")


def test_a_penalty_is_given_at_a_prompt_and_shown_on_its_own_line(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", "penalty bob 100 to Ann")
    t.expect("Penalty noted")
    t.answer("Ann (East):", "40 win self")
    t.answer("Bob (South):", "penalty Bob 100 to Bob")
    t.expect("error: a player cannot pay a penalty to himself")
    for who in ("Bob (South):", "Cid (West):", "Dee (North):"):
        t.answer(who, "")
    status, out = t.done()
    assert status == 0
    assert "Bob pays Ann 180" in out and "Penalty: Bob pays Ann 100" in out       # 80 for the hand, 100 the penalty
    assert "penalty bob 100 to Ann\nE: score 40 win self\n" in (tmp_path / "ev.mj").read_text()


def test_the_whole_table_asks_again_only_the_lines_it_names(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", WINNER)
    t.answer("Bob (South):", "999s ...")                        # with Ann's 99s: five 9s
    t.answer("Cid (West):", "12")
    t.answer("Dee (North):", "")
    t.expect("error: five 9s at the table (Ann has 2, Bob has 3)")
    t.answer("Ann (East):", WINNER)
    t.answer("Bob (South):", "99s ...")
    status, out = t.done()
    assert status == 0 and "Cid (West):" not in out.split("five 9s")[1]
    assert "S: 99s ...\nW: score 12\nN: ...\n" in (tmp_path / "ev.mj").read_text()


def test_nobody_went_out_asks_who_did(tmp_path):
    t = start(tmp_path)
    for who in ("Ann (East):", "Bob (South):", "Cid (West):", "Dee (North):"):
        t.answer(who, "12")
    t.expect("Nobody went out")
    t.answer("Who went out?", "Eve")
    t.expect("no player 'Eve' at this table: Ann, Bob, Cid, Dee")
    t.answer("Who went out?", "cid")
    t.answer("Cid (West):", "12 win from Bob")
    status, out = t.done()
    assert status == 0 and "Cid (W) wins on Bob's discard" in out


def test_a_later_hand_is_asked_in_its_seating_by_name_and_names_match_in_any_case(tmp_path):
    t = start(tmp_path)
    t.answer("Ann (East):", "4").answer("Bob (South):", "20 win FROM ann")
    t.expect("error:")                                          # keywords are lower case
    t.answer("Bob (South):", "20 win from ann").answer("Cid (West):", "").answer("Dee (North):", "")
    assert t.done()[0] == 0
    t = Typist(["add", "ev.mj"], tmp_path)
    t.expect("Hand 2: Bob deals, East round.")
    t.answer("Bob (East):", "30 win from DEE").answer("Cid (South):", "").answer("Dee (West):", "")
    t.answer("Ann (North):", "")
    assert t.done()[0] == 0
    assert hands(tmp_path)[1]["win"]["from"] == "W"


# -- the keystrokes of an evening ----------------------------------------------------------------

def ten_hands():
    """The first ten hands of sample_hands/evening-session.mj: for each, its lines by seat (a
    draw: None)."""
    text = (ROOT / "sample_hands" / "evening-session.mj").read_text()
    out = []
    for chunk in text.split("\n---\n")[1:11]:
        lines = [ln.split("#", 1)[0].strip() for ln in chunk.splitlines()]
        lines = [ln for ln in lines if ln]
        out.append(None if lines == ["draw"] else {ln[0]: ln[3:] for ln in lines})
    return out


def shortest(line):
    """The answer the prompt takes for a line: `score 12` as `12`, a 0 for a loser as Enter."""
    m = re.fullmatch(r"score (\d+)( .*)?", line)
    if not m:
        return line
    return "" if m[1] == "0" and not m[2] else m[1] + (m[2] or "")


COMMAND = "mjscore add ev.mj"
TYPOS = {0: ("self", "slef"), 2: ("from N", "from M"), 4: ("from W", "from X"), 6: ("from E", "from R"),
         8: ("from N", "from B")}                     # a slip in the winner's line of five of the hands


def keys_before(evening):
    """What the old prompt took: every line in full (Enter alone for '...'), a draw only as
    `-e draw` on the command line, and a hand with a slip typed again whole (the old prompt
    checked the hand only once all four lines were in)."""
    keys = 0
    for n, hand in enumerate(evening):
        if hand is None:
            keys += len(f"{COMMAND} -e draw") + 1
            continue
        once = len(COMMAND) + 1 + sum(len(body if body != "score 0" else "") + 1 for body in hand.values())
        keys += once * (2 if n in TYPOS else 1)
    return keys


def test_a_ten_hand_evening_takes_fewer_keys_and_plays_to_the_same_totals(tmp_path):
    evening = ten_hands()
    assert len(evening) == 10 and evening.count(None) == 2
    keys = 0
    for n, hand in enumerate(evening):
        t = Typist(["add", "ev.mj"] + (["--players", "Ann", "Bob", "Cid", "Dee"] if n == 0 else []), tmp_path)
        t.keys = len(COMMAND) + 1
        if hand is None:
            t.expect("):").line("draw")
        else:
            for seat in "ESWN":
                answer = shortest(hand[seat])
                t.expect("):")
                if n in TYPOS and TYPOS[n][0] in answer:
                    right, wrong = TYPOS[n]
                    t.line(answer.replace(right, wrong))
                    t.expect("error:").expect("):")
                    # the slip is the line's last word: Up, rub it out, type it again
                    t.key(UP).key(BACKSPACE, len(wrong.split()[-1])).line(right.split()[-1])
                else:
                    t.line(answer)
        status, out = t.done()
        assert status == 0, out
        keys += t.keys
    sample = json.loads(runner.invoke(app, ["session", str(ROOT / "sample_hands" / "evening-session.mj"),
                                            "--format", "json"]).stdout)
    assert hands(tmp_path)[-1]["totals"] == sample["hands"][9]["totals"]
    before = keys_before(evening)
    print(f"\nkeystrokes for the first ten hands of sample_hands/evening-session.mj, five with a slip: "
          f"{before} before, {keys} now")
    assert keys < before * 0.6
