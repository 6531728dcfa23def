"""`session --format html` and `season --format html`: one page to print, asking for nothing.

The page is checked as text (well formed, no address it would fetch, a hostile name escaped, every
section there), then in Chromium (skipped without it, unless MJSCORE_REQUIRE_BROWSER is set): opened
with every request cut, laid out on a 390x844 phone, printed to A4 PDF and its pages counted and read.
"""

import html.parser
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from mjscore.cli.html import season_html, session_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None and os.environ.get("MJSCORE_REQUIRE_BROWSER"):
    raise RuntimeError("MJSCORE_REQUIRE_BROWSER is set, but there is no chromium on PATH")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions"]
HOSTILE = "<script>alert(1)</script>&amp;"


def mjscore(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mjscore", *args], capture_output=True, text=True, timeout=60,
                          cwd=cwd)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The 20-hand example evening as a page, a season of it three times (one copy under a hostile
    file name) as a page, and the evening with a stake."""
    where = tmp_path_factory.mktemp("pages")
    evening = mjscore("example", "evening-session").stdout
    hostile = "<img src=x onerror=alert(1)>.mj"
    for name in ("one.mj", "two.mj", hostile):
        (where / name).write_text(evening)
    made = {"evening": mjscore("session", "one.mj", "--format", "html", cwd=where),
            "stake": mjscore("session", "one.mj", "--format", "html", "--stake", "0.05 EUR", cwd=where),
            "season": mjscore("season", "one.mj", "two.mj", hostile, "--format", "html", cwd=where)}
    for name, done in made.items():
        assert done.returncode == 0, done.stderr
        (where / f"{name}.html").write_text(done.stdout)
    return where


class Page(html.parser.HTMLParser):
    """The page read as a browser's parser reads it: every element opened is closed, in order."""

    VOID = {"meta", "br", "img", "link", "input", "hr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.tags, self.attrs, self.text = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, k, v or "") for k, v in attrs)
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, k, v or "") for k, v in attrs)

    def handle_endtag(self, tag):
        assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)


def read(text):
    page = Page()
    page.feed(text)
    page.close()
    assert page.open == [], page.open
    return page


@pytest.mark.parametrize("name", ["evening", "stake", "season"])
def test_the_page_is_well_formed_and_fetches_nothing(pages, name):
    text = (pages / f"{name}.html").read_text()
    page = read(text)
    assert text.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    assert page.tags.count("style") == 1 and "script" not in page.tags
    assert not {"img", "link", "iframe", "object", "embed", "base"} & set(page.tags)
    for tag, key, value in page.attrs:
        assert key not in ("src", "href", "srcset", "action", "formaction", "poster"), (tag, key, value)
    assert ("meta", "content", "default-src 'none'; style-src 'unsafe-inline'; img-src data:") in page.attrs
    assert ("meta", "content", "width=device-width, initial-scale=1") in page.attrs
    style = text[text.index("<style>"):text.index("</style>")]
    assert "@import" not in style
    assert all(u.startswith("data:") for u in re.findall(r"url\(\s*['\"]?([^)'\"]*)", style))
    assert "@page { size: A4" in style and "break-inside: avoid" in style and "table-header-group" in style
    # No address a browser would ask for anywhere: the SVG's namespace is a name, never fetched.
    assert re.findall(r"https?://[^\s\"'<>]+", text) == ["http://www.w3.org/2000/svg"]


def test_the_evening_page_has_its_hands_totals_settle_up_and_chart(pages):
    text = (pages / "evening.html").read_text()
    page = read(text)
    words = " ".join(page.text)
    sections = re.findall(r'<section class="page">(.*?)</section>', text, re.S)
    assert len(sections) == 3
    assert "<h2>Hands</h2>" in sections[0] and sections[0].count("<tr>") == 21      # a head and 20 hands
    assert "E 120 +720 = 2720" in sections[0] and "Ann (E) wins self-drawn" in sections[0]
    assert "<h2>Final standings</h2>" in sections[1] and "Bob pays Ann 816" in sections[1]
    assert "Settle-up (3 transfers)" in words
    assert "<svg" in sections[2] and sections[2].count('class="player"') == 4
    assert "Next: Hand 21: Cid deals, North round" in words


def test_with_a_stake_the_page_shows_money_as_the_terminal_does(pages):
    text = (pages / "stake.html").read_text()
    assert "+898 (EUR +44.90)" in text and "Bob pays Ann 816 (EUR 40.80)" in text


def test_the_season_page_has_its_standings_evening_by_evening_and_chart(pages):
    text = (pages / "season.html").read_text()
    sections = re.findall(r'<section class="page">(.*?)</section>', text, re.S)
    assert len(sections) == 3
    assert "<h2>Standings</h2>" in sections[0] and "+2694" in sections[0]           # Ann: 3 x 898
    assert "<h2>Evening by evening</h2>" in sections[1]
    assert re.search(r"<td>Ann</td>(<td class=\"n\">\+898</td>){3}<td class=\"n\">\+2694</td>", sections[1])
    assert "<svg" in sections[2]


def test_a_hostile_file_name_comes_out_as_text(pages):
    text = (pages / "season.html").read_text()
    page = read(text)
    assert "img" not in page.tags and "<img" not in text and "&lt;img src=x onerror=alert(1)&gt;.mj" in text
    assert "<img src=x onerror=alert(1)>.mj: 20" in page.text


@pytest.mark.parametrize("make", [session_html, season_html])
def test_a_hostile_name_in_the_plain_form_comes_out_as_text(pages, make):
    """The evening file refuses such a name; the page does not count on it."""
    args = ["session", "one.mj"] if make is session_html else ["season", "one.mj", "two.mj"]
    plain = mjscore(*args, "--format", "json", cwd=pages).stdout.replace('"Dee"', json.dumps(HOSTILE))
    text = make(json.loads(plain))
    page = read(text)
    assert "script" not in page.tags and "<script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;" in text
    assert HOSTILE in "".join(page.text)


@pytest.mark.parametrize("players", [4, 5, 8])
def test_each_player_of_the_chart_has_her_own_colour_dash_marker_and_label(players):
    names = [f"P{i}" for i in range(players)]
    plain = {"evenings": [{"file": "a.mj", "hands": 1, "won_or_lost": {n: (i - 3) * 100 for i, n in enumerate(names)}}],
             "hands": 1, "standings": [{"place": i + 1, "name": n, "evenings": 1, "hands": 1, "won_or_lost": 0,
                                        "per_evening": 0.0, "per_hand": 0.0} for i, n in enumerate(names)],
             "players": [{"name": n, "evenings": 1, "hands": 1, "won_or_lost": 0, "hands_won": 0, "won_self_drawn": 0,
                          "won_on_discard": 0, "dealt": 0, "draws": 0, "biggest_hand": None, "limit_hands": {},
                          "penalties_paid": 0, "penalties_received": 0, "paid_for_all": 0} for n in names],
             "left_out": [], "errors": []}
    text = season_html(plain)
    groups = re.findall(r'<g class="player" data-player="\d+">(.*?)</g>', text, re.S)
    assert len(groups) == players
    looks = set()
    for name, group in zip(names, groups, strict=True):
        colour = re.search(r'<polyline [^>]*stroke="([^"]+)"', group)[1]
        dash = re.search(r'<polyline [^>]*?(?:stroke-dasharray="([^"]+)")?>', group)[1]
        # The marker beside her name, its figures taken out: its shape, and whether it is filled.
        marker = re.sub(r"-?[\d.]+", "", re.findall(r"<(?:circle|rect|path|polygon) [^>]*>", group)[-1])
        assert re.search(rf">{name}</text>", group)
        looks.add((colour, dash, marker))
    assert len({c for c, _, _ in looks}) == players and len({d for _, d, _ in looks}) == players
    assert len({m for _, _, m in looks}) == players


def test_a_further_part_of_the_season_is_shown_as_it_comes():
    """A part this page does not know by name (a night-by-night table, money) is laid out as found."""
    plain = {"evenings": [], "hands": 0, "standings": [], "players": [], "left_out": [], "errors": []}
    assert "No hands counted." in season_html(plain)
    from mjscore.cli.html import _further

    part = _further("nights", [{"night": "2026-12-03", "won_or_lost": {"Ann": 12}}])
    assert "<h2>Nights</h2>" in part and "<td>Ann 12</td>" in part and "<th>won or lost</th>" in part


def test_html_goes_neither_with_hand_nor_chart(pages):
    for extra in (["--hand", "2"], ["--chart"]):
        done = mjscore("session", "one.mj", "--format", "html", *extra, cwd=pages)
        assert done.returncode == 2 and done.stdout == ""


# -- in Chromium -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def opened(browser, path, **context):
    """The page opened from its file with every request routed: the file itself let through, any
    other request written down and cut."""
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    asked = []

    def route(r):
        asked.append(r.request.url)
        if r.request.url == path.as_uri():
            r.continue_()
        else:
            r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return ctx, page, asked


PAGES = {"evening": 3, "stake": 3, "season": 3}   # one page a section: each fits its A4 page


@needs_browser
@pytest.mark.parametrize("name", sorted(PAGES))
def test_in_chromium_the_page_asks_for_nothing_fits_a_phone_and_prints_its_pages(pages, browser, name):
    path = pages / f"{name}.html"
    ctx, page, asked = opened(browser, path, viewport={"width": 390, "height": 844})
    try:
        assert asked == [path.as_uri()]
        # Nothing wider than the phone but inside a box of its own that scrolls.
        wider = page.evaluate("""() => {
            const out = [];
            for (const el of document.body.querySelectorAll('*')) {
                if (el.closest('.scroll')) continue;
                const r = el.getBoundingClientRect();
                if (r.right > innerWidth + 0.5 || r.left < -0.5) out.push(el.tagName + ' ' + r.right);
            }
            return [document.documentElement.scrollWidth, innerWidth, out];
        }""")
        assert wider[0] <= wider[1] and wider[2] == [], wider
        assert page.evaluate("getComputedStyle(document.querySelector('.scroll')).overflowX") == "auto"
        page.screenshot(path=str(pages / f"{name}-phone.png"))
        pdf = page.pdf(format="A4")
        assert asked == [path.as_uri()]
    finally:
        ctx.close()
    (pages / f"{name}.pdf").write_bytes(pdf)
    counted = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
    assert counted == PAGES[name]
    from pypdf import PdfReader

    texts = [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]
    assert len(texts) == counted
    first = {"evening": "Hands", "stake": "Hands", "season": "Standings"}[name]
    assert first in texts[0] and ("Running totals" if name != "season" else "Season totals") in texts[-1]


@needs_browser
def test_printed_no_row_straddles_a_page_and_the_head_comes_again(tmp_path, browser):
    """A long evening (100 hands, East winning each and keeping the deal) prints on several pages:
    every hand's row whole on one page, and each page of the hands starts with the table's head."""
    hands = [f"E: score {20 + 2 * (i % 7)} {'win self' if i % 2 else 'win from S'}\nS: score {i % 5 * 2}\n"
             f"W: score {i % 3 * 4}\nN: score {i % 4 * 2}\n" for i in range(100)]
    (tmp_path / "long.mj").write_text("players Ann Bob Cid Dee\nstart 2000\n---\n" + "---\n".join(hands))
    done = mjscore("session", "long.mj", "--format", "html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    path = tmp_path / "long.html"
    path.write_text(done.stdout)
    rows = re.findall(r"<tr><td>(\d+)</td><td>\w</td><td>\w+</td><td>[^<]*</td>((?:<td class=\"n\">[^<]*</td>){4})",
                      done.stdout)
    assert len(rows) == 100
    ctx, page, asked = opened(browser, path)
    try:
        pdf = page.pdf(format="A4")
    finally:
        ctx.close()
    assert asked == [path.as_uri()]
    from pypdf import PdfReader

    texts = [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(io.BytesIO(pdf)).pages]
    hands_pages = [t for t in texts if " wins " in t]
    assert len(hands_pages) >= 3
    seen = set()
    for t in hands_pages:
        assert "# round East result Ann: seat score" in t, t[:200]           # the head on every page
        # A result wraps in its cell ("Ann (E) wins" / "self-drawn"): a row cut by the page leaves
        # its last line on the next page, alone.
        assert t.count(" wins ") == t.count("self-drawn") + t.count("discard"), t
        seen |= {n for n, cells in rows if all(f in t for f in re.findall(r'<td class="n">([^<]*)</td>', cells))}
    assert seen == {n for n, _ in rows}                           # every row's four figures on one page


def test_a_season_of_nights_shows_each_player_night_by_night_with_money_where_stakes_differ(tmp_path):
    """Two nights: one of two tables, at 0.05 EUR, one of a table at 0.10 EUR. The page's
    night-by-night table holds what `season --format json` gives, the stakes said to differ,
    each night's money, the chart drawn by night."""
    evening = mjscore("example", "evening-session").stdout
    (tmp_path / "n1").mkdir()
    (tmp_path / "n2").mkdir()
    def staked(text, stake):
        return text.replace("\nstart 2000", f"\nstart 2000\nstake {stake}", 1)

    (tmp_path / "n1" / "table-1.mj").write_text(staked(evening, "0.05 EUR"))
    other = evening.replace("Ann", "Eve").replace("Bob", "Fay").replace("Cid", "Gus").replace("Dee", "Hal")
    (tmp_path / "n1" / "table-2.mj").write_text(staked(other, "0.05 EUR"))
    (tmp_path / "n2" / "t.mj").write_text(staked(evening, "0.10 EUR"))
    plain = json.loads(mjscore("season", "n1", "n2", "--format", "json", cwd=tmp_path).stdout)
    done = mjscore("season", "n1", "n2", "--format", "html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = read(done.stdout)
    text = " ".join(" ".join(page.text).split())
    assert "Night by night (won or lost)" in text and "Money night by night" in text and "stakes differ" in text
    for night in plain["nights"]:
        for name, won in night["won_or_lost"].items():
            assert f"{won:+d}" in text, (name, won)
    # the nights laid out by name, not as an unknown part (`_further`'s title is the JSON key)
    assert "Eve" in text and "Hal" in text and "<h2>Nights</h2>" not in done.stdout
    assert re.search(r"<th[^>]*>nights</th>", done.stdout)
