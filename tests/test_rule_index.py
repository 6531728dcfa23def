"""The rule index is sound: a rule that applies never lacks a feature it is said to need.

The engine skips a rule whose `needs` are not all among the hand's `features`; a need that is
not truly necessary would silently drop an item.  So every rule of every shipped scheme is
tried, unindexed, on every arrangement of the published cases, the test tables and generated
tables, and wherever it applies its needs must be present.  The same hands check that the
winner's waits worked out on counts equal those of the rebuilt waiting hand.
"""

import random
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mjscore.hand.arrange import losing_arrangements, readings, winner_arrangements
from mjscore.hand.shapes import counts_of
from mjscore.hand.waits import another_wait, waiting_hand, waits_before_win, waits_of
from mjscore.io.reader import parse_any
from mjscore.model.errors import MjError
from mjscore.rules.conditions import Feature, block_matches, features
from mjscore.rules.scheme import load_scheme, shipped_schemes
from mjscore.scoring.score import _set_items, situation

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))
from generate import random_table  # noqa: E402

SCHEMES = {name: load_scheme(name) for name in shipped_schemes()}


def _published_tables():
    out = []
    for name in ("kajongg.yaml", "dmjl-bmja.yaml"):
        data = yaml.safe_load((HERE / "conformance" / name).read_text(encoding="utf-8"))
        for case in data["cases"] if isinstance(data, dict) else data:
            if "table" in case and case.get("kind") is None:
                out.append((case["id"], case["table"]))
    return out


def _tables(text, source):
    try:
        return list(parse_any(text, source, yaml_form=False))
    except MjError:
        return []


def _unsound(table, scheme):
    """(rule, seat, arrangement) wherever a rule applies without a feature it needs."""
    found = []
    for hand in table.players:
        if hand.score is not None:
            continue
        if hand.is_winner:
            arrangements = winner_arrangements(hand, scheme.shapes, scheme.max_chows)
            rules = scheme.winner_rules
        else:
            arrangements = losing_arrangements(hand, True)
            rules = scheme.loser_rules
        sit = situation(hand, table, scheme)
        for arr in arrangements:
            sit.set_points = sum(i.points for i in _set_items(arr, scheme, sit))
            present = features(sit, arr)
            for r in rules:
                if r.per_set:
                    applies = any(b.is_set and block_matches(sit, b, r.when) for b in arr.blocks)
                else:
                    applies = all(test(sit, arr, param) for test, param in r.tests)
                if applies and not r.needs <= present:
                    found.append((r.id, hand.seat.value, arr.text(), sorted(map(str, r.needs - present))))
    return found


def _waits_agree(table, scheme):
    for hand in table.players:
        if hand.is_winner and hand.win.tile is not None:
            expected = waits_of(waiting_hand(hand), scheme)
            assert waits_before_win(hand, scheme) == expected, hand
            assert waits_before_win(hand, scheme, counts_of(hand.all_tiles())) == expected, hand
            # A second wait read off an arrangement (what "only possible tile" asks first) is one
            # of the waits worked out in full, and not the winning tile's.
            for reading in readings(hand):
                held = counts_of(reading.all_tiles())
                waits = waits_before_win(reading, scheme, held)
                for arr in winner_arrangements(reading, scheme.shapes, scheme.max_chows):
                    other = another_wait(arr, hand.win.tile.index, held)
                    if other is not None:
                        assert other in waits and other != hand.win.tile.index, (hand, arr.text())
                        SECOND_WAITS_SEEN.append(other)


PUBLISHED = _published_tables()
SECOND_WAITS_SEEN: list[int] = []        # so the check above is seen to have had something to check


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_index_is_sound_on_the_published_cases(scheme):
    checked = 0
    for case_id, text in PUBLISHED:
        for table in _tables(text, case_id):
            assert _unsound(table, SCHEMES[scheme]) == [], case_id
            _waits_agree(table, SCHEMES[scheme])
            checked += 1
    assert checked > 400
    assert len(SECOND_WAITS_SEEN) > 100


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_index_is_sound_on_the_sample_hands(scheme):
    from conftest import table_samples

    for path in table_samples():
        for table in _tables(path.read_text(encoding="utf-8"), path.name):
            assert _unsound(table, SCHEMES[scheme]) == [], path.name
            _waits_agree(table, SCHEMES[scheme])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(sorted(SCHEMES)))
def test_index_is_sound_on_generated_tables(seed, name):
    scheme = SCHEMES[name]
    table = random_table(random.Random(seed), max_chows=scheme.max_chows, claimed_kongs=True)
    assert _unsound(table, scheme) == []
    _waits_agree(table, scheme)


def test_a_need_that_is_not_necessary_is_caught():
    """The check above can fail: a rule given a need its hand lacks is reported."""
    import dataclasses

    scheme = SCHEMES["dmjl"]
    mahjong = next(r for r in scheme.winner_rules if r.id == "mahjong")
    wrong = dataclasses.replace(mahjong, needs=frozenset({Feature.KONG}))
    broken = dataclasses.replace(scheme, winner_rules=(wrong,))
    table = _tables("E: 123m 456p 789s 234s 55z win 5z self", "t")[0]
    assert [f[0] for f in _unsound(table, broken)] == ["mahjong"]
