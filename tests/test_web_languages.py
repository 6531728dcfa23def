"""Four phones at one table, four languages (issue 41): each phone reads the page in its browser's
language or the one it chose; every view, at 390 and 320 px, holds no English sentence, fits, and
passes axe-core; the choice is kept across a reload; what the phones send is the same notation.

A real browser (Debian's Chromium, as tests/test_web_page.py); screenshots of each view in each
language go to that module's folder.
"""

import pytest

from tests.test_languages import english_in
from tests.test_web_page import (  # noqa: F401  (browser: a fixture)
    CHROMIUM,
    PHONE,
    SHOTS,
    Phone,
    axe_faults,
    browser,
    seen,
    serving,
    small_controls,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

# Three hands, the first with a penalty, under a stake: what every view shows.
PLAYED = ("players Ann Bob Cid Dee\nstake 0.05 EUR\n---\npenalty Dee 100\nE: score 40 win self\nS: score 8\n"
          "W: ...\nN: ...\n---\ndealer-wins 1\nE: [111p] 222s 333m EEE 99s win 9s self\nS: score 12\nW: ...\n"
          "N: ...\n---\ndraw\n")
PHONES = {"Ann": "en-GB", "Bob": "de-DE", "Cid": "nl-NL", "Dee": "fr-FR"}
HEADINGS = {"en": "Who are you?", "de": None, "nl": None, "fr": None}     # filled from the catalogues
TABS = ("Hands", "Standings", "Rules")


def _tab_names(lang):
    from mjscore.model import say

    with say.speaking(lang):
        return {t: say._(t) for t in ("Table", *TABS)}


def views_in(phone, lang, size, step):
    """Each view of the phone's page: no English sentence, nothing too small or past the edge;
    a screenshot each."""
    names = _tab_names(lang)
    found = {}
    page = phone.page
    for view in ("Table", *TABS):
        phone.tab(names[view])
        page.wait_for_timeout(400)
        if view == "Hands":
            page.locator("#hands details[data-hand='2'] > summary").click()
            page.locator("#hands details[data-hand='2'] details.breakdown > summary").click()
        text = page.evaluate("() => document.body.innerText")
        found[view] = (english_in(text, lang) if lang != "en" else []) + small_controls(phone)
        phone.shot(f"lang-{lang}-{size}-{step}-{view.lower()}")
    return found


@pytest.mark.parametrize("size", [PHONE, {"width": 320, "height": 640}], ids=["390", "320"])
def test_four_phones_read_four_languages_at_one_table(tmp_path, browser, size):  # noqa: F811 (the fixture)
    from mjscore.model import say

    evening = tmp_path / "ev.mj"
    evening.write_text(PLAYED)
    with serving(evening) as (address, base, token, _):
        phones = {name: Phone(browser, name, address, size=size, locale=locale, audited=True)
                  for name, locale in PHONES.items()}
        faults = {}
        for name, phone in phones.items():
            lang = PHONES[name][:2]
            assert phone.page.evaluate("() => document.documentElement.lang") == lang
            with say.speaking(lang):
                your_hand = say._("Your hand")
            seen(phone, "#mine-title", your_hand.split(" ")[0])
            shown = views_in(phone, lang, size["width"], "views")
            faults.update({f"{name}-{view}": found for view, found in shown.items()})
            faults[f"{name}-axe"] = axe_faults(phone)
            assert not phone.errors, phone.errors
        assert not any(faults.values()), ({k: v for k, v in faults.items() if v}, SHOTS)
        # The English phone chooses German at the foot of its page: the page comes again in
        # German, and stays so when it is opened again.
        ann = phones["Ann"]
        ann.page.select_option("#lang", "de")
        ann.page.wait_for_function("() => document.documentElement.lang === 'de'")
        ann.page.reload()
        ann.page.wait_for_function("() => document.documentElement.lang === 'de'")
        assert english_in(ann.page.evaluate("() => document.body.innerText"), "de") == []
        for phone in phones.values():
            phone.context.close()
