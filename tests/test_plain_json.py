"""Results write their JSON themselves (`to_json`), without building the plain object first: the
text must be what the one encoder (`model.plain.encode`) writes of that object, byte for byte,
whatever the scheme, with and without the runner-up, with any name or file name in it."""

import json
import random
import sys
from pathlib import Path

import pytest

import mjscore
from mjscore.evening.batch import score_stream
from mjscore.io.notation import parse_table, print_table
from mjscore.model import plain
from mjscore.model.errors import Location, NotationError
from mjscore.rules.shipped import shipped_schemes
from tests.conftest import table_samples

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import random_table


def _tables():
    rng = random.Random(23)
    out = [parse_table(print_table(random_table(rng))) for _ in range(150)]
    for path in table_samples():
        out.extend(mjscore.parse(path.read_text(), name=str(path)))
    return out


TABLES = _tables()


@pytest.mark.parametrize("scheme", shipped_schemes())
@pytest.mark.parametrize("explain", [False, True])
def test_a_result_writes_what_the_encoder_writes_of_its_object(scheme, explain):
    rows = [("t.mj", n, t) for n, t in enumerate(TABLES, start=1)]
    rows.append(("bad.mj", 7, NotationError("'12x' is not a tile", Location("bad.mj", 7, 4), "12x")))
    items = list(score_stream(rows, scheme, explain=explain))
    assert sum(i.ok for i in items) > 50 and not all(i.ok for i in items)
    for item in items:
        text = item.to_json()
        assert text == plain.encode(json.loads(text)) == plain.encode(item.to_dict())
        if item.ok:
            assert item.result.to_json() == plain.encode(item.result.to_dict())


# Each name as a YAML double-quoted string writes it: quotes, a backslash, letters beyond ASCII, a
# tab, a control character, an invisible one, a tile's picture.
@pytest.mark.parametrize("name", ['Ann \\"the Fox\\"', "back\\\\slash", "Zoë", "李", "a\\tb", "bell\\u0007",
                                  "\\u200bZed", "\\U0001F004"])
def test_names_and_files_are_written_as_the_encoder_writes_them(name, tmp_path):
    path = tmp_path / f"odd 'file' {name[:3]}.yaml"
    path.write_text('players:\n'
                    f'  E: {{name: "{name}", tiles: "[CCC] 123p 567p 99s EEE 1f", win: "9s self"}}\n'
                    '  S: {tiles: "1m", incomplete: true}\n')
    items = list(mjscore.score_many(path))
    assert items and all(i.ok for i in items)
    for item in items:
        text = item.to_json()
        assert text == plain.encode(json.loads(text)) == plain.encode(item.to_dict())
        assert item.result.players[0].name == json.loads(text)["players"][0]["name"]


@pytest.mark.parametrize("settings", [
    {"paying": "add-up", "kitty": 5, "extra_hand_bonus": 10},
    {"paying": "winner-only", "kitty": 5, "kitty_hand": "no-chow"},
    {"payoff": "japanese", "round_payments_up": 100, "east_double": False},
    {"extra_hand_bonus": 10, "loser_difference_limit": 20},
])
def test_every_kind_of_settlement_is_written_as_the_encoder_writes_it(settings, tmp_path):
    path = tmp_path / "hands.mj"
    tables = [print_table(t) for t in TABLES[:40]]
    path.write_text("---\n".join(["extra-hands 2\n" + t for t in tables[:20]] + tables[20:])
                    + "---\npenalty W 50\npenalty N 100 to E\nE: [111p] 2378m 4455s NN\n"
                      "S: [CCC] 234m 678m 55p 789s 1f win 5p from W\nW: [999m] ...\nN: score 16\n"
                      "---\ndraw\nE: 1m ...\nS: 2m ...\nW: 3m ...\nN: 4m ...\n")
    items = list(mjscore.score_many(path, **settings))
    assert sum(i.ok and i.result.settlement is not None for i in items) > 10
    assert any(i.ok and i.result.settlement is not None and i.result.settlement.specials for i in items) or \
        "kitty" not in settings and "extra_hand_bonus" not in settings
    for item in items:
        text = item.to_json()
        assert text == plain.encode(json.loads(text)) == plain.encode(item.to_dict())
