"""Untrusted input, tried as a hostile writer would: the scheme cache's entries and folder, scheme
paths and values, absurd YAML, odd bytes and text, what reaches a terminal or a spreadsheet,
FIFOs and links planted where mjscore opens a file."""

import csv
import io
import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.store import scheme_cache
from mjscore.store.cache_folder import fingerprint
from mjscore.model.errors import MjError, SchemeError
from mjscore.rules import scheme as scheme_module
from mjscore.rules.scheme import load_scheme
from mjscore.rules.shipped import scheme_dir

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
HAND = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."


def score_json(*args, env=None):
    r = runner.invoke(app, ["score", "-e", HAND, "--format", "json", *args], env=env)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache folder of the current user, and no scheme remembered in memory."""
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(d))
    forget()
    yield d
    forget()


def forget():
    scheme_module._load.cache_clear()
    scheme_module._BY_NAME.clear()
    from mjscore.rules import payoffs

    payoffs._builtin.cache_clear()


def classical_entry(cache_dir: Path) -> Path:
    path = str((scheme_dir() / "classical.yaml").resolve())
    source = fingerprint((scheme_dir() / "classical.yaml").read_bytes())
    return cache_dir / f"{scheme_cache._key('scheme', path, source)}.json"


def poison(entry: Path) -> None:
    """Make the cached classical scheme pay 500 for going out."""
    record = json.loads(entry.read_text())
    for rule in record["data"]["rules"]:
        if rule["id"] == "mahjong":
            rule["points"] = 500
    entry.write_text(json.dumps(record))


# -- 1. planted entries ------------------------------------------------------------------------

def test_an_entry_in_a_folder_others_can_write_is_never_read(cache):
    honest = score_json()["players"][0]["points"]
    entry = classical_entry(cache)
    assert entry.exists()
    poison(entry)
    forget()
    cache.chmod(0o777)                               # a shared folder: anyone could have planted it
    assert score_json()["players"][0]["points"] == honest


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user ids (Windows): the owner check is skipped there")
def test_an_entry_of_another_user_is_never_read(cache):
    honest = score_json()["players"][0]["points"]
    entry = classical_entry(cache)
    poison(entry)
    if os.getuid() == 0:
        os.chown(entry, 4242, 4242)                  # planted by another user
    else:
        entry.chmod(0o666)                           # or writable by anyone
    forget()
    assert score_json()["players"][0]["points"] == honest


def test_an_entry_listing_no_files_or_of_an_old_format_is_ignored(cache):
    honest = score_json()["players"][0]["points"]
    entry = classical_entry(cache)
    record = json.loads(entry.read_text())
    entry.write_text(json.dumps({"version": "0.1.0", "files": [], "data": record["data"]}))
    poison_free = score_json()["players"][0]["points"]
    forget()
    assert poison_free == honest == score_json()["players"][0]["points"]


def test_a_scheme_edited_in_place_with_its_time_kept_is_read_again(cache, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nlimit: 2000\n")
    assert load_scheme(str(house)).limit == 2000
    st = house.stat()
    house.write_text("scheme: house\nextends: classical\nlimit: 3000\n")     # same size
    os.utime(house, ns=(st.st_atime_ns, st.st_mtime_ns))
    forget()
    assert load_scheme(str(house)).limit == 3000


def test_a_changed_base_scheme_misses_the_entry_of_the_file_that_extends_it(cache, tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text("scheme: base\nextends: classical\nlimit: 2000\n")
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: ./base.yaml\n")
    assert load_scheme(str(house)).limit == 2000
    base.write_text("scheme: base\nextends: classical\nlimit: 4000\n")
    forget()
    assert load_scheme(str(house)).limit == 4000


# -- 2. links ----------------------------------------------------------------------------------

def test_a_planted_link_is_never_written_through(cache, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    entry = classical_entry(cache)
    entry.symlink_to(victim)
    for n in range(50):                              # the names a writer might try for its temporary file
        (cache / f"{entry.stem}.{n}.tmp").symlink_to(victim)
    score_json()
    assert victim.read_text() == "precious"
    assert not entry.is_symlink() or entry.resolve() == victim    # replaced as a name, never followed


def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(tmp_path / "link"))
    forget()
    score_json()
    assert list(real.iterdir()) == []


# -- 3. expansion ------------------------------------------------------------------------------

ALIAS_BOMB = "scheme: bomb\nextends: classical\nnotes:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9))


def test_an_alias_bomb_in_a_scheme_is_refused_before_anything_walks_it(cache, tmp_path):
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(ALIAS_BOMB)
    assert len(ALIAS_BOMB) < 700
    with pytest.raises(SchemeError, match="alias bomb"):
        load_scheme(str(bomb))
    assert list(cache.iterdir()) == []


def test_nothing_larger_than_its_source_allows_is_cached(cache, monkeypatch):
    monkeypatch.setattr(scheme_cache, "EXPANSION", 0)
    monkeypatch.setattr(scheme_cache, "MAX_ENTRY_BYTES", 100)
    score_json()
    assert list(cache.iterdir()) == []


# -- 4. a bad entry ----------------------------------------------------------------------------

def test_an_entry_that_fails_the_checks_means_the_yaml_is_read_again(cache):
    score_json()
    entry = classical_entry(cache)
    record = json.loads(entry.read_text())
    record["data"]["limit"] = "x"
    entry.write_text(json.dumps(record))
    forget()
    assert score_json()["scheme"] == "classical" and load_scheme("classical").limit == 1000


# -- 5. paths ----------------------------------------------------------------------------------

SECRET = "root:$6$s3cr3t-hash-that-must-not-leak:19000:0:99999:7:::"


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null", "fifo", "secret", "folder"])
def test_a_scheme_header_reads_only_regular_files_and_echoes_nothing(tmp_path, target):
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
    elif target == "secret":
        (tmp_path / "secret").write_text(SECRET + "\n")
    elif target == "folder":
        (tmp_path / "folder").mkdir()
    path = target if target.startswith("/") else str(tmp_path / target)
    good = Path("sample_hands/win-on-discard.mj").read_text()
    tables = tmp_path / "tables.mj"
    tables.write_text(f"{good}---\nscheme {path}\n{good}---\n{good}")
    proc = subprocess.run([sys.executable, "-m", "mjscore", "batch", str(tables)], capture_output=True, text=True,
                          timeout=60)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [("error" in r) for r in rows] == [False, True, False]
    assert "s3cr3t" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr


def test_a_relative_scheme_path_is_read_from_the_table_files_folder(tmp_path, monkeypatch):
    club = tmp_path / "club"
    club.mkdir()
    (club / "house.yaml").write_text("scheme: club-house\nextends: classical\nlimit: 2000\n")
    (tmp_path / "house.yaml").write_text("scheme: decoy\nextends: classical\nlimit: 3000\n")
    (club / "hand.mj").write_text("scheme house.yaml\n" + HAND.replace("; ", "\n"))
    monkeypatch.chdir(tmp_path)
    forget()
    r = runner.invoke(app, ["score", "club/hand.mj", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["scheme"] == "club-house"


def test_messages_show_only_a_short_escaped_excerpt(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(f'scheme: x\nlimit: "{SECRET}\\e[2J"\n')
    with pytest.raises(SchemeError) as e:
        load_scheme(str(f))
    message = str(e.value)
    assert SECRET[:24] + "…" in message and SECRET[24:] not in message and "\x1b" not in message


# -- 6. values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("body,fragment", [
    ("rules:\n  - {id: going-double, text: t, when: {self_drawn: true}, doubles: -1}\n",
     "doubles: takes a whole number from 0"),
    ("rules:\n  - {id: minus, text: t, when: {self_drawn: true}, points: -20}\n",
     "points: takes a whole number from 0"),
    ("rules:\n  - {id: huge, text: t, when: {self_drawn: true}, doubles: 1000000000}\n", "from 0 to 20"),
    ("limit: " + "9" * 5000 + "\n", "a number of more than 30 digits"),
    ("limit: 99999999999\n", "limit: takes a whole number from 1 to 10,000,000"),
    ("limit: .inf\n", "limit: takes a whole number"),
    ("shapes: [{}]\n", "shapes[0]"),
    ("shapes: [[standard]]\n", "shapes[0]"),
    ("settlement:\n  payoffs:\n    odd: {table: {east-self-drawn: {others: .inf}, other-self-drawn: {}, "
     "east-on-discard: {}, other-on-east-discard: {}, other-on-other-discard: {}}}\n", "multiplier"),
    ("settlement:\n  payoffs:\n    odd: {table: {east-self-drawn: {others: .nan}, other-self-drawn: {}, "
     "east-on-discard: {}, other-on-east-discard: {}, other-on-other-discard: {}}}\n", "multiplier"),
    ("settlement: {round_payments_up: -100}\n", "round_payments_up"),
    ("settlement: {loser_difference_limit: 0}\n", "loser_difference_limit"),
    ("rotation: {dealer_streak_limit: 0}\n", "dealer_streak_limit"),
    ("rotation: {draw_passes: true}\n", "rotation.draw_passes: unknown key"),
    ("sets: {pung: {simple: [-2, 4], terminal: [4, 8], honour: [4, 8]}}\n", "sets.pung.simple"),
    ("pairs: {dragon: -2}\n", "pairs.dragon"),
    ("rules:\n" + "".join(f"  - {{id: d{n}, text: t, when: {{self_drawn: true}}, doubles: 20}}\n" for n in range(8)),
     "doubles in all"),
    ("rules:\n  - {id: mahjongg, points: 30}\n",
     "(mahjongg): no such rule in classical; a new rule needs text and when"),
    ("notes: !!python/object/apply:os.system ['echo pwned']\n", "not allowed"),
    ("%TAG ! tag:yaml.org,2002:python/\n---\nscheme: x\nnotes: !object:builtins.dict {}\n", "not allowed"),
    ("notes: &a [*a]\n", "YAML"),
    ("rules:\n  - {id: r1, text: t, when: {sets: [1, 2]}, points: 2}\n", "(r1).when.sets"),
])
def test_values_that_make_no_sense_are_refused_with_their_key(tmp_path, body, fragment):
    f = tmp_path / "house.yaml"
    head = "" if body.startswith("%TAG") else "scheme: house\nextends: classical\n"
    f.write_text(head + body)
    with pytest.raises(SchemeError) as e:
        load_scheme(str(f))
    message = str(e.value)
    assert fragment in message
    assert "pwned" not in message


def test_a_shipped_scheme_passes_every_range():
    for name in scheme_module.shipped_schemes():
        assert load_scheme(name).limit <= scheme_module.MAX_LIMIT


# -- 7. rules lists ----------------------------------------------------------------------------

def test_twenty_thousand_rules_load(tmp_path):
    # Loading is linear: 20,000 rules took 8 s when every rule was checked against every other.
    f = tmp_path / "many.yaml"
    f.write_text("scheme: many\nextends: classical\nrules:\n" + "".join(
        f"  - {{id: r{n}, text: t, when: {{self_drawn: true}}, points: 0}}\n" for n in range(20_000)))
    start = time.process_time()
    s = load_scheme(str(f))
    assert len(s.rules) > 20_000
    print(f"20,000 rules loaded in {time.process_time() - start:.2f} s of CPU")


# -- 8. one reader -----------------------------------------------------------------------------

SAMPLE = Path("sample_hands/evening.mj").read_bytes()


@pytest.mark.parametrize("name,data", [
    ("bom", b"\xef\xbb\xbf" + SAMPLE),
    ("crlf", SAMPLE.replace(b"\n", b"\r\n")),
    ("cr", SAMPLE.replace(b"\n", b"\r")),
    ("formfeed", SAMPLE.replace(b"\n", b"\n\f", 3)),
    ("vtab", SAMPLE.replace(b" ", b" \v ", 5)),
    ("nel", SAMPLE.replace(b" ", " \u0085".encode(), 5)),
    ("u2028", SAMPLE.replace(b" ", " \u2028".encode(), 5)),
])
def test_the_same_bytes_give_the_same_tables_in_every_command(tmp_path, name, data):
    f = tmp_path / f"{name}.mj"
    f.write_bytes(data)
    batch = [json.loads(line) for line in runner.invoke(app, ["batch", str(f)]).stdout.splitlines()]
    score = runner.invoke(app, ["score", str(f), "--format", "json"])
    scored = [json.loads(line) for line in score.stdout.splitlines()]
    shown = runner.invoke(app, ["show", str(f)])
    assert [{k: v for k, v in b.items() if k not in ("table", "file", "line")} for b in batch] == scored
    assert len(scored) == 3 and score.exit_code == 0 and shown.exit_code == 0
    assert shown.stdout.count("---") == 2


def test_a_bom_does_not_hide_a_yaml_file_or_a_session(tmp_path):
    for sample, command in (("win-on-discard.yaml", ["batch"]),
                            ("evening-session.mj", ["session", "--format", "json"])):
        f = tmp_path / sample
        f.write_bytes(b"\xef\xbb\xbf" + Path("sample_hands", sample).read_bytes())
        plain = runner.invoke(app, [*command[:1], str(Path("sample_hands", sample)), *command[1:]])
        with_bom = runner.invoke(app, [*command[:1], str(f), *command[1:]])
        assert plain.exit_code == with_bom.exit_code == 0
        assert [json.loads(x)["players"] for x in with_bom.stdout.splitlines()] == \
            [json.loads(x)["players"] for x in plain.stdout.splitlines()]


# -- 9. streaming ------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["score", "show"])
def test_each_table_is_answered_before_the_next_is_read(command):
    proc = subprocess.Popen([sys.executable, "-m", "mjscore", command, "-", "--format", "json"]
                            if command == "score" else [sys.executable, "-m", "mjscore", command, "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        proc.stdin.write(HAND.replace("; ", "\n").encode() + b"\n---\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no answer before the input ended"
        assert proc.stdout.readline().strip()
    finally:
        proc.stdin.close()
        proc.wait(30)


# -- 10. output that cannot be encoded ---------------------------------------------------------

def test_an_ascii_terminal_gets_escapes_and_every_row():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO", "PYTHONUTF8"))}
    env.update(LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    r = subprocess.run([sys.executable, "-m", "mjscore", "show", "sample_hands/evening.mj", "--tiles", "unicode"],
                       capture_output=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count(b"---") == 2 and b"[\\U0001f004\\U0001f004\\U0001f004]" in r.stdout


# -- 11. spreadsheets --------------------------------------------------------------------------

def test_csv_cells_a_spreadsheet_would_run_are_defused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = Path("=HYPERLINK(1).mj")
    f.write_text("paying: winner-only\nplayers:\n"
                 "  E: {tiles: '[111p] 222s 333m EEE 99s', win: {tile: 9s, self: true}, name: '@SUM(A1)'}\n"
                 "  S: {tiles: '[555m] ...', name: '+cmd'}\n")
    f = f.rename(f.with_suffix(".yaml"))
    r = runner.invoke(app, ["batch", str(f), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert rows[0]["file"].startswith("'=") and rows[0]["name"] == "'@SUM(A1)" and rows[1]["name"] == "'+cmd"
    assert rows[0]["net"].lstrip("-").isdigit()                   # numbers stay numbers


# -- 12. the terminal --------------------------------------------------------------------------

def test_escape_sequences_never_reach_the_terminal_raw(tmp_path):
    house = tmp_path / "evil.yaml"
    house.write_text('scheme: evil\nextends: classical\ntitle: "\\e]0;pwned\\a\\e[2J Evil"\n')
    r = runner.invoke(app, ["schemes", "show", str(house)])
    assert r.exit_code == 0 and "\x1b" not in r.stdout and "\\x1b" in r.stdout
    table = tmp_path / "t.yaml"
    table.write_text('players:\n  E: {tiles: "[111p] 222s 333m EEE 99s", win: {tile: 9s, self: true}, '
                     'name: "Ann\\e[31m\\u202eevil"}\n')
    r = runner.invoke(app, ["score", str(table)])
    assert r.exit_code == 0 and "\x1b" not in r.stdout and "\u202e" not in r.stdout and "\\u202e" in r.stdout


def test_invisible_characters_in_an_error_are_shown_escaped():
    r = runner.invoke(app, ["show", "-e", "E: 1m\u200b2m \u202e"])
    assert r.exit_code == 1 and "\u200b" not in r.stderr and "\\u200b" in r.stderr


# -- 13. smaller ones --------------------------------------------------------------------------

@pytest.mark.parametrize("header,fragment", [
    ("players A B C D\nplayers E F G H", "'players' is given twice"),
    ("players A B C D\nstart 100\nstart 200", "'start' is given twice"),
    ("players A B C D\nscheme dmjl\nscheme bmja", "'scheme' is given twice"),
    ("players A B C D\npaying add-up\npaying winner-only", "'paying' is given twice"),
    ("players A B C D\nloser-difference-limit 0", "1 or more"),
    ("players A A C D", "four different players"),
    ("players A B C D\nstart abc", "'start' takes"),
    ("players A B C D\nstart 100 200", "'start' takes"),
])
def test_session_headers(header, fragment):
    text = header + "\n---\nE: score 10 win self\nS: score 0\nW: score 0\nN: score 0\n"
    with pytest.raises(MjError, match=fragment):
        from mjscore.io.sessionfile import read_session

        read_session(text, "s.mj")


def test_table_headers_refuse_zero_like_the_command_line():
    r = runner.invoke(app, ["score", "-e", "loser-difference-limit 0; " + HAND])
    assert r.exit_code == 1 and "1 or more" in r.stderr


def test_one_tile_is_one_tile():
    r = runner.invoke(app, ["show", "-e", "E: 1m"])
    assert "E holds 1 tile;" in r.stderr


def test_a_full_disk_is_one_clear_line():
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "mjscore", "batch", "sample_hands/evening.mj"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr.strip() == "mjscore: error: cannot write the output: No space left on device"


def test_a_closed_pipe_is_not_an_error_message():
    proc = subprocess.Popen([sys.executable, "-m", "mjscore", "batch",
                             *sorted(map(str, Path("sample_hands").glob("*.mj")))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(60)
    assert "Traceback" not in err and "internal error" not in err




@pytest.mark.parametrize("planted", ["lock", "token"])
@pytest.mark.usefixtures("unwrapped")
def test_a_fifo_planted_where_mjscore_opens_a_file_is_refused_without_waiting(tmp_path, planted):
    # Opening a FIFO to read waits for a writer; each is opened without waiting and refused as
    # no regular file.  A child process, so that a hang fails the test rather than the suite.
    evening = tmp_path / "ev.mj"
    evening.write_text("players Ann Bob Cid Dee\n")
    if planted == "lock":
        os.mkfifo(tmp_path / ".ev.mj.lock")
        args, status, said = ["add", str(evening), "-e", "draw"], 1, "its lock file is not a regular file"
    else:
        os.mkfifo(tmp_path / "token")
        # A token file that is no regular file is one line and exit 1, as every file mjscore refuses.
        args, status, said = ["serve", str(evening), "--token-file", str(tmp_path / "token"), "--port", "0"], 1, \
            "not a regular file"
    r = subprocess.run([sys.executable, "-m", "mjscore", *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == status and said in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert evening.read_text() == "players Ann Bob Cid Dee\n"


@pytest.mark.parametrize("where", ["option", "extends"])
@pytest.mark.usefixtures("unwrapped")
def test_a_scheme_name_too_long_to_be_a_file_is_no_scheme_of_that_name(tmp_path, where):
    # The fuzzer's find: a name longer than a file's name may be (ENAMETOOLONG) was an internal
    # error, from the command line as from a house file's `extends:`.
    name = "a" * 300
    args = ["score", "-e", HAND, "--scheme", name]
    if where == "extends":
        house = tmp_path / "house.yaml"
        house.write_text(f"scheme: house\nextends: {name}\n")
        scheme_module._load.cache_clear()
        args = ["score", "-e", HAND, "--scheme", str(house)]
    r = runner.invoke(app, args)
    assert r.exit_code == 1 and "no scheme named 'aaaa" in r.output and "internal error" not in r.output, r.output


@pytest.mark.parametrize("args", [["example", "b" * 300], ["help", "b" * 300], ["example", "../README"]])
@pytest.mark.usefixtures("unwrapped")
def test_a_document_or_sample_name_that_is_none_is_said_so_in_one_line(args):
    r = runner.invoke(app, args)
    assert r.exit_code == 1 and "internal error" not in r.output and len(r.output.splitlines()) == 1, r.output
