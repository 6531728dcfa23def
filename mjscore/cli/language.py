"""The command line's first step: its language, from `--lang` (anywhere before `--`), else
`MJSCORE_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English; chosen before the
app is made, because Typer's help is written when the commands are declared.

Typer says some of its words ("Options", "Commands", "Arguments") through gettext's global domain,
as click does: that domain is made mjscore's and its language the one chosen (GNU gettext's
`LANGUAGE`), so those come from mjscore's catalogue too.  Typer 0.28's own copy of click writes its
words as they stand, in English: mjscore.cli.usage says them (the usage line, the help option, a
refused line).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from mjscore.model import say

OPTION = "--lang"


def language_of(argv: list[str], environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """The language the line asks for and the line without `--lang` (left in, for the app to refuse,
    when it names no language mjscore speaks)."""
    rest = [argv[0]] if argv else []
    wanted: str | None = None
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            rest += argv[i:]
            break
        value: str | None = None
        step = 1
        if word == OPTION and i + 1 < len(argv):
            value, step = argv[i + 1], 2
        elif word.startswith(OPTION + "="):
            value = word[len(OPTION) + 1:]
        if value is not None and value in say.LANGUAGES:
            wanted = value
            i += step
            continue
        rest.append(word)
        i += 1
    return wanted or say.from_environment(environ), rest


def use(language: str) -> None:
    """Speak `language` in this process: mjscore's sentences, and click's through gettext's domain."""
    say.use(language)
    if language != say.ENGLISH:
        import gettext

        gettext.bindtextdomain("mjscore", str(say.LOCALE))
        gettext.textdomain("mjscore")
        os.environ["LANGUAGE"] = language


