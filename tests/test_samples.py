"""Every sample hand reads, validates and round-trips through `show`, in both forms."""

import pytest
from conftest import SAMPLES
from typer.testing import CliRunner

from mjscore.cli import app
from mjscore.hand.validate import validate_table
from mjscore.io.notation import parse_tables, print_tables
from mjscore.io.reader import read_tables

MJ = sorted(SAMPLES.glob("*.mj"))


def test_there_are_at_least_ten_samples_in_both_forms():
    assert len(MJ) >= 10
    for path in MJ:
        assert path.with_suffix(".yaml").exists(), path


@pytest.mark.parametrize("path", MJ, ids=lambda p: p.name)
def test_sample_round_trips_through_show(path):
    tables = read_tables(str(path))
    for t in tables:
        validate_table(t)
    shown = CliRunner().invoke(app, ["show", str(path)])
    assert shown.exit_code == 0, shown.stderr
    assert parse_tables(shown.stdout) == tables
    assert print_tables(parse_tables(shown.stdout)) == shown.stdout


def _unnamed(tables):
    import dataclasses

    return [dataclasses.replace(t, players=tuple(dataclasses.replace(p, name=None) for p in t.players))
            for t in tables]


@pytest.mark.parametrize("path", MJ, ids=lambda p: p.name)
def test_yaml_form_is_the_same_table(path):
    # (the YAML session names the players of one hand, which the compact form cannot)
    assert _unnamed(read_tables(str(path.with_suffix(".yaml")))) == read_tables(str(path))
