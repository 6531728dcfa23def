import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjscore.model.table import _indices_text_in_order, indices_text
from mjscore.model.tiles import TILES, Suit, Wind, tile


@pytest.mark.parametrize("text,suit,rank,glyph", [
    ("1m", Suit.CHARACTERS, 1, "\U0001F007"),
    ("9m", Suit.CHARACTERS, 9, "\U0001F00F"),
    ("1s", Suit.BAMBOO, 1, "\U0001F010"),
    ("5p", Suit.DOTS, 5, "\U0001F01D"),
    ("E", Suit.WIND, 1, "\U0001F000"),
    ("N", Suit.WIND, 4, "\U0001F003"),
    ("C", Suit.DRAGON, 1, "\U0001F004"),
    ("F", Suit.DRAGON, 2, "\U0001F005"),
    ("P", Suit.DRAGON, 3, "\U0001F006"),
    ("1f", Suit.FLOWER, 1, "\U0001F022"),
    ("4y", Suit.SEASON, 4, "\U0001F029"),
])
def test_identity_and_glyph(text, suit, rank, glyph):
    t = tile(text)
    assert (t.suit, t.rank, t.glyph, t.text) == (suit, rank, glyph, text)


@pytest.mark.parametrize("text,simple,terminal,honour,major,bonus", [
    ("5m", True, False, False, False, False),
    ("1p", False, True, False, True, False),
    ("9s", False, True, False, True, False),
    ("S", False, False, True, True, False),
    ("F", False, False, True, True, False),
    ("3f", False, False, False, False, True),
])
def test_classes(text, simple, terminal, honour, major, bonus):
    t = tile(text)
    assert (t.is_simple, t.is_terminal, t.is_honour, t.is_major, t.is_bonus) == (simple, terminal, honour, major, bonus)


def test_fortytwo_distinct_tiles_in_notation_order():
    assert len(TILES) == 42
    assert len({t.text for t in TILES}) == 42
    assert len({t.glyph for t in TILES}) == 42
    assert [t.text for t in TILES[27:34]] == ["E", "S", "W", "N", "C", "F", "P"]
    assert sorted(TILES, reverse=True)[-1] == tile("1m")


def test_bonus_tiles_belong_to_seats():
    assert tile("1f").owner is Wind.EAST and tile("4y").owner is Wind.NORTH
    assert tile("E").wind is Wind.EAST and Wind.EAST.tile == tile("E")
    assert Wind.NORTH.next() is Wind.EAST


def test_tiles_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        tile("1m").index = 3


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.integers(0, 41), max_size=18), st.booleans(), st.sampled_from([" ", ""]))
def test_sorted_indices_are_written_as_tile_by_tile(indices, in_order, sep):
    """`indices_text` cuts sorted indices at the suits' bounds; what it writes is what writing
    them tile by tile writes (and indices out of order are written that way)."""
    if in_order:
        indices.sort()
    assert indices_text(indices, sep) == _indices_text_in_order(indices, sep)
    assert indices_text(iter(indices), sep) == indices_text(indices, sep)


def test_runs_and_honours_are_written_together():
    assert indices_text([0, 1, 2, 10, 10, 27, 27, 27, 31, 34, 34]) == "123m 22p EEE C 1f 1f"
    assert indices_text([0, 1, 2, 10, 27, 27], sep="") == "123m2pEE"


def test_a_tile_is_the_one_of_its_kind_however_it_travels():
    """Tiles are equal when they are the same object: pickling (a batch's workers) and copying
    give back the one tile of the kind, never a second."""
    import copy
    import pickle

    for t in TILES:
        assert pickle.loads(pickle.dumps(t)) is t and copy.copy(t) is t and copy.deepcopy(t) is t
    assert tile("5p") == TILES[13] and tile("5p") != tile("6p") and tile("E") > tile("9s")
    assert sorted([tile("E"), tile("1m"), tile("5p")]) == [tile("1m"), tile("5p"), tile("E")]


def test_a_hands_hash_reads_every_field_it_is_compared_by():
    """PlayerHand.__hash__ names the compared fields one by one (each tile by its index): a field
    added to the comparison must be added there too."""
    import dataclasses as dc

    from mjscore.io.notation import parse_table
    from mjscore.model.table import _COMPARED, PlayerHand

    assert _COMPARED == ("seat", "concealed", "melds", "bonus", "incomplete", "claim", "score", "win", "name",
                         "discards")
    hand = parse_table("E: [123m] 456m 789m 11p 2345s 1f win 5s from S discarded 9s = 20").players[0]
    again = parse_table("E: [123m]   456789m 11p 2345s 1f win 5s from S discarded 9s = 20").players[0]
    assert hand == again and hash(hand) == hash(again)
    changed = [dc.replace(hand, claim=21), dc.replace(hand, name="Ann"), dc.replace(hand, bonus=()),
               dc.replace(hand, discards=()), dc.replace(hand, melds=()), dc.replace(hand, incomplete=True)]
    assert all(isinstance(h, PlayerHand) and h != hand and hash(h) != hash(hand) for h in changed)
