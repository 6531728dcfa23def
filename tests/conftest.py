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
