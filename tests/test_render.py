"""Text tables narrowed to the terminal in one pass: the same grid, character for character, as
narrowing them by re-drawing at every step (the reference below), at every width; and no word
broken on the way."""

import re
import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from mjscore.cli.render import fit


def narrowed_step_by_step(rows, headers, grid, width, wrap=()):
    """The reference: re-draw the grid each time a column is narrowed by one character."""
    text = tabulate(rows, headers=headers, tablefmt=grid)
    if width is None or grid != "simple":
        return text
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]
    longest = [max((len(w) for c in col if not re.fullmatch(r"[+-]?\d+", str(c)) for w in str(c).split()), default=0)
               for col in zip(headers, *rows)]
    limits = [None] * len(headers)
    while max(map(len, text.split("\n"))) > width:
        wide = max((c for c in wrap if widths[c] > max(6, longest[c])), key=lambda c: widths[c], default=None)
        if wide is None:
            break
        widths[wide] -= 1
        limits[wide] = widths[wide]
        text = tabulate(wrapped(rows, limits), headers=wrapped([headers], limits)[0], tablefmt=grid)
    return text


def wrapped(rows, limits):
    """Text cells wrapped at their column's limit, words whole (never at a hyphen either)."""
    def cell(c, limit):
        if limit is None or isinstance(c, int) or not str(c) or re.fullmatch(r"[+-]?\d+", str(c)):
            return c
        return "\n".join(textwrap.wrap(str(c), limit, break_long_words=False, break_on_hyphens=False))
    return [[cell(c, limit) for c, limit in zip(row, limits)] for row in rows]


words = st.text(alphabet="abcdefghij ()-[]", min_size=0, max_size=40).map(str.strip)
figures = st.integers(-100_000, 100_000)
cells = st.one_of(words, figures, st.just(""), st.just("."), figures.map(lambda n: f"{n:+d}"))
HEADS = (["item", "for", "points", "doubles", "limit"], (0, 1, 4))
SUMMARY = (["player", "won", "points", "doubles", "limit", "score"], (0, 4))
MATRIX = (["pays \\ receives", "Ann", "Bob", "E", "N", "in all"], (0, 1, 2, 3, 4))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([HEADS, SUMMARY, MATRIX]), st.data(), st.integers(30, 130))
def test_one_pass_draws_what_narrowing_step_by_step_draws(kind, data, width):
    headers, wrap = kind
    rows = data.draw(st.lists(st.lists(cells, min_size=len(headers), max_size=len(headers)), min_size=1, max_size=8))
    drawn = fit(rows, headers, "simple", width, wrap)
    assert drawn == narrowed_step_by_step(rows, headers, "simple", width, wrap)
    shown = set(drawn.split())
    assert all(word in shown for row in rows for c in row for word in str(c).split())     # no word broken


def test_a_real_breakdown_at_forty_columns():
    rows = [["Exposed pung of honours", "[CCC]", 4, "", ""], ["Pung or kong of dragons", "[CCC]", "", 1, ""],
            ["Blessing of Heaven", "", "", "", "full limit"]]
    headers, wrap = HEADS
    for width in range(30, 90):
        assert fit(rows, headers, "simple", width, wrap) == narrowed_step_by_step(rows, headers, "simple", width, wrap)
