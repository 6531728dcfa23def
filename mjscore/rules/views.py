"""Schemes as people read them: each value of a scheme in words, and what differs between two.

Plain data only (rows of text and numbers), worked out from the loaded `Scheme`, so a house file
reads like a shipped one; the command line lays these rows out as tables, and the table page
shows the same objects.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from mjscore.model.settings import ROTATION, SETTINGS
from mjscore.model.table import SetKind
from mjscore.model.tiles import TILES
from mjscore.rules.payoffs import ROLES, SITUATIONS, builtin_payoffs
from mjscore.rules.scheme import RoundingMode, Rule, Scheme
from mjscore.model.say import N_, _, n_

SCOPE_TITLES = {"every": N_("Every hand"), "winner": N_("The winner only"), "loser": N_("Losers only")}


# A condition's parameter is of the type its name says (conditions.CONDITIONS: a Condition[P]
# for each name), so the words for it are chosen by name, and the parameter is Any here.

def _special(name: str, param: Any) -> str | None:
    if name == "only_possible":
        v, dead, own_concealed = param
        if not v:
            return _("not only possible tile")
        if not dead:
            return _("only possible tile")
        face_up = "" if own_concealed else _(", counted on the tiles face up")
        return _("only possible tile (dead waits ignored{face_up})").format(face_up=face_up)
    if name == "nine_gates":
        (lo, hi), ends, waited = param
        return (_("nine gates, extra tile {lo}-{hi}").format(lo=lo, hi=hi)
                + (_(", 111 and 999 concealed") if ends else "") + (_(", won on the extra tile") if waited else ""))
    if name == "one_suit":
        return {"with-honours": _("one suit with honours"), "without-honours": _("one suit, no honours"),
                "any": _("one suit"), "at-most-one": _("one suit and/or honours")}[param]
    if name == "shape":
        return "shape " + "/".join(sorted(param))
    if name == "calling":
        return _("calling for {rule}").format(rule=param)
    if name == "win_block":
        return _("winning tile completes a {block}").format(block=param)
    if name == "discard_completes":
        return _("a winning discard completes a {blocks}").format(blocks=_(" or ").join(param))
    if name == "not_flag":
        return _("not {flags}").format(flags=_(" nor ").join(f.value for f in param))
    if name == "winning_tile_class":
        return _("winning tile {tile_class}").format(tile_class=param)
    return None


def _cond(name: str, param: Any) -> str:
    special = _special(name, param)
    if special is not None:
        return special
    if isinstance(param, bool):
        return name.replace("_", " ") if param else _("not {condition}").format(condition=name.replace('_', ' '))
    if isinstance(param, frozenset):
        items = sorted(param, key=str)
        try:
            return f"{name.replace('_', ' ')} {' '.join(TILES[i].text for i in items)}"
        except TypeError:
            return f"{name.replace('_', ' ')} {'/'.join(map(str, items))}"
    if isinstance(param, tuple) and len(param) == 2 and isinstance(param[1], tuple):
        cls, (lo, hi) = param
        return _("{condition} of {tile_class}: {bounds}").format(condition=name, tile_class=cls, bounds=_bounds(lo, hi))
    if isinstance(param, tuple) and len(param) == 2 and all(isinstance(x, (int, type(None))) for x in param):
        return f"{name.replace('_', ' ')}: {_bounds(*param)}"
    if isinstance(param, Enum):                     # a seat, a win flag
        return f"{name.replace('_', ' ')} {param.value}"
    if isinstance(param, int) and name == "winning_tile":
        return _("winning tile {tile}").format(tile=TILES[param].text)
    return f"{name.replace('_', ' ')} {param}"


def _bounds(lo: int, hi: int | None) -> str:
    if hi is None:
        return _("{lo} or more").format(lo=lo)
    return str(lo) if lo == hi else _("{lo} to {hi}").format(lo=lo, hi=hi)


def condition_text(rule: Rule) -> str:
    if rule.per_set:
        parts = []
        for name, param in rule.when:
            if name == "kind":
                kinds = param if isinstance(param, frozenset) else frozenset()
                parts.append("/".join(sorted(k.value for k in kinds if isinstance(k, SetKind))))
            else:
                parts.append(_("{tile_class} tiles").format(
                    tile_class=param) if name == "tiles" else (_("exposed") if param else _("concealed")))
        return _("each {set}").format(set=_(" of ").join(parts))
    return ", ".join(_cond(n, p) for n, p in rule.when) or _("always")


def value_text(rule: Rule) -> str:
    if rule.limit:
        if rule.limit == 1.0:
            return _("limit")
        if rule.limit == 0.5:
            return _("half limit")
        return _("{fraction} of the limit").format(fraction=f"{rule.limit:g}")
    if rule.doubles:
        return n_("{doubles} double", "{doubles} doubles", rule.doubles).format(doubles=rule.doubles)
    return _("{points} points").format(points=rule.points)


def parameters(s: Scheme) -> list[list[Any]]:
    """Every parameter of the scheme as one record: [what it is, its value in words, what a
    house file writes to give it this value (schemes/README.md, "Keys")].  The settings' rows
    are made from their declarations (model.settings), every one of them."""
    r = s.rounding
    rounding = "none" if r.mode is RoundingMode.NONE else f"{r.mode.value} {r.unit}, {r.stage.value}"
    rounding_key: Any = "none" if r.mode is RoundingMode.NONE else {"mode": r.mode, "unit": r.unit, "stage": r.stage}
    ck, ways = s.claimed_kong, s.ways_of_winning
    rows: list[list[Any]] = [
        [_("limit"), s.limit, f"limit: {s.limit}"],
        [_("roof off"), _words(s.roof_off), f"roof_off: {_yaml(s.roof_off)}"],
        [_("most chows"), s.max_chows, f"max_chows: {s.max_chows}"],
        [_("bonus tiles"), _("in play") if s.bonus_tiles else _("not used"),
            f"bonus_tiles: {_yaml(s.bonus_tiles)}"],
        [_("bonus tile points"), _("{points} each").format(points=s.bonus_tile_points),
            f"bonus_tile_points: {s.bonus_tile_points}"],
        [_("winning shapes"), ", ".join(sorted(s.shapes)), f"shapes: {_yaml(sorted(s.shapes))}"],
        [_("rounding"), rounding, f"rounding: {_yaml(rounding_key)}"],
    ]
    for values, declared in ((s.settlement, SETTINGS), (s.rotation, ROTATION)):
        for setting in declared:
            value = getattr(values, setting.name)
            shown = (_("as {setting}").format(setting=setting.follows.replace('_', ' '))
                     if value is None and setting.follows else _words(value))
            rows.append([setting.word.replace("-", " "), shown,
                         f"{setting.section}: {{{setting.name}: {_yaml(value)}}}"])
    rows += [
        [_("claimed kong < >"), claimed_kong_text(s),
         "sets: {claimed_kong: " + _yaml({"points": "exposed" if ck.exposed_points else "concealed",
                                          "concealed_hand": ck.concealed_hand,
                                          "concealed_pung": ck.concealed_pung}) + "}"],
        [_("a loose-tile win needs"),
         _("a kong, a flower or a season") if ways.loose_needs_kong else _("nothing (as Kajongg)"),
         f"ways_of_winning: {{loose_needs_kong: {_yaml(ways.loose_needs_kong)}}}"],
        [_("robbing a kong"), _("also one declared from a concealed pung") if ways.rob_concealed_pung
         else _("only the tile added to an exposed pung (any kong for thirteen orphans)"),
         f"ways_of_winning: {{rob_concealed_pung: {_yaml(ways.rob_concealed_pung)}}}"],
    ]
    return rows


def _words(value: Any) -> Any:
    """A value as the table shows it: yes or no, none, an enum's word."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("none")
    return getattr(value, "value", value)


def _yaml(value: Any) -> str:
    """A value as a house file writes it (YAML flow style)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(getattr(value, "value", value))


def parameter_keys(s: Scheme) -> list[str]:
    """What a house file writes to change each of `parameters(s)`, in the same order (the third
    field of each record)."""
    return [key for __, __, key in parameters(s)]


def rule_key(rule: Rule) -> str:
    """The item a house file writes under `rules:` to change this rule's value (or, with
    `remove: true`, to drop it): `{id: mahjong, points: 20}`."""
    if rule.limit:
        return f"{{id: {rule.id}, limit: {_yaml(rule.limit)}}}"
    if rule.doubles:
        return f"{{id: {rule.id}, doubles: {rule.doubles}}}"
    return f"{{id: {rule.id}, points: {rule.points}}}"


def claimed_kong_text(s: Scheme) -> str:
    ck = s.claimed_kong
    parts = [_("exposed points") if ck.exposed_points else _("concealed points")]
    if ck.concealed_hand:
        parts.append(_("keeps the hand concealed"))
    if ck.concealed_pung:
        parts.append(_("counts among concealed pungs"))
    return ", ".join(parts)


def set_rows(s: Scheme) -> list[list[Any]]:
    rows = []
    for kind in ("pung", "kong"):
        for cls in ("simple", "terminal", "honour"):
            rows.append([_("{kind} of {tile_class}s").format(
                kind=kind, tile_class=cls), s.set_points[(kind, cls, True)], s.set_points[(kind, cls, False)]])
    rows.append(["chow", s.set_points[("chow", "simple", True)], s.set_points[("chow", "simple", False)]])
    return rows


def set_keys(s: Scheme) -> list[str]:
    """What a house file writes to change each row of `set_rows(s)` ([exposed, concealed])."""
    keys = [f"sets: {{{kind}: {{{cls}: [{s.set_points[(kind, cls, True)]}, {s.set_points[(kind, cls, False)]}]}}}}"
            for kind in ("pung", "kong") for cls in ("simple", "terminal", "honour")]
    return keys + [f"sets: {{chow: {s.set_points[('chow', 'simple', True)]}}}"]


def _flat(s: Scheme) -> dict[str, tuple[str, str]]:
    """Every value of a scheme under a readable key, for comparing two schemes: (the value, what
    names it) -- a rule's name apart, so that two names of one value are no difference."""
    d = {_("parameter: {parameter}").format(parameter=k): (str(v), "") for k, v, __ in parameters(s)}
    for name, exp, conc in set_rows(s):
        d[_("set: {set}").format(set=name)] = (f"{exp} / {conc}", "")
    for k, v in s.pair_points.items():
        d[_("pair: {pair}").format(pair=k)] = (str(v), "")
    for r in s.rules:
        # Keyed by what the rule rewards, not by its id, so that the same rule under two names
        # (classical's one-suit-with-honours, BMJA's false-color) is compared, not listed twice.
        key = f"{_(SCOPE_TITLES[r.scope]).lower()}: {condition_text(r)}"
        d[key] = (value_text(r), _(r.text))
    return d


def _shown(value: tuple[str, str] | None) -> str:
    if value is None:
        return "-"
    worth, name = value
    return _("{value} ({rule})").format(value=worth, rule=name) if name else worth


def diff(a: Scheme, b: Scheme) -> list[list[str]]:
    """[what, its value under a, under b] for every value that differs ("-": not in that scheme)."""
    fa, fb = _flat(a), _flat(b)
    rows = []
    for key in list(fa) + [k for k in fb if k not in fa]:
        va, vb = fa.get(key), fb.get(key)
        # A rule whose value is the same under both names only differs in its name: not a difference.
        if va is None or vb is None or va[0] != vb[0]:
            rows.append([key, _shown(va), _shown(vb)])
    return rows


def describe(s: Scheme) -> dict[str, Any]:
    """Every value of a scheme, as rows: its parameters, set and pair points, rules by scope
    (each with its id, what it is worth, when it applies, and the item a house file writes to
    change it), sources, and what a house file writes to change each parameter, set and pair."""
    return {
        "name": s.name, "title": _(s.title), "description": _(s.description),
        "parameters": parameters(s),
        "sets": set_rows(s),
        "pairs": [[k, v] for k, v in s.pair_points.items()],
        "rules": {scope: [{"id": r.id, "text": _(r.text), "value": value_text(r), "when": condition_text(r),
                           "house": rule_key(r)}
                          for r in s.rules if r.scope == scope] for scope in SCOPE_TITLES},
        "sources": list(s.sources),
        # What a house file writes to change each value (its key, with this scheme's value), row by row.
        "house": {"parameters": parameter_keys(s), "sets": set_keys(s),
                  "pairs": [f"pairs: {{{k}: {v}}}" for k, v in s.pair_points.items()]},
    }


def payoff_tables(s: Scheme) -> list[dict[str, Any]]:
    """Every payoff scheme this scheme can settle with (the shipped ones and its own): what each
    loser pays the winner, as a multiple of the winner's score, in each situation."""
    tables = dict(builtin_payoffs())
    tables.update(s.payoffs)
    return [{"name": name, "text": _(payoff.text), "east_double": payoff.east_double.value,
             "default": s.settlement.payoff == name, "roles": list(ROLES),
             "rows": [[situation] + [payoff.table[situation].get(role, "") for role in ROLES]
                      for situation in SITUATIONS]}
            for name, payoff in tables.items()]


def payoff_names(s: Scheme) -> list[str]:
    """The payoff schemes a table under this scheme may name, sorted."""
    return sorted(set(builtin_payoffs()) | set(s.payoffs))
