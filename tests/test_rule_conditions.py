"""The conditions rules are built from, each at its edges (a count's bounds, a suit, a wait, the
green tiles, Nine Gates' ranges), and the limit: each test here failed against at least one
mutant of the scoring modules (tools/mutate.py)."""

import json

import pytest
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.model.errors import SchemeError
from tests.conftest import house


runner = CliRunner()


def east(text: str, scheme: str):
    return mjscore.score(text, scheme=scheme, paying="winner-only").player("E")


def _one_suit_losers(every: int):
    import itertools

    for counts in itertools.islice(itertools.product(range(5), repeat=9), 0, None, every):
        if sum(counts) == 13:
            yield "".join(str(i + 1) * c for i, c in enumerate(counts)) + "m"


@pytest.mark.parametrize("hand", ["1112345678999p 5p win 5p self", "1112345678999s 9s win 9s self",
                                  "1112345678999m 1m win 1m self", "1112345678999s 2s win 2s self"])
def test_nine_gates_in_every_suit(hand):
    p = east("E: " + hand, "dmjl")
    assert (p.limit, p.score) == ("Nine Gates", 500)


@pytest.mark.parametrize("hand", ["1112345678999p 5s win 5s self",        # the extra tile of another suit: no hand
                                  "111222333p 456p 99p win 9p self",        # one suit, but not the gates
                                  "[111p] 2345678999p 5p win 5p self"])     # 111 exposed
def test_near_nine_gates_is_not_nine_gates(hand):
    try:
        p = east("E: " + hand, "dmjl")
    except mjscore.TableError:
        return                                   # not even a winning hand
    assert p.limit != "Nine Gates"


def test_count_exactly(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: two-dragons, text: Two dragon pungs, when: {sets: {tiles: dragon, "
                        "count: {exactly: 2}}}, points: 100}\n")
    two = east("E: [CCC] [FFF] 234m 567s 11p win 1p self", s)
    three = east("E: [CCC] [FFF] [PPP] 567s 11p win 1p self", s)
    one = east("E: [CCC] 123p 234m 567s 11p win 1p self", s)
    assert "two-dragons" in {i.rule for i in two.items}
    assert "two-dragons" not in {i.rule for i in three.items} | {i.rule for i in one.items}


@pytest.mark.parametrize("hand,applies", [
    ("[123m] 456m 789m 111m 99m win 9m self", True),       # one suit, no honours
    ("[123m] 456m 789m EEE 99m win 9m self", True),        # one suit with honours
    ("[123m] 456m 789p 111m 99m win 9m self", False),      # two suits
    ("[EEE] [SSS] WWW NNN CC win C self", False),          # honours only: no numbered suit
])
def test_one_suit_any(tmp_path, hand, applies):
    s = house(tmp_path, "rules:\n  - {id: suited, text: One suit, when: {one_suit: any}, points: 100}\n")
    assert ("suited" in {i.rule for i in east("E: " + hand, s).items}) is applies


@pytest.mark.parametrize("param", ["{ignore_dead: true, colour: red}", "{dead: true}", "2", "'yes'"])
def test_only_possible_takes_only_true_or_ignore_dead(tmp_path, param):
    with pytest.raises(SchemeError, match="only_possible"):
        mjscore.load_scheme(house(tmp_path, f"rules:\n  - {{id: op, text: t, when: {{only_possible: {param}}}, "
                                            "points: 2}\n"))


def test_the_calling_value_of_a_loser_with_several_arrangements():
    # 1112223334445m is 111 222 333 444 5 or 123 123 123 444 5, and more: one tile (5m) from a
    # concealed one-suit pung hand, Buried Treasure, whichever way the tiles are read.
    r = mjscore.score("S: 1112223334445m; E: [111p] 222s 333p EEE 99s win 9s self", scheme="bmja",
                      paying="winner-only")
    south = r.player("S")
    assert (south.limit, south.score) == ("Calling for Buried Treasure", 400)
    assert south.best.base < 400                       # the calling value beats the points


@pytest.mark.parametrize("scheme", ["bmja", "kajongg-bmja"])
def test_calling_rules_tested_by_their_needs_find_what_testing_them_in_full_finds(scheme):
    # The calling rules are tested against each completed arrangement's features first (as a
    # winner's rules are); with the index emptied every rule is tested in full, and each loser
    # must be valued the same both ways.
    import dataclasses

    from mjscore.io.notation import parse_table
    from mjscore.rules.scheme import load_scheme
    from mjscore.scoring.score import engine_for, forget, score_player

    rules = load_scheme(scheme)
    winner = "E: [111p] [222s] [333p] EE 999s win 9s from S"
    tables = [parse_table(f"{winner}\nS: {text}\nW: ...\nN: ...") for text in _one_suit_losers(7)]
    called = 0
    for table in tables:
        forget(rules)
        by_needs = score_player(table.players[1], table, rules).best
        forget(rules)
        engine = engine_for(rules)
        engine.index = dataclasses.replace(engine.index, winner_needs=frozenset())
        in_full = score_player(table.players[1], table, rules).best
        assert (by_needs.score, by_needs.items) == (in_full.score, in_full.items), table.players[1]
        called += any(i.rule.startswith("calling") for i in by_needs.items)
    forget(rules)
    assert len(tables) > 500 and called > 20


def test_a_full_limit_hand_is_worth_the_limit_even_when_its_points_are_worth_more(tmp_path):
    hand = "E: (EEEE) (SSSS) (WWWW) (NNNN) CC win C self"
    p = east(hand, "dmjl")
    assert p.best.base > 500 and (p.score, p.points, p.doubles) == (500, 0, 0)
    assert p.limit in {"Hidden Treasure", "Fourfold Plenty", "Four Blessings Hovering Over the Door"}
    assert [i.text for i in p.items] == [p.limit]
    roof_off = east(hand, house(tmp_path, "roof_off: true\n", base="dmjl"))
    assert (roof_off.score, roof_off.limit) == (500, p.limit)       # exactly the limit, not the points


def test_roof_off_lets_points_pass_the_limit(tmp_path):
    hand = "E: (CCCC) (FFFF) [EEEE] 111m 99p win 9p self"
    capped = east(hand, "classical")
    free = east(hand, house(tmp_path, "roof_off: true\n"))
    assert free.limit is None and free.score == free.points * 2 ** free.doubles > 1000
    assert capped.score <= 1000


@pytest.mark.parametrize("hand,text", [
    ("E: [EEE] 234m 567s 789p 11s win 1s self", "Exposed pung of honours"),
    ("E: EEE 234m 567s 789p 11s win 1s self", "Concealed pung of honours"),
    ("E: [111m] 234m 567s 789p 11s win 1s self", "Exposed pung of terminals"),
    ("E: [555m] 234m 567s 789p 11s win 1s self", "Exposed pung"),
    ("E: (CCCC) 234m 567s 789p 11s win 1s self", "Concealed kong of honours"),
])
def test_set_items_say_what_the_set_is(hand, text):
    p = east(hand, "classical")
    assert text in [i.text for i in p.items]


def test_the_cli_json_names_the_items_as_the_api_does():
    r = runner.invoke(app, ["score", "-e", "E: [EEE] 234m 567s 789p 11s win 1s self", "--format", "json"])
    items = json.loads(r.stdout)["players"][0]["items"]
    assert {"rule": "exposed-pung", "text": "Exposed pung of honours", "applies_to": "[EEE]", "points": 4} in items


def test_all_greens_counts_the_two_of_bamboo():
    assert east("E: [234s] [666s] [888s] [FFF] 22s win 2s self", "dmjl").limit == "All Greens"


def test_a_wind_is_never_a_terminal():
    d = mjscore.score("E: [111m] 999m 111p 999s EE win E from S", scheme="dmjl", paying="winner-only").to_dict()
    rules = {i["rule"] for i in d["players"][0]["items"] + d["players"][0].get("not_counted", [])}
    assert "only-majors" in rules and "heads-and-tails" not in rules


def test_a_concealed_hand_of_honours_only_is_no_gates_of_any_suit():
    p = east("E: EEE SSS WWW NNN CC win C self", "dmjl")
    assert p.score == 500 and p.limit != "Nine Gates"


def test_all_four_seasons():
    p = east("E: [111m] [222p] [999p] 123s EE 1y 2y 3y 4y win 1s self", "dmjl")
    assert "all-seasons" in {i.rule for i in p.items}
    q = east("E: [111m] [222p] [999p] 123s EE 1y 2y 3y win 1s self", "dmjl")
    assert "all-seasons" not in {i.rule for i in q.items}


def test_millington_counts_a_wait_that_is_dead_as_no_wait():
    text = "S: [111m] [222p] [999p] 123s EE win 1s from W; E: [4444s] ..."   # 4s, the other wait, all exposed
    dead_ignored = mjscore.score(text, scheme="millington", paying="winner-only").player("S")
    counted = mjscore.score(text, scheme="classical", paying="winner-only").player("S")
    assert "only-possible" in {i.rule for i in dead_ignored.items}
    assert "only-possible" not in {i.rule for i in counted.items}


@pytest.mark.parametrize("hand,gates", [
    ("1112345678999p 5p win 5p self", True),
    ("1112345678999p 1p win 1p self", False),      # the extra tile outside 2..8
    ("1112345678999p 9p win 9p self", False),
])
def test_nine_gates_with_a_range_for_the_extra_tile(tmp_path, hand, gates):
    s = house(tmp_path, "rules:\n  - {id: nine-gates, when: {nine_gates: {extra: [2, 8]}}}\n")
    assert (east("E: " + hand, s).limit == "Nine Gates") is gates


def test_nine_gates_with_concealed_ends_refuses_a_discarded_end_tile(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: nine-gates, when: {nine_gates: {concealed_ends: true}}}\n")
    assert east("E: 1112345678999p 1p win 1p self", s).limit == "Nine Gates"
    assert east("E: 1112345678999p 1p win 1p from S", s).limit != "Nine Gates"
    assert east("E: 1112345678999p 5p win 5p from S", s).limit == "Nine Gates"


def test_a_per_set_rule_for_exposed_sets_only(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: shown, text: Shown pung, per: set, when: {kind: pung, exposed: true}, "
                        "points: 100}\n")
    p = east("E: [555m] 777m 234s 567s 11p win 1p self", s)
    assert [i.applies_to for i in p.items if i.rule == "shown"] == ["[555m]"]


def test_a_count_with_an_unknown_key_names_it(tmp_path):
    with pytest.raises(SchemeError, match="unknown key 'most'"):
        mjscore.load_scheme(house(tmp_path, "rules:\n  - {id: r, text: t, when: {kongs: {most: 2}}, points: 2}\n"))


@pytest.mark.parametrize("tile,green", [("2s", True), ("3s", True), ("5s", False), ("F", True), ("C", False)])
def test_the_green_tile_class(tmp_path, tile, green):
    s = house(tmp_path, "rules:\n  - {id: green-win, text: Won on a green tile, when: {winning_tile_class: green}, "
                        "points: 50}\n")
    hands = {"2s": "[111m] [999p] 234s 567s 22s", "3s": "[111m] [999p] 234s 567s 33s",
             "5s": "[111m] [999p] 234s 666s 55s", "F": "[111m] [999p] 234s 567s FF",
             "C": "[111m] [999p] 234s 567s CC"}
    p = east(f"E: {hands[tile]} win {tile} self", s)
    assert ("green-win" in {i.rule for i in p.items}) is green


def test_only_possible_is_never_a_losers_item(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: op, text: Only possible, scope: every, when: {only_possible: true}, "
                        "points: 50}\n")
    r = mjscore.score("E: [111m] [999p] 234s 567s 22s win 2s self; S: 123m 456m 789m 1p 2p ...", scheme=s,
                      paying="winner-only")
    assert "op" not in {i.rule for i in r.player("S").items}


def test_nine_gates_with_concealed_ends_refuses_the_upper_end_too(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: nine-gates, when: {nine_gates: {concealed_ends: true}}}\n")
    assert east("E: 1112345678999s 9s win 9s from S", s).limit != "Nine Gates"
    assert east("E: 1112345678999s 9s win 9s self", s).limit == "Nine Gates"


def test_a_nine_is_no_simple(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: simple-set, text: A pung of simples, "
                        "when: {sets: {tiles: simple, count: 1}}, points: 50}\n")
    assert "simple-set" not in {i.rule for i in east("E: [999m] 123p 456p 789p 11s win 1s self", s).items}
    assert "simple-set" in {i.rule for i in east("E: [888m] 123p 456p 789p 11s win 1s self", s).items}


def test_the_seat_condition(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: east-bonus, text: East, scope: every, when: {seat: E}, points: 50}\n")
    r = mjscore.score("E: [888m] 123p 456p 789p 11s win 1s self; S: [555s] ...", scheme=s, paying="winner-only")
    assert "east-bonus" in {i.rule for i in r.player("E").items}
    assert "east-bonus" not in {i.rule for i in r.player("S").items}
    with pytest.raises(SchemeError, match="takes a wind"):
        mjscore.load_scheme(house(tmp_path, "rules:\n  - {id: x, text: t, when: {seat: Q}, points: 1}\n"))


@pytest.mark.parametrize("extra", ["[0, 9]", "[1, 10]", "[a, 9]", "[5]"])
def test_a_gates_range_is_two_ranks_from_1_to_9(tmp_path, extra):
    with pytest.raises(SchemeError, match="ranks 1 to 9"):
        mjscore.load_scheme(house(tmp_path,
                                  f"rules:\n  - {{id: nine-gates, when: {{nine_gates: {{extra: {extra}}}}}}}\n"))


def test_nine_gates_written_as_true(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: nine-gates, when: {nine_gates: true}}\n")
    assert east("E: 1112345678999p 1p win 1p self", s).limit == "Nine Gates"


def test_the_chows_condition(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: four-chows, text: Four chows, when: {chows: {exactly: 4}}, points: 50}\n")
    assert "four-chows" in {i.rule for i in east("E: [123m] 456m 789p 234s 11s win 1s self", s).items}
    assert "four-chows" not in {i.rule for i in east("E: [111m] 456m 789p 234s 11s win 1s self", s).items}


def test_a_count_with_only_a_lower_bound(tmp_path):
    s = house(tmp_path, "rules:\n  - {id: two-plus, text: Two pungs or more, when: {sets: {tiles: any, count: "
                        "{at_least: 2}}}, points: 50}\n")
    assert "two-plus" in {i.rule for i in east("E: [111m] [999p] 234s 567s 22s win 2s self", s).items}
    assert "two-plus" not in {i.rule for i in east("E: [111m] 123p 234s 567s 22s win 2s self", s).items}

