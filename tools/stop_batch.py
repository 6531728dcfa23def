"""Stop `mjscore batch --jobs 2` mid-run, N times, and count the clean stops (issue 31, item 3).

    python tools/stop_batch.py SIGINT 100
    python tools/stop_batch.py SIGTERM 100

Each try runs the batch on 4000 tables in a session of its own, sends the signal once the first
line is out (after a random pause of up to half a second), and counts the try clean when: the
exit status is 130 (SIGINT) or 143 (SIGTERM) within a minute; standard error is the one line
saying so; every line of standard output is a whole JSON line, numbered in order; and no process
of the session is left.  tests/test_batch_jobs.py runs the same, five times a signal.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import random_table  # noqa: E402

from mjscore.io.notation import print_table  # noqa: E402

STATUS = {"SIGINT": (130, b"mjscore: interrupted\n"), "SIGTERM": (143, b"mjscore: terminated\n")}


def one(big: Path, sig: signal.Signals, folder: Path) -> str | None:
    """None for a clean stop, else what was wrong."""
    status, said = STATUS[sig.name]
    out, err = folder / "out", folder / "err"
    with open(out, "wb") as o, open(err, "wb") as e:
        proc = subprocess.Popen([sys.executable, "-m", "mjscore", "batch", str(big), "--jobs", "2"], stdout=o,
                                stderr=e, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while b"\n" not in out.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                return f"no first line (exit {proc.poll()})"
            time.sleep(0.01)
        time.sleep(random.random() * 0.5)
        proc.send_signal(sig)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            return "hung"
        left = _group_left(proc.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    text = out.read_bytes()
    wrong = []
    if proc.returncode != status:
        wrong.append(f"exit {proc.returncode}")
    if err.read_bytes() != said:
        wrong.append(f"stderr {err.read_bytes()[-200:]!r}")
    if not text.endswith(b"\n"):
        wrong.append("half a line at the end")
    try:
        tables = [json.loads(line)["table"] for line in text.decode().splitlines()]
        if tables != list(range(1, len(tables) + 1)):
            wrong.append("lines out of order")
    except (ValueError, KeyError):
        wrong.append("a line that is not whole")
    if left:
        wrong.append("processes left")
    return "; ".join(wrong) or None


def _group_left(pgid: int) -> bool:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


def main() -> None:
    sig = signal.Signals[sys.argv[1]]
    tries = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        big = folder / "big.mj"
        rng = random.Random(3)
        big.write_text("---\n".join(print_table(random_table(rng)) for _ in range(4000)))
        clean = 0
        for n in range(1, tries + 1):
            started = time.monotonic()
            wrong = one(big, sig, folder)
            clean += wrong is None
            print(f"{n:3} {wrong or 'clean'} ({time.monotonic() - started:.1f} s)", flush=True)
    print(f"{sig.name}: {clean} of {tries} clean")
    sys.exit(clean != tries)


if __name__ == "__main__":
    main()
