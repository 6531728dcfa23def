"""One table through the whole pipeline: validate -> score -> settle -> result dictionary.

The command line, batch and sessions all call `evaluate`; it decides which scheme and which
settlement options apply (command line, then the table's header, then the scheme).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from mjscore.model.errors import SchemeError
from mjscore.model.table import Table


class Choices(NamedTuple):
    """What the command line said; None: not given."""

    scheme: str | None = None
    paying: str | None = None
    payoff: str | None = None
    east_double: bool | None = None
    round_payments_up: int | None = None
    loser_difference_limit: int | None = None
    explain: bool = False


def scheme_for(table: Table, choices: Choices):
    from mjscore.rules.scheme import load_scheme

    name = choices.scheme or table.scheme
    if name and choices.scheme is None and table.where.file not in ("<input>", "<-e>", "<stdin>"):
        # A path in a table's header is read relative to the file it stands in.
        candidate = Path(table.where.file).parent / name
        if ("/" in name or name.endswith((".yaml", ".yml"))) and not Path(name).exists() and candidate.exists():
            name = str(candidate)
    try:
        return load_scheme(name)
    except SchemeError as e:
        if choices.scheme is None and table.scheme is not None and e.location.file == table.scheme:
            raise SchemeError(e.message, table.where, table.scheme) from None
        raise


def options_for(table: Table, scheme, choices: Choices):
    from mjscore.settle import Options

    s = scheme.settlement
    header = dict(table.options)

    def pick(name, default):
        v = getattr(choices, name)
        if v is not None:
            return v
        if name in header:
            return header[name]
        return s.get(name, default)

    return Options(paying=pick("paying", "between-all"), payoff=pick("payoff", "chinese-classical"),
                   east_double=pick("east_double", True), east_double_losers=s.get("east_double_losers"),
                   round_payments_up=pick("round_payments_up", 0) or 0,
                   loser_difference_limit=pick("loser_difference_limit", None))


def evaluate(table: Table, choices: Choices = Choices()) -> dict:
    """Score and settle one table; raises MjError on an impossible table."""
    from mjscore.report import table_dict
    from mjscore.scoring.score import completeness, score_table
    from mjscore.settle import SettlementError, settle
    from mjscore.hand.validate import validate_table

    scheme = scheme_for(table, choices)
    validate_table(table, complete=lambda hand: completeness(hand, scheme))
    scored = score_table(table, scheme)
    options = options_for(table, scheme, choices)
    settlement, error = None, None
    try:
        settlement = settle(table, {p.seat: p.score for p in scored.players}, options, scheme.payoffs).as_dict()
    except SettlementError as e:
        error = str(e)
    return table_dict(scored, settlement, error, choices.explain)

