"""The one door every sentence a player reads goes through: `_()` (and `n_()` for a sentence
that counts), where a translation hooks in.

A sentence is written in English with named places (`_("{payer} pays {payee} {amount}")`), the
places filled after it is translated, so that a language may put them in its own order.  With no
translation installed (`use`), `_()` gives the English back: the command line and the page say
the same words, and nothing is read from disk.  The catalogues themselves (gettext's `.mo`) are
another matter: `use` takes any `gettext.NullTranslations`.
"""

from __future__ import annotations

import gettext

_catalogue: gettext.NullTranslations = gettext.NullTranslations()


def use(catalogue: gettext.NullTranslations | None) -> None:
    """Say every sentence from now on through `catalogue` (None: in English again)."""
    global _catalogue
    _catalogue = catalogue if catalogue is not None else gettext.NullTranslations()


def _(message: str) -> str:
    """`message` in the language in use."""
    return _catalogue.gettext(message)


def N_(message: str) -> str:
    """`message` as it is, marked as a sentence to translate where it is shown (`_(value)`): for
    what is declared before a language can be chosen (a setting's help, made at import)."""
    return message


def n_(singular: str, plural: str, n: int) -> str:
    """The singular or the plural of a sentence that counts `n`, in the language in use."""
    return _catalogue.ngettext(singular, plural, n)


def language() -> str:
    """The language in use, as its catalogue names it (gettext's `Language` header), `en` without one."""
    return _catalogue.info().get("language") or "en"
