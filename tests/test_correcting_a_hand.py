"""Any hand of an evening corrected, not only the last (issue: a page players like, item 3):
`mjscore edit EVENING N`, `Evening.edit`, `PUT /api/hands/N`.  The hands after it are played again;
a correction that makes a later hand impossible is refused naming that hand, the file unchanged."""

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.web.app import create_app

runner = CliRunner()
EVENING = ("players Ann Bob Cid Dee\n---\nE: score 40 win self\nS: score 8\nW: ...\nN: ...\n---\n"
           "dealer-wins 1\nE: score 20 win self\nS: ...\nW: ...\nN: ...\n---\ndraw\n")
TOKEN = "c" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def evening(tmp_path):
    path = tmp_path / "ev.mj"
    path.write_text(EVENING)
    return path


def test_a_hand_in_the_middle_is_corrected_and_the_hands_after_it_played_again(evening):
    before = mjscore.play_session(evening).totals
    c = mjscore.Evening(evening).edit(1, "E: score 48 win self; S: score 8; W: ...; N: ...")
    text = evening.read_text()
    assert text == EVENING.replace("E: score 40 win self", "E: score 48 win self")
    after = mjscore.play_session(evening).totals
    assert c.evening.totals == after and c.before == before
    assert c.changed() == {n: {"before": before[n], "after": after[n]} for n in after if after[n] != before[n]}
    assert c.old.startswith("E: score 40 win self") and c.new.startswith("E: score 48 win self")


def test_a_correction_that_makes_a_later_hand_impossible_is_refused_naming_it(evening):
    with pytest.raises(mjscore.MjError) as e:
        mjscore.Evening(evening).edit(1, "S: score 40 win self; E: ...; W: ...; N: ...")   # East no longer won
    assert e.value.message.startswith("hand 2 would not be possible after the correction of hand 1: hand 2 says "
                                      "dealer-wins 1")
    assert evening.read_text() == EVENING


@pytest.mark.parametrize("number,text,message", [
    (9, "draw", "the evening has 3 hands: there is no hand 9 to correct"),
    (1, "S: 12x; E: ...", "'12x' is not a tile"),
    (3, "E: score 8 win self\n---\ndraw", "'---' separates hands"),
])
def test_a_wrong_correction_writes_nothing(evening, number, text, message):
    with pytest.raises(mjscore.MjError) as e:
        mjscore.Evening(evening).edit(number, text)
    assert e.value.message.startswith(message) and evening.read_text() == EVENING


def test_the_last_hand_too(evening):
    mjscore.Evening(evening).edit(3, "S: score 8 win self; E: ...; W: ...; N: ...")
    assert evening.read_text().endswith("---\nS: score 8 win self\nE: ...\nW: ...\nN: ...\n")
    assert len(mjscore.play_session(evening).hands) == 3


def test_the_command_line_shows_what_changed_and_its_json_twin(evening, tmp_path):
    r = runner.invoke(app, ["edit", str(evening), "1", "-e", "E: score 48 win self; S: score 8; W: ...; N: ..."])
    assert r.exit_code == 0 and "Corrected hand 1." in r.stdout and "The evening's totals that changed:" in r.stdout
    twin = tmp_path / "twin.mj"
    twin.write_text(EVENING)
    r = runner.invoke(app, ["edit", str(twin), "1", "-e", "E: score 48 win self; S: score 8; W: ...; N: ...",
                            "--format", "json"])
    d = json.loads(r.stdout)
    assert d["hand"]["hand"] == 1 and d["changed"]["Ann"]["after"] == mjscore.play_session(twin).totals["Ann"]
    r = runner.invoke(app, ["edit", str(evening), "2", "-e", "E: 12x"])
    assert r.exit_code == 1 and "12x" in r.stderr


def test_the_page_corrects_a_hand_and_every_phone_is_told(evening):
    client = TestClient(create_app(str(evening), TOKEN), base_url="http://127.0.0.1")

    def version():      # of hand 1 as the file holds it now: what a correction starts from
        return client.get("/api/hands/1/text", headers=AUTH).json()["version"]
    r = client.put("/api/hands/1", json={"text": "E: score 48 win self; S: score 8; W: ...; N: ...", "by": "Ann",
                                         "version": version()}, headers=AUTH)
    assert r.status_code == 200 and r.json()["changed"]
    notice = client.get("/api/status", headers=AUTH).json()["notices"][-1]["text"]
    assert notice.startswith("Hand 1 was corrected by Ann: Ann ")
    r = client.put("/api/hands/1", json={"text": "S: score 40 win self; E: ...; W: ...; N: ...", "version": version()},
                   headers=AUTH)
    assert r.status_code == 422 and "hand 2 would not be possible" in r.json()["error"]["message"]
    r = client.put("/api/hands/1", json={"text": "scheme /etc/passwd\nE: score 40 win self", "version": version()},
                   headers=AUTH)
    assert r.status_code == 422 and "no file is read" in r.json()["error"]["message"]


def test_at_a_terminal_the_hands_own_lines_are_offered_one_by_one(evening):
    """`mjscore edit EVENING N` at a pty: each line stands where the player types; Enter keeps
    it, or it is changed first (here: Bob's 8 made 12 with two Backspaces), as `add` asks them."""
    import os
    import sys

    import pexpect

    env = dict(os.environ, COLUMNS="80", TERM="xterm", MJSCORE_CACHE_DIR="")
    child = pexpect.spawn(sys.executable, ["-m", "mjscore", "edit", evening.name, "1"], cwd=str(evening.parent),
                          env=env, encoding="utf-8", timeout=30, dimensions=(40, 80))
    child.expect_exact("Hand 1: Ann deals, East round.")
    child.expect_exact("Ann (East): ")
    child.expect_exact("score 40 win self")              # her line as it stands, ready to change
    child.send("\r")                                     # kept
    child.expect_exact("Bob (South): ")
    child.expect_exact("score 8")
    child.send("\x7f" + "12\r")                          # 8 -> 12
    for who in ("Cid (West): ", "Dee (North): "):
        child.expect_exact(who)
        child.send("\r")
    child.expect_exact("Corrected hand 1.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert evening.read_text().startswith("players Ann Bob Cid Dee\n---\nE: score 40 win self\nS: score 12\nW: ...\n"
                                          "N: ...\n---\ndealer-wins 1\n")


def test_at_sixty_columns_no_line_is_wider(evening):
    r = runner.invoke(app, ["edit", str(evening), "1", "-e", "E: score 48 win self; S: score 8; W: ...; N: ..."],
                      env={"COLUMNS": "60"})
    assert r.exit_code == 0 and max(len(line) for line in r.stdout.splitlines()) <= 60, r.stdout
