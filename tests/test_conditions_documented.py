"""Every rule condition is documented (issue 31, item 6), as datasette holds every setting
documented: each condition name the engine accepts has its row in schemes/README.md, and each
row there names a condition the engine accepts.

The README gives one table row to each condition, its name alone in the first cell
(`| `name` | parameter | holds when |`), under "Conditions of a `per: set` rule" for the
per-set conditions and "Conditions of a hand rule" for the others; the tile classes their
parameters name have a table of their own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mjscore.rules.conditions import CONDITIONS, SET_CONDITIONS, TILE_CLASSES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "schemes" / "README.md"
NAME_CELL = re.compile(r"`([a-z][a-z_-]*)`")
CELL_EDGE = re.compile(r"(?<!\\)\|")       # a cell's edge: a | not written \| (a | in a cell's text)

SECTIONS = {
    "### Conditions of a `per: set` rule": set(SET_CONDITIONS),
    "### Conditions of a hand rule": set(CONDITIONS),
    "### Tile classes": set(TILE_CLASSES),
}


def table_rows(heading: str) -> list[list[str]]:
    """The cells of each row of the table under the heading (up to the next heading), the
    table's head and its |---| line left out."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert lines.count(heading) == 1, f"schemes/README.md has no one heading {heading!r}"
    rows = []
    for line in lines[lines.index(heading) + 1:]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in CELL_EDGE.split(line.strip())[1:-1]])
    assert len(rows) > 2 and all(set(cell) <= set("-:") for cell in rows[1]), f"no table under {heading!r}"
    return rows[2:]


def documented(heading: str) -> list[str]:
    """The name each row documents: its first cell, which is that name alone, in backticks."""
    names = []
    for row in table_rows(heading):
        found = NAME_CELL.fullmatch(row[0])
        assert found, f"{heading}: the row {row!r} names not one condition alone in its first cell"
        assert all(row[1:]), f"{heading}: the row of {found[1]} leaves a cell empty"
        names.append(found[1])
    return names


@pytest.mark.parametrize("heading", SECTIONS)
def test_every_condition_the_engine_accepts_is_documented(heading):
    missing = SECTIONS[heading] - set(documented(heading))
    assert not missing, f"schemes/README.md, {heading}: no row for {sorted(missing)}"


@pytest.mark.parametrize("heading", SECTIONS)
def test_every_documented_condition_is_one_the_engine_accepts(heading):
    unknown = set(documented(heading)) - SECTIONS[heading]
    assert not unknown, f"schemes/README.md, {heading}: rows for {sorted(unknown)}, which the engine does not accept"


@pytest.mark.parametrize("heading", SECTIONS)
def test_each_condition_has_one_row(heading):
    names = documented(heading)
    assert len(names) == len(set(names)), f"{heading}: {sorted(n for n in set(names) if names.count(n) > 1)} twice"


@pytest.mark.parametrize("heading", SECTIONS)
def test_the_rows_have_the_columns_of_the_table(heading):
    lines = README.read_text(encoding="utf-8").splitlines()
    head = next(line for line in lines[lines.index(heading) + 1:] if line.startswith("|"))
    width = len(CELL_EDGE.split(head.strip())) - 2
    for row in table_rows(heading):
        assert len(row) == width, f"{heading}: {row[0]} has {len(row)} cells, the table {width}"


def test_the_files_the_readme_names_exist():
    """The catalogue's module and this test, as the README names them for a new condition."""
    text = README.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:mjscore|tests)/[\w/]+\.py)`", text))
    assert {"mjscore/rules/conditions.py", "tests/test_conditions_documented.py"} <= named
    assert all((ROOT / path).is_file() for path in named), sorted(p for p in named if not (ROOT / p).is_file())
