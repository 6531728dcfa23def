"""A scheme that names its source engine scores as it does (issue 39, item 2).

`millington` scores Millington as J. C. Bradfield's `mj` does, `chinese-classical` fills Four
Winds' gaps with Pomax's scorer.  The lines followed, in the sources as stored:

- MJ: J. C. Bradfield, `mj` 1.12 (mahjong.julianbradfield.org), as kept in passcod/mah-jong at
  b810aa780059f31b511fa9514b5983cf724066cd: scoring.c l.583 `if ( g->wall.live_used >=
  g->wall.live_end ) dbl(1,"winning with last tile");`, whatever `g->whence` (a robbed kong
  too; l.585 adds "robbing a kong"); scoring.c l.409 `if ( g->exposed_tile_count[t] == 4 &&
  g->tile != t ) continue;`, where game.c counts a tile exposed when it is discarded (l.837),
  shown in a claimed pung, kong or chow (l.1216, l.1270, l.1347-1356), a declared concealed kong
  (l.1645) or added to a pung (l.1698): never the winner's concealed tiles.  l.410 asks
  `player_can_mah_jong` for each tile without looking at how many the winner holds, so a wait
  she holds all four of counts there: not followed (no tile can complete it).
- POMAX: Pomax/mahjong at a047481e681e7ef0cfb69f81626d8d238c5de5ad,
  src/js/core/scoring/chinese-classical.js l.196 (a double for robbing a kong) and l.271 (a
  double for the last tile, `state.lastTile`, which ruleset.js l.308 sets when no tile is left,
  whatever the tile's source).
- `classical` keeps the seed text's ruling (docs/rules.md, "When a way of winning is
  possible"): a robbed tile is neither a discard nor drawn, so the robbing alone counts.
"""

from pathlib import Path

import pytest
import yaml

import mjscore

ROOT = Path(__file__).resolve().parent.parent
ROBBED_LAST = "S: 123m 456m 789m 345p 99s win 5p from W robbed last; E: ...; W: ...; N: ..."
SHANPON = "S: [222s] [123s] 111777m 55p win 1m from N; W: ... discarded 5p; N: ... discarded 5p"


def south(text: str, scheme: str):
    r = mjscore.score(text, scheme=scheme)
    return next(p for p in r.players if p.seat.value == "S")


# -- a kong robbed with the wall's last tile -----------------------------------------------------

@pytest.mark.parametrize("scheme,score,last_double,source", [
    ("millington", 160, True, "MJ scoring.c l.583: winning with last tile, any source; l.585 robbing"),
    ("chinese-classical", 80, True, "POMAX chinese-classical.js l.271 last tile, l.196 robbing"),
    ("classical", 40, False, "seed text 000: robbing alone (docs/rules.md)"),
])
def test_a_kong_robbed_with_the_last_tile(scheme, score, last_double, source):
    p = south(ROBBED_LAST, scheme)
    rules = [i.rule for i in p.items]
    assert p.score == score, source
    assert "robbing-kong" in rules, source
    assert ("last-discard" in rules) is last_double, source


@pytest.mark.parametrize("scheme", ["millington", "chinese-classical", "classical"])
def test_the_last_discard_and_the_last_drawn_tile_are_as_before(scheme):
    # Only the robbed kong changed: a discard or a drawn tile earns the one double it earned.
    discard = south("S: 123m 456m 789m 345p 99s win 5p from W last; E: ...; W: ...; N: ...", scheme)
    drawn = south("S: 123m 456m 789m 345p 99s win 5p self last; E: ...; W: ...; N: ...", scheme)
    assert [i.rule for i in discard.items].count("last-discard") == 1
    assert "last-tile" in [i.rule for i in drawn.items] and "last-discard" not in [i.rule for i in drawn.items]


# -- millington's only possible tile: counted on the tiles face up -----------------------------

@pytest.mark.parametrize("table,score,only,source", [
    # 55p and 111m waited on 5p or 1m; two 5p discarded, the winner's own two concealed: mj sees
    # two 5p exposed, so one could still come.
    (SHANPON, 30, False, "MJ scoring.c l.409: the winner's concealed copies are not exposed"),
    # 23p waited on 1p or 4p; East shows three 1p and West discarded the fourth: all four face up.
    ("S: 123m 456m 789m 234p 99s win 4p from W; E: [111p] ...; W: ... discarded 1p", 44, True,
     "MJ scoring.c l.409; game.c l.837 (the discard), l.1216 (East's pung)"),
    # 45s waited on 3s or 6s; the winner's own exposed pung of 6s and West's discard: face up.
    ("S: [666s] 123m 456m 345s 99p win 3s from W; W: ... discarded 6s", 24, True,
     "MJ scoring.c l.409; game.c l.1216: the winner's exposed pung counts too"),
    ("S: [666s] 123m 456m 345s 99p win 3s from W", 22, False, "MJ scoring.c l.409: one 6s still to come"),
    # 111p 2222p waited on 3p or on a fifth 2p: mj counts the 2p (l.410, 24), which no tile can be.
    ("S: 111p 2222p 3p 456m 789m win 3p from W", 26, True,
     "MJ scoring.c l.410 counts it; not followed: a wait the winner holds all four of is none"),
])
def test_millington_only_possible_tile(table, score, only, source):
    p = south(table, "millington")
    assert p.score == score, source
    assert ("only-possible" in [i.rule for i in p.items]) is only, source


def test_the_winners_own_copies_still_count_where_a_scheme_asks_only_ignore_dead(tmp_path):
    # The switch is the scheme's: {ignore_dead: true} alone keeps counting the winner's copies.
    f = tmp_path / "house.yaml"
    f.write_text("scheme: house\nextends: millington\nrules:\n"
                 "  - {id: only-possible, when: {only_possible: {ignore_dead: true}}}\n", encoding="utf-8")
    p = south(SHANPON, str(f))
    assert p.score == 32 and "only-possible" in [i.rule for i in p.items]


@pytest.mark.parametrize("param", ["{own_concealed: false}", "{ignore_dead: false, own_concealed: false}",
                                   "{ignore_dead: true, own_concealed: 'no'}"])
def test_own_concealed_goes_only_with_ignore_dead(tmp_path, param):
    f = tmp_path / "house.yaml"
    f.write_text(f"scheme: house\nextends: classical\nrules:\n  - {{id: op, text: t, when: {{only_possible: {param}}}, "
                 "points: 2}\n", encoding="utf-8")
    with pytest.raises(mjscore.SchemeError, match="only_possible"):
        mjscore.load_scheme(str(f))


def test_the_scheme_its_readme_and_the_rules_page_say_the_same():
    rule = next(r for r in yaml.safe_load((ROOT / "schemes" / "millington.yaml").read_text(encoding="utf-8"))["rules"]
                if r["id"] == "only-possible")
    assert rule["when"] == {"only_possible": {"ignore_dead": True, "own_concealed": False}}
    assert "scoring.c l.409" in rule["source"]
    readme = (ROOT / "schemes" / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `only_possible` |"))
    assert "`{ignore_dead: true, own_concealed: false}`" in row and "(`millington`)" in row
    assert "own concealed tiles are not counted out" in row and "holds all four is none" in row
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    cell = next(line for line in rules.splitlines() if line.startswith("| Only possible tile")).split(" | ")[-1]
    assert "the winner's concealed copies are not counted out" in cell and "holds all four of is none" in cell
    assert f"`{SHANPON}` is 30" in cell and south(SHANPON, "millington").score == 30
