"""Payoff tables: how much each loser pays the winner, as rule data.

A payoff scheme gives, for each of five situations (who won, and on whose discard), a
multiplier of the winner's score for East, the discarder and the other losers.  The shipped
ones are in the package's `schemes/settlement/payoffs.yaml`; a scheme file may add its own
under `settlement.payoffs`.  Both are read and checked here, where the other rule data is.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from mjscore.store import scheme_cache
from mjscore.store.cache_folder import fingerprint
# The payoff tables' file is YAML data, not tables: read as bytes (its fingerprint is theirs), then as one document.
from mjscore.io.text import decode, read_bytes
from mjscore.io.yamlsafe import load_document
from mjscore.model.errors import Location, MjError, SchemeError, excerpt
from mjscore.rules.shipped import payoff_file
from mjscore.model.say import _

SITUATIONS = ("east-self-drawn", "other-self-drawn", "east-on-discard", "other-on-east-discard",
              "other-on-other-discard")
MAX_MULTIPLIER = 100        # of the winner's score, for one loser
PAYOFF_NAME = "schemes/settlement/payoffs.yaml"     # as the user sees it in messages
ROLES = ("east", "discarder", "others")


class EastDouble(StrEnum):
    """How a payoff scheme treats East's double."""

    SWITCH = "switch"            # East pays and receives double where the East-double setting is on
    BUILT_IN = "built-in"        # East's double is in the figures already
    NONE = "none"                # East is never doubled


EAST_DOUBLE_KINDS = tuple(k.value for k in EastDouble)


class Payoff(NamedTuple):
    """One payoff scheme: for each situation, each losing role's multiple of the winner's score."""

    name: str
    text: str
    east_double: EastDouble
    table: dict[str, dict[str, float]]    # situation -> role -> multiplier


# -- payoff tables -------------------------------------------------------------------------------

def parse_payoffs(data: object, where: str) -> dict[str, Payoff]:
    """Payoff tables from their YAML form (see payoffs.yaml), checked."""
    if not isinstance(data, dict):
        raise SchemeError(_("{where}: payoffs is a mapping of names to tables").format(where=where), Location(where))
    out = {}
    for name, spec in data.items():
        path = f"{where}.{name}"
        if not isinstance(spec, dict) or "table" not in spec:
            raise SchemeError(_("{path}: a payoff has a 'table' (situation -> role -> multiplier)").format(
                path=path), Location(where))
        for k in spec:
            if k not in ("text", "east_double", "table"):
                raise SchemeError(_("{path}.{key}: unknown key; known: text, east_double, table").format(
                    path=path, key=k), Location(where))
        kind = spec.get("east_double", "none")
        if kind not in EAST_DOUBLE_KINDS:
            raise SchemeError(_("{path}.east_double: takes one of {choices}").format(
                path=path, choices=', '.join(EAST_DOUBLE_KINDS)), Location(where))
        table = {}
        for situation in SITUATIONS:
            row = spec["table"].get(situation)
            if not isinstance(row, dict):
                raise SchemeError(_("{path}.table.{situation}: missing (roles east, discarder, others)").format(
                    path=path, situation=situation), Location(where))
            for role, m in row.items():
                if role not in ROLES or not isinstance(m, (int, float)) or isinstance(m, bool) \
                        or not 0 <= m <= MAX_MULTIPLIER:
                    raise SchemeError(_("{path}.table.{situation}.{role}: a role ({roles}) and a multiplier from 0 "
                                        "to {most}").format(path=path, situation=situation, role=excerpt(role),
                                                            roles=', '.join(ROLES), most=MAX_MULTIPLIER),
                                      Location(where))
            table[situation] = dict(row)
        for situation in spec["table"]:
            if situation not in SITUATIONS:
                raise SchemeError(_("{path}.table.{situation}: unknown situation; known: {known}").format(
                    path=path, situation=situation, known=', '.join(SITUATIONS)),
                                  Location(where))
        out[name] = Payoff(name, str(spec.get("text", name)), EastDouble(kind), table)
    return out


def builtin_payoffs() -> dict[str, Payoff]:
    """The shipped payoff schemes (chinese-classical, chinese-modern, japanese, ...)."""
    return _builtin()[0]


def payoffs_fingerprint() -> str:
    """The content fingerprint of the shipped payoff tables' file."""
    return _builtin()[1]


@lru_cache(maxsize=1)
def _builtin() -> tuple[dict[str, Payoff], str]:
    path = payoff_file()
    try:
        raw = read_bytes(str(path), MAX_PAYOFF_BYTES, PAYOFF_NAME)
    except MjError as e:
        raise SchemeError(e.message, e.location) from None
    source = fingerprint(raw)
    cached = scheme_cache.load("payoffs", str(path), source, lambda _path: None)
    if cached is not None:
        try:
            return parse_payoffs(cached, PAYOFF_NAME), source
        except SchemeError:
            pass                               # an entry that fails the checks is never believed
    try:
        document = load_document(decode(raw, PAYOFF_NAME), PAYOFF_NAME)
    except MjError as e:
        raise SchemeError(e.message, e.location, e.token) from None
    data = document.get("payoffs") if isinstance(document, dict) else None
    payoffs = parse_payoffs(data, PAYOFF_NAME)      # checked, then remembered
    scheme_cache.store("payoffs", str(path), source, [], len(raw), data)
    return payoffs, source


MAX_PAYOFF_BYTES = 256 * 1024
