"""Gates of Heaven under `kajongg-bmja` as Kajongg's engine has it: the set a discard completes is
declared, and a declared run is no part of the gates, so a winning discard that completes a run is
no Gates of Heaven: `S: 11123455678999s win 3s from E` is then a standard hand of two chows, and
no win under BMJA's one chow.  Self-drawn, or a discard that completes the pair or a pung, the
gates stand."""

import pytest

import mjscore


def south(text, scheme="kajongg-bmja"):
    r = mjscore.score(text + "; E: ...; W: ...; N: ...", scheme=scheme)
    return next(p for p in r.players if p.seat.value == "S")


@pytest.mark.parametrize("win", ["win 3s from E", "win 4s from E"])
def test_a_discard_that_completes_a_run_is_no_gates_of_heaven(win):
    with pytest.raises(mjscore.MjError) as e:
        south(f"S: 11123455678999s {win}")
    assert "needs more chows than the 1 the scheme allows" in e.value.message


@pytest.mark.parametrize("win", ["win 3s self", "win 5s from E"])
def test_the_gates_stand_self_drawn_or_on_the_pairs_discard(win):
    p = south(f"S: 11123455678999s {win}")
    assert [i.rule for i in p.items] == ["gates-of-heaven"] and p.score == 1000
