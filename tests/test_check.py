"""`check`: a claim weighed with the same figures the scoring engine uses."""

from pathlib import Path

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
