"""An evening's checkpoint (issue 23, item 1): `add`, `undo` and `session` play only the hands
they have not played before, and a checkpoint that does not match the file is never used."""

import json
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.evening import session as session_module
from mjscore import pipeline
from mjscore.store import checkpoints
from mjscore.rules import scheme as scheme_module

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
runner = CliRunner()


def hand(k: int) -> str:
    """A hand whose winner and score vary with k: the deal moves, East keeps it now and then."""
    seat = "ESWN"[k % 4]
    others = "; ".join(f"{s}: score {(k * 7 + i * 3) % 30}" for i, s in enumerate("ESWN") if s != seat)
    return f"{seat}: score {20 + k % 50} win self; {others}"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(d))
    return d


@pytest.fixture
def scored(monkeypatch):
    """How many hands were scored (not read back from a checkpoint)."""
    calls = []
    real = session_module.evaluate
    monkeypatch.setattr(session_module, "evaluate", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def evening(tmp_path, hands: int) -> Path:
    path = tmp_path / "ev.mj"
    ev = mjscore.Evening(path)
    for k in range(hands):
        ev.add(hand(k), players=PLAYERS if k == 0 else None)
    return path


def uncached(path: Path, **settings) -> dict:
    """The evening played with no cache at all: what every checkpointed answer must equal (its
    hands are not counted as `scored`)."""
    before, counting = os.environ.get("MJSCORE_CACHE_DIR"), session_module.evaluate
    os.environ["MJSCORE_CACHE_DIR"] = ""
    session_module.evaluate = pipeline.evaluate
    try:
        return mjscore.play_session(path, keep_going=True, **settings).to_dict()
    finally:
        os.environ["MJSCORE_CACHE_DIR"] = before
        session_module.evaluate = counting


def records(cache: Path) -> list[dict]:
    [file] = (cache / "evenings").glob("*.jsonl")
    return [json.loads(line) for line in file.read_text().splitlines()]


def test_an_add_scores_only_the_hand_it_adds(tmp_path, cache, scored):
    path = evening(tmp_path, 30)
    scored.clear()
    added = mjscore.Evening(path).add(hand(30))
    assert len(scored) == 1                                   # not 31
    assert added.to_dict()["hand"] == uncached(path)["hands"][-1]
    assert added.evening.summary() == {k: v for k, v in uncached(path).items()
                                       if k not in ("players", "start", "hands")}
    assert len(added.evening.hands) == 31


def test_session_reads_back_what_was_played_and_says_the_same(tmp_path, cache, scored):
    path = evening(tmp_path, 12)
    scored.clear()
    first = mjscore.play_session(path).to_dict()
    assert scored == []                                       # every hand read back from what add kept
    assert first == uncached(path)
    r = runner.invoke(app, ["session", str(path), "--format", "json"])
    assert json.loads(r.stdout) == first and scored == []


def test_editing_an_early_hand_replays_from_it_and_gives_the_new_totals(tmp_path, cache, scored):
    path = evening(tmp_path, 10)
    text = path.read_text()
    assert "S: score 21 win self" in text                     # hand 2
    path.write_text(text.replace("S: score 21 win self", "S: score 44 win self", 1))
    scored.clear()
    added = mjscore.Evening(path).add(hand(10))
    assert len(scored) == 10                                  # hands 2 to 11: the first still stands
    fresh = uncached(path)
    assert added.evening.totals == fresh["totals"] and added.to_dict()["hand"] == fresh["hands"][-1]
    assert mjscore.play_session(path).to_dict() == fresh


def test_a_comment_added_above_a_hand_moves_its_lines_and_replays_it(tmp_path, cache, scored):
    path = evening(tmp_path, 6)
    lines = path.read_text().split("\n")
    at = [n for n, line in enumerate(lines) if line == "---"][3]
    path.write_text("\n".join(lines[:at + 1] + ["# a comment"] + lines[at + 1:]))
    scored.clear()
    assert mjscore.play_session(path).to_dict() == uncached(path)
    assert len(scored) == 3                                   # hands 4 to 6: their lines moved


def test_undo_then_add_keeps_the_checkpoint_true(tmp_path, cache, scored):
    path = evening(tmp_path, 8)
    ev = mjscore.Evening(path)
    scored.clear()
    removed = ev.undo()
    assert scored == [] and len(removed.evening.hands) == 7
    assert removed.evening.summary() == {k: v for k, v in uncached(path).items()
                                         if k not in ("players", "start", "hands")}
    assert [r["i"] for r in records(cache)] == list(range(1, 8))     # hand 8's record went with it
    ev.add(hand(99))
    assert len(scored) == 1 and mjscore.play_session(path).to_dict() == uncached(path)


def test_settings_given_over_the_file_keep_a_checkpoint_of_their_own(tmp_path, cache, scored):
    path = evening(tmp_path, 5)
    scored.clear()
    added_up = mjscore.play_session(path, paying="add-up").to_dict()
    assert len(scored) == 5 and added_up == uncached(path, paying="add-up")
    assert mjscore.play_session(path).to_dict() == uncached(path)
    scored.clear()
    assert mjscore.play_session(path, paying="add-up").to_dict() == added_up and scored == []


def test_a_changed_house_scheme_replays_the_evening(tmp_path, cache, scored):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nlimit: 500\n")
    path = tmp_path / "ev.mj"
    ev = mjscore.Evening(path)
    big = "E: [CCC] [FFF] [PPP] 123p 99s win 9s self; S: ...; W: ...; N: ..."
    ev.add(big, players=PLAYERS, scheme=str(house))
    assert ev.play().hands[0].to_dict()["players"][0]["score"] == 500
    house.write_text("scheme: house\nextends: classical\nlimit: 800\n")
    scheme_module._load.cache_clear()             # as a new process finds it: a scheme is read once a process
    scored.clear()
    replayed = mjscore.play_session(path).to_dict()
    assert scored == [1] and replayed["hands"][0]["players"][0]["score"] == 800
    assert replayed == uncached(path)


def test_a_hand_read_back_gives_its_typed_result_by_playing_again(tmp_path, cache):
    path = evening(tmp_path, 4)
    kept = mjscore.play_session(path)
    fresh = mjscore.play_session(path, keep_going=True, draw_passes_deal=True)   # a checkpoint of its own
    assert kept.hands[2].kept is not None                    # read back, not scored
    assert kept.hands[2].result.to_dict() == fresh.hands[2].result.to_dict()
    assert kept.hands[2].result.scheme.name == "classical"


def test_a_line_that_is_not_json_is_passed_over(tmp_path, cache, scored):
    path = evening(tmp_path, 6)
    [file] = (cache / "evenings").glob("*.jsonl")
    file.write_text("not json\n" + file.read_text() + '{"i": 7, "cut sh')
    scored.clear()
    assert mjscore.play_session(path).to_dict() == uncached(path) and scored == []


@pytest.mark.parametrize("spoil", [
    lambda lines: [line[: len(line) // 2] for line in lines],                         # every line cut short
    lambda lines: [json.dumps({**json.loads(line), "after": {"seats": [0, 0, 0, 0]}}) for line in lines],
    lambda lines: [json.dumps({**json.loads(line), "hand": '{"hand": 99}'}) for line in lines],
    lambda lines: [json.dumps({**json.loads(line), "names": {"E": "Ann"}}) for line in lines],
    lambda lines: [json.dumps({**json.loads(line), "schemes": {"/nowhere.yaml": "0" * 64}}) for line in lines],
    lambda lines: [json.dumps({**json.loads(line), "fp": "0" * 64}) for line in lines],
    lambda lines: [json.dumps(json.loads(line) | {"after": json.loads(line)["after"] | {"totals": [1e300] * 4}})
                   for line in lines],
    # A change that would pass for true: every total 1,000 more (only the record's sum tells).
    lambda lines: [json.dumps(json.loads(line)
                              | {"after": json.loads(line)["after"]
                                 | {"totals": [t + 1000 for t in json.loads(line)["after"]["totals"]]}})
                   for line in lines],
])
def test_a_spoilt_checkpoint_is_never_believed(tmp_path, cache, scored, spoil):
    path = evening(tmp_path, 6)
    [file] = (cache / "evenings").glob("*.jsonl")
    file.write_text("\n".join(spoil(file.read_text().splitlines())) + "\n")
    scored.clear()
    assert mjscore.play_session(path).to_dict() == uncached(path)
    assert len(scored) == 6
    added = mjscore.Evening(path).add(hand(6))
    assert added.evening.totals == uncached(path)["totals"]


def test_a_checkpoint_that_is_a_link_or_in_a_folder_others_may_write_is_not_used(tmp_path, cache, scored):
    path = evening(tmp_path, 4)
    [file] = (cache / "evenings").glob("*.jsonl")
    elsewhere = tmp_path / "planted.jsonl"
    elsewhere.write_text(file.read_text())
    file.unlink()
    file.symlink_to(elsewhere)
    scored.clear()
    assert mjscore.play_session(path).to_dict() == uncached(path) and len(scored) == 4
    assert file.is_symlink() and elsewhere.read_text().count("\n") == 4   # never written through
    file.unlink()
    mjscore.play_session(path)
    (cache / "evenings").chmod(0o770)
    scored.clear()
    mjscore.play_session(path)
    assert len(scored) == 4
    (cache / "evenings").chmod(0o700)


def test_a_fifo_in_the_cache_is_passed_over_without_waiting(tmp_path, cache, root):
    # Opening a FIFO to read waits for a writer: each command would hang.  A child process, so
    # that a hang fails the test rather than stopping the suite.
    import subprocess
    import sys

    path = evening(tmp_path, 3)
    [file] = (cache / "evenings").glob("*.jsonl")
    file.unlink()
    os.mkfifo(file)
    for entry in cache.glob("*.json"):
        entry.unlink()
        os.mkfifo(entry)
    env = {**os.environ, "MJSCORE_CACHE_DIR": str(cache)}
    for args in (["session", str(path)], ["add", str(path), "-e", "draw"], ["undo", str(path)],
                 ["score", str(root / "sample_hands" / "win-on-discard.mj")]):
        r = subprocess.run([sys.executable, "-m", "mjscore", *args], env=env, capture_output=True, text=True,
                           timeout=60)
        assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
    assert stat.S_ISFIFO(file.lstat().st_mode)
    assert mjscore.play_session(path).to_dict() == uncached(path)


def test_a_checkpoint_too_large_to_read_is_cut_down_by_the_next_add(tmp_path, cache, scored):
    path = evening(tmp_path, 4)
    [file] = (cache / "evenings").glob("*.jsonl")
    os.truncate(file, checkpoints.MAX_FILE_BYTES + 1)           # sparse: no disk is spent
    scored.clear()
    mjscore.Evening(path).add(hand(4))
    assert len(scored) == 5 and file.stat().st_size < 100_000    # played again once, and kept
    scored.clear()
    mjscore.Evening(path).add(hand(5))
    assert len(scored) == 1
    assert mjscore.play_session(path).to_dict() == uncached(path)


def test_no_cache_and_yaml_sessions_play_whole(tmp_path, monkeypatch, scored, root):
    monkeypatch.setenv("MJSCORE_CACHE_DIR", "")
    path = evening(tmp_path, 3)
    scored.clear()
    mjscore.play_session(path)
    assert len(scored) == 3
    scored.clear()
    mjscore.play_session(root / "sample_hands" / "evening-session.yaml")
    mjscore.play_session(root / "sample_hands" / "evening-session.yaml")
    assert len(scored) == 40


def test_a_checkpoint_holds_a_record_a_hand(tmp_path, cache):
    evening(tmp_path, 5)
    kept = records(cache)
    assert [r["i"] for r in kept] == [1, 2, 3, 4, 5]
    assert set(kept[0]) == {"i", "fp", "names", "after", "schemes", "sum", "hand"}
    [file] = (cache / "evenings").glob("*.jsonl")
    assert stat.S_IMODE(file.stat().st_mode) == 0o600


def test_reading_the_last_records_finds_them_past_a_long_line(tmp_path, cache):
    key = "k" * 64
    checkpoints.write(key, 0, [{"i": 1, "pad": "x" * 200_000}, {"i": 2}, {"i": 3}])
    assert [r.data["i"] for r in checkpoints.read_last(key, 3)] == [1, 2, 3]
    assert [r.data["i"] for r in checkpoints.read_last(key, 1)] == [3]
    last = checkpoints.read_last(key, 2)
    checkpoints.write(key, last[0].end, [{"i": 9}])
    assert [r.data["i"] for r in checkpoints.read_all(key)] == [1, 2, 9]


# An evening changed every which way: whatever the order of adds, undos and edits, the evening
# played from its checkpoint is the evening played afresh.
steps = st.lists(st.one_of(st.tuples(st.just("add"), st.integers(0, 200)), st.just(("undo", 0)),
                           st.tuples(st.just("edit"), st.integers(0, 200)),
                           st.just(("session", 0))), min_size=1, max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_any_order_of_changes_plays_as_the_file_does(tmp_path_factory, steps):
    folder = tmp_path_factory.mktemp("ev")
    cache = folder / "cache"
    cache.mkdir(mode=0o700)
    before = os.environ.get("MJSCORE_CACHE_DIR")
    os.environ["MJSCORE_CACHE_DIR"] = str(cache)
    try:
        path = evening(folder, 2)
        ev = mjscore.Evening(path)
        for what, k in steps:
            if what == "add":
                ev.add(hand(k))
            elif what == "undo" and len(ev.play().hands) > 1:
                ev.undo()
            elif what == "edit":
                text = path.read_text()
                at = text.find("win self")
                path.write_text(text[:at] + f"win self  # edited {k}" + text[at + len("win self"):])
            else:
                mjscore.play_session(path)
            assert mjscore.play_session(path).to_dict() == uncached(path)
            assert ev.play().summary() == {k: v for k, v in uncached(path).items()
                                           if k not in ("players", "start", "hands")}
    finally:
        os.environ["MJSCORE_CACHE_DIR"] = before
