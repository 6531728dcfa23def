import dataclasses

import pytest

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
