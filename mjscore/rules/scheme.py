"""Scheme files: the scoring rules as data, loaded, checked and flattened.

A scheme is a YAML file (format in schemes/README.md).  Loading checks every key and value and
reports the file and key path of anything wrong; `extends:` merges a base scheme under the
file's own values, so the result is always one flat table.  Loaded schemes are cached, so a
batch reads each file once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, NoReturn, TypeGuard

from mjscore.hand.arrange import SHAPES
# A scheme file is YAML data, not tables: read as bytes (its fingerprint is theirs), then as one document.
from mjscore.io.text import decode, read_bytes
from mjscore.io.yamlsafe import load_document
from mjscore.model.errors import Location, MjError, SchemeError, excerpt
from mjscore.model.settings import ROTATION, SETTINGS, Rotation, Setting, SettingError, Settings
from mjscore.store import scheme_cache
from mjscore.store.cache_folder import fingerprint
from mjscore.rules.conditions import (
    CONDITIONS,
    SET_CONDITIONS,
    BoundTest,
    Param,
    ParamError,
    set_rule_needs,
)
from mjscore.rules.features import ClaimedKong, Need
from mjscore.rules.payoffs import Payoff, builtin_payoffs, parse_payoffs, payoffs_fingerprint
from mjscore.rules.shipped import scheme_dir, shipped_schemes
from mjscore.model.say import _

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


class RoundingMode(StrEnum):
    NONE = "none"
    UP = "up"
    NEAREST = "nearest"                  # halves up: 65 -> 70


class RoundingStage(StrEnum):
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
    when: tuple[tuple[str, Param], ...]        # each condition's name and parameter, as its check made it
    points: int = 0
    doubles: int = 0
    limit: float = 0.0
    excludes: tuple[str, ...] = ()
    source: str | None = None
    # The conditions bound to their test functions once, at load: the engine calls these.
    tests: tuple[BoundTest, ...] = field(default=(), compare=False, repr=False)
    # The features a hand must have for the rule to apply (conditions.features): an index.
    needs: frozenset[Need] = field(default=frozenset(), compare=False, repr=False)

    @property
    def unit(self) -> str:
        return "points" if self.points else "doubles" if self.doubles else "limit"

    @property
    def value(self) -> int | float:
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
        raise SchemeError(_("no scheme named '{name}'; shipped: {shipped} (or give a scheme file's path)").format(
            name=excerpt(name_or_path), shipped=', '.join(shipped_schemes())), Location(excerpt(name_or_path, 80)))
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
    with contextlib.suppress(OSError, RuntimeError):     # unresolved: reading it will say what is wrong
        path = path.resolve()
    scheme = _load(str(path), name)
    if is_shipped_name(name):
        _BY_NAME[name] = scheme               # shipped names only: a path may point elsewhere later
    return scheme


_BY_NAME: dict[str, Scheme] = {}
MAX_EXTENDS = 32                # a chain of `extends:` no longer than this
MAX_SCHEME_BYTES = 4 * 1024 * 1024


# A mapping as a scheme file writes it: untrusted, each key and value checked where it is read.
Raw = dict[Any, object]
# The sections of a scheme a house file changes key by key (the rest of the base's section stays).
_MERGED_SECTIONS = ("sets", "pairs", "settlement", "rotation", "ways_of_winning")


class _Flat(NamedTuple):
    """A scheme file's data with its `extends:` chain merged in (base first, the file's values
    on top), not yet checked, and what it was made from."""

    data: Raw
    files: list[str]                   # the files of the chain as messages name them, the base first
    sources: list[tuple[str, str]]     # (path, fingerprint) of every file read, this one first
    size: int                          # their bytes together
    base: tuple[str, str] | None = None     # the base as the file names it, and the file it is
    unknown_rules: tuple[str, ...] = ()     # rules of the chain that change no rule of their base


@lru_cache(maxsize=64)
def _load(path: str, given: str | None = None) -> Scheme:
    raw = _read_bytes(Path(path), given)
    source = fingerprint(raw)
    cached = _from_cache(scheme_cache.load("scheme", path, source, _fingerprint_now), path)
    if cached is not None:
        try:
            return _build(cached, path)
        except SchemeError:
            pass                               # an entry that fails the checks is never believed
    flat = _flat_data(Path(path), (), raw, given)
    scheme = _build(flat, path)                # checked before it is remembered
    scheme_cache.store("scheme", path, source, flat.sources[1:], flat.size, _plain(flat))
    return scheme


def _fingerprint_now(path: str) -> str | None:
    try:
        return fingerprint(read_bytes(path, MAX_SCHEME_BYTES))
    except MjError:
        return None


def _plain(flat: _Flat) -> Raw:
    """What the cache keeps of the flat data: its keys and values (checked: no key of them starts
    with "_"), and under "_files", "_sources_read" and "_base" what it was made from."""
    out = dict(flat.data)
    out["_files"] = list(flat.files)
    out["_sources_read"] = [[p, fp] for p, fp in flat.sources]
    if flat.base is not None:
        out["_base"] = list(flat.base)
    return out


def _from_cache(entry: object, path: str) -> _Flat | None:
    """The flat data a cache entry keeps (`_plain`); None for an entry not of that form."""
    if not isinstance(entry, dict):
        return None
    data = dict(entry)
    files = data.pop("_files", [path])
    read = data.pop("_sources_read", None) or []
    base = data.pop("_base", None)
    if not (_texts(files) and files and isinstance(read, list)):
        return None
    sources = []
    for item in read:
        if not (isinstance(item, list) and len(item) == 2 and _texts(item)):
            return None
        sources.append((item[0], item[1]))
    if base is None:
        return _Flat(data, files, sources, 0)
    if not (isinstance(base, list) and len(base) == 2):
        return None
    return _Flat(data, files, sources, 0, (str(base[0]), str(base[1])))


def _read_bytes(path: Path, given: str | None = None) -> bytes:
    display = given or _display(path)
    try:
        return read_bytes(str(path), MAX_SCHEME_BYTES, display, what=_("scheme file"))
    except MjError as e:
        raise SchemeError(e.message, e.location) from None


def _read_yaml(raw: bytes, display: str) -> Raw:
    try:
        data: object = load_document(decode(raw, display), display)     # the same safety checks as hand files
    except MjError as e:
        raise SchemeError(e.message, e.location, e.token) from None
    if not isinstance(data, dict):
        raise SchemeError(_("a scheme file is a mapping of keys to values"), Location(display))
    return data


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _flat_data(path: Path, seen: tuple[str, ...], raw: bytes | None = None, given: str | None = None) -> _Flat:
    """The file's data with its `extends:` chain merged in (base first, the file's values on top),
    with the files read: what the cache keys an entry by and bounds it with."""
    key = str(path.resolve())
    display = given or _display(path)
    if len(seen) >= MAX_EXTENDS:
        raise SchemeError(_("schemes extend each other more than {limit} deep: '{file}' is one base too "
                            "many").format(limit=MAX_EXTENDS, file=excerpt(display, 80)), Location(display))
    if key in seen:
        raise SchemeError(_("schemes extend each other in a circle: {chain}").format(chain=" -> ".join(seen + (key,))),
                          Location(display))
    if raw is None:
        raw = _read_bytes(path, given)
    data = _read_yaml(raw, display)
    read = [(key, fingerprint(raw))]
    base_name = data.get("extends")
    if base_name is None:
        return _Flat(data, [display], read, len(raw))
    if not isinstance(base_name, str):
        raise SchemeError(_("'extends' takes a scheme name or path"), Location(display), "extends")
    base_path = resolve(base_name, path.parent)
    base = _flat_data(base_path, seen + (key,), given=None)
    merged, unknown = _merge(base, data, display)
    return _Flat(merged, [*base.files, display], read + base.sources, base.size + len(raw),
                 (base_name, str(base_path)), unknown)


def _merge(base: _Flat, top: Raw, file: str) -> tuple[Raw, tuple[str, ...]]:
    """The base's data with the file's on top, and the rules of both that change no base rule."""
    out = dict(base.data)
    unknown = base.unknown_rules
    for k, v in top.items():
        if k == "extends":
            continue
        below = base.data.get(k)
        if k == "rules":
            out["rules"], more = _merge_rules(_base_rules(base), v, file,
                                              str(base.data.get("scheme", _("the base scheme"))))
            unknown = (*unknown, *more)
        elif k in _MERGED_SECTIONS and isinstance(v, dict) and isinstance(below, dict):
            merged = dict(below)
            merged.update(v)
            out[k] = merged
        else:
            out[k] = v
    out["extends"] = None
    return out, unknown


def _base_rules(base: _Flat) -> list[Raw]:
    """The base's rules, for a file's rules to go on top of: a list of mappings, or what is wrong
    with them is said of the base file, as loading the base says it."""
    rules = base.data.get("rules", [])
    ck = _Checker(base.files[-1])
    if not isinstance(rules, list):
        ck.fail("rules", _("takes a list"))
    out: list[Raw] = []
    for n, r in enumerate(rules):
        if not isinstance(r, dict):
            ck.fail(f"rules[{n}]", _("a rule is a mapping"))
        out.append(r)
    return out


def _merge_rules(base: list[Raw], top: object, file: str, base_name: str) -> tuple[list[Raw], list[str]]:
    if not isinstance(top, list):
        raise SchemeError(_("'rules' is a list of rules"), Location(file), "rules")
    rules: list[Raw | None] = [dict(r) for r in base]
    # By id (a rule of the base without one is said to need one once the rules are checked).
    index = {rid: n for n, r in enumerate(base) if isinstance(rid := r.get("id"), str)}
    unknown: list[str] = []
    for n, r in enumerate(top):
        if not isinstance(r, dict) or not isinstance(rid := r.get("id"), str):
            raise SchemeError(_("rules[{n}]: each rule is a mapping with an 'id'").format(
                n=n), Location(file), f"rules[{n}]")
        if rid not in index and not r.get("remove") and not ("text" in r and "when" in r):
            # Most likely a misspelt id: it would add a rule that applies to every hand.  Said
            # once the rule's own values are checked, which may tell more.
            unknown.append(_("rules[{n}] ({rule}): no such rule in {scheme}; a new rule needs text and "
                             "when").format(n=n, rule=excerpt(rid), scheme=excerpt(base_name)))
        if rid in index:
            at = index[rid]
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
            raise SchemeError(_("rules[{n}]: cannot remove '{rule}': the base scheme has no such rule").format(
                n=n, rule=excerpt(rid)),
                              Location(file), excerpt(rid))
        else:
            index[rid] = len(rules)
            rules.append(dict(r))
    return [r for r in rules if r is not None], unknown


# -- checking ----------------------------------------------------------------------------------

class _Checker:
    """Reads a scheme's values, each checked for type and range: a SchemeError names the file
    and the key path of one that is not right."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, path: str, message: str) -> NoReturn:
        path = excerpt(path, 80)
        raise SchemeError(f"{path}: {message}", Location(self.file), path)

    def whole(self, data: Mapping[Any, object], key: str, path: str, default: object = None, minimum: int = 0,
              maximum: int = MAX_POINTS) -> int:
        v = data.get(key, default)
        if not _whole(v) or not minimum <= v <= maximum:
            self.fail(path, _("takes a whole number from {minimum} to {maximum}, not {value}").format(
                minimum=f"{minimum:,}", maximum=f"{maximum:,}", value=excerpt(v)))
        return v

    def boolean(self, data: Mapping[Any, object], key: str, path: str, default: object = None) -> bool:
        v = data.get(key, default)
        if not isinstance(v, bool):
            self.fail(path, _("takes true or false, not {value}").format(value=excerpt(v)))
        return v

    def keys(self, data: Mapping[Any, object], prefix: str, known: Sequence[str],
             allowed: Collection[str] | None = None) -> None:
        """Refuse a key not in `allowed` (default: `known`), listing `known` in its order."""
        allowed = known if allowed is None else allowed
        for k in data:
            if k not in allowed:
                self.fail(f"{prefix}{excerpt(k)}", _("unknown key; known: {known}").format(known=', '.join(known)))

    def text(self, data: Mapping[Any, object], key: str, path: str, default: object = None) -> str:
        v = data.get(key, default)
        if not isinstance(v, str):
            self.fail(path, _("takes text, not {value}").format(value=excerpt(v)))
        return v

    def mapping(self, v: object, path: str) -> Raw:
        if not isinstance(v, dict):
            self.fail(path, _("takes a mapping"))
        return v


def _whole(v: object) -> TypeGuard[int]:
    """A whole number (an int, but not a bool)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _texts(v: object) -> TypeGuard[list[str]]:
    """A list of texts."""
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _one_of(v: object, values: tuple[str, ...]) -> TypeGuard[str]:
    """One of the words (`v` any value a scheme file holds)."""
    return v in values


def _build(flat: _Flat, path: str) -> Scheme:
    data = flat.data
    made_of = fingerprint("\0".join([*(f"{p}\0{fp}" for p, fp in flat.sources), payoffs_fingerprint()]).encode("utf-8"))
    file = flat.files[-1]
    ck = _Checker(file)
    if not isinstance(data.get("scheme"), str):
        # Said before any key is named: a file that is no scheme at all (a table, a password
        # file) is not quoted back, even in part.
        raise SchemeError(_("not a scheme file: a scheme starts with 'scheme: NAME' (see schemes/README.md)"),
                          Location(file))
    ck.keys(data, "", sorted(TOP_KEYS))
    name = ck.text(data, "scheme", "scheme")
    limit = ck.whole(data, "limit", "limit", minimum=1, maximum=MAX_LIMIT)
    max_chows = ck.whole(data, "max_chows", "max_chows", default=4, maximum=4)
    shapes = _shapes(ck, data.get("shapes", ["standard"]))
    rounding = _rounding(ck, data.get("rounding", "none"))
    sets = data.get("sets")
    if not isinstance(sets, dict):
        ck.fail("sets", _("takes {pung: {...}, kong: {...}}: points by tile class, [exposed, concealed]"))
    set_points = _sets(ck, sets)
    claimed_kong = _claimed_kong(ck, sets.get("claimed_kong", {}))
    pair_points = _pairs(ck, data.get("pairs", {}))
    parsed = [_rule(ck, r, n) for n, r in enumerate(_list(ck, data.get("rules", []), "rules"))]
    rules = tuple(rule for rule, __ in parsed)
    if flat.unknown_rules:
        raise SchemeError(flat.unknown_rules[0], Location(file))
    by_id = _rules_by_id(ck, rules)
    hand_doubles = sum(r.doubles * (5 if r.per_set else 1) for r in rules)
    if hand_doubles > MAX_HAND_DOUBLES:
        ck.fail("rules", _("the rules give a hand up to {doubles} doubles in all; at most {most} make sense (2^{most} "
                           "is past any limit)").format(doubles=f"{hand_doubles:,}", most=MAX_HAND_DOUBLES))
    for n, (r, excludes) in enumerate(parsed):
        _check_references(ck, n, r, excludes, by_id)
    settlement, payoffs = _settlement(ck, data.get("settlement", {}) or {}, by_id)
    rotation = _section(ck, ck.mapping(data.get("rotation", {}) or {}, "rotation"), "rotation", ROTATION, ())
    ways = _ways_of_winning(ck, data.get("ways_of_winning", {}) or {})
    sources = _sources(ck, data.get("sources", []))
    return Scheme(
        name=name, title=str(data.get("title", name)), description=str(data.get("description", "")).strip(),
        sources=tuple(sources), file=file, limit=limit,
        roof_off=ck.boolean(data, "roof_off", "roof_off", default=False),
        max_chows=max_chows,
        bonus_tiles=ck.boolean(data, "bonus_tiles", "bonus_tiles", default=True),
        bonus_tile_points=ck.whole(data, "bonus_tile_points", "bonus_tile_points", default=4, maximum=MAX_POINTS),
        shapes=frozenset(s for s in shapes if isinstance(s, str)), rounding=rounding, set_points=set_points,
        pair_points=pair_points, rules=rules, claimed_kong=claimed_kong, ways_of_winning=ways,
        settlement=Settings().layered(settlement), payoffs=payoffs, rotation=Rotation().layered(rotation),
        winner_rules=tuple(r for r in rules if r.scope != "loser"),
        loser_rules=tuple(r for r in rules if r.scope != "winner"),
        losers_exhaustive=any(r.scope != "winner" and any(c == "zero_points" for c, __ in r.when) for r in rules),
        fingerprint=made_of, base=flat.base)


def _shapes(ck: _Checker, shapes: object) -> list[object]:
    """The scheme's `shapes:`, a list of winning shapes, each one the engine knows."""
    if not isinstance(shapes, list) or not shapes:
        ck.fail("shapes", _("takes a list of winning shapes"))
    for n, s in enumerate(shapes):
        if not isinstance(s, str) or s not in SHAPES:
            ck.fail(f"shapes[{n}]", _("'{shape}' is not a shape; known: {known}").format(
                shape=excerpt(s), known=', '.join(sorted(SHAPES))))
    return shapes


def _rules_by_id(ck: _Checker, rules: tuple[Rule, ...]) -> dict[str, Rule]:
    """The scheme's rules by id, which each rule has a different one of (an `excludes` or a
    `calling` names a rule by it)."""
    by_id: dict[str, Rule] = {}
    for n, r in enumerate(rules):
        if r.id in by_id:
            ck.fail(f"rules[{n}].id", _("'{rule}' is used by two rules").format(rule=excerpt(r.id)))
        by_id[r.id] = r
    return by_id


def _check_references(ck: _Checker, n: int, r: Rule, excludes: list[object], by_id: Mapping[str, Rule]) -> None:
    """The rules `rules[n]` names, which the scheme must have: those it excludes, and the one its
    `calling` condition is one tile from, a rule a winner can earn that asks no `calling` itself."""
    for x in excludes:
        if not isinstance(x, str) or x not in by_id:
            ck.fail(f"rules[{n}].excludes", _("no rule '{rule}' to exclude").format(rule=excerpt(x)))
    for cname, param in r.when:
        if cname == "calling":
            target = by_id.get(param) if isinstance(param, str) else None
            if target is None:
                ck.fail(f"rules[{n}].when.calling", _("no rule '{rule}'").format(rule=excerpt(param)))
            if target.scope == "loser" or any(c == "calling" for c, __ in target.when):
                ck.fail(f"rules[{n}].when.calling", _("'{rule}' must be a rule a winner can earn").format(rule=param))


def _sources(ck: _Checker, sources: object) -> list[str]:
    """The scheme's `sources:`, the books it follows: a list of texts, or one text alone."""
    if isinstance(sources, str):
        sources = [sources]
    if not _texts(sources):
        ck.fail("sources", _("takes a list of texts"))
    return sources


def _settlement(ck: _Checker, given: object, rule_ids: Mapping[str, Rule]) -> tuple[dict[str, object],
                                                                                     dict[str, Payoff]]:
    """The scheme's own values of the settings (each checked as the setting says), and its own
    payoff tables, parsed."""
    s = ck.mapping(given, "settlement")
    values = _section(ck, s, "settlement", SETTINGS, ("payoffs",))
    payoffs = {}
    if "payoffs" in s:
        try:
            payoffs = parse_payoffs(s["payoffs"], "settlement.payoffs")
        except SchemeError as e:
            ck.fail("settlement.payoffs", e.message)
    kitty_hand = values.get("kitty_hand")
    if kitty_hand is not None and kitty_hand not in rule_ids:
        ck.fail("settlement.kitty_hand", _("no rule '{rule}' in this scheme").format(rule=excerpt(kitty_hand)))
    names = set(builtin_payoffs()) | set(payoffs)
    if "payoff" in values and values["payoff"] not in names:
        ck.fail("settlement.payoff",
                _("no payoff scheme '{payoff}'; known: {known}").format(
                    payoff=excerpt(values['payoff']), known=', '.join(sorted(names))))
    return values, payoffs


def _section(ck: _Checker, values: Raw, section: str, declared: tuple[Setting[Any], ...],
             more: tuple[str, ...]) -> dict[str, object]:
    """A scheme's `settlement:` or `rotation:` mapping: each key a declared setting (or one of
    `more`), each value checked as the setting says (null: the setting's default)."""
    by_name = {x.name: x for x in declared}
    ck.keys(values, f"{section}.", sorted([*by_name, *more]))
    out: dict[str, object] = {}
    for key, value in values.items():
        if key in by_name:
            try:
                out[key] = by_name[key].check(value, f"{section}.{key}")
            except SettingError as e:
                raise SchemeError(e.message, Location(ck.file), e.token) from None
    return out


def _ways_of_winning(ck: _Checker, given: object) -> WaysOfWinning:
    w = ck.mapping(given, "ways_of_winning")
    ck.keys(w, "ways_of_winning.", WaysOfWinning._fields)
    defaults = WaysOfWinning()
    return WaysOfWinning(*(ck.boolean(w, key, f"ways_of_winning.{key}", default=getattr(defaults, key))
                           for key in WaysOfWinning._fields))


def _list(ck: _Checker, v: object, path: str) -> list[object]:
    if not isinstance(v, list):
        ck.fail(path, _("takes a list"))
    return v


def _rounding(ck: _Checker, v: object) -> Rounding:
    if v == "none" or v is None:
        return Rounding()
    if not isinstance(v, dict):
        ck.fail("rounding", _("takes 'none' or {mode, unit, stage}"))
    ck.keys(v, "rounding.", ("mode", "unit", "stage"))
    mode = v.get("mode", "nearest")
    if not _one_of(mode, ROUNDING_MODES):
        ck.fail("rounding.mode", _("takes one of: {choices}").format(choices=', '.join(ROUNDING_MODES)))
    stage = v.get("stage", "after-doubles")
    if not _one_of(stage, ROUNDING_STAGES):
        ck.fail("rounding.stage", _("takes one of: {choices}").format(choices=', '.join(ROUNDING_STAGES)))
    return Rounding(RoundingMode(mode), ck.whole(v, "unit", "rounding.unit", default=10, minimum=1, maximum=10_000),
                    RoundingStage(stage))


def _sets(ck: _Checker, v: Raw) -> dict[tuple[str, str, bool], int]:
    """Set points by (kind, tile class, exposed), from the scheme's `sets:` mapping."""
    out = {}
    for kind in ("pung", "kong", "chow"):
        if kind == "chow":
            chow = ck.whole(v, "chow", "sets.chow", default=0)
            for cls in SET_CLASSES:
                out[("chow", cls, True)] = out[("chow", cls, False)] = chow
            continue
        table = v.get(kind, {})
        if not isinstance(table, dict):
            ck.fail(f"sets.{kind}", _("takes {simple: [EXPOSED, CONCEALED], terminal: [...], honour: [...]}"))
        for cls in table:
            if cls not in SET_CLASSES:
                ck.fail(f"sets.{kind}.{excerpt(cls)}", _("unknown tile class; known: {known}").format(
                    known=', '.join(SET_CLASSES)))
        for cls in SET_CLASSES:
            pair = _point_pair(table.get(cls))
            if pair is None:
                ck.fail(f"sets.{kind}.{cls}", _("takes [EXPOSED, CONCEALED] points, each from 0 to "
                                                "{most}").format(most=f"{MAX_POINTS:,}"))
            out[(kind, cls, True)], out[(kind, cls, False)] = pair
    ck.keys(v, "sets.", ("pung", "kong", "chow", "claimed_kong"))
    return out


def _point_pair(v: object) -> tuple[int, int] | None:
    """[EXPOSED, CONCEALED]: two whole numbers of points, each from 0 to MAX_POINTS; else None."""
    if isinstance(v, list) and len(v) == 2:
        exposed, concealed = v
        if _whole(exposed) and _whole(concealed) and 0 <= exposed <= MAX_POINTS and 0 <= concealed <= MAX_POINTS:
            return exposed, concealed
    return None


def _claimed_kong(ck: _Checker, v: object) -> ClaimedKong:
    if not isinstance(v, dict):
        ck.fail("sets.claimed_kong", _("takes {points: exposed|concealed, concealed_hand: BOOL, concealed_pung: BOOL}"))
    ck.keys(v, "sets.claimed_kong.", ("points", "concealed_hand", "concealed_pung"))
    points = v.get("points", "exposed")
    if points not in ("exposed", "concealed"):
        ck.fail("sets.claimed_kong.points", _("takes exposed or concealed, not {value}").format(
            value=excerpt(points)))
    return ClaimedKong(points == "exposed",
                       ck.boolean(v, "concealed_hand", "sets.claimed_kong.concealed_hand", default=False),
                       ck.boolean(v, "concealed_pung", "sets.claimed_kong.concealed_pung", default=False))


def _pairs(ck: _Checker, v: object) -> dict[str, int]:
    if not isinstance(v, dict):
        ck.fail("pairs", _("takes a mapping of pair kinds to points"))
    out = {}
    for k in v:
        if not _one_of(k, PAIR_KINDS):
            ck.fail(f"pairs.{excerpt(k)}", _("unknown pair kind; known: {known}").format(known=', '.join(PAIR_KINDS)))
        out[k] = ck.whole(v, k, f"pairs.{k}")
    return out


_HAND_CHECKS: dict[str, Callable[[object], Param]] = {k: c.check for k, c in CONDITIONS.items()}


def _rule_value(ck: _Checker, r: Raw, path: str) -> tuple[int, int, float]:
    """What a rule gives, (points, doubles, limit): exactly one of them, the others nothing; a
    limit as a fraction of the scheme's limit, above 0 and at most 1."""
    units = [u for u in ("points", "doubles", "limit") if u in r]
    if len(units) != 1:
        ck.fail(path, _("a rule has exactly one of points, doubles or limit")
                + (_(" (it has {units})").format(units=_(" and ").join(units)) if units else ""))
    unit = units[0]
    points = doubles = 0
    limit = 0.0
    if unit == "limit":
        value = r["limit"]
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 1:
            ck.fail(f"{path}.limit", _("takes a fraction of the limit, above 0 and at most 1"))
        limit = float(value)
    elif unit == "points":
        points = ck.whole(r, "points", f"{path}.points", maximum=MAX_POINTS)
    else:
        doubles = ck.whole(r, "doubles", f"{path}.doubles", maximum=MAX_DOUBLES)
    return points, doubles, limit


def _conditions(ck: _Checker, when: Raw, catalogue: Mapping[str, Callable[[object], Param]],
                path: str) -> list[tuple[str, Param]]:
    """A rule's `when:`, each condition's parameter made by its check (the catalogue is the
    per-set or the per-hand one, as the rule's `per` says); a parameter the check cannot take
    at all (of another type) is refused as one this condition does not take."""
    parsed: list[tuple[str, Param]] = []
    for cname, param in when.items():
        if not isinstance(cname, str) or cname not in catalogue:
            ck.fail(f"{path}.when.{excerpt(cname)}", _("unknown condition; known: {known}").format(
                known=', '.join(sorted(catalogue))))
        try:
            parsed.append((cname, catalogue[cname](param)))
        except ParamError as e:
            ck.fail(f"{path}.when.{cname}", str(e))
        except (TypeError, ValueError, KeyError, AttributeError):
            ck.fail(f"{path}.when.{cname}", _("{value} is not a value this condition takes").format(
                value=excerpt(param)))
    return parsed


def _rule(ck: _Checker, r: object, n: int) -> tuple[Rule, list[object]]:
    """The rule the item `rules[n]` gives, and its `excludes` as the file writes them (checked
    against the other rules by `_build`)."""
    path = f"rules[{n}]"
    if not isinstance(r, dict):
        ck.fail(path, _("a rule is a mapping"))
    rid = r.get("id")
    if not isinstance(rid, str) or not rid:
        ck.fail(f"{path}.id", _("each rule needs an id"))
    path = f"rules[{n}] ({excerpt(rid)})"
    ck.keys(r, f"{path}.", sorted(RULE_KEYS - {"remove"}), allowed=RULE_KEYS)
    points, doubles, limit = _rule_value(ck, r, path)
    scope = r.get("scope", "every")
    if not _one_of(scope, SCOPES):
        ck.fail(f"{path}.scope", _("takes one of: {choices}").format(choices=', '.join(SCOPES)))
    per = r.get("per", "hand")
    if per not in ("hand", "set"):
        ck.fail(f"{path}.per", _("takes 'hand' or 'set'"))
    when = r.get("when", {})
    if not isinstance(when, dict):
        ck.fail(f"{path}.when", _("takes a mapping of conditions"))
    parsed = _conditions(ck, when, SET_CONDITIONS if per == "set" else _HAND_CHECKS, path)
    excludes = r.get("excludes", [])
    if not isinstance(excludes, list):
        ck.fail(f"{path}.excludes", _("takes a list of rule ids"))
    text = r.get("text", rid)
    if not isinstance(text, str):
        ck.fail(f"{path}.text", _("takes text"))
    source = r.get("source")
    if source is not None and not isinstance(source, str):
        ck.fail(f"{path}.source", _("takes text"))
    tests: tuple[BoundTest, ...] = ()
    if per == "set":
        needs = set_rule_needs(parsed)
    else:
        tests = tuple((CONDITIONS[c].test, p) for c, p in parsed)
        needs = frozenset[Need]().union(*(CONDITIONS[c].needs(p) for c, p in parsed))
    rule = Rule(id=rid, text=text, scope=scope, per_set=per == "set", when=tuple(parsed), points=points,
                doubles=doubles, limit=limit, excludes=tuple(x for x in excludes if isinstance(x, str)),
                source=source, tests=tests, needs=needs)
    return rule, excludes
