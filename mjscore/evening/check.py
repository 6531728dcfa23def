"""Claims checked: each `= N` a player claims against the score mjscore counts, and why they differ.

A claim that differs is shown beside mjscore's breakdown, item by item, and the explanation
looks for the usual slips: an item (or two) left out, an item counted twice, the limit
forgotten, a poorer arrangement of the same tiles; failing those, it says which count of points
and doubles the claim is, against the hand's, and which items are worth the difference, or that
none is.

Tables are checked as they stream: one report per table, none kept once it is given, so memory
does not grow with the number of tables.  A table that cannot be read or scored gives its error
and the others are still checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from mjscore.evening.session import hands_of
from mjscore.evening.words import figures
from mjscore.io.reader import SessionText
from mjscore.io.sessionfile import read_session
from mjscore.model.errors import MjError
from mjscore.model.table import Table
from mjscore.pipeline import EMPTY, TableResult, evaluate
from mjscore.rules.scheme import RoundingMode, Scheme
from mjscore.scoring.score import hand_score, limit_value
from mjscore.model.say import _, n_


def _capped(points: int, doubles: int, scheme: Scheme) -> int:
    """The score of these figures, as the scoring engine works it out."""
    return hand_score(points, max(doubles, 0), scheme)[2]


def _plural(n: int, word: str) -> str:
    """`n` points (`word` "point") or doubles ("double"), as a sentence that counts says them."""
    if word == "double":
        return n_("{n} double", "{n} doubles", n).format(n=n)
    return n_("{n} point", "{n} points", n).format(n=n)


def _value(item: dict[str, Any]) -> str:
    if "limit" in item:
        return _("limit hand")
    if "doubles" in item:
        return _plural(item["doubles"], "double")
    return _plural(item["points"], "point")


def _item_text(item: dict[str, Any]) -> str:
    what = item["text"] + (f" {item['applies_to']}" if item.get("applies_to") else "")
    return f"{what} ({_value(item)})"


def _figures(points: int, doubles: int) -> str:
    return f"{_plural(points, 'point')}, {_plural(doubles, 'double')}"


def breakdown(player: dict[str, Any]) -> list[str]:
    """mjscore's items for the player, one a line: the value, then what it is for; then the sum."""
    items = player["items"]
    values = [_value(i) for i in items]
    wide = max((len(v) for v in values), default=0)
    lines = [f"{v:>{wide}}  {i['text']}{' ' + i['applies_to'] if i.get('applies_to') else ''}"
             for v, i in zip(values, items, strict=True)]
    if player.get("limit"):
        lines.append(_("= {limit}, a limit hand: {score}").format(limit=player['limit'], score=player['score']))
    elif player["doubles"]:
        lines.append(_("= {points} points x 2^{doubles} = {score}").format(
            points=player['points'], doubles=player['doubles'], score=player['score']))
    else:
        lines.append(_("= {points} points = {score}").format(points=player['points'], score=player['score']))
    return lines


def _left_out(claim: int, player: dict[str, Any], scheme: Scheme) -> list[str]:
    """Items whose leaving out (one, or two together) gives the claim; or whose counting twice does."""
    points, doubles, items = player["points"], player["doubles"], player["items"]
    reasons = []
    for item in items:
        p, d = points - item.get("points", 0), doubles - item.get("doubles", 0)
        if _capped(p, d, scheme) == claim:
            reasons.append(_("the claim leaves out {item}").format(item=_item_text(item)))
    if not reasons:
        for n, a in enumerate(items):
            for b in items[n + 1:]:
                p = points - a.get("points", 0) - b.get("points", 0)
                d = doubles - a.get("doubles", 0) - b.get("doubles", 0)
                if _capped(p, d, scheme) == claim:
                    reasons.append(_("the claim leaves out both {item} and {other}, together").format(
                        item=_item_text(a), other=_item_text(b)))
    for item in items:
        if "limit" in item:
            continue
        p, d = points + item.get("points", 0), doubles + item.get("doubles", 0)
        if _capped(p, d, scheme) == claim:
            reasons.append(_("the claim counts {item} twice").format(item=_item_text(item)))
    return reasons


def _nearest_figures(claim: int, points: int, doubles: int, scheme: Scheme) -> tuple[int, int] | None:
    """The points and doubles nearest the hand's whose score is the claim (a double weighs as
    much as ten points), or None when no count gives it."""
    best: tuple[int, int, int] | None = None
    unit = scheme.rounding.unit if scheme.rounding.mode is not RoundingMode.NONE else 0
    for d in range(0, doubles + 5):
        # Only points near claim / 2^d can come to it (rounding moves them by less than two units).
        centre = claim >> d
        near = set(range(max(0, centre - 2 * unit - 2), centre + 2 * unit + 3)) | {points}
        for p in sorted(near):
            if _capped(p, d, scheme) != claim:
                continue
            cost = abs(p - points) + 10 * abs(d - doubles)
            if best is None or cost < best[0]:
                best = (cost, p, d)
    return None if best is None else (best[1], best[2])


def _difference_text(claim: int, points: int, doubles: int, p: int, d: int, items: list[dict[str, Any]]) -> str:
    """The claim as figures against the hand's, and which items are worth each part of the
    difference (or that none is)."""
    parts, worth = [], []
    for have, said, key, word in ((points, p, "points", "point"), (doubles, d, "doubles", "double")):
        if have == said:
            continue
        k = abs(said - have)
        parts.append(_plural(k, word))
        names = [i["text"] + (f" {i['applies_to']}" if i.get("applies_to") else "") for i in items if i.get(key) == k]
        if names:
            worth.append(_("{figures} is what {items} is worth").format(figures=_plural(k, word),
                                                                         items=_(" or ").join(names)))
        else:
            worth.append(_("no item is worth {figures}").format(figures=_plural(k, word)))
    if (p > points or d > doubles) and not (p < points or d < doubles):
        than = _("{figures} more than the hand has").format(figures=_(" and ").join(parts))
    elif not (p > points or d > doubles):
        than = _("{figures} fewer than the hand has").format(figures=_(" and ").join(parts))
    else:
        than = _("{differences} than the hand has").format(differences=_(" and ").join(
            (_("{figures} more") if x > y else _("{figures} fewer")).format(figures=_plural(abs(x - y), w))
            for x, y, w in ((p, points, "point"), (d, doubles, "double")) if x != y))
    return _("{claim} is what {figures} give, {than}; {worth}").format(
        claim=claim, figures=_figures(p, d), than=than, worth=_(", and ").join(worth))


def explain(claim: int, player: dict[str, Any], scheme: Scheme) -> list[str]:
    """Sentences that account for the difference between a claim and mjscore's score: each
    alone would (alternatives), or the one sentence saying that none would and why."""
    score, points, doubles = player["score"], player["points"], player["doubles"]
    if player.get("limit"):
        return [_("the hand is a limit hand, {limit}, worth {score}").format(limit=player['limit'], score=score)]
    reasons = _left_out(claim, player, scheme)
    for item in player.get("not_counted", []):
        if "limit" in item and limit_value(item["limit"], scheme) == claim:
            reasons.append(_("the claim counts {item} at {claim}, but the points total {total} is worth "
                             "more").format(item=_item_text(item), claim=claim, total=points * 2 ** doubles))
    if not scheme.roof_off and points * 2 ** doubles > scheme.limit and claim == points * 2 ** doubles:
        reasons.append(_("the claim goes over the limit: {points} points x 2^{doubles} = {claim}, capped at "
                         "{limit}").format(points=points, doubles=doubles, claim=claim, limit=scheme.limit))
    ru = player.get("runner_up")
    if ru and ru["score"] == claim:
        lacks = ", ".join(_item_text(i) for i in ru.get("missing", [])) or _("nothing")
        reasons.append(_("the claim matches the poorer arrangement {arrangement}; the best one also has "
                         "{lacks}").format(arrangement=' '.join(ru['arrangement']), lacks=lacks))
    if reasons:
        return reasons
    near = _nearest_figures(claim, points, doubles, scheme)
    if near is None and not scheme.roof_off and claim > scheme.limit:
        return [_("nothing accounts for it: under '{name}' no hand scores more than the limit, {limit}").format(
            name=scheme.name, limit=scheme.limit)]
    if near is None:
        return [_("nothing accounts for it: no count of points and doubles comes to {claim} under '{name}', and no "
                  "item left out or counted twice does").format(claim=claim, name=scheme.name)]
    return [_("no item left out or counted twice accounts for it: {difference}").format(
        difference=_difference_text(claim, points, doubles, *near, player["items"]))]


def check_result(result: dict[str, Any], claims: Mapping[str, int], scheme: Scheme,
                 where: Mapping[str, str], names: Mapping[str, str] | None = None) -> tuple[list[str], int]:
    """Lines of report for one table (each claim at its player's line, `where[seat]`, the player
    named by `names[seat]` in an evening), and how many claims differ."""
    lines: list[str] = []
    differ = 0
    for p in result["players"]:
        claim = claims.get(p["seat"])
        if claim is None:
            continue
        who = (names or {}).get(p["seat"]) or p.get("name") or p["seat"]
        at = where[p["seat"]]
        if p.get("counted"):
            lines.append(_("{at}: {who} claims {claim} beside a score counted at the table (score {score}): there are "
                           "no tiles to compare with").format(at=at, who=who, claim=claim, score=p['score']))
            continue
        if claim == p["score"]:
            lines.append(_("{at}: {who} claims {claim}: agreed").format(at=at, who=who, claim=claim))
            continue
        differ += 1
        lines.append(_("{at}: {who} claims {claim}, mjscore counts {score} ({figures})").format(
            at=at, who=who, claim=claim, score=p['score'], figures=figures(p)))
        lines.append(_("    mjscore's breakdown:"))
        lines.extend(f"      {line}" for line in breakdown(p))
        reasons = explain(claim, p, scheme)
        if len(reasons) > 1:
            # Each of these alone accounts for the difference: they are alternatives, not a list of slips.
            lines.append(_("    any one of these would account for the difference:"))
            lines.extend(f"      {r}" for r in reasons)
        else:
            lines.extend(f"    {r}" for r in reasons)
    return lines, differ


class CheckReport(NamedTuple):
    lines: list[str]           # one line a claim, each followed by its explanation when it differs
    differences: int           # how many claims differ
    errors: int = 0            # tables (or hands) that could not be read or scored


def check_table(table: Table, result: TableResult, hand: str = "", names: Mapping[str, str] | None = None
                ) -> CheckReport:
    """The claims of one scored table (`hand`: " hand N" within an evening)."""
    claims = {p.seat.value: p.claim for p in table.players if p.claim is not None}
    if not claims:
        return CheckReport([], 0)
    where = {p.seat.value: f"{p.where}{hand}" for p in table.players}
    lines, n = check_result(result.to_dict(), claims, result.scheme, where, names)
    return CheckReport(lines, n)


def check_rows(rows: Iterable[tuple[str, int, Table | MjError | SessionText]], scheme: str | None = None,
               given: Mapping[str, Any] = EMPTY) -> Iterator[tuple[str, int, CheckReport | MjError]]:
    """(file, line, the table's report, or the error that stopped it) for each (file, line,
    table, session or reading error), as they come; each table scored with its runner-up, which
    explains a poorer arrangement, and a session's hands with its seating."""
    for file, line, item in rows:
        if isinstance(item, MjError):
            yield file, line, item
            continue
        if isinstance(item, SessionText):
            try:
                yield from check_session(item.text, item.file, scheme, given)
            except MjError as e:                # the session's header cannot be read
                yield file, e.location.line, e
            continue
        try:
            yield file, line, check_table(item, evaluate(item, scheme, given, explain=True))
        except MjError as e:
            yield file, line, e


def check_session(text: str, name: str, scheme: str | None = None, given: Mapping[str, Any] = EMPTY
                  ) -> Iterator[tuple[str, int, CheckReport | MjError]]:
    """Every hand of a session, scored with the session's seating (round, dealer, names) and
    checked; a bad hand gives its error, and the hands after it, whose seating is then unknown,
    one line saying they were not checked."""
    session = read_session(text, name)
    stopped: int | None = None
    for number, line, outcome in hands_of(session, scheme, given, explain=True):
        if isinstance(outcome, MjError):
            stopped = stopped or number
            yield name, line, outcome
        elif outcome is None:
            continue
        else:
            names = dict(outcome.names_by_letter())
            yield name, line, check_table(outcome.result.table, outcome.result, _(" hand {number}").format(
                number=number), names)
    if stopped is not None and stopped < len(session.hands):
        yield name, 0, CheckReport([_("{name}: the claims of the hands after hand {stopped} are not checked: who sat "
                                      "where after a bad hand cannot be known").format(name=name, stopped=stopped)], 0)
