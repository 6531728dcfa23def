"""The table page's server: the evening named on the command line, over HTTP, for the phones at
the table.  A shell over `mjscore.api` as the command line is: every request is parsed, handed to
the library, and answered with the objects the command line prints as JSON.

- `GET /` is the page (one file of HTML, script and style, shipped in the package: no request
  goes to any other host); `GET /api/evening` is `mjscore session --format json`;
  `POST /api/hands` is `mjscore add --format json`, `DELETE /api/hands/last` is `mjscore undo
  --format json`, `POST /api/score` is `mjscore score --format json` with nothing written.
- The lines being entered for the next hand are drafts, one for each seat, kept in memory and
  checked as they change (`PUT /api/drafts/{seat}`); `GET /api/status` says, cheaply, whether
  anything changed, so each phone asks it every second and shows a new hand within two.
- Every request needs the token: `?token=` once (it becomes a strict, HTTP-only cookie) or
  `Authorization: Bearer TOKEN`.  Without it: 401 and nothing else.  A body over 64 KiB: 413.
  No request names a file; errors carry the message, never a path or a traceback.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import mjscore.api as api
from mjscore.model.errors import MjError
from mjscore.model.tiles import WIND_BY_LETTER
from mjscore.version import __version__

MAX_BODY = 64 * 1024
COOKIE = "mjscore_token"


class HandIn(BaseModel):
    """A hand in the notation, as `mjscore add -e TEXT` takes it."""

    text: str = Field(max_length=MAX_BODY, description="One hand in the compact notation; ';' breaks lines.")
    hand: int | None = Field(None, ge=1, description="The hand's number in the evening: refused (409) when "
                                                     "another phone has added that hand already.")


class LineIn(BaseModel):
    """One player's line of the next hand, without its seat."""

    text: str = Field(max_length=4096, description="The line: tiles and groups, 'score N', '...', a win clause.")
    by: str | None = Field(None, max_length=64, description="Who is entering it (a player's name).")


class ScoreIn(BaseModel):
    """A table to score, with the settings of `mjscore score` by name."""

    text: str = Field(max_length=MAX_BODY, description="One table in the compact notation or YAML.")
    settings: dict[str, Any] = Field(default_factory=dict, description="Settings by their API names "
                                                                     "(paying, payoff, east_double, kitty, ...).")
    scheme: str | None = Field(None, max_length=4096, description="A shipped scheme's name (never a file).")


class Table:
    """The evening and the drafts of its next hand, shared by every request."""

    def __init__(self, evening: api.Evening):
        self.evening = evening
        self.lock = threading.Lock()
        self.drafts: dict[str, dict[str, Any]] = {}       # seat -> the line's check, who entered it
        self.drafts_for = ""                               # the file's version the drafts were made for
        self.changes = 0                                   # counts every change of the drafts

    def status(self) -> dict[str, Any]:
        played = self.evening.play()
        with self.lock:
            self._drafts_still_stand()
            return {"version": f"{self.evening.version()}.{self.changes}", "hands": len(played.hands),
                    "players": list(played.players), "next": played.next.as_dict() if played.next else None,
                    "drafts": dict(self.drafts), "title": f"mjscore {__version__}"}

    def put_draft(self, seat: str, line: LineIn) -> dict[str, Any]:
        checked = self.evening.check_line(seat, line.text).to_dict()
        checked.update(text=line.text, by=line.by)
        with self.lock:
            self._drafts_still_stand()
            self.drafts[seat] = checked
            self.changes += 1
        return checked

    def clear_drafts(self) -> None:
        with self.lock:
            self.drafts = {}
            self.drafts_for = self.evening.version()
            self.changes += 1

    def _drafts_still_stand(self) -> None:
        """Drafts belong to one next hand: once the file changes (a hand added or taken back,
        here or at a terminal), they are dropped."""
        version = self.evening.version()
        if version != self.drafts_for:
            if self.drafts:
                self.changes += 1
            self.drafts = {}
            self.drafts_for = version


def error_body(message: str, line: int = 0, column: int = 0, token: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "line": line, "column": column, "token": token}}


def create_app(evening_path: str, token: str) -> FastAPI:
    """The application for one evening's file and one token."""
    table = Table(api.Evening(evening_path))
    folder = os.path.dirname(os.path.abspath(evening_path))
    here = resources.files("mjscore.web")
    files = {name: here.joinpath(name).read_bytes() for name in ("page.html", "page.js", "page.css")}

    def mj_error(e: MjError, status: int = 422) -> JSONResponse:
        # The message and its place, the evening's folder left out: a phone is told what is wrong,
        # never where the file lives.
        where = e.location
        message = e.message.replace(folder + os.sep, "")
        return JSONResponse(error_body(message, where.line, where.column, e.token), status_code=status)

    app = FastAPI(title="mjscore table", version=__version__, docs_url=None, redoc_url=None,
                  description="The table page's JSON: the same objects the command line prints.")

    @app.exception_handler(MjError)
    async def _mj(request: Request, e: MjError) -> JSONResponse:
        return mj_error(e, 409 if isinstance(e, api.HandTakenError) else 422)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        return JSONResponse(error_body(f"the request is not as this call takes it: {first.get('msg', 'invalid')} "
                                       f"({'.'.join(str(x) for x in first.get('loc', ()))})"), status_code=422)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, e: HTTPException) -> JSONResponse:
        return JSONResponse(error_body(str(e.detail)), status_code=e.status_code)

    @app.exception_handler(Exception)
    async def _bug(request: Request, e: Exception) -> JSONResponse:
        return JSONResponse(error_body(f"internal error ({type(e).__name__}); please report it with the hand"),
                            status_code=500)

    @app.get("/", include_in_schema=False)
    def index(request: Request) -> Response:
        if "token" in request.query_params:
            # The token has set the cookie (see `guard`): the address bar, the history and a shared
            # screenshot keep the page's address without it.
            return RedirectResponse("/", status_code=303)
        return Response(files["page.html"], media_type="text/html; charset=utf-8", headers=HEADERS)

    @app.get("/favicon.ico", include_in_schema=False)
    def icon() -> Response:
        return Response(status_code=204)            # no icon: a browser asks for one all the same

    @app.get("/page.js", include_in_schema=False)
    def script() -> Response:
        return Response(files["page.js"], media_type="text/javascript; charset=utf-8", headers=HEADERS)

    @app.get("/page.css", include_in_schema=False)
    def style() -> Response:
        return Response(files["page.css"], media_type="text/css; charset=utf-8", headers=HEADERS)

    @app.get("/api/status", summary="What changed: the file's version, the next deal, the drafts")
    def status() -> dict[str, Any]:
        return table.status()

    @app.get("/api/evening", summary="The evening: what `mjscore session EVENING --format json` prints")
    def evening() -> dict[str, Any]:
        return table.evening.play(keep_going=True).to_dict()

    @app.get("/api/hands/{number}", summary="One hand of the evening, as `session --hand N --format json`")
    def one_hand(number: int) -> dict[str, Any]:
        hands = table.evening.play().hands
        if not 1 <= number <= len(hands):
            raise HTTPException(404, f"the evening has {len(hands)} hands played")
        return hands[number - 1].to_dict()

    @app.post("/api/hands", status_code=201,
              summary="Add a hand: what `mjscore add EVENING -e TEXT --format json` prints")
    def add(hand: HandIn) -> dict[str, Any]:
        added = table.evening.add(hand.text, name="<hand>", number=hand.hand)
        table.clear_drafts()
        return added.to_dict()

    @app.delete("/api/hands/last", summary="Take the last hand back: what `mjscore undo EVENING --format json` prints")
    def undo() -> dict[str, Any]:
        removed = table.evening.undo()
        table.clear_drafts()
        return removed.to_dict()

    @app.post("/api/score", summary="Score a table, nothing written: what `mjscore score - --format json` prints")
    def score(body: ScoreIn) -> dict[str, Any]:
        if body.scheme is not None and body.scheme not in api.shipped_schemes():
            raise HTTPException(422, f"no shipped scheme named '{body.scheme[:24]}' (a request never names a file)")
        try:
            result = api.score(body.text, scheme=body.scheme, **body.settings)
        except TypeError as e:          # a setting's name that is none
            raise HTTPException(422, str(e)) from None
        return result.to_dict()

    @app.put("/api/drafts/{seat}", summary="Check one player's line of the next hand, and keep it as a draft")
    def draft(seat: str, line: LineIn) -> dict[str, Any]:
        if seat not in WIND_BY_LETTER:
            raise HTTPException(404, "a seat is E, S, W or N")
        return table.put_draft(seat, line)

    @app.delete("/api/drafts", summary="Drop the drafts of the next hand")
    def drop_drafts() -> dict[str, Any]:
        table.clear_drafts()
        return {"drafts": {}}

    return Guard(app, token)            # type: ignore[return-value]  # the app behind its guard, as uvicorn serves it


# The page loads nothing from anywhere but this server, and runs only its own script.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Cache-Control": "no-store", "Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff"}


class Guard:
    """Before anything else: the token, and the size of the body.  A request without the token
    gets 401 and nothing else; a body over 64 KiB gets 413, read no further."""

    def __init__(self, app: FastAPI, token: str):
        self.app = app
        self.token = token.encode()
        self.openapi = app.openapi           # for the API's description (tests, bench_serve.py)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = self._token(scope)
        if given is None or not secrets.compare_digest(given, self.token):
            await _plain(send, 401, b'{"error": {"message": "unauthorized"}}')
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _plain(send, 413, b'{"error": {"message": "the request is larger than 64 KiB"}}')
            return
        sets_cookie = b"token=" in scope.get("query_string", b"")
        await self.app(scope, _limited(receive), _with_cookie(send, self.token) if sets_cookie else send)

    @staticmethod
    def _token(scope: Scope) -> bytes | None:
        headers = dict(scope.get("headers", []))
        auth = headers.get(b"authorization", b"")
        if auth.startswith(b"Bearer "):
            return auth[7:].strip()
        for part in headers.get(b"cookie", b"").split(b";"):
            name, _, value = part.strip().partition(b"=")
            if name == COOKIE.encode():
                return value
        for part in scope.get("query_string", b"").split(b"&"):
            name, _, value = part.partition(b"=")
            if name == b"token":
                return value
        return None


async def _plain(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _limited(receive: Receive) -> Receive:
    """A body sent in chunks, with no length said first, is cut off at 64 KiB too."""
    seen = 0

    async def read() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise HTTPException(413, "the request is larger than 64 KiB")
        return message
    return read


def _with_cookie(send: Send, token: bytes) -> Send:
    cookie = f"{COOKIE}={token.decode()}; Path=/; HttpOnly; SameSite=Strict".encode()

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
        await send(message)
    return sending


def openapi_json(app: ASGIApp) -> str:
    """The API's description (what `/openapi.json` serves)."""
    return json.dumps(getattr(app, "openapi")())
