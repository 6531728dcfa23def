"""A night of two tables on one address, in a real browser (issue 42, items 1 and 5): a phone picks
its table, then its name (two taps); each table's phones play their own hands; the Night view adds
the two tables up, and what it shows is what `mjscore session` of each file gives.  Debian's
Chromium through Playwright, on 127.0.0.1; every process has a timeout."""

import json
import re
import subprocess
import sys

import pytest

import mjscore
from tests.test_web_page import (  # noqa: F401  (browser: a fixture)
    CHROMIUM, PHONE, SHOTS, Phone, axe_faults, browser, seen, serving, small_controls)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

TABLES = {"table-1": ("Ann", "Bob", "Cid", "Dee"), "table-2": ("Eve", "Fay", "Gus", "Hal")}


class NightPhone(Phone):
    """A phone of the night: it opens the address, taps its table, then its name."""

    def __init__(self, chromium, table, name, address, size=PHONE, audited=False):
        self.name, self.table, self.taps = name, table, 0
        self.context = chromium.new_context(viewport=size, device_scale_factor=1, bypass_csp=audited, locale="en-US")
        self.requests, self.answers, self.dialogs, self.errors, self.accept = [], [], [], [], True
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(address)
        self.page.locator("#table-names button", has_text=table).click()
        self.taps += 1
        self.page.get_by_role("button", name=name, exact=True).click()
        self.taps += 1
        self.page.wait_for_selector("#mine:not([hidden])")


@pytest.fixture
def night(tmp_path):
    folder = tmp_path / "thursday"
    folder.mkdir()
    for table, players in TABLES.items():
        mjscore.Evening(folder / f"{table}.mj").start(players, stake="0.05 EUR")
    with serving(folder) as served:
        yield served


def session(path):
    return json.loads(subprocess.run([sys.executable, "-m", "mjscore", "session", str(path), "--format", "json"],
                                     capture_output=True, text=True, check=True, timeout=60).stdout)


def play(phones, winner, scores, how="Self-drawn"):
    """One hand at a table: the winner taps how she won and types her score, each other player
    types theirs (or taps Nothing), and the last one settles."""
    for p, score in zip(phones, scores, strict=True):
        if p is winner:
            p.click(how)
        if score:
            p.keys(score)
        else:
            p.click("Nothing")
    for p in phones:
        seen(p, "#lines", f"{winner.name} (", timeout=5000)
    last = phones[-1]
    last.page.wait_for_function("() => !document.getElementById('submit').disabled", timeout=5000)
    last.click("Settle the hand")


@pytest.mark.timeout(300)
def test_a_phone_picks_its_table_then_its_name_and_the_night_view_fits_a_thumb(night, browser, tmp_path):  # noqa: F811 (the fixture)
    address, base, token, folder = night
    shown = browser.new_context(viewport={"width": 320, "height": 640}, device_scale_factor=1, bypass_csp=True)
    page = shown.new_page()
    page.goto(address)
    page.wait_for_selector("#table-names button")
    assert page.locator("#table-names button").all_inner_texts() == [
        "table-1\nAnn, Bob, Cid, Dee", "table-2\nEve, Fay, Gus, Hal"]
    page.screenshot(path=str(SHOTS / "night-tables-320.png"), full_page=True)
    holder = type("P", (), {"page": page})()
    assert axe_faults(holder) == [] and small_controls(holder) == []
    shown.close()
    fay = NightPhone(browser, "table-2", "Fay", address, size={"width": 320, "height": 640}, audited=True)
    assert fay.taps == 2                                     # the table, then the name
    seen(fay, "#who", "Fay · South · table-2")
    fay.tab("Night")
    seen(fay, "#night", "The night's settle-up")
    fay.shot("night-view-320")
    assert axe_faults(fay) == [] and small_controls(fay) == []
    # Another table is a tap away, from "not you?": the table is asked again.
    fay.page.locator("#who").click()
    fay.click("Another table")
    fay.page.wait_for_selector("#pick-table:not([hidden])")
    assert not fay.errors, fay.errors


def figures(text):
    return int(re.match(r"[+-]?\d+", text.strip())[0])


@pytest.mark.timeout(600)
def test_eight_phones_play_two_tables_and_the_night_adds_them_up(night, browser):  # noqa: F811 (the fixture)
    address, base, token, folder = night
    phones = {t: [NightPhone(browser, t, name, address) for name in players] for t, players in TABLES.items()}
    assert all(p.taps == 2 for ps in phones.values() for p in ps)
    one, two = phones["table-1"], phones["table-2"]
    for p in one + two:
        p.taps = 0
    # Table 1: Ann (East) wins 40 self-drawn; table 2: Gus (West) wins 24 from Eve, then Hal draws... both at once.
    play(one, one[0], ["40", "8", "", "16"])
    play(two, two[2], ["12", "", "24", "4"], how="from Eve")
    for p in one:
        seen(p, "#result", "Hand 1:", timeout=5000)
    for p in two:
        seen(p, "#result", "Hand 1:", timeout=5000)
    # A hand at one table never showed at the other: each file holds its own table's hand.
    t1, t2 = session(folder / "table-1.mj"), session(folder / "table-2.mj")
    assert len(t1["hands"]) == 1 and len(t2["hands"]) == 1
    assert set(t1["totals"]) == set(TABLES["table-1"]) and set(t2["totals"]) == set(TABLES["table-2"])
    # The Night view, on a phone of each table, against the two files.
    nets = {n: t["totals"][n] - t["start"] for t in (t1, t2) for n in t["totals"]}
    assert sum(nets.values()) == 0
    for p in (one[1], two[3]):
        p.tab("Night")
        seen(p, "#night", "The night's settle-up", timeout=5000)
        p.shot("night-view-390")
        rows = p.page.locator("#night table").first.locator("tbody tr").all()
        shown = {}
        for r in rows:
            cells = r.locator("td").all_inner_texts()
            shown[cells[0].split(". ", 1)[1]] = figures(cells[1])
        assert shown == nets, (shown, nets)
        # Each table's totals, as its file gives them.
        for k, t in enumerate((t1, t2)):
            table = p.page.locator("#night table").nth(k + 1)
            totals = {c[0].split(". ", 1)[1]: int(c[1]) for c in
                      (r.locator("td").all_inner_texts() for r in table.locator("tbody tr").all())}
            assert totals == t["totals"]
        # The night's settle-up pays each player her night, in at most seven transfers, in money at the stake.
        lines = p.page.locator("#night .pays").all_inner_texts()
        assert 1 <= len(lines) <= 7
        paid = dict.fromkeys(nets, 0)
        for line in lines:
            m = re.fullmatch(r"(\w+) pays (\w+) (\d+) \(EUR (\d+\.\d\d)\)", line)
            assert m, line
            paid[m[1]] -= int(m[3])
            paid[m[2]] += int(m[3])
            assert f"{int(m[3]) * 0.05:.2f}" == m[4]
        assert paid == nets
    assert not [e for ps in phones.values() for p in ps for e in p.errors]
