"""Schemes as readable tables: the list, one scheme's values, and what differs between two.

Works from the loaded Scheme only (its flat table), so a house file reads like a shipped one.
"""

from __future__ import annotations

from mjscore.rules.payoffs import ROLES, SITUATIONS, builtin_payoffs
from mjscore.rules.scheme import Rule, Scheme

SCOPE_TITLES = {"every": "Every hand", "winner": "The winner only", "loser": "Losers only"}


def _special(name: str, param) -> str | None:
    if name == "only_possible":
        v, dead = param
        return ("only possible tile" + (" (dead waits ignored)" if dead else "")) if v else "not only possible tile"
    if name == "nine_gates":
        (lo, hi), ends = param
        return f"nine gates, extra tile {lo}-{hi}" + (", 111 and 999 concealed" if ends else "")
    if name == "one_suit":
        return {"with-honours": "one suit with honours", "without-honours": "one suit, no honours",
                "any": "one suit", "at-most-one": "one suit and/or honours"}[param]
    if name == "shape":
        return "shape " + "/".join(sorted(param))
    if name == "calling":
        return f"calling for {param}"
    if name == "win_block":
        return f"winning tile completes a {param}"
    if name == "winning_tile_class":
        return f"winning tile {param}"
    return None


def _cond(name: str, param) -> str:
    special = _special(name, param)
    if special is not None:
        return special
    if isinstance(param, bool):
        return name.replace("_", " ") if param else f"not {name.replace('_', ' ')}"
    if isinstance(param, frozenset):
        from mjscore.model.tiles import TILES

        items = sorted(param, key=str)
        try:
            return f"{name.replace('_', ' ')} {' '.join(TILES[i].text for i in items)}"
        except TypeError:
            return f"{name.replace('_', ' ')} {'/'.join(map(str, items))}"
    if isinstance(param, tuple) and len(param) == 2 and isinstance(param[1], tuple):
        cls, (lo, hi) = param
        return f"{name} of {cls}: {_bounds(lo, hi)}"
    if isinstance(param, tuple) and len(param) == 2 and all(isinstance(x, (int, type(None))) for x in param):
        return f"{name.replace('_', ' ')}: {_bounds(*param)}"
    if hasattr(param, "value"):
        return f"{name.replace('_', ' ')} {param.value}"
    if isinstance(param, int) and name == "winning_tile":
        from mjscore.model.tiles import TILES

        return f"winning tile {TILES[param].text}"
    return f"{name.replace('_', ' ')} {param}"


def _bounds(lo, hi) -> str:
    if hi is None:
        return f"{lo} or more"
    return str(lo) if lo == hi else f"{lo} to {hi}"


def condition_text(rule: Rule) -> str:
    if rule.per_set:
        parts = []
        for name, param in rule.when:
            parts.append("/".join(sorted(k.value for k in param)) if name == "kind" else f"{param} tiles" if name == "tiles"
                         else ("exposed" if param else "concealed"))
        return "each " + " of ".join(parts)
    return ", ".join(_cond(n, p) for n, p in rule.when) or "always"


def value_text(rule: Rule) -> str:
    if rule.limit:
        return {1.0: "limit", 0.5: "half limit"}.get(rule.limit, f"{rule.limit:g} of the limit")
    if rule.doubles:
        return f"{rule.doubles} double{'s' if rule.doubles != 1 else ''}"
    return f"{rule.points} points"


def parameters(s: Scheme) -> list[list]:
    r = s.rounding
    rounding = "none" if r.mode == "none" else f"{r.mode} {r.unit}, {r.stage}"
    return [
        ["limit", s.limit], ["roof off", "yes" if s.roof_off else "no"], ["most chows", s.max_chows],
        ["bonus tiles", f"{s.bonus_tile_points} points each" if s.bonus_tiles else "not used"],
        ["winning shapes", ", ".join(sorted(s.shapes))], ["rounding", rounding],
        ["paying", s.settlement.get("paying", "between-all")],
        ["payoff", s.settlement.get("payoff", "chinese-classical")],
        ["East double", "yes" if s.settlement.get("east_double", True) else "no"],
        ["draw passes the deal", "yes" if s.rotation.get("draw_passes_deal") else "no"],
        ["East's win streak limit", s.rotation.get("dealer_streak_limit") or "none"],
        ["claimed kong < >", claimed_kong_text(s)],
        ["a loose-tile win needs", "a kong, a flower or a season" if s.ways_of_winning.loose_needs_kong
         else "nothing (as Kajongg)"],
    ]


def claimed_kong_text(s: Scheme) -> str:
    ck = s.claimed_kong
    parts = ["exposed points" if ck.exposed_points else "concealed points"]
    if ck.concealed_hand:
        parts.append("keeps the hand concealed")
    if ck.concealed_pung:
        parts.append("counts among concealed pungs")
    return ", ".join(parts)


def set_rows(s: Scheme) -> list[list]:
    rows = []
    for kind in ("pung", "kong"):
        for cls in ("simple", "terminal", "honour"):
            rows.append([f"{kind} of {cls}s", s.set_points[(kind, cls, True)], s.set_points[(kind, cls, False)]])
    rows.append(["chow", s.set_points[("chow", "simple", True)], s.set_points[("chow", "simple", False)]])
    return rows


def show(s: Scheme, fmt: str = "table") -> str:
    from tabulate import tabulate

    grid = "github" if fmt == "markdown" else "simple"
    out = [f"{s.name}: {s.title}", "", s.description, ""]
    out.append(tabulate(parameters(s), headers=["parameter", "value"], tablefmt=grid))
    out.append("")
    out.append(tabulate(set_rows(s), headers=["set", "exposed", "concealed"], tablefmt=grid))
    out.append("")
    pairs = [[k, v] for k, v in s.pair_points.items()] or [["(no pair scores)", ""]]
    out.append(tabulate(pairs, headers=["pair", "points"], tablefmt=grid))
    for scope in ("every", "winner", "loser"):
        rules = [r for r in s.rules if r.scope == scope]
        if not rules:
            continue
        out.append("")
        out.append(SCOPE_TITLES[scope])
        out.append(tabulate([[r.text, value_text(r), condition_text(r)] for r in rules],
                            headers=["rule", "value", "when"], tablefmt=grid))
    out.append("")
    out.append("Sources:")
    out.extend(f"  - {src}" for src in s.sources)
    return "\n".join(out) + "\n"


def _flat(s: Scheme) -> dict[str, str]:
    """Every value of a scheme under a readable key, for comparing two schemes."""
    d = {f"parameter: {k}": str(v) for k, v in parameters(s)}
    for name, exp, conc in set_rows(s):
        d[f"set: {name}"] = f"{exp} / {conc}"
    for k, v in s.pair_points.items():
        d[f"pair: {k}"] = str(v)
    for r in s.rules:
        # Keyed by what the rule rewards, not by its id, so that the same rule under two names
        # (classical's one-suit-with-honours, BMJA's false-color) is compared, not listed twice.
        key = f"{SCOPE_TITLES[r.scope].lower()}: {condition_text(r)}"
        d[key] = f"{value_text(r)} ({r.text})"
    return d


def diff(a: Scheme, b: Scheme) -> list[list[str]]:
    fa, fb = _flat(a), _flat(b)
    rows = []
    for key in list(fa) + [k for k in fb if k not in fa]:
        va, vb = fa.get(key, "-"), fb.get(key, "-")
        if va != vb:
            rows.append([key, va, vb])
    return rows


def render_diff(a: Scheme, b: Scheme, fmt: str = "table") -> str:
    from tabulate import tabulate

    rows = diff(a, b)
    if not rows:
        return f"{a.name} and {b.name} give every value alike.\n"
    # A rule whose value is the same under both names only differs in its name: not a difference.
    rows = [r for r in rows if r[1].split(" (")[0] != r[2].split(" (")[0] or r[1] == "-" or r[2] == "-"]
    if not rows:
        return f"{a.name} and {b.name} give every value alike.\n"
    grid = "github" if fmt == "markdown" else "simple"
    return (f"{len(rows)} differences between {a.name} and {b.name} (- = not in that scheme):\n"
            + tabulate(rows, headers=["item", a.name, b.name], tablefmt=grid, maxcolwidths=[30, 45, 45]) + "\n")


def payoff_tables(s: Scheme, fmt: str = "table") -> str:
    """Every payoff scheme this scheme can settle with (the shipped ones and its own): what each
    loser pays the winner, as a multiple of the winner's score, in each situation."""
    from tabulate import tabulate

    grid = "github" if fmt == "markdown" else "simple"
    tables = dict(builtin_payoffs())
    tables.update(s.payoffs)
    out = []
    for name, payoff in tables.items():
        default = " (the scheme's default)" if s.settlement.get("payoff", "chinese-classical") == name else ""
        east = {"switch": "East pays and receives double when --east-double is on",
                "built-in": "East's double is in the figures", "none": "East is never doubled"}[payoff.east_double]
        out.append(f"{name}{default}: {payoff.text}; {east}")
        rows = [[situation] + [payoff.table[situation].get(role, "") for role in ROLES] for situation in SITUATIONS]
        out.append(tabulate(rows, headers=["situation", *ROLES], tablefmt=grid))
        out.append("")
    return "\n".join(out)
