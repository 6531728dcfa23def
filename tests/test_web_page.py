"""The table page in a real browser: `mjscore serve` on 127.0.0.1, Debian's Chromium driven by
Playwright at a phone's size, four players in four browser contexts at once.

Chromium is installed by `.ci/run`; where it is missing (a developer's machine) these tests skip,
unless MJSCORE_REQUIRE_BROWSER is set (as CI sets it), when they fail.  Screenshots of every step
go to a temporary folder, which a failing assertion names.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("MJSCORE_REQUIRE_BROWSER"):
    raise RuntimeError("MJSCORE_REQUIRE_BROWSER is set, but there is no chromium on PATH")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
PHONE = {"width": 390, "height": 844}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions"]
SHOTS = Path(tempfile.mkdtemp(prefix="mjscore-page-"))


@pytest.fixture
def served(tmp_path):
    """`mjscore serve` on a free port of 127.0.0.1: (address with token, base, token, evening)."""
    evening = tmp_path / "ev.mj"
    proc = subprocess.Popen([sys.executable, "-m", "mjscore", "serve", str(evening), "--players", *PLAYERS,
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.match(r"Open (http://127\.0\.0\.1:\d+)/\?token=([\w-]+)", line)
    assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
    yield f"{m[1]}/?token={m[2]}", m[1], m[2], evening
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Stopped." in out and "Traceback" not in err, (out, err)


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Phone:
    """One player's phone: a browser context of its own, every request it makes written down."""

    def __init__(self, browser, name, address):
        self.name = name
        self.context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        self.requests = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("dialog", lambda d: d.accept())
        self.page.goto(address)
        self.page.get_by_role("button", name=name, exact=True).click()
        self.page.wait_for_selector("#mine:not([hidden])")

    def shot(self, step):
        path = SHOTS / f"{step}-{self.name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def click(self, name, within=None):
        (self.page.locator(within) if within else self.page).get_by_role("button", name=name, exact=True).click()

    def tab(self, name):
        self.page.get_by_role("tab", name=name, exact=True).click()

    def tiles(self, *names):
        for n in names:
            self.click(n, "#palette")


def seen(phone, selector, text, timeout=2500):
    """The text shows in the element on this phone within two seconds or so (no reload)."""
    try:
        phone.page.wait_for_function(
            "([s, t]) => document.querySelector(s) && document.querySelector(s).innerText.includes(t)",
            arg=[selector, text], timeout=timeout)
    except Exception:
        raise AssertionError(f"{phone.name} did not see {text!r} in {selector}; screenshots in {SHOTS}") from None


def test_four_players_enter_a_hand_together_and_all_see_the_payments(served, browser):
    address, base, token, evening = served
    phones = [Phone(browser, name, address) for name in PLAYERS]
    ann, bob, cid, dee = phones
    for p in phones:
        p.shot("1-picked")
    # Ann (East) counts her tiles; the others give their scores, all at once.
    ann.click("I won")
    ann.click("Self-drawn")
    ann.click("Count my tiles instead")
    ann.tiles("1 dots", "1 dots", "1 dots")
    for n in range(3):
        ann.page.locator("#hand > .tile").nth(n).click()
    ann.click("Exposed set")                                     # [111p], a pung she claimed
    ann.tiles("2 bamboo", "2 bamboo", "2 bamboo", "3 characters", "3 characters", "3 characters", "east wind",
              "east wind", "east wind", "9 bamboo", "9 bamboo")
    ann.page.locator("#hand > .tile").last.click()               # the second 9 bamboo: the tile she went out on
    ann.click("Winning tile")
    bob.click("I lost")
    bob.page.fill("#score", "8")
    cid.click("I lost")
    cid.click("Scored nothing")
    dee.click("I lost")
    dee.page.fill("#score", "16")
    for p in phones:
        seen(p, "#lines", "Ann (E)")
    seen(ann, "#check", "✓")
    seen(ann, "#lines", "352")
    for p in phones:
        p.shot("2-entered")
    seen(cid, "#lines", "score 16")
    cid.page.wait_for_function("() => !document.getElementById('submit').disabled", timeout=2500)
    cid.click("Settle the hand")
    for p in phones:
        seen(p, "#result", "Bob pays Ann")
        p.shot("3-settled")
    # What the page showed is what the command line shows of the evening.
    shown = ann.page.locator("#result .pays").all_inner_texts()
    from mjscore.cli.render import payment_lines

    played = json.loads(subprocess.run([sys.executable, "-m", "mjscore", "session", str(evening), "--format", "json"],
                                       capture_output=True, text=True, check=True).stdout)
    assert shown == payment_lines(played["hands"][0]), SHOTS
    for name, total in played["hands"][0]["totals"].items():
        assert str(total) in ann.page.locator("#result").inner_text()
    # The standings are a tap away.
    bob.tab("Standings")
    seen(bob, "#standings", "Settle-up")
    bob.shot("4-standings")
    assert all(r.startswith(base + "/") for p in phones for r in p.requests), [r for p in phones for r in p.requests]


def test_a_wrong_tile_is_shown_at_its_tile_and_fixed_in_place(served, browser):
    address, *_ = served
    bob = Phone(browser, "Bob", address)
    bob.click("I lost")
    bob.click("Count my tiles instead")
    bob.tiles("5 dots", "5 dots", "5 dots", "5 dots", "5 dots", "1 characters", "2 characters", "3 characters",
              "7 bamboo", "7 bamboo", "7 bamboo", "north wind", "north wind")
    seen(bob, "#check", "five 5p")
    fifth = bob.page.locator("#hand > .tile").nth(4)
    assert "err" in (fifth.get_attribute("class") or ""), SHOTS
    bob.shot("wrong-tile")
    fifth.click()
    bob.click("Remove")
    bob.tiles("north wind")                                       # the tile he meant
    seen(bob, "#check", "✓")
    assert bob.page.locator("#hand .err").count() == 0
    bob.shot("fixed-tile")


def test_a_draw_and_undo_reach_every_phone(served, browser):
    address, base, token, evening = served
    ann, dee = Phone(browser, "Ann", address), Phone(browser, "Dee", address)
    ann.click("Draw")
    for p in (ann, dee):
        seen(p, "#result", "a draw")
    seen(dee, "#deal", "Hand 2")
    dee.tab("This hand")
    dee.click("Undo last hand")
    for p in (ann, dee):
        seen(p, "#deal", "Hand 1")
    assert "draw" not in evening.read_text().split("---", 1)[1]


def test_a_request_without_the_token_is_refused(served):
    address, base, token, evening = served
    for path in ("/", "/api/evening", "/openapi.json"):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(base + path, timeout=5)
        assert e.value.code == 401
    with urllib.request.urlopen(urllib.request.Request(base + "/api/status",
                                                       headers={"Authorization": f"Bearer {token}"}), timeout=5) as r:
        assert r.status == 200
