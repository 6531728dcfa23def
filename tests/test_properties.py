"""Properties of the notation: printing and reading back is the identity; no input crashes."""

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from mjscore.hand.validate import validate_table
from mjscore.io.notation import parse_table, print_table
from mjscore.io.reader import parse_any
from mjscore.io.yamlform import parse_yaml_tables
from mjscore.model.errors import MjError

settings.register_profile("default", max_examples=300, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


@given(tables())
def test_print_then_parse_is_identity(table):
    text = print_table(table)
    again = parse_table(text)
    assert again == table
    assert print_table(again) == text


@given(tables())
def test_unicode_printing_shows_every_tile(table):
    text = print_table(table, style="unicode")
    glyphs = sorted(ch for ch in text if 0x1F000 <= ord(ch) <= 0x1F02B)
    expected = []
    for p in table.players:
        expected += [t.glyph for t in p.all_tiles() + p.bonus]
        if p.win is not None and p.win.tile is not None:
            expected.append(p.win.tile.glyph)
    assert glyphs == sorted(expected)


NOTATION_ALPHABET = st.sampled_from(list("0123456789mpsczbdyfESWNCFPRGW []{}()<>=.;#:-\nwinselfromscore") + [
    "win ", "self", "from ", "score ", "...", "round ", "draw", "---\n", "E: ", "S: ", "dealer-wins ",
    "loose", "robbed", "heaven", "earth", "\t", "é", "\x00", "🀄"])


@given(st.lists(NOTATION_ALPHABET, max_size=80).map("".join))
def test_notation_like_text_raises_only_our_errors(text):
    try:
        for t in parse_any(text, "fuzz.mj", yaml_form=False):
            validate_table(t)
    except MjError:
        pass


@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_our_errors(text):
    for yaml_form in (False, True):
        try:
            for t in parse_any(text, "fuzz", yaml_form=yaml_form):
                validate_table(t)
        except MjError:
            pass


YAML_ALPHABET = st.sampled_from(["players:", "\n", "  ", "E:", " S:", " '", '"', "[", "]", "{", "}", ",", "- ",
                                 "123m", " 5p", "win", " from", " N", "self", "tiles:", "bonus:", "win:",
                                 "tile:", "flags:", "claim:", "round:", "draw:", "true", "1f", "&a", "*a", "!!str",
                                 "hands:", "---", "score:", "12", "name:", "null", "|", ">"])


@given(st.lists(YAML_ALPHABET, max_size=60).map("".join))
def test_yaml_like_text_raises_only_our_errors(text):
    try:
        for t in parse_yaml_tables(text, "fuzz.yaml"):
            validate_table(t)
    except MjError:
        pass


@settings(max_examples=100)
@given(st.binary(max_size=200))
def test_binary_junk_raises_only_our_errors(data):
    from mjscore.io.reader import decode

    with contextlib.suppress(MjError):
        parse_any(decode(data, "junk"), "junk")
