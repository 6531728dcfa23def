"""Millington as J. C. Bradfield's `mj` scores it (its scoring.c, compiled into a harness, run on
the issue's tables): no 2 points for a tile drawn from the wall on a loose-tile win, and the only
possible tile counts the discards written on the table among the tiles already out."""

import mjscore


def south(text, scheme="millington"):
    r = mjscore.score(text, scheme=scheme)
    return next(p for p in r.players if p.seat.value == "S")


def test_a_loose_tile_is_no_tile_from_the_wall_proper():
    p = south("S: (NNNN) 234p 567m 88p 345s win 5s self loose; E: ...; W: ...; N: ...")
    assert p.score == 208 and "self-drawn" not in [i.rule for i in p.items]       # mj: 208 (216 before)
    p = south("S: (NNNN) 234p 567m 88p 345s win 5s self; E: ...; W: ...; N: ...")
    assert "self-drawn" in [i.rule for i in p.items]                            # from the wall: still 2


def test_a_wait_whose_other_tiles_are_all_shown_or_discarded_is_the_only_possible_tile():
    # 23p waited on 1p or 4p; East shows three 1p and West discarded the fourth: only the 4p was left.
    table = "S: 123m 456m 789m 234p 99s win 4p from W; E: [111p] ...; W: ... discarded 1p; N: ..."
    p = south(table)
    assert "only-possible" in [i.rule for i in p.items] and p.score == 44
    # Without the discard written, one 1p could still come: not the only possible tile.
    p = south(table.replace(" discarded 1p", ""))
    assert "only-possible" not in [i.rule for i in p.items] and p.score == 40
    # A scheme whose rule does not count the tiles out is not changed by it.
    assert "only-possible" not in [i.rule for i in south(table, "classical").items]
