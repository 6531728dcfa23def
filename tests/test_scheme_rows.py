"""`schemes show` tells a house file the right key: every parameter, set and pair row is one
record (what, value, key), and writing every row's key into a house file that extends another
scheme gives the scheme back: `schemes diff` shows nothing of them."""

import pytest
import yaml

import mjscore
from mjscore.model.settings import ROTATION, SETTINGS


def merged(keys):
    out: dict = {}
    for key in keys:
        for top, value in yaml.safe_load(key).items():
            if isinstance(value, dict):
                target = out.setdefault(top, {})
                for k, v in value.items():
                    if isinstance(v, dict) and isinstance(target.get(k), dict):
                        target[k].update(v)
                    else:
                        target[k] = v
            else:
                out[top] = value
    return out


@pytest.mark.parametrize("scheme", mjscore.shipped_schemes())
@pytest.mark.parametrize("base", ["babcock", "kajongg-bmja"])
def test_writing_every_rows_key_gives_the_scheme_back(tmp_path, scheme, base):
    view = mjscore.describe_scheme(scheme)
    keys = [row[2] for row in view["parameters"]] + view["house"]["sets"] + view["house"]["pairs"]
    house = {"scheme": "house", "extends": base, **merged(keys)}
    path = tmp_path / "house.yaml"
    path.write_text(yaml.safe_dump(house, sort_keys=False))
    # The pairs a base scores and the scheme does not are the house file's to remove: compare what the rows say.
    differences = [row for row in mjscore.diff_schemes(scheme, path)
                   if row[0].startswith(("parameter:", "set:")) or (row[0].startswith("pair:") and row[1] != "-")]
    assert differences == [], differences


def test_every_setting_has_its_row_with_its_own_key():
    rows = mjscore.describe_scheme("classical")["parameters"]
    keys = [key for _, _, key in rows]
    for s in SETTINGS + ROTATION:
        assert any(k.startswith(f"{s.section}: {{{s.name}: ") for k in keys), s.name
    labels = {label: key for label, _, key in rows}
    assert labels["seat change"] == "rotation: {seat_change: none}"
    assert labels["a loose-tile win needs"] == "ways_of_winning: {loose_needs_kong: true}"
    assert labels["robbing a kong"] == "ways_of_winning: {rob_concealed_pung: true}"
    assert labels["claimed kong < >"].startswith("sets: {claimed_kong: ")
