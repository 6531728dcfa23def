"""Money adds up at any stake (issue 39, item 4): each player's money is the sum of the money of
her payments, each payment rounded to the cent on its own (as it is handed over), so that the
money of an evening's settle-up, or of a table's payments, sums to each player's and to zero;
and a loss that rounds to nothing is never shown with a plus."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.evening.session import Transfer, money_so_far
from mjscore.model.money import Stake, with_money
from tests.strategies import stakes

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
NAMES = ["Ann", "Bob", "Cid", "Dee"]
NOTHING = Decimal("0.00")


def signed_sum(payments, who):
    """What `who` receives less what she pays, in money (each payment's `money` as written)."""
    return sum((Decimal(p["money"]) * (1 if p["to"] == who else -1) for p in payments if who in (p["from"], p["to"])),
               NOTHING)


# -- the property: at any stake -----------------------------------------------------------------

penalties = st.lists(st.tuples(st.sampled_from("ESWN"), st.integers(1, 50), st.none() | st.sampled_from("ESWN")),
                     max_size=2)
hands = st.lists(st.tuples(st.sampled_from("ESWN") | st.none(),            # the winner (None: a draw)
                           st.lists(st.integers(0, 300), min_size=4, max_size=4), penalties),
                 min_size=1, max_size=5)


def hand_text(winner, scores, pens):
    lines = [f"penalty {payer} {amount}" + (f" to {to}" if to not in (None, payer) else "")
             for payer, amount, to in pens]
    if winner is None:
        return "\n".join(["draw", *lines])
    return "\n".join(lines + [f"{seat}: score {s}" + (" win self" if seat == winner else "")
                              for seat, s in zip("ESWN", scores, strict=True)])


@settings(max_examples=150, deadline=None)
@given(hands, stakes, st.sampled_from(["between-all", "winner-only"]))
def test_an_evenings_money_is_the_money_of_its_settle_up_and_sums_to_zero(played_hands, stake, paying):
    text = "players Ann Bob Cid Dee\n" + "".join(f"---\n{hand_text(*h)}\n" for h in played_hands)
    evening = mjscore.play_session(text, stake=str(stake), paying=paying).to_dict()
    settle = evening["settle_up"]
    for t in settle:
        assert t["money"] == stake.money_text(t["amount"])
    for s in evening["standings"]:
        own = signed_sum(settle, s["name"])
        assert Decimal(s["money"]) == Decimal(evening["money"][s["name"]]) == own
        won = s["total"] - evening["start"]
        assert Decimal(s["money"]) * won >= 0, (s, "a loss is never money received, nor a gain money paid")
    assert sum(Decimal(m) for m in evening["money"].values()) == 0
    for hand in evening["hands"]:
        s = hand["settlement"]
        with_money_of = [{**p, "money": stake.money_text(p["amount"])} for p in s["payments"]]
        assert {seat: Decimal(m) for seat, m in s["money"].items()} == {
            seat: signed_sum(with_money_of, seat) for seat in s["net"]}
        assert sum(Decimal(m) for m in s["money"].values()) == 0


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.integers(-10 ** 6, 10 ** 6), min_size=4, max_size=4), stakes)
def test_the_won_or_lost_after_a_hand_is_the_money_the_settle_up_would_hand_over(balance, stake):
    """`add`'s and `session --hand`'s "Won or lost:": were the evening to end there."""
    balance["Dee"] -= sum(balance.values())                     # an evening of payments sums to zero
    money = money_so_far(stake, balance)
    assert sum(money.values()) == 0
    transfers = mjscore.evening.session.settle_up(balance)
    for name in NAMES:
        assert money[name] == sum((stake.money(t.amount) * (1 if t.payee == name else -1)
                                   for t in transfers if name in (t.payer, t.payee)), NOTHING)


# -- figures worked out by hand -----------------------------------------------------------------

@pytest.mark.parametrize("stake,nets,payments,money", [
    # The issue's: a penalty of 1 to each of three at 0.005 a point is three payments of 0.01.
    ("0.005", {"A": -3, "B": 1, "C": 1, "D": 1}, [("A", "B", 1), ("A", "C", 1), ("A", "D", 1)],
     {"A": "-0.03", "B": "0.01", "C": "0.01", "D": "0.01"}),
    # Each payment rounded on its own: 0.0049 is nothing, however many.
    ("0.001", {"A": -3, "B": 1, "C": 1, "D": 1}, [("A", "B", 1), ("A", "C", 1), ("A", "D", 1)],
     {"A": "0.00", "B": "0.00", "C": "0.00", "D": "0.00"}),
    # A stake of whole cents: the points times the stake, as before.
    ("0.05", {"A": -816, "B": 816}, [("A", "B", 816)], {"A": "-40.80", "B": "40.80"}),
    # Points no payment carries (an added-up hand's): at the stake as they stand.
    ("0.005", {"A": 3, "B": -1}, [], {"A": "0.02", "B": "-0.01"}),
    ("0.005", {"A": 4, "B": -3, "C": 0}, [("B", "A", 1)], {"A": "0.03", "B": "-0.02", "C": "0.00"}),
])
def test_a_players_money_is_the_sum_of_her_payments_money(stake, nets, payments, money):
    got = Stake.read(stake).settled(nets, [Transfer(*p) for p in payments])
    assert {k: f"{m:f}" for k, m in got.items()} == money


@pytest.mark.parametrize("points,money,signed,shown", [
    (-3, "0.00", True, "-3 (EUR -0.00)"),           # a loss that rounds to nothing: never a plus
    (3, "0.00", True, "+3 (EUR +0.00)"),
    (0, "0.00", True, "+0 (EUR +0.00)"),
    (-3, "-0.03", True, "-3 (EUR -0.03)"),
    (-3, "0.00", False, "-3 (EUR 0.00)"),           # unsigned (an amount paid): as written
])
def test_money_that_rounds_to_nothing_is_signed_as_its_points(points, money, signed, shown):
    assert with_money(points, money, "EUR", signed) == shown


# -- the command line ---------------------------------------------------------------------------

def evening(tmp_path, stake, *hands):
    f = tmp_path / "evening.mj"
    f.write_text(f"players Ann Bob Cid Dee\nstake {stake}\n" + "".join(f"---\n{h}\n" for h in hands))
    return str(f)


@pytest.mark.parametrize("stake,hand,standing,settle", [
    ("0.005 EUR", "draw\npenalty Ann 1", "Ann          1997  -3 (EUR -0.03)", "Ann pays Bob 1 (EUR 0.01)"),
    ("0.001 EUR", "draw\npenalty Bob 1", "Bob          1997  -3 (EUR -0.00)", "Bob pays Ann 1 (EUR 0.00)"),
    ("0.05 EUR", "draw\npenalty Ann 1", "Ann          1997  -3 (EUR -0.15)", "Ann pays Bob 1 (EUR 0.05)"),
])
def test_session_shows_each_players_money_as_her_transfers_add_it_up(tmp_path, stake, hand, standing, settle):
    r = runner.invoke(app, ["session", evening(tmp_path, stake, hand)], env=WIDE)
    assert r.exit_code == 0, r.output
    lines = [line.strip() for line in r.stdout.splitlines()]
    assert any(line.endswith(standing) for line in lines), r.stdout
    assert settle in lines
    assert "-3 (EUR +" not in r.stdout


@pytest.mark.parametrize("args,line", [
    (["score", "-e", "draw; penalty E 1", "--stake", "0.005 EUR"],
     "Net in money:  East -3 (EUR -0.03)  South +1 (EUR +0.01)  West +1 (EUR +0.01)  North +1 (EUR +0.01)"),
    (["score", "-e", "draw; penalty E 1", "--stake", "0.001 EUR"],
     "Net in money:  East -3 (EUR -0.00)  South +1 (EUR +0.00)  West +1 (EUR +0.00)  North +1 (EUR +0.00)"),
])
def test_score_shows_each_seats_money_as_its_payments_add_it_up(args, line):
    r = runner.invoke(app, args, env=WIDE)
    assert r.exit_code == 0, r.output
    assert line in r.stdout.splitlines()


def test_add_and_session_hand_say_the_won_or_lost_as_the_standings_do(tmp_path):
    f = str(tmp_path / "evening.mj")
    r = runner.invoke(app, ["add", f, "--players", *NAMES, "--stake", "0.005 EUR", "-e", "draw; penalty Ann 1"],
                      env=WIDE)
    assert r.exit_code == 0, r.output
    said = "Ann -3 (EUR -0.03)  Bob +1 (EUR +0.01)  Cid +1 (EUR +0.01)  Dee +1 (EUR +0.01)"
    assert f"Won or lost:  {said}" in r.stdout.splitlines()
    r = runner.invoke(app, ["session", f, "--hand", "1"], env=WIDE)
    assert f"Won or lost after it:  {said}" in r.stdout.splitlines()


def test_a_batchs_end_row_says_the_money_of_the_settle_up(tmp_path):
    f = evening(tmp_path, "0.005 EUR", "draw\npenalty Ann 1")
    r = runner.invoke(app, ["batch", f, "--format", "csv"], env=WIDE)
    assert r.exit_code == 0, r.output
    ann = next(line for line in r.stdout.splitlines() if ",end," in line and ",Ann," in line)
    assert "in all -3 (EUR -0.03)" in ann
