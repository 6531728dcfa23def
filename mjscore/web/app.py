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
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
from importlib import resources
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import mjscore.api as api
from mjscore.model.errors import MjError
from mjscore.model.settings import SETTINGS
from mjscore.model.tiles import WIND_BY_LETTER
from mjscore.version import __version__

MAX_BODY = 64 * 1024
COOKIE = "mjscore_token"
# A request's text never names a file: the same words whatever the path is (a file, a folder, nothing).
NO_FILES = "a request names only a shipped scheme (see 'mjscore schemes'): no file is read for it"
# The errors that mean "another phone got there first": the phone asks again what the hand is.
CONFLICTS = (api.HandTakenError, api.NotTheLastHandError, api.HandMovedError)
SETTING_NAMES = frozenset(s.name for s in SETTINGS)       # what `POST /api/score` takes as settings
NAME = Field(None, max_length=64, description="Who is entering it (a player's name), told to the other phones.")
HAND = Field(..., ge=1, le=10 ** 6, strict=True, description="The number of the hand it is for: refused (409) "
                                                               "when that hand is no longer the next one.")


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
    by: str | None = NAME


class LineIn(BaseModel):
    """One player's line of the next hand, without its seat."""

    text: str = Field(max_length=4096, description="The line: tiles and groups, 'score N', '...', a win clause.")
    hand: int = HAND
    by: str | None = NAME


class PenaltyIn(BaseModel):
    """A penalty: who pays, how much, to whom (none: to each other player)."""

    model_config = {"populate_by_name": True}

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


def error_body(message: str, line: int = 0, column: int = 0, token: str | None = None, **more: Any) -> dict[str, Any]:
    return {"error": {"message": message, "line": line, "column": column, "token": token, **more}}


def shipped_only(text: str) -> None:
    """Refuse a request's text whose header names a scheme that is not a shipped one: a request
    never makes the server read a file (nor learn whether one exists)."""
    try:
        tables = api.parse(text, name="<request>")
    except MjError:
        return                          # what is wrong with it is said by the call it was for
    if any(t.scheme is not None and t.scheme not in api.shipped_schemes() for t in tables):
        raise HTTPException(422, NO_FILES)


def create_app(evening_path: str, token: str) -> FastAPI:
    """The application for one evening's file and one token."""
    table = api.NextHand(api.Evening(evening_path))
    folder = os.path.dirname(os.path.abspath(evening_path))
    here = resources.files("mjscore.web")
    files = {name: here.joinpath(name).read_bytes() for name in ("page.html", "page.js", "page.css")}

    def described(e: MjError, **more: Any) -> dict[str, Any]:
        # The message and its place, the evening's folder left out: a phone is told what is wrong,
        # never where the file lives.
        where = e.location
        message = e.message.replace(folder + os.sep, "")
        file = os.path.basename(where.file) if where.file and not where.file.startswith("<") else where.file
        return error_body(message, where.line, where.column, e.token, file=file, **more)

    # No redirect to a path with or without its slash: it would send the address, token and all,
    # to whatever host the request named.
    app = FastAPI(title="mjscore table", version=__version__, docs_url=None, redoc_url=None, redirect_slashes=False,
                  description="The table page's JSON: the same objects the command line prints.")

    @app.exception_handler(MjError)
    async def _mj(request: Request, e: MjError) -> JSONResponse:
        return JSONResponse(described(e), status_code=409 if isinstance(e, CONFLICTS) else 422)

    @app.exception_handler(api.NotSettled)
    async def _not_settled(request: Request, e: api.NotSettled) -> JSONResponse:
        return JSONResponse(described(e.error, seat=e.seat), status_code=422)

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
            # The token has set the cookie (see `Guard`): the address bar, the history and a shared
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

    @app.get("/api/status", summary="What changed: the next hand as held (its drafts and penalties), the notices")
    def status() -> dict[str, Any]:
        st = table.status()
        st["title"] = f"mjscore {__version__}"
        if st["error"] is not None:
            st["error"] = described(st["error"])["error"]
        return st

    @app.get("/api/evening", summary="The evening: what `mjscore session EVENING --format json` prints")
    def evening() -> dict[str, Any]:
        return table.evening.play(keep_going=True).to_dict()

    @app.get("/api/standings", summary="The evening's totals, standings and settle-up, without its hands")
    def standings() -> dict[str, Any]:
        played = table.evening.play()
        return {"players": list(played.players), "start": played.start, "hands": len(played.hands),
                **played.summary()}

    @app.get("/api/stats", summary="Each player's figures this evening: what `mjscore session EVENING --stats "
                                   "--format json` prints in the evening's folder")
    def stats() -> dict[str, Any]:
        return table.evening.stats().to_dict()

    def played_hands(number: int) -> Any:
        """The evening's hands as played, hand `number` among them; 404 when there is none."""
        hands = table.evening.play().hands
        if not 1 <= number <= len(hands):
            raise HTTPException(404, f"the evening has {len(hands)} hands played")
        return hands

    @app.get("/api/hands/{number}", summary="One hand of the evening, as `session --hand N --format json`")
    def one_hand(number: int) -> dict[str, Any]:
        hand = played_hands(number)[number - 1].to_dict()
        # What the page says of it, in the library's words (as the command line says them).
        return {**hand, "title": api.hand_title(hand["hand"], hand["dealer"], hand["round"]), "said": api.said(hand)}

    @app.get("/api/hands/{number}/text", summary="Hand N as the evening's file holds it (what a correction starts from)")
    def hand_text(number: int) -> dict[str, Any]:
        played_hands(number)
        seats, round_letter, text = table.evening.hand_seating(number)
        return {"hand": number, "seats": dict(zip("ESWN", seats)), "round": round_letter, "text": text}

    @app.get("/api/rules", summary="The rules in force: the scheme, what a house file changed from its base, "
                                   "the evening's settings")
    def rules() -> dict[str, Any]:
        return table.evening.rules()

    @app.post("/api/hands", status_code=201,
              summary="Settle hand N as held (its drafts and penalties), or add a hand's text: what "
                      "`mjscore add EVENING -e TEXT --format json` prints")
    def add(hand: HandIn) -> dict[str, Any]:
        if hand.text is not None:
            shipped_only(hand.text)
            return table.add(hand.text, hand=hand.hand, by=hand.by).to_dict()
        if hand.hand is None:
            raise HTTPException(422, "name the hand to settle ('hand': N), or give its text")
        return table.settle(hand.hand, others_nothing=hand.others_nothing, draw=hand.draw, by=hand.by).to_dict()

    @app.put("/api/hands/{number}", summary="Correct hand N (any hand): what `mjscore edit EVENING N -e TEXT "
                                            "--format json` prints; a later hand it makes impossible: 422 naming it")
    def correct(number: int, body: CorrectionIn) -> dict[str, Any]:
        shipped_only(body.text)
        return table.edit(number, body.text, by=body.by).to_dict()

    @app.delete("/api/hands/last", summary="Take back hand N, if it is the last: what `mjscore undo EVENING "
                                           "--format json` prints; its lines come back as the drafts")
    def undo(hand: int = Query(ge=1, le=10 ** 6), by: str | None = None) -> dict[str, Any]:
        return table.undo(hand, by=by[:64] if by else None).to_dict()

    @app.post("/api/score", summary="Score a table, nothing written: what `mjscore score - --format json` prints")
    def score(body: ScoreIn) -> dict[str, Any]:
        if body.scheme is not None and body.scheme not in api.shipped_schemes():
            raise HTTPException(422, NO_FILES)
        shipped_only(body.text)
        unknown = sorted(set(body.settings) - SETTING_NAMES)
        if unknown:
            raise HTTPException(422, f"'{unknown[0][:32]}' is no setting ({', '.join(sorted(SETTING_NAMES))})")
        return api.score(body.text, scheme=body.scheme, **body.settings).to_dict()

    @app.put("/api/drafts/{seat}", summary="Check one player's line of hand N, and hold it as that seat's draft")
    def draft(seat: str, line: LineIn) -> dict[str, Any]:
        if seat not in WIND_BY_LETTER:
            raise HTTPException(404, "a seat is E, S, W or N")
        return table.put_line(seat, line.text, hand=line.hand, by=line.by)

    @app.delete("/api/drafts", summary="Drop the lines held for hand N (its penalties stay)")
    def drop_drafts(hand: int = Query(ge=1, le=10 ** 6)) -> dict[str, Any]:
        table.drop_lines(hand=hand)
        return {"drafts": {}}

    @app.delete("/api/drafts/{seat}", summary="Withdraw one seat's line of hand N (the player cleared it)")
    def drop_draft(seat: str, hand: int = Query(ge=1, le=10 ** 6)) -> dict[str, Any]:
        if seat not in WIND_BY_LETTER:
            raise HTTPException(404, "a seat is E, S, W or N")
        table.drop_lines(hand=hand, seat=seat)
        return {"seat": seat, "draft": None}

    @app.put("/api/penalties", summary="The penalties of hand N, replacing those held")
    def put_penalties(body: PenaltiesIn) -> dict[str, Any]:
        given = [{"from": p.payer, "amount": p.amount, "to": p.payee, "by": p.by} for p in body.penalties]
        return {"penalties": table.put_penalties(body.hand, given, by=body.by)}

    @app.post("/api/penalties", summary="One more penalty of hand N")
    def add_penalty(body: OnePenaltyIn) -> dict[str, Any]:
        one = {"from": body.payer, "amount": body.amount, "to": body.payee}
        return {"penalties": table.put_penalties(body.hand, [one], by=body.by, append=True)}

    return Guard(app, token)            # type: ignore[return-value]  # the app behind its guard, as uvicorn serves it


# The page loads nothing from anywhere but this server, and runs only its own script.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Cache-Control": "no-store", "Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff"}
# Every answer, JSON and refusals too: never cached, never sniffed into something else.
ALWAYS = [(b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Guard:
    """Before anything else: the token, the size of the body, and where a change comes from.

    A request without the token gets 401 and nothing else; a body over 64 KiB gets 413, read no
    further.  A request that changes anything must say its body is JSON (415), and where the
    browser says where it comes from (`Origin`, `Sec-Fetch-Site`) it must come from this page
    (403): whatever FastAPI version checks what, no other site's page makes a phone change the
    evening."""

    def __init__(self, app: FastAPI, token: str):
        self.app = app
        self.token = token.encode()
        self.openapi = app.openapi           # for the API's description (tests, bench_serve.py)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send, ALWAYS)
        every: dict[bytes, list[bytes]] = {}
        for name, value in scope.get("headers", []):
            every.setdefault(name.lower(), []).append(value)
        if not _own_address(every.get(b"host", [])):
            # A name (a page's own domain made to point here: DNS rebinding) or two hosts: the
            # phones open the table by its address.
            await _plain(send, 400, b'{"error": {"message": "the table is opened by its address (127.0.0.1, or '
                                    b'the address mjscore serve printed), not by a name"}}')
            return
        headers = {name: values[-1] for name, values in every.items()}
        given, from_address = self._token(scope, headers)
        if len(every.get(b"authorization", [])) > 1:
            given = None                        # two tokens: neither is believed
        if given is None or not secrets.compare_digest(given, self.token):
            await _plain(send, 401, b'{"error": {"message": "unauthorized"}}',
                         [(b"www-authenticate", b'Bearer realm="mjscore"')])
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _plain(send, 413, b'{"error": {"message": "the request is larger than 64 KiB"}}')
            return
        if scope["method"] not in SAFE_METHODS:
            refused = _refused_change(every)
            if refused is not None:
                status, message = refused
                await _plain(send, status, json.dumps(error_body(message)).encode())
                return
        if from_address:
            send = _with_headers(send, [(b"set-cookie", _cookie(scope, self.token))])
        await self.app(scope, _limited(receive), send)

    @staticmethod
    def _token(scope: Scope, headers: dict[bytes, bytes]) -> tuple[bytes | None, bool]:
        """The token the request carries, and whether it came in the address.  The address's
        wins over everything (a phone holding last week's cookie is let in by the new QR code),
        then the header, then this port's cookie."""
        for part in scope.get("query_string", b"").split(b"&"):
            name, _, value = part.partition(b"=")
            if name == b"token":
                return value, True
        scheme, _, value = headers.get(b"authorization", b"").partition(b" ")
        if scheme.lower() == b"bearer":
            return value.strip(), False
        name = cookie_name(scope).encode()
        for part in headers.get(b"cookie", b"").split(b";"):
            key, _, value = part.strip().partition(b"=")
            if key == name:
                return value, False
        return None, False


def cookie_name(scope: Scope) -> str:
    """The token's cookie is named for the port: two evenings served on one laptop (two ports:
    cookies do not tell ports apart) each keep their own."""
    server = scope.get("server") or ("", None)
    return f"{COOKIE}_{server[1]}" if server[1] else COOKIE


def _cookie(scope: Scope, token: bytes) -> bytes:
    # Lax, not Strict: the address opened from a link in a chat or on the club's page (another
    # site) must carry it; a change still needs this page's own script (see `_refused_change`).
    return f"{cookie_name(scope)}={token.decode()}; Path=/; HttpOnly; SameSite=Lax".encode()


def _refused_change(every: dict[bytes, list[bytes]]) -> tuple[int, str] | None:
    """Why a request that changes something is refused, or None: not JSON (415), or sent by
    another site's page (403).  Every copy of a header counts: a second `Origin` does not hide
    the first."""
    kinds = every.get(b"content-type", [])
    if len(kinds) != 1 or kinds[0].split(b";", 1)[0].strip().lower() != b"application/json":
        return 415, "a request that changes anything sends JSON (Content-Type: application/json)"
    if any(site.lower() != b"same-origin" for site in every.get(b"sec-fetch-site", [])):
        return 403, "a change comes only from the table's own page"
    host = every.get(b"host", [b""])[0].lower()
    if any(origin.lower() != b"http://" + host for origin in every.get(b"origin", [])):
        return 403, "a change comes only from the table's own page"
    return None


def _own_address(hosts: list[bytes]) -> bool:
    """Whether the request names this machine by an address (`127.0.0.1:8421`, `[::1]:8421`,
    `192.168.1.20:8421`) or as `localhost`: one Host, and no other name."""
    if len(hosts) != 1:
        return False
    host = hosts[0].decode("latin-1").strip()
    if host.startswith("["):
        name = host[1:].split("]", 1)[0]
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    if name.lower() == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


async def _plain(send: Send, status: int, body: bytes, extra: list[tuple[bytes, bytes]] | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *(extra or [])]})
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


def _with_headers(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    """`send`, adding `extra` to the response's headers (those it does not already carry)."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            have = {k.lower() for k, _ in message.get("headers", [])}
            added = [(k, v) for k, v in extra if k == b"set-cookie" or k not in have]
            message = {**message, "headers": [*message.get("headers", []), *added]}
        await send(message)
    return sending


def openapi_json(app: ASGIApp) -> str:
    """The API's description (what `/openapi.json` serves)."""
    return json.dumps(getattr(app, "openapi")())
