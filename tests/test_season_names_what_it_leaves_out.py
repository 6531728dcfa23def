"""A season names every evening it leaves out (issue 39, item 3): a folder's file of an evening's
ending that cannot be read, and a file whose name is not UTF-8, are each said on standard error
(the file named, escaped as every error names one, and why), listed as left out, the others
counted, exit 1.

The tests run as root here, where a file's mode does not stop reading it: the unreadable files
are ones that open as no regular file does (a pipe, a link to nothing), and "permission denied"
is had from an `os.open` that raises it for that one file (what the reader does with it)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjscore.cli import app

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
EVENING = "players Ann Bob Cid Dee\npaying winner-only\n---\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n"


def season_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "evenings"
    folder.mkdir()
    (folder / "1.mj").write_text(EVENING)
    (folder / "3.mj").write_text(EVENING)
    return folder


def pipe(path: Path) -> None:
    os.mkfifo(path)


def dangling(path: Path) -> None:
    path.symlink_to(path.parent / "gone.mj")


def looping(path: Path) -> None:
    path.symlink_to(path)


def too_large(path: Path) -> None:
    from mjscore.io.text import MAX_INPUT_BYTES

    with open(path, "wb") as f:
        f.write(EVENING.encode())
        f.truncate(MAX_INPUT_BYTES + 1)      # sparse: no 64 MB written


UNREADABLE = [
    (pipe, "2.mj", "is a pipe, not a regular file"),
    # A link in a night's folder is never followed (issue 42), whether it leads anywhere or not.
    (dangling, "2.mj", "a link: a night's evening files are read where they are, never through a link"),
    (looping, "2.yaml", "a link: a night's evening files are read where they are, never through a link"),
    (too_large, "2.mj", "is larger than 67,108,864 bytes, the most that is read"),
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX: pipes and links")
@pytest.mark.parametrize("make,name,why", UNREADABLE, ids=[m.__name__ for m, _, _ in UNREADABLE])
def test_a_file_that_cannot_be_read_is_named_and_the_others_counted(tmp_path, make, name, why):
    folder = season_folder(tmp_path)
    make(folder / name)
    shown = os.path.join(str(folder), name)
    r = runner.invoke(app, ["season", str(folder)], env=WIDE)
    assert r.exit_code == 1
    assert r.stderr == f"{shown}: error: {why}\n"
    assert r.stdout.startswith("Season: 1 night, 2 evenings, 2 hands, 4 players\n")
    assert f"1 evening left out (see the errors): {shown}" in r.stdout
    as_json = runner.invoke(app, ["season", str(folder), "--format", "json"], env=WIDE)
    assert as_json.exit_code == 1
    plain = json.loads(as_json.stdout)
    assert plain["left_out"] == [shown] and [e["file"] for e in plain["errors"]] == [shown]
    assert [e["file"] for e in plain["evenings"]] == [str(folder / "1.mj"), str(folder / "3.mj")]


def test_permission_denied_is_said_in_a_season_as_for_the_file_alone(tmp_path, monkeypatch):
    folder = season_folder(tmp_path)
    locked = folder / "2.mj"
    locked.write_text(EVENING)
    real_open = os.open

    def refusing(path, *args, **kwargs):
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    alone = runner.invoke(app, ["session", str(locked)], env=WIDE)
    assert (alone.exit_code, alone.stderr) == (1, f"{locked}: error: permission denied\n")
    r = runner.invoke(app, ["season", str(folder)], env=WIDE)
    assert r.exit_code == 1
    assert r.stderr == f"{locked}: error: permission denied\n"
    assert r.stdout.startswith("Season: 1 night, 2 evenings, 2 hands, 4 players\n")


@pytest.mark.parametrize("make,why", [
    (lambda p: p.mkdir(), "a sub-folder, whatever its name"),
    (lambda p: p.write_text("scheme: house\nextends: classical\n"), "a file that is no session (a house scheme)"),
])
def test_what_is_no_evening_is_still_passed_over(tmp_path, make, why):
    folder = season_folder(tmp_path)
    make(folder / "2.yaml")
    r = runner.invoke(app, ["season", str(folder)], env=WIDE)
    assert (r.exit_code, r.stderr) == (0, ""), why
    assert r.stdout.startswith("Season: 1 night, 2 evenings, 2 hands, 4 players\n")


# -- a name that is not UTF-8: a real process, as a user's shell runs it -------------------------

def mjscore(*args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "mjscore", *args], capture_output=True, env=env, timeout=120)


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="names there are always Unicode")
@pytest.mark.parametrize("given", ["folder", "file"])
def test_a_file_whose_name_is_not_utf8_is_named_escaped_and_the_others_counted(tmp_path, given):
    folder = season_folder(tmp_path)
    raw = os.path.join(os.fsencode(folder), b"caf\xe9.mj")
    with open(raw, "w") as f:
        f.write(EVENING)
    args = [os.fsencode(folder)] if given == "folder" else [os.fsencode(folder / "1.mj"), raw,
                                                             os.fsencode(folder / "3.mj")]
    r = mjscore("season", *args)
    shown = f"{folder}/caf\\udce9.mj"
    assert r.returncode == 1, r.stderr
    assert r.stderr.decode() == (f"{shown}: error: its name is not UTF-8 text (byte 0xe9): rename the file to "
                                 "count the evening\n")
    out = r.stdout.decode()
    # A folder is a night of its tables (issue 42); files given alone are a night each.
    nights = "1 night, " if given == "folder" else ""
    assert out.startswith(f"Season: {nights}2 evenings, 2 hands, 4 players\n")
    assert f"1 evening left out (see the errors): {shown}" in out
    as_json = mjscore("season", *args, "--format", "json")
    assert as_json.returncode == 1 and "internal error" not in as_json.stderr.decode()
    assert json.loads(as_json.stdout)["left_out"] == [os.fsdecode(raw)]
