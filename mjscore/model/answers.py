"""Every answer's shape, declared once: what each result's plain form holds (`to_dict()`), which
the command line prints with `--format json`, lays out as text, and the table page answers.

Each shape is a `TypedDict`: the type checkers hold the library's writers and the shells'
readers to it, and the table page's server makes its published schema (`/openapi.json`) from
it, closed (a field not declared here is refused by the suite's checks of every answer).  A key
that a form writes only sometimes is `NotRequired`, and never null when there.  What a field
means is said in the docstring under it, which the published schema carries as its
description; a key that is a Python word (`from`) makes its form be declared by the functional
syntax, and its fields are described in the form's own docstring.

At run time each is a plain `dict`; nothing here is imported to make one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NotRequired, TypeAlias, final

# typing's own TypedDict before 3.12 keeps no record of which keys its bases declared required,
# which the table page's schema needs (pydantic refuses it there); typing_extensions' is the same
# type to the checkers.  Only the table page's server loads this module at run time (the library
# and the command line name these types for the checkers alone), so a one-hand `score` pays nothing.
from typing_extensions import TypedDict

from mjscore.model.tiles import SeatLetter

Seat: TypeAlias = SeatLetter            # a seat, and a round, by its wind's letter


# -- a table ------------------------------------------------------------------------------------

class ItemPlain(TypedDict):
    """One line of a player's score: a rule and what it gave (points, doubles, or a share of the limit)."""

    rule: str
    text: str
    applies_to: NotRequired[str]
    """The group it counts (`[111p]`), when it counts one."""
    points: NotRequired[int]
    doubles: NotRequired[int]
    limit: NotRequired[float]
    """The share of the limit it gives (1.0: all of it), for a limit hand."""


class ValuationPlain(TypedDict):
    """An arrangement valued: the figures, the items that count, the sets as written."""

    points: int
    doubles: int
    limit: str | None
    """The limit hand's name, when the hand is one."""
    score: int
    items: list[ItemPlain]
    arrangement: list[str]


class RunnerUpPlain(ValuationPlain):
    """`--explain`: the next best arrangement, and the items it lacks and has beyond the best."""

    missing: list[ItemPlain]
    extra: list[ItemPlain]


class PlayerPlain(ValuationPlain):
    """One player's line scored: the figures, the items, how the hand was read."""

    seat: Seat
    winner: bool
    name: NotRequired[str]
    """The player's name, where the table names its players."""
    completed: NotRequired[str]
    """The set the winning discard completed."""
    not_counted: NotRequired[list[ItemPlain]]
    counted: NotRequired[bool]
    """The score was counted at the table (`score N`), not from tiles."""
    runner_up: NotRequired[RunnerUpPlain | None]
    """With `--explain`: the next best arrangement."""
    claim: NotRequired[int]
    """The score the player claimed (`= N`)."""


WinPlain = TypedDict("WinPlain", {
    "tile": str | None,
    "from": Seat | None,
    "flags": list[str],
    "liable": NotRequired[Seat],
})
WinPlain.__doc__ = ("How the winner went out: the tile; `from`, the seat that discarded it (none: drawn from the "
                    "wall); the flags; `liable`, the seat that pays for all, when one does.")

PaymentPlain = TypedDict("PaymentPlain", {"from": Seat, "to": Seat, "amount": int})
PaymentPlain.__doc__ = "One payment between seats: `from` pays `to` the amount."

PenaltyPlain = TypedDict("PenaltyPlain", {"from": Seat, "to": Seat | None, "amount": int})
PenaltyPlain.__doc__ = ("A penalty between seats: `from` pays `to` the amount (under add-up it is paid to "
                        "nobody, `to` none: it is taken off the payer's total).")


class SpecialPlain(TypedDict):
    """A special payment beside the score: the kitty, or the bonus for East's extra hands."""

    kind: str
    count: int
    unit: int
    amount: int
    to: Seat | None
    why: NotRequired[str]
    """Why it was not paid, when it was not."""


class StakePlain(TypedDict):
    """What a point is worth: a decimal as a string, and its currency if it has one."""

    per_point: str
    currency: str | None


class SettlementPlain(TypedDict):
    """How the table paid: the method, the payments (penalties among them, and listed apart), each seat's gain."""

    paying: str
    payoff: str | None
    east_double: bool
    east_double_applies: bool
    payments: list[PaymentPlain]
    penalties: list[PenaltyPlain]
    net: dict[Seat, int]
    """Each seat's gain."""
    specials: NotRequired[list[SpecialPlain]]
    stake: NotRequired[StakePlain]
    money: NotRequired[dict[Seat, str]]
    """Each seat's gain in money, with the stake."""


class _Scored(TypedDict):
    """What every scored table holds, alone (`score`) or as a hand of an evening."""

    scheme: str
    round: Seat
    winner: Seat | None
    draw: bool
    players: list[PlayerPlain]
    win: NotRequired[WinPlain]
    """How the winner went out; absent without a winner."""
    ruling: NotRequired[str]
    """How two or three winners on one discard were ruled on."""
    settlement: SettlementPlain | None
    settlement_error: NotRequired[str]
    """Why the table could not be settled."""


@final
class TablePlain(_Scored):
    """One table scored and settled: what `mjscore score --format json` prints."""


class HandPlain(_Scored):
    """A hand of an evening: the table scored, its number, its dealer, who sat where, the totals after it."""

    hand: int
    dealer: str
    names: dict[Seat, str]
    """The player in each seat."""
    totals: dict[str, int]
    """Each player's total after it."""
    kajongg_hand: NotRequired[int]
    """Its own number in the Kajongg game it was imported from."""


Scored = TablePlain | HandPlain


class SaidPlain(TypedDict):
    """A hand's payments in words, as every shell says them."""

    payments: list[str]
    penalties: list[str]
    specials: list[str]
    nobody: NotRequired[list[str]]
    """Where nobody pays: what is said instead of the payments ("Nobody pays.")."""
    completed: NotRequired[list[str]]
    """Where the winning discard completed a set written concealed: which tile from whom."""


class HandShownPlain(HandPlain):
    """A hand of the evening as `session --hand N --format json` prints it, with its title and its payments in words."""

    title: str
    outcome: str
    """What came of it, in words: "Ann (E) wins on Bob's discard", "a draw"."""
    said: SaidPlain


# -- an evening ---------------------------------------------------------------------------------

class StandingPlain(TypedDict):
    """A player's place: the total, and its money with a stake."""

    name: str
    total: int
    money: NotRequired[str]


TransferPlain = TypedDict("TransferPlain", {"from": str, "to": str, "amount": int, "money": NotRequired[str]})
TransferPlain.__doc__ = "One payment of the settle-up, between players by name (`from` pays `to`)."


class NextPlain(TypedDict):
    """Who deals the next hand, in which round, who sits where; in words too (`text`)."""

    dealer: str
    round: Seat
    hand: int
    extra_hands: int
    kitty_deals: int
    seats: dict[Seat, str]
    seats_change: bool
    dealer_wins: int
    title: str
    """The hand it is, named as a hand's title names it: `Hand 2: Ann deals, East round`."""
    text: str
    moves: str | None
    kept: str | None


class SummaryPlain(TypedDict):
    """The evening as it stands, its hands aside: the totals, the standings, the settle-up (none
    when every hand was added up), who deals next; with a stake, the money."""

    stake: NotRequired[StakePlain]
    totals: dict[str, int]
    money: NotRequired[dict[str, str]]
    standings: list[StandingPlain]
    settle_up: list[TransferPlain] | None
    """None: every hand was added up."""
    settle_up_note: NotRequired[str]
    next: NotRequired[NextPlain]
    finished: NotRequired[bool]
    """The evening's header says `finished`: no hand follows."""
    errors: NotRequired[list[str]]
    """The bad hands (the totals stop at the first)."""


class EveningPlain(SummaryPlain):
    """The evening with its players and their start: a session's end in a batch, and the
    standings `undo` shows."""

    players: list[str]
    start: int


class SessionPlain(EveningPlain):
    """The whole evening: what `mjscore session EVENING --format json` prints; its hands may come
    one at a time (drawn from once)."""

    hands: Iterable[HandPlain]


class EveningSaidPlain(TypedDict):
    """The evening's phrases, as the command line says them: each standing's won or lost (in the
    standings' order), each payment of the settle-up, what came of each hand, and what a point is
    worth under a stake (as the reader's language writes money)."""

    standings: list[str]
    settle_up: list[str]
    hands: NotRequired[list[str]]
    stake: NotRequired[str]


class EveningShownPlain(EveningPlain):
    """The whole evening with its phrases (the table page's evening)."""

    hands: list[HandPlain]
    said: EveningSaidPlain


class NightTablePlain(EveningPlain):
    """One table of a night: its name (its file's stem), its totals, standings and settle-up, and its hands' number."""

    table: str
    hands: int


class NightStandingPlain(TypedDict):
    """A player's night: her won or lost summed over the tables she played at, and its money with one stake."""

    name: str
    won_or_lost: int
    tables: list[str]
    money: NotRequired[str]


class NightPlain(TypedDict):
    """A night of several tables: each table's standings, each player's over the night, and the
    night's settle-up across tables (money where every table plays at one stake)."""

    stake: NotRequired[StakePlain]
    tables: list[NightTablePlain]
    standings: list[NightStandingPlain]
    settle_up: list[TransferPlain]
    notes: NotRequired[list[str]]
    said: NotRequired[dict[str, Any]]


class ServedTablePlain(TypedDict):
    """A table served tonight: its name, its players in seat order at the first hand, its hands played."""

    table: str
    players: list[str]
    hands: int
    error: NotRequired[ErrorDetail]


class TablesPlain(TypedDict):
    """The night's tables, as a phone picks one."""

    tables: list[ServedTablePlain]


class StandingsShownPlain(EveningPlain):
    """The evening's totals, standings and settle-up, with the number of its hands, and their phrases."""

    hands: int
    said: EveningSaidPlain


# `add`, `edit` and `undo` print their objects (`--format json`), the evening's `start` among
# them: what each player won or lost is counted from it.

class ChangedHandPlain(EveningPlain):
    """What `add` and `edit` show: the hand added or corrected, and the evening as it stands."""

    hand: HandPlain


class AddedPlain(ChangedHandPlain):
    """A hand added: what `mjscore add EVENING -e TEXT --format json` prints."""

    created: bool
    """The evening's file was made for it."""


class TotalChangePlain(TypedDict):
    before: int
    after: int


class CorrectedPlain(ChangedHandPlain):
    """A hand corrected: what `mjscore edit EVENING N -e TEXT --format json` prints: the hand,
    its text as it was and is, and the totals it changed."""

    old: str
    new: str
    changed: dict[str, TotalChangePlain]


class RemovedPlain(EveningPlain):
    """A hand taken back: what `mjscore undo EVENING --format json` prints: the hand taken out
    (its text), and the evening without it."""

    removed: str
    hands: int
    """The hands left."""


class HandTextPlain(TypedDict):
    """Hand N as the evening's file holds it, and who sat where for it."""

    hand: int
    seats: dict[Seat, str]
    round: Seat
    text: str
    version: str
    """What a correction of the hand names as the version it started from."""


# -- a season -----------------------------------------------------------------------------------

class SeasonEveningPlain(TypedDict):
    file: str
    hands: int
    won_or_lost: dict[str, int]
    """Each player's won or lost that evening."""


class SeasonStandingPlain(TypedDict):
    place: int
    name: str
    evenings: int
    hands: int
    won_or_lost: int
    per_evening: float
    """Won or lost an evening file (a table)."""
    per_hand: float
    nights: int
    """Nights played: a night of several tables she sat at counts once."""
    per_night: float
    money: NotRequired[str]
    """Her won or lost in money, when every evening counted had the same stake (`stake`)."""


class SeasonMoneyPlain(TypedDict):
    """Money in one currency (None: a stake without one): never added to another currency's."""

    currency: str | None
    won_or_lost: dict[str, str]


class SeasonNightPlain(TypedDict):
    """A night: a folder of evening files (a table each), or a file given alone; a row of the
    night-by-night table's columns."""

    name: str
    files: list[str]
    hands: int
    won_or_lost: dict[str, int]
    """Each player's won or lost that night, her tables summed; only those who played."""
    stakes: list[StakePlain]
    money: list[SeasonMoneyPlain]


class BiggestHandPlain(TypedDict):
    score: int
    file: str
    hand: int
    limit: str | None


class FiguresPlain(TypedDict):
    """One player's season."""

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
    limit_hands: dict[str, int]
    """Each limit hand made, and how often."""
    penalties_paid: int
    penalties_received: int
    paid_for_all: int
    nights: int
    per_night: float


class SeasonErrorPlain(TypedDict):
    file: str
    line: int
    error: str


class SeasonPlain(TypedDict):
    """Each player's figures: what `season` and `session EVENING --stats` print (`--format json`),
    the players in the standings' order."""

    evenings: list[SeasonEveningPlain]
    hands: int
    standings: list[SeasonStandingPlain]
    players: list[FiguresPlain]
    left_out: list[str]
    errors: list[SeasonErrorPlain]
    nights: list[SeasonNightPlain]
    stake: StakePlain | None
    """The one stake every evening counted played for; None otherwise."""
    stakes: list[StakePlain]
    """Every stake played for, as first met."""
    unstaked: int
    """The evenings counted that played for no stake."""
    money: list[SeasonMoneyPlain]
    """Each player's season in money, a total per currency."""


# -- the rules in force -------------------------------------------------------------------------

class RuleChangePlain(TypedDict):
    what: str
    base: str
    here: str


class SettingPlain(TypedDict):
    word: str
    value: str
    given: bool
    """The evening's header sets it, rather than the scheme."""
    help: str


class RulesPlain(TypedDict):
    """The rules in force: the scheme, what a house file changed from its base, the evening's settings."""

    scheme: str
    title: str
    description: str
    file: str | None
    base: str | None
    changes: list[RuleChangePlain]
    start: int
    settings: list[SettingPlain]


# -- waits and schemes --------------------------------------------------------------------------

class WaitsPlain(TypedDict):
    """A player's waits (`api.waits`): the tiles that complete the hand, those all in sight."""

    seat: Seat
    waits: list[str]
    dead: list[str]
    sacred: NotRequired[list[str]]


class RuleRowPlain(TypedDict):
    id: str
    text: str
    value: str
    when: str
    house: str
    """The item a house file writes to change it."""


class HouseKeysPlain(TypedDict):
    parameters: list[str]
    sets: list[str]
    pairs: list[str]


class SchemeViewPlain(TypedDict):
    """A scheme as rows for people (`api.describe_scheme`)."""

    name: str
    title: str
    description: str
    parameters: list[list[str | int]]
    """[what, its value, what a house file writes]"""
    sets: list[list[str | int]]
    """[set, exposed, concealed]"""
    pairs: list[list[str | int]]
    """[pair, points]"""
    rules: dict[str, list[RuleRowPlain]]
    """The rules, by scope."""
    sources: list[str]
    house: HouseKeysPlain


class PayoffTablePlain(TypedDict):
    """A payoff scheme (`api.payoff_tables`): what each loser pays, a row a situation."""

    name: str
    text: str
    east_double: str
    """switch, built-in or none"""
    default: bool
    roles: list[str]
    rows: list[list[str | float]]


# -- errors -------------------------------------------------------------------------------------

class ErrorDetail(TypedDict):
    """What is wrong, and where: the message always; its place in the text (line and column from
    1, 0 when it has none) and the token it points at for everything past the guard; the file
    (the evening's, by its name only, or `<hand>`, `<input>`) where the library names one."""

    message: str
    line: NotRequired[int]
    column: NotRequired[int]
    token: NotRequired[str | None]
    file: NotRequired[str]
    seat: NotRequired[Seat | None]
    """Settling the drafts: the seat whose line is wrong or missing (none: no one seat's)."""


class ErrorBody(TypedDict):
    """Every refusal and every error, whatever its status: never a path, never a traceback."""

    error: ErrorDetail


# -- the next hand, as the table page holds it (`NextHand`) -------------------------------------

class LineErrorPlain(TypedDict):
    """What is wrong with a line, its column counted in the line."""

    message: str
    line: int
    column: int
    token: str | None


class LineCheckPlain(TypedDict):
    """One seat's line of the next hand, checked: right (`line`, as the file will keep it, and the
    player's score as the line stands when it can be had) or not (`error`)."""

    seat: Seat
    ok: bool
    line: NotRequired[str]
    error: NotRequired[LineErrorPlain]
    player: NotRequired[PlayerPlain]


class DraftPlain(LineCheckPlain):
    """One seat's line of the next hand as held: its check, the text as typed, who entered it."""

    text: str
    """The line as typed."""
    by: str | None
    run: NotRequired[str]
    """Entering it: the server's run that holds it (the status's `run`)."""
    held: NotRequired[str]
    """Entering it: the status's `version` once it was held."""


HeldPenaltyPlain = TypedDict("HeldPenaltyPlain", {"from": str, "amount": int, "to": str | None, "by": str | None,
                                                   "said": NotRequired[str]})
HeldPenaltyPlain.__doc__ = ("A penalty held for the next hand, between players by name: `from` pays `to` (none: "
                            "each other player) the amount; `by`, who entered it; in the status, `said`: the "
                            "penalty in words, as the phones list it.")


class NoticePlain(TypedDict):
    """What another phone (or the terminal) did, told to every phone."""

    id: int
    kind: str
    hand: int
    by: str | None
    text: str


class StatusPlain(TypedDict):
    """The next hand as held, and what changed: asked every second by each phone.  When the
    evening's file is wrong, `error` says so and the evening's fields are empty."""

    version: str
    """Changes whenever anything here does (also the answer's ETag)."""
    run: str
    """This server's run: a phone whose line was taken by another run, and is not held now, sends it again."""
    error: ErrorDetail | None
    hands: int | None
    players: list[str]
    next: NextPlain | None
    hand: int | None
    drafts: dict[Seat, DraftPlain]
    penalties: list[HeldPenaltyPlain]
    other: NotRequired[list[str]]
    """The next hand's own header lines, held with its drafts."""
    notices: list[NoticePlain]
    settling: bool
    limit: int | None
    title: str


class DraftsDroppedPlain(TypedDict):
    """The hand's lines dropped: no seat's line is held now (`drafts` is empty)."""

    drafts: dict[Seat, DraftPlain]


class DraftDroppedPlain(TypedDict):
    """The seat's line withdrawn."""

    seat: Seat
    draft: None


class PenaltiesPlain(TypedDict):
    """The next hand's penalties, all of them, as held now."""

    penalties: list[HeldPenaltyPlain]
