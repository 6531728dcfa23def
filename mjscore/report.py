"""Results as plain data: the JSON object of cli.md, built from a scored (and settled) table.

Renderers work from this dictionary only, so every output form shows the same figures.
"""

from __future__ import annotations

from mjscore.scoring.score import PlayerScore, TableScore, Valuation


def _valuation(v: Valuation) -> dict:
    return {
        "points": v.points,
        "doubles": v.doubles,
        "limit": v.limit_rule.text if v.limit_rule else None,
        "score": v.score,
        "items": [i.as_dict() for i in v.items],
        "arrangement": v.arrangement.text() if v.arrangement else [],
    }


def player_dict(p: PlayerScore, explain: bool = False) -> dict:
    d = {"seat": p.seat.value, "winner": p.winner}
    if p.name:
        d["name"] = p.name
    d.update(_valuation(p.best))
    if p.best.ignored:
        d["not_counted"] = [i.as_dict() for i in p.best.ignored]
    if p.counted:
        d["counted"] = True
    if explain:
        d["runner_up"] = _runner_up(p)
    return d


def _runner_up(p: PlayerScore) -> dict | None:
    r = p.runner_up
    if r is None:
        return None
    d = _valuation(r)
    best = {(i.rule, i.applies_to) for i in p.best.items}
    mine = {(i.rule, i.applies_to) for i in r.items}
    d["missing"] = [i.as_dict() for i in p.best.items if (i.rule, i.applies_to) not in mine]
    d["extra"] = [i.as_dict() for i in r.items if (i.rule, i.applies_to) not in best]
    return d


def table_dict(ts: TableScore, settlement=None, settlement_error: str | None = None,
               explain: bool = False) -> dict:
    t = ts.table
    w = t.winner
    d = {
        "scheme": ts.scheme.name,
        "round": t.round.value,
        "winner": w.seat.value if w else None,
        "draw": t.draw,
        "players": [player_dict(p, explain) for p in ts.players],
    }
    if w is not None and w.win is not None:
        d["win"] = {"tile": w.win.tile.text if w.win.tile else None,
                    "from": w.win.discarder.value if w.win.discarder else None,
                    "flags": sorted(f.value for f in w.win.flags)}
    d["settlement"] = settlement
    if settlement is None:
        d["settlement_error"] = settlement_error or "no settlement was computed"
    return d
