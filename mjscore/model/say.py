"""The one door every sentence a player reads goes through: `_()` (and `n_()` for a sentence
that counts), where a translation hooks in.

A sentence is written in English with named places (`_("{payer} pays {payee} {amount}")`), the
places filled after it is translated, so that a language may put them in its own order.  The
catalogues are GNU gettext's, one a language (`mjscore/locale/<lang>/LC_MESSAGES/mjscore.mo`,
made from the `.po` beside it by tools/catalogues.py), read with the standard library's gettext
the first time a language is asked for; English needs none.

Whose language: the process's (`use`: the command line's `--lang`, `MJSCORE_LANG` or the
locale, chosen once at start), or a request's own (`speaking`: each phone at the table its own,
for as long as its request is answered; a context variable, so that two phones' requests answered
at once never speak each other's language).
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import ParamSpec

P = ParamSpec("P")

class Language(StrEnum):
    """The languages mjscore speaks, by their codes (`--lang`, a catalogue's folder, a phone's
    choice); each but English has a catalogue in mjscore/locale (tested both ways)."""

    en = "en"
    de = "de"
    nl = "nl"
    fr = "fr"


# Each language by its own name: what a phone's choice of language shows.
LANGUAGES = {Language.en: "English", Language.de: "Deutsch", Language.nl: "Nederlands", Language.fr: "Français"}
ENGLISH = Language.en.value
# How each language writes a number: its decimal mark and the mark between thousands.  French
# groups with a narrow no-break space (U+202F), as its typography (and CLDR) does.
_NUMBERS = {"en": (".", ","), "de": (",", "."), "nl": (",", "."), "fr": (",", "\u202f")}

LOCALE = Path(__file__).resolve().parent.parent / "locale"
_ENGLISH_CATALOGUE = gettext.NullTranslations()
_process: gettext.NullTranslations = _ENGLISH_CATALOGUE
_request: ContextVar[gettext.NullTranslations | None] = ContextVar("mjscore_language", default=None)


@cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The catalogue of one of `LANGUAGES` (English: none, the sentences as written)."""
    if language not in LANGUAGES or language == ENGLISH:
        return _ENGLISH_CATALOGUE
    try:
        with (LOCALE / language / "LC_MESSAGES" / "mjscore.mo").open("rb") as f:
            return gettext.GNUTranslations(f)
    except OSError:
        # A package built without its catalogues: English rather than no answer at all.
        return _ENGLISH_CATALOGUE


def use(language: str | gettext.NullTranslations | None) -> None:
    """Say every sentence of this process from now on in `language` (a code of `LANGUAGES`, a
    catalogue, or None: English again)."""
    global _process
    if isinstance(language, str):
        language = catalogue(language)
    _process = language if language is not None else _ENGLISH_CATALOGUE


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within the block (and what it starts: a thread given its context), every sentence in `language`."""
    token = _request.set(catalogue(language))
    try:
        yield
    finally:
        _request.reset(token)


def _in_use() -> gettext.NullTranslations:
    return _request.get() or _process


def _(message: str) -> str:
    """`message` in the language in use."""
    # gettext's translation of "" is the catalogue's header: a scheme without a description has none.
    return _in_use().gettext(message) if message else message


def N_(message: str) -> str:
    """`message` as it is, marked as a sentence to translate where it is shown (`_(value)`): for
    what is declared before a language can be chosen (a setting's help, made at import)."""
    return message


def n_(singular: str, plural: str, n: int) -> str:
    """The singular or the plural of a sentence that counts `n`, in the language in use."""
    return _in_use().ngettext(singular, plural, n)


def language() -> str:
    """The language in use, as its catalogue names it (gettext's `Language` header), `en` without one."""
    return _in_use().info().get("language") or ENGLISH


def number(text: str) -> str:
    """A number as the plain form writes it (`"-1,234.50"`, `"29.80"`) as the language in use
    writes it (German `-1.234,50`)."""
    point, thousands = _NUMBERS.get(language(), _NUMBERS[ENGLISH])
    if point == ".":
        return text
    return text.translate({ord("."): point, ord(","): thousands})


def chosen(wanted: Iterable[str]) -> str | None:
    """The first of `wanted` (language tags or locale names, best first: `de-CH`, `fr_FR.UTF-8`,
    `nl`) that mjscore speaks; None if none.  `C` and `POSIX` are English."""
    for tag in wanted:
        primary = tag.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
        if primary in ("c", "posix"):
            return ENGLISH
        if primary in LANGUAGES:
            return primary
    return None


def from_environment(environ: Mapping[str, str]) -> str:
    """The command line's language when no `--lang` is given: `MJSCORE_LANG`, then the locale as
    POSIX orders it (`LC_ALL`, `LC_MESSAGES`, `LANG`: the first that is set decides), else English."""
    for name in ("MJSCORE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return chosen([value]) or ENGLISH
    return ENGLISH


def accepted(header: str) -> list[str]:
    """An `Accept-Language` header's languages, the most wanted first (`q=0` ones left out)."""
    ranked = []
    for i, part in enumerate(header.split(",")[:32]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _eq, value = p.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag.strip()))
    return [tag for _q, _i, tag in sorted(ranked)]


class Later:
    """A sentence said when it is read, not when it is made: a notice made by one phone's request
    is read by every phone, each in its own language.  Its parts (texts, or functions that say
    one) are joined when it is called; `+` puts two together."""

    __slots__ = ("parts",)

    def __init__(self, *parts: str | Callable[[], str]) -> None:
        self.parts = parts

    def __add__(self, other: str | Later) -> Later:
        return Later(*self.parts, other)

    def __radd__(self, other: str) -> Later:
        return Later(other, *self.parts)

    def __call__(self) -> str:
        return "".join(p if isinstance(p, str) else p() for p in self.parts)


def later(say: Callable[P, str]) -> Callable[P, Later]:
    """`say`, its sentence said when it is read (`Later`); its arguments must not change meanwhile."""

    @functools.wraps(say)
    def deferred(*args: P.args, **kwargs: P.kwargs) -> Later:
        return Later(lambda: say(*args, **kwargs))

    return deferred


class Said(Mapping[str, str]):
    """Words by key (marked with N_ where declared), each said in the language in use when it is
    read: a module's table of words made at import, before any language is chosen."""

    def __init__(self, words: Mapping[str, str]) -> None:
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        return _(self._words[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)
