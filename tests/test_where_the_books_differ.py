"""Where the rule books and engines differ, and the ruling each scheme follows: flags the tiles
cannot have, robbing a kong, who takes a discard two players want, East's double between
losers, the payoff schemes, Nine Gates won on an end tile, Kajongg's own readings."""

import pytest

import mjscore
from mjscore.model.errors import WinClauseError


A = "[CCC] 234m 678m 55p 789s"
B = "[111p] 345p 678s 99s 567m"


TABLE15 = "penalty E 10; penalty S 10; E: score 0; S: score 10 win self; W: score 0; N: score 0"


WINNER = "E: [111p] 222s 333m 99s 456m win 9s self"


WINNER_5P = "S: [CCC] 234m 678m 55p 789s 1f win 5p {how} discarded {tiles}"


KAJONGG_FIGURES = [
    # 8: Nine Gates on a discard is Kajongg's Squirming Snake; self-drawn it is Nine Gates
    ("kajongg-dmjl", "E: 1112345678999p 5p win 5p from S", "E", (0, 0, 500, "Squirming Snake")),
    ("kajongg-dmjl", "E: 1112345678999p 5p win 5p self", "E", (0, 0, 500, "Nine Gates")),
    # 13: Wriggling Snake self-drawn (on a discard Kajongg finds no winning hand: refused above)
    ("kajongg-bmja", "E: 11m 23456789m ESWN win N self", "E", (0, 0, 1000, "Wriggling Snake")),
    # 9: a loose tile of the group spoils Little Three Dragons / Little Four Joys
    ("kajongg-dmjl", f"{WINNER}; S: [CCC] [FFF] PP C 123m 4m", "S", (10, 2, 40, None)),
    ("kajongg-dmjl", f"{WINNER}; S: [CCC] [FFF] PP 123m 45m", "S", (10, 3, 80, None)),
    ("kajongg-dmjl", f"{WINNER}; S: [EEE] [SSS] [WWW] NN E 1m", "S", (12, 2, 48, None)),
    ("kajongg-dmjl", f"{WINNER}; S: [EEE] [SSS] [WWW] NN 12m", "S", (12, 3, 96, None)),
    # 10: Original Call with fewer than three exposed sets, the discard's set counted
    ("kajongg-dmjl", "E: [123m] [456m] 789p 11s 234s win 4s self original-call", "E", (22, 2, 88, None)),
    ("kajongg-dmjl", "E: [123m] [456m] [789p] 11s 234s win 4s self original-call", "E", (22, 1, 44, None)),
    ("kajongg-dmjl", "E: [123m] [456m] 789p 11s 234s win 4s from S original-call", "E", (20, 1, 40, None)),
    ("kajongg-bmja", "E: [111m] [444m] 999p 11s 234s win 4s self original-call", "E", (36, 1, 72, None)),
    ("kajongg-bmja", "E: [111m] [444m] [999p] 11s 234s win 4s self original-call", "E", (32, 0, 32, None)),
    ("kajongg-bmja", "E: [111m] [444m] 999p 11s 234s win 4s from S original-call", "E", (34, 0, 34, None)),
    # 11: a half-limit hand scores its points when they are worth more
    ("kajongg-bmja", "E: 1m1p 2m2p 3m3p 4m4p 5m5p 6m6p 7m 7p 1f 2f 3f 4f win 7p self", "E", (18, 5, 576, None)),
    ("kajongg-bmja", "E: 1m1p 2m2p 3m3p 4m4p 5m5p 6m6p 7m 7p win 7p self", "E", (0, 0, 500, "Knitting")),
    # 12: the calling limit hand alone; Calling for Purity alone when no limit hand is in reach
    ("kajongg-bmja", "E: [111p] 222s 666p EEE 99s win 9s self; S: 111m 999m 222m 333m 4m 1f 2f 3f 4f", "S",
     (0, 0, 400, "Calling for Buried Treasure")),
    ("kajongg-bmja", "E: [111p] 222s 666p EEE 99s win 9s self; S: [111m] 222m 333m 4445m", "S", (16, 3, 128, None)),
]


@pytest.mark.parametrize("text,fragment", [
    ("E: [123m] [456m] [789p] 11s 234s win 4s self twofold", "shows no kong"),
    ("E: [1111m] [456m] [789p] 11s 234s win 4s self twofold", "shows one kong"),
    # (S holding 666m concealed may be robbed under classical: issue 22, item 3)
    ("W: [PPP] 456m 678p 23488s win 6m from S robbed; S: [777s] 123p 45s FF 66m 6p 2f", "S shows no pung of 6m"),
])
def test_a_flag_the_tiles_cannot_have_is_refused(text, fragment):
    with pytest.raises(WinClauseError, match=fragment):
        mjscore.score(text, paying="winner-only")


@pytest.mark.parametrize("text", [
    "E: [1111m] [4444p] 789p 11s 234s win 4s self twofold",
    "W: [PPP] 456m 678p 23488s win 6m from S robbed; S: [666m] [777s] 123p 45s FF 2f",
    "W: [PPP] 456m 678p 23488s win 6m from S robbed; S: [777s] ...",        # partly listed: nothing to hold against
    "W: [PPP] 456m 678p 23488s win 6m from S robbed",                       # not listed at all
    "E: 19m 19p 19s ESWN CFP 9m win 1m from S robbed; S: 111m ...",        # thirteen orphans robs a concealed kong
])
def test_flags_that_fit_are_accepted(text):
    mjscore.score(text, paying="winner-only")


def test_thirteen_orphans_may_rob_a_concealed_kong_when_the_robbed_hand_is_listed():
    mjscore.score("E: 19m 19p 19s ESWN CFP 9m win 1m from S robbed; S: 111m 234p 567p 88s EE", paying="winner-only")
    # Only thirteen orphans may, where the scheme allows no more (issue 22, item 3: classical lets
    # any hand rob a kong declared from a concealed pung; tests/test_ways_of_winning.py).
    with pytest.raises(WinClauseError, match="pung of 5m is concealed"):
        mjscore.score("E: [123p] 456p 789p 345m 55s win 5m from S robbed; S: 555m 234p 567p 88s EE",
                      scheme="european-classical", paying="winner-only")


def test_no_east_double_also_switches_off_a_schemes_double_between_losers():
    text = "S: score 40 win self; E: score 20; W: score 0; N: score 0"
    on = mjscore.score(text, scheme="european-classical", payoff="chinese-modern")
    off = mjscore.score(text, scheme="european-classical", payoff="chinese-modern", east_double=False)
    header_off = mjscore.score("east-double off; " + text, scheme="european-classical", payoff="chinese-modern")
    diff = {(p.payer.value, p.payee.value): p.amount for p in on.payments if p.reason == "difference"}
    assert diff[("W", "E")] == 40                                    # doubled for East when the double is on
    for r in (off, header_off):
        assert {(p.payer.value, p.payee.value): p.amount for p in r.payments
                if p.reason == "difference"}[("W", "E")] == 20


@pytest.mark.parametrize("payoff,paid", [
    # docs/rules.md "One hand, five schemes": West wins with 120 on South's discard, winner-only
    ("chinese-classical", {"E": 240, "S": 120, "N": 120}),
    ("chinese-modern", {"E": 120, "S": 240, "N": 120}),
    ("japanese", {"S": 480}),
    ("official", {"S": 120}),
    ("korean", {"S": 240}),
])
def test_the_five_payoff_schemes_on_one_hand(payoff, paid):
    r = mjscore.score("W: score 120 win from S; E: score 0; S: score 0; N: score 0", paying="winner-only",
                      payoff=payoff)
    assert {p.payer.value: p.amount for p in r.payments} == paid and sum(r.net.values()) == 0


@pytest.mark.parametrize("payoff,self_drawn", [("official", {"E": 120, "S": 120, "N": 120}),
                                               ("korean", {"E": 120, "S": 120, "N": 120})])
def test_official_and_korean_self_drawn(payoff, self_drawn):
    r = mjscore.score("W: score 120 win self; E: score 0; S: score 0; N: score 0", paying="winner-only",
                      payoff=payoff, east_double=True)
    assert {p.payer.value: p.amount for p in r.payments} == self_drawn        # no East double in either


@pytest.mark.parametrize("scheme,loser", [("babcock", "E: [CCC] ..."), ("babcock", "E: [111p] [999p] ..."),
                                          ("dmjl", "E: [EEE] [SSS] ..."), ("classical", "E: [111p] ...")])
def test_a_partly_listed_loser_earns_no_whole_hand_double(scheme, loser):
    r = mjscore.score(f"S: [111m] 222m 345m 678m 99m win 9m self; {loser}", scheme=scheme, paying="winner-only")
    east = r.player("E")
    whole = {"all-honours", "only-honours", "one-suit", "pure-suit", "only-majors", "heads-and-tails", "no-chow",
             "no-chows", "false-color", "true-color"}
    assert not whole & {i.rule for i in east.items}
    full = mjscore.score("S: [111m] 222m 345m 678m 99m win 9m self; E: [CCC] [FFF] EEE SS NN", scheme="babcock",
                         paying="winner-only")
    assert full.player("E").doubles > 2                       # listed in full, the same honours do count


@pytest.mark.parametrize("table,discarder,taker", [
    (f"S: {A} win 5p from W; N: {B} win 5p from W; E: ...", "W", "N"),      # after West: North
    (f"S: {A} win 5p from E; N: {B} win 5p from E; W: ...", "E", "S"),      # after East: South
    (f"S: {A} win 5p from N; W: {B} win 5p from N; E: ...", "N", "S"),      # after North: East, then South
    (f"W: {A} win 5p from S; E: {B} win 5p from S; N: ...", "S", "W"),      # after South: West
])
def test_the_next_in_turn_after_the_discarder_takes_the_tile(table, discarder, taker):
    r = mjscore.score(table, paying="winner-only")
    assert r.winner.value == taker
    ruling = r.to_dict()["ruling"]
    assert f"{taker} takes it, being next in turn after {discarder}" in ruling
    first, second = (part.split(":")[0] for part in table.split("; ")[:2])
    other = second if first == taker else first
    assert not r.player(other).winner and f"{other} is scored as a loser without it" in ruling
    assert sum(r.net.values()) == 0


def test_two_winners_on_different_discards_are_still_refused():
    with pytest.raises(WinClauseError, match="two winners"):
        mjscore.score("S: [CCC] 234m 678m 55p 789s win 5p from W; N: [111p] 345p 678s 99s 567m win 5p self",
                      paying="winner-only")


@pytest.mark.parametrize("how", ["command line", "header", "scheme"])
def test_east_penalties_doubled_under_add_up(tmp_path, how):
    options = {"paying": "add-up"}
    text, scheme = TABLE15, None
    if how == "command line":
        options["east_penalty_double"] = True
    elif how == "header":
        text = "east-penalty-double on; " + TABLE15
    else:
        scheme = tmp_path / "house.yaml"
        scheme.write_text("scheme: house\nextends: classical\nsettlement: {east_penalty_double: true}\n")
    r = mjscore.score(text, scheme=scheme, **options)
    assert r.net[mjscore.Wind.EAST] == -20 and r.net[mjscore.Wind.SOUTH] == 10 - 10     # South's is not doubled
    assert mjscore.score(TABLE15, paying="add-up").net[mjscore.Wind.EAST] == -10           # off by default
    off = mjscore.score("east-penalty-double on; " + TABLE15, paying="add-up", east_penalty_double=False)
    assert off.net[mjscore.Wind.EAST] == -10                                                # the command line wins


@pytest.mark.parametrize("scheme", ["bmja", "kajongg-bmja"])
@pytest.mark.parametrize("tile", ["1p", "9p"])
def test_gates_shaped_but_won_on_a_discarded_end_is_an_ordinary_hand(scheme, tile):
    # Gates of Heaven wants the extra tile 2..8: as an ordinary hand this one needs two chows,
    # more than BMJA allows, so the table is refused (it once scored 12 points as a "gates" shape).
    with pytest.raises(mjscore.TableError, match="more chows than the 1"):
        mjscore.score(f"E: 1112345678999p {tile} win {tile} from S", scheme=scheme, paying="winner-only")
    assert mjscore.score("E: 1112345678999p 5p win 5p from S", scheme=scheme,
                         paying="winner-only").player("E").limit == "Gates of Heaven"


def test_kajongg_dmjl_nine_gates_on_a_discard_is_no_nine_gates():
    # Kajongg (rulecode.py NineGates.appliesToHand) refuses declared melds, and the set a discard
    # completes is declared; this hand is then Kajongg's Squirming Snake (111 234 55 678 999).
    on_discard = "E: 1112345678999p 5p win 5p from S"
    assert mjscore.score(on_discard, scheme="kajongg-dmjl", paying="winner-only").player("E").limit == \
        "Squirming Snake"
    assert mjscore.score(on_discard, scheme="dmjl", paying="winner-only").player("E").limit == "Nine Gates"
    assert mjscore.score("E: 1112345678999p 5p win 5p self", scheme="kajongg-dmjl",
                         paying="winner-only").player("E").limit == "Nine Gates"


def test_kajongg_bmja_wriggling_snake_must_be_self_drawn():
    assert mjscore.score("E: 11m 23456789m ESWN win N self", scheme="kajongg-bmja",
                         paying="winner-only").player("E").limit == "Wriggling Snake"
    with pytest.raises(mjscore.TableError, match="not complete"):
        mjscore.score("E: 11m 23456789m ESWN win N from S", scheme="kajongg-bmja", paying="winner-only")
    assert mjscore.score("E: 11m 23456789m ESWN win N from S", scheme="bmja",
                         paying="winner-only").player("E").limit == "Wriggling Snake"      # the rule text's own scheme


@pytest.mark.parametrize("loser,rule", [("S: [CCC] [FFF] PP C 123m 4m", "little-three-dragons"),
                                        ("S: [EEE] [SSS] [WWW] NN E 1m", "little-four-joys")])
def test_a_loose_tile_of_the_group_spoils_little_three_dragons_and_four_joys_in_kajongg(loser, rule):
    dmjl = mjscore.score(f"{WINNER}; {loser}", scheme="dmjl", paying="winner-only").player("S")
    kajongg = mjscore.score(f"{WINNER}; {loser}", scheme="kajongg-dmjl", paying="winner-only").player("S")
    assert rule in {i.rule for i in dmjl.items}               # the association's rule text
    assert rule not in {i.rule for i in kajongg.items}        # Kajongg: exactly the pungs and one pair
    clean = loser.replace(" C 123m 4m", " 123m 45m").replace(" E 1m", " 12m")
    assert rule in {i.rule for i in mjscore.score(f"{WINNER}; {clean}", scheme="kajongg-dmjl",
                                                  paying="winner-only").player("S").items}


@pytest.mark.parametrize("hand,counts", [
    ("E: [123m] [456m] 789p 11s 234s win 4s self original-call", True),         # two exposed sets
    ("E: [123m] [456m] [789p] 11s 234s win 4s self original-call", False),      # three
    ("E: [123m] [456m] 789p 11s 234s win 4s from S original-call", False),      # two, and the one the discard completed
])
@pytest.mark.parametrize("scheme", ["kajongg-dmjl", "kajongg-bmja"])
def test_original_call_counts_only_with_fewer_than_three_exposed_sets_in_kajongg(hand, counts, scheme):
    if scheme == "kajongg-bmja":                                 # BMJA allows one chow in a winning hand
        hand = hand.replace("[123m]", "[111m]").replace("[456m]", "[444m]").replace("[789p]", "[999p]")
        hand = hand.replace(" 789p", " 999p")
    east = mjscore.score(hand, scheme=scheme, paying="winner-only").player("E")
    assert ("original-call" in {i.rule for i in east.items}) is counts


def test_a_half_limit_hand_scores_its_points_when_they_are_worth_more():
    hand = "E: 1m1p 2m2p 3m3p 4m4p 5m5p 6m6p 7m 7p 1f 2f 3f 4f win 7p self"
    kajongg = mjscore.score(hand, scheme="kajongg-bmja", paying="winner-only").player("E")
    assert {"no-chow", "concealed-hand", "self-drawn"} <= {i.rule for i in kajongg.items}
    assert (kajongg.points, kajongg.doubles, kajongg.score, kajongg.limit) == (18, 5, 576, None)   # 576 > 500
    plain = mjscore.score(hand.replace(" 1f 2f 3f 4f", ""), scheme="kajongg-bmja", paying="winner-only").player("E")
    assert (plain.limit, plain.score) == ("Knitting", 500)                 # 2 x 2^2 = 8: the half limit stands
    bmja = mjscore.score(hand, scheme="bmja", paying="winner-only").player("E")
    assert (bmja.limit, bmja.score) == ("Knitting", 500)                   # the association scheme as before


def test_calling_for_purity_is_not_counted_when_the_completed_hand_is_a_limit_hand():
    table = "E: [111p] 222s 666p EEE 99s win 9s self; S: 111m 999m 222m 333m 4m 1f 2f 3f 4f"
    bmja = mjscore.score(table, scheme="bmja", paying="winner-only").player("S")
    kajongg = mjscore.score(table, scheme="kajongg-bmja", paying="winner-only").player("S")
    assert "calling-purity" in {i.rule for i in bmja.items} and bmja.score == 1000     # 40 x 2^6, capped
    assert (kajongg.limit, kajongg.score) == ("Calling for Buried Treasure", 400)     # the limit rule alone
    assert "calling-purity" not in {i.rule for i in kajongg.items + kajongg.best.ignored}
    # Calling for Purity alone (no limit hand in reach) still counts in kajongg-bmja.
    alone = mjscore.score("E: [111p] 222s 666p EEE 99s win 9s self; S: [111m] 222m 333m 4445m",
                          scheme="kajongg-bmja", paying="winner-only").player("S")
    assert "calling-purity" in {i.rule for i in alone.items}


def test_no_win_on_a_discard_of_a_tile_she_discarded_since_her_last_draw():
    with pytest.raises(WinClauseError, match="sacred discard: S discarded 5p since her last draw"):
        mjscore.score(WINNER_5P.format(how="from N", tiles="5p"), paying="winner-only")
    # drawing it herself is allowed, and another tile of hers does not forbid the 5p
    assert mjscore.score(WINNER_5P.format(how="self", tiles="5p"), paying="winner-only").winner.value == "S"
    assert mjscore.score(WINNER_5P.format(how="from N", tiles="7s"), paying="winner-only").winner.value == "S"


def test_check_names_the_rule_and_waits_marks_the_tile():
    from typer.testing import CliRunner

    from mjscore.cli import app

    r = CliRunner().invoke(app, ["check", "-e", WINNER_5P.format(how="from N", tiles="5p") + " = 60"])
    assert r.exit_code == 1 and "sacred discard" in r.stderr
    assert mjscore.waits("S: [CCC] 234m 678m 5p 789s 1f discarded 5p 9m") == \
        [[{"seat": "S", "waits": ["5p"], "dead": [], "sacred": ["5p"]}]]


def test_the_record_round_trips_and_counts_among_the_four():
    text = "S: [CCC] 234678m 55p 789s 1f discarded 7s 9m win 5p self"
    [t] = mjscore.parse(text)
    from mjscore.io.notation import print_table

    assert print_table(t).strip() == "S: [CCC] 234678m 55p 789s 1f discarded 9m 7s win 5p self"
    assert mjscore.parse(print_table(t)) == [t]
    yaml_form = ("players:\n  S: {tiles: '[CCC] 234678m 55p 789s', bonus: [1f], discarded: [7s, 9m], "
                 "win: {tile: 5p, self: true}}\n")
    assert mjscore.parse(yaml_form, name="t.yaml") == [t]
    with pytest.raises(mjscore.TableError, match="five 5p"):
        mjscore.score("S: 5555p ... discarded 5p; E: score 10 win self", paying="winner-only")


@pytest.mark.parametrize("scheme,table,seat,expected", KAJONGG_FIGURES,
                         ids=[f"{s}:{t[:40]}" for s, t, _, _ in KAJONGG_FIGURES])
def test_kajongg_parity_figures_from_kajongg_itself(scheme, table, seat, expected):
    p = mjscore.score(table, scheme=scheme, paying="winner-only").player(seat)
    assert (p.points, p.doubles, p.score, p.limit) == expected

