"""The published conformance cases, run through the command line (Typer's runner, in process).

tests/conformance/ holds unchanged copies of ../shared/conformance/; a test fails when a copy
differs, so the project's tests stand alone and cannot drift from the published cases.
"""

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from mjscore.cli import app

HERE = Path(__file__).resolve().parent
COPIES = HERE / "conformance"
SHARED = HERE.parent.parent / "shared" / "conformance"
runner = CliRunner()


def _cases(name, kind=None):
    data = yaml.safe_load((COPIES / name).read_text(encoding="utf-8"))
    cases = data["cases"] if isinstance(data, dict) else data
    return [c for c in cases if c.get("kind") == kind]


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/conformance is not beside this checkout")
@pytest.mark.parametrize("name", sorted(p.name for p in COPIES.iterdir()) if COPIES.is_dir() else [])
def test_copy_is_unchanged(name):
    assert (COPIES / name).read_bytes() == (SHARED / name).read_bytes(), \
        f"tests/conformance/{name} differs from ../shared/conformance/{name}: copy it again, never edit it"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/conformance is not beside this checkout")
def test_every_shared_file_is_copied():
    assert sorted(p.name for p in SHARED.iterdir()) == sorted(p.name for p in COPIES.iterdir())


def score_json(table: str, *args: str) -> dict:
    r = runner.invoke(app, ["score", "-", "--format", "json", *args], input=table)
    assert r.exit_code == 0, r.stderr or r.stdout
    return json.loads(r.stdout)


SCORING = _cases("kajongg.yaml") + _cases("dmjl-bmja.yaml")


@pytest.mark.parametrize("case", SCORING, ids=[f"{c['id']}@{c['scheme']}" for c in SCORING])
def test_scoring_case(case):
    result = score_json(case["table"], "--scheme", case["scheme"])
    (player,) = [p for p in result["players"] if p["seat"] == case["seat"]]
    expect = case["expect"]
    if expect.get("limit"):
        assert player["limit"] is not None, player
        assert player["score"] == expect["score"], player
    else:
        assert player["limit"] is None, player
        assert (player["points"], player["doubles"], player["score"]) == \
            (expect["points"], expect["doubles"], expect["score"]), player
    # the items add up to the result
    if player["limit"] is None:
        assert sum(i.get("points", 0) for i in player["items"]) == player["points"]
        assert sum(i.get("doubles", 0) for i in player["items"]) == player["doubles"]


def _refused():
    """The skipped hands that carry their table: a scheme refuses them (their `reason` says why)."""
    data = yaml.safe_load((COPIES / "dmjl-bmja.yaml").read_text(encoding="utf-8"))
    return [c for c in data.get("skipped", []) if "table" in c] if isinstance(data, dict) else []


REFUSED = _refused()


@pytest.mark.parametrize("case", REFUSED, ids=[f"{c['id']}@{c['scheme']}" for c in REFUSED])
def test_skipped_case_is_refused(case):
    r = runner.invoke(app, ["score", "-", "--format", "json", "--scheme", case["scheme"], "--paying", "winner-only"],
                      input=case["table"])
    assert r.exit_code == 1 and "error:" in r.stderr, (r.stdout, r.stderr)


WAITS = _cases("kajongg.yaml", "waits")


@pytest.mark.parametrize("case", WAITS, ids=[f"{c['id']}@{c['scheme']}" for c in WAITS])
def test_waits_case(case):
    r = runner.invoke(app, ["waits", "-", "--scheme", case["scheme"], "--format", "json"], input=case["table"])
    assert r.exit_code == 0, r.stderr or r.stdout
    players = json.loads(r.stdout)["players"]
    (player,) = [p for p in players if p["seat"] == "E"]
    assert player["waits"] == case["expect"]["waits"]


def _payment_cases():
    data = yaml.safe_load((COPIES / "payments.yaml").read_text(encoding="utf-8"))
    return data


PAYMENTS = _payment_cases()


@pytest.mark.parametrize("case", PAYMENTS, ids=[c["id"] for c in PAYMENTS])
def test_payment_case(case):
    opts = case.get("options", {})
    args = ["--scheme", case["scheme"]]
    if "paying" in opts:
        args += ["--paying", opts["paying"]]
    if "payoff" in opts:
        args += ["--payoff", opts["payoff"]]
    if "east_double" in opts:
        args.append("--east-double" if opts["east_double"] else "--no-east-double")
    if "round_payments_up" in opts:
        args += ["--round-payments-up", str(opts["round_payments_up"])]
    result = score_json(case["table"], *args)
    settlement = result["settlement"]
    assert settlement is not None, result.get("settlement_error")
    expect = case["expect"]
    for seat, amount in expect.get("net", {}).items():
        assert settlement["net"][seat] == amount, (seat, settlement)
    if "payments" in expect:
        got = sorted((p["from"], p["to"], p["amount"]) for p in settlement["payments"])
        want = sorted((p["from"], p["to"], p["amount"]) for p in expect["payments"])
        assert got == want
