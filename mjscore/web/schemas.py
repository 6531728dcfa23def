"""What the table page's server takes and gives: the request bodies, which FastAPI checks, and
the answers, which it only describes (`/openapi.json`).

An answer is the plain object the library gives (`to_dict()`, what the command line prints with
`--format json`), sent as it is: the models below are its description, never a filter (no route
has a `response_model`, so no field is dropped, renamed or reordered).  Each names the fields
that are always there with their types, and the fields that are there only sometimes (a stake,
a kitty, a penalty) as optional; the library's objects stay open to more (`extra="allow"`), the
objects made here (the error body, the small answers of the routes) are closed.
tests/test_web_openapi.py holds every route's real answers to this description.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema

from mjscore.model.errors import MjError

MAX_BODY = 64 * 1024                # the largest request body taken (web.guard refuses more: 413)
NAME = Field(None, max_length=64, description="Who is entering it (a player's name), told to the other phones.")
HAND = Field(..., ge=1, le=10 ** 6, strict=True, description="The number of the hand it is for: refused (409) "
                                                               "when that hand is no longer the next one.")

Seat = Literal["E", "S", "W", "N"]      # a seat, and a round, by its wind's letter
# A field of an answer that is there only sometimes: not required, and never null when there.
Absent = SkipJsonSchema[None]


# -- requests ----------------------------------------------------------------------------------

class HandIn(BaseModel):
    """A hand to add: the drafts held for hand N, or a hand in the notation, as `mjscore add -e TEXT` takes it."""

    hand: int | None = Field(None, ge=1, le=10 ** 6, strict=True,
                             description="The hand's number in the evening: refused (409) when another phone has "
                                         "added that hand already.")
    text: str | None = Field(None, max_length=MAX_BODY, description="One hand in the compact notation (';' breaks "
                                                                   "lines); without it, the drafts held for `hand`.")
    others_nothing: bool = Field(False, strict=True, description="A seat with no line scored nothing ('...').")
    draw: bool = Field(False, strict=True, description="The hand was a draw (its penalties still paid; the lines "
                                                       "held are written with it).")
    by: str | None = NAME


class CorrectionIn(BaseModel):
    """A hand as it should have been written, for a hand already in the evening."""

    text: str = Field(max_length=MAX_BODY, description="The hand in the compact notation; ';' breaks lines.")
    version: str = Field(max_length=64, description="The version of the hand the correction started from (GET "
                                                    "/api/hands/N/text's `version`): refused (409) when another "
                                                    "correction came first.")
    by: str | None = NAME


class LineIn(BaseModel):
    """One player's line of the next hand, without its seat."""

    text: str = Field(max_length=4096, description="The line: tiles and groups, 'score N', '...', a win clause.")
    hand: int = HAND
    by: str = Field(max_length=64, description="The player whose line it is: taken only for the seat they sit in "
                                               "for the hand (409 with their seat otherwise).")


class PenaltyIn(BaseModel):
    """A penalty: who pays, how much, to whom (none: to each other player)."""

    model_config = ConfigDict(populate_by_name=True)

    payer: str = Field(alias="from", max_length=64, description="The player who pays, by name.")
    amount: int = Field(strict=True, description="A whole number of points from 1 up.")
    payee: str | None = Field(None, alias="to", max_length=64, description="The player paid; none: each other player.")
    by: str | None = NAME


class PenaltiesIn(BaseModel):
    """The penalties of the next hand, all of them (they replace those held)."""

    hand: int = HAND
    penalties: list[PenaltyIn] = Field(max_length=64)
    by: str | None = NAME


class OnePenaltyIn(PenaltyIn):
    """One more penalty of the next hand."""

    hand: int = HAND


class ScoreIn(BaseModel):
    """A table to score, with the settings of `mjscore score` by name."""

    text: str = Field(max_length=MAX_BODY, description="One table in the compact notation or YAML.")
    settings: dict[str, Any] = Field(default_factory=dict, description="Settings by their API names "
                                                                     "(paying, payoff, east_double, kitty, ...).")
    scheme: str | None = Field(None, max_length=4096, description="A shipped scheme's name (never a file).")


# -- the error body ----------------------------------------------------------------------------

def _no_defaults(schema: JsonDict) -> None:
    # An answer's optional field is absent, never filled in: it has no default to describe.
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for field in properties.values():
            if isinstance(field, dict):
                field.pop("default", None)


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=_no_defaults)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra=_no_defaults)


class ErrorDetail(_Closed):
    """What is wrong, and where: the message always; its place in the text (line and column from
    1, 0 when it has none) and the token it points at for everything past the guard; the file
    (the evening's, by its name only, or `<hand>`, `<input>`) where the library names one."""

    message: str
    line: int | Absent = None
    column: int | Absent = None
    token: str | None = None
    file: str | Absent = None
    seat: Seat | None = Field(None, description="Settling the drafts: the seat whose line is wrong or missing "
                                                "(none: no one seat's).")


class ErrorBody(_Closed):
    """Every refusal and every error, whatever its status: never a path, never a traceback."""

    error: ErrorDetail


def error_body(message: str, line: int = 0, column: int = 0, token: str | None = None, **more: Any) -> dict[str, Any]:
    """An `ErrorBody`, as the answers carry it."""
    return {"error": {"message": message, "line": line, "column": column, "token": token, **more}}


def described(e: MjError, folder: str, **more: Any) -> dict[str, Any]:
    """A library error as an `ErrorBody`: the message and its place, the evening's `folder` left
    out (a phone is told what is wrong, never where the file lives)."""
    where = e.location
    message = e.message.replace(folder + os.sep, "")
    file = os.path.basename(where.file) if where.file and not where.file.startswith("<") else where.file
    return error_body(message, where.line, where.column, e.token, file=file, **more)


# -- a hand scored (`mjscore score --format json`) -------------------------------------------

class ItemOut(_Open):
    """One line of a player's score: a rule and what it gave (points, doubles, or a share of the limit)."""

    rule: str
    text: str
    applies_to: str | Absent = Field(None, description="The group it counts (`[111p]`), when it counts one.")
    points: int | Absent = None
    doubles: int | Absent = None
    limit: float | Absent = Field(None, description="The share of the limit it gives (1.0: all of it), for a limit "
                                                    "hand.")


class PlayerOut(_Open):
    """One player's line scored: the figures, the items, how the hand was read."""

    seat: Seat
    winner: bool
    name: str | Absent = None
    points: int
    doubles: int
    limit: str | None = Field(description="The limit hand's name, when the hand is one.")
    score: int
    items: list[ItemOut]
    arrangement: list[str]
    completed: str | Absent = None
    not_counted: list[ItemOut] | Absent = None
    counted: bool | Absent = Field(None, description="The score was counted at the table (`score N`), not from tiles.")
    claim: int | Absent = Field(None, description="The score the player claimed (`= N`).")


class WinOut(_Open):
    """How the winner went out."""

    tile: str | None
    from_: Seat | None = Field(alias="from", description="The seat that discarded it; none: drawn from the wall.")
    flags: list[str]
    liable: Seat | Absent = Field(None, description="The seat that pays for all.")


class PaymentOut(_Open):
    """One payment between seats (a penalty under add-up is paid to nobody: `to` none)."""

    from_: Seat = Field(alias="from")
    to: Seat | None
    amount: int


class SpecialOut(_Open):
    """A special payment beside the score: the kitty, or the bonus for East's extra hands."""

    kind: str
    count: int
    unit: int
    amount: int
    to: Seat | None
    why: str | Absent = Field(None, description="Why it was not paid, when it was not.")


class StakeOut(_Open):
    """What a point is worth: a decimal as a string, and its currency if it has one."""

    per_point: str
    currency: str | None


class SettlementOut(_Open):
    """How the table paid: the method, the payments (penalties among them, and listed apart), each seat's gain."""

    paying: str
    payoff: str | None
    east_double: bool
    east_double_applies: bool
    payments: list[PaymentOut]
    penalties: list[PaymentOut]
    net: dict[Seat, int]
    specials: list[SpecialOut] | Absent = None
    stake: StakeOut | Absent = None
    money: dict[Seat, str] | Absent = None


class TableOut(_Open):
    """One table scored and settled: what `mjscore score --format json` prints."""

    scheme: str
    round: Seat
    winner: Seat | None
    draw: bool
    players: list[PlayerOut]
    win: WinOut | Absent = Field(None, description="How the winner went out; absent without a winner.")
    ruling: str | Absent = Field(None, description="How two or three winners on one discard were ruled on.")
    settlement: SettlementOut | None
    settlement_error: str | Absent = Field(None, description="Why the table could not be settled.")


class PlayedHandOut(TableOut):
    """A hand of the evening: the table scored, its number, who sat where, the totals after it."""

    hand: int
    dealer: str
    names: dict[Seat, str]
    totals: dict[str, int]
    kajongg_hand: int | Absent = Field(None, description="Its own number in the Kajongg game it was imported from.")


class SaidOut(_Closed):
    """A hand's payments in words, as every shell says them."""

    payments: list[str]
    penalties: list[str]
    specials: list[str]


class HandShownOut(PlayedHandOut):
    """A hand of the evening as `session --hand N --format json` prints it, with its title and its payments in words."""

    title: str
    outcome: str = Field(description="What came of it, in words: \"Ann (E) wins on Bob's discard\", \"a draw\".")
    said: SaidOut


# -- the evening (`mjscore session --format json`, `add`, `undo`, `edit`) ----------------------

class NextDealOut(_Open):
    """Who deals the next hand, in which round, who sits where; in words too."""

    dealer: str
    round: Seat
    hand: int
    extra_hands: int
    kitty_deals: int
    seats: dict[Seat, str]
    seats_change: bool
    dealer_wins: int
    text: str
    moves: str | None
    kept: str | None


class StandingOut(_Open):
    """A player's place: the total, and its money with a stake."""

    name: str
    total: int
    money: str | Absent = None


class TransferOut(_Open):
    """One payment of the settle-up, between players by name."""

    from_: str = Field(alias="from")
    to: str
    amount: int
    money: str | Absent = None


class SummaryOut(_Open):
    """The evening as it stands, its hands aside: the totals, the standings, the settle-up (none
    when every hand was added up), who deals next; with a stake, the money."""

    stake: StakeOut | Absent = None
    totals: dict[str, int]
    money: dict[str, str] | Absent = None
    standings: list[StandingOut]
    settle_up: list[TransferOut] | None
    settle_up_note: str | Absent = None
    next: NextDealOut | Absent = None
    finished: bool | Absent = Field(None, description="The evening's header says `finished`: no hand follows.")
    errors: list[str] | Absent = Field(None, description="The bad hands (the totals stop at the first).")


class EveningSaidOut(_Closed):
    """The evening's phrases, as the command line says them: each standing's won or lost (in the
    standings' order), each payment of the settle-up, and what came of each hand."""

    standings: list[str]
    settle_up: list[str]
    hands: list[str] | Absent = None


class EveningOut(SummaryOut):
    """The whole evening: what `mjscore session EVENING --format json` prints, and its phrases."""

    players: list[str]
    start: int
    hands: list[PlayedHandOut]
    said: EveningSaidOut


class StandingsOut(SummaryOut):
    """The evening's totals, standings and settle-up, with the number of its hands, and their phrases."""

    players: list[str]
    start: int
    hands: int
    said: EveningSaidOut


class AddedOut(SummaryOut):
    """A hand added: what `mjscore add EVENING -e TEXT --format json` prints."""

    created: bool
    players: list[str]
    hand: PlayedHandOut


class RemovedOut(SummaryOut):
    """A hand taken back: what `mjscore undo EVENING --format json` prints."""

    removed: str
    players: list[str]
    hands: int


class ChangeOut(_Open):
    before: int
    after: int


class CorrectedOut(SummaryOut):
    """A hand corrected: what `mjscore edit EVENING N -e TEXT --format json` prints."""

    hand: PlayedHandOut
    old: str
    new: str
    changed: dict[str, ChangeOut]
    players: list[str]


class HandTextOut(_Closed):
    """Hand N as the evening's file holds it, and who sat where for it."""

    hand: int
    seats: dict[Seat, str]
    round: Seat
    text: str
    version: str = Field(description="What a correction of the hand names as the version it started from.")


# -- the evening's figures (`mjscore session --stats --format json`) ---------------------------

class EveningLineOut(_Open):
    file: str
    hands: int
    won_or_lost: dict[str, int]


class SeasonStandingOut(_Open):
    place: int
    name: str
    evenings: int
    hands: int
    won_or_lost: int
    per_evening: float
    per_hand: float


class BiggestHandOut(_Open):
    score: int
    file: str
    hand: int
    limit: str | None


class FiguresOut(_Open):
    name: str
    evenings: int
    hands: int
    won_or_lost: int
    hands_won: int
    won_self_drawn: int
    won_on_discard: int
    dealt: int
    draws: int
    biggest_hand: BiggestHandOut | None
    limit_hands: dict[str, int]
    penalties_paid: int
    penalties_received: int
    paid_for_all: int


class FileErrorOut(_Open):
    file: str
    line: int
    error: str


class StatsOut(_Open):
    """Each player's figures: what `mjscore session EVENING --stats --format json` prints."""

    evenings: list[EveningLineOut]
    hands: int
    standings: list[SeasonStandingOut]
    players: list[FiguresOut]
    left_out: list[str]
    errors: list[FileErrorOut]


# -- the rules in force ------------------------------------------------------------------------

class RuleChangeOut(_Open):
    what: str
    base: str
    here: str


class SettingOut(_Open):
    word: str
    value: str
    given: bool = Field(description="The evening's header sets it, rather than the scheme.")
    help: str


class RulesOut(_Open):
    """The rules in force: the scheme, what a house file changed from its base, the evening's settings."""

    scheme: str
    title: str
    description: str
    file: str | None
    base: str | None
    changes: list[RuleChangeOut]
    start: int
    settings: list[SettingOut]


# -- the next hand, as held (`api.NextHand`) ---------------------------------------------------

class LineError(_Closed):
    """What is wrong with a line, its column counted in the line."""

    message: str
    line: int
    column: int
    token: str | None


class DraftOut(_Open):
    """One seat's line of the next hand, checked: right (`line`, as the file will keep it, and the
    player's score as the line stands when it can be had) or not (`error`)."""

    seat: Seat
    ok: bool
    line: str | Absent = None
    error: LineError | Absent = None
    player: PlayerOut | Absent = None
    text: str = Field(description="The line as typed.")
    by: str | None
    run: str | Absent = Field(None, description="Entering it: the server's run that holds it (the status's `run`).")
    held: str | Absent = Field(None, description="Entering it: the status's `version` once it was held.")


class PenaltyOut(_Open):
    """A penalty held for the next hand, between players by name (`to` none: each other player)."""

    from_: str = Field(alias="from")
    amount: int
    to: str | None
    by: str | None


class NoticeOut(_Open):
    """What another phone (or the terminal) did, told to every phone."""

    id: int
    kind: str
    hand: int
    by: str | None
    text: str


class StatusOut(_Open):
    """The next hand as held, and what changed: asked every second by each phone.  When the
    evening's file is wrong, `error` says so and the evening's fields are empty."""

    version: str = Field(description="Changes whenever anything here does (also the answer's ETag).")
    run: str = Field(description="This server's run: a phone whose line was taken by another run, and is not "
                                 "held now, sends it again.")
    error: ErrorDetail | None
    hands: int | None
    players: list[str]
    next: NextDealOut | None
    hand: int | None
    drafts: dict[Seat, DraftOut]
    penalties: list[PenaltyOut]
    other: list[str] | Absent = Field(None, description="The next hand's own header lines, held with its drafts.")
    notices: list[NoticeOut]
    settling: bool
    limit: int | None
    title: str


class DraftsDroppedOut(_Closed):
    """The hand's lines dropped: no seat's line is held now."""

    drafts: dict[Seat, DraftOut] = Field(max_length=0, description="None held now.")


class DraftDroppedOut(_Closed):
    """The seat's line withdrawn."""

    seat: Seat
    draft: None


class PenaltiesOut(_Closed):
    """The next hand's penalties, all of them, as held now."""

    penalties: list[PenaltyOut]
