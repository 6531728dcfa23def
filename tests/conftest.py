from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_hands"


@pytest.fixture
def root() -> Path:
    return ROOT

SESSION_SAMPLES = {"evening-session.mj", "evening-session.yaml"}


def table_samples(pattern: str = "*.mj") -> list[Path]:
    """The sample files that hold tables (the evening sessions are played by `mjscore session`)."""
    return sorted(p for p in SAMPLES.glob(pattern) if p.name not in SESSION_SAMPLES)
