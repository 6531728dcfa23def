"""The table page's bytes on the wire (web.static): the page's files gzip when asked and plain when
not, each kept by the browser and asked again by its ETag (304, no body); the API's large JSON
answers gzip, never stored; and the whole first load of the page under 25,000 bytes on a real
socket.  Through the ASGI test client, and a real `mjscore serve` on 127.0.0.1 with timeouts."""

import asyncio
import gzip
import re
import select
import signal
import socket
import subprocess
import sys
from importlib import resources

import pytest
from fastapi.testclient import TestClient

import mjscore
from mjscore.web.app import _with_words as with_words
from mjscore.web.app import create_app
from mjscore.web.static import MIN_COMPRESSED, CompressedJSON, lean

TOKEN = "s" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
HAND = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."
# Each of the page's addresses, the package file it sends, and its media type.
FILES = [("/", "page.html", "text/html; charset=utf-8"), ("/page.js", "page.js", "text/javascript; charset=utf-8"),
         ("/page.css", "page.css", "text/css; charset=utf-8")]
FIRST_LOAD = 25_000             # bytes, both ways, headers included (issue 38, item 6)


def shipped(name):
    """The package file as the page sends it (its words written in, its comments and indentation left out)."""
    return lean(name, with_words(resources.files("mjscore.web").joinpath(name).read_bytes()))


def test_the_script_has_no_string_that_spans_lines_so_leaving_out_whole_lines_changes_no_string():
    script = resources.files("mjscore.web").joinpath("page.js").read_text()
    spanning = [n for n, line in enumerate(script.split("\n"), 1) if line.count("`") % 2]
    assert not spanning, f"page.js: a template string spans lines at {spanning}: web.static.lean would change it"


def test_the_script_the_style_and_the_page_lose_only_comments_and_blanks():
    """Each line sent is a line of the file, in order, its indentation left out: only comments
    (the script's lines and ends of lines, the style's, the page's) and blank lines are gone, and
    no comment is taken from inside a string of the script."""
    strings = re.compile(r'"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|\'(?:[^\'\\\n]|\\.)*\'')
    for name in ("page.js", "page.css", "page.html"):
        shipped_text = resources.files("mjscore.web").joinpath(name).read_text()
        whole = shipped_text
        if name == "page.css":
            whole = re.sub(r"/\*.*?\*/", "", shipped_text, flags=re.S)
        elif name == "page.html":
            whole = re.sub(r"<!--.*?-->", "", shipped_text, flags=re.S)
        kept = [line.strip() for line in whole.split("\n") if line.strip() and not line.strip().startswith("//")]
        sent = lean(name, shipped_text.encode()).decode().split("\n")[:-1]
        if name == "page.js":
            assert len(sent) == len(kept) and all(k.startswith(s) for s, k in zip(sent, kept, strict=True))
            cut = [k[len(s):] for s, k in zip(sent, kept, strict=True) if k != s]
            assert cut and all(re.fullmatch(r"\s+//.*", c) for c in cut), cut
            # No comment was taken from inside a string: what is left of each line cut holds
            # whole strings only (no quote left open).
            assert all(not re.search("[\"'`]", strings.sub("", s)) for s, k in zip(sent, kept, strict=True) if k != s)
        else:
            assert sent == kept, name
        assert len("\n".join(sent)) < 0.9 * len(shipped_text), name


@pytest.fixture
def evening(tmp_path):
    path = tmp_path / "ev.mj"
    mjscore.Evening(path).start(PLAYERS)
    return path


def client_of(evening):
    return TestClient(create_app(str(evening), TOKEN), base_url="http://127.0.0.1")


def fetched(client, path, accept, *headers):
    """The answer to GET `path` asked with `Accept-Encoding: accept` (None: the client's own) and
    `headers`, and its body as sent: the test client would inflate a gzip body, and what is
    asked here is what went on the wire."""
    sent = [*AUTH.items(), *([] if accept is None else [("Accept-Encoding", accept)]), *headers]
    with client.stream("GET", path, headers=sent) as r:
        return r, b"".join(r.iter_raw())


# -- the page's files --------------------------------------------------------------------------

# What `Accept-Encoding` says, and whether it takes gzip (RFC 9110, 12.5.3: a weight of 0 refuses).
ACCEPT = [
    ("gzip", True), ("gzip, deflate, br, zstd", True), ("br;q=1.0, gzip;q=0.8", True), ("x-gzip", True),
    ("GZIP;Q=0.5", True), ("*", True), ("deflate, *;q=0.1", True), ("gzip;q=1.000", True),
    (None, False), ("", False), ("identity", False), ("deflate, br", False), ("gzip;q=0", False),
    ("gzip; q=0.000", False), ("*, gzip;q=0", False), ("gzip;q=0, *", False), ("*;q=0", False),
    ("gzip;q=2", False), ("gzip;q=nan", False),
]


@pytest.mark.parametrize("path,name,kind", FILES, ids=[f[1] for f in FILES])
@pytest.mark.parametrize("accept,packed", ACCEPT, ids=[f"{a!r}" for a, _ in ACCEPT])
def test_each_file_is_sent_gzip_when_accepted_and_plain_when_not(evening, path, name, kind, accept, packed):
    client = client_of(evening)
    if accept is None:
        del client.headers["accept-encoding"]
    r, body = fetched(client, path, accept)
    assert r.request.headers.get("accept-encoding") == accept
    assert r.status_code == 200 and r.headers["content-type"] == kind
    assert r.headers.get("content-encoding") == ("gzip" if packed else None)
    assert (gzip.decompress(body) if packed else body) == shipped(name)
    assert int(r.headers["content-length"]) == len(body)
    assert r.headers["vary"] == "Accept-Encoding"
    # Kept, but asked again each time: never a page of one version with a script of another.
    assert r.headers["cache-control"] == "no-cache"
    assert re.fullmatch(r'"[0-9a-f]{32}"', r.headers["etag"])                 # strong: no W/
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"


def test_each_files_tags_are_the_same_in_two_apps_and_name_one_representation_each(tmp_path):
    apps = []
    for n in (1, 2):
        path = tmp_path / f"ev{n}.mj"
        mjscore.Evening(path).start(PLAYERS)
        apps.append(client_of(path))
    tags = {}
    for path, _, _ in FILES:
        for accept in ("gzip", "identity"):
            first, second = (fetched(c, path, accept)[0].headers["etag"] for c in apps)
            assert first == second, (path, accept)
            tags[path, accept] = first
    assert len(set(tags.values())) == len(tags)         # a tag for each file, and for each of its encodings


# What `If-None-Match` holds (made from the tag the client was sent), and whether it is current (304).
NONE_MATCH = [
    ("the tag", lambda tag, other: [tag], True),
    ("weak", lambda tag, other: [f"W/{tag}"], True),
    ("in a list", lambda tag, other: [f'"0", {tag}, "1"'], True),
    ("in a list, weak, no spaces", lambda tag, other: [f'W/"0",W/{tag}'], True),
    ("in a second header", lambda tag, other: ['"0"', tag], True),
    ("*", lambda tag, other: ["*"], True),
    ("a wrong tag", lambda tag, other: ['"0123456789abcdef0123456789abcdef"'], False),
    ("the tag unquoted", lambda tag, other: [tag.strip('"')], False),
    ("the other encoding's", lambda tag, other: [other], False),
    ("empty", lambda tag, other: [""], False),
]


@pytest.mark.parametrize("path,name,kind", FILES, ids=[f[1] for f in FILES])
@pytest.mark.parametrize("accept", ["gzip", "identity"])
@pytest.mark.parametrize("said,none_match,current", NONE_MATCH, ids=[n[0] for n in NONE_MATCH])
def test_a_file_the_client_holds_is_answered_304_with_no_body(evening, path, name, kind, accept, said, none_match,
                                                               current):
    client = client_of(evening)
    tag = fetched(client, path, accept)[0].headers["etag"]
    other = fetched(client, path, "identity" if accept == "gzip" else "gzip")[0].headers["etag"]
    r, body = fetched(client, path, accept, *(("If-None-Match", v) for v in none_match(tag, other)))
    if not current:
        assert r.status_code == 200 and r.headers["etag"] == tag
        assert (gzip.decompress(body) if accept == "gzip" else body) == shipped(name)
        return
    assert r.status_code == 304 and body == b""
    assert "content-encoding" not in r.headers and r.headers.get("content-length", "0") == "0"
    # What a 200 would have said of its freshness (RFC 9110, 15.4.5), so the browser keeps asking.
    assert r.headers["etag"] == tag and r.headers["cache-control"] == "no-cache"
    assert r.headers["vary"] == "Accept-Encoding"


def test_a_head_request_is_not_answered_by_the_page(evening):
    # The page's routes take GET only, as every route here: a HEAD is refused, as before.
    for path, _, _ in FILES:
        assert client_of(evening).head(path, headers=AUTH).status_code == 405


# -- the API's JSON ----------------------------------------------------------------------------

# An address, the hands the evening has played, and whether its answer is 1 KiB or more.
API = [("/api/status", 0, False), ("/api/evening", 0, False), ("/api/rules", 0, True), ("/api/evening", 1, True),
       ("/api/hands/1", 1, True), ("/api/stats", 3, True), ("/api/evening", 20, True)]


@pytest.mark.parametrize("path,hands,large", API, ids=[f"{p} {h}" for p, h, _ in API])
@pytest.mark.parametrize("accept,packed", [("gzip, deflate", True), ("identity", False), ("gzip;q=0", False)])
def test_a_large_json_answer_is_gzip_when_accepted_and_never_stored(evening, path, hands, large, accept, packed):
    for _ in range(hands):
        mjscore.Evening(evening).add(HAND)
    client = client_of(evening)
    plain, plain_body = fetched(client, path, "identity")
    r, body = fetched(client, path, accept)
    assert r.status_code == plain.status_code == 200
    assert (len(plain_body) >= MIN_COMPRESSED) == large
    compressed = packed and large
    assert r.headers.get("content-encoding") == ("gzip" if compressed else None)
    assert (gzip.decompress(body) if compressed else body) == plain_body
    assert int(r.headers["content-length"]) == len(body)
    assert r.headers["content-type"] == "application/json"
    assert r.headers["cache-control"] == "no-store" and r.headers["x-content-type-options"] == "nosniff"
    assert r.headers.get("vary") == ("Accept-Encoding" if large else None)


def test_the_guards_refusals_and_the_errors_pass_as_they_are(evening):
    client = client_of(evening)
    for headers, status in (({"Accept-Encoding": "gzip"}, 401), ({**AUTH, "Accept-Encoding": "gzip"}, 404)):
        with client.stream("GET", "/api/hands/9", headers=headers) as r:
            assert r.status_code == status and "content-encoding" not in r.headers
            assert r.headers["cache-control"] == "no-store"


def answer_through(messages, accept="gzip"):
    """What `CompressedJSON` sends for an app that sends `messages`, asked with `accept`."""
    async def app(scope, receive, send):
        for message in messages:
            await send(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    sent = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/api/status", "headers": [(b"accept-encoding", accept.encode())]}
    asyncio.run(CompressedJSON(app)(scope, receive, send))
    return sent


def start(status, *headers):
    return {"type": "http.response.start", "status": status, "headers": [*headers]}


JSON_KIND = (b"content-type", b"application/json")
NO_STORE = (b"cache-control", b"no-store")
LARGE = b'{"hands": [' + b", ".join(b'{"hand": %d}' % n for n in range(400)) + b"]}"
# Answers the middleware leaves as they are, whatever the client accepts.
UNTOUCHED = {
    "a 304": [start(304, NO_STORE, (b"etag", b'"1"')), {"type": "http.response.body", "body": b""}],
    "a 204": [start(204, NO_STORE), {"type": "http.response.body", "body": b""}],
    "an empty JSON body": [start(200, JSON_KIND, NO_STORE), {"type": "http.response.body", "body": b""}],
    "a small JSON body": [start(200, JSON_KIND, NO_STORE), {"type": "http.response.body", "body": b'{"a": 1}'}],
    "a JSON answer sent in parts": [start(200, JSON_KIND, NO_STORE),
                                    {"type": "http.response.body", "body": LARGE, "more_body": True},
                                    {"type": "http.response.body", "body": LARGE, "more_body": False}],
    "one already encoded": [start(200, JSON_KIND, (b"content-encoding", b"br")),
                            {"type": "http.response.body", "body": LARGE}],
    "large, but no JSON": [start(200, (b"content-type", b"text/plain")), {"type": "http.response.body", "body": LARGE}],
    "a start and no body": [start(200, JSON_KIND, NO_STORE)],
}


@pytest.mark.parametrize("messages", UNTOUCHED.values(), ids=UNTOUCHED)
def test_what_is_not_a_whole_large_json_body_passes_untouched(messages):
    assert answer_through(messages) == messages


def test_a_whole_large_json_body_is_gzip_with_its_headers_kept():
    sent = answer_through([start(200, JSON_KIND, NO_STORE, (b"content-length", str(len(LARGE)).encode())),
                           {"type": "http.response.body", "body": LARGE}])
    headers = dict(sent[0]["headers"])
    assert gzip.decompress(sent[1]["body"]) == LARGE
    assert headers == {b"content-type": b"application/json", b"cache-control": b"no-store",
                       b"content-length": str(len(sent[1]["body"])).encode(), b"content-encoding": b"gzip",
                       b"vary": b"Accept-Encoding"}


# -- the first load, on a real socket ----------------------------------------------------------

class Served:
    """`mjscore serve` on 127.0.0.1, a port of its own, stopped within 30 s."""

    def __init__(self, evening):
        self.proc = subprocess.Popen([sys.executable, "-m", "mjscore", "serve", str(evening), "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 30)
        if not ready:
            self.stop()
            pytest.fail("mjscore serve printed nothing in 30 s")
        m = re.match(r"Open http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", self.proc.stdout.readline())
        assert m
        self.port, self.token = int(m[1]), m[2]

    def get(self, path, *headers):
        """GET `path` as a phone's browser asks for it: the bytes sent, and the bytes received
        (headers and body) until the server closes the connection."""
        request = "".join([f"GET {path} HTTP/1.1\r\n", f"Host: 127.0.0.1:{self.port}\r\n",
                           f"Cookie: mjscore_token_{self.port}={self.token}\r\n",
                           "Accept-Encoding: gzip, deflate, br, zstd\r\n", *(f"{h}\r\n" for h in headers),
                           "Connection: close\r\n\r\n"]).encode()
        received = b""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(request)
            while chunk := s.recv(65536):
                received += chunk
        return request, received

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate(timeout=30)


def header(answer, name):
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    return next(line.split(":", 1)[1].strip() for line in head.split("\r\n")[1:] if line.lower().startswith(name))


def test_the_first_load_of_the_page_is_under_25000_bytes_on_the_wire_and_the_next_asks_only(evening):
    served = Served(evening)
    try:
        first = {path: served.get(path) for path in ("/", "/page.js", "/page.css", "/api/status")}
        again = {path: served.get(path, f"If-None-Match: {header(first[path][1], 'etag')}")
                 for path, _, _ in FILES}
    finally:
        served.stop()
    wire = sum(len(sent) + len(received) for sent, received in first.values())
    assert wire < FIRST_LOAD, {path: (len(s), len(r)) for path, (s, r) in first.items()}
    for path, name, _ in FILES:
        answer = first[path][1]
        assert answer.startswith(b"HTTP/1.1 200 ") and header(answer, "content-encoding") == "gzip"
        assert gzip.decompress(answer.split(b"\r\n\r\n", 1)[1]) == shipped(name)
        # The tag is the same in another process: nothing in the gzip depends on when it was made.
        assert header(answer, "etag") == fetched(client_of(evening), path, "gzip")[0].headers["etag"]
        sent, received = again[path]
        assert received.startswith(b"HTTP/1.1 304 ") and received.endswith(b"\r\n\r\n")
        assert len(received) < 1000
