"""The table page's guard (`Guard`): who gets into the server and what they may send, checked
before anything else, whatever route the request is for (and for an address that is no route).

- The table is opened by its address, never by a name (400: DNS rebinding).
- Every request needs the token: `?token=` (it wins over any cookie, and becomes an HTTP-only
  cookie of this port's own name), `Authorization: Bearer TOKEN`, or that cookie (401).
- A body over 64 KiB is refused unread (413), and one sent in chunks is cut off there.
- A request that changes anything must be JSON (415) and, where the browser says where it
  comes from, come from this page (403).
- Every answer, the refusals too, is never cached nor sniffed.
"""

from __future__ import annotations

import ipaddress
import json
import secrets

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mjscore.model.say import _
from mjscore.web.schemas import MAX_BODY, error_body

COOKIE = "mjscore_token"
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

    def __init__(self, app: ASGIApp, token: str):
        self.app = app
        self.token = token.encode()

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
            name, _sep, value = part.partition(b"=")
            if name == b"token":
                return value, True
        scheme, _sep, value = headers.get(b"authorization", b"").partition(b" ")
        if scheme.lower() == b"bearer":
            return value.strip(), False
        name = cookie_name(scope).encode()
        for part in headers.get(b"cookie", b"").split(b";"):
            key, _sep, value = part.strip().partition(b"=")
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
        return 415, _("a request that changes anything sends JSON (Content-Type: application/json)")
    if any(site.lower() != b"same-origin" for site in every.get(b"sec-fetch-site", [])):
        return 403, _("a change comes only from the table's own page")
    host = every.get(b"host", [b""])[0].lower()
    if any(origin.lower() != b"http://" + host for origin in every.get(b"origin", [])):
        return 403, _("a change comes only from the table's own page")
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
                raise HTTPException(413, _("the request is larger than 64 KiB"))
        return message
    return read


def _with_headers(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    """`send`, adding `extra` to the response's headers (those it does not already carry)."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            have = {k.lower() for k, _v in message.get("headers", [])}
            added = [(k, v) for k, v in extra if k == b"set-cookie" or k not in have]
            message = {**message, "headers": [*message.get("headers", []), *added]}
        await send(message)
    return sending
