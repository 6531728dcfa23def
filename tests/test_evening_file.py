"""The evening file under races, links, odd bytes and failing output: nothing lost, nothing said
that is not so.  Sections follow the items of the "Nothing lost" issue.
"""

import multiprocessing
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app

runner = CliRunner()
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
HAND = "E: score 40 win self; S: score 8; W: ...; N: ..."
MJSCORE = [sys.executable, "-m", "mjscore"]
ROOT = Path(__file__).resolve().parent.parent


def hand(k):
    """A hand told apart by its counted score."""
    return f"E: score {k} win self; S: ...; W: ...; N: ..."


def scores_in(path):
    return [int(m) for m in re.findall(r"^E: score (\d+) win self$", Path(path).read_text(), re.M)]


def new_evening(path, *hands):
    ev = mjscore.Evening(path)
    ev.add(hands[0] if hands else HAND, players=PLAYERS)
    for h in hands[1:]:
        ev.add(h)
    return ev


def cli(*args, stdin=None, **kw):
    """The command as a script runs it: in a pipe, with no $COLUMNS (pytest exports one), so
    that each error is one line."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    return subprocess.run([*MJSCORE, *args], input=stdin, capture_output=True, text=True, timeout=60,
                          **{"env": env, **kw})


# -- 1. No lost or resurrected hand ------------------------------------------------------------

def _add_at_once(path, k, barrier):
    barrier.wait()
    mjscore.Evening(path).add(hand(k))


def _undo_at_once(path, barrier):
    barrier.wait()
    mjscore.Evening(path).undo()


def race(*jobs):
    """Start the jobs in processes of their own at the same moment; each must end well."""
    # Spawned where there is no fork (Windows): the jobs are module-level functions.
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    barrier = ctx.Barrier(len(jobs))
    procs = [ctx.Process(target=fn, args=(*args, barrier)) for fn, args in jobs]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0] * len(procs)


def test_1_fifty_pairs_of_writers_at_once_lose_and_duplicate_nothing(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path, hand(1))
    for pair in range(50):
        a, b = 1000 + 2 * pair, 1001 + 2 * pair
        race((_add_at_once, (path, a)), (_add_at_once, (path, b)))
    got = scores_in(path)
    assert len(got) == 101 and sorted(got) == sorted({1, *range(1000, 1100)})
    assert len(mjscore.play_session(path).hands) == 101


def test_1_add_racing_undo_neither_loses_the_new_hand_nor_brings_back_the_removed_one(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path, hand(1), hand(2))
    for round_ in range(30):
        before = scores_in(path)
        k = 5000 + round_
        race((_add_at_once, (path, k)), (_undo_at_once, (path,)))
        after = scores_in(path)
        # One of the two went first; either way the file is what one order gives.
        assert after in (before[:-1] + [k], before), (before, after)


def test_1_a_writer_that_cannot_get_the_lock_says_so_and_writes_nothing(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path)
    before = path.read_bytes()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR)\n"
        "try:\n    import fcntl; fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "except ImportError:\n"
        "    import filelock; filelock.lock_descriptor(fd)   # Windows: the lock mjscore takes there\n"
        "print('held', flush=True); time.sleep(20)"), str(tmp_path / ".ev.mj.lock")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        r = cli("add", str(path), "-e", HAND)
        assert r.returncode == 1 and "another writer" in r.stderr and "nothing was written" in r.stderr
        assert r.stderr.count("\n") == 1 and path.read_bytes() == before
    finally:
        holder.kill()


def test_1_writers_from_the_command_line_at_once(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path)
    procs = [subprocess.Popen([*MJSCORE, "add", str(path), "-e", hand(100 + k)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE) for k in range(6)]
    assert [p.wait(60) for p in procs] == [0] * 6
    assert sorted(scores_in(path)) == [40, 100, 101, 102, 103, 104, 105]


# -- 2. The exit status tells the truth --------------------------------------------------------

@pytest.mark.parametrize("command", [["add", "{ev}", "-e", "draw"], ["undo", "{ev}"]])
@pytest.mark.parametrize("output", ["full", "closed"])
def test_2_a_change_made_exits_0_with_a_warning_when_the_output_fails(tmp_path, command, output):
    path = tmp_path / "ev.mj"
    new_evening(path, hand(1), hand(2))
    before = path.read_text()
    args = [c.format(ev=path) for c in command]
    if output == "full":
        with open("/dev/full", "w") as full:
            r = subprocess.run([*MJSCORE, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    else:
        r = subprocess.run([*MJSCORE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=60, preexec_fn=lambda: os.close(1))
    assert r.returncode == 0, r.stderr
    assert r.stderr.startswith("mjscore: warning: ") and r.stderr.count("\n") == 1
    assert "could not be written" in r.stderr and "Traceback" not in r.stderr
    assert path.read_text() != before                               # the change was made, once


@pytest.mark.parametrize("args", [["score", "-e", HAND], ["session", "{ev}"], ["show", "{ev}"],
                                  ["schemes", "show", "dmjl"], ["batch", "{ev}", "--jobs", "1"], ["check", "-e", HAND],
                                  ["waits", "-e", "E: 1m 19p 19s E S W NN C F P"], ["schemes"]])
def test_2_every_command_says_one_line_and_exits_1_when_standard_output_is_closed(tmp_path, args):
    path = tmp_path / "ev.mj"
    new_evening(path)
    if args[0] == "batch":
        path.with_suffix(".mj").write_text(path.read_text())
        args = ["batch", str(tmp_path / "table.mj"), "--jobs", "1"]
        (tmp_path / "table.mj").write_text(HAND.replace("; ", "\n") + "\n")
    r = subprocess.run([*MJSCORE, *[a.format(ev=path) for a in args]], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=60, preexec_fn=lambda: os.close(1))
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("mjscore: error: cannot write the output")


# -- 3. What add checks is what it writes ------------------------------------------------------

@pytest.mark.parametrize("typed,message", [
    ("", "holds no hand"),
    ("   # only a comment", "holds no hand"),
    ("draw; ---; draw", "add one hand at a time"),
    ("draw # caf\udce9", "not UTF-8 text: byte 0xe9"),
    ("draw\x00", "NUL"),
])
def test_3_a_hand_that_is_no_hand_or_two_is_refused_and_nothing_is_left_behind(tmp_path, typed, message):
    path = tmp_path / "ev.mj"
    new_evening(path)
    before = path.read_bytes()
    with pytest.raises(mjscore.MjError, match=message):
        mjscore.Evening(path).add(typed)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [".ev.mj.lock", "ev.mj"]


def test_3_a_lone_carriage_return_is_a_line_break_in_what_is_checked_and_in_what_is_written(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path)
    with pytest.raises(mjscore.MjError, match="garbage"):
        mjscore.Evening(path).add("draw # note\rE: garbage")        # checked as the two lines it writes
    mjscore.Evening(path).add("draw # a note\rpenalty E 10")
    assert "\r" not in path.read_text() and mjscore.Evening(path).add("draw").evening.hands[-1].number == 3


def test_3_undo_passes_over_the_empty_hands_an_edit_leaves_at_the_end(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path, hand(1), hand(2))
    path.write_text(path.read_text() + "---\n\n---\n")
    assert len(mjscore.play_session(path).hands) == 2
    removed = mjscore.Evening(path).undo()
    assert "score 2" in removed.text and scores_in(path) == [1]
    mjscore.Evening(path).add(hand(3))
    assert scores_in(path) == [1, 3] and "---\n---" not in path.read_text()


def test_3_a_kill_at_any_moment_leaves_the_old_file_or_the_new_and_a_stale_temporary_file_goes(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path)
    stale = tmp_path / ".ev.mj.abcd1234.tmp"
    stale.write_text("half a file")
    for k in range(12):
        p = subprocess.Popen([*MJSCORE, "add", str(path), "-e", hand(200 + k)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(0.05 * k)
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert len(mjscore.play_session(path).hands) == len(scores_in(path))     # the file plays, whole
    mjscore.Evening(path).add(hand(999))
    assert not stale.exists() and [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert scores_in(path)[-1] == 999


# -- 4. The evening file is the user's file ----------------------------------------------------

def test_4_a_linked_evening_is_written_through_to_its_target(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    target = real / "ev.mj"
    new_evening(target)
    link = tmp_path / "link.mj"
    link.symlink_to(target)
    mjscore.Evening(link).add(hand(7))
    assert link.is_symlink() and scores_in(target) == [40, 7]
    mjscore.Evening(link).undo()
    assert link.is_symlink() and scores_in(target) == [40]


def test_4_a_read_only_evening_is_refused(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path)
    path.chmod(0o444)
    before = path.read_bytes()
    for change in (lambda ev: ev.add(hand(1)), lambda ev: ev.undo()):
        with pytest.raises(mjscore.MjError, match="read-only"):
            change(mjscore.Evening(path))
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_4_a_new_evening_gets_the_umask_s_mode_and_an_old_one_keeps_its_own(tmp_path):
    old = os.umask(0o027)
    try:
        path = tmp_path / "ev.mj"
        new_evening(path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o640
        path.chmod(0o604)
        mjscore.Evening(path).add(hand(1))
        assert stat.S_IMODE(path.stat().st_mode) == 0o604
    finally:
        os.umask(old)


def test_4_crlf_line_ends_and_a_byte_order_mark_are_kept(tmp_path):
    path = tmp_path / "ev.mj"
    path.write_bytes(b"\xef\xbb\xbfplayers Ann Bob Cid Dee\r\n---\r\n"
                     b"E: score 10 win self\r\nS: ...\r\nW: ...\r\nN: ...\r\n")
    mjscore.Evening(path).add(hand(5))
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfplayers") and data.count(b"\r\n") == data.count(b"\n")
    mjscore.Evening(path).undo()
    assert path.read_bytes().startswith(b"\xef\xbb\xbf") and b"\n" not in path.read_bytes().replace(b"\r\n", b"")


def _other_user():
    name = "mjscore-other"
    if subprocess.run(["id", name], capture_output=True).returncode != 0:
        subprocess.run(["useradd", "--no-create-home", name], check=True, capture_output=True)
    import pwd

    return pwd.getpwnam(name)


def _add_as(uid, gid, path, k, result):
    """In a process of another user's (forked, so no interpreter needs starting as them)."""
    os.setgid(gid)
    os.setuid(uid)
    try:
        mjscore.Evening(path).add(hand(k))
        result.put("added")
    except mjscore.MjError as e:
        result.put(str(e))


@pytest.mark.skipif(getattr(os, "geteuid", lambda: -1)() != 0 or not shutil.which("useradd"),
                    reason="needs root to make a second user (the suite runs as root in CI)")
def test_4_another_users_evening_in_a_shared_folder_is_not_taken_over(tmp_path):
    import tempfile

    other = _other_user()
    folder = Path(tempfile.mkdtemp(prefix="mjscore-shared-"))        # pytest's own folders are private
    folder.chmod(0o777)                            # the other user may write in the folder
    path = folder / "ev.mj"
    new_evening(path)
    path.chmod(0o666)
    ctx = multiprocessing.get_context("fork")
    result = ctx.Queue()
    p = ctx.Process(target=_add_as, args=(other.pw_uid, other.pw_gid, path, 3, result))
    p.start()
    p.join(30)
    said = result.get(timeout=5)
    assert "belongs to another user" in said and "nothing was written" in said
    assert path.stat().st_uid == 0 and scores_in(path) == [40]
    # Root adding to the other user's file keeps it theirs.
    os.chown(path, other.pw_uid, other.pw_gid)
    mjscore.Evening(path).add(hand(4))
    assert (path.stat().st_uid, scores_in(path)) == (other.pw_uid, [40, 4])
    shutil.rmtree(folder)


# -- 5. Bounded input everywhere ---------------------------------------------------------------

@pytest.mark.usefixtures("unwrapped")
def test_5_standard_input_is_read_within_the_same_limit_as_a_file(tmp_path):
    path = tmp_path / "ev.mj"
    new_evening(path)
    with open("/dev/zero", "rb") as zero:
        r = subprocess.run([*MJSCORE, "add", str(path)], stdin=zero, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "larger than 67,108,864 bytes" in r.stderr


def test_5_a_table_with_no_end_is_an_error_row_and_the_stream_goes_on():
    from mjscore.io.reader import MAX_TABLE_CHARS

    lines = (["y"] * (MAX_TABLE_CHARS // 2 + 10)) + ["---", "E: score 10 win self", "S: ...", "W: ...", "N: ..."]
    items = list(mjscore.score_many(iter(lines)))
    assert [i.ok for i in items] == [False, True]
    assert "longer than 100,000 characters" in str(items[0].error)


# -- 6. Numbers and names read one way ---------------------------------------------------------

@pytest.mark.parametrize("start", ["²", "٣", "1" * 5000, "-5", "12x"])
def test_6_start_reads_a_number_as_the_table_headers_do(start):
    text = f"players Ann Bob Cid Dee\nstart {start}\n---\n{HAND.replace('; ', chr(10))}\n"
    with pytest.raises(mjscore.NotationError, match="'start'"):
        mjscore.play_session(text, name="s.mj")


@pytest.mark.parametrize("names,fragment", [
    ("Ann Ann Cid Dee", "one name"),
    ("Ann ann Cid Dee", "one name"),                       # names are compared without case
    ("Ann Ａｎｎ Cid Dee", "one name"),                      # full-width letters are the plain ones (NFKC)
    ("Ann Bo\u200bb Cid Dee", "prints as nothing"),
    ("Ann Bob Cid De\x1be", "control character"),
    ("Ann win Cid Dee", "word of the notation"),
    ("Ann Bob Cid N", "seat"),
])
def test_6_a_name_that_cannot_stand_for_a_player_is_refused_with_its_place(names, fragment):
    text = f"players {names}\n---\ndraw\n"
    with pytest.raises(mjscore.NotationError, match=fragment) as e:
        mjscore.play_session(text, name="s.mj")
    assert e.value.location.line == 1 and e.value.location.column > 8


@pytest.mark.parametrize("name", ["Ann Lee", "Bo#b", "Cid;x", "Dee|x"])
def test_6_a_yaml_name_the_notation_cannot_write_back_is_refused(name):
    text = f"players: [{name!r}, Bob, Cid, Dee]\nhands:\n  - draw: true\n"
    with pytest.raises(mjscore.NotationError, match="cannot be a player's name"):
        mjscore.play_session(text, name="s.yaml")


def test_6_names_are_kept_in_their_normal_form(tmp_path):
    path = tmp_path / "ev.mj"
    mjscore.Evening(path).add("draw", players=("Ａnn", "Bob", "Cid", "Dee"))
    assert path.read_text().startswith("players Ann Bob Cid Dee\n")


def test_6_markdown_escapes_what_would_break_its_table():
    from mjscore.cli.render import render_text

    r = mjscore.score("E: score 40 win self; S: ...; W: ...; N: ...").to_dict()
    r["players"][0]["name"] = "A|<b>"
    out = render_text(r, "markdown")
    assert "A\\|&lt;b&gt;" in out and "A|<b>" not in out


# -- 7. Paths mean one thing -------------------------------------------------------------------

def test_7_a_scheme_file_is_written_into_a_new_evening_as_the_evening_reads_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("house.yaml").write_text("scheme: house\nextends: classical\nlimit: 700\n")
    Path("sub").mkdir()
    r = runner.invoke(app, ["add", "sub/ev.mj", "--players", *PLAYERS, "--scheme", "house.yaml", "-e", HAND])
    assert r.exit_code == 0, r.stderr
    assert "scheme ../house.yaml\n" in Path("sub/ev.mj").read_text() and "read from the evening's folder" in r.stdout
    monkeypatch.chdir(tmp_path / "sub")
    assert mjscore.play_session(Path("ev.mj")).hands[0].result.scheme.name == "house"


def test_7_a_str_is_text_and_a_path_is_a_file_in_every_function(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter2 is the password\n")
    for function in (mjscore.waits, mjscore.play_session):
        with pytest.raises(mjscore.MjError) as e:
            function(str(secret))
        assert "hunter2" not in str(e.value)
    report = mjscore.check(str(secret))          # check goes past a table it cannot read, and says so
    assert report.errors == 1 and "does not start a player" in report.lines[0]
    assert "hunter2" not in "\n".join(report.lines)


# -- 8. Deep extends chains are an error -------------------------------------------------------

def test_8_a_chain_of_extends_deeper_than_32_is_a_scheme_error_and_the_batch_goes_on(tmp_path):
    (tmp_path / "s0.yaml").write_text("scheme: s0\nextends: classical\n")
    for n in range(1, 1500):
        (tmp_path / f"s{n}.yaml").write_text(f"scheme: s{n}\nextends: s{n - 1}.yaml\n")
    with pytest.raises(mjscore.SchemeError, match="more than 32 deep"):
        mjscore.load_scheme(tmp_path / "s1499.yaml")
    (tmp_path / "t.mj").write_text(f"scheme s1499.yaml\n{HAND.replace('; ', chr(10))}\n"
                                   f"---\n{HAND.replace('; ', chr(10))}\n")
    items = list(mjscore.score_many(tmp_path / "t.mj"))
    assert [i.ok for i in items] == [False, True] and "more than 32 deep" in str(items[0].error)


# -- 9. Signals end quietly --------------------------------------------------------------------

def test_9_sigterm_ends_a_batch_and_its_workers_quietly_with_whole_lines(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from generate import tables

    from mjscore.io.notation import print_table

    big = tmp_path / "big.mj"
    big.write_text("---\n".join(print_table(t) for t in tables(11, 20000)))
    out = tmp_path / "out.jsonl"
    with open(out, "w") as f:
        p = subprocess.Popen([*MJSCORE, "batch", str(big), "--jobs", "2"], stdout=f, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        while out.stat().st_size < 200_000 and p.poll() is None:
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        err = p.communicate(timeout=60)[1]
    assert p.returncode == 143 and err == "mjscore: terminated\n"        # one line, no traceback
    text = out.read_text()
    assert text and text.endswith("\n")
    import json

    assert all(json.loads(line) for line in text.splitlines())
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-s", str(p.pid)], capture_output=True, text=True).stdout.split()
    assert left == []                                           # no worker of its session is left


# -- 10. Escapes everywhere --------------------------------------------------------------------

def test_10_show_and_add_print_a_file_s_control_characters_escaped(tmp_path):
    table = tmp_path / "t.mj"
    table.write_text("scheme cl\x07ass\x9bical\nE: score 10 win self\n")
    r = runner.invoke(app, ["show", str(table)])
    assert r.exit_code == 0 and "\x07" not in r.stdout and "\x9b" not in r.stdout
    assert "cl\\x07ass\\x9bical" in r.stdout
    path = tmp_path / "ev.mj"
    r = runner.invoke(app, ["add", str(path), "--players", "Ann", "Bob", "Cid", "Dee", "--scheme", "cl\x07x.yaml",
                            "-e", "draw"])
    assert "\x07" not in r.stdout + r.stderr


def test_10_json_says_a_control_character_as_its_escape():
    import json

    from mjscore.cli.render import to_json

    value = {"name": "A\x9b2Jb\u200f"}
    text = to_json(value)
    assert text.isprintable() and json.loads(text) == value
