"""Nine Gates only when the hand waited on the nine gates: the thirteen tiles before the winning
tile were 1-1-1-2-3-4-5-6-7-8-9-9-9 of one suit (J. C. Bradfield's mj, Millington's rules:
"calling on 1-1-1-2-3-4-5-6-7-8-9-9-9"; Kajongg's rulecode.py NineGates: the last tile must be
the extra one, `lastCompletesPair`).  11123345678999s won on a 1s was 1123345678999 before it:
11s 123s 345s 678s 999s, an ordinary hand."""

import pytest

import mjscore

FALSE = "S: 11123345678999s win 1s {how}; E: ...; W: ...; N: ..."       # the extra tile is the 3s
TRUE = "S: 11123345678999s win 3s {how}; E: ...; W: ...; N: ..."


def south(text, scheme):
    r = mjscore.score(text, scheme=scheme)
    p = next(p for p in r.players if p.seat.value == "S")
    return p.score, [i.rule for i in p.items]


@pytest.mark.parametrize("scheme,discard,self_drawn", [
    ("classical", 224, 480),            # the figures: 224 on a discard, 480 self-drawn
    ("millington", 256, None),          # 256 as mj scores it (self-drawn reaches the limit by its doubles)
    ("dmjl", 256, None),
    ("european-classical", 240, None),
    ("chinese-classical", 160, None),
    ("kajongg-dmjl", 256, None),
])
def test_a_hand_that_did_not_wait_on_the_gates_is_no_nine_gates(scheme, discard, self_drawn):
    score, rules = south(FALSE.format(how="from E"), scheme)
    assert "nine-gates" not in rules and score == discard
    score, rules = south(FALSE.format(how="self"), scheme)
    assert "nine-gates" not in rules
    if self_drawn is not None:
        assert score == self_drawn


@pytest.mark.parametrize("scheme", ["classical", "millington", "dmjl", "european-classical", "chinese-classical"])
def test_a_true_nine_gates_stays_the_limit(scheme):
    limit = mjscore.load_scheme(scheme).limit
    for how in ("from E", "self"):
        score, rules = south(TRUE.format(how=how), scheme)
        assert "nine-gates" in rules and score == limit, (scheme, how)


def test_under_kajongg_dmjl_the_true_gates_must_also_be_self_drawn():
    assert "nine-gates" in south(TRUE.format(how="self"), "kajongg-dmjl")[1]
    assert "nine-gates" not in south(TRUE.format(how="from E"), "kajongg-dmjl")[1]


@pytest.mark.parametrize("tiles,win", [("11112345678999s", "1s"), ("11123456789999s", "9s"), ("11123455678999s", "5s")])
def test_the_gates_waited_on_with_any_extra_tile(tiles, win):
    score, rules = south(f"S: {tiles} win {win} from E; E: ...; W: ...; N: ...", "classical")
    assert "nine-gates" in rules and score == 1000


def test_a_scheme_says_whether_the_gates_were_waited_on():
    shown = mjscore.describe_scheme("classical")
    assert "won on the extra tile" in str(shown)
