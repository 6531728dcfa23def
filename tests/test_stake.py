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
    by_name = dict(zip(names, balance, strict=True))
    transfers = settle_up(by_name)
    for name in names:
        paid = [t for t in transfers if name in (t.payer, t.payee)]
        money = sum((stake.money(t.amount) if t.payee == name else -stake.money(t.amount) for t in paid), Decimal(0))
        points = sum(t.amount if t.payee == name else -t.amount for t in paid)
        assert points == by_name[name]
        slack = Decimal(0) if whole_cents else Decimal("0.005") * (len(paid) + 1)
        assert abs(money - stake.money(by_name[name])) <= slack, (name, transfers)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ESWN"), st.lists(st.integers(0, 300), min_size=4, max_size=4)),
                min_size=1, max_size=6),
       st.decimals(Decimal("0.0001"), Decimal(5), places=4))
def test_an_evenings_money_is_its_points_at_the_stake(hands, per_point):
    """Whatever the evening: each transfer's money is its amount's at the stake, each standing's
    the sum of her transfers' (issue 39: the money adds up), each hand's seat's the sum of its
    payments'; every one a string of the decimal (tests/test_money_adds_up.py: at any stake)."""
    stake = Stake(per_point)
    text = "players Ann Bob Cid Dee\n" + "".join(
        "---\n" + "\n".join(f"{seat}: score {s}" + (" win self" if seat == winner else "")
                            for seat, s in zip("ESWN", scores, strict=True)) + "\n" for winner, scores in hands)
    played = mjscore.play_session(text, stake=str(stake)).to_dict()
    assert played["stake"] == {"per_point": str(stake), "currency": None}
    for t in played["settle_up"]:
        assert t["money"] == stake.money_text(t["amount"])
    for s in played["standings"]:
        own = sum((Decimal(t["money"]) * (1 if t["to"] == s["name"] else -1)
                   for t in played["settle_up"] if s["name"] in (t["from"], t["to"])), Decimal("0.00"))
        assert s["money"] == played["money"][s["name"]] == f"{abs(own) if own.is_zero() else own:f}"
    for hand in played["hands"]:
        settlement = hand["settlement"]
        own = {seat: Decimal("0.00") for seat in settlement["net"]}
        for p in settlement["payments"]:
            own[p["from"]] -= stake.money(p["amount"])
            own[p["to"]] += stake.money(p["amount"])
        assert settlement["money"] == {seat: f"{abs(m) if m.is_zero() else m:f}" for seat, m in own.items()}


# -- the command line --------------------------------------------------------------------------

def lines(text):
    return text.splitlines()


def test_session_shows_the_standings_and_the_settle_up_in_money():
    r = runner.invoke(app, ["session", str(SESSION), "--stake", "0.05 EUR"])
    assert r.exit_code == 0, r.stderr
    out = lines(r.stdout)
    at = out.index("Final standings")
    assert out[at:at + 7] == ["Final standings",
                              "  place  player      total        won or lost",
                              "-------  --------  -------  -----------------",
                              "      1  Ann          2898  +898 (EUR +44.90)",
                              "      2  Dee          2100   +100 (EUR +5.00)",
                              "      3  Cid          1818   -182 (EUR -9.10)",
                              "      4  Bob          1184  -816 (EUR -40.80)"]
    settle = out.index("Settle-up (3 transfers):")
    assert out[settle + 1:settle + 4] == SETTLED_IN_EUR
    # The hands' lines are points only, as without a stake.
    plain = runner.invoke(app, ["session", str(SESSION)]).stdout
    assert lines(plain)[:at] == out[:at]


def test_without_a_currency_the_money_stands_alone():
    r = runner.invoke(app, ["session", str(SESSION), "--stake", "0.05"])
    assert "  Bob pays Ann 816 (40.80)" in lines(r.stdout)
    assert "      1  Ann          2898  +898 (+44.90)" in lines(r.stdout)


def test_a_stake_in_the_sessions_header_is_the_same_as_the_flag(tmp_path):
    text = SESSION.read_text()
    evening = tmp_path / "evening.mj"
    evening.write_text(text.replace("start 2000\n", "start 2000\nstake 0.05 EUR\n"))
    by_header = runner.invoke(app, ["session", str(evening)])
    by_flag = runner.invoke(app, ["session", str(SESSION), "--stake", "0.05 EUR"])
    assert by_header.exit_code == 0, by_header.stderr
    assert by_header.stdout.replace(str(evening), "X") == by_flag.stdout.replace(str(SESSION), "X")
    again = runner.invoke(app, ["session", str(evening)])       # read back from the evening's checkpoint
    assert again.stdout == by_header.stdout
    # The flag wins over the header, as for every setting.
    dollars = runner.invoke(app, ["session", str(evening), "--stake", "0.10 USD"]).stdout
    assert "  Bob pays Ann 816 (USD 81.60)" in lines(dollars)


@pytest.mark.parametrize("line,stake", [("stake: 0.05 EUR", EUR), ("stake: 0.05", Stake(Decimal("0.05"))),
                                        ("stake: 1", Stake(Decimal(1)))])
def test_a_yaml_sessions_stake_is_read_as_the_decimal_it_was_written_as(tmp_path, line, stake):
    yaml_text = (ROOT / "sample_hands" / "evening-session.yaml").read_text()
    evening = tmp_path / "evening.yaml"
    evening.write_text(yaml_text.replace("start: 2000\n", f"start: 2000\n{line}\n"))
    played = mjscore.play_session(evening)
    assert played.stake == stake
    assert played.to_dict()["settle_up"][0]["money"] == stake.money_text(816)


def test_a_wrong_stake_in_a_yaml_session_names_its_line_and_column(tmp_path):
    evening = tmp_path / "evening.yaml"
    evening.write_text("players: [Ann, Bob, Cid, Dee]\nstake: 0.05 eur\nhands:\n  - draw\n")
    with pytest.raises(mjscore.MjError) as e:
        mjscore.play_session(evening)
    assert (e.value.location.line, e.value.location.column) == (2, 8)
    assert "'stake' takes a currency of three capital letters" in e.value.message


def test_a_stake_in_a_schemes_settlement_is_the_evenings_unless_the_header_says_otherwise(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nsettlement: {stake: 0.05}\n")
    evening = tmp_path / "evening.mj"
    evening.write_text(SESSION.read_text().replace("scheme classical", "scheme house.yaml"))
    played = mjscore.play_session(evening)
    assert played.stake == Stake(Decimal("0.05"))
    assert played.to_dict()["settle_up"][0] == {"from": "Bob", "to": "Ann", "amount": 816, "money": "40.80"}
    evening.write_text(evening.read_text().replace("start 2000\n", "start 2000\nstake 1 GBP\n"))
    assert mjscore.play_session(evening).to_dict()["stake"] == {"per_point": "1", "currency": "GBP"}
    wrong = tmp_path / "wrong.yaml"          # (a scheme file is read once a process: a file of its own)
    wrong.write_text("scheme: house\nextends: classical\nsettlement: {stake: 0.05 eur}\n")
    with pytest.raises(mjscore.SchemeError, match="settlement.stake: takes a currency of three capital letters"):
        mjscore.load_scheme(wrong)


@pytest.mark.usefixtures("unwrapped")
def test_a_hand_may_not_give_its_own_stake(tmp_path):
    evening = tmp_path / "evening.mj"
    evening.write_text("players Ann Bob Cid Dee\nstake 0.05\n---\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n"
                       "---\nstake 0.10\nE: score 40 win self\nS: ...\nW: ...\nN: ...\n")
    r = runner.invoke(app, ["session", str(evening)])
    assert r.exit_code == 1
    assert (f"{evening}:9:1: error: hand 2 gives its own stake: the stake is the whole evening's, given in the "
            "session's header (or --stake), not in a hand's") in r.stderr


@pytest.mark.usefixtures("unwrapped")
def test_add_writes_the_stake_into_a_new_evenings_header_and_shows_each_won_or_lost_in_money(tmp_path):
    evening = tmp_path / "evening.mj"
    r = runner.invoke(app, ["add", str(evening), "--players", "Ann", "Bob", "Cid", "Dee", "--stake", "0.05 EUR",
                            "-e", "E: score 40 win self; S: score 8; W: score 0; N: score 12"])
    assert r.exit_code == 0, r.stderr
    assert evening.read_text().startswith("players Ann Bob Cid Dee\nstake 0.05 EUR\n---\n")
    out = lines(r.stdout)
    assert out[-4:] == ["Net:  Ann +240  Bob -76  Cid -100  Dee -64",
                        "Totals:  Ann 2240  Bob 1924  Cid 1900  Dee 1936",
                        "Won or lost:  Ann +240 (EUR +12.00)  Bob -76 (EUR -3.80)  Cid -100 (EUR -5.00)  Dee -64 "
                        "(EUR -3.20)",
                        "Next: Hand 2: Ann deals, East round (Ann deals again: East's win keeps the deal, "
                        "extra hand 1)"]
    r = runner.invoke(app, ["add", str(evening), "-e", "E: score 0; S: score 8; W: score 20 win from E; N: score 12",
                            "--format", "json"])
    added = json.loads(r.stdout)
    assert added["stake"] == {"per_point": "0.05", "currency": "EUR"}
    assert added["money"] == {"Ann": "8.00", "Bob": "-4.20", "Cid": "-1.00", "Dee": "-2.80"}
    assert added["standings"][0] == {"name": "Ann", "total": 2160, "money": "8.00"}
    assert added["settle_up"][0] == {"from": "Bob", "to": "Ann", "amount": 84, "money": "4.20"}
    assert added["hand"]["settlement"]["stake"] == {"per_point": "0.05", "currency": "EUR"}
    assert added["hand"]["settlement"]["money"] == {"E": "-4.00", "S": "-0.40", "W": "4.00", "N": "0.40"}
    r = runner.invoke(app, ["undo", str(evening)])
    assert "      1  Ann          2240  +240 (EUR +12.00)" in lines(r.stdout)
    assert "  Cid pays Ann 100 (EUR 5.00)" in lines(r.stdout)


@pytest.mark.usefixtures("unwrapped")
def test_a_later_hand_cannot_change_the_evenings_stake(tmp_path):
    evening = tmp_path / "evening.mj"
    runner.invoke(app, ["add", str(evening), "--players", "Ann", "Bob", "Cid", "Dee", "-e", HAND])
    before = evening.read_text()
    r = runner.invoke(app, ["add", str(evening), "--stake", "0.05", "-e", HAND])
    assert r.exit_code == 1
    assert "the evening's header already stands: --stake is for a new file (edit the header to change it)" in r.stderr
    assert evening.read_text() == before


def test_serve_and_the_api_start_an_evening_with_its_stake(tmp_path):
    assert "--stake" in runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "200"}).stdout
    evening = mjscore.Evening(tmp_path / "evening.mj")
    assert evening.start(("Ann", "Bob", "Cid", "Dee"), stake="0.05 EUR")
    assert (tmp_path / "evening.mj").read_text() == "players Ann Bob Cid Dee\nstake 0.05 EUR\n---\n"
    assert evening.play().stake == EUR


def test_batch_gives_a_sessions_end_in_money():
    r = runner.invoke(app, ["batch", str(SESSION), "--stake", "0.05 EUR"])
    assert r.exit_code == 0, r.stderr
    end = json.loads(r.stdout.splitlines()[-1])
    assert end["stake"] == {"per_point": "0.05", "currency": "EUR"}
    assert end["money"] == {"Ann": "44.90", "Bob": "-40.80", "Cid": "-9.10", "Dee": "5.00"}
    assert [s["money"] for s in end["standings"]] == ["44.90", "5.00", "-9.10", "-40.80"]
    assert [(t["amount"], t["money"]) for t in end["settle_up"]] == [(816, "40.80"), (100, "5.00"), (82, "4.10")]
    r = runner.invoke(app, ["batch", str(SESSION), "--stake", "0.05 EUR", "--format", "csv"])
    rows = [row for row in csv.DictReader(io.StringIO(r.stdout)) if row["hand"] == "end"]
    assert {row["name"]: (row["net"], row["settle_up"]) for row in rows} == {
        "Ann": ("898", "receives 816 (EUR 40.80) from Bob; receives 82 (EUR 4.10) from Cid; in all +898 (EUR +44.90)"),
        "Bob": ("-816", "pays Ann 816 (EUR 40.80); in all -816 (EUR -40.80)"),
        "Cid": ("-182", "pays Dee 100 (EUR 5.00); pays Ann 82 (EUR 4.10); in all -182 (EUR -9.10)"),
        "Dee": ("100", "receives 100 (EUR 5.00) from Cid; in all +100 (EUR +5.00)")}


def test_batch_in_workers_gives_the_same_money(tmp_path):
    # Enough tables for the workers to take them (evening.batch.CHUNK), the session among them.
    tables = tmp_path / "tables.mj"
    tables.write_text("---\n".join([HAND.replace("; ", "\n") + "\n"] * 70))
    one = runner.invoke(app, ["batch", str(tables), str(SESSION), "--stake", "0.05 EUR", "-j", "1"]).stdout
    two = runner.invoke(app, ["batch", str(tables), str(SESSION), "--stake", "0.05 EUR", "-j", "2"]).stdout
    assert one == two and '"money": {"E": "12.00", "S": "-3.20", "W": "-4.40", "N": "-4.40"}' in one


@pytest.mark.usefixtures("unwrapped")
def test_score_shows_each_net_in_money():
    r = runner.invoke(app, ["score", "-e", HAND, "--stake", "0.125"])
    assert r.exit_code == 0, r.stderr
    assert lines(r.stdout)[-1] == ("Net in money:  East +240 (+30.00)  South -64 (-8.00)  West -88 (-11.00)  "
                                   "North -88 (-11.00)")
    r = runner.invoke(app, ["score", "-e", HAND, "--stake", "0.125", "-f", "json"])
    settlement = json.loads(r.stdout)["settlement"]
    assert settlement["stake"] == {"per_point": "0.125", "currency": None}
    assert settlement["money"] == {"E": "30.00", "S": "-8.00", "W": "-11.00", "N": "-11.00"}


@pytest.mark.parametrize("command", [["session", str(SESSION)], ["session", str(SESSION), "-f", "json"],
                                     ["batch", str(SESSION)], ["score", "-e", HAND, "-f", "json"]])
def test_without_a_stake_there_is_no_money_anywhere(command):
    out = runner.invoke(app, command).stdout
    assert '"money"' not in out and '"stake"' not in out and "(EUR" not in out


# -- the API and the page's JSON ---------------------------------------------------------------

def test_the_api_gives_the_money_as_strings_of_decimals():
    played = mjscore.play_session(SESSION, stake="0.05 EUR")
    assert played.stake == EUR
    d = played.to_dict()
    assert d["stake"] == {"per_point": "0.05", "currency": "EUR"}
    assert d["settle_up"] == [{"from": "Bob", "to": "Ann", "amount": 816, "money": "40.80"},
                              {"from": "Cid", "to": "Dee", "amount": 100, "money": "5.00"},
                              {"from": "Cid", "to": "Ann", "amount": 82, "money": "4.10"}]
    assert d["hands"][0]["settlement"]["money"] == {"E": "36.00", "S": "-11.80", "W": "-10.60", "N": "-13.60"}
    assert mjscore.play_session(SESSION, stake=EUR).to_dict() == d
    assert "stake" not in mjscore.play_session(SESSION).to_dict()


TOKEN = "t" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_the_pages_evening_and_standings_carry_the_money(tmp_path):
    path = tmp_path / "ev.mj"
    path.write_text(SESSION.read_text().replace("start 2000\n", "start 2000\nstake 0.05 EUR\n"))
    client = TestClient(create_app(str(path), TOKEN), base_url="http://127.0.0.1")
    standings = client.get("/api/standings", headers=AUTH).json()
    assert standings["stake"] == {"per_point": "0.05", "currency": "EUR"}
    assert standings["money"] == {"Ann": "44.90", "Bob": "-40.80", "Cid": "-9.10", "Dee": "5.00"}
    assert standings["standings"][-1] == {"name": "Bob", "total": 1184, "money": "-40.80"}
    assert standings["settle_up"][0] == {"from": "Bob", "to": "Ann", "amount": 816, "money": "40.80"}
    evening = client.get("/api/evening", headers=AUTH).json()
    assert {k: evening[k] for k in ("stake", "money", "standings", "settle_up")} == \
        {k: standings[k] for k in ("stake", "money", "standings", "settle_up")}
    assert evening["hands"][2]["settlement"]["money"] == {"E": "-14.00", "S": "12.00", "W": "6.60", "N": "-4.60"}
    score = client.post("/api/score", headers={**AUTH, "Content-Type": "application/json"},
                        json={"text": HAND, "settings": {"stake": "0.05 EUR"}}).json()
    assert score["settlement"]["money"]["E"] == "12.00"
