"""A club's night of several tables (issue 42, item 1): each table's evening, each player's won or
lost over the night (summed over her tables), and the night's settle-up across tables in the
fewest transfers, in money when the tables share a stake."""

import os
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjscore
from mjscore.evening.night import NightResult, night_files
from mjscore.evening.session import SessionResult, settle_up
from mjscore.model.errors import InputError
from mjscore.model.money import Stake

POOL = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
PAID = "E: score 40 win self\nS: score 0\nW: score 0\nN: score 0\n"       # East +240, each other -80
ADDED = "paying add-up\nE: score 20 win self\nS: score 4\nW: score 0\nN: score 0\n"


def table(players, nets, stake=None):
    """An evening's result with these won-or-losts (a zero-sum table settles in full)."""
    totals = {p: 2000 + n for p, n in zip(players, nets, strict=True)}
    return SessionResult(tuple(players), 2000, (), totals, tuple(settle_up(dict(zip(players, nets, strict=True)))),
                         stake=stake)


@st.composite
def nights(draw):
    """Two or three tables of four from eight players (some at two tables), each zero-sum."""
    count = draw(st.integers(2, 3))
    out = []
    for i in range(count):
        players = draw(st.permutations(POOL).map(lambda p: p[:4]))
        nets = draw(st.lists(st.integers(-3000, 3000), min_size=3, max_size=3))
        out.append((f"table-{i + 1}", table(players, [*nets, -sum(nets)], Stake(Decimal("0.05"), "EUR"))))
    return NightResult(tuple(out))


@settings(max_examples=150, deadline=None)
@given(nights())
def test_the_transfers_pay_each_player_her_night_and_no_more_than_players_less_one(night):
    transfers = night.settle_up
    balance = night.won_or_lost()
    paid = dict.fromkeys(balance, 0)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        paid[t.payer] -= t.amount
        paid[t.payee] += t.amount
    assert paid == balance                                      # every table settles in full here
    assert sum(balance.values()) == 0
    assert len(transfers) <= len(night.players) - 1
    # each player's night is the sum of her tables'
    for p in night.players:
        assert balance[p] == sum(r.won_or_lost(p) for _n, r in night.tables if p in r.players)
    plain = night.to_dict()
    assert sum(Decimal(t["money"]) for t in plain["settle_up"]) >= 0
    assert sum(Decimal(s["money"]) for s in plain["standings"]) == 0       # money sums to zero too
    for t in plain["settle_up"]:
        assert Decimal(t["money"]) == Stake(Decimal("0.05"), "EUR").money(t["amount"])


@pytest.mark.parametrize("stakes,money,note", [
    (("0.05 EUR", "0.05 EUR"), True, False),
    (("0.05 EUR", "0.10 EUR"), False, True),
    (("0.05 EUR", None), False, True),
    ((None, None), False, False),
])
def test_money_only_where_every_table_plays_at_one_stake(stakes, money, note):
    night = NightResult(tuple((f"t{i}", table(("Ann", "Bob", "Cid", "Dee") if i == 0 else ("Ann", "Eve", "Fay", "Gus"),
                                              [240, -80, -80, -80], s and Stake.read(s)))
                              for i, s in enumerate(stakes)))
    plain = night.to_dict()
    assert ("stake" in plain) is money
    assert all(("money" in t) is money for t in plain["settle_up"])
    assert all(("money" in s) is money for s in plain["standings"])
    assert any("different stakes" in n for n in plain.get("notes", [])) is note
    # Ann won 240 at both tables: 480 over the night, paid by the six others
    assert plain["standings"][0] == {"name": "Ann", "won_or_lost": 480, "tables": ["t0", "t1"],
                                     **({"money": "24.00"} if money else {})}
    assert sorted((t["from"], t["amount"]) for t in plain["settle_up"]) == [(p, 80) for p in
                                                                           ("Bob", "Cid", "Dee", "Eve", "Fay", "Gus")]


def test_a_player_is_one_player_however_her_name_is_written(tmp_path):
    night = NightResult((("a", table(("Ann", "Bob", "Cid", "Dee"), [240, -80, -80, -80])),
                         ("b", table(("ann", "Eve", "Fay", "Gus"), [-240, 80, 80, 80]))))
    assert night.won_or_lost()["Ann"] == 0 and "ann" not in night.won_or_lost()
    assert night.tables_of("ANN") == ["a", "b"]


def test_added_up_hands_stay_unsettled_at_night_as_at_their_table(tmp_path):
    one, two = tmp_path / "one.mj", tmp_path / "two.mj"
    one.write_text("players Ann Bob Cid Dee\n---\n" + PAID + "---\n" + ADDED)
    two.write_text("players Eve Fay Gus Hal\n---\n" + PAID)
    night = mjscore.play_night([one, two])
    # Ann +240 paid, +40 added: the night hands over the paid 240 only, as her table's settle-up does
    assert night.won_or_lost()["Ann"] == 280
    assert night.owed()["Ann"] == 240
    assert len(night.settle_up) == 6
    assert night.to_dict()["notes"] == ["the night's settle-up hands over what each table's own does: the added-up "
                                        "hands of one stay in the totals, unsettled"]


def test_the_nights_files_are_a_folders_evenings_no_link_followed(tmp_path):
    night = tmp_path / "night"
    night.mkdir()
    (night / "table-2.mj").write_text("players Eve Fay Gus Hal\n")
    (night / "table-1.yaml").write_text("players: [Ann, Bob, Cid, Dee]\n")
    (night / "notes.txt").write_text("x")
    (night / "sub.mj").mkdir()
    secret = tmp_path / "secret.mj"
    secret.write_text("players Ann Bob Cid Dee\n")
    os.symlink(secret, night / "planted.mj")
    assert night_files([str(night)]) == [("table-1", str(night / "table-1.yaml")),
                                        ("table-2", str(night / "table-2.mj"))]
    assert mjscore.night_tables([night / "table-2.mj", secret]) == [("table-2", str(night / "table-2.mj")),
                                                                    ("secret", str(secret))]


@pytest.mark.parametrize("files,message", [
    ((), "the night's folder holds no evening file (.mj, .yaml), one a table"),
    (("a/t.mj", "b/t.mj"), "two tables are named 't' (t.mj, t.mj): a table is named by its file's stem"),
])
def test_a_night_that_is_no_night_is_an_input_error(tmp_path, files, message):
    if not files:
        with pytest.raises(InputError) as e:
            night_files([str(tmp_path)])
    else:
        with pytest.raises(InputError) as e:
            night_files([str(Path(tmp_path, f)) for f in files])
    assert e.value.message == message


def test_the_night_of_one_evening_is_that_evening():
    night = mjscore.play_night(["sample_hands/evening-session.mj"])
    alone = mjscore.play_session(Path("sample_hands/evening-session.mj"))
    assert [t.as_dict() for t in night.settle_up] == [t.as_dict() for t in alone.settle_up]
    assert dict(night.standings()) == {n: alone.won_or_lost(n) for n in alone.players}
