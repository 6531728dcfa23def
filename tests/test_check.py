"""`check`: a claim weighed with the same figures the scoring engine uses."""

from pathlib import Path

import pytest

import mjscore

HAND = "round S; E: [CCC] 123p 567p 99s EEE 1f win 9s self = {claim}"


def test_a_claim_is_weighed_with_the_schemes_rounding_before_the_doubles(tmp_path: Path):
    house = tmp_path / "house.yaml"
    house.write_text("scheme: house\nextends: classical\nrounding: {mode: up, unit: 10, stage: before-doubles}\n")
    # 40 points, 2 doubles: 160.  Without Going out, 20 points: 80.
    report = mjscore.check(HAND.format(claim=80), scheme=house)
    assert "the claim leaves out Going out (20 points)" in "\n".join(report.lines)
    # Without the concealed pung, 32 points round up to 40 before the doubles: 160, not 130
    # (rounding the score after the doubles, as check once did, would have explained 130 so).
    report = mjscore.check(HAND.format(claim=130), scheme=house)
    assert report.differences == 1 and "leaves out Concealed pung" not in "\n".join(report.lines)


# -- every difference explained ------------------------------------------------------------------

@pytest.mark.parametrize("claim,said", [
    # items left out, one or two together: alternatives
    (80, ["any one of these would account for the difference:",
          "the claim leaves out Pung or kong of dragons [CCC] (1 double)",
          "the claim leaves out Going out (20 points)"]),
    (40, ["the claim leaves out both Pung or kong of dragons [CCC] (1 double) and Pung or kong of own wind EEE "
          "(1 double), together"]),
    # an item counted twice
    (168, ["the claim counts Winning tile drawn from the wall (2 points) twice",
           "the claim counts Only possible tile (2 points) twice"]),
    (320, ["the claim counts Pung or kong of dragons [CCC] (1 double) twice"]),
    # no item: the points and doubles that would give the claim, and the items worth them, or none
    (164, ["no item left out or counted twice accounts for it: 164 is what 41 points, 2 doubles give, "
           "1 point more than the hand has; no item is worth 1 point"]),
    (78, ["78 is what 39 points, 1 double give, 1 point and 1 double fewer than the hand has; no item is worth "
          "1 point, and 1 double is what Pung or kong of dragons [CCC] or Pung or kong of own wind EEE is worth"]),
    # nothing at all
    (2000, ["nothing accounts for it: under 'classical' no hand scores more than the limit, 1000"]),
])
def test_every_difference_is_explained_beside_the_breakdown(claim, said):
    report = mjscore.check(HAND.format(claim=claim))
    text = "\n".join(report.lines)
    assert report.differences == 1 and report.lines[0].endswith(
        f"claims {claim}, mjscore counts 160 (40 points, 2 doubles)")
    breakdown = report.lines[report.lines.index("    mjscore's breakdown:") + 1:]
    for item in ("4 points  Exposed pung of honours [CCC]", "1 double  Pung or kong of dragons [CCC]",
                 "20 points  Going out", "= 40 points x 2^2 = 160"):
        assert any(line.strip() == item for line in breakdown), item
    for sentence in said:
        assert sentence in text, sentence


def test_check_goes_on_past_an_unreadable_table_and_names_the_players_of_an_evening(tmp_path: Path):
    from typer.testing import CliRunner

    from mjscore.cli import app

    tables = tmp_path / "claims.mj"
    tables.write_text(HAND.format(claim=80).replace("; ", "\n") + "\n---\nE: 12x = 4\n---\n"
                      + HAND.format(claim=160).replace("; ", "\n") + "\n")
    report = mjscore.check(tables)
    assert (report.differences, report.errors) == (1, 1)
    assert [line.split(": ", 1)[1] for line in report.lines if not line.startswith(" ")] == [
        "E claims 80, mjscore counts 160 (40 points, 2 doubles)",
        "error: '12x' is not a tile: 'x' is no suit (m p s, or c d b; z for honours)",
        "E claims 160: agreed"]
    r = CliRunner().invoke(app, ["check", str(tables)])
    assert r.exit_code == 1 and "E claims 160: agreed" in r.stdout and "'12x' is not a tile" in r.stderr
    json_out = CliRunner().invoke(app, ["check", str(tables), "--format", "json"])
    import json

    data = json.loads(json_out.stdout)
    assert (data["differences"], data["errors"]) == (1, 1) and data["report"][-1].endswith("E claims 160: agreed")
    evening = tmp_path / "evening.mj"
    evening.write_text("players Ann Bob Cid Dee\n---\nE: score 10 win self\nS: [555m] ... = 2\nW: ...\nN: ...\n")
    assert mjscore.check(evening).lines == [f"{evening}:4:1 hand 1: Bob claims 2: agreed"]


def test_check_streams_a_table_at_a_time():
    """The first table's report comes before the input is read to its end (nothing is kept)."""
    read = []

    def lines():
        for n in range(1000):
            read.append(n)
            yield from (HAND.format(claim=160).replace("; ", "\n") + "\n---\n").splitlines(keepends=True)

    entries = mjscore.check_many(lines())
    first = next(entries)
    assert first.ok and first.value.lines[0].endswith("E claims 160: agreed") and len(read) < 10


def test_check_at_sixty_columns_breaks_lines_between_words_only():
    from typer.testing import CliRunner

    from mjscore.cli import app

    for claim in (78, 80, 164, 2000):
        wide = CliRunner().invoke(app, ["check", "-e", HAND.format(claim=claim)], env={"COLUMNS": "200"}).stdout
        narrow = CliRunner().invoke(app, ["check", "-e", HAND.format(claim=claim)], env={"COLUMNS": "60"}).stdout
        assert max(map(len, narrow.splitlines())) <= 60
        assert narrow.split() == wide.split()                    # the same words, none broken
