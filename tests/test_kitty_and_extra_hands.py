"""Special payments: the kitty, the extra-hand bonus and counted hands, self-drawn, under each
payoff and paying method, carried through a session and round-tripped."""

import pytest

import mjscore


COUNTED = "E: score 100 win self; S: score 0; W: score 0; N: score 0"


def _specials(text, **options):
    r = mjscore.score(text, scheme="classical", paying=options.pop("paying", "winner-only"), **options)
    paid = {}
    for p in r.payments:
        if p.reason in ("kitty", "extra-hands"):
            paid[p.reason, p.payer.value] = paid.get((p.reason, p.payer.value), 0) + p.amount
    return paid, r.settlement


SESSION16 = """players Ann Bob Cy Di
kitty 100
extra-hand-bonus 10
---
E: [111p] 222s 333m EEE 99s win 9s self; S: ...; W: ...; N: ...
---
draw
---
E: [123p] 456s 333m 789m 99s win 9s from S; S: ...; W: ...; N: ...
---
S: [111p] 222s 333m EEE 99s win 9s from E; E: ...; W: ...; N: ...
"""


@pytest.mark.parametrize("header,paid", [
    # Three deals' stakes in the kitty (two before this one): each other player's 300 go to the winner.
    ("kitty 100; kitty-deals 2", {("kitty", "S"): 300, ("kitty", "W"): 300, ("kitty", "N"): 300}),
    ("kitty 100", {("kitty", "S"): 100, ("kitty", "W"): 100, ("kitty", "N"): 100}),
    # The extra-hand bonus, 2 extra hands x 25: each loser pays it once, never doubled for East.
    ("extra-hand-bonus 25; extra-hands 2", {("extra-hands", "S"): 50, ("extra-hands", "W"): 50,
                                           ("extra-hands", "N"): 50}),
    ("extra-hand-bonus 25", {}),                                  # not an extra hand: nothing
])
def test_special_payments_self_drawn(header, paid):
    got, s = _specials(f"{header}; {COUNTED}")
    assert got == paid
    assert sum(s.net.values()) == 0
    assert s.net[mjscore.Wind.EAST] == 600 + sum(paid.values())     # 200 from each loser, and the specials


@pytest.mark.parametrize("payoff,how,paid", [
    # On a discard: a scheme that does not penalise the discarder has every loser pay the bonus;
    # one whose discarder pays for all has him pay all three; one whose discarder pays for himself
    # only has him pay his own.
    ("chinese-classical", "from W", {"S": 30, "W": 30, "N": 30}),
    ("chinese-modern", "from W", {"S": 30, "W": 30, "N": 30}),
    ("japanese", "from W", {"W": 90}),
    ("official", "from W", {"W": 30}),
    ("chinese-classical", "from W liable N", {"N": 90}),
])
def test_extra_hand_bonus_follows_the_payoff(payoff, how, paid):
    text = f"extra-hand-bonus 30; extra-hands 1; E: score 100 win {how}; S: score 0; W: score 0; N: score 0"
    got, s = _specials(text, payoff=payoff)
    assert got == {("extra-hands", seat): amount for seat, amount in paid.items()}
    assert sum(s.net.values()) == 0


def test_the_kitty_goes_only_to_the_hand_it_asks_for():
    pungs = "kitty 100; kitty-hand no-chow; E: [111m] 444m 999p 11s 222s win 2s self; S: ...; W: ...; N: ..."
    chows = "kitty 100; kitty-hand no-chow; E: [123m] 456m 789p 11s 234s win 4s self; S: ...; W: ...; N: ..."
    got, s = _specials(pungs)
    assert got == {("kitty", "S"): 100, ("kitty", "W"): 100, ("kitty", "N"): 100}
    got, s = _specials(chows)
    assert got == {} and s.specials[0].to is None and "does not earn 'no-chow'" in s.specials[0].why
    with pytest.raises(mjscore.MjError, match="kitty-hand names no rule of scheme 'classical': 'no-such-rule'"):
        mjscore.score("kitty 100; kitty-hand no-such-rule; " + COUNTED, scheme="classical")
    r = mjscore.score("kitty 100; kitty-hand no-chow; " + COUNTED, scheme="classical")
    assert r.settlement is None and "counted at the table" in r.settlement_error


def test_add_up_credits_the_stated_sum():
    # Under add-up the special payment is the sum itself, not multiplied by the number of payers.
    r = mjscore.score(f"kitty 100; kitty-deals 1; extra-hand-bonus 25; extra-hands 2; {COUNTED}",
                      scheme="classical", paying="add-up")
    assert r.net[mjscore.Wind.EAST] == 200 + 200 + 50                  # East's score doubled, kitty, bonus
    assert r.net[mjscore.Wind.SOUTH] == 0


def test_a_draw_pays_nothing_and_the_kitty_stays():
    r = mjscore.score("draw; kitty 100; extra-hand-bonus 25; extra-hands 1; E: ...; S: ...; W: ...; N: ...",
                      scheme="classical")
    assert r.payments == () and [x.to for x in r.settlement.specials] == [None, None]


def test_a_session_carries_the_kitty_and_the_extra_hands():
    s = mjscore.play_session(SESSION16, scheme="classical")
    seen = [[(x.kind, x.count, x.amount, x.to.value if x.to else None) for x in h.result.settlement.specials]
            for h in s.hands]
    assert seen == [
        [("kitty", 1, 300, "E")],                                   # Ann, East, wins: the first deal's stakes
        [("kitty", 1, 0, None), ("extra-hands", 1, 0, None)],        # a draw on Ann's extra hand: the kitty stays
        [("kitty", 2, 600, "E")],                                   # the deal passed (classical): Bob wins it
        [("kitty", 1, 300, "S"), ("extra-hands", 1, 30, "S")],       # Bob's extra hand; Cy, South, wins
    ]
    assert sum(s.totals.values()) == 4 * 2000
    # Under dmjl a draw does not pass the deal: after a win and a draw, Ann deals her second
    # extra hand, and the kitty holds the draw's stakes.
    two = mjscore.play_session(SESSION16.rsplit("---\nE: [123p]", 1)[0], scheme="dmjl").to_dict()["next"]
    assert (two["dealer"], two["extra_hands"], two["kitty_deals"]) == ("Ann", 2, 1)
    with pytest.raises(mjscore.MjError, match="says extra-hands 3"):
        mjscore.play_session(SESSION16.replace("---\ndraw", "---\nextra-hands 3\ndraw"), scheme="classical")


def test_the_counters_and_options_round_trip():
    from mjscore.io.notation import parse_table, print_table

    text = ("kitty-deals 2\nextra-hands 1\nkitty 100\nkitty-hand no-chow\nextra-hand-bonus 25\n"
            "E: score 10 win self\n")
    t = parse_table(text)
    assert (t.kitty_deals, t.extra_hands, t.option("kitty"), t.option("kitty_hand")) == (2, 1, 100, "no-chow")
    assert parse_table(print_table(t)) == t
    yaml_form = ("kitty_deals: 2\nextra-hands: 1\nkitty: 100\nkitty_hand: no-chow\nextra_hand_bonus: 25\n"
                 "players:\n  E: score 10 win self\n")
    assert mjscore.parse(yaml_form, name="t.yaml") == [t]


@pytest.mark.parametrize("settlement,fragment", [
    ("{kitty: -5}", "settlement.kitty: takes a whole number"),
    ("{kitty_hand: nothing-like-it}", "settlement.kitty_hand: no rule 'nothing-like-it'"),
    ("{extra_hand_bonus: 1.5}", "settlement.extra_hand_bonus: takes a whole number"),
])
def test_scheme_settings_are_checked(tmp_path, settlement, fragment):
    house = tmp_path / "house.yaml"
    house.write_text(f"scheme: house\nextends: classical\nsettlement: {settlement}\n")
    with pytest.raises(mjscore.SchemeError, match=fragment):
        mjscore.load_scheme(house)


def test_a_scheme_may_play_a_kitty(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nsettlement: {kitty: 50, kitty_hand: no-chow}\n")
    r = mjscore.score("E: [111m] 444m 999p 11s 222s win 2s self; S: ...; W: ...; N: ...", scheme=house)
    assert [(x.kind, x.amount) for x in r.settlement.specials] == [("kitty", 150)]

