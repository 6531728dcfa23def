"""The table in its own language (issue 41): English, German, Dutch and French.

- The catalogues are whole: every message of the template translated in each language, with the
  same named places, nothing fuzzy; the template holds every message of the package, the shipped
  schemes' words and click's; each .mo is its .po compiled.
- Each person their own language: the command line's from `--lang`, `MJSCORE_LANG`, the locale;
  each phone's from its choice (a cookie), else its browser's `Accept-Language`.
- Nothing left in English by accident: the command line's answers and errors and the page's views,
  rendered in each language, hold no sentence of the English catalogue (its msgids are the list).
- The errors stay exact: file, line, column and token, and the exit status, in every language.
- Machine forms never change: JSON keys, CSV headers, the evening file.
"""

from __future__ import annotations

import gettext
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from mjscore.cli.language import language_of
from mjscore.model import say

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import catalogues  # noqa: E402  (tools/catalogues.py: the Babel steps the catalogues are made with)

LANGS = ("de", "nl", "fr")
SAMPLES = ROOT / "sample_hands"
TIMEOUT = 60


def _template():
    with catalogues.TEMPLATE.open("rb") as f:
        return read_po(f)


def _catalogue(lang):
    with catalogues.po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def _ids(cat):
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


# -- the catalogues are whole ------------------------------------------------------------------

def test_the_languages_are_the_catalogues_shipped():
    shipped = {p.parent.parent.name for p in say.LOCALE.glob("*/LC_MESSAGES/mjscore.mo")}
    assert shipped == set(say.LANGUAGES) - {"en"} == set(LANGS) == set(catalogues.LANGUAGES)


def test_the_template_holds_every_message_of_the_code_and_the_schemes():
    """A sentence added without `tools/catalogues.py extract` (and its translations) fails here."""
    assert _ids(catalogues.extract()) == _ids(_template())


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated_with_the_same_places(lang):
    cat = _catalogue(lang)
    assert _ids(cat) == _ids(_template())
    assert list(catalogues.problems(cat)) == []
    assert cat.num_plurals == 2


@pytest.mark.parametrize("lang", LANGS)
def test_each_mo_is_its_po_compiled(lang):
    with catalogues.po_path(lang).with_suffix(".mo").open("rb") as f:
        compiled = read_mo(f)
    po = _catalogue(lang)
    def pairs(cat):
        return {_flat(m.id): _flat(m.string) for m in cat if m.id and not m.fuzzy}

    assert pairs(compiled) == pairs(po)


def _flat(value):
    return tuple(value) if isinstance(value, (list, tuple)) else value


def test_the_places_a_checker_sees():
    assert catalogues.places("{payer} pays {payee} {amount:>5} {{braces}}") == {"payer", "payee", "amount"}
    assert list(catalogues.problems(_mini({"{n} point": "{m} Punkt"}))) != []
    assert list(catalogues.problems(_mini({"{n} point": "{n} Punkt"}))) == []
    assert list(catalogues.problems(_mini({"a b": ""}))) == ["de: 'a b': not translated"]


def _mini(messages):
    from babel.messages.catalog import Catalog

    cat = Catalog(locale="de")
    for k, v in messages.items():
        cat.add(k, v)
    return cat


# -- choosing the language ---------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "env", "lang", "rest"), [
    (["mjscore", "score", "x.mj"], {}, "en", ["mjscore", "score", "x.mj"]),
    (["mjscore", "--lang", "de", "score"], {}, "de", ["mjscore", "score"]),
    (["mjscore", "score", "x.mj", "--lang=fr"], {"MJSCORE_LANG": "nl"}, "fr", ["mjscore", "score", "x.mj"]),
    (["mjscore", "score"], {"MJSCORE_LANG": "nl", "LANG": "de_DE.UTF-8"}, "nl", ["mjscore", "score"]),
    (["mjscore", "score"], {"LC_ALL": "fr_CA.UTF-8", "LANG": "de_DE.UTF-8"}, "fr", ["mjscore", "score"]),
    (["mjscore", "score"], {"LC_MESSAGES": "nl_BE", "LANG": "de_DE.UTF-8"}, "nl", ["mjscore", "score"]),
    (["mjscore", "score"], {"LANG": "de_AT.UTF-8"}, "de", ["mjscore", "score"]),
    (["mjscore", "score"], {"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}, "en", ["mjscore", "score"]),
    (["mjscore", "score"], {"LANG": "ja_JP.UTF-8"}, "en", ["mjscore", "score"]),
    # a language mjscore does not speak is left for the app to refuse (exit 2)
    (["mjscore", "--lang", "xx", "score"], {"LANG": "de_DE"}, "de", ["mjscore", "--lang", "xx", "score"]),
    # after `--` the words are the command's own
    (["mjscore", "score", "--", "--lang", "de"], {}, "en", ["mjscore", "score", "--", "--lang", "de"]),
])
def test_the_command_line_chooses_its_language(argv, env, lang, rest):
    assert language_of(argv, env) == (lang, rest)


@pytest.mark.parametrize(("header", "lang"), [
    ("de-CH,de;q=0.9,en;q=0.8", "de"), ("ja, fr;q=0.5, de;q=0.4", "fr"), ("en-GB,en;q=0.9", "en"),
    ("nl;q=0, fr;q=0.1", "fr"), ("xx, yy;q=bad", None), ("", None), ("*", None),
])
def test_a_browser_s_accept_language(header, lang):
    assert say.chosen(say.accepted(header)) == lang


def test_a_request_speaks_its_own_language_while_the_process_speaks_another():
    import threading

    said = {}

    def ask(lang):
        with say.speaking(lang):
            said[lang] = say._("Nobody pays.")

    threads = [threading.Thread(target=ask, args=(lang,)) for lang in LANGS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert said == {lang: say.catalogue(lang).gettext("Nobody pays.") for lang in LANGS}
    assert len(set(said.values())) == 3 and say.language() == "en" and say._("Nobody pays.") == "Nobody pays."


@pytest.mark.parametrize(("lang", "money", "shown"), [
    ("en", "-1234.50", "-1234.50"), ("de", "-1234.50", "-1234,50"), ("nl", "29.80", "29,80"), ("fr", "29.80", "29,80"),
])
def test_numbers_as_each_language_writes_them(lang, money, shown):
    from mjscore.model.money import with_money

    with say.speaking(lang):
        assert say.number(money) == shown
        figure = with_money(596, "29.80", "EUR")
    assert figure == {"en": "596 (EUR 29.80)", "de": "596 (29,80 EUR)", "nl": "596 (EUR 29,80)",
                      "fr": "596 (29,80 EUR)"}[lang]


# -- nothing left in English -------------------------------------------------------------------

PLACE = re.compile(r"\{[^{}]*\}")


def english_sentences(lang):
    """The English catalogue's sentences to look for in a rendering in `lang`: each msgid's
    literal runs of three words or more (between its places), unless the translation holds the
    same run (a command, the notation, a name kept as it is)."""
    found = set()
    cat = _catalogue(lang)
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for msgid in ids:
            for run in PLACE.split(msgid):
                run = run.strip(" .,:;()'\"-")
                if len(re.findall(r"[A-Za-z]{2,}", run)) >= 3 and not any(run in s for s in strings):
                    found.add(run)
    return found


def english_in(text, lang):
    return sorted(run for run in english_sentences(lang) if run in text)


def mj(*args, lang=None, cwd, env=None, input=None):
    full = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE",
                                                              "MJSCORE_LANG", "COLUMNS")}
    full.update(env or {})
    line = [sys.executable, "-m", "mjscore", *(["--lang", lang] if lang else []), *map(str, args)]
    return subprocess.run(line, cwd=cwd, env=full, capture_output=True, text=True, timeout=TIMEOUT, input=input)


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """An evening, a second one, a hand, and a dozen bad inputs, in a folder of their own."""
    here = tmp_path_factory.mktemp("night")
    (here / "evening.mj").write_text((SAMPLES / "evening-session.mj").read_text())
    staked = (SAMPLES / "evening-session.mj").read_text().replace("start 2000\n", "start 2000\nstake 0.05 EUR\n")
    (here / "staked.mj").write_text(staked)
    (here / "hand.mj").write_text((SAMPLES / "win-on-discard.mj").read_text())
    (here / "bad-tile.mj").write_text("E: 123m 456m 789m 11p 99x win 1p self\n")
    (here / "two-winners.mj").write_text("E: score 10 win self\nS: score 10 win self\n")
    (here / "incomplete.mj").write_text("E: 123m 456m win 1p self\n")
    (here / "bad.yaml").write_text("players: [Ann\n")
    (here / "bad-stake.mj").write_text("players Ann Bob Cid Dee\nstake lots\n---\nE: score 10 win self\n")
    return here


ERRORS = [  # (what is asked, where the error is: file:line:col, the token it names)
    (("score", "bad-tile.mj"), "bad-tile.mj:1:", "99x"),
    (("score", "two-winners.mj"), "two-winners.mj:", None),
    (("score", "incomplete.mj"), "incomplete.mj:1:", None),
    (("score", "bad.yaml"), "bad.yaml:", None),
    (("session", "bad-stake.mj"), "bad-stake.mj:2:", "lots"),
    (("score", "no-such-file.mj"), "no-such-file.mj", None),
    (("score", "hand.mj", "--scheme", "no-such-scheme"), None, "no-such-scheme"),
    (("score", "hand.mj", "--paying", "nobody"), None, "nobody"),
    (("help", "no-such-topic"), None, "no-such-topic"),
    (("score", "hand.mj", "--no-such-option"), None, "--no-such-option"),
    (("undo", "no-such-evening.mj"), "no-such-evening.mj", None),
    (("add", "evening.mj", "-e", "E: score 10 win self; S: 12x"), None, "12x"),
]

# The command line's refusals of a line (Typer's copy of click makes them, mjscore.cli.usage says
# them): what is asked, the token each names.
USAGE_ERRORS = [
    (("score", "hand.mj", "--paying", "nobody"), "nobody"),
    (("score", "hand.mj", "--no-such-option"), "--no-such-option"),
    (("score", "hand.mj", "--payin"), "--paying"),
    (("score", "hand.mj", "--stake"), "--stake"),
    (("score", "hand.mj", "extra1", "extra2"), "extra1 extra2"),
    (("scor", "hand.mj"), "scor"),
    (("schemes", "show"), "name"),
    (("serve", "evening.mj", "--port", "99999999"), "99999999"),
    (("serve", "evening.mj", "--port", "many"), "many"),
]
ERRORS += [(args, None, token) for args, token in USAGE_ERRORS]


@pytest.mark.parametrize("args", [e[0] for e in ERRORS], ids=[" ".join(e[0]) for e in ERRORS])
def test_an_error_says_where_and_what_in_every_language_with_the_same_status(night, args):
    where, token = next((w, t) for a, w, t in ERRORS if a == args)
    english = mj(*args, cwd=night)
    assert english.returncode in (1, 2) and english.stderr, english
    first = english.stderr.splitlines()[0]
    for lang in LANGS:
        r = mj(*args, lang=lang, cwd=night)
        assert r.returncode == english.returncode, (lang, r.stderr)
        assert "Traceback" not in r.stderr
        if where is not None:
            assert where in r.stderr, (lang, r.stderr)
            # the place is the same place: file:line:col as English gives it
            place = re.search(re.escape(where) + r"[\d:]*", first)
            assert place and place.group(0) in r.stderr, (lang, r.stderr)
        if token is not None:
            assert token in r.stderr, (lang, r.stderr)
        assert english_in(r.stderr, lang) == [], (lang, r.stderr)
        assert r.stderr != english.stderr, lang
        # click's short words, too short for english_in's look for three words in a row
        assert not re.search(r"^(Usage|Error): |Did you mean|Possible options", r.stderr, re.M), (lang, r.stderr)


@pytest.mark.parametrize("args", [a for a, _token in USAGE_ERRORS], ids=[" ".join(a) for a, _token in USAGE_ERRORS])
def test_a_refused_line_reads_in_english_as_typer_writes_it(night, args):
    """mjscore.cli.usage says Typer's refusals again from their parts: in English, word for word
    what Typer's own standalone mode writes (TyperGroup.main, run here on the same commands)."""
    import typer.core
    import typer.main
    from typer.testing import CliRunner

    from mjscore.cli.commands import app

    ours = mj(*args, cwd=night)
    group = typer.main.get_command(app)
    with CliRunner().isolation() as (_out, err, _both), pytest.raises(SystemExit) as exit:
        try:
            typer.core.TyperGroup.main(group, list(args), prog_name="python -m mjscore")
        finally:
            typers = err.getvalue().decode()
    assert ours.returncode == exit.value.code == 2
    assert ours.stderr == typers


ANSWERS = [
    ("score", "hand.mj"),
    ("score", "hand.mj", "--scheme", "dmjl"),
    ("session", "staked.mj"),
    ("session", "evening.mj", "--stats"),
    ("season", "evening.mj", "staked.mj"),
    ("schemes",),
    ("schemes", "show", "dmjl"),
    ("schemes", "diff", "classical", "dmjl"),
    ("help",),
    ("help", "notation"),
    ("--help",),
    ("score", "--help"),
    ("session", "--help"),
    ("example",),
    ("waits", "-e", "E: 123m 456m 789m 11p 23s", "--format", "json"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("args", ANSWERS, ids=[" ".join(a) for a in ANSWERS])
def test_the_command_line_answers_with_no_english_sentence(night, lang, args):
    english = mj(*args, cwd=night)
    r = mj(*args, lang=lang, cwd=night, env={"COLUMNS": "60"})
    assert r.returncode == english.returncode == 0, r.stderr
    assert r.stdout != english.stdout or not re.search(r"[a-z]{3} [a-z]{3}", english.stdout)
    assert english_in(r.stdout, lang) == [], r.stdout
    # the 60-column terminal still fits (German words are long): no line wider than English's
    # widest at 60 columns (an address or an example command line is as wide in every language)
    english_60 = mj(*args, cwd=night, env={"COLUMNS": "60"}).stdout
    assert max(map(len, r.stdout.splitlines())) <= max(60, *map(len, english_60.splitlines())), r.stdout


@pytest.mark.parametrize("lang", LANGS)
def test_add_answers_in_the_language_and_writes_the_file_as_english_does(tmp_path, lang):
    for who, language in (("en", None), (lang, lang)):
        folder = tmp_path / who
        folder.mkdir()
        r = mj("add", "ev.mj", "--players", "Ann", "Bob", "Cid", "Dee", "--stake", "0.05 EUR",
               "-e", "E: score 40 win self; S: score 8; W: ...; N: ...", lang=language, cwd=folder)
        assert r.returncode == 0, r.stderr
        if language:
            assert english_in(r.stdout, lang) == [], r.stdout
            assert "Ann" in r.stdout and "," in r.stdout      # its money with a decimal comma
    assert (tmp_path / lang / "ev.mj").read_text() == (tmp_path / "en" / "ev.mj").read_text()


@pytest.mark.parametrize("lang", LANGS)
def test_machine_forms_never_change(night, lang):
    for args in (("score", "hand.mj", "--format", "json"), ("session", "staked.mj", "--format", "json")):
        english, other = json.loads(mj(*args, cwd=night).stdout), json.loads(mj(*args, lang=lang, cwd=night).stdout)
        assert _keys(english) == _keys(other)
    for args in (("session", "staked.mj", "--format", "csv"), ("batch", "hand.mj", "--format", "csv")):
        english, other = mj(*args, cwd=night).stdout, mj(*args, lang=lang, cwd=night).stdout
        assert english.splitlines()[0] == other.splitlines()[0]
    english = json.loads(mj("session", "staked.mj", "--format", "json", cwd=night).stdout)
    other = json.loads(mj("session", "staked.mj", "--format", "json", lang=lang, cwd=night).stdout)
    assert english["money"] == other["money"] and english["totals"] == other["totals"]
    # a batch's JSON line: the same keys, rules and figures; its items' names in the reader's language
    english, other = (json.loads(mj("batch", "hand.mj", lang=reader, cwd=night).stdout) for reader in (None, lang))
    assert _keys(english) == _keys(other)
    items = [(e, o) for pe, po in zip(english["players"], other["players"], strict=True)
             for e, o in zip(pe["items"], po["items"], strict=True)]
    assert items and all(e["rule"] == o["rule"] and e.get("points") == o.get("points") for e, o in items)
    with say.speaking(lang):
        assert [o["text"] for _e, o in items] == [say._(e["text"]) for e, _o in items]
    assert any(e["text"] != o["text"] for e, o in items)


def _keys(value):
    if isinstance(value, dict):
        return {k: _keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_keys(v) for v in value[:1]]
    return None


def test_the_locale_and_the_environment_choose_as_said(night):
    def first_word(env):
        return mj("score", "hand.mj", cwd=night, env=env).stdout

    german = mj("score", "hand.mj", lang="de", cwd=night).stdout
    french = mj("score", "hand.mj", lang="fr", cwd=night).stdout
    assert first_word({"LANG": "de_DE.UTF-8"}) == german
    assert first_word({"LANG": "de_DE.UTF-8", "MJSCORE_LANG": "fr"}) == french
    assert first_word({"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}) == french
    assert mj("--lang", "de", "score", "hand.mj", cwd=night, env={"MJSCORE_LANG": "fr"}).stdout == german
    bad = mj("--lang", "xx", "score", "hand.mj", cwd=night)
    assert bad.returncode == 2 and "xx" in bad.stderr


# -- the page ----------------------------------------------------------------------------------

@pytest.fixture
def client(night, tmp_path):
    from fastapi.testclient import TestClient

    from mjscore.web.app import create_app

    evening = tmp_path / "evening.mj"
    evening.write_text((night / "staked.mj").read_text())
    token = "t" * 32
    return TestClient(create_app(str(evening), token), base_url="http://127.0.0.1",
                      headers={"Authorization": f"Bearer {token}"})


def _words_of(page):
    return json.loads(re.search(r'<script id="words" type="application/json">(.*?)</script>', page, re.S).group(1))


def test_each_phone_reads_its_own_language(client):
    pages = {lang: client.get("/", headers={"Accept-Language": f"{lang};q=0.9, ja"}).text for lang in say.LANGUAGES}
    for lang, page in pages.items():
        assert f'<html lang="{lang}">' in page
        words = _words_of(page)
        assert words["lang"] == lang and words["languages"] == say.LANGUAGES
        with say.speaking(lang):
            assert words["who_are_you"] == say._("Who are you?")
    assert len({_words_of(p)["who_are_you"] for p in pages.values()}) == 4
    # the phone's own choice (a cookie it keeps) wins over its browser's languages
    chosen = client.get("/", headers={"Accept-Language": "de", "Cookie": "mjscore_lang=fr"}).text
    assert _words_of(chosen)["lang"] == "fr"
    # an answer's sentences too, each phone its own, from one evening
    said = {lang: client.get("/api/evening", headers={"Accept-Language": lang}).json()["said"] for lang in LANGS}
    english = client.get("/api/evening").json()
    assert len({s["settle_up"][0] for s in said.values()} | {english["said"]["settle_up"][0]}) == 4
    for lang, s in said.items():
        assert english_in(json.dumps(s, ensure_ascii=False), lang) == []
    assert "," in said["de"]["stake"] and english["said"]["stake"] == "EUR 0.05"


def test_a_notice_is_said_in_the_language_of_the_phone_reading_it(client):
    status = client.get("/api/status").json()
    hand = status["next"]["hand"]
    added = client.post("/api/hands", json={"text": "E: score 40 win self\nS: score 8\nW: score 0\nN: score 0",
                                            "hand": hand, "by": "Ann"},
                        headers={"Accept-Language": "de"})
    assert added.status_code == 201, added.text
    texts = {lang: client.get("/api/status", headers={"Accept-Language": lang}).json()["notices"][-1]["text"]
             for lang in say.LANGUAGES}
    assert texts["en"] == f"Hand {hand} was added by Ann"
    assert len(set(texts.values())) == 4
    for lang in LANGS:
        with say.speaking(lang):
            assert texts[lang] == say._("Hand {hand} was added by {player}").format(hand=hand, player="Ann")


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_s_answers_hold_no_english_sentence(client, lang):
    head = {"Accept-Language": lang}
    for path in ("/api/evening", "/api/standings", "/api/stats", "/api/status", "/api/rules"):
        r = client.get(path, headers=head)
        if r.status_code == 404:
            continue
        assert r.status_code == 200, (path, r.text)
        text = json.dumps(_shown(r.json()), ensure_ascii=False)
        assert english_in(text, lang) == [], (path, english_in(text, lang))
    bad = client.put("/api/drafts/E", json={"text": "E: 99x", "hand": 1, "by": "Ann"}, headers=head)
    assert english_in(bad.text, lang) == []


def _shown(value):
    """An answer's values a phone shows (its sentences), without what it only reads (the notation)."""
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items() if k not in ("text", "line", "lines", "file")}
    if isinstance(value, list):
        return [_shown(v) for v in value]
    return value


def test_a_club_s_own_rule_name_is_shown_as_its_file_writes_it():
    with say.speaking("de"):
        assert say._("Our club's own bonus") == "Our club's own bonus"
        assert say._("") == ""


def test_gettext_reads_the_shipped_catalogues():
    for lang in LANGS:
        with (say.LOCALE / lang / "LC_MESSAGES" / "mjscore.mo").open("rb") as f:
            cat = gettext.GNUTranslations(f)
        assert cat.info()["language"] == lang
        assert cat.ngettext("{n} point", "{n} points", 1) != cat.ngettext("{n} point", "{n} points", 2)


@pytest.mark.parametrize("lang", LANGS)
def test_add_asks_at_a_terminal_in_each_language_and_writes_the_same_evening(tmp_path, lang):
    """`mjscore add` at a real terminal (a pty) of 60 columns: its prompt, a refused line and the
    hand's answer in the reader's language, each line fitting; the evening file as English writes it."""
    pexpect = pytest.importorskip("pexpect")
    if not hasattr(pexpect, "spawn"):
        pytest.skip("no pty to drive a terminal with (Windows)")
    from mjscore.api import prompt_words
    from mjscore.model import say

    with say.speaking(lang):
        help_lines = prompt_words()["help"].split("\n")
    assert len(help_lines) <= 2 and all(len(line) <= 60 for line in help_lines), help_lines
    files = {}
    for reader in ("en", lang):
        folder = tmp_path / reader
        folder.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
        env.update(COLUMNS="60", TERM="xterm", MJSCORE_CACHE_DIR="", MJSCORE_LANG=reader)
        command = ["-m", "mjscore", "add", "ev.mj", "--players", "Ann", "Bob", "Cid", "Dee"]
        child = pexpect.spawn(sys.executable, command, cwd=str(folder), env=env, encoding="utf-8", timeout=TIMEOUT,
                              dimensions=(40, 60))
        child.logfile_read = seen = io.StringIO()
        for name, line in (("Ann", "[111p] 222s 333m EEE 99s win 9s self"), ("Bob", "score 8 win 5s from Ana"),
                           ("Bob", "5555p ..."), ("Cid", ""), ("Dee", "")):
            child.expect_exact(name + " (")
            child.sendline(line)
        child.expect(pexpect.EOF)
        child.close()
        out = seen.getvalue().replace("\r\n", "\n")
        assert child.exitstatus == 0, out
        files[reader] = (folder / "ev.mj").read_text()
    for line in help_lines:
        assert line in out, (line, out)
    assert "'Ana'" in out and "Ann, Bob, Cid" in out
    assert english_in(out, lang) == [], out
    assert max(len(line) for line in out.splitlines()) <= 60, out
    assert files[lang] == files["en"]
