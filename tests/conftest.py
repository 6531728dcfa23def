import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_hands"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture(autouse=True, scope="session")
def _a_cache_of_the_suites_own(tmp_path_factory):
    """The scheme cache and the evenings' checkpoints of this run, not the user's: the suite
    neither leaves files in ~/.cache nor depends on what is there (a test that wants no cache,
    or a cache of its own, sets MJSCORE_CACHE_DIR itself)."""
    folder = tmp_path_factory.mktemp("cache")
    folder.chmod(0o700)
    before = os.environ.get("MJSCORE_CACHE_DIR")
    os.environ["MJSCORE_CACHE_DIR"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("MJSCORE_CACHE_DIR", None)
    else:
        os.environ["MJSCORE_CACHE_DIR"] = before

@pytest.fixture(autouse=True, scope="session")
def _no_terminal_width():
    """The run's default width: none, as when mjscore writes to a pipe or a file (nothing wrapped,
    each error one line), whatever the shell or pytest-xdist's workers (COLUMNS=80, LINES=24)
    export.  A test whose messages depend on the width says which it assumes: `unwrapped` below,
    or COLUMNS in the environment it runs mjscore with."""
    before = {name: os.environ.pop(name) for name in ("COLUMNS", "LINES") if name in os.environ}
    yield
    os.environ.update(before)


@pytest.fixture(autouse=True, scope="session")
def _english_whatever_the_machine_speaks():
    """The suite's answers in English on a machine whose locale is German (mjscore follows
    LANG): a test of another language says so (`--lang`, or an environment of its own)."""
    before = os.environ.get("MJSCORE_LANG")
    os.environ["MJSCORE_LANG"] = "en"
    yield
    if before is None:
        os.environ.pop("MJSCORE_LANG", None)
    else:
        os.environ["MJSCORE_LANG"] = before


@pytest.fixture(autouse=True)
def _english_again():
    """A test that ran the app in another language (`--lang de` through CliRunner sets it for the
    process, as the installed command does) leaves the next test in English."""
    import gettext

    from mjscore.model import say

    before = os.environ.get("LANGUAGE")
    yield
    say.use(None)
    gettext.textdomain("messages")
    if before is None:
        os.environ.pop("LANGUAGE", None)
    else:
        os.environ["LANGUAGE"] = before


@pytest.fixture
def unwrapped(monkeypatch):
    """The width this test's messages are compared at: none (no $COLUMNS), as in a pipe: each
    error one line, a table as wide as it is."""
    monkeypatch.delenv("COLUMNS", raising=False)


SESSION_SAMPLES = {"evening-session.mj", "evening-session.yaml"}


def table_samples(pattern: str = "*.mj") -> list[Path]:
    """The sample files that hold tables (the evening sessions are played by `mjscore session`)."""
    return sorted(p for p in SAMPLES.glob(pattern) if p.name not in SESSION_SAMPLES)


def house(tmp_path: Path, body: str, base: str = "classical") -> str:
    """A house scheme file over `base` with `body` as its YAML, and the loaded schemes forgotten
    (a house file of the same path is read afresh)."""
    from mjscore.rules import scheme as scheme_module

    f = tmp_path / "house.yaml"
    f.write_text(f"scheme: house\nextends: {base}\n{body}")
    scheme_module._load.cache_clear()
    return str(f)
