"""The table page's routes: the page itself (`page`) and its JSON API (`api_routes`), each a
FastAPI `APIRouter` at module level.  What belongs to one app (the evening's next hand, the
evening's folder, the page's files) is had through dependencies that read `app.state`, which
`web.app.create_app` sets.

Every JSON route sends the library's plain object as it is; `/openapi.json` describes it
(`responses=`, from web.schemas) with every error status the route can give, each with the
app's error body.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import TypeAdapter
from starlette.exceptions import HTTPException

import mjscore.api as api
from mjscore.model import say
from mjscore.model import answers as shapes
from mjscore.model.errors import MjError, excerpt
from mjscore.model.say import N_, _, n_
from mjscore.model.settings import SETTINGS
from mjscore.model.tiles import WIND_BY_LETTER
from mjscore.version import __version__
from mjscore.web import schemas as s
from mjscore.web import static
from mjscore.web.waiting import Remembered

# A request's text never names a file: the same words whatever the path is (a file, a folder, nothing).
NO_FILES = N_("a request names only a shipped scheme (see 'mjscore schemes'): no file is read for it")
SETTING_NAMES = frozenset(x.name for x in SETTINGS)       # what `POST /api/score` takes as settings
NUMBER = Query(ge=1, le=10 ** 6, description="The number of the hand it is for (409 when that hand is no longer "
                                             "the one this call is for).")


class PlainJSON(JSONResponse):
    """An answer's JSON as the routes have always sent it: pydantic's compact writer, as FastAPI
    wrote a route's `dict[str, Any]` before the answers were described (the description of an
    answer changes none of its bytes).  Every route returns one, made in the thread pool where
    the route runs: FastAPI's own encoding of a returned dict (`jsonable_encoder`) runs on the
    event loop, where a 2,000-hand evening's took 61 % of its time and stalled every phone."""

    plain = TypeAdapter(dict[str, Any])

    def render(self, content: Any) -> bytes:
        # scoring's item names in the phone's language (results are kept in English)
        return self.plain.dump_json(api.items_said(content))


# -- what belongs to one app -------------------------------------------------------------------

def _night_table(request: Request) -> str | None:
    """The table a request's path names (`/api/tables/{table}/...`); None on a single evening's paths."""
    name = request.path_params.get("table")
    if name is None:
        return None
    if name not in request.app.state.tables:
        raise HTTPException(404, _("no table '{table}' tonight (the tables: {tables})").format(
            table=excerpt(name), tables=", ".join(request.app.state.tables)))
    return str(name)


async def next_hand(request: Request) -> api.NextHand[api.Evening]:
    """The evening's next hand as this app holds it (and through it, the evening): the table's
    that the path names, on a night of several tables."""
    name = _night_table(request)
    table: api.NextHand[api.Evening] = request.app.state.table if name is None else request.app.state.tables[name]
    return table


async def evening_folder(request: Request) -> str:
    """The evening's folder, left out of every message."""
    return folder_of(request)


def folder_of(request: Request) -> str:
    """The folder of the evening a request is for (of the first table when it names none that is served)."""
    name = request.path_params.get("table")
    folder: str = request.app.state.folders.get(name, request.app.state.folder)
    return folder


def remembered_of(request: Request) -> Remembered:
    """The answers kept for the evening a request is for (each table keeps its own)."""
    name = request.path_params.get("table")
    kept: Remembered = request.app.state.remembered if name is None else request.app.state.kept[name]
    return kept


async def table_named(table: Annotated[str, Path(description="The table, as `GET /api/tables` names it (its "
                                                              "file's stem: `table-1`).")]) -> str:
    """The path's table, declared for the schema (`next_hand` finds it, or answers 404)."""
    return table


async def page_files(request: Request) -> Mapping[str, static.PageFile]:
    """The page's files (page.html, page.js, page.css) in the request's language, read and
    compressed once for each language when the app is made."""
    files: Mapping[str, static.PageFile] = request.app.state.pages[say.language()]
    return files


Table = Annotated[api.NextHand[api.Evening], Depends(next_hand)]
Folder = Annotated[str, Depends(evening_folder)]
Files = Annotated[Mapping[str, static.PageFile], Depends(page_files)]


# -- what each route answers -------------------------------------------------------------------

ERRORS: dict[int, str] = {
    400: "The table was opened by a name, not by its address (the Host header): nothing else is read.",
    401: "No token, or a wrong one (`?token=`, `Authorization: Bearer TOKEN`, or the port's cookie).",
    403: "A change sent by another site's page (its Origin or Sec-Fetch-Site).",
    404: "No such hand, no such seat, or no such table.",
    409: "Another phone got there first: the hand named is no longer the one this call is for (ask the status "
         "again).",
    413: "The request is larger than 64 KiB.",
    415: "A change not sent as JSON (Content-Type: application/json).",
    422: "The request, the hand it sends, or the evening's file is wrong: the message says what, and where.",
    500: "A fault in mjscore: the message names its kind, never a traceback.",
}
GUARDED = (400, 401, 413, 500)          # any request, whatever its route (web.guard, the app's fault handler)
CHANGES = (403, 415)                    # any request that changes something


def answers(model: type, *errors: int, status: int = 200, change: bool = False) -> dict[int | str, Any]:
    """A route's `responses=`: its answer's model under `status`, and every error status it can
    give (those of the guard for every route, of a change when `change`, and `errors`), each
    with the app's error body."""
    said = " ".join(inspect.cleandoc(model.__doc__ or "").split("\n\n")[0].split())
    out: dict[int | str, Any] = {status: {"model": model, "description": said}}
    for code in sorted({*GUARDED, *(CHANGES if change else ()), *errors}):
        out[code] = {"model": shapes.ErrorBody, "description": ERRORS[code]}
    return out


# A table's routes on a night: each may also answer 404, for a table not served.
AT_A_TABLE: dict[int | str, Any] = {404: {"model": shapes.ErrorBody, "description": ERRORS[404]}}

page = APIRouter(include_in_schema=False)
# An evening's routes: under `/api` for one evening served alone, under `/api/tables/{table}` for each
# table of a night (web.app.create_app includes them so).
api_routes = APIRouter(default_response_class=PlainJSON)
night_routes = APIRouter(prefix="/api", default_response_class=PlainJSON)


# -- the page ----------------------------------------------------------------------------------

@page.get("/")
def index(request: Request, files: Files) -> Response:
    if "token" in request.query_params:
        # The token has set the cookie (see `web.guard.Guard`): the address bar, the pages a player
        # is shown and a shared screenshot keep the page's address without it (the browser's
        # History keeps the first address, token and all: no answer of a page takes it out).
        return RedirectResponse("/", status_code=303)
    return static.answer(request, files["page.html"], "text/html; charset=utf-8")


@page.get("/favicon.ico")
def icon() -> Response:
    return Response(status_code=204)            # no icon: a browser asks for one all the same


@page.get("/page.js")
def script(request: Request, files: Files) -> Response:
    return static.answer(request, files["page.js"], "text/javascript; charset=utf-8")


night_page = APIRouter(include_in_schema=False)


@night_page.get("/night.js")
def night_script(request: Request) -> Response:
    """A night's own script (a table picked first, the Night view): only a night's page loads it."""
    return static.answer(request, request.app.state.pages_night, "text/javascript; charset=utf-8")


@page.get("/page.css")
def style(request: Request, files: Files) -> Response:
    return static.answer(request, files["page.css"], "text/css; charset=utf-8")


# -- the evening -------------------------------------------------------------------------------

WAIT_MOST = 30.0                # seconds a status request may be held open; the page asks for 25
# Status requests held open at once: a table's phones are four to eight; past this (someone with
# the token holding sockets open), a request is answered at once rather than held.
MOST_WAITING = 64


@api_routes.get("/status", response_model=None,
                responses={**answers(shapes.StatusPlain, 422),
                           304: {"description": "Nothing changed within `wait` seconds "
                                                                       "(If-None-Match named the version now): no "
                                                                       "body."}},
                summary="What changed: the next hand as held (its drafts and penalties), the notices; with "
                        "If-None-Match and `wait`, held open until something changes (a long poll)")
async def status(request: Request, table: Table, folder: Folder,
                 wait: Annotated[float, Query(ge=0, le=WAIT_MOST, description=(
                     "Seconds to wait for a change when If-None-Match names the version the phone has: "
                     "304 when nothing changed in that time."))] = 0) -> Response:
    known = request.headers.getlist("if-none-match")
    if known:
        state = request.app.state
        until = time.monotonic() + (wait if state.waiting < MOST_WAITING else 0)
        state.waiting += 1
        try:
            # The tag is the file's version (a stat) and a counter: cheap enough to ask on the loop.
            while static.none_match(known, tag := f'"{table.tag()}"'):
                left = until - time.monotonic()
                if left <= 0 or state.stopping:
                    return Response(status_code=304, headers={"ETag": tag})
                # Woken by a change held here; a change of the file at the laptop is seen within a second.
                await state.wake.wait(min(left, 1.0))
        finally:
            state.waiting -= 1
    return await run_in_threadpool(_status, table, folder)


def _status(table: api.NextHand[api.Evening], folder: str) -> Response:
    st = table.status()
    st["title"] = f"mjscore {__version__}"
    if st["error"] is not None:
        st["error"] = s.described(st["error"], folder)["error"]
    return PlainJSON(st, headers={"ETag": f'"{st["version"]}"'})


def remembered(request: Request, what: str, make: Callable[[], dict[str, Any]],
               version: Callable[[], str] | None = None) -> Response:
    """An evening-wide answer, made once for each version of the evening's file (in the thread
    pool, as JSON bytes: nothing that grows with the evening is encoded on the event loop)."""
    if version is None:
        name = request.path_params.get("table")
        table: api.NextHand[api.Evening] = request.app.state.table if name is None else request.app.state.tables[name]
        version = table.evening.version
    # Kept for each language: two phones reading two languages ask for the same version.
    made = remembered_of(request).get(f"{what}:{say.language()}", version,
                                      lambda: PlainJSON.plain.dump_json(api.items_said(make())))
    return Response(made, media_type="application/json")


@api_routes.get("/evening", response_model=None, responses=answers(shapes.EveningShownPlain, 422),
                summary="The evening: what `mjscore session EVENING --format json` prints")
def evening(request: Request, table: Table) -> Response:
    def make() -> dict[str, Any]:
        played = table.evening.play(keep_going=True).to_dict()
        return {**played, "said": api.evening_words(played)}
    return remembered(request, "evening", make)


@api_routes.get("/standings", response_model=None, responses=answers(shapes.StandingsShownPlain, 422),
                summary="The evening's totals, standings and settle-up, without its hands")
def standings(request: Request, table: Table) -> Response:
    def make() -> dict[str, Any]:
        played = table.evening.play()
        answer = {"players": list(played.players), "start": played.start, "hands": len(played.hands),
                  **played.summary()}
        return {**answer, "said": api.evening_words(answer)}
    return remembered(request, "standings", make)


@api_routes.get("/stats", response_model=None, responses=answers(shapes.SeasonPlain, 422),
                summary="Each player's figures this evening: what `mjscore session EVENING --stats --format json` "
                        "prints in the evening's folder")
def stats(request: Request, table: Table) -> Response:
    return remembered(request, "stats", lambda: table.evening.stats().to_dict())


def played_hands(table: api.NextHand[api.Evening], number: int) -> Any:
    """The evening's hands as played, hand `number` among them; 404 when there is none."""
    hands = table.evening.play().hands
    if not 1 <= number <= len(hands):
        raise HTTPException(404, n_("the evening has {n} hand played", "the evening has {n} hands played",
                                    len(hands)).format(n=len(hands)))
    return hands


@api_routes.get("/hands/{number}", response_model=None, responses=answers(shapes.HandShownPlain, 404, 422),
                summary="One hand of the evening, as `session --hand N --format json`")
def one_hand(number: int, table: Table) -> Response:
    hand = played_hands(table, number)[number - 1].to_dict()
    # What the page says of it, in the library's words (as the command line says them).
    title = api.hand_title(hand["hand"], hand["dealer"], hand["round"], hand.get("kajongg_hand"))
    return PlainJSON({**hand, "title": title,
                      "outcome": api.outcome(hand), "said": api.said(hand)})


@api_routes.get("/hands/{number}/text", response_model=None, responses=answers(shapes.HandTextPlain, 404, 422),
                summary="Hand N as the evening's file holds it (what a correction starts from)")
def hand_text(number: int, table: Table) -> Response:
    played_hands(table, number)
    seats, round_letter, text = table.evening.hand_seating(number)
    return PlainJSON({"hand": number, "seats": dict(zip("ESWN", seats, strict=True)), "round": round_letter,
                      "text": text, "version": api.hand_version(text)})


@api_routes.get("/rules", response_model=None, responses=answers(shapes.RulesPlain, 422),
                summary="The rules in force: the scheme, what a house file changed from its base, the evening's "
                        "settings")
def rules(table: Table) -> Response:
    return PlainJSON(table.evening.rules())


# -- changing the evening ----------------------------------------------------------------------

def shipped_only(text: str) -> None:
    """Refuse a request's text whose header names a scheme that is not a shipped one: a request
    never makes the server read a file (nor learn whether one exists)."""
    try:
        tables = api.parse(text, name="<request>")
    except MjError:
        return                          # what is wrong with it is said by the call it was for
    if any(t.scheme is not None and t.scheme not in api.shipped_schemes() for t in tables):
        raise HTTPException(422, _(NO_FILES))


@api_routes.post("/hands", status_code=201, response_model=None,
                 responses=answers(shapes.AddedPlain, 409, 422, status=201, change=True),
                 summary="Settle hand N as held (its drafts and penalties), or add a hand's text: what "
                         "`mjscore add EVENING -e TEXT --format json` prints")
def add(hand: s.HandIn, table: Table) -> Response:
    if hand.text is not None:
        shipped_only(hand.text)
        return PlainJSON(table.add(hand.text, hand=hand.hand, by=hand.by).to_dict(), status_code=201)
    if hand.hand is None:
        raise HTTPException(422, _("name the hand to settle ('hand': N), or give its text"))
    settled = table.settle(hand.hand, others_nothing=hand.others_nothing, draw=hand.draw, by=hand.by)
    return PlainJSON(settled.to_dict(), status_code=201)


@api_routes.put("/hands/{number}", response_model=None, responses=answers(shapes.CorrectedPlain, 409, 422, change=True),
                summary="Correct hand N (any hand): what `mjscore edit EVENING N -e TEXT --format json` prints; a "
                        "later hand it makes impossible: 422 naming it")
def correct(number: int, body: s.CorrectionIn, table: Table) -> Response:
    shipped_only(body.text)
    return PlainJSON(table.edit(number, body.text, by=body.by, version=body.version).to_dict())


@api_routes.delete("/hands/last", response_model=None, responses=answers(shapes.RemovedPlain, 409, 422, change=True),
                   summary="Take back hand N, if it is the last: what `mjscore undo EVENING --format json` prints; "
                           "its lines come back as the drafts")
def undo(table: Table, hand: Annotated[int, NUMBER], by: str | None = None) -> Response:
    return PlainJSON(table.undo(hand, by=by[:64] if by else None).to_dict())


@api_routes.post("/score", response_model=None, responses=answers(shapes.TablePlain, 422, change=True),
                 summary="Score a table, nothing written: what `mjscore score - --format json` prints")
def score(body: s.ScoreIn) -> Response:
    if body.scheme is not None and body.scheme not in api.shipped_schemes():
        raise HTTPException(422, _(NO_FILES))
    shipped_only(body.text)
    unknown = sorted(set(body.settings) - SETTING_NAMES)
    if unknown:
        raise HTTPException(422, _("'{word}' is no setting ({settings})").format(
            word=unknown[0][:32], settings=", ".join(sorted(SETTING_NAMES))))
    return PlainJSON(api.score(body.text, scheme=body.scheme, **body.settings).to_dict())


# -- the next hand, held here ------------------------------------------------------------------

def known_seat(seat: str) -> str:
    if seat not in WIND_BY_LETTER:
        raise HTTPException(404, _("a seat is E, S, W or N"))
    return seat


@api_routes.put("/drafts/{seat}", response_model=None, responses=answers(shapes.DraftPlain, 404, 409, 422, change=True),
                summary="Check one player's line of hand N, and hold it as that seat's draft")
def draft(seat: str, line: s.LineIn, table: Table) -> Response:
    return PlainJSON(table.put_line(known_seat(seat), line.text, hand=line.hand, by=line.by))


@api_routes.delete("/drafts", response_model=None, responses=answers(shapes.DraftsDroppedPlain, 409, 422, change=True),
                   summary="Drop the lines held for hand N (its penalties stay)")
def drop_drafts(table: Table, hand: Annotated[int, NUMBER]) -> Response:
    table.drop_lines(hand=hand)
    return PlainJSON({"drafts": {}})


@api_routes.delete("/drafts/{seat}", response_model=None,
                   responses=answers(shapes.DraftDroppedPlain, 404, 409, 422, change=True),
                   summary="Withdraw one seat's line of hand N (the player cleared it)")
def drop_draft(seat: str, table: Table, hand: Annotated[int, NUMBER], by: str | None = None) -> Response:
    table.drop_lines(hand=hand, seat=known_seat(seat), by=by[:64] if by else None)
    return PlainJSON({"seat": seat, "draft": None})


@api_routes.put("/penalties", response_model=None, responses=answers(shapes.PenaltiesPlain, 409, 422, change=True),
                summary="The penalties of hand N, replacing those held")
def put_penalties(body: s.PenaltiesIn, table: Table) -> Response:
    given = [{"from": p.payer, "amount": p.amount, "to": p.payee, "by": p.by} for p in body.penalties]
    return PlainJSON({"penalties": table.put_penalties(body.hand, given, by=body.by)})


@api_routes.post("/penalties", response_model=None, responses=answers(shapes.PenaltiesPlain, 409, 422, change=True),
                 summary="One more penalty of hand N")
def add_penalty(body: s.OnePenaltyIn, table: Table) -> Response:
    one = {"from": body.payer, "amount": body.amount, "to": body.payee}
    return PlainJSON({"penalties": table.put_penalties(body.hand, [one], by=body.by, append=True)})


# -- a night of several tables -----------------------------------------------------------------

def _tables(request: Request) -> dict[str, api.NextHand[api.Evening]]:
    tables: dict[str, api.NextHand[api.Evening]] = request.app.state.tables
    return tables


@night_routes.get("/tables", response_model=None, responses=answers(shapes.TablesPlain),
                  summary="The night's tables, each with its players and hands played (what a phone picks from)")
def night_tables(request: Request) -> Response:
    out = []
    for name, table in _tables(request).items():
        try:
            played = table.evening.play()
            out.append({"table": name, "players": list(played.players), "hands": len(played.hands)})
        except MjError as e:
            out.append({"table": name, "players": [], "hands": 0,
                        "error": s.described(e, request.app.state.folders[name])["error"]})
    return PlainJSON({"tables": out})


@night_routes.get("/night", response_model=None, responses=answers(shapes.NightPlain, 422),
                  summary="The night: each table's totals, standings and settle-up, each player's won or lost over "
                          "the night, and the night's settle-up across tables (the Night view)")
def night(request: Request) -> Response:
    tables = _tables(request)

    def version() -> str:
        return "/".join(t.evening.version() for t in tables.values())
    def make() -> dict[str, Any]:
        plain = api.play_night({n: t.evening for n, t in tables.items()}).to_dict()
        return {**plain, "said": api.night_words(plain)}
    return remembered(request, "night", make, version)
