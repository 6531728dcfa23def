"""`chinese-classical` and what it takes from Pomax's scorer (issue 22, item 8): docs/rules.md
credits Pomax only with what its code does, and the scheme takes what Pomax's rule set means,
saying so where its code pays otherwise.

The Pomax figures are its own engine's (chinese-classical.js, `getTileScore`, run on the same
sets), East's own wind and the East round.
"""

from pathlib import Path

import pytest

import mjscore

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("table,points,doubles,score,pomax", [
    # four chows, a pair of simples, self-drawn: 10 + 2; chow hand and concealed hand (Pomax: 12 p 2 d = 48)
    ("E: 123s 456s 123m 123p 33p win 1s self", 12, 2, 48, 48),
    # won on a pair of terminals: 2 for winning on a pair, as for any pair; chow hand (Pomax: 12 p 1 d = 24)
    ("E: 234s 456s 123m 123p 11s win 1s from S", 12, 1, 24, 24),
    # won on a pair of dragons: 2 more, as Pomax means (its code pays 14 p and a chow hand double: 28)
    ("E: 123s 456s 123m 123p FF win F from S", 16, 0, 16, 28),
    # Little Three Dragons: 1 double, as Pomax means (its code never pays it: 22 p 2 d = 88)
    ("E: [FFF] [CCC] 123s 123m PP win 3m self", 22, 3, 176, 88),
])
def test_chinese_classical_takes_what_pomax_means(table, points, doubles, score, pomax):
    e = mjscore.score(table, scheme="chinese-classical", paying="winner-only").player("E")
    assert (e.points, e.doubles, e.score) == (points, doubles, score)
    # Equal to what Pomax's code pays, except where its code does not pay what it means.
    assert (score == pomax) is ("FF" not in table and "[FFF]" not in table)


@pytest.mark.parametrize("table,chow_hand", [
    ("E: 123s 456s 123m 123p 33p win 1s self", True),
    ("E: 234s 456s 123m 123p 11s win 1s from S", True),
    ("E: 123s 456s 123m 123p FF win 1s self", False),        # a dragon pair
    ("E: 123s 456s 123m 123p NN win 1s self", False),        # a wind pair, even one that scores nothing
    ("E: 123s 456s 123m 111p 33p win 1s self", False),       # a pung
])
def test_the_chow_hand_doubles_four_chows_with_a_pair_of_no_wind_or_dragon(table, chow_hand):
    e = mjscore.score(table, scheme="chinese-classical", paying="winner-only").player("E")
    assert ("chow-hand" in {i.rule for i in e.items}) is chow_hand


@pytest.mark.parametrize("scheme", ["classical", "dmjl", "european-classical", "millington", "babcock"])
def test_the_chow_hand_is_chinese_classical_s_alone(scheme):
    e = mjscore.score("E: 123s 456s 123m 123p 33p win 1s self", scheme=scheme, paying="winner-only").player("E")
    assert "chow-hand" not in {i.rule for i in e.items}


def test_the_chow_hand_says_which_source_decides():
    rule = mjscore.load_scheme("chinese-classical").rule("chow-hand")
    assert rule is not None and rule.doubles == 1 and "Four Winds' value is not recovered" in rule.source


def test_the_rules_page_credits_pomax_only_with_what_its_code_does():
    text = (ROOT / "docs" / "rules.md").read_text()
    assert "(Pomax gives 2)" not in text                       # its 2 is for winning on a pair
    assert "P: 8 / 16 |" not in text and "P: 16 / 32 |" not in text
    assert "P means 16 / 32 (its code pays 16 / 16)" in text
    assert "P means 1 (never paid by its code)" in text        # Little Three Dragons
    assert "P: 2 for any pair, terminals too" in text
