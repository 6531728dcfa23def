"""A phone in the hand (issue 38, item 7): the table page on a 390x844 phone between two hands.

After a settle the next hand's entry is in view without a swipe, the settled hand a tap away;
every view is reached and used by keyboard alone; a poll does not make again the buttons under a
finger; large text wraps rather than cuts; the banner that the table's computer is out of reach
stays at the top.  Driven as tests/test_web_page.py drives the page (its fixtures and helpers);
screenshots go to its folder, SHOTS.
"""

import re

import pytest

import test_web_page
from test_web_page import PHONE, PLAYERS, SHOTS, Phone, axe_faults, seen, serving, small_controls

# The page tests' fixtures (a browser; a new evening, or three hands played, served) and their
# skip where there is no chromium.
browser, served, served_evening = test_web_page.browser, test_web_page.served, test_web_page.served_evening
pytestmark = test_web_page.pytestmark

# Where an element is, on the screen: its top and bottom in CSS px from the top of the viewport.
WHERE = "(el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }"
BAR = "() => document.getElementById('bar').getBoundingClientRect().bottom"


def in_view(phone, selector):
    """The element is whole on the screen, below the bar that stays at the top."""
    top, bottom = phone.page.locator(selector).evaluate(WHERE)
    return top >= phone.page.evaluate(BAR) - 0.5 and bottom <= PHONE["height"] + 0.5


def screen(phone, step):
    """What the player sees without scrolling (Phone.shot takes the whole page)."""
    path = SHOTS / f"{step}-{phone.name}.png"
    phone.page.screenshot(path=str(path))
    return path


def test_after_a_settle_the_keypad_is_in_view_and_the_settled_hand_a_tap_away(served_evening, browser):
    address, *_ = served_evening
    ann = Phone(browser, "Ann", address, audited=True)
    bob, cid, dee = (Phone(browser, name, address) for name in PLAYERS[1:])
    seen(ann, "#result", "Hand 3")
    for p, digits in ((ann, "40"), (bob, "12"), (cid, "8"), (dee, "24")):
        if p is ann:
            p.click("Self-drawn")
        p.keys(digits)
    for p in (ann, bob, cid, dee):
        seen(p, "#lines", "24 counted")
    # Dee scrolls to the foot of the page, to Settle; Bob reads the standings, half-way down them.
    bob.tab("Standings")
    seen(bob, "#standings", "Each player's figures")
    bob.page.evaluate("() => window.scrollTo(0, 600)")
    reading = bob.page.evaluate("() => window.scrollY")
    assert reading == 600
    dee.page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    dee.page.wait_for_function("() => !document.getElementById('submit').disabled", timeout=4000)
    assert not in_view(dee, "#result h2") and in_view(dee, "#submit")
    dee.click("Settle the hand")
    for p in (ann, cid, dee):
        seen(p, "#result", "Hand 4: ")
        seen(p, "#deal", "Hand 5")
    dee.page.wait_for_timeout(300)                       # the scroll back comes with the next frame
    for p in (ann, cid, dee):
        # The whole keypad and the result's title on the screen, nothing swiped.
        assert in_view(p, "#keypad"), (p.name, p.page.locator("#keypad").evaluate(WHERE), SHOTS)
        assert in_view(p, "#result h2"), (p.name, SHOTS)
    screen(dee, "phone-settled")
    # Cid types hand 5's score where he is: the server's ✓ shows on the screen, not below it.
    cid.keys("16")
    seen(cid, "#check", "✓ 16 counted")
    assert in_view(cid, "#check"), (cid.page.locator("#check").evaluate(WHERE), SHOTS)
    # Bob, on another view, was left where he was reading.
    assert bob.page.get_by_role("tab", name="Standings").get_attribute("aria-selected") == "true"
    assert abs(bob.page.evaluate("() => window.scrollY") - reading) < 100, SHOTS
    # The result is its title and who pays whom; the nets and totals, the next deal and the
    # breakdowns are one tap away, and stay open as the hand goes on.
    page = ann.page
    assert page.locator("#result table").is_hidden() and page.locator("#result .whose").first.is_hidden()
    assert len(page.locator("#result .pays").all_inner_texts()) >= 2
    page.locator("#result details.more > summary").click()
    assert page.locator("#result table").is_visible() and page.locator("#result .whose").first.is_visible()
    result = page.locator("#result").inner_text()
    assert "total" in result and "Next: Hand 5" in result and "How each score was made" in result, result
    bob.tab("Table")
    bob.keys("8")                                        # hand 5 goes on: a line from another phone
    seen(ann, "#lines", "8 counted")
    assert page.locator("#result table").is_visible()
    screen(ann, "phone-result-opened")
    assert not axe_faults(ann) and not small_controls(ann), (axe_faults(ann), small_controls(ann))


def test_the_tabs_follow_the_keyboard_and_every_control_is_reached_with_tab(served_evening, browser):
    address, *_ = served_evening
    ann = Phone(browser, "Ann", address)
    page = ann.page
    seen(ann, "#result", "Hand 3")
    focused = "() => document.activeElement && (document.activeElement.id || document.activeElement.tagName)"
    # From the top of the page Tab reaches the tabs once, at the selected tab, then its panel.
    page.reload()
    page.wait_for_selector("#mine:not([hidden])")
    seen(ann, "#result", "Hand 3")
    stops = []
    for _ in range(3):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(focused))
    assert stops == ["who", "tab-table", "panel-table"], stops
    page.keyboard.press("Shift+Tab")
    # Left and Right (round the ends), Home and End move to a tab and open it.
    for press, tab, panel, shows in (("ArrowRight", "hands", "#hands", "Hand 1"),
                                     ("ArrowRight", "standings", "#standings", "Settle-up"),
                                     ("End", "rules", "#rules", "paying"),
                                     ("Home", "table", "#lines", "(E)"),
                                     ("ArrowLeft", "rules", "#rules", "paying"),
                                     ("ArrowRight", "table", "#lines", "(E)")):
        page.keyboard.press(press)
        assert page.evaluate(focused) == f"tab-{tab}", (press, tab)
        assert page.locator(f"#tab-{tab}").get_attribute("aria-selected") == "true"
        panel_of = page.locator(f"#panel-{tab}")
        assert panel_of.is_visible() and panel_of.get_attribute("tabindex") == "0"
        assert page.locator("[role=tab][tabindex='0']").count() == 1
        seen(ann, panel, shows)
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    seen(ann, "#standings", "Settle-up")
    screen(ann, "phone-tabs-by-keyboard")
    # In each view, Tab from the selected tab reaches every control there is to use.
    for tab in ("table", "hands", "standings", "rules"):
        page.locator(f"#tab-{tab}").focus()
        page.keyboard.press("Enter")
        page.wait_for_timeout(200)
        wanted = page.evaluate("""(tab) => {
            const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden";
            const controls = `#panel-${tab} :is(button, input, select, textarea, summary)`;
            window.wanted = [...document.querySelectorAll(controls)].filter((el) => shown(el) && !el.disabled);
            return window.wanted.length; }""", tab)
        if tab == "table":
            assert wanted >= 20, wanted                  # the keypad, I won, the table's buttons, the result's tap
        if tab == "hands":
            assert wanted == 3, wanted                   # a summary a hand
        page.locator(f"#tab-{tab}").focus()
        # Down the view with Tab, and back up it with Shift+Tab (where a control comes in at the top).
        for key in ["Tab"] * (wanted + 3) + ["Shift+Tab"] * (wanted + 2):
            page.keyboard.press(key)
            page.evaluate("""() => {
                window.reached = window.reached || new Set(); window.under = window.under || [];
                const el = document.activeElement;
                window.reached.add(el);
                // Scrolled to, it shows below the bar that stays at the top, not under it.
                const top = el.getBoundingClientRect().top;
                const bar = document.getElementById('bar').getBoundingClientRect().bottom;
                if (window.wanted.includes(el) && top < bar - 1) {
                    window.under.push(el.id || el.textContent.trim().slice(0, 20));
                }
            }""")
        missed = page.evaluate("""() => window.wanted.filter((el) => !window.reached.has(el))
                                        .map((el) => el.id || el.textContent.trim().slice(0, 20))""")
        assert not missed, (tab, missed)
        assert not page.evaluate("() => window.under"), (tab, page.evaluate("() => window.under"))
        page.evaluate("() => { window.reached = new Set(); window.under = []; }")


def test_a_poll_leaves_the_palette_the_hand_and_the_buttons_under_the_finger(served, browser):
    address, base, token, evening = served
    ann, bob = Phone(browser, "Ann", address), Phone(browser, "Bob", address)
    page = ann.page
    ann.click("Self-drawn")
    ann.click("Count my tiles instead")
    ann.tiles("1p", "2p", "3p", "E", "E")
    page.locator("#hand > .tile").nth(4).click()          # a tile selected: it stays selected too
    bob.click("Penalty…")
    bob.page.select_option("#pen-payer", "Cid")
    bob.page.fill("#pen-amount", "10")
    bob.page.click("#pen-add")
    seen(ann, "#penalties", "Penalty: Cid pays 10")
    kept = """() => ({ palette: [...document.querySelectorAll('#palette .tile')],
                       hand: [...document.querySelectorAll('#hand .tile')],
                       won: [...document.querySelectorAll('#won-how button')],
                       flags: [...document.querySelectorAll('#flags button')],
                       lines: [...document.querySelectorAll('#lines li')],
                       penalties: [...document.querySelectorAll('#penalties button')] })"""
    page.evaluate(f"() => {{ window.kept = ({kept})(); }}")
    counts = page.evaluate("() => Object.fromEntries(Object.entries(window.kept).map(([k, v]) => [k, v.length]))")
    assert counts == {"palette": 42, "hand": 5, "won": 4, "flags": 7, "lines": 4, "penalties": 1}, counts
    same = f"""() => {{
        const now = ({kept})();
        return Object.fromEntries(Object.keys(window.kept).map((k) =>
            [k, now[k].length === window.kept[k].length && now[k].every((el, i) => el === window.kept[k][i])]));
    }}"""
    # Another phone's changes, each a new status for Ann's page: a line, the line changed ...
    bob.keys("8")
    seen(ann, "#lines", "8 counted")
    bob.keys("0")
    seen(ann, "#lines", "80 counted")
    assert all(page.evaluate(same).values()), page.evaluate(same)
    # ... and a penalty: its list is made again, nothing else.
    bob.click("Penalty…")
    bob.page.select_option("#pen-payer", "Dee")
    bob.page.fill("#pen-amount", "20")
    bob.page.click("#pen-add")
    seen(ann, "#penalties", "Penalty: Dee pays 20")
    kept_now = page.evaluate(same)
    assert not kept_now.pop("penalties") and all(kept_now.values()), kept_now
    assert page.locator("#hand > .tile").nth(4).get_attribute("aria-pressed") == "true"
    assert page.get_by_role("button", name="Self-drawn", exact=True).get_attribute("aria-pressed") == "true"
    # And what is tapped now is what was there: the selected tile made the winning tile.
    ann.click("Winning tile")
    assert "won" in page.locator("#hand > .tile").nth(4).get_attribute("class")
    assert page.evaluate("() => document.querySelectorAll('#hand .tile')[4] === window.kept.hand[4]")


def overflowing(phone, selector):
    """Every element within the selector, as drawn, whose content runs past its box (one visually
    hidden for screen readers, a table's header row laid out as lines, is not drawn)."""
    return phone.page.evaluate("""(sel) => {
        const drawn = (el) => {
            for (let a = el; a; a = a.parentElement) if (a.getBoundingClientRect().width <= 1) return false;
            return el.getClientRects().length > 0; };
        return [...document.querySelectorAll(`${sel}, ${sel} *`)]
            .filter((el) => el instanceof HTMLElement && drawn(el) && el.scrollWidth > el.clientWidth + 1)
            .map((el) => `${el.tagName}.${el.className} ${el.scrollWidth}>${el.clientWidth}: `
                         + el.textContent.slice(0, 30));
    }""", selector)


def chart_words_cut_or_run_together(phone):
    """The chart's words outside its box, or over one another."""
    return phone.page.evaluate("""() => {
        const box = document.querySelector('#standings svg.chart').getBoundingClientRect();
        const words = [...document.querySelectorAll('#standings svg.chart text')]
            .map((t) => [t.textContent, t.getBoundingClientRect()]);
        const out = words.filter(([, r]) => r.left < box.left - .5 || r.right > box.right + .5 || r.top < box.top - .5
                                          || r.bottom > box.bottom + .5).map(([w]) => `${w} cut`);
        words.forEach(([a, r], i) => words.slice(i + 1).forEach(([b, s]) => {
            const apart = r.left >= s.right - 1 || s.left >= r.right - 1
                          || r.top >= s.bottom - 1 || s.top >= r.bottom - 1;
            if (!apart) out.push(`${a} over ${b}`); }));
        return out;
    }""")


@pytest.mark.parametrize("size", ["150%", "200%"])
def test_at_large_text_the_money_wraps_and_nothing_is_cut(tmp_path, browser, size):
    evening = tmp_path / "ev.mj"
    evening.write_text("players Ann Bob Cid Dee\nstake 0.05 EUR\n---\n"
                       "E: score 40 win self\nS: score 8\nW: ...\nN: ...\n---\n"
                       "dealer-wins 1\nE: score 142 win from Cid\nS: score 8\nW: ...\nN: ...\n")
    with serving(evening) as (address, *_):
        bob = Phone(browser, "Bob", address)
        page = bob.page
        seen(bob, "#result", "Hand 2")
        # The phone's text size, as a player sets it: the page is drawn at it.
        page.evaluate(f"() => {{ document.documentElement.style.fontSize = '{size}'; }}")
        bob.tab("Standings")
        seen(bob, "#standings", "Each player's figures")
        text = page.locator("#standings").inner_text()
        assert "(EUR +" in text and "(EUR -" in text, text
        assert not overflowing(bob, "#standings"), (size, overflowing(bob, "#standings"), SHOTS)
        assert not chart_words_cut_or_run_together(bob), (size, chart_words_cut_or_run_together(bob))
        # The money, in the standings and the settle-up, never broken inside its brackets.
        money = page.locator("#standings .together")
        assert money.count() >= 7
        assert all(n == 1 for n in money.evaluate_all("(els) => els.map((el) => el.getClientRects().length)"))
        assert all(re.fullmatch(r"\w+ pays \w+ \d+ \(EUR \d+\.\d\d\)", p)
                   for p in page.locator("#standings .pays").all_text_contents())
        bob.shot(f"phone-standings-{size}")
        faults = {"standings": small_controls(bob)}
        for view in ("Hands", "Rules", "Table"):
            bob.tab(view)
            page.wait_for_timeout(300)
            faults[view] = small_controls(bob) + overflowing(bob, f"#panel-{view.lower()}")
        page.locator("#result details.more > summary").click()
        faults["result"] = small_controls(bob) + overflowing(bob, "main")
        bob.shot(f"phone-table-{size}")
        assert not any(faults.values()), (size, faults, SHOTS)


def test_the_banner_that_the_table_is_out_of_reach_stays_at_the_top(served, browser):
    address, *_ = served
    ann = Phone(browser, "Ann", address)
    page = ann.page
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("() => window.scrollY") > 100
    ann.context.set_offline(True)                         # the phone's Wi-Fi gone: the waiting request ends too
    page.wait_for_selector("#offline:not([hidden])", timeout=8000)
    assert page.locator("#offline").get_attribute("role") == "alert"
    for scrolled in ("bottom", "top"):
        if scrolled == "top":
            page.evaluate("() => window.scrollTo(0, 0)")
        top, bottom = page.locator("#offline").evaluate(WHERE)
        # In the bar, and not a third of the screen.
        assert top >= 0 and bottom <= page.evaluate(BAR) + 0.5 and bottom < PHONE["height"] / 3, (scrolled, top, bottom)
        # The deal stays readable above it: the banner covers nothing, it makes the bar taller.
        deal_top, deal_bottom = page.locator("#deal").evaluate(WHERE)
        assert deal_top >= 0 and deal_bottom <= top + 0.5, (deal_top, deal_bottom, top)
        if scrolled == "bottom":
            screen(ann, "phone-offline")
    ann.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=12000)
