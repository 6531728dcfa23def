"""The table page's server: the CPU time of a line check and of adding a hand, on a 200-hand evening.

    python benchmarks/bench_serve.py [HANDS] [RUNS]

Runs the application in this process (the ASGI test client), so each figure is the CPU time
(`time.process_time`) of one request through the whole server: the token, the JSON, the library.
Reports the median and the 95th percentile of each, and the page's total transfer size.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

import mjscore
from mjscore.web.app import create_app

HANDS = [
    "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ...",
    "S: [CCC] 234m 678m 55p 789s 1f win 5p from N; E: [111p] 2378m 4455s NN; W: (FFFF) 12345m 99p 2y 568s; "
    "N: [EEE] 11m 23p 456s 889s 3f",
    "draw",
    "W: score 48 win from S; E: score 8; S: ...; N: score 16",
]
LINES = ["[111p] 2378m 4455s NN", "[CCC] 234m 678m 55p 789s 1f win 5p from N", "score 40 win self", "...",
         "(FFFF) 12345m 99p 2y 568s", "12x 3m"]
TOKEN = "b" * 32


def cpu_ms(fn) -> float:
    t = time.process_time()
    fn()
    return (time.process_time() - t) * 1000


def figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(0.95 * len(samples)))]
    return f"median {statistics.median(samples):6.2f} ms, 95th percentile {p95:6.2f} ms ({len(samples)} requests)"


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    folder = Path(tempfile.mkdtemp())
    evening = mjscore.Evening(folder / "evening.mj")
    evening.start(("Ann", "Bob", "Cid", "Dee"))
    for n in range(hands):
        evening.add(HANDS[n % len(HANDS)])
    client = TestClient(create_app(str(evening.path), TOKEN), base_url="http://127.0.0.1")
    auth = {"Authorization": f"Bearer {TOKEN}"}
    client.get("/api/status", headers=auth)                  # the evening played once, as the server keeps it
    checks = [cpu_ms(lambda k=k: client.put(f"/api/drafts/{'ESWN'[k % 4]}", json={"text": LINES[k % len(LINES)]},
                                            headers=auth)) for k in range(runs)]
    adds = []
    for k in range(runs // 3):
        number = hands + 1
        adds.append(cpu_ms(lambda: client.post("/api/hands", json={"text": HANDS[k % len(HANDS)], "hand": number},
                                               headers=auth)))
        client.delete("/api/hands/last", headers=auth)
    page = sum(len(client.get(path, headers=auth).content) for path in ("/", "/page.js", "/page.css"))
    print(f"evening of {hands} hands")
    print(f"  line check (PUT /api/drafts/SEAT): {figures(checks)}")
    print(f"  add a hand (POST /api/hands):      {figures(adds)}")
    print(f"  the page: {page:,} bytes in all (HTML, script, style; nothing from any other host)")


if __name__ == "__main__":
    main()
