"""The nine shipped schemes: structure, worked examples from their books, and the schemes command."""


import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.io.notation import parse_table
from mjscore.model.errors import IncompleteHandError
from mjscore.model.tiles import Wind
from mjscore.pipeline import evaluate
from mjscore.rules.scheme import Rounding, RoundingMode, load_scheme, shipped_schemes
from mjscore.scoring.score import score_table

runner = CliRunner()
NINE = ["babcock", "bmja", "chinese-classical", "classical", "dmjl", "european-classical",
        "kajongg-bmja", "kajongg-dmjl", "millington"]


def test_nine_schemes_ship():
    assert shipped_schemes() == NINE


@pytest.mark.parametrize("name", NINE)
def test_scheme_structure(name):
    s = load_scheme(name)
    assert s.name == name and s.title and s.description and s.sources
    assert s.limit > 0 and 0 <= s.max_chows <= 4 and "standard" in s.shapes
    ids = [r.id for r in s.rules]
    assert len(ids) == len(set(ids))
    assert any(r.id == "mahjong" and r.scope == "winner" and r.points > 0 for r in s.rules)
    for r in s.rules:
        assert [bool(r.points), bool(r.doubles), bool(r.limit)].count(True) == 1, r.id
    # settlement defaults name things that exist
    assert s.settlement.paying.value in ("winner-only", "between-all", "add-up")


@pytest.mark.parametrize("name", NINE)
def test_every_sample_hand_scores_under_every_scheme(name):
    from conftest import table_samples

    for path in map(str, table_samples()):
        for table in parse_table_file(path):
            try:
                result = evaluate(table, name).to_dict()
            except IncompleteHandError:
                assert load_scheme(name).max_chows < 4 or name == "babcock"   # BMJA's one chow; Babcock: no 13 orphans
                continue
            s = load_scheme(name)
            for p in result["players"]:
                if p.get("counted"):       # a score counted at the table: taken as it is
                    continue
                if p["limit"] is None:     # the items add up to the score under this scheme's limit and rounding
                    assert sum(i.get("points", 0) for i in p["items"]) == p["points"]
                    assert sum(i.get("doubles", 0) for i in p["items"]) == p["doubles"]
                    assert p["score"] == s.rounding.apply(min(p["points"] * 2 ** p["doubles"], s.limit))
                else:
                    assert p["score"] > 0 and len(p["items"]) == 1


def parse_table_file(path):
    from mjscore.io.reader import read_tables

    return read_tables(path)


def east(text, scheme):
    return score_table(parse_table(text), load_scheme(scheme)).player(Wind.EAST)


def test_european_classical_four_winds_example_1_figures():
    # Four Winds' worked example 1 (issue 11, item 1): East goes out on a self-drawn East wind,
    # round East.  Its items: winning 20, concealed kong of terminals 32, melded pung of honours
    # 4, concealed simples 4, pair of own wind and wind of the round 4, going out on a pair 2,
    # self-drawn 2 = 68; pung of dragons 1 double; 136, rounded off to 140.  The fourth set
    # scores nothing: a chow.  The single wait on the pair earns "going out on a pair" and not
    # "only possible tile" too (that is for a one-chance chow).
    p = east("round E\nE: [CCC] (1111m) 555p 234s EE win E self", "european-classical")
    assert sorted(i.points for i in p.items if i.points) == [2, 2, 4, 4, 4, 20, 32]
    assert "only-possible" not in {i.rule for i in p.items}
    assert (p.points, p.doubles, p.score) == (68, 1, 140)
    # A one-chance chow still earns it: 3s alone completes 1-2-3 (the edge wait).
    q = east("round E\nE: [CCC] (1111m) 555p 123s EE win 3s self", "european-classical")
    assert "only-possible" in {i.rule for i in q.items}


@pytest.mark.parametrize("value,rounded", [(64, 60), (65, 70), (136, 140), (124, 120), (500, 500)])
def test_european_classical_rounding_examples(value, rounded):
    assert load_scheme("european-classical").rounding.apply(value) == rounded


def test_rounding_up():
    # A mode is a RoundingMode, as the annotation says (the compiled core checks it).
    up = Rounding(RoundingMode.UP, 100)
    assert up.apply(2240) == 2300 and up.apply(2200) == 2200


def test_babcock_figure_18_figures():
    # 42 points; the green dragons and the own wind double twice: 168 (BAB6)
    p = east("E: [FFF] [EEE] 999p 567s CC win C self", "babcock")
    assert (p.points, p.doubles, p.score) == (42, 2, 168)


def test_babcock_has_no_flowers_and_suit_doubles_for_losers():
    p = east("E: [123m] [456m] 789m 11m 2m 1f", "babcock")
    assert not any(i.rule == "flower" for i in p.items)
    assert "one-suit" in {i.rule for i in p.items}          # a loser's suit double
    assert p.score == min((p.points) * 8, 300)


def test_babcock_winner_points_instead_of_doubles():
    p = east("E: (5555p) 111m 999m 22s 333s win 3s self loose", "babcock")
    rules = {i.rule: i for i in p.items}
    assert rules["no-chow"].points == 10 and rules["loose-tile"].points == 8
    # 16 + 8 + 8 + 4 for the sets, 20 going out, 2 drawn, 10 no sequences, 8 loose piece
    assert (p.points, p.doubles, p.score) == (76, 0, 76)


def test_chinese_classical_goes_out_for_ten_and_no_only_possible():
    p = east("E: [123m] [456m] [789p] 11s 234s win 3s from S", "chinese-classical")
    assert p.points == 10 and "only-possible" not in {i.rule for i in p.items}


def test_chinese_classical_hidden_treasure_allows_kongs_and_no_claimed_tile():
    assert east("E: (1111m) 999p 555s 222s 88p win 8p self", "chinese-classical").limit == "Hidden Treasure"
    assert east("E: 111m 999p 555s 222s 88p win 8p from S", "chinese-classical").limit is None


def test_millington_only_possible_ignores_dead_waits():
    # East waits on 3s or 6s (45s); all four 6s are face up at the table (S's exposed pung and W's
    # discard), so 3s was the only possible tile under Millington, not under classical.  (A
    # winner's own concealed copies are not counted as out: Bradfield's mj counts only the tiles
    # shown, scoring.c l.409; see tests/test_source_engines.py.)
    text = "E: [123m] [456m] [777p] 99s 345s win 3s from S\nS: [666s] ...\nW: ... discarded 6s"
    p = east(text, "millington")
    q = east(text, "classical")
    assert "only-possible" in {i.rule for i in p.items}
    assert "only-possible" not in {i.rule for i in q.items}


def test_millington_east_thirteenth_win_is_a_limit():
    p = east("dealer-wins 12\nE: [123m] [456m] [789p] 11s 234s win 4s self", "millington")
    assert p.limit == "Thirteen consecutive wins by East"
    q = east("dealer-wins 11\nE: [123m] [456m] [789p] 11s 234s win 4s self", "millington")
    assert q.limit is None


# -- the schemes command ---------------------------------------------------------------------

@pytest.mark.usefixtures("unwrapped")
def test_schemes_lists_all_nine_with_a_description():
    r = runner.invoke(app, ["schemes"])
    assert r.exit_code == 0
    lines = r.stdout.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == NINE and all("limit" in ln for ln in lines)


@pytest.mark.parametrize("name", NINE)
@pytest.mark.usefixtures("unwrapped")
def test_schemes_show_prints_every_value(name):
    r = runner.invoke(app, ["schemes", "show", name])
    assert r.exit_code == 0
    s = load_scheme(name)
    for rule in s.rules:
        assert rule.text in r.stdout
    assert "Sources:" in r.stdout and str(s.limit) in r.stdout


@pytest.mark.usefixtures("unwrapped")
def test_schemes_diff_classical_bmja_shows_the_differences():
    r = runner.invoke(app, ["schemes", "diff", "classical", "bmja"])
    assert r.exit_code == 0
    assert "most chows" in r.stdout and "Purity" in r.stdout and "Calling for" in r.stdout
    # rules that are the same under two names are not differences
    assert "One suit with honours" not in r.stdout


def test_schemes_diff_a_house_file(tmp_path):
    house = tmp_path / "club.yaml"
    house.write_text("scheme: club\nextends: classical\nlimit: 2000\n")
    r = runner.invoke(app, ["schemes", "diff", "classical", str(house)])
    assert r.exit_code == 0 and "1 differences" in r.stdout and "2000" in r.stdout
    same = runner.invoke(app, ["schemes", "diff", "dmjl", "dmjl"])
    assert "alike" in same.stdout


@pytest.mark.usefixtures("unwrapped")
def test_schemes_show_unknown_is_an_error():
    r = runner.invoke(app, ["schemes", "show", "no-such"])
    assert r.exit_code == 1 and "no scheme named 'no-such'" in r.stderr


def test_parsed_scheme_cache_follows_the_file(tmp_path, monkeypatch):
    import os
    import time

    from mjscore.rules import scheme
    from mjscore.store import cache_folder

    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(tmp_path / "cache"))
    house = tmp_path / "club.yaml"
    house.write_text("scheme: club\nextends: classical\nlimit: 2000\n")
    scheme._load.cache_clear()
    assert load_scheme(str(house)).limit == 2000
    assert len(list((tmp_path / "cache").iterdir())) == 1          # remembered
    scheme._load.cache_clear()
    assert load_scheme(str(house)).limit == 2000                   # read back from the cache
    house.write_text("scheme: club\nextends: classical\nlimit: 3000\n")
    os.utime(house, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    scheme._load.cache_clear()
    assert load_scheme(str(house)).limit == 3000                   # the file changed: read again
    for f in (tmp_path / "cache").iterdir():
        f.write_text("{not json")
    scheme._load.cache_clear()
    assert load_scheme(str(house)).limit == 3000                   # a broken cache is ignored
    monkeypatch.setenv("MJSCORE_CACHE_DIR", "")
    assert cache_folder.cache_dir() is None
    scheme._load.cache_clear()
