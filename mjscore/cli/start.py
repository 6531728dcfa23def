"""The command line's first step: its language (mjscore.cli.language), then the app, made in it."""

from __future__ import annotations

import os
import sys


def main() -> None:
    from mjscore.cli.language import language_of, use

    language, sys.argv[:] = language_of(sys.argv, os.environ)
    use(language)
    from mjscore.cli.commands import main as run

    run()
