"""Scheme files: the scoring rules as data, loaded, checked and flattened.

A scheme is a YAML file (format in schemes/README.md).  Loading checks every key and value and
reports the file and key path of anything wrong; `extends:` merges a base scheme under the
file's own values, so the result is always one flat table.  Loaded schemes are cached, so a
batch reads each file once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, NoReturn

from mjscore.hand.arrange import SHAPES
from mjscore.store import scheme_cache
from mjscore.store.cache_folder import fingerprint
from mjscore.io.text import decode, read_bytes
from mjscore.io.yamlsafe import load_document
from mjscore.model.errors import Location, MjError, SchemeError, excerpt
from mjscore.model.settings import ROTATION, SETTINGS, Rotation, Setting, SettingError, Settings
from mjscore.rules.conditions import CONDITIONS, SET_CONDITIONS, ClaimedKong, ParamError, set_rule_needs
from mjscore.rules.payoffs import Payoff, builtin_payoffs, parse_payoffs, payoffs_fingerprint
from mjscore.rules.shipped import scheme_dir, shipped_schemes

DEFAULT_SCHEME = "classical"

# The ranges every number of a scheme must keep to: generous for any real rule set, and small
# enough that no hand can cost more than a moment to score or a number too long to print.
MAX_LIMIT = 10_000_000
MAX_POINTS = 100_000
MAX_DOUBLES = 20               # for one rule
MAX_HAND_DOUBLES = 128         # every rule's doubles together, a per-set rule counted for 5 sets
MAX_PAYMENT = 100_000_000

SCOPES = ("every", "winner", "loser")
SET_CLASSES = ("simple", "terminal", "honour")
PAIR_KINDS = ("dragon", "own-wind", "prevailing-wind", "own-and-prevailing")


class RoundingMode(str, Enum):
    NONE = "none"
    UP = "up"
    NEAREST = "nearest"                  # halves up: 65 -> 70


class RoundingStage(str, Enum):
    """When a hand's points are rounded: before the doubles, or the score after them."""

    BEFORE_DOUBLES = "before-doubles"
    AFTER_DOUBLES = "after-doubles"


ROUNDING_MODES = tuple(m.value for m in RoundingMode)
ROUNDING_STAGES = tuple(m.value for m in RoundingStage)

TOP_KEYS = {"scheme", "title", "description", "sources", "extends", "limit", "roof_off", "max_chows",
            "bonus_tiles", "bonus_tile_points", "shapes", "rounding", "sets", "pairs", "rules",
            "settlement", "rotation", "ways_of_winning", "notes"}
RULE_KEYS = {"id", "text", "scope", "per", "when", "points", "doubles", "limit", "excludes", "source",
             "remove", "note"}


@dataclass(frozen=True)
class Rule:
    id: str
    text: str
    scope: str                       # every | winner | loser
    per_set: bool
    when: tuple[tuple[str, Any], ...]
    points: int = 0
    doubles: int = 0
    limit: float = 0.0
    excludes: tuple[str, ...] = ()
    source: str | None = None
    # The conditions bound to their test functions once, at load: the engine calls these.
    tests: tuple = field(default=(), compare=False, repr=False)
    # The features a hand must have for the rule to apply (conditions.features): an index.
    needs: frozenset = field(default=frozenset(), compare=False, repr=False)

    @property
    def unit(self) -> str:
        return "points" if self.points else "doubles" if self.doubles else "limit"

    @property
    def value(self):
        return self.points or self.doubles or self.limit


class Rounding(NamedTuple):
    mode: RoundingMode = RoundingMode.NONE
    unit: int = 10
    stage: RoundingStage = RoundingStage.AFTER_DOUBLES

    def apply(self, value: int) -> int:
        if self.mode == RoundingMode.NONE or self.unit <= 1:
            return value
        if self.mode == RoundingMode.UP:
            return -(-value // self.unit) * self.unit
        return (value + self.unit // 2) // self.unit * self.unit   # nearest, halves up (65 -> 70)


class WaysOfWinning(NamedTuple):
    """When a way of winning is possible at all (docs/rules.md): a table that breaks one is
    refused, as a typo in the win clause usually is."""

    loose_needs_kong: bool = True    # a loose tile comes after a kong, a flower or a season
    # The tile a player adds to a concealed pung, declaring a concealed kong, may be robbed (the
    # tile added to an exposed pung always may; thirteen orphans may rob any concealed kong).
    rob_concealed_pung: bool = False


@dataclass(frozen=True)
class Scheme:
    """A rule set, checked and flattened: every value mjscore scores and settles with."""

    name: str
    title: str
    description: str
    sources: tuple[str, ...]
    file: str
    limit: int
    roof_off: bool
    max_chows: int
    bonus_tiles: bool
    bonus_tile_points: int
    shapes: frozenset[str]
    rounding: Rounding
    set_points: Mapping[tuple[str, str, bool], int] = field(hash=False, compare=False)   # (kind, class, exposed)
    pair_points: Mapping[str, int] = field(hash=False, compare=False)                     # pair kind -> points
    rules: tuple[Rule, ...] = ()
    claimed_kong: ClaimedKong = field(default_factory=ClaimedKong)
    ways_of_winning: WaysOfWinning = field(default_factory=WaysOfWinning)
    settlement: Settings = field(default_factory=Settings)       # its defaults for every setting of a table
    payoffs: Mapping[str, Payoff] = field(default_factory=dict, hash=False, compare=False)   # its own payoff tables
    rotation: Rotation = field(default_factory=Rotation)
    # Derived from `rules` at load, for the engine: the rules a winner (a loser) can earn, and
    # whether a loser's rules need every arrangement (a "zero points" rule is not helped by
    # forming more pungs and pairs).
    winner_rules: tuple[Rule, ...] = field(default=(), compare=False, repr=False)
    loser_rules: tuple[Rule, ...] = field(default=(), compare=False, repr=False)
    losers_exhaustive: bool = field(default=False, compare=False, repr=False)
    # The content of every file it was made from (its `extends:` chain, the shipped payoff
    # tables): what a result scored under it may be remembered by (an evening's checkpoint).
    fingerprint: str = field(default="", compare=False, repr=False)
    # The scheme a house file extends: its name as the file writes it, and the file it is (what
    # the file changed from it is shown by the page's Rules view); None for a scheme of its own.
    base: tuple[str, str] | None = field(default=None, compare=False, repr=False)

    def __hash__(self) -> int:
        return hash((self.name, self.file))

    def rule(self, rule_id: str) -> Rule | None:
        for r in self.rules:
            if r.id == rule_id:
                return r
        return None


# -- loading -----------------------------------------------------------------------------------

def is_shipped_name(name_or_path: str) -> bool:
    """Whether a scheme is given by a shipped scheme's name (`dmjl`) rather than by a file's path:
    no folder in it, and no `.yaml` at its end."""
    return "/" not in name_or_path and "\\" not in name_or_path and not name_or_path.endswith((".yaml", ".yml"))


def resolve(name_or_path: str, relative_to: Path | None = None) -> Path:
    """The file of a scheme given by shipped name or by path; a relative path is read from
    `relative_to` (the folder of the file that names it) when given."""
    if is_shipped_name(name_or_path):
        path = scheme_dir() / f"{name_or_path}.yaml"
        try:
            found = path.is_file()
        except OSError:                       # a "name" too long to be a file's: no shipped scheme
            found = False
        if found:
            return path
        raise SchemeError(f"no scheme named '{excerpt(name_or_path)}'; shipped: {', '.join(shipped_schemes())} "
                          "(or give a scheme file's path)", Location(excerpt(name_or_path, 80)))
    path = Path(name_or_path)
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    return path


def load_scheme(name_or_path: str | None = None) -> Scheme:
    """The scheme of a shipped name or a file path (default: classical), checked and flattened."""
    name = name_or_path or DEFAULT_SCHEME
    if name in _BY_NAME:                      # a batch asks for the same scheme thousands of times
        return _BY_NAME[name]
    path = resolve(name)
    try:
        path = path.resolve()
    except (OSError, RuntimeError):
        pass                                  # reading it will say what is wrong
    scheme = _load(str(path), name)
    if is_shipped_name(name):
        _BY_NAME[name] = scheme               # shipped names only: a path may point elsewhere later
    return scheme


_BY_NAME: dict[str, Scheme] = {}
MAX_EXTENDS = 32                # a chain of `extends:` no longer than this
MAX_SCHEME_BYTES = 4 * 1024 * 1024


@lru_cache(maxsize=64)
def _load(path: str, given: str | None = None) -> Scheme:
    raw = _read_bytes(Path(path), given)
    source = fingerprint(raw)
    cached = scheme_cache.load("scheme", path, source, _fingerprint_now)
    if isinstance(cached, dict):
        try:
            return _build(cached, path)
        except SchemeError:
            pass                               # an entry that fails the checks is never believed
    data = _flat_data(Path(path), (), raw, given)
    scheme = _build(dict(data), path)          # checked before it is remembered
    scheme_cache.store("scheme", path, source, data["_sources_read"][1:], data["_source_bytes"], _plain(data))
    return scheme


def _fingerprint_now(path: str) -> str | None:
    try:
        return fingerprint(read_bytes(path, MAX_SCHEME_BYTES))
    except MjError:
        return None


def _plain(data: dict) -> dict:
    """The flat data without what _build adds (it stores rule objects for its own use)."""
    return {k: v for k, v in data.items() if not k.startswith("_") or k in ("_files", "_sources_read", "_base")}


def _read_bytes(path: Path, given: str | None = None) -> bytes:
    display = given or _display(path)
    try:
        return read_bytes(str(path), MAX_SCHEME_BYTES, display, what="scheme file")
    except MjError as e:
        raise SchemeError(e.message, e.location) from None


def _read_yaml(raw: bytes, display: str) -> dict:
    try:
        data = load_document(decode(raw, display), display)     # the same safety checks as hand files
    except MjError as e:
        raise SchemeError(e.message, e.location, e.token) from None
    if not isinstance(data, dict):
        raise SchemeError("a scheme file is a mapping of keys to values", Location(display))
    return data


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _flat_data(path: Path, seen: tuple[str, ...], raw: bytes | None = None, given: str | None = None) -> dict:
    """The file's data with its `extends:` chain merged in (base first, the file's values on top).

    `_sources_read` lists (path, fingerprint) of every file read, this one first, and
    `_source_bytes` their length: what the cache keys an entry by and bounds it with.
    """
    key = str(path.resolve())
    display = given or _display(path)
    if len(seen) >= MAX_EXTENDS:
        raise SchemeError(f"schemes extend each other more than {MAX_EXTENDS} deep: '{excerpt(display, 80)}' is one "
                          "base too many", Location(display))
    if key in seen:
        raise SchemeError("schemes extend each other in a circle: " + " -> ".join(seen + (key,)),
                          Location(display))
    if raw is None:
        raw = _read_bytes(path, given)
    data = _read_yaml(raw, display)
    data["_sources_read"] = [[key, fingerprint(raw)]]
    data["_source_bytes"] = len(raw)
    base_name = data.get("extends")
    if base_name is None:
        data.setdefault("_files", [display])
        return data
    if not isinstance(base_name, str):
        raise SchemeError("'extends' takes a scheme name or path", Location(display), "extends")
    base_path = resolve(base_name, path.parent)
    base = _flat_data(base_path, seen + (key,), given=None)
    merged = _merge(base, data, display)
    merged["_base"] = [base_name, str(base_path)]     # the base as the file names it, and where it is
    merged["_source_bytes"] = base["_source_bytes"] + len(raw)
    merged["_sources_read"] = data["_sources_read"] + base["_sources_read"]
    return merged


def _merge(base: dict, top: dict, file: str) -> dict:
    out = dict(base)
    for k, v in top.items():
        if k == "extends":
            continue
        if k == "rules":
            out["rules"], unknown = _merge_rules(base.get("rules", []), v, file,
                                                 str(base.get("scheme", "the base scheme")))
            out["_unknown_rules"] = base.get("_unknown_rules", []) + unknown
        elif k in ("sets", "pairs", "settlement", "rotation", "ways_of_winning") and isinstance(v, dict) and isinstance(base.get(k), dict):
            merged = dict(base[k])
            merged.update(v)
            out[k] = merged
        else:
            out[k] = v
    out["_files"] = base.get("_files", []) + [file]
    out["extends"] = None
    return out


def _merge_rules(base: list[dict[str, Any]], top: object, file: str,
                 base_name: str) -> tuple[list[dict[str, Any]], list[str]]:
    if not isinstance(top, list):
        raise SchemeError("'rules' is a list of rules", Location(file), "rules")
    rules: list[dict[str, Any] | None] = [dict(r) for r in base]
    index = {r.get("id"): n for n, r in enumerate(rules) if r is not None}
    unknown: list[str] = []
    for n, r in enumerate(top):
        if not isinstance(r, dict) or not isinstance(r.get("id"), str):
            raise SchemeError(f"rules[{n}]: each rule is a mapping with an 'id'", Location(file), f"rules[{n}]")
        if r["id"] not in index and not r.get("remove") and not ("text" in r and "when" in r):
            # Most likely a misspelt id: it would add a rule that applies to every hand.  Said
            # once the rule's own values are checked, which may tell more.
            unknown.append(f"rules[{n}] ({excerpt(r['id'])}): no such rule in {excerpt(base_name)}; "
                           "a new rule needs text and when")
        if r["id"] in index:
            at = index[r["id"]]
            if r.get("remove"):
                rules[at] = None
            else:
                merged = dict(rules[at] or {})
                # A changed unit replaces the old one: a rule has exactly one of points, doubles, limit.
                if any(u in r for u in ("points", "doubles", "limit")):
                    for u in ("points", "doubles", "limit"):
                        merged.pop(u, None)
                merged.update(r)
                rules[at] = merged
        elif r.get("remove"):
            raise SchemeError(f"rules[{n}]: cannot remove '{excerpt(r['id'])}': the base scheme has no such rule",
                              Location(file), excerpt(r["id"]))
        else:
            index[r["id"]] = len(rules)
            rules.append(dict(r))
    return [r for r in rules if r is not None], unknown


# -- checking ----------------------------------------------------------------------------------

class _Checker:
    def __init__(self, file: str):
        self.file = file

    def fail(self, path: str, message: str) -> NoReturn:
        path = excerpt(path, 80)
        raise SchemeError(f"{path}: {message}", Location(self.file), path)

    def int(self, data, key, path, default=None, minimum=0, maximum=MAX_POINTS):
        v = data.get(key, default)
        if not _whole(v) or not minimum <= v <= maximum:
            self.fail(path, f"takes a whole number from {minimum:,} to {maximum:,}, not {excerpt(v)}")
        return v

    def bool(self, data, key, path, default=None):
        v = data.get(key, default)
        if not isinstance(v, bool):
            self.fail(path, f"takes true or false, not {excerpt(v)}")
        return v

    def keys(self, data, prefix: str, known, allowed=None):
        """Refuse a key not in `allowed` (default: `known`), listing `known` in its order."""
        allowed = known if allowed is None else allowed
        for k in data:
            if k not in allowed:
                self.fail(f"{prefix}{excerpt(k)}", f"unknown key; known: {', '.join(known)}")

    def str(self, data, key, path, default=None):
        v = data.get(key, default)
        if not isinstance(v, str):
            self.fail(path, f"takes text, not {excerpt(v)}")
        return v



def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _build(data: dict, path: str) -> Scheme:
    data = dict(data)
    read = data.pop("_sources_read", None) or []
    made_of = fingerprint("\0".join([*(f"{p}\0{fp}" for p, fp in read), payoffs_fingerprint()]).encode("utf-8"))
    data.pop("_source_bytes", None)
    unknown_rules = data.pop("_unknown_rules", [])
    files = data.pop("_files", [path])
    file = files[-1]
    base = data.pop("_base", None)
    ck = _Checker(file)
    if not isinstance(data.get("scheme"), str):
        # Said before any key is named: a file that is no scheme at all (a table, a password
        # file) is not quoted back, even in part.
        raise SchemeError("not a scheme file: a scheme starts with 'scheme: NAME' (see schemes/README.md)",
                          Location(file))
    ck.keys(data, "", sorted(TOP_KEYS))
    name = ck.str(data, "scheme", "scheme")
    limit = ck.int(data, "limit", "limit", minimum=1, maximum=MAX_LIMIT)
    max_chows = ck.int(data, "max_chows", "max_chows", default=4, maximum=4)
    shapes = data.get("shapes", ["standard"])
    if not isinstance(shapes, list) or not shapes:
        ck.fail("shapes", "takes a list of winning shapes")
    for n, s in enumerate(shapes):
        if not isinstance(s, str) or s not in SHAPES:
            ck.fail(f"shapes[{n}]", f"'{excerpt(s)}' is not a shape; known: {', '.join(sorted(SHAPES))}")
    rounding = _rounding(ck, data.get("rounding", "none"))
    set_points = _sets(ck, data.get("sets"))
    claimed_kong = _claimed_kong(ck, data["sets"].get("claimed_kong", {}))
    pair_points = _pairs(ck, data.get("pairs", {}))
    rules = tuple(_rule(ck, r, n) for n, r in enumerate(_list(ck, data.get("rules", []), "rules")))
    if unknown_rules:
        raise SchemeError(unknown_rules[0], Location(file))
    by_id: dict[str, Rule] = {}
    for n, r in enumerate(rules):
        if r.id in by_id:
            ck.fail(f"rules[{n}].id", f"'{excerpt(r.id)}' is used by two rules")
        by_id[r.id] = r
    hand_doubles = sum(r.doubles * (5 if r.per_set else 1) for r in rules)
    if hand_doubles > MAX_HAND_DOUBLES:
        ck.fail("rules", f"the rules give a hand up to {hand_doubles:,} doubles in all; at most "
                         f"{MAX_HAND_DOUBLES} make sense (2^{MAX_HAND_DOUBLES} is past any limit)")
    for n, r in enumerate(rules):
        for x in r.excludes:
            if not isinstance(x, str) or x not in by_id:
                ck.fail(f"rules[{n}].excludes", f"no rule '{excerpt(x)}' to exclude")
        for cname, param in r.when:
            if cname == "calling":
                target = by_id.get(param)
                if target is None:
                    ck.fail(f"rules[{n}].when.calling", f"no rule '{excerpt(param)}'")
                if target.scope == "loser" or any(c == "calling" for c, _ in target.when):
                    ck.fail(f"rules[{n}].when.calling", f"'{param}' must be a rule a winner can earn")
    settlement, payoffs = _settlement(ck, data.get("settlement", {}) or {}, by_id)
    rotation = _section(ck, data.get("rotation", {}) or {}, "rotation", ROTATION, ())
    ways = _ways_of_winning(ck, data.get("ways_of_winning", {}) or {})
    sources = data.get("sources", [])
    if isinstance(sources, str):
        sources = [sources]
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        ck.fail("sources", "takes a list of texts")
    return Scheme(
        name=name, title=str(data.get("title", name)), description=str(data.get("description", "")).strip(),
        sources=tuple(sources), file=file, limit=limit,
        roof_off=ck.bool(data, "roof_off", "roof_off", default=False),
        max_chows=max_chows,
        bonus_tiles=ck.bool(data, "bonus_tiles", "bonus_tiles", default=True),
        bonus_tile_points=ck.int(data, "bonus_tile_points", "bonus_tile_points", default=4, maximum=MAX_POINTS),
        shapes=frozenset(shapes), rounding=rounding, set_points=set_points, pair_points=pair_points,
        rules=rules, claimed_kong=claimed_kong, ways_of_winning=ways,
        settlement=Settings().layered(settlement), payoffs=payoffs, rotation=Rotation().layered(rotation),
        winner_rules=tuple(r for r in rules if r.scope != "loser"),
        loser_rules=tuple(r for r in rules if r.scope != "winner"),
        losers_exhaustive=any(r.scope != "winner" and any(c == "zero_points" for c, _ in r.when) for r in rules),
        fingerprint=made_of, base=None if base is None else (str(base[0]), str(base[1])))


def _settlement(ck, s, rule_ids) -> tuple[dict[str, object], dict[str, Payoff]]:
    """The scheme's own values of the settings (each checked as the setting says), and its own
    payoff tables, parsed."""
    values = _section(ck, s, "settlement", SETTINGS, ("payoffs",))
    payoffs = {}
    if "payoffs" in s:
        try:
            payoffs = parse_payoffs(s["payoffs"], "settlement.payoffs")
        except SchemeError as e:
            ck.fail("settlement.payoffs", e.message)
    if values.get("kitty_hand") is not None and values["kitty_hand"] not in rule_ids:
        ck.fail("settlement.kitty_hand", f"no rule '{excerpt(values['kitty_hand'])}' in this scheme")
    names = set(builtin_payoffs()) | set(payoffs)
    if "payoff" in values and values["payoff"] not in names:
        ck.fail("settlement.payoff", f"no payoff scheme '{excerpt(values['payoff'])}'; known: {', '.join(sorted(names))}")
    return values, payoffs


def _section(ck, values, section: str, declared: tuple[Setting, ...], more: tuple[str, ...]) -> dict[str, object]:
    """A scheme's `settlement:` or `rotation:` mapping: each key a declared setting (or one of
    `more`), each value checked as the setting says (null: the setting's default)."""
    if not isinstance(values, dict):
        ck.fail(section, "takes a mapping")
    by_name = {x.name: x for x in declared}
    ck.keys(values, f"{section}.", sorted([*by_name, *more]))
    out = {}
    for key, value in values.items():
        if key in by_name:
            try:
                out[key] = by_name[key].check(value, f"{section}.{key}")
            except SettingError as e:
                raise SchemeError(e.message, Location(ck.file), e.token) from None
    return out


def _ways_of_winning(ck, w) -> WaysOfWinning:
    if not isinstance(w, dict):
        ck.fail("ways_of_winning", "takes a mapping")
    ck.keys(w, "ways_of_winning.", WaysOfWinning._fields)
    defaults = WaysOfWinning()
    return WaysOfWinning(*(ck.bool(w, key, f"ways_of_winning.{key}", default=getattr(defaults, key))
                           for key in WaysOfWinning._fields))


def _list(ck, v, path):
    if not isinstance(v, list):
        ck.fail(path, "takes a list")
    return v


def _rounding(ck, v) -> Rounding:
    if v == "none" or v is None:
        return Rounding()
    if not isinstance(v, dict):
        ck.fail("rounding", "takes 'none' or {mode, unit, stage}")
    ck.keys(v, "rounding.", ("mode", "unit", "stage"))
    mode = v.get("mode", "nearest")
    if mode not in ROUNDING_MODES:
        ck.fail("rounding.mode", f"takes one of: {', '.join(ROUNDING_MODES)}")
    stage = v.get("stage", "after-doubles")
    if stage not in ROUNDING_STAGES:
        ck.fail("rounding.stage", f"takes one of: {', '.join(ROUNDING_STAGES)}")
    return Rounding(RoundingMode(mode), ck.int(v, "unit", "rounding.unit", default=10, minimum=1, maximum=10_000),
                    RoundingStage(stage))


def _sets(ck, v) -> dict:
    if not isinstance(v, dict):
        ck.fail("sets", "takes {pung: {...}, kong: {...}}: points by tile class, [exposed, concealed]")
    out = {}
    for kind in ("pung", "kong", "chow"):
        table = v.get(kind, {} if kind != "chow" else 0)
        if kind == "chow":
            ck.int(v, "chow", "sets.chow", default=0)
            for cls in SET_CLASSES:
                out[("chow", cls, True)] = out[("chow", cls, False)] = table
            continue
        if not isinstance(table, dict):
            ck.fail(f"sets.{kind}", "takes {simple: [EXPOSED, CONCEALED], terminal: [...], honour: [...]}")
        for cls in table:
            if cls not in SET_CLASSES:
                ck.fail(f"sets.{kind}.{excerpt(cls)}", f"unknown tile class; known: {', '.join(SET_CLASSES)}")
        for cls in SET_CLASSES:
            pair = table.get(cls)
            if not (isinstance(pair, list) and len(pair) == 2 and all(_whole(x) and 0 <= x <= MAX_POINTS
                                                                    for x in pair)):
                ck.fail(f"sets.{kind}.{cls}", f"takes [EXPOSED, CONCEALED] points, each from 0 to {MAX_POINTS:,}")
            out[(kind, cls, True)], out[(kind, cls, False)] = pair
    ck.keys(v, "sets.", ("pung", "kong", "chow", "claimed_kong"))
    return out


def _claimed_kong(ck, v) -> ClaimedKong:
    if not isinstance(v, dict):
        ck.fail("sets.claimed_kong", "takes {points: exposed|concealed, concealed_hand: BOOL, concealed_pung: BOOL}")
    ck.keys(v, "sets.claimed_kong.", ("points", "concealed_hand", "concealed_pung"))
    points = v.get("points", "exposed")
    if points not in ("exposed", "concealed"):
        ck.fail("sets.claimed_kong.points", f"takes exposed or concealed, not {excerpt(points)}")
    return ClaimedKong(points == "exposed",
                       ck.bool(v, "concealed_hand", "sets.claimed_kong.concealed_hand", default=False),
                       ck.bool(v, "concealed_pung", "sets.claimed_kong.concealed_pung", default=False))


def _pairs(ck, v) -> dict:
    if not isinstance(v, dict):
        ck.fail("pairs", "takes a mapping of pair kinds to points")
    out = {}
    for k, x in v.items():
        if k not in PAIR_KINDS:
            ck.fail(f"pairs.{excerpt(k)}", f"unknown pair kind; known: {', '.join(PAIR_KINDS)}")
        out[k] = ck.int(v, k, f"pairs.{k}")
    return out


_HAND_CHECKS = {k: c.check for k, c in CONDITIONS.items()}


def _rule(ck, r, n) -> Rule:
    path = f"rules[{n}]"
    if not isinstance(r, dict):
        ck.fail(path, "a rule is a mapping")
    rid = r.get("id")
    if not isinstance(rid, str) or not rid:
        ck.fail(f"{path}.id", "each rule needs an id")
    path = f"rules[{n}] ({excerpt(rid)})"
    ck.keys(r, f"{path}.", sorted(RULE_KEYS - {"remove"}), allowed=RULE_KEYS)
    units = [u for u in ("points", "doubles", "limit") if u in r]
    if len(units) != 1:
        ck.fail(path, "a rule has exactly one of points, doubles or limit"
                + (f" (it has {' and '.join(units)})" if units else ""))
    unit = units[0]
    value = r[unit]
    if unit == "limit":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 1:
            ck.fail(f"{path}.limit", "takes a fraction of the limit, above 0 and at most 1")
    else:
        ck.int(r, unit, f"{path}.{unit}", maximum=MAX_POINTS if unit == "points" else MAX_DOUBLES)
    scope = r.get("scope", "every")
    if scope not in SCOPES:
        ck.fail(f"{path}.scope", f"takes one of: {', '.join(SCOPES)}")
    per = r.get("per", "hand")
    if per not in ("hand", "set"):
        ck.fail(f"{path}.per", "takes 'hand' or 'set'")
    when = r.get("when", {})
    if not isinstance(when, dict):
        ck.fail(f"{path}.when", "takes a mapping of conditions")
    catalogue = SET_CONDITIONS if per == "set" else _HAND_CHECKS
    parsed = []
    for cname, param in when.items():
        if cname not in catalogue:
            ck.fail(f"{path}.when.{excerpt(cname)}", f"unknown condition; known: {', '.join(sorted(catalogue))}")
        try:
            parsed.append((cname, catalogue[cname](param)))
        except ParamError as e:
            ck.fail(f"{path}.when.{cname}", str(e))
        except (TypeError, ValueError, KeyError, AttributeError):
            ck.fail(f"{path}.when.{cname}", f"{excerpt(param)} is not a value this condition takes")
    excludes = r.get("excludes", [])
    if not isinstance(excludes, list):
        ck.fail(f"{path}.excludes", "takes a list of rule ids")
    text = r.get("text", rid)
    if not isinstance(text, str):
        ck.fail(f"{path}.text", "takes text")
    if r.get("source") is not None and not isinstance(r["source"], str):
        ck.fail(f"{path}.source", "takes text")
    tests: tuple[tuple[Callable[..., bool], Any], ...] = ()
    if per == "set":
        needs = set_rule_needs(parsed)
    else:
        tests = tuple((CONDITIONS[c].test, p) for c, p in parsed)
        needs = frozenset().union(*(CONDITIONS[c].needs(p) for c, p in parsed))
    return Rule(id=rid, text=text, scope=scope, per_set=per == "set", when=tuple(parsed),
                points=value if unit == "points" else 0, doubles=value if unit == "doubles" else 0,
                limit=float(value) if unit == "limit" else 0.0, excludes=tuple(excludes),
                source=r.get("source"), tests=tests, needs=needs)
