"""Where the shipped rule data lives: the package `mjscore.schemes` (see `mjscore.store.packaged`)."""

from __future__ import annotations

from pathlib import Path

from mjscore.store.packaged import data_folder
from mjscore.model.errors import Location, SchemeError
from mjscore.model.say import _


def scheme_dir() -> Path:
    """The folder of the shipped schemes."""
    folder = data_folder("mjscore.schemes")
    if folder is None:
        raise SchemeError(_("mjscore's shipped schemes are not installed: install mjscore (pip install .) rather "
                            "than copying its source folder"), Location("mjscore.schemes"))
    return folder


def payoff_file() -> Path:
    return scheme_dir() / "settlement" / "payoffs.yaml"


def shipped_schemes() -> list[str]:
    """The names of the shipped schemes, sorted."""
    return sorted(p.stem for p in scheme_dir().glob("*.yaml"))
