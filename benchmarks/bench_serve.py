"""The table page's server over real HTTP: `mjscore serve` on 127.0.0.1, one keep-alive connection.

    python benchmarks/bench_serve.py [HANDS ...] [--runs N] [--mjscore COMMAND]
    python benchmarks/bench_serve.py [HANDS ...] [--latency] [--under-load] [--instructions] [--first-load]

For each evening length (default 200 and 2000 hands) it writes an evening of that many hands,
starts `mjscore serve` on a free port of 127.0.0.1 with a cache of its own, plays it once (the
checkpoint, as a club's server has it after its first minute), then sends, on one keep-alive
connection (http.client, as a phone's browser keeps one):

- a line check (`PUT /api/drafts/SEAT`), a status poll (`GET /api/status`);
- a hand added (`POST /api/hands`), the first status after it, the last hand
  (`GET /api/hands/N`) and the standings (`GET /api/standings`; `GET /api/evening` on a server
  that has no such endpoint), each add followed by an undo so that the evening keeps its length.

Each figure is the latency seen by the client (p50 and p99 over the requests, milliseconds) and
the server's CPU time per request (its utime + stime from /proc, over the whole batch of that
kind, divided by the count): the first is what a phone feels, the second what the server spends.
Only 127.0.0.1 is contacted; every loop is bounded by --runs.  `--mjscore` names the command that
runs mjscore (default: this interpreter's `-m mjscore`), so an older build can be measured the same
way (for example a worktree's venv).  That table is printed when no other measurement is asked
for, or with `--latency`.  The others (issue 38), each on a server of its own for each length:

- `--under-load`: the status poll (`GET /api/status`, one keep-alive connection, --polls polls
  --pause seconds apart) on a quiet server, then again while another client, on a connection of
  its own in a thread, asks for the whole evening (`GET /api/evening`, the Hands view) over and
  over; p50 / p99 of each, and the loader's own latency.
- `--instructions`: the server run under `valgrind --tool=callgrind --instr-atstart=no`
  (PYTHONHASHSEED=0), instrumentation switched on around one request at a time with
  `callgrind_control -i on`, `-z`, then `--dump` and `-i off` (each request on a connection
  opened, and accepted, before the switch).  After one of each request (warm), it counts: a
  status poll; `GET /api/evening` and `GET /api/stats` the first time after a hand was added (and
  the status poll after the add) and again on the unchanged file; a hand added; the correction
  of the hand 100 before the last (a loser's `score 8` made `score 16`, `PUT /api/hands/N`) and
  its putting back.  An idle window of the same harness gives the server's own ticking, which
  each figure holds for its duration (shown, and taken off in the column "less idle").
- `--first-load`: a phone's first load as a browser makes it, on one raw keep-alive socket:
  the link with `?token=` (303 and the cookie), then `GET /`, `/page.js`, `/page.css` and the
  first `GET /api/status` with the cookie and `Accept-Encoding` as --accept-encoding says (a
  browser's, default) and again without it; the bytes received, status line and headers included.

A correction sends `{"text", "by"}` and, where `GET /api/hands/N/text` gives one, its `version`;
every line and change names as `by` a player of the evening (a line: the player in that seat).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import re
import select
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

HANDS = [
    "E: [111p] 222s 333m EEE 99s win 9s self\nS: [555m] ...\nW: [777p] ...\nN: ...",
    "S: [CCC] 234m 678m 55p 789s 1f win 5p from N\nE: [111p] 2378m 4455s NN\nW: (FFFF) 12345m 99p 2y 568s\n"
    "N: [EEE] 11m 23p 456s 889s 3f",
    "draw",
    "W: score 48 win from S\nE: score 8\nS: ...\nN: score 16",
]
LINES = ["[111p] 2378m 4455s NN", "score 40 win self", "...", "(FFFF) 12345m 99p 2y 568s", "12x 3m", "score 8"]
ADDED = "E: score 40 win self\nS: score 8\nW: ...\nN: ..."
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
BY = PLAYERS[0]                 # who adds, corrects and undoes (a player of the evening)
TICK = os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """The server process's CPU time so far (user + system, every thread, living or ended), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Served:
    """`mjscore serve` on an evening of `hands` hands, and one keep-alive connection to it.

    `wrapper` goes before the command (valgrind's); `timeout` is each request's, in seconds."""

    def __init__(self, command: list[str], hands: int, wrapper: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 timeout: float = 120.0, start_seconds: float = 120.0):
        self.folder = Path(tempfile.mkdtemp(prefix="mjscore-bench-serve-"))
        self.hands = hands
        self.timeout = timeout
        evening = self.folder / "evening.mj"
        body = "\n---\n".join(HANDS[n % len(HANDS)] for n in range(hands))
        evening.write_text(f"players {' '.join(PLAYERS)}\n---\n{body}\n")
        env = {**os.environ, "MJSCORE_CACHE_DIR": str(self.folder / "cache"), **(env or {})}
        # The server's standard error goes to a file: a pipe nobody reads would stop it when full.
        self.errors = (self.folder / "stderr.txt").open("w")
        self.proc = subprocess.Popen([*wrapper, *command, "serve", str(evening), "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=self.errors, text=True, env=env)
        self.conn: http.client.HTTPConnection | None = None
        try:
            line = ""
            assert self.proc.stdout is not None
            if select.select([self.proc.stdout], [], [], start_seconds)[0]:
                line = self.proc.stdout.readline()
            m = re.match(r"Open http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", line)
            if not m:
                raise SystemExit(f"mjscore serve did not start: {line!r} {self.stderr()[-2000:]}")
            self.port, self.token = int(m[1]), m[2]
            self.headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
                            "Origin": f"http://127.0.0.1:{self.port}"}
            self.conn = self.connection()
            self.has_standings = self.request("GET", "/api/standings")[0] == 200
        except BaseException:
            self.close()
            raise

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)

    def reconnect(self, settle: float = 0.0) -> None:
        """A new connection, made (and, after `settle` seconds, accepted) before the next request."""
        if self.conn is not None:
            self.conn.close()
        self.conn = self.connection()
        self.conn.connect()
        time.sleep(settle)

    def stderr(self) -> str:
        self.errors.flush()
        return (self.folder / "stderr.txt").read_text(errors="replace")

    def request(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        assert self.conn is not None
        self.conn.request(method, path, body=data, headers=self.headers)
        r = self.conn.getresponse()
        raw = r.read()
        try:
            return r.status, json.loads(raw)
        except ValueError:
            return r.status, None

    def ok(self, method: str, path: str, body: object = None) -> object:
        status, answer = self.request(method, path, body)
        if status >= 400:
            raise SystemExit(f"{method} {path}: {status} {answer}")
        return answer

    def timed(self, method: str, path: str, body: object = None) -> float:
        t = time.perf_counter()
        status, _ = self.request(method, path, body)
        if status >= 400 and status != 409:
            raise SystemExit(f"{method} {path}: {status}")
        return (time.perf_counter() - t) * 1000

    def seats(self) -> dict[str, str]:
        """Who sits where for the next hand (E/S/W/N to names), from the status."""
        st = self.ok("GET", "/api/status")
        seats = st.get("next", {}).get("seats") if isinstance(st, dict) and isinstance(st.get("next"), dict) else None
        return seats if isinstance(seats, dict) and seats else dict(zip("ESWN", PLAYERS, strict=True))

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.communicate()
        self.errors.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class Figures:
    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = {}
        self.cpu: dict[str, float] = {}

    def add(self, kind: str, ms: float, cpu: float = 0.0) -> None:
        self.ms.setdefault(kind, []).append(ms)
        self.cpu[kind] = self.cpu.get(kind, 0.0) + cpu

    def row(self, kind: str) -> tuple[float, float, float]:
        s = sorted(self.ms[kind])
        p99 = s[min(len(s) - 1, int(0.99 * len(s)))]
        return statistics.median(s), p99, self.cpu[kind] / len(s) * 1000


def measure(command: list[str], hands: int, runs: int) -> Figures:
    served = Served(command, hands)
    out = Figures()
    try:
        pid = served.proc.pid
        status, st = served.request("GET", "/api/status")
        if status != 200 or not isinstance(st, dict):
            raise SystemExit(f"the evening did not play: {status} {st}")
        seats = served.seats()
        for kind, make in [("line check", lambda k: ("PUT", f"/api/drafts/{'ESWN'[k % 4]}",
                                                     {"text": LINES[k % len(LINES)], "hand": hands + 1,
                                                      "by": seats["ESWN"[k % 4]]})),
                           ("status", lambda k: ("GET", "/api/status", None))]:
            before = server_cpu(pid)
            for k in range(runs):
                out.add(kind, served.timed(*make(k)))
            out.cpu[kind] = server_cpu(pid) - before
        standings = "/api/standings" if served.has_standings else "/api/evening"
        for _k in range(max(1, runs // 4)):
            for kind, method, path, body in [
                    ("hand add", "POST", "/api/hands", {"text": ADDED, "hand": hands + 1, "by": BY}),
                    ("first status after an add", "GET", "/api/status", None),
                    ("last hand", "GET", f"/api/hands/{hands + 1}", None),
                    ("standings", "GET", standings, None)]:
                before = server_cpu(pid)
                ms = served.timed(method, path, body)
                out.add(kind, ms, server_cpu(pid) - before)
            status, _ = served.request("DELETE", f"/api/hands/last?hand={hands + 1}&by={BY}")
            if status != 200:
                raise SystemExit(f"undo: {status}")
            served.request("GET", "/api/status")
    finally:
        served.close()
    return out


def pct(values: list[float]) -> tuple[float, float]:
    """p50 and p99 (the nearest rank) of `values`."""
    s = sorted(values)
    return statistics.median(s), s[min(len(s) - 1, int(0.99 * len(s)))]


# -- (a) the status poll while another phone opens the Hands view --------------------------------

def under_load(command: list[str], hands: int, polls: int, pause: float, limit: float) -> dict[str, object]:
    """Status polls on a quiet server, then while a thread asks for the whole evening over and over
    on its own connection.  Every loop is bounded: `polls` polls, and `limit` seconds for the loaded
    part (the loader stops with the polls, or at the limit)."""
    served = Served(command, hands)
    try:
        served.ok("GET", "/api/status")
        served.ok("GET", "/api/evening")                # warm: the Hands view once
        quiet = []
        for _ in range(polls):
            quiet.append(served.timed("GET", "/api/status"))
            time.sleep(pause)
        stop = threading.Event()
        loads: list[float] = []
        failures: list[str] = []

        def loader() -> None:
            conn = served.connection()
            try:
                deadline = time.monotonic() + limit
                while not stop.is_set() and time.monotonic() < deadline:
                    t = time.perf_counter()
                    conn.request("GET", "/api/evening", headers=served.headers)
                    r = conn.getresponse()
                    r.read()                            # the bytes only: no JSON parsed in the client
                    if r.status != 200:
                        failures.append(f"GET /api/evening: {r.status}")
                        return
                    loads.append((time.perf_counter() - t) * 1000)
            except Exception as e:  # noqa: BLE001 - said after the polls
                failures.append(repr(e))
            finally:
                conn.close()

        thread = threading.Thread(target=loader, daemon=True)
        thread.start()
        time.sleep(0.2)                                 # the first evening under way
        loaded = []
        deadline = time.monotonic() + limit
        for _ in range(polls):
            if time.monotonic() > deadline or failures:
                break
            loaded.append(served.timed("GET", "/api/status"))
            time.sleep(pause)
        stop.set()
        thread.join(timeout=limit)
        if failures:
            raise SystemExit(f"the loader failed: {failures[0]}")
        return {"quiet": quiet, "loaded": loaded, "loads": loads}
    finally:
        served.close()


def print_under_load(results: dict[int, dict[str, object]], polls: int, pause: float) -> None:
    print(f"\nStatus poll (GET /api/status, own keep-alive connection, {polls} polls {pause * 1000:.0f} ms apart), "
          "quiet and while another connection asks for GET /api/evening over and over:")
    print(f"{'hands':>6} {'quiet p50 / p99 ms':>22} {'under load p50 / p99 ms':>26} {'polls':>6} "
          f"{'evening p50 / p99 ms (count)':>32}")
    for n, r in results.items():
        q50, q99 = pct(r["quiet"])  # type: ignore[arg-type]
        l50, l99 = pct(r["loaded"])  # type: ignore[arg-type]
        e50, e99 = pct(r["loads"]) if r["loads"] else (float("nan"), float("nan"))  # type: ignore[arg-type]
        print(f"{n:>6} {q50:10.2f} / {q99:9.2f} {l50:12.2f} / {l99:11.2f} {len(r['loaded']):>6} "  # type: ignore[arg-type]
              f"{e50:13.2f} / {e99:9.2f} ({len(r['loads'])})")  # type: ignore[arg-type]


# -- (b) instructions of one request, in a running server, under callgrind -----------------------

class Callgrind:
    """The server under callgrind with instrumentation off; `count` switches it on around one request."""

    def __init__(self, command: list[str], hands: int, settle: float):
        self.out = Path(tempfile.mkdtemp(prefix="mjscore-bench-callgrind-"))
        self.settle = settle
        wrapper = ("valgrind", "--tool=callgrind", "--instr-atstart=no", "--trace-children=yes", "--dump-instr=no",
                   f"--callgrind-out-file={self.out}/callgrind.out.%p")
        try:
            self.served = Served(command, hands, wrapper=wrapper, env={"PYTHONHASHSEED": "0"}, timeout=3600,
                                 start_seconds=600)
        except BaseException:
            shutil.rmtree(self.out, ignore_errors=True)
            raise
        self.pid = self.served.proc.pid                 # valgrind's process is the server's
        self.dumps = 0

    def control(self, *args: str) -> None:
        done = subprocess.run(["callgrind_control", *args, str(self.pid)], capture_output=True, text=True, timeout=120)
        if done.returncode != 0 or "OK" not in done.stdout:
            raise SystemExit(f"callgrind_control {' '.join(args)}: {done.stdout} {done.stderr}")

    def count(self, method: str, path: str, body: object = None) -> tuple[int, float, object]:
        """Instructions of the server while it answers one request (on a connection made and accepted
        before), the seconds the window was open, and the answer."""
        self.served.reconnect(self.settle)
        self.control("-i", "on")
        self.control("-z")
        t = time.monotonic()
        if method == "IDLE":
            time.sleep(float(path))
            answer: object = None
        else:
            answer = self.served.ok(method, path, body)
        return self.dump(), time.monotonic() - t, answer

    def dump(self) -> int:
        self.dumps += 1
        label = f"bench{self.dumps}"
        self.control("--dump=" + label)
        self.control("-i", "off")
        for _ in range(600):                            # bounded: a minute
            for f in self.out.glob("callgrind.out.*"):
                text = f.read_text(errors="replace") if f.stat().st_size else ""
                if f"desc: Trigger: --dump={label}\n" in text or f"desc: Trigger: dump {label}\n" in text \
                        or f"Trigger: Client Request: {label}" in text or re.search(rf"Trigger: .*\b{label}\n", text):
                    m = re.search(r"^summary: (\d+)", text, re.M) or re.search(r"^totals: (\d+)", text, re.M)
                    if m:
                        f.unlink()
                        return int(m[1])
            time.sleep(0.1)
        raise SystemExit(f"no callgrind dump {label} in {self.out}")

    def close(self) -> None:
        try:
            self.served.close()
        finally:
            shutil.rmtree(self.out, ignore_errors=True)


def correction_of(served: Served, number: int) -> tuple[int, str, str]:
    """A hand at or before `number` with a loser's `score 8`: its number, its text, and the text
    with that loser's score made 16 (a total that moves)."""
    for n in range(number, max(0, number - 8), -1):    # the generated evening has one in every four
        text = served.ok("GET", f"/api/hands/{n}/text")["text"]  # type: ignore[index]
        changed = re.sub(r"^(\s*[ESWN]\w*:\s*score )8(\s*)$", r"\g<1>16\g<2>", text, count=1, flags=re.M)
        if changed != text:
            return n, text, changed
    raise SystemExit(f"no hand with a loser's 'score 8' at or before hand {number}")


def correction(served: Served, number: int, text: str) -> dict[str, object]:
    """A correction's body: the text, who sends it, and the hand's version where the server gives one."""
    body: dict[str, object] = {"text": text, "by": BY}
    now = served.ok("GET", f"/api/hands/{number}/text")
    if isinstance(now, dict) and "version" in now:
        body["version"] = now["version"]
    return body


def instructions(command: list[str], hands: int, settle: float, idle: float) -> list[tuple[str, int, float]]:
    """Each counted request: (what, instructions, window seconds), the warm-up uncounted."""
    cg = Callgrind(command, hands, settle)
    served = cg.served
    rows: list[tuple[str, int, float]] = []
    try:
        number, text, changed = correction_of(served, hands - 100)
        add = {"text": ADDED, "hand": hands + 1, "by": BY}
        undo = f"/api/hands/last?hand={hands + 1}&by={BY}"
        # Warm: one of each request, nothing counted.
        for method, path, body in [("GET", "/api/status", None), ("GET", "/api/evening", None),
                                   ("GET", "/api/stats", None), ("GET", "/api/standings", None)]:
            served.ok(method, path, body)
        served.ok("PUT", f"/api/hands/{number}", correction(served, number, changed))
        served.ok("GET", "/api/status")
        served.ok("PUT", f"/api/hands/{number}", correction(served, number, text))
        served.ok("GET", "/api/status")
        served.ok("POST", "/api/hands", add)
        served.ok("GET", "/api/status")
        served.ok("DELETE", undo)
        served.ok("GET", "/api/status")
        for _ in range(2):
            served.ok("GET", "/api/evening")
            served.ok("GET", "/api/stats")

        def row(what: str, method: str, path: str, body: object = None) -> object:
            n, seconds, answer = cg.count(method, path, body)
            rows.append((what, n, seconds))
            print(f"  {hands} hands: {what}: {n:,} instructions ({seconds:.1f} s)", file=sys.stderr, flush=True)
            return answer

        row("idle window (the server's ticking)", "IDLE", str(idle))
        row("status poll (GET /api/status), warm", "GET", "/api/status")
        for kind, path in [("evening", "/api/evening"), ("stats", "/api/stats")]:
            row(f"hand add (POST /api/hands), before the {kind}", "POST", "/api/hands", add)
            row("the first status after the add", "GET", "/api/status")
            row(f"GET {path}, the first after the add", "GET", path)
            row(f"GET {path}, again (file unchanged)", "GET", path)
            served.reconnect()
            served.ok("DELETE", undo)
            served.ok("GET", "/api/status")
        row("GET /api/evening, warm (file unchanged since the undo)", "GET", "/api/evening")
        row(f"correction PUT /api/hands/{number} (score 8 -> 16)", "PUT", f"/api/hands/{number}",
            correction(served, number, changed))
        row("the first status after the correction", "GET", "/api/status")
        row(f"the correction put back (PUT /api/hands/{number})", "PUT", f"/api/hands/{number}",
            correction(served, number, text))
        served.reconnect()
        served.ok("GET", "/api/status")
        return rows
    finally:
        cg.close()


def print_instructions(results: dict[int, list[tuple[str, int, float]]]) -> None:
    print("\nInstructions of one request in a running server (callgrind, PYTHONHASHSEED=0, warm: one of each "
          "request first; each on a connection accepted before the count):")
    for n, rows in results.items():
        idle = next((c / s for w, c, s in rows if w.startswith("idle")), 0.0)
        print(f"\n{n} hands (idle: {idle:,.0f} instructions a second of the window)")
        print(f"{'request':62} {'instructions':>15} {'window s':>9} {'less idle':>15}")
        for what, count, seconds in rows:
            print(f"{what:62} {count:15,} {seconds:9.1f} {count - idle * seconds:15,.0f}")


# -- (c) the first load's bytes ----------------------------------------------------------------

BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd"         # Chrome's and Firefox's


def exchange(sock: socket.socket, request: bytes, buffer: bytearray) -> tuple[int, dict[str, str], bytes, int]:
    """One request on a raw keep-alive socket: the status, headers, body (as sent), and the bytes
    received for it (status line, headers and body).  `buffer` keeps what came after it."""
    sock.sendall(request)
    received = 0

    def more() -> None:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection")
        buffer.extend(chunk)

    for _ in range(100000):
        if b"\r\n\r\n" in buffer:
            break
        more()
    head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
    received += len(head) + 4
    buffer[:] = rest
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        headers[name] = f"{headers[name]}, {value.strip()}" if name in headers else value.strip()
    if "chunked" in headers.get("transfer-encoding", ""):
        chunks = bytearray()
        for _ in range(100000):
            while b"\r\n" not in buffer:
                more()
            size_line, _, rest = bytes(buffer).partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            while len(rest) < size + 2:
                more()
                size_line, _, rest = bytes(buffer).partition(b"\r\n")
            chunks += rest[:size]
            received += len(size_line) + 2 + size + 2
            buffer[:] = rest[size + 2:]
            if size == 0:                       # no trailers are sent: the last CRLF was read above
                break
        return status, headers, bytes(chunks), received
    length = int(headers.get("content-length", "0"))
    while len(buffer) < length:
        more()
    body = bytes(buffer[:length])
    buffer[:] = buffer[length:]
    return status, headers, body, received + length


def decoded(headers: dict[str, str], body: bytes) -> bytes:
    coding = headers.get("content-encoding", "").strip().lower()
    if coding == "gzip":
        return gzip.decompress(body)
    if coding == "deflate":
        return zlib.decompress(body)
    if coding in ("", "identity"):
        return body
    return b""                                          # br, zstd: not decoded here (size unknown)


Loaded = list[tuple[str, int, str, int, int, int, int]]   # path, status, encoding, sent, received, body, decoded


def first_load(command: list[str], hands: int, encodings: list[str | None]) -> list[tuple[str | None, Loaded]]:
    served = Served(command, hands)
    out = []
    try:
        served.ok("GET", "/api/status")                  # played once, as the server is when a phone comes
        for accept in encodings:
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=120)
            rows: Loaded = []
            try:
                buffer = bytearray()
                cookie = ""
                for path in ["/?token=" + served.token, "/", "/page.js", "/page.css", "/api/status"]:
                    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{served.port}", "Connection: keep-alive",
                             "User-Agent: Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) "
                             "Chrome/131.0 Mobile Safari/537.36",
                             "Accept: */*" if path.startswith("/api") or "." in path else
                             "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
                    if accept:
                        lines.append(f"Accept-Encoding: {accept}")
                    lines.append("Accept-Language: en-GB,en;q=0.9")
                    if cookie:
                        lines.append(f"Cookie: {cookie}")
                    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
                    status, headers, body, received = exchange(sock, request, buffer)
                    if "set-cookie" in headers:
                        cookie = headers["set-cookie"].split(";")[0]
                    if status >= 400 or (path != "/api/status" and not cookie):
                        raise SystemExit(f"GET {path}: {status} {body[:200]!r}")
                    rows.append((path if "token=" not in path else "/?token=... (the link)", status,
                                 headers.get("content-encoding", "-"), len(request), received, len(body),
                                 len(decoded(headers, body))))
            finally:
                sock.close()
            out.append((accept, rows))
        return out
    finally:
        served.close()


def print_first_load(results: dict[int, list[tuple[str | None, Loaded]]]) -> None:
    print("\nFirst load on one keep-alive socket, bytes received (status line + headers + body):")
    for n, runs in results.items():
        for accept, rows in runs:
            print(f"\n{n} hands, Accept-Encoding: {accept or '(none sent)'}")
            print(f"{'request':28} {'status':>6} {'encoding':>9} {'sent':>6} {'received':>9} {'body':>8} "
                  f"{'decoded':>8}")
            for path, status, coding, sent, received, body, plain in rows:
                print(f"{'GET ' + path:28} {status:>6} {coding:>9} {sent:>6} {received:>9} {body:>8} {plain:>8}")
            four = [r for r in rows if "token" not in r[0]]
            print(f"{'GET / .js .css /api/status':28} {'':>6} {'':>9} {sum(r[3] for r in four):>6} "
                  f"{sum(r[4] for r in four):>9} {sum(r[5] for r in four):>8} {sum(r[6] for r in four):>8}"
                  f"   (with the link: {sum(r[4] for r in rows)} received)")


def print_latency(results: dict[int, Figures]) -> None:
    kinds = list(next(iter(results.values())).ms)
    print(f"{'request':28} " + " ".join(f"{f'{n} hands: p50 / p99 ms, CPU ms':>38}" for n in results))
    for kind in kinds:
        cells = []
        for _n, f in results.items():
            p50, p99, cpu = f.row(kind)
            cells.append(f"{p50:10.2f} / {p99:8.2f} {cpu:10.2f} ({len(f.ms[kind])})")
        print(f"{kind:28} " + " ".join(f"{c:>38}" for c in cells))
    if len(results) > 1:
        first, last = min(results), max(results)
        print(f"\nCPU per request at {last} hands / at {first} hands:")
        for kind in kinds:
            a, b = results[first].row(kind)[2], results[last].row(kind)[2]
            print(f"  {kind:28} {b / a if a else float('nan'):5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", nargs="*", type=int, default=[200, 2000])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--mjscore", default=f"{shlex.quote(sys.executable)} -m mjscore")
    parser.add_argument("--latency", action="store_true",
                        help="the latency table (the default when nothing else is asked)")
    parser.add_argument("--under-load", action="store_true",
                        help="status polls, quiet and while the Hands view is asked")
    parser.add_argument("--polls", type=int, default=100, help="status polls in each state (--under-load)")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between polls (--under-load)")
    parser.add_argument("--load-seconds", type=float, default=600.0, help="at most this long under load")
    parser.add_argument("--instructions", action="store_true", help="callgrind: instructions of single requests")
    parser.add_argument("--instruction-hands", type=int, nargs="*", help="lengths for --instructions (default HANDS)")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds for the server to accept a connection "
                                                                   "before a count (--instructions)")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of the idle window (--instructions)")
    parser.add_argument("--first-load", action="store_true", help="bytes of a phone's first load")
    parser.add_argument("--accept-encoding", default=BROWSER_ACCEPT_ENCODING)
    args = parser.parse_args()
    command = shlex.split(args.mjscore)
    latency = args.latency or not (args.under_load or args.instructions or args.first_load)
    print(f"mjscore: {args.mjscore}  hands: {args.hands}", flush=True)
    if latency:
        print_latency({n: measure(command, n, args.runs) for n in args.hands})
        sys.stdout.flush()
    if args.first_load:
        encodings: list[str | None] = list(dict.fromkeys([args.accept_encoding, "gzip", None]))
        print_first_load({n: first_load(command, n, encodings) for n in args.hands})
        sys.stdout.flush()
    if args.under_load:
        print_under_load({n: under_load(command, n, args.polls, args.pause, args.load_seconds) for n in args.hands},
                         args.polls, args.pause)
        sys.stdout.flush()
    if args.instructions:
        print_instructions({n: instructions(command, n, args.settle, args.idle)
                            for n in (args.instruction_hands or args.hands)})


if __name__ == "__main__":
    main()
