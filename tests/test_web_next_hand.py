"""The next hand held by the table page's server (api.NextHand behind the JSON API): every line
and penalty under the hand's number, settled as the server holds them, undone by its number,
each change told to every phone.  Through the ASGI test client; threads for requests at once."""

import threading

import pytest
from fastapi.testclient import TestClient

import mjscore
from mjscore.web.app import create_app

TOKEN = "n" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}
JSON = {**AUTH, "Content-Type": "application/json"}
PLAYERS = ("Ann", "Bob", "Cid", "Dee")


@pytest.fixture
def evening(tmp_path):
    path = tmp_path / "ev.mj"
    mjscore.Evening(path).start(PLAYERS)
    return path


@pytest.fixture
def client(evening):
    return TestClient(create_app(str(evening), TOKEN), base_url="http://127.0.0.1")


def status(client):
    r = client.get("/api/status", headers=AUTH)
    assert r.status_code == 200
    return r.json()


def put(client, seat, text, hand, by=None):
    # A line is its player's: sent as the player in that seat now, unless the test names another.
    by = by or status(client)["next"]["seats"][seat]
    return client.put(f"/api/drafts/{seat}", json={"text": text, "hand": hand, "by": by}, headers=AUTH)


def enter(client, hand, lines):
    for seat, text in lines.items():
        r = put(client, seat, text, hand)
        assert r.status_code == 200 and r.json()["ok"], r.json()


def settle(client, hand, **more):
    return client.post("/api/hands", json={"hand": hand, **more}, headers=AUTH)


def test_a_draft_names_its_hand_and_one_for_a_hand_that_moved_on_is_refused(client, evening):
    assert status(client)["hand"] == 1
    assert put(client, "E", "score 8", 2).status_code == 409          # not yet the next hand
    r = client.put("/api/drafts/E", json={"text": "score 8"}, headers=AUTH)
    assert r.status_code == 422 and "hand" in r.json()["error"]["message"]       # a draft without its hand
    enter(client, 1, {"E": "score 40 win self", "S": "8"})
    assert settle(client, 1, others_nothing=True, by="Bob").status_code == 201
    # Cid types "score 8" in the second after Bob settled: it is not filed under hand 1's seats.
    r = put(client, "W", "score 8", 1, "Cid")
    assert r.status_code == 409
    assert r.json()["error"]["message"].startswith("hand 1 was settled while you typed: your line was not kept")
    st = status(client)
    assert st["hand"] == 2 and st["drafts"] == {} and st["penalties"] == []
    assert mjscore.play_session(evening).hands[0].to_dict()["players"][2]["score"] == 0


def test_settling_writes_the_drafts_as_the_server_holds_them(client, evening):
    enter(client, 1, {"E": "40 win self", "S": "8", "W": "", "N": "16"})
    # A phone's stale view does not count: the server writes what it holds now.
    enter(client, 1, {"N": "..."})
    r = settle(client, 1, by="Ann")
    assert r.status_code == 201, r.json()
    assert evening.read_text().endswith("---\nE: score 40 win self\nS: score 8\nW: ...\nN: ...\n")
    assert r.json()["hand"] == mjscore.play_session(evening).hands[0].to_dict()


def test_settling_drafts_that_make_no_hand_is_422_with_the_command_lines_message(client, evening):
    enter(client, 1, {"E": "40 win self", "S": "8", "W": ""})
    before = evening.read_bytes()
    r = settle(client, 1)
    assert r.status_code == 422
    error = r.json()["error"]
    assert "between-all needs every loser's score; missing: Dee" in error["message"] and error["seat"] == "N"
    assert evening.read_bytes() == before
    r = settle(client, 1, others_nothing=True)                         # Dee's seat: '...'
    assert r.status_code == 201


def test_a_settle_sent_twice_writes_one_hand_and_two_at_once_write_one(client, evening):
    enter(client, 1, {"E": "40 win self", "S": "8", "W": "", "N": ""})
    assert settle(client, 1).status_code == 201
    r = settle(client, 1)
    assert r.status_code == 409 and "hand 1 is in the evening already" in r.json()["error"]["message"]
    enter(client, 2, {"E": "40 win self", "S": "8", "W": "", "N": ""})
    answers = []
    threads = [threading.Thread(target=lambda: answers.append(settle(client, 2).status_code)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(answers) == [201, 409, 409, 409]
    assert len(mjscore.play_session(evening).hands) == 2


def test_penalties_are_drafts_every_phone_sees_with_who_entered_them_and_settling_pays_them(client, evening):
    r = client.post("/api/penalties", json={"hand": 1, "from": "dee", "amount": 100, "to": "Ann", "by": "Bob"},
                    headers=AUTH)
    assert r.status_code == 200
    assert r.json()["penalties"] == [{"from": "Dee", "amount": 100, "to": "Ann", "by": "Bob"}]
    st = status(client)
    assert st["penalties"] == [{"from": "Dee", "amount": 100, "to": "Ann", "by": "Bob",
                                "said": "Penalty: Dee pays 100 to Ann (entered by Bob)"}]
    assert st["notices"][-1]["text"] == "Bob entered a penalty: Dee pays 100 to Ann"
    # Typing 100 once more adds a second penalty of 100, never "100100".
    client.post("/api/penalties", json={"hand": 1, "from": "Dee", "amount": 100, "by": "Cid"}, headers=AUTH)
    assert [p["amount"] for p in status(client)["penalties"]] == [100, 100]
    # Settled from another phone: both are written.
    enter(client, 1, {"E": "40 win self", "S": "8", "W": "", "N": ""})
    assert settle(client, 1, by="Cid").status_code == 201
    text = evening.read_text()
    assert "penalty Dee 100 to Ann\npenalty Dee 100\n" in text
    # Dee pays Ann 80 (East's 40, doubled) and Bob 8 for the hand, then both penalties.
    assert mjscore.play_session(evening).totals["Dee"] == 2000 - 80 - 8 - 100 - 300


@pytest.mark.parametrize("penalty,message", [
    ({"from": "Eve", "amount": 10}, "a penalty is paid by one of the players (Ann, Bob, Cid, Dee)"),
    ({"from": "Dee", "amount": 0}, "a penalty is a whole number from 1 to 1,000,000,000"),
    ({"from": "Dee", "amount": -5}, "a penalty is a whole number from 1 to 1,000,000,000"),
    ({"from": "Dee", "amount": 100100100100}, "a penalty is a whole number from 1 to 1,000,000,000"),
    ({"from": "Dee", "amount": 10, "to": "dee"}, "a player does not pay a penalty to themselves"),
    ({"from": "Dee", "amount": 10, "to": "Zed"}, "a penalty is paid to one of the players"),
])
def test_a_penalty_that_is_none_is_refused_and_nothing_changes(client, penalty, message):
    client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Ann", "amount": 5}, headers=AUTH)
    r = client.post("/api/penalties", json={"hand": 1, "by": "Bob", **penalty}, headers=AUTH)
    assert r.status_code == 422 and r.json()["error"]["message"].startswith(message)
    assert [p["amount"] for p in status(client)["penalties"]] == [5]


def test_put_penalties_replaces_them_and_a_stale_hand_is_409(client):
    client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Ann", "amount": 5}, headers=AUTH)
    r = client.put("/api/penalties", json={"hand": 1, "penalties": [{"from": "Bob", "amount": 7, "to": None}],
                                           "by": "Cid"}, headers=AUTH)
    assert r.status_code == 200 and r.json()["penalties"] == [{"from": "Bob", "amount": 7, "to": None, "by": "Cid"}]
    r = client.put("/api/penalties", json={"hand": 3, "by": "Bob", "penalties": []}, headers=AUTH)
    assert r.status_code == 409


def test_a_draw_settled_from_the_drafts_keeps_its_penalties(client, evening):
    client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Bob", "amount": 20}, headers=AUTH)
    r = settle(client, 1, draw=True, by="Dee")
    assert r.status_code == 201, r.json()
    assert evening.read_text().endswith("---\npenalty Bob 20\ndraw\n")


def test_undo_names_its_hand_and_two_at_once_take_back_one(client, evening):
    for hand in (1, 2):
        enter(client, hand, {"E": "40 win self", "S": "8", "W": "", "N": ""})
        assert settle(client, hand).status_code == 201
    r = client.delete("/api/hands/last?hand=1&by=Ann", headers=JSON)
    message = r.json()["error"]["message"]
    assert r.status_code == 409 and "hand 1 is not the evening's last hand: the last is hand 2" in message
    for _ in range(10):
        answers: list[int] = []

        def take_back(answers: list[int] = answers) -> None:
            answers.append(client.delete("/api/hands/last?hand=2&by=Ann", headers=JSON).status_code)
        threads = [threading.Thread(target=take_back) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(answers) == [200, 409]
        assert len(mjscore.play_session(evening).hands) == 1
        r = client.delete("/api/hands/last?hand=2&by=Ann", headers=JSON)
        assert r.status_code == 409 and "hand 2 is not in the evening (taken back already?)" in r.text
        assert settle(client, 2).status_code == 201                   # the drafts came back: settled again
    assert client.delete("/api/hands/last", headers=JSON).status_code == 422      # no hand named: refused


def test_an_undone_hands_lines_and_penalties_come_back_as_its_drafts_and_every_phone_is_told(client, evening):
    client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Dee", "amount": 10, "to": "Cid"}, headers=AUTH)
    enter(client, 1, {"E": "[111p] 222s 333m EEE 99s win 9s self", "S": "[555m] ...", "W": "", "N": "12"})
    assert settle(client, 1, by="Bob").status_code == 201
    assert status(client)["notices"][-1]["text"] == "Hand 1 was settled by Bob"
    r = client.delete("/api/hands/last?hand=1&by=Ann", headers=JSON)
    assert r.status_code == 200
    st = status(client)
    assert st["hand"] == 1 and st["notices"][-1]["text"] == "Hand 1 was taken back by Ann"
    assert {s: d["line"] for s, d in st["drafts"].items()} == {
        "E": "[111p] 222s 333m EEE 99s win 9s self", "S": "[555m] ...", "W": "...", "N": "score 12"}
    assert all(d["ok"] for d in st["drafts"].values())
    assert st["penalties"] == [{"from": "Dee", "amount": 10, "to": "Cid", "by": "Ann",
                                "said": "Penalty: Dee pays 10 to Cid (entered by Ann)"}]
    before = evening.read_text()
    assert settle(client, 1, by="Ann").status_code == 201
    assert mjscore.play_session(evening).hands[0].to_dict()["players"][0]["score"] == 352
    assert evening.read_text().count("penalty Dee 10 to Cid") == 1 and before.count("---") == 1


def test_a_hand_added_at_a_terminal_moves_the_next_hand_and_drops_the_drafts(client, evening):
    enter(client, 1, {"E": "40 win self"})
    client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Dee", "amount": 10}, headers=AUTH)
    mjscore.Evening(evening).add("draw")
    st = status(client)
    assert st["hand"] == 2 and st["drafts"] == {} and st["penalties"] == []
    assert put(client, "E", "score 8", 1).status_code == 409


def test_the_standings_and_the_last_hand_are_what_session_says(client, evening):
    for hand in (1, 2):
        enter(client, hand, {"E": "40 win self", "S": "8", "W": "", "N": ""})
        settle(client, hand)
    whole = mjscore.play_session(evening).to_dict()
    standings = client.get("/api/standings", headers=AUTH).json()
    said = standings.pop("said")
    assert standings == {"players": whole["players"], "start": whole["start"], "hands": 2,
                         **{k: v for k, v in whole.items() if k not in ("players", "start", "hands")}}
    assert said == {k: v for k, v in mjscore.api.evening_words(whole).items() if k != "hands"}
    shown = client.get("/api/hands/2", headers=AUTH).json()
    assert shown.pop("said") == mjscore.api.said(whole["hands"][1]) and shown.pop("title").startswith("Hand 2: ")
    assert shown.pop("outcome") == "Ann (E) wins self-drawn"
    assert shown == whole["hands"][1]


def test_the_last_hand_is_had_from_the_checkpoints_last_record(evening, monkeypatch):
    """The first `GET /api/hands/N` after an add reads the checkpoint's last records, never every one."""
    from mjscore.store import checkpoints

    ev = mjscore.Evening(evening)
    for _ in range(5):
        ev.add("E: score 40 win self; S: ...; W: ...; N: ...")
    ev.play()
    read_all = []
    monkeypatch.setattr(checkpoints, "read_all", lambda key: read_all.append(key) or [])
    client = TestClient(create_app(str(evening), TOKEN), base_url="http://127.0.0.1")
    client.post("/api/hands", json={"text": "E: score 8 win self; S: ...; W: ...; N: ...", "hand": 6}, headers=AUTH)
    assert client.get("/api/hands/6", headers=AUTH).json()["hand"] == 6
    assert client.get("/api/standings", headers=AUTH).json()["hands"] == 6
    assert read_all == []


def test_phones_asking_at_once_share_one_play(evening, monkeypatch):
    import mjscore.evening.resume as resume      # the evening is played by it (api imports it when used)

    plays = []
    real = resume.play_file

    def counted(*args, **kwargs):
        plays.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(resume, "play_file", counted)
    client = TestClient(create_app(str(evening), TOKEN), base_url="http://127.0.0.1")
    mjscore.Evening(evening).add("draw")
    threads = [threading.Thread(target=lambda: status(client)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(plays) == 1


@pytest.mark.parametrize("change", ["settle", "add", "undo"])
def test_a_line_sent_while_the_hand_is_written_or_taken_back_is_refused_not_kept_and_dropped(evening, change):
    """Between the file's change and the drafts' moving on, a line for the hand being changed is
    409 ("try again"), never a 200 for a line that is then dropped."""
    import mjscore.api as api

    ev = api.Evening(evening)
    nh = api.NextHand(ev)
    if change == "undo":
        nh.add("E: score 40 win self; S: ...; W: ...; N: ...")
    hand = nh.status()["hand"]
    nh.put_line("E", "score 40 win self", hand=hand, by="Ann")
    nh.put_line("S", "score 8", hand=hand, by="Bob")
    real_add, real_undo, seen = ev.add, ev.undo, []

    def meanwhile():
        try:
            nh.put_line("W", "score 4", hand=hand, by="Cid")
            seen.append("kept")
        except api.HandMovedError as e:
            seen.append(e.message)

    def add(*args, **kwargs):
        meanwhile()
        return real_add(*args, **kwargs)

    def undo(*args, **kwargs):
        meanwhile()
        return real_undo(*args, **kwargs)
    ev.add, ev.undo = add, undo
    if change == "settle":
        nh.settle(hand, others_nothing=True)
    elif change == "add":
        nh.add("draw", hand=hand)
    else:
        nh.undo(hand - 1)
    assert seen and seen[0].startswith(f"hand {hand} is being settled or taken back from another phone"), seen
    # and once done, lines are taken again
    nh.put_line("N", "score 2", hand=nh.status()["hand"], by=nh.status()["next"]["seats"]["N"])


def test_a_status_poll_never_waits_on_a_writers_lock(client, evening):
    """A writer (an add at a terminal, a settle) holds the evening's lock: the phones' polls are
    answered meanwhile, from the evening as it stands."""
    from mjscore.store.lock import locked

    status(client)
    held, release = threading.Event(), threading.Event()

    def writer():
        with locked(str(evening)):
            held.set()
            release.wait(20)
    t = threading.Thread(target=writer)
    t.start()
    try:
        assert held.wait(10)
        answered = []
        poll = threading.Thread(target=lambda: answered.append(status(client)["hand"]))
        poll.start()
        poll.join(timeout=3)
        assert answered == [1]
    finally:
        release.set()
        t.join(timeout=20)


def test_a_draw_is_written_with_the_lines_held_and_they_must_fit_it(client, evening):
    enter(client, 1, {"S": "12", "W": "8"})
    r = settle(client, 1, draw=True)
    assert r.status_code == 201 and evening.read_text().endswith("---\ndraw\nS: score 12\nW: score 8\n")
    enter(client, 2, {"E": "score 20 win self"})
    r = settle(client, 2, draw=True)
    assert r.status_code == 422 and "draw" in r.json()["error"]["message"]      # never dropped without a word
    assert client.delete("/api/drafts?hand=2", headers=JSON).status_code == 200  # the page asks, then drops them
    assert settle(client, 2, draw=True).status_code == 201


def test_a_hand_far_from_the_next_is_named_as_such(client, evening):
    r = put(client, "E", "score 8", 7)
    assert r.status_code == 409
    assert r.json()["error"]["message"] == "hand 7 is not the next hand (the next is hand 1): nothing was kept"
    r = client.post("/api/hands", json={"text": "draw", "hand": 5}, headers=AUTH)
    assert r.status_code == 422
    assert r.json()["error"]["message"].startswith("the evening has no hand yet; this would be hand 1, not hand 5")
    for bad in ("0", "-5", "x"):
        assert client.delete(f"/api/hands/last?hand={bad}", headers=JSON).status_code == 422


@pytest.mark.parametrize("body", [{"text": "score 8", "hand": True}, {"text": "score 8", "hand": "1"},
                                  {"text": "score 8", "hand": 1.0}])
def test_a_hand_number_is_a_whole_number_not_a_flag_or_a_string(client, body):
    r = client.put("/api/drafts/E", json=body, headers=AUTH)
    assert r.status_code == 422 and status(client)["drafts"] == {}


@pytest.mark.parametrize("amount", [True, "5", 5.0])
def test_a_penalty_is_a_whole_number_not_a_flag_or_a_string(client, amount):
    r = client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Ann", "amount": amount}, headers=AUTH)
    assert r.status_code == 422 and status(client)["penalties"] == []


def test_a_hands_penalties_and_the_notices_are_bounded(client):
    for k in range(64):
        assert client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Ann", "amount": k + 1}, headers=AUTH
                           ).status_code == 200
    r = client.post("/api/penalties", json={"hand": 1, "by": "Bob", "from": "Ann", "amount": 99}, headers=AUTH)
    assert r.status_code == 422 and r.json()["error"]["message"] == "a hand has at most 64 penalties"
    st = status(client)
    assert len(st["penalties"]) == 64 and len(st["notices"]) == 16


def test_a_nul_in_a_line_is_the_lines_error(client):
    r = put(client, "E", "score\x008", 1)
    assert r.status_code == 200 and not r.json()["ok"] and "NUL" in r.json()["error"]["message"]


def test_a_change_at_the_terminal_that_drops_what_was_entered_is_told(client, evening):
    enter(client, 1, {"E": "40 win self"})
    mjscore.Evening(evening).add("draw")
    assert status(client)["notices"][-1]["text"] == "Hand 1 was added at the laptop; Ann's line for hand 1 was dropped"
