"""A season counts nights (issue 42, item 3): a folder is a night of its tables (one evening file a
table), a file given alone a night of one table; a player's night counts once however many tables
she sat at; the night-by-night table (text, JSON, CSV); the money where the evenings have a stake;
a chart that keeps eight players apart without colour.

Every evening here settles `winner-only` without East's double: a self-drawn win of `s` gives the
winner 3s and each other player -s; a win on a discard of `s` likewise (every loser pays)."""

import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjscore
from mjscore.cli.render import (CHART_DASHES, CHART_MARKERS, _dashed, chart_style, line_chart, render_season,
                                season_csv)

HEAD = "paying winner-only\neast-double off\n"


def evening(players, wins, stake=None):
    """An evening's text: `players` E S W N, `wins` a list of (seat, score) self-drawn wins."""
    out = "players " + " ".join(players) + "\n" + (f"stake {stake}\n" if stake else "") + HEAD
    for seat, score in wins:
        out += "---\n" + "".join(f"{s}: score {score} win self\n" if s == seat else f"{s}: ...\n" for s in "ESWN")
    return out


def make(root: Path, nights):
    """`nights`: (name, tables) where a name ending in `/` is a folder; else one file given alone."""
    paths = []
    for name, tables in nights:
        if name.endswith("/"):
            folder = root / name.rstrip("/")
            folder.mkdir()
            for k, text in enumerate(tables, 1):
                (folder / f"table-{k}.mj").write_text(text, encoding="utf-8")
            paths.append(folder)
        else:
            (root / name).write_text(tables[0], encoding="utf-8")
            paths.append(root / name)
    return paths


ABCD, EFGH = ("Ann", "Bob", "Cid", "Dee"), ("Eve", "Fay", "Gus", "Hal")
# Ann E self-drawn 40: Ann +120, the others -40.  Eve E self-drawn 10: +30 and -10.
CASES = {
    # name: (nights, expected night table {night: {player: won or lost}}, expected nights and evenings a player)
    "two tables in one night": (
        [("thu/", [evening(ABCD, [("E", 40)]), evening(EFGH, [("E", 10)])])],
        {"thu": {"Ann": 120, "Bob": -40, "Cid": -40, "Dee": -40, "Eve": 30, "Fay": -10, "Gus": -10, "Hal": -10}},
        {"Ann": (1, 1), "Eve": (1, 1)}),
    "a player at two tables in one night counted once": (
        [("thu/", [evening(ABCD, [("E", 40)]), evening(("Bob", "Eve", "Fay", "Gus"), [("E", 10)])]),
         ("fri.mj", [evening(ABCD, [("S", 20)])])],
        # Bob: -40 at table 1, +30 at table 2 (he wins as East): -10 that night; one night, two evenings.
        {"thu": {"Ann": 120, "Bob": -10, "Cid": -40, "Dee": -40, "Eve": -10, "Fay": -10, "Gus": -10},
         "fri": {"Ann": -20, "Bob": 60, "Cid": -20, "Dee": -20}},
        {"Bob": (2, 3), "Ann": (2, 2), "Eve": (1, 1)}),
    "a fifth player": (
        [("1.mj", [evening(ABCD, [("E", 40)])]), ("2.mj", [evening(("Ann", "Bob", "Cid", "Eve"), [("N", 20)])])],
        {"1": {"Ann": 120, "Bob": -40, "Cid": -40, "Dee": -40}, "2": {"Ann": -20, "Bob": -20, "Cid": -20, "Eve": 60}},
        {"Dee": (1, 1), "Eve": (1, 1), "Ann": (2, 2)}),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_night_table_and_the_nights_counted(tmp_path, case):
    nights, table, counts = CASES[case]
    season = mjscore.play_season(make(tmp_path, nights))
    plain = season.to_dict()
    assert {n["name"]: n["won_or_lost"] for n in plain["nights"]} == table
    for name, (n, evenings) in counts.items():
        p = season.player(name)
        assert (p.nights, p.evenings) == (n, evenings), name
        assert p.won_or_lost == sum(t.get(name, 0) for t in table.values())
        assert p.per_night == round(p.won_or_lost / n, 2)
    assert not plain["errors"]


def test_each_night_cell_is_the_sum_of_session_over_its_files(tmp_path):
    """The night-by-night table checked against `session` of each file: the sums equal."""
    nights, table, _ = CASES["a player at two tables in one night counted once"]
    plain = mjscore.play_season(make(tmp_path, nights)).to_dict()
    for night in plain["nights"]:
        summed: dict[str, int] = {}
        for f in night["files"]:
            r = subprocess.run([sys.executable, "-m", "mjscore", "session", f, "--format", "json"],
                               capture_output=True, timeout=120, check=True)
            s = json.loads(r.stdout)
            for n, t in s["totals"].items():
                summed[n] = summed.get(n, 0) + t - s["start"]
        assert summed == night["won_or_lost"] == table[night["name"]]


STAKES = {
    # both nights at one stake: one total in money a player, in the standings
    "same stake": (("0.05 EUR", "0.05 EUR"), {"per_point": "0.05", "currency": "EUR"},
                   [{"currency": "EUR",
                     "won_or_lost": {"Ann": "5.00", "Bob": "1.00", "Cid": "-3.00", "Dee": "-3.00"}}]),
    # the same currency at two stakes: still added (EUR is EUR), but no one stake
    "different stakes, one currency": (("0.05 EUR", "0.10 EUR"), None,
                                       [{"currency": "EUR", "won_or_lost": {"Ann": "4.00", "Bob": "4.00",
                                                                            "Cid": "-4.00", "Dee": "-4.00"}}]),
    # two currencies: never added
    "different currencies": (("0.05 EUR", "0.10 USD"), None,
                             [{"currency": "EUR", "won_or_lost": {"Ann": "6.00", "Bob": "-2.00", "Cid": "-2.00",
                                                                  "Dee": "-2.00"}},
                              {"currency": "USD", "won_or_lost": {"Ann": "-2.00", "Bob": "6.00", "Cid": "-2.00",
                                                                  "Dee": "-2.00"}}]),
}


@pytest.mark.parametrize("case", STAKES, ids=list(STAKES))
def test_money_by_stake(tmp_path, case):
    (first, second), stake, money = STAKES[case]
    # Night 1: Ann self-drawn 40 (+120, -40 each); night 2: Bob (S) self-drawn 20 (+60, -20 each).
    paths = make(tmp_path, [("1.mj", [evening(ABCD, [("E", 40)], first)]),
                            ("2.mj", [evening(ABCD, [("S", 20)], second)])])
    plain = mjscore.play_season(paths).to_dict()
    assert plain["stake"] == stake
    assert plain["money"] == money
    text = render_season(plain, width=60)
    # What this item adds fits 60 columns (the files' names of the biggest hands are as long as given).
    assert max(map(len, text.split("Night by night", 1)[1].splitlines())) <= 60
    if stake is not None:
        assert [s.get("money") for s in plain["standings"]] == ["5.00", "1.00", "-3.00", "-3.00"]
        assert "+100 (EUR +5.00)" in text and "stakes differ" not in text
    else:
        assert all("money" not in s for s in plain["standings"])
        assert sum("stakes differ" in line for line in text.splitlines()) == 1
        for m in money:
            head = f"Money in {m['currency']}, the season's total:"
            assert head in text
        assert "Money night by night" in text


def test_a_link_planted_in_a_night_is_never_followed(tmp_path):
    secret = tmp_path / "elsewhere.mj"
    secret.write_text(evening(ABCD, [("E", 40)]))
    night = tmp_path / "thu"
    night.mkdir()
    (night / "table-1.mj").write_text(evening(EFGH, [("E", 10)]))
    (night / "table-2.mj").symlink_to(secret)
    season = mjscore.play_season([night])
    assert season.left_out == (str(night / "table-2.mj"),)
    assert [n.files for n in season.nights] == [(str(night / "table-1.mj"),)]
    assert season.player("Ann") is None


def test_the_csv_has_a_column_a_night(tmp_path):
    nights, table, _ = CASES["a fifth player"]
    plain = mjscore.play_season(make(tmp_path, nights)).to_dict()
    rows = list(csv.DictReader(io.StringIO(season_csv(plain))))
    assert {r["name"]: (r["night 1"], r["night 2"]) for r in rows} == {
        "Ann": ("120", "-20"), "Bob": ("-40", "-20"), "Cid": ("-40", "-20"), "Dee": ("-40", ""), "Eve": ("", "60")}


def test_many_nights_fit_60_columns_in_blocks_every_night_shown(tmp_path):
    nights = [(f"2026-{k:02}-thursday/", [evening(ABCD, [("ESWN"[k % 4], 10 * k)])]) for k in range(1, 13)]
    plain = mjscore.play_season(make(tmp_path, nights)).to_dict()
    text = render_season(plain, width=60)
    assert max(map(len, text.split("Night by night", 1)[1].splitlines())) <= 60
    table = text.split("Night by night (won or lost)\n", 1)[1]
    assert all(f"2026-{k:02}-thursday" in table for k in range(1, 13))
    assert table.count("total") == 1 and table.count("player") > 1          # blocks, the total in the last


# -- hypothesis: the night table adds up ---------------------------------------------------------

POOL = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
table_st = st.tuples(st.permutations(POOL).map(lambda p: tuple(p[:4])),
                     st.lists(st.tuples(st.sampled_from("ESWN"), st.integers(1, 50).map(lambda x: 2 * x)),
                              min_size=1, max_size=3))
nights_st = st.lists(st.lists(table_st, min_size=1, max_size=3), min_size=1, max_size=4)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights_st)
def test_row_sums_are_the_season_totals_and_each_night_sums_to_zero(spec):
    with tempfile.TemporaryDirectory() as d:
        paths = make(Path(d), [(f"n{k}/", [evening(p, w) for p, w in tables]) for k, tables in enumerate(spec)])
        season = mjscore.play_season(paths)
        plain = season.to_dict()
    assert not plain["errors"]
    for s in plain["standings"]:
        assert sum(n["won_or_lost"].get(s["name"], 0) for n in plain["nights"]) == s["won_or_lost"]
        # a night counts once: her nights are the nights she appears in
        assert s["nights"] == sum(s["name"] in n["won_or_lost"] for n in plain["nights"])
    for n in plain["nights"]:
        assert sum(n["won_or_lost"].values()) == 0


# -- the chart: eight players apart without colour ------------------------------------------------

def test_eight_players_each_their_own_marker_dash_and_label():
    styles = [chart_style(i) for i in range(8)]
    assert len({m for m, _ in styles}) == 8 and len({d for _, d in styles}) == 8
    assert len(set(CHART_MARKERS)) == len(CHART_MARKERS) >= 8 and len(set(CHART_DASHES)) >= 8
    # Each dash keeps other points of a long flat line.
    kept = {tuple(_dashed([0, 1], [0, 0], d, 1 / 24, 1)[0]) for _, d in styles}
    assert len(kept) == 8
    series = {name: [0] + [(k - 3.5) * 200 * (j % 3 + 1) for j in range(1, 7)] for k, name in enumerate(POOL)}
    series = {n: [int(y) for y in ys] for n, ys in series.items()}
    chart = line_chart(series, "Season totals", "night", color=False, width=60)
    assert "\x1b[" not in chart
    assert max(map(len, chart.splitlines())) <= 60
    for (marker, _), name in zip(styles, POOL, strict=True):
        assert f"{marker} {name}" in chart, name                        # the label: her marker and name
        plot = re.sub("|".join(POOL + ["Season totals", "night"]), "", chart)
        assert plot.count(marker) > 1, marker                           # and her line drawn with it


def test_the_season_chart_goes_night_by_night_through_the_cli(tmp_path):
    nights, _, _ = CASES["a player at two tables in one night counted once"]
    paths = make(tmp_path, nights)
    r = subprocess.run([sys.executable, "-m", "mjscore", "season", *(p.name for p in paths), "--chart"],
                       capture_output=True, timeout=120, cwd=tmp_path, env=dict(os.environ, COLUMNS="60", NO_COLOR="1"))
    out = r.stdout.decode()
    assert r.returncode == 0, r.stderr
    assert out.startswith("Season: 2 nights, 3 evenings, 3 hands, 7 players\n")
    assert max(map(len, out.splitlines())) <= 60
    chart = out.split("Season totals", 1)[1]
    assert "night" in chart
    labels = {n: re.search(rf"(\S) {n} ", chart) for n in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus")}
    assert all(labels.values()), labels
    assert len({m.group(1) for m in labels.values() if m}) == 7                 # each her own marker


def test_end_to_end_json_through_the_cli(tmp_path):
    nights, table, _ = CASES["two tables in one night"]
    paths = make(tmp_path, nights)
    r = subprocess.run([sys.executable, "-m", "mjscore", "season", *map(str, paths), "--format", "json"],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    plain = json.loads(r.stdout)
    assert [n["name"] for n in plain["nights"]] == ["thu"]
    assert plain["nights"][0]["won_or_lost"] == table["thu"]
    assert [len(n["files"]) for n in plain["nights"]] == [2]
    assert plain["stake"] is None and plain["money"] == [] and Decimal(0) == 0
