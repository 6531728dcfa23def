"""Who gets into the table page's server and what they may send (web.app.Guard): the token in the
address, its cookie, the header; a change only as JSON and only from the page itself; the headers
on every answer.  Through the ASGI test client."""

import pytest
from fastapi.testclient import TestClient

import mjscore
from mjscore.web.app import create_app

TOKEN = "g" * 32
OLD = "o" * 32                   # last week's token, still in a phone's cookie
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
LINE = {"text": "score 8", "hand": 1, "by": "Ann"}          # East's line, by East's player


@pytest.fixture
def evening(tmp_path):
    path = tmp_path / "ev.mj"
    mjscore.Evening(path).start(PLAYERS)
    return path


def client_at(evening, port=8421, token=TOKEN):
    return TestClient(create_app(str(evening), token), base_url=f"http://127.0.0.1:{port}")


def test_the_token_in_the_address_wins_over_an_older_cookie_and_replaces_it(evening):
    c = client_at(evening)
    c.cookies.set("mjscore_token_8421", OLD)
    assert c.get("/api/status").status_code == 401                # the old cookie alone: refused
    r = c.get(f"/?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and f"mjscore_token_8421={TOKEN}" in r.headers["set-cookie"]
    c.cookies.set("mjscore_token_8421", TOKEN)
    assert c.get("/api/status").status_code == 200
    # A wrong token in the address is refused, whatever the cookie holds.
    assert c.get(f"/api/status?token={OLD}").status_code == 401


def test_two_evenings_on_one_laptop_keep_their_cookies_apart(tmp_path):
    a, b = tmp_path / "a.mj", tmp_path / "b.mj"
    for p in (a, b):
        mjscore.Evening(p).start(PLAYERS)
    first, second = client_at(a, 8421, TOKEN), client_at(b, 8422, OLD)
    name_a = first.get(f"/?token={TOKEN}", follow_redirects=False).headers["set-cookie"].split("=", 1)[0]
    name_b = second.get(f"/?token={OLD}", follow_redirects=False).headers["set-cookie"].split("=", 1)[0]
    assert (name_a, name_b) == ("mjscore_token_8421", "mjscore_token_8422")
    # The browser sends both cookies to both ports (cookies do not tell ports apart): each server reads its own.
    for c in (first, second):
        c.cookies.set("mjscore_token_8421", TOKEN)
        c.cookies.set("mjscore_token_8422", OLD)
        assert c.get("/api/status").status_code == 200


def test_the_cookie_is_lax_so_a_link_from_another_site_opens_the_page(evening):
    cookie = client_at(evening).get(f"/?token={TOKEN}", follow_redirects=False).headers["set-cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Path=/" in cookie


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "BEARER", "bEaReR"])
def test_the_authorization_header_takes_bearer_in_any_case(evening, scheme):
    assert client_at(evening).get("/api/status", headers={"Authorization": f"{scheme} {TOKEN}"}).status_code == 200


def test_a_401_says_how_to_authenticate_and_every_answer_is_neither_cached_nor_sniffed(evening):
    c = client_at(evening)
    r = c.get("/api/status")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for answer in (r, c.get("/api/status", headers=auth), c.get("/api/hands/9", headers=auth),
                   c.put("/api/drafts/E", json={"text": "12x", "hand": 7}, headers=auth),
                   c.post("/api/hands", content=b"{}", headers={**auth, "Content-Type": "text/plain"})):
        assert answer.headers["x-content-type-options"] == "nosniff", answer
        assert answer.headers["cache-control"] == "no-store", answer
    # The page itself is revalidated each time (ETag), never kept stale: mjscore's next version
    # sends its own page and script together.
    page = c.get("/", headers=auth)
    assert page.headers["cache-control"] == "no-cache" and page.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_change_must_say_it_is_json(evening, kind):
    c = client_at(evening)
    headers = {"Authorization": f"Bearer {TOKEN}", **({"Content-Type": kind} if kind else {})}
    before = evening.read_bytes()
    for method, path, body in (("PUT", "/api/drafts/E", b'{"text": "score 8", "hand": 1}'),
                               ("POST", "/api/hands", b'{"text": "draw", "hand": 1}'),
                               ("POST", "/api/penalties", b'{"hand": 1, "from": "Ann", "amount": 5}'),
                               ("DELETE", "/api/hands/last?hand=1", None)):
        r = c.request(method, path, content=body, headers=headers)
        assert r.status_code == 415, (method, path, r.status_code)
    assert evening.read_bytes() == before and c.get("/api/status", headers=headers).json()["drafts"] == {}


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://127.0.0.1:9999"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://127.0.0.1:8421", "Sec-Fetch-Site": "cross-site"},
])
def test_a_change_sent_by_another_sites_page_is_403(evening, headers):
    c = client_at(evening)
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json", **headers}
    r = c.put("/api/drafts/E", json=LINE, headers=auth)
    assert r.status_code == 403 and r.json()["error"]["message"] == "a change comes only from the table's own page"
    assert c.post("/api/hands", json={"text": "draw", "hand": 1}, headers=auth).status_code == 403
    assert evening.read_text() == "players Ann Bob Cid Dee\n---\n"


def test_a_change_from_the_page_itself_is_let_through(evening):
    c = client_at(evening)
    auth = {"Authorization": f"Bearer {TOKEN}", "Origin": "http://127.0.0.1:8421", "Sec-Fetch-Site": "same-origin"}
    assert c.put("/api/drafts/E", json=LINE, headers=auth).status_code == 200
    # A client that says nothing of where it comes from (curl, a script with the token) is let through too.
    assert c.put("/api/drafts/S", json={**LINE, "by": "Bob"},
                 headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    # Reading needs no such thing: a GET from a link is a page opened.
    assert c.get("/api/status", headers={"Authorization": f"Bearer {TOKEN}", "Sec-Fetch-Site": "cross-site"}
                 ).status_code == 200


def test_the_project_asks_for_a_fastapi_that_checks_content_types_itself():
    import tomllib
    from pathlib import Path

    deps = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.replace(" ", "").startswith("fastapi>=0.132") for d in deps), deps


def test_every_copy_of_a_header_counts(evening):
    c = client_at(evening)
    auth = [("Authorization", f"Bearer {TOKEN}"), ("Content-Type", "application/json")]
    # A second Origin (or Sec-Fetch-Site) does not hide the first.
    for extra in ([("Origin", "http://evil.example"), ("Origin", "http://127.0.0.1:8421")],
                  [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Site", "same-origin")]):
        r = c.put("/api/drafts/E", content=b'{"text": "score 8", "hand": 1}', headers=auth + extra)
        assert r.status_code == 403, extra
    r = c.put("/api/drafts/E", content=b'{"text": "score 8", "hand": 1}',
              headers=auth + [("Content-Type", "text/plain")])
    assert r.status_code == 415
    # Two tokens: neither is believed.
    assert c.get("/api/status", headers=[("Authorization", f"Bearer {TOKEN}"),
                                         ("Authorization", f"Bearer {OLD}")]).status_code == 401


@pytest.mark.parametrize("host,answer", [("evil.example", 400), ("evil.example:8421", 400), ("mjscore.local", 400),
                                         ("127.0.0.1:8421", 200), ("localhost:8421", 200), ("[::1]:8421", 200),
                                         ("192.168.1.20:8421", 200)])
def test_the_table_is_opened_by_its_address_not_by_a_name(evening, host, answer):
    """A page whose own name was made to point here (DNS rebinding) gets nothing, token or not."""
    c = client_at(evening)
    r = c.get("/api/status", headers={"Authorization": f"Bearer {TOKEN}", "Host": host})
    assert r.status_code == answer
    if answer == 400:
        # Its Origin and Host agree, and a change is refused all the same.
        r = c.put("/api/drafts/E", json=LINE, headers={"Authorization": f"Bearer {TOKEN}", "Host": host,
                                                        "Origin": f"http://{host}"})
        assert r.status_code == 400


def test_no_redirect_sends_the_address_to_another_host(evening):
    r = client_at(evening).get(f"/api/status/?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 404 and "location" not in r.headers
