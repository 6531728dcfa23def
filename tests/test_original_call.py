"""Original Call under the Kajongg schemes: fewer than three exposed melds, a pair the winning
discard completed counting among them (issue 22, item 7; Kajongg's rulecode.py
MahJonggWithOriginalCall counts `hand.melds`, pairs included).

The figures are Kajongg's own, from its engine (points, doubles, score, Original Call or not),
for the Kajongg hand strings in the comments, seat and round as in the table.
"""

import pytest

import mjscore

CASES = [
    # two exposed sets and the pair the discard completed: three exposed melds, no Original Call
    # (wnwnwn c9c9c9 c1c1 RWwWwWwDbDbDb mda Lc1c1c1)
    ("round W; N: [NNN] [999m] 11m WWWPPP win 1m from E original-call",
     {"kajongg-dmjl": (50, 6, 500, False), "kajongg-bmja": (44, 5, 1000, False)}),
    # the same pair self-drawn: two exposed melds (... C1C1 ... mwa LC1C1C1)
    ("round W; N: [NNN] [999m] 11m WWWPPP win 1m self original-call",
     {"kajongg-dmjl": (52, 7, 500, True), "kajongg-bmja": (46, 6, 1000, True)}),
    # one exposed set and the discarded pair: two (wnwnwn c1c1 RC9C9C9WwWwWwDbDbDb mda Lc1c1c1)
    ("round W; N: [NNN] 999m 11m WWWPPP win 1m from E original-call",
     {"kajongg-dmjl": (54, 8, 500, True), "kajongg-bmja": (48, 6, 1000, True)}),
    # two exposed sets and the pung the discard completed: three (... wwwwww ... Lwwwwwwww)
    ("round W; N: [NNN] [999m] 11m WWWPPP win W from E original-call",
     {"kajongg-dmjl": (40, 6, 500, False), "kajongg-bmja": (40, 5, 1000, False)}),
    ("round W; N: [NNN] 999m 11m WWWPPP win W from E original-call",
     {"kajongg-dmjl": (44, 7, 500, True), "kajongg-bmja": (44, 6, 1000, True)}),
    # (c1c1c1 s9s9 RC4C5C6C9C9C9WeWeWe mda Ls9s9s9)
    ("round E; S: [111m] 456m 999m EEE 99p win 9p from W original-call",
     {"kajongg-dmjl": (46, 2, 184, True), "kajongg-bmja": (40, 2, 160, True)}),
    # (c1c1c1 c9c9c9 s9s9 RC4C5C6WeWeWe mda Ls9s9s9): today 2 doubles, Kajongg 1
    ("round E; S: [111m] [999m] 456m EEE 99p win 9p from W original-call",
     {"kajongg-dmjl": (42, 1, 84, False), "kajongg-bmja": (36, 1, 72, False)}),
]


@pytest.mark.parametrize("table,scheme,expected",
                         [(t, s, e) for t, by_scheme in CASES for s, e in by_scheme.items()])
def test_original_call_counts_the_discarded_pair_among_the_exposed_melds_as_kajongg(table, scheme, expected):
    r = mjscore.score(table, scheme=scheme, paying="winner-only")
    winner = next(p for p in r.players if p.winner)
    got = (winner.points, winner.doubles, winner.score, "original-call" in {i.rule for i in winner.items})
    assert got == expected


@pytest.mark.parametrize("scheme", ["dmjl", "bmja", "classical"])
def test_the_association_schemes_give_original_call_whatever_is_exposed(scheme):
    # Kajongg's limit of exposed melds is its own; the associations' texts set none.
    r = mjscore.score("round W; N: [NNN] [999m] 11m WWWPPP win 1m from E original-call", scheme=scheme,
                      paying="winner-only")
    assert "original-call" in {i.rule for i in r.player("N").items}
