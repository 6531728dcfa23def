"""Windows and macOS, as far as a Linux machine can play them: every command that scores, run in
interpreters with the POSIX-only names masked as Windows lacks them (and as macOS has them, with
its start method), prints what it prints unmasked.

The masks are put on by a `sitecustomize` on PYTHONPATH, after the interpreter has started and
before mjscore is imported, in every interpreter, the spawned batch workers included:

- "windows": no O_NOFOLLOW, O_NONBLOCK, O_CLOEXEC, O_NOCTTY; no getuid, geteuid, getgid,
  getegid, getgroups, chown, fchown, lchown, fork, forkpty, register_at_fork; fcntl, resource,
  termios, grp and pwd cannot be imported; "spawn" is the only start method.  filelock is imported
  before fcntl goes (its lock of a descriptor is flock here, LockFileEx on Windows), so mjscore's
  own Windows lock branch runs, on the primitive it has here;
- "macos": every name there, start methods spawn, fork, forkserver, and the platform batch reads
  "darwin" (its sys.platform; the interpreter's own stays, or the standard library would look
  for macOS's files).

What this cannot show is Windows itself (its ACLs, LockFileEx, its paths): the CI workflow
(.github/workflows/ci.yml) is written to run the whole suite on Windows and macOS in the project's
public home, and has not run yet.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mjscore.evening.batch import start_method

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_hands"

BOOT = textwrap.dedent('''
    import os, sys
    _mask = os.environ.get("MJSCORE_PLATFORM_MASK")
    _log = os.environ.get("MJSCORE_PLATFORM_LOG")

    def _note(what):
        if _log:
            with open(_log, "a") as f:
                f.write(what + "\\n")

    if _mask:
        import multiprocessing
        _get_context = multiprocessing.get_context

        def get_context(method=None):
            _note(f"start method {method}")
            return _get_context(method)

        multiprocessing.get_context = get_context
    if _mask == "windows":
        import platformdirs                      # its Linux half reads getuid at import; Windows has its own
        import filelock
        _lock = filelock.lock_descriptor

        def lock_descriptor(fd, **kw):
            _note("filelock")
            return _lock(fd, **kw)

        filelock.lock_descriptor = lock_descriptor
        for _name in ("O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC", "O_NOCTTY", "getuid", "geteuid", "getgid", "getegid",
                      "getgroups", "chown", "fchown", "lchown", "fork", "forkpty", "register_at_fork"):
            if hasattr(os, _name):
                delattr(os, _name)
        for _module in ("fcntl", "resource", "termios", "grp", "pwd"):
            sys.modules[_module] = None          # import fails, as it does on Windows
        multiprocessing.get_all_start_methods = lambda: ["spawn"]
    elif _mask == "macos":
        # sys.platform itself stays: the standard library would look for macOS's own files.
        import types
        import mjscore.evening.batch
        mjscore.evening.batch.sys = types.SimpleNamespace(platform="darwin")
        multiprocessing.get_all_start_methods = lambda: ["spawn", "fork", "forkserver"]
''')

HAND = "E: score 40 win self; S: score 8; W: ...; N: ..."
HAND2 = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."

API = textwrap.dedent('''
    import json, sys
    from pathlib import Path
    from fastapi.testclient import TestClient
    import mjscore.api as api
    from mjscore.web.app import create_app

    out = []
    table = open("win.mj").read()
    out.append(api.score(table).to_dict())
    ev = api.Evening("api.mj")
    ev.start(("Ann", "Bob", "Cid", "Dee"))
    out.append(ev.add(sys.argv[1]).to_dict())
    out.append(ev.add(sys.argv[2]).to_dict())
    out.append(ev.undo().to_dict())
    out.append(api.play_session(Path("api.mj")).to_dict())
    out.append([item.data for item in api.score_many(Path("many.mj"), jobs=2)])
    token = "t" * 32
    client = TestClient(create_app("api.mj", token), base_url="http://127.0.0.1")
    auth = {"Authorization": f"Bearer {token}"}
    r = client.post("/api/hands", json={"text": sys.argv[2], "hand": 2}, headers=auth)
    out.append([r.status_code, r.json()])
    out.append(client.get("/api/evening", headers=auth).json())
    print(json.dumps(out, sort_keys=True, default=str))
''')


@pytest.fixture(scope="module")
def boot(tmp_path_factory):
    d = tmp_path_factory.mktemp("boot")
    (d / "sitecustomize.py").write_text(BOOT)
    return d


def run_all(base, boot, mask):
    """The commands, in a fresh folder of their own with a cache of their own: (what each printed, the log)."""
    work = base / (mask or "linux")
    cache = work / "cache"
    cache.mkdir(parents=True, mode=0o700)
    (work / "win.mj").write_bytes((SAMPLES / "win-on-discard.mj").read_bytes())
    table = (SAMPLES / "win-on-discard.mj").read_text()
    (work / "many.mj").write_text("---\n".join([table] * 130))        # more than a worker's 64
    log = work / "log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(boot), str(ROOT)]), "MJSCORE_CACHE_DIR": str(cache),
           "MJSCORE_PLATFORM_LOG": str(log), "COLUMNS": "100"}
    env.pop("MJSCORE_PLATFORM_MASK", None)
    if mask:
        env["MJSCORE_PLATFORM_MASK"] = mask
    mj = [sys.executable, "-m", "mjscore"]
    script = Path(sys.executable).with_name("mjscore")          # the console script: spawn re-runs it as __mp_main__
    commands = {
        "probe": [sys.executable, "-c", "import os, sys; print(hasattr(os, 'getuid'), hasattr(os, 'O_NOFOLLOW'))"],
        "score": [*mj, "score", "win.mj"],
        "score again (from the cache)": [*mj, "score", "win.mj"],
        "add new": [*mj, "add", "ev.mj", "--players", "Ann", "Bob", "Cid", "Dee", "-e", HAND],
        "add": [*mj, "add", "ev.mj", "-e", HAND2],
        "add again": [*mj, "add", "ev.mj", "-e", HAND],
        "undo": [*mj, "undo", "ev.mj"],
        "session": [*mj, "session", "ev.mj"],
        "session json": [*mj, "session", "ev.mj", "--format", "json"],
        "batch --jobs 2": [*mj, "batch", "many.mj", "--jobs", "2", "--format", "json"],
        "batch --jobs 2, csv": [*mj, "batch", "many.mj", "sample_hands_session.mj", "--jobs", "2", "--format", "csv"],
        "api": [sys.executable, "-c", API, HAND, HAND2],
    }
    (work / "sample_hands_session.mj").write_bytes((SAMPLES / "evening-session.mj").read_bytes())
    if script.exists():
        commands["batch --jobs 2 (console script)"] = [str(script), "batch", "many.mj", "--jobs", "2"]
    printed = {}
    for what, argv in commands.items():
        r = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=240)
        assert r.returncode == 0 and "Traceback" not in r.stderr, (mask, what, r.stdout[-2000:], r.stderr[-4000:])
        printed[what] = r.stdout
    printed["evening file"] = (work / "ev.mj").read_text()
    return printed, log.read_text() if log.exists() else ""


@pytest.fixture(scope="module")
def runs(tmp_path_factory, boot):
    base = tmp_path_factory.mktemp("platforms")
    return {mask: run_all(base, boot, mask) for mask in (None, "windows", "macos")}


def test_the_masks_are_on(runs):
    assert runs[None][0]["probe"] == "True True\n"
    assert runs["windows"][0]["probe"] == "False False\n"
    assert runs["macos"][0]["probe"] == "True True\n"


@pytest.mark.parametrize("mask", ["windows", "macos"])
def test_every_command_prints_what_it_prints_on_linux(runs, mask):
    linux, masked = runs[None][0], runs[mask][0]
    for what in linux:
        if what != "probe":
            assert masked[what] == linux[what], (mask, what)
    api = json.loads(masked["api"])
    assert api[6][0] == 201 and len(api[5]) == 130


def test_windows_locks_through_filelock_and_spawns_its_workers(runs):
    log = runs["windows"][1].splitlines()
    assert "filelock" in log                                      # add, undo, the API's add and post
    assert "start method spawn" in log and "start method fork" not in log


def test_macos_spawns_and_linux_forks(runs):
    assert "start method spawn" in runs["macos"][1].splitlines()
    assert "start method fork" not in runs["macos"][1]
    assert runs[None][1] == ""                                   # no mask, nothing logged: Linux as before


def test_the_start_method_of_each_system():
    assert start_method(["fork", "spawn", "forkserver"], "linux") == "fork"
    assert start_method(["spawn"], "win32") == "spawn"
    assert start_method(["spawn", "fork", "forkserver"], "darwin") == "spawn"


def test_the_cache_folder_on_linux_is_where_it_was(monkeypatch, tmp_path):
    """platformdirs' folder (on Linux ~/.cache/mjscore, computed without importing it), or
    $XDG_CACHE_HOME/mjscore taken as it is."""
    from mjscore.store import cache_folder

    monkeypatch.delenv("MJSCORE_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    import platformdirs

    assert cache_folder.cache_dir() == Path(platformdirs.user_cache_dir("mjscore", appauthor=False))
    if sys.platform.startswith("linux"):
        assert cache_folder.cache_dir() == tmp_path / ".cache" / "mjscore"
    for given in (str(tmp_path / "x"), "relative/folder"):
        monkeypatch.setenv("XDG_CACHE_HOME", given)
        assert cache_folder.cache_dir() == Path(given) / "mjscore"
    monkeypatch.setenv("MJSCORE_CACHE_DIR", "")
    assert cache_folder.cache_dir() is None


def test_the_suite_starts_where_there_is_no_geteuid(boot):
    """Collected under the Windows mask (no geteuid, no fcntl, no resource, no pty), every test
    module loads: the POSIX-only ones skip rather than fail on import."""
    env = {**os.environ, "PYTHONPATH": str(boot), "MJSCORE_PLATFORM_MASK": "windows"}
    env.pop("MJSCORE_PLATFORM_LOG", None)
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.stdout[-3000:], r.stderr[-3000:])
    assert " collected" in r.stdout.splitlines()[-1] and "error" not in r.stdout.splitlines()[-1]
