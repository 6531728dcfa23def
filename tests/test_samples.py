"""Every sample hand reads, validates and round-trips through `show`, in both forms."""

import pytest
from conftest import SAMPLES, SESSION_SAMPLES
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


TABLES = [p for p in MJ if p.name not in SESSION_SAMPLES]


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
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


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_yaml_form_is_the_same_table(path):
    # (the YAML session names the players of one hand, which the compact form cannot)
    assert _unnamed(read_tables(str(path.with_suffix(".yaml")))) == read_tables(str(path))


@pytest.mark.usefixtures("unwrapped")
def test_a_session_is_not_read_as_tables():
    from mjscore.model.errors import SessionError

    for name in SESSION_SAMPLES:
        with pytest.raises(SessionError, match="mjscore session"):
            read_tables(str(SAMPLES / name))
        r = CliRunner().invoke(app, ["score", str(SAMPLES / name)])
        assert r.exit_code == 1 and "play it with 'mjscore session FILE'" in r.stderr


def test_the_yaml_session_is_the_same_evening():
    from mjscore.api import play_session

    mj = play_session(SAMPLES / "evening-session.mj").to_dict()
    yml = play_session(SAMPLES / "evening-session.yaml").to_dict()
    strip = [[{k: v for k, v in p.items() if k != "name"} for p in h["players"]] for h in mj["hands"]]
    assert strip == [[{k: v for k, v in p.items() if k != "name"} for p in h["players"]] for h in yml["hands"]]
    assert mj["totals"] == yml["totals"]
