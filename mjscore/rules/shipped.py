"""Where the shipped rule data lives: the package `mjscore.schemes`.

In the repository the scheme files sit in the top-level `schemes/` folder; the build installs
that folder as the package `mjscore.schemes` (see pyproject.toml), so a wheel, `pip install .`,
pipx and an editable install all find them the same way, through the import system, wherever
the command is run from, never relative to the source tree.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from pathlib import Path

from mjscore.model.errors import Location, SchemeError


@cache
def scheme_dir() -> Path:
    """The folder of the package `mjscore.schemes`: what `importlib.resources.files()` answers
    for a package installed as files, read from the import system's spec of the package
    (importing importlib.resources would add 3 ms to every start)."""
    spec = find_spec("mjscore.schemes")
    if spec is None or not spec.submodule_search_locations:
        # A source tree put on sys.path by hand, never installed: the schemes are not a package.
        raise SchemeError("mjscore's shipped schemes are not installed: install mjscore (pip install .) "
                          "rather than running it from its source folder", Location("mjscore.schemes"))
    return Path(next(iter(spec.submodule_search_locations)))


def payoff_file() -> Path:
    return scheme_dir() / "settlement" / "payoffs.yaml"


def shipped_schemes() -> list[str]:
    """The names of the shipped schemes, sorted."""
    return sorted(p.stem for p in scheme_dir().glob("*.yaml"))
