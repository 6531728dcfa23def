"""The table page through a real club night: a server that restarts keeps what was typed; a line
belongs to its player, whatever a correction does to the seats; a correction knows what it
corrects; the laptop's changes are told like the page's own; a phone waits for a change rather
than asking every second; and one phone's large answer costs the others nothing.

Every process started here has a timeout, and every request goes to 127.0.0.1.
"""

import json
import os
import re
import select
import signal
import stat
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from fastapi.testclient import TestClient

import mjscore
import mjscore.api as api
from mjscore.store import checkpoints
from mjscore.web.app import create_app

TOKEN = "n" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
# Hand 1 as first written (Ann, East, wins: she deals hand 2 too) and as corrected (Bob, South,
# won: he deals hand 2, and every seat of hand 2 moves one place).
ANN_WINS = "E: score 40 win self; S: score 8; W: ...; N: ..."
BOB_WON = "E: score 8; S: score 40 win self; W: ...; N: ..."


@pytest.fixture
def evening(tmp_path):
    path = tmp_path / "ev.mj"
    ev = mjscore.Evening(path)
    ev.start(PLAYERS)
    ev.add(ANN_WINS)
    return path


def client_of(path):
    return TestClient(create_app(str(path), TOKEN), base_url="http://127.0.0.1")


def status(client):
    r = client.get("/api/status", headers=AUTH)
    assert r.status_code == 200
    return r.json()


def put(client, seat, text, by, hand=2):
    return client.put(f"/api/drafts/{seat}", json={"text": text, "hand": hand, "by": by}, headers=AUTH)


def text_of(client, n):
    r = client.get(f"/api/hands/{n}/text", headers=AUTH)
    assert r.status_code == 200
    return r.json()


def correct(client, n, text, version, by):
    return client.put(f"/api/hands/{n}", json={"text": text, "version": version, "by": by}, headers=AUTH)


# -- 1. nothing typed is lost to a restart ----------------------------------------------------

def test_a_server_started_again_has_every_line_and_penalty_with_who_entered_them(evening):
    first = client_of(evening)
    assert put(first, "W", "score 8", "Cid").json()["ok"]
    assert put(first, "E", "score 24 win from Cid", "Ann").json()["ok"]
    r = first.post("/api/penalties", json={"hand": 2, "from": "Dee", "amount": 10, "by": "Bob"}, headers=AUTH)
    assert r.status_code == 200
    kept = evening.parent / ".ev.mj.next"
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600            # what players typed is nobody else's
    again = status(client_of(evening))                               # a new server: nothing in memory
    assert {s: (d["text"], d["by"], d["ok"]) for s, d in again["drafts"].items()} == {
        "W": ("score 8", "Cid", True), "E": ("score 24 win from Cid", "Ann", True)}
    assert again["penalties"] == [{"from": "Dee", "amount": 10, "to": None, "by": "Bob",
                                   "said": "Penalty: Dee pays 10 to each (entered by Bob)"}]
    # Settled by the new server, the hand is as typed on the old one.
    r = client_of(evening).post("/api/hands", json={"hand": 2, "others_nothing": True, "by": "Bob"}, headers=AUTH)
    assert r.status_code == 201, r.text
    assert mjscore.Evening(evening).hand_texts()[1].splitlines() == [
        "penalty Dee 10", "E: score 24 win from Cid", "S: ...", "W: score 8", "N: ..."]
    assert not kept.exists()                                         # nothing held: nothing kept


def test_what_was_kept_for_another_text_of_the_evening_is_never_applied(evening):
    assert put(client_of(evening), "S", "score 8", "Bob").json()["ok"]
    # While the server is down, the laptop corrects hand 1: hand 2 is another hand now.
    mjscore.Evening(evening).edit(1, "E: score 48 win self; S: score 8; W: ...; N: ...")
    assert status(client_of(evening))["drafts"] == {}
    # Nor is a file that is no such record, a link, or another's file believed.
    kept = evening.parent / ".ev.mj.next"
    for planted in (b"not json", json.dumps({"form": 1, "hand": 2, "lines": {"S": {"text": 5}}}).encode(),
                    json.dumps([1, 2]).encode()):
        kept.write_bytes(planted)
        assert status(client_of(evening))["drafts"] == {}


def test_a_link_planted_where_the_next_hand_is_kept_is_never_followed(evening, tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me\n")
    kept = evening.parent / ".ev.mj.next"
    kept.symlink_to(elsewhere)
    assert status(client_of(evening))["drafts"] == {}                 # not read through the link
    assert put(client_of(evening), "S", "score 8", "Bob").json()["ok"]
    assert elsewhere.read_text() == "keep me\n" and not kept.is_symlink()   # replaced, not written through


# -- 2. a line belongs to its player -----------------------------------------------------------

def test_a_line_is_taken_only_for_the_seat_its_player_sits_in(evening):
    c = client_of(evening)
    r = put(c, "W", "score 8", "Dee")                    # Dee sits North
    assert r.status_code == 409 and r.json()["error"]["seat"] == "N"
    assert "Dee sits North for hand 2 now" in r.json()["error"]["message"]
    r = put(c, "W", "score 8", "Eve")                    # not at the table at all
    assert r.status_code == 422 and "name one of the players (Ann, Bob, Cid, Dee)" in r.json()["error"]["message"]
    r = c.post("/api/penalties", json={"hand": 2, "from": "Dee", "amount": 10, "by": "Eve"}, headers=AUTH)
    assert r.status_code == 422
    assert status(c)["drafts"] == {} and status(c)["penalties"] == []


def test_a_correction_that_moves_the_seats_moves_each_line_with_its_player(evening):
    c = client_of(evening)
    assert put(c, "W", "score 8", "Cid").json()["ok"]                  # Cid sits West for hand 2
    assert put(c, "E", "score 24 win self", "Ann").json()["ok"]
    v = text_of(c, 1)["version"]
    assert correct(c, 1, BOB_WON, v, "Dee").status_code == 200       # Bob deals hand 2 now: Cid is South
    st = status(c)
    assert st["next"]["seats"] == {"E": "Bob", "S": "Cid", "W": "Dee", "N": "Ann"}
    assert {s: (d["text"], d["by"]) for s, d in st["drafts"].items()} == {
        "S": ("score 8", "Cid"), "N": ("score 24 win self", "Ann")}
    # A phone that has not heard yet sends Cid's line for West, Dee's seat now: refused, with Cid's seat.
    r = put(c, "W", "score 8", "Cid")
    assert r.status_code == 409 and r.json()["error"]["seat"] == "S"
    assert put(c, "E", "score 4", "Bob").json()["ok"] and put(c, "W", "...", "Dee").json()["ok"]
    assert c.post("/api/hands", json={"hand": 2, "by": "Ann"}, headers=AUTH).status_code == 201
    hand2 = mjscore.Evening(evening).play().hands[1].to_dict()
    written = {hand2["names"][p["seat"]]: p["score"] for p in hand2["players"]}
    assert written == {"Bob": 4, "Cid": 8, "Dee": 0, "Ann": 24}       # Cid's 8 is Cid's, not Dee's


def test_a_line_whose_player_has_left_the_table_is_dropped_and_named(evening):
    c = client_of(evening)
    assert put(c, "N", "score 8", "Dee").json()["ok"]
    text = evening.read_text()
    # At the laptop, hand 1 is written again with Eve in Dee's place (a player changed seats for
    # the evening): Dee's line has nowhere to go.
    evening.write_text(text.replace("players Ann Bob Cid Dee", "players Ann Bob Cid Eve").replace("Dee", "Eve"))
    st = status(c)
    assert st["error"] is None and st["players"] == ["Ann", "Bob", "Cid", "Eve"]
    assert st["drafts"] == {}
    assert any("Dee's line for hand 2 was dropped" in n["text"] for n in st["notices"]), st["notices"]


# -- 3. a correction knows what it corrects ----------------------------------------------------

def test_of_two_corrections_from_one_version_the_second_is_refused_naming_the_first(evening):
    c = client_of(evening)
    v = text_of(c, 1)["version"]
    assert correct(c, 1, "E: score 48 win self; S: score 8; W: ...; N: ...", v, "Bob").status_code == 200
    r = correct(c, 1, "E: score 40 win self; S: score 16; W: ...; N: ...", v, "Cid")
    assert r.status_code == 409
    message = r.json()["error"]["message"]
    assert re.match(r"hand 1 was corrected by Bob at \d\d:\d\d, after you began your correction", message), message
    assert "score 48" in text_of(c, 1)["text"]                      # the first correction stands


def test_the_laptops_edit_add_and_undo_are_told_to_every_phone(evening):
    c = client_of(evening)
    status(c)
    laptop = mjscore.Evening(evening)
    laptop.edit(1, "E: score 48 win self; S: score 8; W: ...; N: ...")
    said = status(c)["notices"][-1]["text"]
    assert said.startswith("Hand 1 was corrected at the laptop: Ann 2240 -> 2288"), said
    laptop.add("draw")
    assert status(c)["notices"][-1]["text"] == "Hand 2 was added at the laptop"
    laptop.undo()
    assert status(c)["notices"][-1]["text"] == "Hand 2 was taken back at the laptop"
    # The page knows who corrected hand 1: the laptop, and when.
    r = correct(c, 1, ANN_WINS, "0" * 16, "Bob")
    assert r.status_code == 409 and "corrected at the laptop at" in r.json()["error"]["message"]


def test_a_hand_added_at_the_laptop_names_the_lines_it_made_moot(evening):
    c = client_of(evening)
    assert put(c, "S", "score 8", "Bob").json()["ok"]
    mjscore.Evening(evening).add("draw")
    assert status(c)["notices"][-1]["text"] == "Hand 2 was added at the laptop; Bob's line for hand 2 was dropped"


# -- 4. a phone waits for a change -------------------------------------------------------------

class Served:
    """`mjscore serve` on 127.0.0.1 (a free port), with a token file kept between runs."""

    def __init__(self, evening, token_file):
        self.proc = subprocess.Popen([sys.executable, "-m", "mjscore", "serve", str(evening), "--port", "0",
                                      "--token-file", str(token_file)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        assert ready, "mjscore serve printed nothing"
        m = re.match(r"Open http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", self.proc.stdout.readline())
        assert m
        self.base, self.token = f"http://127.0.0.1:{m[1]}", m[2]

    def call(self, method, path, body=None, headers=(), timeout=40):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {self.token}",
                                              "Content-Type": "application/json", **dict(headers)})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        self.proc.communicate(timeout=30)


def test_a_restarted_server_with_its_token_file_gives_back_every_line(evening, tmp_path):
    token = tmp_path / "token"
    served = Served(evening, token)
    try:
        code, _, _ = served.call("PUT", "/api/drafts/S", {"text": "score 12", "hand": 2, "by": "Bob"})
        assert code == 200
    finally:
        served.stop()
    again = Served(evening, token)
    try:
        code, _, body = again.call("GET", "/api/status")
        st = json.loads(body)
        assert code == 200 and st["drafts"]["S"]["text"] == "score 12" and st["drafts"]["S"]["by"] == "Bob"
    finally:
        again.stop()


def test_a_waiting_status_answers_at_once_on_a_change_and_304_when_nothing_changed(evening, tmp_path):
    served = Served(evening, tmp_path / "token")
    try:
        code, headers, body = served.call("GET", "/api/status")
        tag = headers["ETag"]
        assert code == 200 and tag == f'"{json.loads(body)["version"]}"'
        t = time.monotonic()
        code, headers, body = served.call("GET", "/api/status?wait=1.5", headers={"If-None-Match": tag})
        waited = time.monotonic() - t
        assert code == 304 and body == b"" and 1.4 <= waited < 10
        # Another phone enters a line while this one waits: the answer comes with it, not 25 s later.
        later = threading.Timer(0.5, lambda: served.call("PUT", "/api/drafts/S",
                                                         {"text": "score 12", "hand": 2, "by": "Bob"}))
        later.start()
        t = time.monotonic()
        code, headers, body = served.call("GET", "/api/status?wait=25", headers={"If-None-Match": tag})
        waited = time.monotonic() - t
        later.join(10)
        assert code == 200 and json.loads(body)["drafts"]["S"]["text"] == "score 12" and waited < 5
        # A change made at the laptop is seen within about a second.
        tag = headers["ETag"]
        later = threading.Timer(0.5, lambda: mjscore.Evening(evening).add("draw"))
        later.start()
        t = time.monotonic()
        code, headers, body = served.call("GET", "/api/status?wait=25", headers={"If-None-Match": tag})
        later.join(10)
        assert code == 200 and json.loads(body)["hand"] == 3 and time.monotonic() - t < 5
    finally:
        served.stop()


# -- 5. one phone's large answer costs the others nothing --------------------------------------

def test_the_evening_wide_answers_are_made_once_for_each_version_of_the_file(evening, monkeypatch):
    c = client_of(evening)
    made = []
    real = api.Evening.play

    def counted(self, **kw):
        made.append(kw)
        return real(self, **kw)
    monkeypatch.setattr(api.Evening, "play", counted)
    first = c.get("/api/evening", headers=AUTH)
    n = len(made)
    for _ in range(3):
        again = c.get("/api/evening", headers=AUTH)
        assert again.content == first.content
    assert len(made) == n                                            # not played again, not encoded again
    mjscore.Evening(evening).add("draw")
    assert len(c.get("/api/evening", headers=AUTH).json()["hands"]) == 2 and len(made) > n


def test_a_correction_reads_the_checkpoint_from_the_hand_it_corrects_not_the_whole_evening(tmp_path, monkeypatch):
    path = tmp_path / "long.mj"
    ev = mjscore.Evening(path)
    ev.start(PLAYERS)
    for k in range(60):
        ev.add(ANN_WINS if k % 3 else "draw")
    ev.play()
    assert checkpoints.read_all                                     # the whole checkpoint is never read:

    def whole(key):
        raise AssertionError("a correction read every record of the evening")
    monkeypatch.setattr(checkpoints, "read_all", whole)
    read = []
    real_last = checkpoints.read_last

    def last(key, count):
        found = real_last(key, count)
        read.append(len(found))
        return found
    monkeypatch.setattr(checkpoints, "read_last", last)
    corrected = mjscore.Evening(path).edit(55, "E: score 48 win self; S: score 8; W: ...; N: ...")
    monkeypatch.undo()
    assert corrected.evening.totals == mjscore.play_session(path).totals
    assert max(read) <= 48                                           # the records after hand 55, and a few more


def test_what_cannot_be_kept_on_disk_is_said_on_every_phone_and_the_line_still_held(evening):
    c = client_of(evening)
    status(c)
    (evening.parent / ".ev.mj.next").mkdir()          # where it is kept, something it cannot replace
    assert put(c, "S", "score 8", "Bob").json()["ok"]
    st = status(c)
    assert st["drafts"]["S"]["text"] == "score 8"
    assert any("could not be kept beside the evening's file" in n["text"] for n in st["notices"]), st["notices"]


@pytest.mark.parametrize("players,serves", [(PLAYERS, True), (("Ann", "Bob", "Dee", "Cid"), False)],
                         ids=["the same players", "other seats"])
def test_the_same_command_line_serves_the_evening_again_after_a_restart(tmp_path, players, serves):
    evening = tmp_path / "new.mj"
    first = subprocess.Popen([sys.executable, "-m", "mjscore", "serve", str(evening), "--port", "0", "--players",
                              *PLAYERS], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([first.stdout], [], [], 30)
        assert ready and first.stdout.readline().startswith("Open http://127.0.0.1:")
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=30)
    command = [sys.executable, "-m", "mjscore", "serve", str(evening), "--port", "0", "--players", *players]
    if not serves:
        refused = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert refused.returncode == 2
        assert "the evening's header already stands" in " ".join(refused.stderr.split()), refused.stderr
        return
    again = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([again.stdout], [], [], 30)
        assert ready and again.stdout.readline().startswith("Open http://127.0.0.1:")
    finally:
        again.send_signal(signal.SIGINT)
        again.communicate(timeout=30)


def test_past_the_most_held_open_a_status_request_is_answered_at_once(evening):
    from mjscore.web.routes import MOST_WAITING

    c = client_of(evening)
    tag = c.get("/api/status", headers=AUTH).headers["etag"]
    c.app.state.waiting = MOST_WAITING                  # that many held open already
    t = time.monotonic()
    r = c.get("/api/status?wait=20", headers={**AUTH, "If-None-Match": tag})
    assert r.status_code == 304 and time.monotonic() - t < 5
    c.app.state.waiting = 0


def test_a_player_clearing_a_seat_that_is_now_anothers_drops_nothing(evening):
    c = client_of(evening)
    assert put(c, "W", "score 8", "Cid").json()["ok"]
    assert correct(c, 1, BOB_WON, text_of(c, 1)["version"], "Ann").status_code == 200    # Cid is South now
    assert put(c, "W", "score 4", "Dee").json()["ok"]                                  # Dee's seat, Dee's line
    r = c.delete("/api/drafts/W?hand=2&by=Cid", headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 409 and r.json()["error"]["seat"] == "S"
    assert {s: d["by"] for s, d in status(c)["drafts"].items()} == {"S": "Cid", "W": "Dee"}
    r = c.delete("/api/drafts/S?hand=2&by=Cid", headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 200 and {s: d["by"] for s, d in status(c)["drafts"].items()} == {"W": "Dee"}
