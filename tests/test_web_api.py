"""The table page's JSON API, through the ASGI test client: the same objects the command line prints,
the token, the limits, the file untouched by a bad request."""

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app as cli
from mjscore.web.app import create_app

TOKEN = "t" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}
JSON = {**AUTH, "Content-Type": "application/json"}      # what a change sends (a DELETE has no body to say so)
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
HAND = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."
runner = CliRunner()


@pytest.fixture
def evening(tmp_path):
    path = tmp_path / "ev.mj"
    mjscore.Evening(path).start(PLAYERS)
    return path


@pytest.fixture
def client(evening):
    return TestClient(create_app(str(evening), TOKEN), base_url="http://127.0.0.1")


def cli_json(*args):
    r = runner.invoke(cli, list(args))
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_every_request_needs_the_token(client):
    for method, path in [("GET", "/"), ("GET", "/page.js"), ("GET", "/api/status"), ("GET", "/api/evening"),
                         ("POST", "/api/hands"), ("DELETE", "/api/hands/last"), ("GET", "/openapi.json"),
                         ("PUT", "/api/drafts/E"), ("GET", "/nowhere")]:
        r = client.request(method, path)
        assert r.status_code == 401 and r.json() == {"error": {"message": "unauthorized"}}, path
        r = client.request(method, path, headers={"Authorization": "Bearer wrong"})
        assert r.status_code == 401
    assert client.get("/api/status?token=nope").status_code == 401


def test_the_token_in_the_address_becomes_an_http_only_cookie_of_the_ports_own_name(client):
    r = client.get(f"/?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    # Lax: the address opened from a link on another site (a chat, the club's page) carries it.
    assert f"mjscore_token_80={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    client.cookies.set("mjscore_token_80", TOKEN)
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in r.headers["content-security-policy"]


def test_the_evening_is_what_session_prints(client, evening):
    mjscore.Evening(evening).add(HAND)
    shown = client.get("/api/evening", headers=AUTH).json()
    printed = cli_json("session", str(evening), "--format", "json")
    # The evening as session prints it, with its phrases in the library's words.
    said = shown.pop("said")
    assert said == mjscore.api.evening_words(printed)
    assert len(said["standings"]) == 4 and len(said["hands"]) == 1 and said["settle_up"]
    assert shown == printed


def test_a_hand_added_is_what_add_prints_and_what_session_then_shows(client, evening, tmp_path):
    r = client.post("/api/hands", json={"text": HAND, "hand": 1}, headers=AUTH)
    assert r.status_code == 201
    added = r.json()
    twin = tmp_path / "twin.mj"
    mjscore.Evening(twin).start(PLAYERS)
    assert added == cli_json("add", str(twin), "-e", HAND, "--format", "json")
    assert added["hand"] == cli_json("session", str(evening), "--hand", "1", "--format", "json")
    shown = client.get("/api/hands/1", headers=AUTH).json()
    # The hand as add prints it, with what the page says of it in the library's words.
    assert shown.pop("title") == "Hand 1: Ann deals, East round"
    assert shown.pop("said") == mjscore.api.said(added["hand"])
    assert shown.pop("outcome") == mjscore.api.outcome(added["hand"])
    assert shown == added["hand"]


def test_a_hand_sent_twice_is_added_once(client, evening):
    assert client.post("/api/hands", json={"text": HAND, "hand": 1}, headers=AUTH).status_code == 201
    r = client.post("/api/hands", json={"text": HAND, "hand": 1}, headers=AUTH)
    assert r.status_code == 409 and "hand 1 is in the evening already" in r.json()["error"]["message"]
    assert len(mjscore.play_session(evening).hands) == 1


@pytest.mark.parametrize("text,message,line,column,token", [
    ("E: 12x win 1m self", "'12x' is not a tile", 1, 4, "12x"),
    ("E: 5555p ...; W: 5p ...", "five 5p at the table", 2, 4, "5p"),
    ("E: score 10 win from Eve", "no player 'Eve' at this table: Ann, Bob, Cid, Dee", 1, 22, "Eve"),
])
def test_a_bad_hand_is_422_with_its_place_and_the_file_unchanged(client, evening, text, message, line, column, token):
    before = evening.read_bytes()
    r = client.post("/api/hands", json={"text": text}, headers=AUTH)
    assert r.status_code == 422
    error = r.json()["error"]
    assert message in error["message"] and (error["line"], error["column"], error["token"]) == (line, column, token)
    assert evening.read_bytes() == before


def test_undo_is_what_undo_prints(client, evening, tmp_path):
    mjscore.Evening(evening).add(HAND)
    twin = tmp_path / "twin.mj"
    mjscore.Evening(twin).start(PLAYERS)
    mjscore.Evening(twin).add(HAND)
    r = client.delete("/api/hands/last?hand=1", headers=JSON)
    assert r.status_code == 200 and r.json() == cli_json("undo", str(twin), "--format", "json")
    r = client.delete("/api/hands/last?hand=1", headers=JSON)
    assert r.status_code == 422 and "no hand to take back" in r.json()["error"]["message"]


def test_score_is_what_score_prints_and_writes_nothing(client, evening):
    before = evening.read_bytes()
    r = client.post("/api/score", json={"text": HAND, "settings": {"paying": "winner-only"}}, headers=AUTH)
    assert r.status_code == 200
    assert r.json() == cli_json("score", "-e", HAND, "--paying", "winner-only", "--format", "json")
    assert evening.read_bytes() == before
    r = client.post("/api/score", json={"text": HAND, "settings": {"paying": "nobody"}}, headers=AUTH)
    assert r.status_code == 422 and "paying" in r.json()["error"]["message"]
    r = client.post("/api/score", json={"text": HAND, "settings": {"payng": "winner-only"}}, headers=AUTH)
    assert r.status_code == 422 and r.json()["error"]["message"].startswith("'payng' is no setting (east_double, ")
    for name in ("scheme", "text", "explain"):                # the call's own arguments are no settings
        r = client.post("/api/score", json={"text": HAND, "settings": {name: "/etc/passwd"}}, headers=AUTH)
        assert r.status_code == 422 and r.json()["error"]["message"].startswith(f"'{name}' is no setting")


def test_a_request_never_names_a_file(client, evening, tmp_path):
    """Not as a field, nor as a `scheme` header in a request's text: one message, whatever is
    there (a house scheme, a file that is no scheme, a folder, nothing), and nothing read."""
    (tmp_path / "house.yaml").write_text("scheme: house\nextends: classical\n")
    (tmp_path / "folder").mkdir()
    before = evening.read_bytes()
    answers = set()
    for scheme in (str(tmp_path / "house.yaml"), "../house.yaml", "/etc/passwd", str(tmp_path / "folder"),
                   str(tmp_path / "missing.yaml"), "/etc/hostname"):
        for path, body in (("/api/score", {"text": HAND, "scheme": scheme}),
                           ("/api/score", {"text": f"scheme {scheme}\n{HAND}"}),
                           ("/api/hands", {"text": f"scheme {scheme}\n{HAND}", "hand": 1})):
            r = client.post(path, json=body, headers=AUTH)
            assert r.status_code == 422, (path, body, r.text)
            assert str(tmp_path) not in r.text and "passwd" not in r.text and "extends" not in r.text
            answers.add(r.json()["error"]["message"])
    assert answers == {"a request names only a shipped scheme (see 'mjscore schemes'): no file is read for it"}
    assert evening.read_bytes() == before
    r = client.post("/api/score", json={"text": f"scheme dmjl\n{HAND}"}, headers=AUTH)
    assert r.status_code == 200 and r.json()["scheme"] == "dmjl"


def test_a_body_over_64_kib_is_413(client):
    big = "E: score 1 win self\n" + "# " + "x" * (70 * 1024)
    r = client.post("/api/hands", json={"text": big}, headers=AUTH)
    assert r.status_code == 413

    def chunks():
        for _ in range(80):
            yield b"x" * 1024
    r = client.post("/api/hands", content=chunks(), headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 413


def test_a_file_made_unreadable_while_served_is_every_phones_error_and_settling_is_refused(client, evening):
    line = {"text": "score 40 win self", "hand": 1, "by": "Ann"}
    assert client.put("/api/drafts/E", json=line, headers=AUTH).json()["ok"]
    evening.write_text("players Ann Bob Cid Dee\n---\nE: 12x\n")          # a hand edited wrong, at a terminal
    r = client.get("/api/status", headers=AUTH)
    assert r.status_code == 200 and str(evening.parent) not in r.text and "Traceback" not in r.text
    error = r.json()["error"]
    assert error["message"].startswith("'12x' is not a tile") and (error["file"], error["line"]) == ("ev.mj", 3)
    r = client.post("/api/hands", json={"hand": 1, "others_nothing": True}, headers=AUTH)
    assert r.status_code == 422 and r.json()["error"]["message"].startswith("'12x' is not a tile")
    evening.write_text("players Ann Bob Cid Dee\n---\n")                   # mended
    assert client.get("/api/status", headers=AUTH).json()["error"] is None


def test_a_draft_is_checked_as_it_is_entered_and_every_phone_sees_it(client, evening):
    r = client.put("/api/drafts/S", json={"text": "[111p] 123m 5555p 66s 7x", "hand": 1, "by": "Bob"}, headers=AUTH)
    draft = r.json()
    assert r.status_code == 200 and not draft["ok"] and draft["error"]["token"] == "7x"
    assert draft["error"]["column"] == 23
    r = client.put("/api/drafts/E", json={"text": "[111p] 222s 333m EEE 99s win 9s self", "hand": 1, "by": "Ann"},
                   headers=AUTH)
    assert r.json()["ok"] and r.json()["player"]["score"] == 352
    status = client.get("/api/status", headers=AUTH).json()
    assert set(status["drafts"]) == {"E", "S"} and status["drafts"]["E"]["by"] == "Ann"
    assert status["next"]["seats"] == {"E": "Ann", "S": "Bob", "W": "Cid", "N": "Dee"}
    # A hand added (here, or by `mjscore add` at a terminal) leaves the drafts behind.
    mjscore.Evening(evening).add("draw")
    assert client.get("/api/status", headers=AUTH).json()["drafts"] == {}


def test_a_line_error_points_at_its_column_in_the_line(client):
    r = client.put("/api/drafts/W", json={"text": "123m 456m 12x", "hand": 1, "by": "Cid"}, headers=AUTH)
    error = r.json()["error"]
    assert error["column"] == 11 and error["token"] == "12x"


def test_the_api_is_described_by_openapi(client):
    spec = client.get("/openapi.json", headers=AUTH).json()
    assert {"/api/evening", "/api/hands", "/api/hands/last", "/api/score", "/api/status", "/api/drafts/{seat}"} \
        <= set(spec["paths"])
    assert spec["paths"]["/api/hands"]["post"]["responses"]["201"]


def test_the_page_asks_nothing_of_any_other_host():
    here = Path(mjscore.__file__).parent / "web"
    import re

    for name in ("page.html", "page.js", "page.css"):
        # The SVG namespace is a name, never fetched: the chart's elements are made in it.
        text = (here / name).read_text().replace('"http://www.w3.org/2000/svg"', '"SVG namespace"')
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text), name
    assert sum((here / n).stat().st_size for n in ("page.html", "page.js", "page.css")) < 150 * 1024


# -- `mjscore serve` on the command line -------------------------------------------------------

import re  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402


def serve(*args, cwd=None):
    proc = subprocess.Popen([sys.executable, "-m", "mjscore", "serve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd)
    return proc, proc.stdout.readline()


def stop(proc):
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    return proc.returncode, out, err


def test_serve_prints_one_line_with_the_address_and_a_new_token_each_start(tmp_path):
    evening = tmp_path / "ev.mj"
    proc, line = serve(str(evening), "--players", *PLAYERS, "--port", "0")
    m = re.fullmatch(r"Open http://127\.0\.0\.1:(\d+)/\?token=([\w-]{32,})  \(Ctrl-C stops\)\n", line)
    assert m, line
    code, out, err = stop(proc)
    assert (code, out, err) == (0, "Stopped.\n", "")
    assert evening.read_text() == "players Ann Bob Cid Dee\n---\n"          # made as `add` makes it
    proc, again = serve(str(evening), "--port", "0")
    assert re.search(r"token=([\w-]+)", again)[1] != m[2]
    stop(proc)


def test_serve_keeps_its_token_in_a_token_file(tmp_path):
    evening, kept = tmp_path / "ev.mj", tmp_path / "token"
    mjscore.Evening(evening).start(PLAYERS)
    tokens = []
    for _ in range(2):
        proc, line = serve(str(evening), "--token-file", str(kept), "--port", "0")
        tokens.append(re.search(r"token=([\w-]+)", line)[1])
        stop(proc)
    assert tokens[0] == tokens[1] and kept.stat().st_mode & 0o777 == 0o600


def test_serve_on_the_network_prints_the_network_address(tmp_path):
    evening = tmp_path / "ev.mj"
    mjscore.Evening(evening).start(PLAYERS)
    proc, line = serve(str(evening), "--lan", "--port", "0")
    host = re.search(r"http://([\d.]+):", line)[1]
    stop(proc)
    from mjscore.cli.commands import _lan_address

    assert host == _lan_address()


def test_serve_refuses_a_missing_evening_without_players(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mjscore", "serve", str(tmp_path / "none.mj")], capture_output=True,
                       text=True, timeout=30)
    assert r.returncode == 2 and "--players" in r.stderr


def test_the_other_commands_load_no_web_stack():
    code = ("import sys; sys.argv = ['mjscore', 'score', '-e', 'E: score 10 win self']\n"
            "from mjscore.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('fastapi', 'uvicorn', 'starlette', 'segno', 'mjscore.web') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip().endswith("[]"), r.stdout + r.stderr


def test_on_a_terminal_serve_draws_the_address_as_a_qr_code(tmp_path):
    import pexpect

    evening = tmp_path / "ev.mj"
    mjscore.Evening(evening).start(PLAYERS)
    child = pexpect.spawn(sys.executable, ["-m", "mjscore", "serve", str(evening), "--port", "0"],
                          encoding="utf-8", timeout=30, dimensions=(60, 80))
    child.expect(r"Open http://127\.0\.0\.1:\d+/\?token=[\w-]+")
    child.expect("[█▀▄]{7}")                                   # a row of the code's modules
    child.sendintr()
    child.expect("Stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_page_follows_the_players_when_they_change_seats(tmp_path):
    """Under a rotation that changes seats (kajongg-dmjl), the status names who sits where for
    the new round and says that they moved; a hand entered by names is read with that seating."""
    path = tmp_path / "ev.mj"
    mjscore.Evening(path).start(PLAYERS, scheme="kajongg-dmjl")
    client = TestClient(create_app(str(path), TOKEN), base_url="http://127.0.0.1")
    for number in range(1, 5):          # South wins every hand: the deal passes four times
        r = client.post("/api/hands", headers=AUTH,
                        json={"text": "E: ...; S: score 20 win self; W: ...; N: ...", "hand": number})
        assert r.status_code == 201, r.json()
    nxt = client.get("/api/status", headers=AUTH).json()["next"]
    assert nxt["round"] == "S" and nxt["seats_change"] is True
    assert nxt["seats"] == {"E": "Dee", "S": "Cid", "W": "Bob", "N": "Ann"}
    assert nxt == cli_json("session", str(path), "--format", "json")["next"]
    r = client.post("/api/hands", headers=AUTH, json={"text": "Dee: ...; Cid: score 20 win self; Bob: ...; Ann: ...",
                                                      "hand": 5})
    assert r.status_code == 201, r.json()
    assert r.json()["hand"]["names"] == {"E": "Dee", "S": "Cid", "W": "Bob", "N": "Ann"}


@pytest.mark.parametrize("typed,kept", [
    ("12", "score 12"),                                  # a number is a score counted at the table
    ("", "..."),                                         # nothing: a loser who scored nothing
    ("score 8 win from ann", "score 8 win from ann"),    # names in any case
    ("Bob: 123m ...", "123m ..."),                       # the player's own name, written first
])
def test_a_draft_takes_the_prompts_shorthand_and_keeps_the_line_as_the_file_will(client, typed, kept):
    r = client.put("/api/drafts/S", json={"text": typed, "hand": 1, "by": "Bob"}, headers=AUTH)
    assert r.json()["ok"], r.json()
    assert r.json()["line"] == kept


def test_a_draw_or_a_penalty_typed_as_a_line_is_refused_with_why(client):
    for typed, kind in (("draw", "draw"), ("penalty Bob 100", "penalty")):
        r = client.put("/api/drafts/E", json={"text": typed, "hand": 1, "by": "Ann"}, headers=AUTH).json()
        assert not r["ok"] and r["error"]["message"].startswith(f"'{kind}' is not a player's line")


def test_drafts_in_shorthand_make_the_hand_the_page_sends(client, evening):
    for (seat, typed), by in zip((("E", "40 win self"), ("S", "8"), ("W", ""), ("N", "")), ("Ann", "Bob", "Cid", "Dee"),
                                 strict=True):
        assert client.put(f"/api/drafts/{seat}", json={"text": typed, "hand": 1, "by": by}, headers=AUTH).json()["ok"]
    drafts = client.get("/api/status", headers=AUTH).json()["drafts"]
    text = "\n".join(f"{s}: {drafts[s]['line']}" for s in "ESWN")      # what page.js's handText sends
    r = client.post("/api/hands", json={"text": text, "hand": 1}, headers=AUTH)
    assert r.status_code == 201, r.json()
    assert mjscore.play_session(evening).totals == {"Ann": 2240, "Bob": 1936, "Cid": 1912, "Dee": 1912}
