"""The plain forms the command line lays out, as types: what the library's `to_dict()` gives (the
objects `--format json` prints, README "Batch output"), declared here for the type checkers.

At run time each is a plain `dict`; the library returns them as `dict[str, Any]`, and the
commands read each as its shape here (`typing.cast`) where it enters the rendering.  A key that
a form writes only sometimes is `NotRequired`, read after asking for it (`in`, `.get`).
A key that is a Python word (`from`) makes its form be declared by the functional syntax.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NotRequired, TypedDict, final

# -- a table ------------------------------------------------------------------------------------


class ItemPlain(TypedDict):
    """One item of a player's score: points, doubles, or a share of the limit."""

    rule: str
    text: str
    applies_to: NotRequired[str]
    points: NotRequired[int]
    doubles: NotRequired[int]
    limit: NotRequired[float]


class ValuationPlain(TypedDict):
    """An arrangement valued: the figures, the items that count, the sets as written."""

    points: int
    doubles: int
    limit: str | None                  # the limit hand's name
    score: int
    items: list[ItemPlain]
    arrangement: list[str]


class RunnerUpPlain(ValuationPlain):
    """`--explain`: the next best arrangement, and the items it lacks and has beyond the best."""

    missing: list[ItemPlain]
    extra: list[ItemPlain]


class PlayerPlain(ValuationPlain):
    seat: str
    winner: bool
    name: NotRequired[str]                          # written by the player's name
    completed: NotRequired[str]                     # the set the winning discard completed
    not_counted: NotRequired[list[ItemPlain]]
    counted: NotRequired[bool]                      # a score counted at the table (`score N`)
    runner_up: NotRequired[RunnerUpPlain | None]    # with --explain
    claim: NotRequired[int]                         # the player's `= N`


WinPlain = TypedDict("WinPlain", {
    "tile": str | None,
    "from": str | None,                # the discarder's seat; None: self-drawn
    "flags": list[str],
    "liable": NotRequired[str],        # the seat that pays for all
})

PaymentPlain = TypedDict("PaymentPlain", {"from": str, "to": str, "amount": int})

# Under add-up a penalty is paid to nobody (`to` None): it is taken off the payer's total.
PenaltyPlain = TypedDict("PenaltyPlain", {"from": str, "to": str | None, "amount": int})


class SpecialPlain(TypedDict):
    """The kitty, or the bonus for East's extra hands."""

    kind: str
    count: int
    unit: int
    amount: int
    to: str | None
    why: NotRequired[str]


class StakePlain(TypedDict):
    """What a point is worth (`model.money.Stake.as_dict`): decimals as strings."""

    per_point: str
    currency: str | None


class SettlementPlain(TypedDict):
    paying: str
    payoff: str | None
    east_double: bool
    east_double_applies: bool
    payments: list[PaymentPlain]
    penalties: list[PenaltyPlain]
    net: dict[str, int]                 # seat -> gain
    specials: NotRequired[list[SpecialPlain]]
    stake: NotRequired[StakePlain]
    money: NotRequired[dict[str, str]]  # seat -> gain in money, with the stake


class _Scored(TypedDict):
    """What every scored table holds, alone (`score`) or as a hand of an evening."""

    scheme: str
    round: str
    winner: str | None
    draw: bool
    players: list[PlayerPlain]
    win: NotRequired[WinPlain]
    ruling: NotRequired[str]
    settlement: SettlementPlain | None
    settlement_error: NotRequired[str]


@final
class TablePlain(_Scored):
    """One table scored and settled (`TableResult.to_dict`, `score --format json`)."""


class HandPlain(_Scored):
    """A hand of an evening (`PlayedHand.to_dict`): the table's object, with the hand's number,
    its dealer, the players by seat and the running totals after it."""

    hand: int
    dealer: str
    names: dict[str, str]               # seat -> player
    totals: dict[str, int]              # player -> total
    kajongg_hand: NotRequired[int]      # its own number in the Kajongg game it was imported from


Scored = TablePlain | HandPlain


# -- an evening ---------------------------------------------------------------------------------

class StandingPlain(TypedDict):
    name: str
    total: int
    money: NotRequired[str]


TransferPlain = TypedDict("TransferPlain", {"from": str, "to": str, "amount": int, "money": NotRequired[str]})


class NextPlain(TypedDict):
    """Who deals next (`NextDeal.as_dict`); `text` says it in words."""

    dealer: str
    round: str
    hand: int
    extra_hands: int
    kitty_deals: int
    seats: dict[str, str]
    seats_change: bool
    dealer_wins: int
    text: str
    moves: str | None
    kept: str | None


class SummaryPlain(TypedDict):
    """An evening as it stands, its hands aside (`SessionResult.summary`)."""

    stake: NotRequired[StakePlain]
    totals: dict[str, int]
    money: NotRequired[dict[str, str]]
    standings: list[StandingPlain]
    settle_up: list[TransferPlain] | None         # None: every hand added up
    settle_up_note: NotRequired[str]
    next: NotRequired[NextPlain]
    finished: NotRequired[bool]                   # the header says `finished`: no hand follows
    errors: NotRequired[list[str]]


class EveningPlain(SummaryPlain):
    """The evening with its players and their start: a session's end in a batch, and the
    standings `undo` shows."""

    players: list[str]
    start: int


class SessionPlain(EveningPlain):
    """`session`'s object; its hands may come one at a time (drawn from once)."""

    hands: Iterable[HandPlain]


# `add`, `edit` and `undo` print their objects (`--format json`); the command line shows each
# with the evening's `start` beside it, which is how these read them.

class ChangedHandPlain(EveningPlain):
    """What `add` and `edit` show: the hand added or corrected, and the evening as it stands."""

    hand: HandPlain


class AddedPlain(ChangedHandPlain):
    created: bool                       # the evening's file was made for it


class TotalChangePlain(TypedDict):
    before: int
    after: int


class CorrectedPlain(ChangedHandPlain):
    """`edit`'s: the hand corrected, its text as it was and is, and the totals it changed."""

    old: str
    new: str
    changed: dict[str, TotalChangePlain]


class RemovedPlain(EveningPlain):
    """`undo`'s: the hand taken out (its text), and the evening without it."""

    removed: str
    hands: int                          # the hands left


# -- a season -----------------------------------------------------------------------------------

class SeasonEveningPlain(TypedDict):
    file: str
    hands: int
    won_or_lost: dict[str, int]         # player -> that evening's won or lost


class SeasonStandingPlain(TypedDict):
    place: int
    name: str
    evenings: int
    hands: int
    won_or_lost: int
    per_evening: float
    per_hand: float


class BiggestHandPlain(TypedDict):
    score: int
    file: str
    hand: int
    limit: str | None


class FiguresPlain(TypedDict):
    """One player's season (`PlayerFigures.to_dict`)."""

    name: str
    evenings: int
    hands: int
    won_or_lost: int
    hands_won: int
    won_self_drawn: int
    won_on_discard: int
    dealt: int
    draws: int
    biggest_hand: BiggestHandPlain | None
    limit_hands: dict[str, int]         # limit hand -> times
    penalties_paid: int
    penalties_received: int
    paid_for_all: int


class SeasonErrorPlain(TypedDict):
    file: str
    line: int
    error: str


class SeasonPlain(TypedDict):
    """`season`'s object (and `session --stats`'s), its players in the standings' order."""

    evenings: list[SeasonEveningPlain]
    hands: int
    standings: list[SeasonStandingPlain]
    players: list[FiguresPlain]
    left_out: list[str]
    errors: list[SeasonErrorPlain]


# -- waits and schemes --------------------------------------------------------------------------

class WaitsPlain(TypedDict):
    """A player's waits (`api.waits`): the tiles that complete the hand, those all in sight."""

    seat: str
    waits: list[str]
    dead: list[str]
    sacred: NotRequired[list[str]]


class RuleRowPlain(TypedDict):
    id: str
    text: str
    value: str
    when: str
    house: str                          # the item a house file writes to change it


class HouseKeysPlain(TypedDict):
    parameters: list[str]
    sets: list[str]
    pairs: list[str]


class SchemeViewPlain(TypedDict):
    """A scheme as rows for people (`api.describe_scheme`)."""

    name: str
    title: str
    description: str
    parameters: list[list[str | int]]   # [what, its value, what a house file writes]
    sets: list[list[str | int]]         # [set, exposed, concealed]
    pairs: list[list[str | int]]        # [pair, points]
    rules: dict[str, list[RuleRowPlain]]    # by scope
    sources: list[str]
    house: HouseKeysPlain


class PayoffTablePlain(TypedDict):
    """A payoff scheme (`api.payoff_tables`): what each loser pays, a row a situation."""

    name: str
    text: str
    east_double: str                    # switch, built-in or none
    default: bool
    roles: list[str]
    rows: list[list[str | float]]
