"""The stake (issue 29, item 5): what a point is worth in money, declared once beside the other
settings, and every settle-up and won-or-lost shown in money too, to the cent, a half cent up, in
`session`, `add`, `batch`'s end rows, the API and the page's JSON; without one, nothing changes."""

import csv
import decimal
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import mjscore
from mjscore.cli import app
from mjscore.evening.session import settle_up
from mjscore.io.notation import parse_table, print_table
from mjscore.model.money import BadStake, Stake, with_money
from mjscore.model.settings import BY_NAME
from mjscore.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
SESSION = ROOT / "sample_hands" / "evening-session.mj"
runner = CliRunner()
HAND = "E: score 40 win self; S: score 8; W: ...; N: ..."
EUR = Stake(Decimal("0.05"), "EUR")
# The sample evening's end (tests/test_session.py): Ann +898, Dee +100, Cid -182, Bob -816.
SETTLED_IN_EUR = ["  Bob pays Ann 816 (EUR 40.80)", "  Cid pays Dee 100 (EUR 5.00)", "  Cid pays Ann 82 (EUR 4.10)"]


# -- reading a stake ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,per_point,currency,written", [
    ("0.05", "0.05", None, "0.05"),
    ("0.05 EUR", "0.05", "EUR", "0.05 EUR"),
    ("1", "1", None, "1"),
    ("0.125 GBP", "0.125", "GBP", "0.125 GBP"),
    ("0.0001", "0.0001", None, "0.0001"),          # the finest: 4 decimal places
    ("10000 JPY", "10000", "JPY", "10000 JPY"),    # the most a point may be worth
    ("0.050", "0.05", None, "0.05"),               # trailing zeros are no places
    ("2.5000", "2.5", None, "2.5"),
    ("007 USD", "7", "USD", "7 USD"),
])
def test_a_stake_is_read_from_its_text_and_written_back_as_it_was_meant(text, per_point, currency, written):
    stake = Stake.read(text)
    assert (stake.per_point, stake.currency) == (Decimal(per_point), currency)
    assert str(stake) == written
    assert stake.as_dict() == {"per_point": per_point, "currency": currency}
    assert Stake.from_plain(stake.as_dict()) == stake


@pytest.mark.parametrize("text,message,word", [
    ("", "takes an amount a point (0.05, or 0.05 EUR)", 0),
    ("abc", "takes an amount a point (0.05, or 0.05 EUR), not 'abc'", 0),
    ("0", "takes an amount above 0", 0),
    ("0.00", "takes an amount above 0", 0),
    ("-0.05", "takes an amount above 0", 0),
    ("0,05", "takes its amount with a decimal point (0.05), not '0,05'", 0),
    (".05", "not '.05'", 0),
    ("1e-2", "not '1e-2'", 0),
    ("NaN", "not 'NaN'", 0),
    ("inf", "not 'inf'", 0),
    ("0.00001", "takes at most 4 decimal places, not 0.00001", 0),
    ("10000.01", "takes at most 10,000 a point, not 10000.01", 0),
    ("0.05 eur", "takes a currency of three capital letters (EUR, USD, GBP), not 'eur' (capitals: EUR)", 1),
    ("0.05 EURO", "not 'EURO'", 1),
    ("0.05 €", "not '€'", 1),
    ("0.05 EUR a point", "takes an amount a point and a currency, nothing more", 2),
    ("EUR 0.05", "not 'EUR'", 0),
    ("٠.٠٥", "takes an amount a point", 0),       # digits, but not ASCII ones
])
def test_a_wrong_stake_says_what_is_wrong_and_at_which_word(text, message, word):
    with pytest.raises(BadStake) as e:
        Stake.read(text)
    assert message in e.value.message and e.value.word == word


@pytest.mark.parametrize("made", [lambda: Stake(Decimal(0)), lambda: Stake(Decimal("0.00001")),
                                  lambda: Stake(Decimal("1"), "eur"), lambda: Stake(0.05),
                                  lambda: Stake(Decimal("NaN"))])
def test_a_stake_made_in_python_is_checked_as_one_read_from_text(made):
    with pytest.raises(BadStake):
        made()


@pytest.mark.parametrize("header,column,token,message", [
    ("stake 0.05 eur", 12, "eur", "'stake' takes a currency of three capital letters"),
    ("stake  abc EUR", 8, "abc", "'stake' takes an amount a point (0.05, or 0.05 EUR), not 'abc'"),
    ("stake 0.05 EUR x", 16, "x", "'stake' takes an amount a point, with a currency if you like"),
    ("stake", 1, "stake", "'stake' takes an amount a point, with a currency if you like (0.05, or 0.05 EUR)"),
    ("stake 0", 7, "0", "'stake' takes an amount above 0"),
])
def test_a_wrong_stake_in_a_header_names_its_file_line_column_and_word(header, column, token, message):
    with pytest.raises(mjscore.NotationError) as e:
        parse_table(f"# a table\n{header}\nE: score 10 win self", "t.mj")
    where = e.value.location
    assert (where.file, where.line, where.column, e.value.token) == ("t.mj", 2, column, token)
    assert message in e.value.message


def test_a_stake_header_reads_and_prints_back():
    text = "stake 0.05 EUR\nE: score 10 win self\n"
    table = parse_table(text)
    assert dict(table.options) == {"stake": EUR}
    assert print_table(table) == text


@pytest.mark.parametrize("value,expected", [
    ("0.05 EUR", EUR), (0.05, Stake(Decimal("0.05"))), (1, Stake(Decimal(1))),
    (Decimal("0.05"), Stake(Decimal("0.05"))), (Decimal("1E+1"), Stake(Decimal(10))), (EUR, EUR),
])
def test_a_stake_given_in_python_or_a_scheme_is_its_text_or_a_number_or_a_stake(value, expected):
    assert BY_NAME["stake"].check(value, "stake") == expected


@pytest.mark.parametrize("value,message", [
    (True, "stake: takes an amount a point (0.05, or '0.05 EUR'), not True"),
    ([0.05], "stake: takes an amount a point"),
    ("0.05 eur", "stake: takes a currency of three capital letters"),
    (0.00001, "stake: takes an amount a point"),         # the float's text is 1e-05
    (-1, "stake: takes an amount above 0"),
])
def test_a_wrong_stake_given_in_python_is_a_setting_error(value, message):
    with pytest.raises(mjscore.SettingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        mjscore.score(HAND, stake=value)


@pytest.mark.parametrize("command", [["score", "-e", HAND], ["session", str(SESSION)], ["batch", str(SESSION)],
                                     ["add", "never-made.mj", "--players", "A", "B", "C", "D", "-e", HAND]])
@pytest.mark.parametrize("flag,said", [("abc", "the stake takes an amount a point"), ("0.05 eur", "capitals: EUR"),
                                       ("0", "the stake takes an amount above 0"), ("0.05 EUR x", "nothing more")])
def test_a_wrong_stake_flag_is_a_wrong_command_line(command, flag, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, [*command, "--stake", flag])
    assert r.exit_code == 2, r.stdout
    assert "Invalid value for '--stake'" in r.stderr and said in r.stderr
    assert not (tmp_path / "never-made.mj").exists()


# -- money, to the cent ------------------------------------------------------------------------

@pytest.mark.parametrize("stake,points,money", [
    ("0.05", 596, "29.80"),
    ("0.05", 597, "29.85"),
    ("0.05", -597, "-29.85"),
    ("0.05", 0, "0.00"),
    ("0.125", 1, "0.13"),           # 0.125: a half cent, up
    ("0.125", 3, "0.38"),           # 0.375
    ("0.125", -3, "-0.38"),         # a loss mirrors the gain it pays
    ("0.125", 4, "0.50"),
    ("0.333", 3, "1.00"),           # 0.999
    ("0.333", 1, "0.33"),
    ("0.3333", 3, "1.00"),          # 0.9999
    ("0.005", 1, "0.01"),           # half a cent: up
    ("0.0049", 1, "0.00"),
    ("0.0001", 49, "0.00"),
    ("0.0001", 50, "0.01"),
    ("0.0001", -49, "0.00"),        # never -0.00
    ("0.0001", -50, "-0.01"),
    ("1", 816, "816.00"),
    ("10000", 10 ** 15, "10000000000000000000.00"),     # the largest of everything: still exact
])
def test_money_is_the_points_times_the_stake_to_the_cent_a_half_going_up(stake, points, money):
    assert Stake.read(stake).money_text(points) == money
    assert Stake.read(stake).money(points) == Decimal(money)


def test_money_does_not_depend_on_the_callers_decimal_context():
    with decimal.localcontext(decimal.Context(prec=3, rounding=decimal.ROUND_DOWN, traps=[decimal.Inexact])):
        assert Stake.read("0.05").money_text(597) == "29.85"
        assert Stake.read("0.125").money_text(123456) == "15432.00"


@pytest.mark.parametrize("points,money,currency,signed,shown", [
    (596, "29.80", "EUR", False, "596 (EUR 29.80)"),
    (596, "29.80", None, False, "596 (29.80)"),
    (-596, "-29.80", "EUR", True, "-596 (EUR -29.80)"),
    (596, "29.80", "EUR", True, "+596 (EUR +29.80)"),
    (0, "0.00", "EUR", True, "+0 (EUR +0.00)"),
    (-596, "-29.80", None, True, "-596 (-29.80)"),
])
def test_points_and_their_money_are_shown_one_way(points, money, currency, signed, shown):
    assert with_money(points, money, currency, signed) == shown
    assert Stake(Decimal("0.05"), currency).shown(points, signed) == shown


balances = st.lists(st.integers(-10 ** 6, 10 ** 6), min_size=3, max_size=3).map(lambda b: b + [-sum(b)])


@settings(max_examples=300, deadline=None)
@given(balances, st.decimals(Decimal("0.0001"), Decimal(100), places=4), st.booleans())
def test_the_settle_ups_money_adds_up_to_each_players_won_or_lost(balance, per_point, whole_cents):
    """The points settle exactly (every transfer's money is paid and received once). In money,
    each figure is rounded on its own: with a stake of whole cents there is nothing to round, and
    each player's transfers add up to her won or lost exactly; with a finer stake, to within half
    a cent a figure rounded."""
    if whole_cents:
        per_point = per_point.quantize(Decimal("0.01"), rounding=decimal.ROUND_UP)
    stake = Stake(per_point)
    names = ["Ann", "Bob", "Cid", "Dee"]
    by_name = dict(zip(names, balance))
    transfers = settle_up(by_name)
    for name in names:
        paid = [t for t in transfers if name in (t.payer, t.payee)]
        money = sum((stake.money(t.amount) if t.payee == name else -stake.money(t.amount) for t in paid), Decimal(0))
        points = sum(t.amount if t.payee == name else -t.amount for t in paid)
        assert points == by_name[name]
        slack = Decimal(0) if whole_cents else Decimal("0.005") * (len(paid) + 1)
        assert abs(money - stake.money(by_name[name])) <= slack, (name, transfers)


# -- one stake an evening -------------------------------------------------------------------

def test_a_hand_may_not_give_its_own_stake(tmp_path):
    evening = tmp_path / "evening.mj"
    evening.write_text("players Ann Bob Cid Dee\nstake 0.05\n---\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n"
                       "---\nstake 0.10\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n")
    r = runner.invoke(app, ["session", str(evening)])
    assert r.exit_code == 1
    assert (f"{evening}:9:1: error: hand 2 gives its own stake: the stake is the whole evening's, given in the "
            "session's header (or --stake), not in a hand's") in r.stderr


def test_a_later_hand_cannot_change_the_evenings_stake(tmp_path):
    evening = tmp_path / "evening.mj"
    runner.invoke(app, ["add", str(evening), "--players", "Ann", "Bob", "Cid", "Dee", "-e", HAND])
    before = evening.read_text()
    r = runner.invoke(app, ["add", str(evening), "--stake", "0.05", "-e", HAND])
    assert r.exit_code == 1
    assert "the evening's header already stands: --stake is for a new file (edit the header to change it)" in r.stderr
    assert evening.read_text() == before


def test_a_wrong_stake_in_a_yaml_session_names_its_line_and_column(tmp_path):
    evening = tmp_path / "evening.yaml"
    evening.write_text("players: [Ann, Bob, Cid, Dee]\nstake: 0.05 eur\nhands:\n  - draw\n")
    with pytest.raises(mjscore.MjError) as e:
        mjscore.play_session(evening)
    assert (e.value.location.line, e.value.location.column) == (2, 8)
    assert "'stake' takes a currency of three capital letters" in e.value.message
