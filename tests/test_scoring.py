"""Scoring beyond the conformance files: rule by rule, the score model, schemes, properties."""

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.hand.shapes import counts_of
from mjscore.io.notation import parse_table
from mjscore.model.errors import IncompleteHandError, SchemeError
from mjscore.model.tiles import Wind
from mjscore.pipeline import evaluate
from mjscore.rules.scheme import load_scheme
from mjscore.scoring.score import score_table

runner = CliRunner()


def player(text, seat="E", scheme="classical"):
    t = parse_table(text)
    return score_table(t, load_scheme(scheme)).player(Wind(seat))


def rules_of(p):
    return {i.rule for i in p.items}


# -- one rule at a time, under classical ----------------------------------------------------------

@pytest.mark.parametrize("text,seat,rule", [
    ("E: [CCC] ...", "E", "dragon-pung"),
    ("S: [SSS] ...", "S", "own-wind-pung"),
    ("round W\nS: [WWW] ...", "S", "prevailing-wind-pung"),
    ("E: [123m] [456m] [789p] 11s 222s win 2s self", "E", "self-drawn"),
    ("E: [123m] [456m] [789p] 11s 234s win 3s from S", "E", "only-possible"),
    ("E: [111m] [456m] [999p] 11s 222s win 2s from S", "E", "mahjong"),
    ("E: [111m] [444m] [999p] 11s 222s win 2s from S", "E", "no-chow"),
    ("E: 123m 456m 789p 11s 234s win 4s self", "E", "concealed-hand"),
    ("E: [123m] [456m] [789m] EE 222m win 2m from S", "E", "one-suit-with-honours"),
    ("E: [123m] [456m] [789m] 11m 222m win 2m from S", "E", "one-suit"),
    ("E: [111m] [999p] [EEE] 11s NNN win N from S", "E", "only-majors"),
    ("E: (5555p) 123m 456m 789m 11s win 1s self loose", "E", "loose-tile"),
    ("E: [123m] [456m] [789p] 11s 222s win 2s self last", "E", "last-tile"),
    ("E: [123m] [456m] [789p] 11s 222s win 2s from S last", "E", "last-discard"),
    ("E: [123m] [456m] [789p] 11s 234s win 3s from S robbed", "E", "robbing-kong"),
    ("E: [123m] [456m] [789p] 11s 234s win 3s self original-call", "E", "original-call"),
])
def test_each_rule_applies(text, seat, rule):
    assert rule in rules_of(player(text, seat))


@pytest.mark.parametrize("text,limit", [
    ("E: 123m 456m 789p 11s 234s win 4s self heaven", "Blessing of Heaven"),
    ("S: 123m 456m 789p 11s 234s win 4s from E earth", "Blessing of Earth"),
    ("E: 19m 19p 19s ESWN CFP C win C from S", "Thirteen Orphans"),
    ("E: 11123455678999m win 5m self", "Nine Gates"),
    ("E: [EEE] [SSS] [CCC] PP NNN win N from S", "All honours"),
    ("E: [111m] [999m] [111p] 99p 999s win 9s from S", "Heads and Tails"),
    ("E: [1111m] [2222p] [3333s] (4444m) EE win E from S", "Fourfold Plenty (four kongs)"),
    ("E: [CCC] [FFF] [123m] 55m PPP win P from S", "Three Great Scholars"),
    ("S: [EEE] [SSS] [WWW] 11m NNN win N from E", "Four Blessings Hovering over the Door"),
    ("E: [234s] [666s] 888s FFF 22s win 2s from S", "Imperial Jade"),
    ("E: 111m 999p 555s 222s 88p win 2s self", "Four concealed pungs, self-drawn"),
    ("E: (1111m) 456s 789s 345p 55p win 5p self loose", "Gathering the Plum Blossom from the Roof"),
    ("E: [123m] [456m] [789s] 11s 123p win 1p self last", "Plucking the Moon from the Bottom of the Sea"),
    ("E: [123m] [456m] [789s] 11p 123s win 2s from S robbed", "Scratching a Carrying Pole"),
    ("E: (1111m) (2222m) 456s 78s 9s 55p win 9s self twofold", "Twofold Fortune"),
])
def test_each_limit_hand(text, limit):
    p = player(text, text[0])
    assert p.limit == limit
    assert p.score == 1000


# -- the score model (reference/scoring.md section 2) ------------------------------------------

def test_reference_example_loser_east_dmjl_and_bmja():
    text = "round E\nE: [EEE] [SSS] NNN C [WWWW]"
    dmjl = player(text, scheme="dmjl")
    assert (dmjl.points, dmjl.doubles, dmjl.score, dmjl.best.base) == (32, 4, 500, 512)
    bmja = player(text, scheme="bmja")
    assert bmja.score == 400 and bmja.limit == "Calling for Only Honors"


def test_fraction_counts_only_when_it_beats_the_points():
    # 40 points, 5 doubles = 1280 > 400: the calling value is ignored and the limit caps the points
    p = player("round E\nE: [EEEE] 2p CCC FFF PPP", scheme="bmja")
    assert (p.points, p.doubles, p.score, p.limit) == (40, 5, 1000, None)
    assert any(i.rule == "calling-three-great-scholars" for i in p.best.ignored)


def test_roof_off_and_rounding_from_a_house_scheme(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: dmjl\nroof_off: true\n"
                     "rounding: {mode: nearest, unit: 10, stage: after-doubles}\n")
    text = "round E\nE: [EEE] [SSS] NNN C [WWWW]"
    assert player(text, scheme=str(house)).score == 510      # 512, roof off, rounded to 10


def test_full_limit_replaces_everything():
    p = player("E: 19m 19p 19s ESWN CFP C 1f 2f win C from S")
    assert p.score == 1000 and [i.rule for i in p.items] == ["thirteen-orphans"]
    assert {i.rule for i in p.best.ignored} >= {"flower"}


def test_winning_tile_from_a_discard_exposes_its_set():
    p = player("E: [123m] [456m] [789p] 11s 222s win 2s from S")
    assert "[222s]" in p.best.arrangement.text()
    assert ("exposed-pung", "[222s]") in {(i.rule, i.applies_to) for i in p.items}
    q = player("E: [123m] [456m] [789p] 11s 222s win 2s self")
    assert ("concealed-pung", "222s") in {(i.rule, i.applies_to) for i in q.items}


def test_best_set_for_the_winning_tile_is_chosen():
    # 1m completes the pair 11m (pair of terminals) or the chow 123m; dmjl pays 4 for the pair
    p = player("E: [EEE] [111p] [999s] 11123m win 1m self", scheme="dmjl")
    assert "pair-of-majors" in rules_of(p) and p.points == 38


def test_four_undeclared_tiles_are_a_pung_and_a_single():
    p = player("E: 111m 446p 222s EEEE", scheme="dmjl")
    assert (p.points, p.doubles) == (20, 3)
    assert "EEE" in p.best.arrangement.text()


def test_bmja_winner_with_two_chows_is_an_input_error():
    t = parse_table("E: [123m] [456m] [789p] 11s 222s win 2s self")
    with pytest.raises(IncompleteHandError, match="more chows than the 1"):
        evaluate(t, "bmja").to_dict()


def test_draw_values_every_hand_and_pays_nothing():
    with open("sample_hands/draw.mj") as f:
        t = parse_table(f.read())
    r = evaluate(t).to_dict()
    # round N: E [EEE] 4 + CC 2, own wind x2 = 12; S [333s] 2 + FF 2 = 4;
    # W NNN 8 + PP 2, prevailing wind x2 = 20; N (7777p) 16 + two bonus tiles 8 = 24
    assert [(p["points"], p["doubles"], p["score"]) for p in r["players"]] == \
        [(6, 1, 12), (4, 0, 4), (10, 1, 20), (24, 0, 24)]
    assert r["settlement"]["payments"] == [] and set(r["settlement"]["net"].values()) == {0}


# -- schemes ---------------------------------------------------------------------------------

SHIPPED = ["classical", "dmjl", "bmja", "kajongg-dmjl", "kajongg-bmja"]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_schemes_load_and_say_where_values_come_from(name):
    s = load_scheme(name)
    assert s.sources and s.description and s.limit > 0
    assert all(r.text for r in s.rules)


@pytest.mark.parametrize("body,fragment", [
    ("scheme: x\nlimit: 500\nsets: {}\nfoo: 1\n", "foo: unknown key"),
    ("scheme: x\nlimit: five\n", "limit: takes a whole number"),
    ("scheme: x\nextends: classical\nrules:\n  - {id: r1, points: 2, doubles: 1}\n", "exactly one of points"),
    ("scheme: x\nextends: classical\nrules:\n  - {id: r1, when: {colour: red}, points: 2}\n",
     "when.colour: unknown condition"),
    ("scheme: x\nextends: classical\nrules:\n  - {id: r1, when: {sets: {tiles: purple}}, points: 2}\n", "takes one of"),
    ("scheme: x\nextends: classical\nrules:\n  - {id: r1, scope: everyone, points: 2}\n", "scope: takes one of"),
    ("scheme: x\nextends: classical\nrules:\n  - {id: nope, remove: true}\n", "cannot remove 'nope'"),
    ("scheme: x\nextends: classical\nrules:\n  - {id: r1, limit: 2}\n", "fraction of the limit"),
    ("scheme: x\nextends: classical\nsets: {pung: {simple: [2]}}\n", "sets.pung.simple"),
    ("scheme: x\nextends: classical\nshapes: [standard, triangles]\n", "'triangles' is not a shape"),
    ("scheme: x\nextends: no-such-scheme\n", "no scheme named 'no-such-scheme'"),
    ("scheme: x\nextends: classical\nsettlement: {paying: everybody}\n", "settlement.paying"),
    ("[1, 2\n", "YAML"),
])
def test_broken_scheme_files_name_the_key(tmp_path, body, fragment):
    path = tmp_path / "house.yaml"
    path.write_text(body)
    with pytest.raises(SchemeError) as info:
        load_scheme(str(path))
    assert fragment in str(info.value)
    assert "house.yaml" in str(info.value) or "no-such-scheme" in str(info.value)


def test_house_rules_copied_from_classical_with_two_values_changed(tmp_path):
    with open("schemes/classical.yaml") as f:
        text = f.read()
    text = text.replace("scheme: classical", "scheme: our-club")
    text = text.replace("bonus_tile_points: 4", "bonus_tile_points: 8")
    text = re.sub(r"(id: mahjong,.*points: )20", r"\g<1>30", text)
    house = tmp_path / "our-club.yaml"
    house.write_text(text)
    table = "E: [123m] [456m] [789p] 11s 234s 1f win 4s from S"
    base = player(table)
    ours = player(table, scheme=str(house))
    assert ours.points == base.points + 4 + 10


def test_scheme_header_in_the_table_is_used_and_command_line_wins():
    t = parse_table("scheme dmjl\nE: [CCC] 1f ...")
    assert evaluate(t).to_dict()["scheme"] == "dmjl"
    assert evaluate(t, "bmja").to_dict()["scheme"] == "bmja"


# -- the command line ----------------------------------------------------------------------------

def test_score_json_has_the_stable_fields():
    r = runner.invoke(app, ["score", "sample_hands/win-on-discard.mj", "--format", "json"])
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    assert {"scheme", "round", "winner", "players", "settlement"} <= set(d)
    for p in d["players"]:
        assert {"seat", "winner", "points", "doubles", "limit", "score", "items", "arrangement"} <= set(p)
    assert [p["seat"] for p in d["players"]] == ["E", "S", "W", "N"]


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv", "json"])
def test_every_sample_scores_in_every_format(fmt):
    from conftest import table_samples

    for path in map(str, table_samples()):
        r = runner.invoke(app, ["score", path, "--format", fmt])
        assert r.exit_code == 0, (path, r.stderr)
        assert r.stdout.strip()


def test_table_output_is_a_breakdown_a_player_can_check():
    r = runner.invoke(app, ["score", "sample_hands/east-self-drawn.mj"])
    out = r.stdout
    assert "East - winner" in out and "Total:" in out and "Payments" in out and "net" in out


def test_explain_shows_the_runner_up():
    r = runner.invoke(app, ["score", "-e", "E: 111222333m 11p 456s win 3m self", "--explain", "--format", "json"])
    p = json.loads(r.stdout)["players"][0]
    assert p["runner_up"] is not None and p["runner_up"]["score"] <= p["score"]


def test_batch_reports_every_table_with_error_rows(tmp_path):
    f = tmp_path / "mixed.mj"
    with open("sample_hands/east-self-drawn.mj") as sample:
        good = sample.read()
    f.write_text(good + "---\nE: 12x\n---\n" + good + "---\nE: 123m win 5p self\n")
    r = runner.invoke(app, ["batch", str(f)])
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 4 and r.exit_code == 1
    assert ["error" in x for x in lines] == [False, True, False, True]
    assert lines[1]["line"] == 8 and "12x" in lines[1]["error"]


# -- properties ------------------------------------------------------------------------------

import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import random_table  # noqa: E402

SCHEMES = ["classical", "dmjl", "bmja"]


def generated(seed):
    return random_table(random.Random(seed))


def scored(seed, name):
    """A generated table the scheme accepts (BMJA: at most one chow), its scheme and its scores."""
    scheme = load_scheme(name)
    t = random_table(random.Random(seed), max_chows=scheme.max_chows)
    return t, scheme, score_table(t, scheme)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(SCHEMES))
def test_arrangement_uses_exactly_the_players_tiles(seed, name):
    t, scheme, ts = scored(seed, name)
    for hand, p in zip(t.players, ts.players, strict=True):
        used = [i for b in p.best.arrangement.blocks for i in b.tiles]
        assert counts_of(used) == counts_of(hand.all_tiles())


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(SCHEMES))
def test_items_add_up_to_the_score(seed, name):
    t, scheme, ts = scored(seed, name)
    for p in ts.players:
        if p.best.limit_rule is None:
            assert sum(i.points for i in p.items) == p.points
            assert sum(i.doubles for i in p.items) == p.doubles
            assert p.score == min(p.points * 2 ** p.doubles, scheme.limit)
        else:
            assert p.score == round(p.best.limit_rule.limit * scheme.limit)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.randoms(use_true_random=False))
def test_score_does_not_depend_on_the_order_tiles_are_written(seed, rnd):
    import dataclasses

    from mjscore.io.notation import player_text

    t = generated(seed)
    lines = [f"round {t.round.value}"]
    for hand in t.players:
        singles = [x.text for x in hand.concealed]
        rnd.shuffle(singles)
        rest = player_text(dataclasses.replace(hand, concealed=())).split(" win ")
        # concealed tiles one by one, in random order, among the groups and before the win clause
        lines.append(f"{hand.seat.value}: {' '.join(singles[:3])} {rest[0]} {' '.join(singles[3:])}"
                     + (f" win {rest[1]}" if len(rest) > 1 else ""))
    shuffled = parse_table("\n".join(lines))
    assert shuffled == t
    scheme = load_scheme("classical")
    a = [(p.score, p.best.arrangement.text()) for p in score_table(t, scheme).players]
    b = [(p.score, p.best.arrangement.text()) for p in score_table(shuffled, scheme).players]
    assert a == b


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(SCHEMES))
def test_adding_a_flower_never_lowers_a_score(seed, name):
    import dataclasses

    from mjscore.model.tiles import TILES

    t, scheme, before = scored(seed, name)
    held = {b for p in t.players for b in p.bonus}
    spare = [x for x in TILES[34:] if x not in held]
    if not spare:                    # all eight dealt: rare (each player gets at most two)
        return
    for n, hand in enumerate(t.players):
        more = dataclasses.replace(hand, bonus=tuple(sorted(hand.bonus + (spare[0],))))
        t2 = dataclasses.replace(t, players=t.players[:n] + (more,) + t.players[n + 1:])
        after = score_table(t2, scheme)
        assert after.players[n].score >= before.players[n].score
