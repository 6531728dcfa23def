"""A night of several tables on one address (issue 42, item 1): `mjscore serve NIGHT` serves a
folder of evening files (or several files) on one port with one token; each table's routes are
under `/api/tables/{table}`, each table keeps its own next hand, drafts, notices and numbering;
`/api/tables` lists them and `/api/night` adds them up.  Through the ASGI test client, and one
real server (with a timeout); every request goes to 127.0.0.1."""

import os
import re
import select
import signal
import subprocess
import sys
import urllib.request
import json

import pytest
from fastapi.testclient import TestClient

import mjscore
from mjscore.web.app import create_app

TOKEN = "t" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ONE = ("Ann", "Bob", "Cid", "Dee")
TWO = ("Eve", "Fay", "Gus", "Hal")
WINS = (("E", "score 40 win self"), ("S", "8"), ("W", ""), ("N", ""))       # East wins 40, self-drawn


@pytest.fixture
def night(tmp_path):
    folder = tmp_path / "thursday"
    folder.mkdir()
    mjscore.Evening(folder / "table-1.mj").start(ONE)
    mjscore.Evening(folder / "table-2.mj").start(TWO)
    return folder


def client_of(folder):
    tables = mjscore.night_tables([folder])
    return TestClient(create_app(tables, TOKEN), base_url="http://127.0.0.1")


def at(table, path):
    return f"/api/tables/{table}{path}"


def enter(c, table, players, hand=1, lines=WINS):
    for (seat, text), who in zip(lines, players, strict=True):
        r = c.put(at(table, f"/drafts/{seat}"), json={"text": text, "hand": hand, "by": who}, headers=AUTH)
        assert r.status_code == 200, r.text


def test_a_hand_at_one_table_never_shows_at_the_other(night):
    c = client_of(night)
    before = (night / "table-2.mj").read_text()
    enter(c, "table-1", ONE)
    assert set(c.get(at("table-1", "/status"), headers=AUTH).json()["drafts"]) == {"E", "S", "W", "N"}
    assert c.get(at("table-2", "/status"), headers=AUTH).json()["drafts"] == {}
    r = c.post(at("table-1", "/hands"), json={"hand": 1, "by": "Ann"}, headers=AUTH)
    assert r.status_code == 201, r.text
    assert c.get(at("table-1", "/standings"), headers=AUTH).json()["hands"] == 1
    two = c.get(at("table-2", "/standings"), headers=AUTH).json()
    assert two["hands"] == 0 and set(two["totals"]) == set(TWO)
    assert (night / "table-2.mj").read_text() == before
    assert "Ann" in (night / "table-1.mj").read_text() and "score 40" in (night / "table-1.mj").read_text()
    notices = c.get(at("table-2", "/status"), headers=AUTH).json()["notices"]
    assert notices == []                              # table 1's notice is table 1's


def test_each_table_numbers_its_own_hands_and_refuses_a_stale_phone_on_its_own(night):
    c = client_of(night)
    enter(c, "table-1", ONE)
    assert c.post(at("table-1", "/hands"), json={"hand": 1, "by": "Ann"}, headers=AUTH).status_code == 201
    # a stale phone at table 1 settles hand 1 again: 409; table 2's hand 1 is still to play
    assert c.post(at("table-1", "/hands"), json={"hand": 1, "by": "Bob"}, headers=AUTH).status_code == 409
    assert c.put(at("table-1", "/drafts/E"), json={"text": "8", "hand": 1, "by": "Ann"},
                 headers=AUTH).status_code == 409
    enter(c, "table-2", TWO)
    assert c.post(at("table-2", "/hands"), json={"hand": 1, "by": "Eve"}, headers=AUTH).status_code == 201
    # taking back table 1's hand 1 leaves table 2's where it is
    assert c.delete(at("table-1", "/hands/last?hand=1&by=Ann"),
                    headers={**AUTH, "Content-Type": "application/json"}).status_code == 200
    assert c.get(at("table-1", "/standings"), headers=AUTH).json()["hands"] == 0
    assert c.get(at("table-2", "/standings"), headers=AUTH).json()["hands"] == 1


def test_a_line_belongs_to_a_player_of_that_table(night):
    c = client_of(night)
    # Ann sits at table 1: a line "by Ann" for table 2's East is not kept there
    r = c.put(at("table-2", "/drafts/E"), json={"text": "8", "hand": 1, "by": "Ann"}, headers=AUTH)
    assert r.status_code == 422 and "error" in r.json()
    assert c.get(at("table-2", "/status"), headers=AUTH).json()["drafts"] == {}


@pytest.mark.parametrize("method,path,body", [
    ("GET", "/api/tables/table-3/status", None),
    ("GET", "/api/tables/table-3/standings", None),
    ("PUT", "/api/tables/..%2ftable-1/drafts/E", {"text": "8", "hand": 1, "by": "Ann"}),
    ("POST", "/api/tables/TABLE-1/hands", {"hand": 1, "by": "Ann"}),
])
def test_an_unknown_table_is_404_with_the_error_body(night, method, path, body):
    r = client_of(night).request(method, path, json=body, headers=AUTH)
    assert r.status_code == 404, r.text
    message = r.json()["error"]["message"]
    # a name with a slash in it matches no route at all: 404 all the same
    assert message == "Not Found" if "%2f" in path else message.startswith("no table '") and message.endswith(
        "(the tables: table-1, table-2)")


NEW_PATHS = ["/api/tables", "/api/night", "/api/tables/table-1/status", "/api/tables/table-2/evening",
             "/api/tables/table-1/stats", "/api/tables/table-1/rules", "/api/tables/table-3/status"]


@pytest.mark.parametrize("path", NEW_PATHS)
def test_the_token_guards_every_path_of_a_night(night, path):
    c = client_of(night)
    assert c.get(path).status_code == 401
    assert c.get(path, headers={"Authorization": "Bearer " + "x" * 32}).status_code == 401
    assert c.get(path, headers=AUTH).status_code in (200, 404)


@pytest.mark.parametrize("origin", [{"Origin": "http://evil.example"}, {"Origin": "null"},
                                    {"Origin": "http://127.0.0.1", "Sec-Fetch-Site": "cross-site"}])
def test_a_change_from_another_site_is_refused_at_every_table(night, origin):
    c = client_of(night)
    for table in ("table-1", "table-2"):
        r = c.put(at(table, "/drafts/E"), json={"text": "8", "hand": 1, "by": ONE[0] if table == "table-1" else TWO[0]},
                  headers={**AUTH, **origin})
        assert r.status_code == 403 and r.json()["error"]["message"] == "a change comes only from the table's own page"
    assert c.get(at("table-1", "/status"), headers=AUTH).json()["drafts"] == {}


def test_a_single_evening_keeps_todays_paths_and_has_no_night_paths(night):
    c = TestClient(create_app(str(night / "table-1.mj"), TOKEN), base_url="http://127.0.0.1")
    assert c.get("/api/status", headers=AUTH).status_code == 200
    assert c.get("/api/tables", headers=AUTH).status_code == 404
    assert c.get(at("table-1", "/status"), headers=AUTH).status_code == 404


def test_the_tables_and_the_night_add_up_what_each_table_played(night):
    c = client_of(night)
    enter(c, "table-1", ONE)
    c.post(at("table-1", "/hands"), json={"hand": 1, "by": "Ann"}, headers=AUTH)
    enter(c, "table-2", TWO, lines=(("E", "8"), ("S", "score 40 win self"), ("W", ""), ("N", "")))
    c.post(at("table-2", "/hands"), json={"hand": 1, "by": "Fay"}, headers=AUTH)
    assert c.get("/api/tables", headers=AUTH).json() == {"tables": [
        {"table": "table-1", "players": list(ONE), "hands": 1}, {"table": "table-2", "players": list(TWO), "hands": 1}]}
    got = c.get("/api/night", headers=AUTH).json()
    files = {n: mjscore.play_session(night / f"{n}.mj") for n in ("table-1", "table-2")}
    for t in got["tables"]:
        assert t["totals"] == files[t["table"]].totals
    wl = {s["name"]: s["won_or_lost"] for s in got["standings"]}
    assert wl == {p: r.won_or_lost(p) for r in files.values() for p in r.players}
    assert sum(wl.values()) == 0 and len(got["settle_up"]) <= 7
    paid = dict.fromkeys(wl, 0)
    for t in got["settle_up"]:
        paid[t["from"]] -= t["amount"]
        paid[t["to"]] += t["amount"]
    assert paid == wl


def readline(proc, seconds=30):
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    assert ready, "mjscore serve printed nothing"
    return proc.stdout.readline()


@pytest.mark.skipif(os.name != "posix", reason="select on a pipe")
@pytest.mark.timeout(90)
def test_serve_a_folder_is_one_address_for_every_table(night):
    os.symlink(night / "table-1.mj", night / "planted.mj")          # a link in the folder is no table
    proc = subprocess.Popen([sys.executable, "-m", "mjscore", "serve", str(night), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = readline(proc)
        m = re.match(r"Open (http://127\.0\.0\.1:\d+/)\?token=([\w-]+)  \(a night of 2 tables: table-1, table-2;", line)
        assert m, line
        req = urllib.request.Request(m[1] + "api/tables", headers={"Authorization": f"Bearer {m[2]}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            assert [t["table"] for t in json.load(r)["tables"]] == ["table-1", "table-2"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)


@pytest.mark.parametrize("args,message", [
    (("--players", "A", "B", "C", "D"), "a night's tables are served as their files stand"),
    (("missing.mj",), "missing.mj: error: no such evening file"),
])
def test_a_night_that_cannot_be_served_says_why_in_one_line(night, args, message):
    extra = [str(night / a) if a.endswith(".mj") else a for a in args]
    files = [str(night / "table-1.mj")] if args[0].endswith(".mj") else [str(night)]
    r = subprocess.run([sys.executable, "-m", "mjscore", "serve", *files, *extra, "--port", "0"],
                       capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "1000"})
    assert r.returncode in (1, 2) and message in r.stderr and "Traceback" not in r.stderr, r.stderr


@pytest.mark.parametrize("stake", [None, "0.05 EUR"])
def test_a_nights_answers_are_what_its_published_schema_says(tmp_path, stake):
    from tests.test_web_openapi import errors_of, validator

    folder = tmp_path / "night"
    folder.mkdir()
    for name, players in (("table-1", ONE), ("table-2", TWO)):
        mjscore.Evening(folder / f"{name}.mj").start(players, **({"stake": stake} if stake else {}))
    c = client_of(folder)
    enter(c, "table-1", ONE)
    assert c.post(at("table-1", "/hands"), json={"hand": 1, "by": "Ann"}, headers=AUTH).status_code == 201
    spec = c.get("/openapi.json", headers=AUTH).json()
    assert {"/api/tables", "/api/night", "/api/tables/{table}/status", "/api/tables/{table}/drafts/{seat}"} <= set(
        spec["paths"])
    assert not any(p.startswith("/api/") and not p.startswith(("/api/tables", "/api/night")) for p in spec["paths"])
    for path, route in (("/api/night", "/api/night"), ("/api/tables", "/api/tables"),
                        (at("table-2", "/status"), "/api/tables/{table}/status"),
                        (at("table-1", "/standings"), "/api/tables/{table}/standings")):
        r = c.get(path, headers=AUTH)
        assert r.status_code == 200
        problems = errors_of(validator(spec, "GET", route, 200), r.json())
        assert not problems, (path, problems[:5])
    r = c.get(at("table-3", "/status"), headers=AUTH)
    assert not errors_of(validator(spec, "GET", "/api/tables/{table}/status", 404), r.json())
