"""`batch --jobs N`: worker processes, the same bytes as one process, in input order."""

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.io.notation import print_table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import random_table  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """A file of 300 tables, some of them bad, and odd neighbours: a session, a YAML file, a missing file."""
    d = tmp_path_factory.mktemp("jobs")
    rng = random.Random(11)
    chunks = []
    for n in range(300):
        if n % 37 == 5:
            chunks.append("E: 5555p ...\nW: 5p ...\n")
        elif n % 53 == 7:
            chunks.append("# a comment\nE: 12x\n")
        else:
            chunks.append(print_table(random_table(rng)))
    big = d / "many.mj"
    big.write_text("---\n".join(chunks))
    return [str(big), "sample_hands/evening-session.mj", "sample_hands/win-on-discard.yaml", str(d / "missing.mj"),
            "sample_hands/evening.mj"]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_every_number_of_jobs_writes_the_same_bytes(mixed, fmt):
    outputs = {}
    for jobs in (1, 2, 3):
        r = subprocess.run([sys.executable, "-m", "mjscore", "batch", *mixed, "--format", fmt, "--jobs", str(jobs)],
                           capture_output=True, timeout=300)
        assert r.returncode == 1 and b"Traceback" not in r.stderr          # bad tables: exit 1
        outputs[jobs] = r.stdout
    assert outputs[1] == outputs[2] == outputs[3]
    if fmt == "json":
        rows = [json.loads(line) for line in outputs[2].splitlines()]
        tables = [r for r in rows if "table" in r]                       # the session's end is no table
        assert [r["table"] for r in tables] == list(range(1, len(tables) + 1))
        assert sum("error" in r for r in rows) >= 9
        hands = [r for r in rows if r["file"] == "sample_hands/evening-session.mj"]
        assert [r.get("hand") for r in hands] == [*range(1, 21), None] and "settle_up" in hands[-1]


def test_the_api_takes_jobs_too(mixed):
    one = [i.to_dict() for i in mjscore.score_many(mixed[0])]
    two = list(mjscore.score_many(mixed[0], jobs=2))
    assert [i.to_dict() for i in two] == one
    assert all(i.result is None and (i.data is not None) == i.ok for i in two)
    assert all(isinstance(i.error, mjscore.MjError) and i.error.location.line for i in two if not i.ok)


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """4000 tables: enough for `batch --jobs 2` to be mid-run when its first line shows."""
    rng = random.Random(3)
    path = tmp_path_factory.mktemp("big") / "big.mj"
    path.write_text("---\n".join(print_table(random_table(rng)) for _ in range(4000)))
    return path


# Issue 31, item 3 ("No hang, ever"): stopped at any moment, the batch ends its workers (it does
# not wait on them) and leaves only whole lines.  Each signal five times, at different moments;
# tools/stop_batch.py tries it a hundred times.
@pytest.mark.parametrize("attempt", range(5))
@pytest.mark.parametrize("sig, status, said", [(signal.SIGINT, 130, b"mjscore: interrupted\n"),
                                               (signal.SIGTERM, 143, b"mjscore: terminated\n")],
                         ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_workers_at_once_and_leaves_whole_lines(big, sig, status, said, attempt):
    import threading

    proc = subprocess.Popen([sys.executable, "-m", "mjscore", "batch", str(big), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    # Every wait below has a bound: past a minute the watchdog kills the process and its workers.
    watchdog = threading.Timer(60, _kill_group, (proc.pid,))
    watchdog.start()
    try:
        first = proc.stdout.readline()
        assert json.loads(first)["table"] == 1
        time.sleep(0.1 * attempt)
        proc.send_signal(sig)
        rest = proc.stdout.read()                  # through the same buffer as the first line
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == status
        gone = _group_gone(proc.pid)                                  # before anything here kills it
    finally:
        watchdog.cancel()
        _kill_group(proc.pid)
    assert gone                                                       # no worker is left
    assert err == said                                                # one line, no traceback
    text = first + rest
    assert text.endswith(b"\n")                                       # no half line at the end
    rows = [json.loads(line) for line in text.decode().splitlines()]
    assert [r["table"] for r in rows] == list(range(1, len(rows) + 1))  # whole lines, in order
    assert len(rows) < 4000                                           # it stopped before the end


def test_a_batch_closed_early_ends_its_workers(big):
    items = mjscore.score_many(big, jobs=2)
    assert next(items).table == 1
    started = time.monotonic()
    items.close()
    import multiprocessing

    assert multiprocessing.active_children() == [] and time.monotonic() - started < 10


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def _group_gone(pgid: int) -> bool:
    """No process is left in the group (the session) the batch led: its workers are gone."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("jobs", [1, 2])
def test_encode_writes_each_item_where_it_was_scored(mixed, jobs):
    """`score_files(..., encode=)`: every item carries its text, the same for any number of jobs;
    with workers only the text comes back (not the result's plain form)."""
    import functools
    import json

    from mjscore.cli.render import batch_line
    from mjscore.evening.batch import score_files

    plain = list(score_files(mixed, jobs=1, sessions=True))
    encoded = list(score_files(mixed, jobs=jobs, encode=functools.partial(batch_line, fmt="json"), sessions=True))
    assert [i.text for i in encoded] == [batch_line(i, "json") for i in plain]
    tables = [i for i in encoded if i.table]                              # a session's end is no table
    assert all(json.loads(i.text)["table"] == n for n, i in enumerate(tables, start=1))
    assert [json.loads(i.text).get("settle_up") is not None for i in encoded if not i.table] == [True]
    assert len(encoded) > 300 and any(not i.ok for i in encoded)          # error rows are written too
    if jobs > 1:
        assert all(i.data is None and i.result is None for i in encoded)
