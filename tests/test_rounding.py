"""Halves round up, as the rule books and Four Winds round them (issue 22, item 6).

Python's `round` sends a half to the even neighbour (22.5 -> 22, 37.5 -> 38); a payment or a
limit hand's value rounds a half up (22.5 -> 23), and a multiplier counts as the decimal the
scheme file writes (docs/rules.md, "The limit, rounding and draws").
"""

import pytest

import mjscore
from mjscore.model.amounts import exact, half_up

# Wilmington's payoff: the discarder alone pays 1.5 times the winner's score (schemes/README.md).
WILMINGTON = """\
scheme: wilmington-house
extends: classical
settlement:
  paying: winner-only
  payoff: wilmington
  payoffs:
    wilmington:
      east_double: none
      table:
        east-self-drawn: {others: 1}
        other-self-drawn: {east: 1, others: 1}
        east-on-discard: {discarder: 1.5}
        other-on-east-discard: {discarder: 1.5}
        other-on-other-discard: {discarder: MULTIPLIER}
"""


@pytest.fixture
def house(tmp_path):
    def make(multiplier="1.5", more=""):
        path = tmp_path / f"house-{multiplier}.yaml"
        path.write_text(WILMINGTON.replace("MULTIPLIER", multiplier) + more)
        return path
    return make


@pytest.mark.parametrize("score,paid", [
    (15, 23),          # 22.5: 23 (Python's round: 22)
    (25, 38),          # 37.5: 38 (and 38 by Python's round too)
    (11, 17),          # 16.5: 17 (Python's round: 16)
    (13, 20),          # 19.5: 20
    (14, 21),          # no half: 21
])
def test_a_one_and_a_half_payoff_rounds_a_half_up(house, score, paid):
    r = mjscore.score(f"S: score {score} win from E", scheme=house())
    assert [(p.payer.value, p.payee.value, p.amount) for p in r.payments] == [("E", "S", paid)]


@pytest.mark.parametrize("multiplier,score,paid", [
    ("1.14", 25, 29),       # 28.5 exactly, though the float 1.14 times 25 is 28.4999...
    ("1.25", 2, 3),         # 2.5
    ("0.5", 7, 4),          # 3.5
])
def test_a_multiplier_counts_as_the_decimal_the_file_writes(house, multiplier, score, paid):
    r = mjscore.score(f"S: score {score} win from W", scheme=house(multiplier))
    assert [p.amount for p in r.payments] == [paid]


def test_payments_rounded_up_to_a_hundred_are_rounded_up_from_the_exact_amount(house):
    # 467 x 1.5 = 700.5: up to the next 100 is 800 (a whole number first would give 700).
    r = mjscore.score("S: score 467 win from E", scheme=house(), round_payments_up=100)
    assert [p.amount for p in r.payments] == [800]


@pytest.mark.parametrize("limit,fraction,worth", [
    (250, 0.25, 63),        # 62.5: 63 (Python's round: 62)
    (500, 0.333, 167),      # 166.5: 167 (Python's round: 166)
    (1000, 0.4, 400),
])
def test_a_fraction_of_the_limit_rounds_a_half_up(tmp_path, limit, fraction, worth):
    path = tmp_path / "fraction.yaml"
    path.write_text(f"scheme: fraction\nextends: classical\nlimit: {limit}\nrules:\n"
                    f"  - {{id: thirteen-orphans, limit: {fraction}}}\n")
    r = mjscore.score("E: 19m 19p 19s ESWN CFP C win C self", scheme=path, paying="winner-only")
    assert r.player("E").score == worth


@pytest.mark.parametrize("value,rounded", [(22.5, 23), (37.5, 38), (0.5, 1), (2.4999, 2), (3, 3)])
def test_half_up(value, rounded):
    assert half_up(value) == rounded


def test_exact_keeps_the_written_decimal():
    assert half_up(exact(1.14) * 25) == 29 and half_up(1.14 * 25) == 28
