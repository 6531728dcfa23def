"""Claims checked: each `= N` a player claims against the score mjscore counts, and why they differ.

The explanation looks for the usual slips: an item left out, a double too many or too few, a few
points too many or too few, the limit forgotten, a poorer arrangement of the same tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from mjscore.evening.session import play
from mjscore.io.reader import is_session, parse_any
from mjscore.io.sessionfile import read_session
from mjscore.pipeline import EMPTY, evaluate
from mjscore.rules.scheme import Scheme
from mjscore.scoring.score import hand_score, limit_value


def _capped(points: int, doubles: int, scheme: Scheme) -> int:
    """The score of these figures, as the scoring engine works it out."""
    return hand_score(points, max(doubles, 0), scheme)[2]


def _item_text(item: dict[str, Any]) -> str:
    what = item["text"] + (f" {item['applies_to']}" if item.get("applies_to") else "")
    if "limit" in item:
        return f"{what} (limit hand)"
    if "doubles" in item:
        return f"{what} ({item['doubles']} double{'s' if item['doubles'] != 1 else ''})"
    return f"{what} ({item['points']} points)"


def explain(claim: int, player: dict[str, Any], scheme: Scheme) -> list[str]:
    """Sentences that account for the difference between a claim and mjscore's score."""
    score, points, doubles = player["score"], player["points"], player["doubles"]
    reasons: list[str] = []
    if player.get("limit"):
        if claim < score:
            reasons.append(f"the hand is a limit hand, {player['limit']}, worth {score}")
        return reasons or [f"the hand is a limit hand, {player['limit']}, worth {score}"]
    for item in player["items"]:
        p, d = points - item.get("points", 0), doubles - item.get("doubles", 0)
        if _capped(p, d, scheme) == claim:
            reasons.append(f"the claim leaves out {_item_text(item)}")
    if not reasons:
        # No one item accounts for it: two left out together may.
        items = player["items"]
        for n, a in enumerate(items):
            for b in items[n + 1:]:
                p = points - a.get("points", 0) - b.get("points", 0)
                d = doubles - a.get("doubles", 0) - b.get("doubles", 0)
                if _capped(p, d, scheme) == claim:
                    reasons.append(f"the claim leaves out both {_item_text(a)} and {_item_text(b)}, together")
    for item in player.get("not_counted", []):
        if "limit" in item and limit_value(item["limit"], scheme) == claim:
            reasons.append(f"the claim counts {_item_text(item)} at {claim}, but the points total "
                           f"{points * 2 ** doubles} is worth more")
    for k in (1, 2, 3):
        if _capped(points, doubles + k, scheme) == claim:
            reasons.append(f"the claim counts {k} double{'s' if k > 1 else ''} more than the hand has")
        if doubles >= k and _capped(points, doubles - k, scheme) == claim and not reasons:
            reasons.append(f"the claim counts {k} double{'s' if k > 1 else ''} fewer than the hand has")
    for k in (2, 4, 8, 10, 16, 20, 32):
        if _capped(points + k, doubles, scheme) == claim:
            reasons.append(f"the claim counts {k} points more than the hand has")
        if points >= k and _capped(points - k, doubles, scheme) == claim and not reasons:
            reasons.append(f"the claim counts {k} points fewer than the hand has")
    if not scheme.roof_off and points * 2 ** doubles > scheme.limit and claim == points * 2 ** doubles:
        reasons.append(f"the claim goes over the limit: {points} points x 2^{doubles} = {claim}, "
                       f"capped at {scheme.limit}")
    ru = player.get("runner_up")
    if ru and ru["score"] == claim:
        lacks = ", ".join(_item_text(i) for i in ru.get("missing", [])) or "nothing"
        reasons.append(f"the claim matches the poorer arrangement {' '.join(ru['arrangement'])}; "
                       f"the best one also has {lacks}")
    return reasons


def check_result(result: dict[str, Any], claims: dict[str, int], scheme: Scheme,
                 where: dict[str, str]) -> tuple[list[str], int]:
    """Lines of report for one table (each claim at its player's line, `where[seat]`), and how
    many claims differ."""
    lines, differ = [], 0
    for p in result["players"]:
        claim = claims.get(p["seat"])
        if claim is None:
            continue
        who = p["seat"] + (f" ({p['name']})" if p.get("name") else "")
        at = where[p["seat"]]
        if p.get("counted"):
            lines.append(f"{at}: {who} claims {claim} beside a score counted at the table (score {p['score']}): "
                         "there are no tiles to compare with")
            continue
        if claim == p["score"]:
            lines.append(f"{at}: {who} claims {claim}: agreed")
            continue
        differ += 1
        figures = (f"{p['limit']}" if p["limit"] else f"{p['points']} points, {p['doubles']} "
                   f"double{'s' if p['doubles'] != 1 else ''}")
        lines.append(f"{at}: {who} claims {claim}, mjscore counts {p['score']} ({figures})")
        reasons = explain(claim, p, scheme)
        if len(reasons) > 1:
            # Each of these alone accounts for the difference: they are alternatives, not a list of slips.
            lines.append("    any one of these would account for the difference:")
            lines.extend(f"      {r}" for r in reasons)
        else:
            lines.extend(f"    {r}" for r in reasons)
        if not reasons:
            lines.append("    mjscore's items: " + "; ".join(_item_text(i) for i in p["items"]))
    return lines, differ


class CheckReport(NamedTuple):
    lines: list[str]           # one line a claim, each followed by its explanation when it differs
    differences: int           # how many claims differ


def check_text(text: str, name: str, scheme: str | None = None, given: Mapping[str, Any] = EMPTY) -> CheckReport:
    """Every claim of a text of tables or a session, checked.

    A session's hands are scored with the session's seating (round, dealer, names).  Each is
    scored with its runner-up, which explains a poorer arrangement.
    """
    if is_session(text, name):
        session = read_session(text, name)
        played = play(session, scheme, given, explain=True)
        pairs = [(h.result.table, h.result, f" hand {h.number}") for h in played.hands]
    else:
        pairs = [(t, evaluate(t, scheme, given, explain=True), "") for t in parse_any(text, name)]
    out, differ = [], 0
    for table, result, hand in pairs:
        claims = {p.seat.value: p.claim for p in table.players if p.claim is not None}
        where = {p.seat.value: f"{p.where}{hand}" for p in table.players}
        lines, n = check_result(result.to_dict(), claims, result.scheme, where)
        out.extend(lines)
        differ += n
    return CheckReport(out, differ)
