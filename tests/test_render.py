"""Text tables narrowed to the terminal in one pass: the same grid, character for character, as
narrowing them by re-drawing at every step (the reference below), at every width; and no word
broken on the way.  And what is rendered: the plain forms the library gives are the shapes the
command line declares for them (mjscore.model.answers)."""

import re
import textwrap
import types
import typing

import typing_extensions
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

import mjscore
from mjscore.model import answers as plain
from mjscore.cli.render import fit

ROOT = Path(__file__).resolve().parent.parent


def narrowed_step_by_step(rows, headers, grid, width, wrap=()):
    """The reference: re-draw the grid each time a column is narrowed by one character."""
    text = tabulate(rows, headers=headers, tablefmt=grid)
    if width is None or grid != "simple":
        return text
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=True)]
    longest = [max((len(w) for c in col if not re.fullmatch(r"[+-]?\d+", str(c)) for w in str(c).split()), default=0)
               for col in zip(headers, *rows, strict=True)]
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
    return [[cell(c, limit) for c, limit in zip(row, limits, strict=True)] for row in rows]


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


# -- the plain forms, as the command line reads them -------------------------------------------

def misfits(value, shape, path="$"):
    """Where `value` departs from `shape` (a TypedDict of mjscore.model.answers, or a type inside one):
    a key missing or not declared, a value of another type."""
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if origin in (typing.Union, types.UnionType):
        each = [misfits(value, a, path) for a in args]
        return [] if any(not found for found in each) else [f"{path}: {value!r:.60} is none of {shape}"]
    if origin is typing.Literal:
        return [] if value in args else [f"{path}: {value!r:.60} is none of {args}"]
    if typing_extensions.is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{path}: {value!r:.60} is no {shape.__name__}"]
        hints = typing.get_type_hints(shape, include_extras=True)
        optional = {k for k, t in hints.items() if typing.get_origin(t) is typing.NotRequired}
        found = [f"{path}: no {k!r}" for k in hints if k not in value and k not in optional]
        for k, v in value.items():
            if k not in hints:
                found.append(f"{path}: {k!r} is not declared in {shape.__name__}")
            else:
                t = hints[k]
                found += misfits(v, typing.get_args(t)[0] if k in optional else t, f"{path}.{k}")
        return found
    if origin in (list, Iterable):
        if not isinstance(value, list):
            return [f"{path}: {value!r:.60} is no list"]
        return [m for i, v in enumerate(value) for m in misfits(v, args[0], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {value!r:.60} is no mapping"]
        return [m for k, v in value.items() for m in misfits(k, args[0], f"{path} key") + misfits(v, args[1],
                                                                                                     f"{path}[{k!r}]")]
    if shape is type(None):
        return [] if value is None else [f"{path}: {value!r:.60} is not None"]
    if shape in (int, float) and isinstance(value, bool):
        return [f"{path}: {value!r} is a boolean, not {shape.__name__}"]
    if shape is float:
        return [] if isinstance(value, (int, float)) else [f"{path}: {value!r:.60} is no number"]
    return [] if isinstance(value, shape) else [f"{path}: {value!r:.60} is no {shape.__name__}"]


def test_the_shape_check_finds_what_departs():
    table = mjscore.score(mjscore.example("win-on-discard")).to_dict()
    assert misfits(table, plain.TablePlain) == []
    del table["round"]
    table["players"][0]["x"] = 1
    table["settlement"]["net"]["E"] = "1"
    found = misfits(table, plain.TablePlain)
    assert "$: no 'round'" in found and "$.players[0]: 'x' is not declared in PlayerPlain" in found
    assert any(m.startswith("$.settlement: ") for m in found)


SESSIONS = [ROOT / "sample_hands/evening-session.mj", ROOT / "sample_hands/evening-session.yaml"]
TABLES = sorted(p for p in (ROOT / "sample_hands").glob("*.*")
                if p.suffix in (".mj", ".yaml") and "session" not in p.name)


@pytest.mark.parametrize("settings", [{}, {"explain": True}, {"stake": "0.05 EUR"}, {"paying": "add-up"},
                                      {"kitty": 10, "extra_hand_bonus": 5, "paying": "winner-only"}])
def test_a_table_and_a_batch_are_the_shapes_the_command_line_reads(settings):
    explain = settings.pop("explain", False)
    for item in mjscore.score_many(*TABLES, explain=explain, **settings):
        assert misfits(item.result.to_dict(), plain.TablePlain) == [], item.file
    for item in mjscore.score_many(*SESSIONS, *TABLES, sessions=True, **settings):
        row = {k: v for k, v in item.to_dict().items() if k not in ("table", "file", "line")}
        shape = plain.EveningPlain if "settle_up" in row else plain.HandPlain if "hand" in row else plain.TablePlain
        assert misfits(row, shape) == [], (item.file, item.line)


@pytest.mark.parametrize("settings", [{}, {"stake": "0.1"}, {"paying": "add-up"}, {"kitty": 5}])
def test_an_evening_and_a_season_are_the_shapes_the_command_line_reads(settings):
    for path in SESSIONS:
        assert misfits(mjscore.play_session(path, **settings).to_dict(), plain.SessionPlain) == []
    assert misfits(mjscore.play_season(SESSIONS, **settings).to_dict(), plain.SeasonPlain) == []


def test_a_change_to_an_evening_is_the_shape_the_command_line_reads(tmp_path):
    """What `add`, `edit` and `undo` show: their plain forms with the evening's start."""
    book = mjscore.Evening(tmp_path / "evening.mj")
    added = book.add("E: score 40 win self; S: score 8; W: ...; N: ...", players=("Ann", "Bob", "Cid", "Dee"),
                     stake="0.05 EUR", kitty=10)
    assert misfits({**added.to_dict(), "start": added.evening.start}, plain.AddedPlain) == []
    corrected = book.edit(1, "penalty Ann 50 to Bob\nE: score 48 win self; S: score 8; W: ...; N: ...")
    assert misfits({**corrected.to_dict(), "start": corrected.evening.start}, plain.CorrectedPlain) == []
    removed = book.undo()
    assert misfits({**removed.to_dict(), "start": removed.evening.start}, plain.RemovedPlain) == []


def test_waits_and_schemes_are_the_shapes_the_command_line_reads():
    for players in mjscore.waits("E: 1m 19p 19s E S W NN C F P\n---\nE: [111p] 222s 333m 99s EE"):
        for p in players:
            assert misfits(p, plain.WaitsPlain) == []
    for name in mjscore.shipped_schemes():
        assert misfits(mjscore.describe_scheme(name), plain.SchemeViewPlain) == [], name
        for table in mjscore.payoff_tables(name):
            assert misfits(table, plain.PayoffTablePlain) == [], name
