"""The table page's server over real HTTP: `mjscore serve` on 127.0.0.1, one keep-alive connection.

    python benchmarks/bench_serve.py [HANDS ...] [--runs N] [--mjscore COMMAND]

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
way (for example a worktree's venv).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
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
TICK = os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """The server process's CPU time so far (user + system, every thread, living or ended), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Served:
    """`mjscore serve` on an evening of `hands` hands, and one keep-alive connection to it."""

    def __init__(self, command: list[str], hands: int):
        self.folder = Path(tempfile.mkdtemp(prefix="mjscore-bench-serve-"))
        evening = self.folder / "evening.mj"
        body = "\n---\n".join(HANDS[n % len(HANDS)] for n in range(hands))
        evening.write_text(f"players {' '.join(PLAYERS)}\n---\n{body}\n")
        env = {**os.environ, "MJSCORE_CACHE_DIR": str(self.folder / "cache")}
        self.proc = subprocess.Popen([*command, "serve", str(evening), "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        m = re.match(r"Open http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", line)
        if not m:
            self.proc.kill()
            raise SystemExit(f"mjscore serve did not start: {line!r} "
                             f"{self.proc.stderr.read() if self.proc.stderr else ''}")
        self.port, token = int(m[1]), m[2]
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                        "Origin": f"http://127.0.0.1:{self.port}"}
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        self.has_standings = self.request("GET", "/api/standings")[0] == 200

    def request(self, method: str, path: str, body: object = None) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        self.conn.request(method, path, body=data, headers=self.headers)
        r = self.conn.getresponse()
        raw = r.read()
        try:
            return r.status, json.loads(raw)
        except ValueError:
            return r.status, None

    def timed(self, method: str, path: str, body: object = None) -> float:
        t = time.perf_counter()
        status, _ = self.request(method, path, body)
        if status >= 400 and status != 409:
            raise SystemExit(f"{method} {path}: {status}")
        return (time.perf_counter() - t) * 1000

    def close(self) -> None:
        self.conn.close()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


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
        for kind, make in [("line check", lambda k: ("PUT", f"/api/drafts/{'ESWN'[k % 4]}",
                                                     {"text": LINES[k % len(LINES)], "hand": hands + 1, "by": "Ann"})),
                           ("status", lambda k: ("GET", "/api/status", None))]:
            before = server_cpu(pid)
            for k in range(runs):
                out.add(kind, served.timed(*make(k)))
            out.cpu[kind] = server_cpu(pid) - before
        standings = "/api/standings" if served.has_standings else "/api/evening"
        for _k in range(max(1, runs // 4)):
            for kind, method, path, body in [
                    ("hand add", "POST", "/api/hands", {"text": ADDED, "hand": hands + 1}),
                    ("first status after an add", "GET", "/api/status", None),
                    ("last hand", "GET", f"/api/hands/{hands + 1}", None),
                    ("standings", "GET", standings, None)]:
                before = server_cpu(pid)
                ms = served.timed(method, path, body)
                out.add(kind, ms, server_cpu(pid) - before)
            status, _ = served.request("DELETE", f"/api/hands/last?hand={hands + 1}&by=Ann")
            if status != 200:
                raise SystemExit(f"undo: {status}")
            served.request("GET", "/api/status")
    finally:
        served.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", nargs="*", type=int, default=[200, 2000])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--mjscore", default=f"{shlex.quote(sys.executable)} -m mjscore")
    args = parser.parse_args()
    command = shlex.split(args.mjscore)
    results = {n: measure(command, n, args.runs) for n in args.hands}
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


if __name__ == "__main__":
    main()
