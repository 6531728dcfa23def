"""Payments at their edges: payoff tables refused, rounding to a unit, draws under add-up, East's
run and double, penalties listed apart, the winds' round after North: each test here failed
against at least one mutant of the modules that decide money (tools/mutate.py)."""

import pytest

import mjscore
from mjscore.model.errors import SchemeError
from tests.conftest import house


FULL = ("east-self-drawn: {others: 1}, other-self-drawn: {east: 1, others: 1}, east-on-discard: {discarder: 1}, "
        "other-on-east-discard: {discarder: 1}, other-on-other-discard: {discarder: 1}")


def test_a_session_goes_round_the_winds_again_after_the_north_round():
    hands = ["E: score 0\nS: score 10 win self\nW: score 0\nN: score 0"] * 18     # the deal passes every hand
    text = "players A B C D\n---\n" + "\n---\n".join(hands)
    s = mjscore.play_session(text)
    rounds = [h.result.table.round.value for h in s.hands]
    assert rounds == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4 + ["E"] * 2
    assert [h.dealer for h in s.hands[15:18]] == ["D", "A", "B"]


def test_the_settlement_lists_its_penalties_apart():
    r = mjscore.score("penalty W 100 to S; penalty N 50; E: score 40 win self; S: score 0; W: score 0; N: score 0")
    d = r.to_dict()["settlement"]
    assert d["penalties"] == [{"from": "W", "to": "S", "amount": 100}, {"from": "N", "to": "E", "amount": 50},
                              {"from": "N", "to": "S", "amount": 50}, {"from": "N", "to": "W", "amount": 50}]
    assert all(p in d["payments"] for p in d["penalties"])
    assert d["net"] == {"E": 40 * 6 + 50, "S": -80 + 100 + 50, "W": -80 - 100 + 50, "N": -80 - 150}


@pytest.mark.parametrize("payoffs,fragment", [
    ("odd: {east_double: none}", "a payoff has a 'table'"),
    ("odd: {table: {" + FULL.replace("others: 1}", "banker: 1}", 1) + "}}", "banker"),
    ("odd: {table: {" + FULL.split(", other-on-other")[0] + "}}", "other-on-other-discard: missing"),
    ("odd: {table: {" + FULL + ", last-tile: {others: 1}}}", "unknown situation"),
    ("odd: {table: {" + FULL + "}, colour: red}", "unknown key"),
    ("odd: {east_double: sometimes, table: {" + FULL + "}}", "east_double: takes one of"),
    ("[odd]", "payoffs is a mapping"),
])
def test_payoff_tables_with_an_unknown_role_or_no_table_are_refused(tmp_path, payoffs, fragment):
    with pytest.raises(SchemeError, match=fragment):
        mjscore.load_scheme(house(tmp_path, f"settlement:\n  payoffs:\n    {payoffs}\n"))


@pytest.mark.parametrize("unit,amounts", [(2, {"S": 2, "W": 2, "N": 2}), (10, {"S": 10, "W": 10, "N": 10})])
def test_payments_rounded_up_to_any_unit(unit, amounts):
    r = mjscore.score("E: score 0; S: score 1 win self; W: score 0; N: score 0", paying="winner-only",
                      east_double=False, round_payments_up=unit)
    assert {p.payer.value: p.amount for p in r.payments} == {"E": amounts["S"], "W": amounts["W"], "N": amounts["N"]}


def test_an_add_up_draw_adds_nothing():
    r = mjscore.score("draw; E: ...; S: ...", paying="add-up")
    assert r.net == {mjscore.Wind.EAST: 0, mjscore.Wind.SOUTH: 0, mjscore.Wind.WEST: 0, mjscore.Wind.NORTH: 0}
    s = mjscore.play_session("players A B C D\npaying add-up\n---\ndraw\n---\nE: score 10 win self\nS: score 2\n"
                             "W: score 0\nN: score 0\n")
    # classical: a draw passes the deal, so B is East (doubled) and C South in hand 2
    assert s.totals == {"A": 2000, "B": 2020, "C": 2002, "D": 2000} and not s.errors


def test_a_draw_restarts_easts_run_of_wins():
    win = "E: [123m] [456m] [789p] 11s 234s win 4s self"
    s = mjscore.play_session("players A B C D\nscheme dmjl\npaying winner-only\n---\n" +
                             "\n---\n".join(["draw"] + [win] * 9))
    limits = [h.number for h in s.hands if h.result.player("E") and h.result.player("E").limit]
    assert limits == [10]                       # the ninth win after the draw, not the eighth


@pytest.mark.parametrize("text,options,applies", [
    ("E: score 10 win self; S: score 0; W: score 0; N: score 0", {"paying": "winner-only"}, True),
    ("E: score 10 win self; S: score 0; W: score 0; N: score 0", {"paying": "winner-only", "payoff": "chinese-modern"},
     False),
    ("S: score 10 win from W liable W; E: score 0; W: score 0; N: score 0",
     {"paying": "between-all", "payoff": "japanese"}, False),
    ("draw; penalty E 10", {"paying": "between-all"}, False),
])
def test_east_double_is_said_to_apply_only_where_it_can_change_a_figure(text, options, applies):
    assert mjscore.score(text, **options).to_dict()["settlement"]["east_double_applies"] is applies

