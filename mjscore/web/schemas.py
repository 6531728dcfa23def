"""What the table page's server takes and gives: the request bodies, which FastAPI checks, and
the answers, which it only describes (`/openapi.json`).

An answer is the plain object the library gives (`to_dict()`, what the command line prints with
`--format json`), sent as it is: its shape is the library's declaration (`mjscore.model.answers`),
read here closed, never a filter (no route has a `response_model`, so no field is dropped,
renamed or reordered).  tests/test_web_openapi.py holds every route's real answers to it.
"""

from __future__ import annotations

import os
from typing import Any, Literal

from typing_extensions import is_typeddict

from pydantic import BaseModel, ConfigDict, Field

from mjscore.model import answers
from mjscore.model.answers import ErrorBody, ErrorDetail
from mjscore.model.errors import MjError
from mjscore.model.tiles import WIND_BY_LETTER

MAX_BODY = 64 * 1024                # the largest request body taken (web.guard refuses more: 413)
NAME = Field(None, max_length=64, description="Who is entering it (a player's name), told to the other phones.")
HAND = Field(..., ge=1, le=10 ** 6, strict=True, description="The number of the hand it is for: refused (409) "
                                                               "when that hand is no longer the next one.")


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


# -- the answers ------------------------------------------------------------------------------

def _closed(shape: Any) -> None:
    """Each answer's shape (`mjscore.model.answers`), read by pydantic closed, its docstrings the
    descriptions: the published schema says `additionalProperties: false` everywhere, so an
    answer that carries a field its declaration lacks fails the suite's check of every answer."""
    shape.__pydantic_config__ = ConfigDict(extra="forbid", use_attribute_docstrings=True)


for _shape in vars(answers).values():
    if is_typeddict(_shape):
        _closed(_shape)


def error_body(message: str, line: int = 0, column: int = 0, token: str | None = None, *, file: str | None = None,
               seat: str | None | Literal[False] = False) -> ErrorBody:
    """An `ErrorBody`, as the answers carry it (`file` and `seat` only where given)."""
    detail: ErrorDetail = {"message": message, "line": line, "column": column, "token": token}
    if file is not None:
        detail["file"] = file
    if seat is not False:
        detail["seat"] = None if seat is None else WIND_BY_LETTER[seat].letter
    return {"error": detail}


def described(e: MjError, folder: str, *, seat: str | None | Literal[False] = False) -> ErrorBody:
    """A library error as an `ErrorBody`: the message and its place, the evening's `folder` left
    out (a phone is told what is wrong, never where the file lives)."""
    where = e.location
    message = e.message.replace(folder + os.sep, "")
    file = os.path.basename(where.file) if where.file and not where.file.startswith("<") else where.file
    return error_body(message, where.line, where.column, e.token, file=file, seat=seat)
