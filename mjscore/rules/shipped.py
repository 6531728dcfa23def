"""Where the shipped rule data lives: the package `mjscore.schemes`.

In the repository the scheme files sit in the top-level `schemes/` folder; the build installs
that folder as the package `mjscore.schemes` (see pyproject.toml), so an installed mjscore, an
editable install and a wheel all find them the same way, through the import system, wherever
the command is run from.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def scheme_dir() -> Path:
    root = files("mjscore.schemes")
    # mjscore is installed as files on disk (never zipped): the resource root is a real folder,
    # which the scheme loader needs to resolve `extends:` and to key its cache.
    return Path(str(root))


def payoff_file() -> Path:
    return scheme_dir() / "settlement" / "payoffs.yaml"


def shipped_schemes() -> list[str]:
    """The names of the shipped schemes, sorted."""
    return sorted(p.stem for p in scheme_dir().glob("*.yaml"))
