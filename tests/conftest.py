from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_hands"


@pytest.fixture
def root() -> Path:
    return ROOT
