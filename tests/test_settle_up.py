"""The settle-up at the end of an evening is chosen by the paying method of each hand (issue 22,
item 5): an added-up hand hands nothing over, whatever its balances sum to, and an evening that
mixes methods settles the payments of the hands that paid and says which hands it leaves out."""

import pytest
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.evening.session import play
from mjscore.io.sessionfile import read_session

HEADER = "players Ann Bob Cid Dee\n"
# Ann (East) adds 5, doubled; Bob's penalty takes 10 off: the balances happen to sum to zero.
ADDED_TO_ZERO = "paying add-up\nE: score 5 win self\nS: score 0\nW: score 0\nN: score 0\npenalty S 10\n"
# Ann (East) wins 40 self-drawn: 80 from each of the others.
PAID = "E: score 40 win self\nS: score 0\nW: score 0\nN: score 0\n"
# Ann keeps the deal and wins 20, Bob scores 4: added up, +40 and +4.
ADDED = "paying add-up\nE: score 20 win self\nS: score 4\nW: score 0\nN: score 0\n"


def evening(*hands, header=HEADER):
    text = header + "".join("---\n" + h for h in hands)
    return play(read_session(text, "<evening>"))


@pytest.mark.parametrize("hands,settle_up,note", [
    # add-up only, balances +10 and -10: nothing to hand over (today "Bob pays Ann 10")
    ((ADDED_TO_ZERO,), None, "the totals were added up (add-up): no payments to settle"),
    ((ADDED, ADDED), None, "the totals were added up (add-up): no payments to settle"),
    # between-all only: as before
    ((PAID,), [("Bob", "Ann", 80), ("Cid", "Ann", 80), ("Dee", "Ann", 80)], None),
    # between-all with one added-up hand: the payments are settled, the added scores are not
    ((PAID, ADDED), [("Bob", "Ann", 80), ("Cid", "Ann", 80), ("Dee", "Ann", 80)],
     "the settle-up leaves out hand 2: it was added up under add-up, so its scores stay in the totals, unsettled"),
    ((ADDED, PAID, ADDED),
     [("Bob", "Ann", 80), ("Cid", "Ann", 80), ("Dee", "Ann", 80)],
     "the settle-up leaves out hands 1 and 3: they were added up under add-up, so their scores stay in the totals, "
     "unsettled"),
])
def test_the_settle_up_follows_the_paying_method_of_each_hand(hands, settle_up, note):
    r = evening(*hands)
    got = None if r.settle_up is None else [tuple(t) for t in r.settle_up]
    assert (got, r.settle_up_note) == (settle_up, note)
    d = r.to_dict()
    assert d["settle_up"] == (None if settle_up is None else [{"from": a, "to": b, "amount": n}
                                                                for a, b, n in settle_up])
    assert d.get("settle_up_note") == note


def test_an_added_up_evening_that_sums_to_zero_keeps_its_totals():
    r = evening(ADDED_TO_ZERO)
    assert r.totals == {"Ann": 2010, "Bob": 1990, "Cid": 2000, "Dee": 2000}
    assert r.settle_up is None


@pytest.mark.usefixtures("unwrapped")
def test_the_session_says_how_a_mixed_evening_settles(tmp_path):
    path = tmp_path / "mixed.mj"
    path.write_text(HEADER + "---\n" + PAID + "---\n" + ADDED)
    out = CliRunner().invoke(app, ["session", str(path)]).stdout
    assert "Settle-up (3 transfers):\n  Bob pays Ann 80\n  Cid pays Ann 80\n  Dee pays Ann 80\n" in out
    assert "The settle-up leaves out hand 2: it was added up under add-up, so its scores stay in the totals" in out
    zero = tmp_path / "zero.mj"
    zero.write_text(HEADER + "---\n" + ADDED_TO_ZERO)
    out = CliRunner().invoke(app, ["session", str(zero)]).stdout
    assert "Settle-up: the totals were added up (add-up): no payments to settle" in out
    assert "pays" not in out.split("Settle-up")[1]
