"""The table page's server: the evening named on the command line, over HTTP, for the phones at
the table.  A shell over `mjscore.api` as the command line is: every request is parsed, handed to
the library, and answered with the objects the command line prints as JSON.

- `GET /` is the page (one file of HTML, script and style, shipped in the package: no request
  goes to any other host); `GET /api/evening` is `mjscore session --format json`,
  `GET /api/standings` its totals, standings and settle-up without the hands, `GET /api/stats`
  each player's figures (`mjscore session --stats --format json`);
  `POST /api/hands` is `mjscore add --format json`, `DELETE /api/hands/last?hand=N` is
  `mjscore undo --format json`, `POST /api/score` is `mjscore score --format json` with nothing
  written.
- The next hand is held here, under its number (`api.NextHand`): each seat's line
  (`PUT /api/drafts/{seat}`) and the penalties (`PUT`/`POST /api/penalties`), checked as they
  change; settling (`POST /api/hands` with the hand's number and no text) writes them as held,
  so no phone's stale view decides what is written.  `GET /api/status` says, cheaply, whether
  anything changed, so each phone asks it every second and shows a change within two.
- Every request needs the token: `?token=` (it wins over any cookie, and becomes an HTTP-only
  cookie of this port's own name) or `Authorization: Bearer TOKEN`.  Without it: 401 and nothing
  else.  A request that changes anything must be JSON (415) and, where the browser says where
  it comes from, come from this page (403).  A body over 64 KiB: 413.  No request names a file;
  errors carry the message, never a path or a traceback.

The routes are web.routes' (module-level routers, the app's own state had through
dependencies), the guard web.guard's, the request and answer models web.schemas'; here the app
is made: its state, its guard, its error handlers, its routers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Coroutine, Sequence
from importlib import resources
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

import mjscore.api as api
from mjscore.model.errors import MjError
from mjscore.model import say
from mjscore.model.say import _
from mjscore.version import __version__
from mjscore.web.guard import Guard
from mjscore.web.routes import AT_A_TABLE, api_routes, folder_of, night_page, night_routes, page, table_named
from mjscore.web.schemas import described, error_body
from mjscore.web.static import CompressedJSON, PageFile
from mjscore.web.waiting import Remembered, Wake

# The errors that mean "another phone got there first": the phone asks again what the hand is.
CONFLICTS = (api.HandTakenError, api.NotTheLastHandError, api.HandMovedError, api.HandChangedError)
PAGE_FILES = ("page.html", "page.js", "page.css")


class TableApp(FastAPI):
    """The FastAPI app with its guard outside everything else, the handler of faults (500) too:
    every answer, whatever made it, passes the guard's headers.  Inside the guard, a large JSON
    answer is compressed (the guard's own refusals are small)."""

    def build_middleware_stack(self) -> ASGIApp:
        return Guard(Speaking(CompressedJSON(super().build_middleware_stack())), self.state.token)


LANGUAGE_COOKIE = "mjscore_lang"


def request_language(headers: list[tuple[bytes, bytes]]) -> str:
    """The language a request is answered in: the one its phone chose on the page (the
    `mjscore_lang` cookie, which the phone keeps), else the first its browser asks for
    (`Accept-Language`) that mjscore speaks, else the server's own."""
    cookie = accept = ""
    for key, raw in headers:
        if key == b"cookie":
            cookie += ";" + raw.decode("latin-1")
        elif key == b"accept-language":
            accept += "," + raw.decode("latin-1")
    for part in cookie.split(";"):
        name, _eq, value = part.strip().partition("=")
        if name == LANGUAGE_COOKIE and value in say.LANGUAGES:
            return value
    return say.chosen(say.accepted(accept[:2000])) or say.language()


class Speaking:
    """Each request answered in its own phone's language (`request_language`): four phones at one
    table may read four languages.  What a phone sends back (the notation, seat letters, JSON
    keys) is never translated, so nothing it does depends on the language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with say.speaking(request_language(scope.get("headers", []))):
            await self.app(scope, receive, send)


def create_app(evening_path: str | Sequence[tuple[str, str]], token: str) -> FastAPI:
    """The application for one evening's file and one token; or for a night's tables, (name,
    path) each (`api.night_tables`): each table's routes under `/api/tables/{table}`, with
    `/api/tables` and `/api/night` beside them."""
    # No redirect to a path with or without its slash: it would send the address, token and all,
    # to whatever host the request named.
    app = TableApp(title="mjscore table", version=__version__, docs_url=None, redoc_url=None, redirect_slashes=False,
                   description="The table page's JSON: the same objects the command line prints.",
                   exception_handlers=HANDLERS)
    night = not isinstance(evening_path, str)
    served = list(evening_path) if not isinstance(evening_path, str) else [("", evening_path)]
    # One wake for every table: a change at one table wakes the phones waiting at each, which
    # ask their own table's tag again and wait on (eight phones, not eight hundred).
    app.state.wake = Wake()
    app.state.stopping = False
    app.state.waiting = 0           # status requests held open now (web.routes.MOST_WAITING)
    # Each table's own next hand (drafts, penalties, notices, lock), its folder and its answers kept.
    app.state.tables = {name: api.NextHand(api.Evening(path)) for name, path in served}
    app.state.folders = {name: os.path.dirname(os.path.abspath(path)) for name, path in served}
    app.state.kept = {name: Remembered() for name, _path in served}
    for table in app.state.tables.values():
        table.watch(app.state.wake)
    first = served[0][0]
    app.state.table = app.state.tables[first]
    app.state.remembered = Remembered() if night else app.state.kept[first]
    app.state.folder = app.state.folders[first]
    app.state.night = night
    app.state.token = token
    here = resources.files("mjscore.web")
    # page.html is made once for each language (its words written in); the script and style are words-free.
    shared = {name: PageFile.of(here.joinpath(name).read_bytes(), name) for name in PAGE_FILES if name != "page.html"}
    html = here.joinpath("page.html").read_bytes()
    app.state.pages = {}
    for language in say.LANGUAGES:
        with say.speaking(language):
            # A night's page is marked so: its script asks which table before anything else.
            words = _with_words(html, night)
            if night:
                words = words.replace(b"<body>", b'<body data-night="1">').replace(
                    b'<script src="/page.js" defer></script>',
                    b'<script src="/night.js" defer></script>\n<script src="/page.js" defer></script>')
            app.state.pages[language] = {**shared, "page.html": PageFile.of(words, "page.html")}
    app.include_router(page)
    if night:
        app.state.pages_night = PageFile.of(here.joinpath("night.js").read_bytes(), "night.js")
        app.include_router(night_page)
        app.include_router(api_routes, prefix="/api/tables/{table}", dependencies=[Depends(table_named)],
                           responses=AT_A_TABLE)
        app.include_router(night_routes)
    else:
        app.include_router(api_routes, prefix="/api")
    return app


def _with_words(data: bytes, night: bool = False) -> bytes:
    """A page file with the page's words written in where it asks for them (page.html's
    `{{WORDS}}`): JSON in a script element of its own, every `<` escaped so that no word can end it;
    and the name of the cookie that keeps a phone's language (`{{LANGUAGE_COOKIE}}`), declared here."""
    if b"{{WORDS}}" not in data:
        return data
    said = {**api.page_words(), **(api.night_page_words() if night else {})}
    words = json.dumps(said, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    # The page's own language, for the browser (hyphenation, a screen reader's voice).
    lang = f'<html lang="{say.language()}">'.encode()
    return data.replace(b"{{WORDS}}", words.encode()).replace(b'<html lang="en">', lang).replace(
        b"{{LANGUAGE_COOKIE}}", LANGUAGE_COOKIE.encode())


# -- every error as the app's error body (web.schemas.ErrorBody) -------------------------------

def _folder(request: Request) -> str:
    return folder_of(request)


async def _mj(request: Request, e: MjError) -> Response:
    # A line sent for a seat its player has left: the seat they sit in now, for the phone to send it there.
    if isinstance(e, api.NotYourSeatError):
        return JSONResponse(described(e, _folder(request), seat=e.seat), status_code=409)
    return JSONResponse(described(e, _folder(request)), status_code=409 if isinstance(e, CONFLICTS) else 422)


async def _not_settled(request: Request, e: api.NotSettled) -> Response:
    return JSONResponse(described(e.error, _folder(request), seat=e.seat), status_code=422)


async def _invalid(request: Request, e: RequestValidationError) -> Response:
    # FastAPI's own 422 body ({"detail": [...]}) is never sent: the app's error body, as every error.
    first = e.errors()[0] if e.errors() else {}
    return JSONResponse(error_body(_("the request is not as this call takes it: {why} ({where})").format(
        why=first.get("msg", "invalid"), where=".".join(str(x) for x in first.get("loc", ())))), status_code=422)


async def _http(request: Request, e: HTTPException) -> Response:
    return JSONResponse(error_body(str(e.detail)), status_code=e.status_code)


async def _bug(request: Request, e: Exception) -> Response:
    # Starlette's fault handler sends it, then raises the error again for the server to log.
    return JSONResponse(error_body(_("internal error ({kind}); please report it with the hand").format(
        kind=type(e).__name__)),
                        status_code=500)


HANDLERS: dict[int | type[Exception], Callable[[Request, Any], Coroutine[Any, Any, Response]]] = {
    MjError: _mj, api.NotSettled: _not_settled, RequestValidationError: _invalid, HTTPException: _http,
    Exception: _bug}
