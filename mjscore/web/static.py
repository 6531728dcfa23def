"""The table page's own files as they are sent, and the API's JSON answers compressed: a phone on
the table's Wi-Fi loads the page in a fraction of its bytes, and asks again only whether it changed.

- `PageFile`: one of the page's files (page.html, page.js, page.css), prepared once when the app
  is made: its bytes, their gzip, and each one's strong ETag.
- `answer`: a request for one of them: 304 with no body when `If-None-Match` names what it would
  be sent, otherwise 200, gzip when the request accepts it.  `Cache-Control: no-cache`: the
  browser keeps the file but asks each time (a 304 costs a few hundred bytes), so a page and a
  script of two versions of mjscore are never put together from a stale copy after an upgrade.
- `CompressedJSON`: the ASGI middleware that sends a finished JSON answer of 1 KiB or more as
  gzip to a client that accepts it; every other answer passes as it was sent.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The page loads nothing from anywhere but this server, and runs only its own script.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
PAGE_HEADERS = {"Cache-Control": "no-cache", "Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff"}
# A JSON answer smaller than this goes as it is: its gzip would save less than a packet.
MIN_COMPRESSED = 1024
# zlib's own default for the JSON, made per request: on a 200-hand evening (400 KB of JSON)
# level 9 is 0.6% smaller and 15% slower; the page's files are packed once, at 9.
JSON_LEVEL = 6
_QVALUE = re.compile(r"0(\.\d{0,3})?|1(\.0{0,3})?")
_ENTITY_TAG = re.compile(r'(?:W/)?("[^"]*")')


def entity_tag(data: bytes) -> str:
    """A strong ETag of `data`: 128 bits of its SHA-256, the same in every process."""
    return f'"{hashlib.sha256(data).hexdigest()[:32]}"'


@dataclass(frozen=True)
class PageFile:
    """One of the page's files: its bytes and their gzip, each with its own tag (two
    representations of one address: a strong tag names the bytes of one of them)."""

    plain: bytes
    packed: bytes
    plain_tag: str
    packed_tag: str

    @classmethod
    def of(cls, data: bytes, name: str = "") -> PageFile:
        # The highest level, made once; no time in the gzip header, so the bytes (and their tag)
        # are the same whenever and wherever the app is made.
        data = lean(name, data)
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        return cls(data, packed, entity_tag(data), entity_tag(packed))


_CSS_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_HTML_COMMENT = re.compile(rb"<!--.*?-->", re.S)
# A string of the script, kept whole, or a comment after its code, left out (a comment line
# goes whole): the script's regular expressions hold no quote (a test holds it so).
_JS_STRING_OR_COMMENT = re.compile(rb'("(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`|\'(?:[^\'\\\n]|\\.)*\')|[ \t]+//[^\n]*')


def lean(name: str, data: bytes) -> bytes:
    """A page file as a phone needs it: the script without its comments, the style and the page
    without theirs, none with its indentation or blank lines (the script's gzip, 20.6 KB with
    them, 14.9 KB without; the page's, with its words, 4.3 KB and 3.9 KB: the first load under
    25 KB on the wire).  Only comments and blanks are dropped: the script has no string that
    spans lines (a test holds it so), so none of its strings changes."""
    if name.endswith(".js"):
        lines = (line.strip() for line in data.split(b"\n"))
        code = (_JS_STRING_OR_COMMENT.sub(lambda m: m.group(1) or b"", line) for line in lines
                if not line.startswith(b"//"))
        return b"\n".join(line for line in code if line) + b"\n"
    if name.endswith((".css", ".html")):
        comment = _CSS_COMMENT if name.endswith(".css") else _HTML_COMMENT
        lines = (line.strip() for line in comment.sub(b"", data).split(b"\n"))
        return b"\n".join(line for line in lines if line) + b"\n"
    return data


def answer(request: Request, file: PageFile, media_type: str) -> Response:
    """`file` as this request asks for it: 304 and no body when the client holds it already,
    otherwise its bytes, gzip when accepted."""
    packed = accepts_gzip(request.headers.getlist("accept-encoding"))
    body, tag = (file.packed, file.packed_tag) if packed else (file.plain, file.plain_tag)
    headers = {**PAGE_HEADERS, "ETag": tag, "Vary": "Accept-Encoding"}
    if none_match(request.headers.getlist("if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    if packed:
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=media_type, headers=headers)


def none_match(fields: list[str], tag: str) -> bool:
    """Whether `If-None-Match` (every copy of the header: one list) names `tag`, so the client's
    copy is current: `*`, or a tag among them by the weak comparison RFC 9110 (13.1.2) asks for,
    `W/` set aside.  A tag may hold a comma: the tags are read whole, not split at commas."""
    value = ", ".join(fields).strip()
    if value == "*":
        return True
    return tag in _ENTITY_TAG.findall(value)


def accepts_gzip(fields: list[str]) -> bool:
    """Whether `Accept-Encoding` (every copy of the header: one list) takes gzip: `gzip` or its
    alias `x-gzip`, or else `*`, with a weight above 0 (RFC 9110, 12.5.3).  No header, or a
    weight that is no qvalue, is read as identity only: plain bytes are always understood."""
    weights: dict[str, bool] = {}
    for part in ",".join(fields).split(","):
        coding, *parameters = (x.strip() for x in part.split(";"))
        wanted = True
        for parameter in parameters:
            name, _equals, value = parameter.partition("=")
            if name.strip().lower() == "q":
                wanted = _QVALUE.fullmatch(value.strip()) is not None and float(value) > 0
        if coding:
            weights[coding.lower()] = wanted
    for coding in ("gzip", "x-gzip", "*"):
        if coding in weights:
            return weights[coding]
    return False


class CompressedJSON:
    """A finished JSON answer of `MIN_COMPRESSED` bytes or more, sent as gzip to a client that
    accepts it (with `Vary: Accept-Encoding` whether or not it does), its other headers kept
    (`Cache-Control: no-store` among them).  Anything else passes untouched: an answer with no
    body or a small one (a 304, a 204), one already encoded (the page's files), and one sent in
    parts, whose parts are not held back.  The answer's start is held until its first part, so
    a request held open before answering (a status that waits for a change) costs nothing more."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accepted = accepts_gzip([v.decode("latin-1") for k, v in scope["headers"] if k.lower() == b"accept-encoding"])
        start: Message | None = None

        async def sending(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if start is None:
                await send(message)
                return
            held, start = start, None
            if message["type"] == "http.response.body" and not message.get("more_body", False) \
                    and _compressible(held, message.get("body", b"")):
                headers = MutableHeaders(raw=list(held["headers"]))
                headers.add_vary_header("Accept-Encoding")
                if accepted:
                    # On the event loop: 1.3 ms for the 400 KB of a 200-hand evening, less than a
                    # thread's hand-over would cost.
                    body = gzip.compress(message["body"], compresslevel=JSON_LEVEL, mtime=0)
                    headers["Content-Encoding"] = "gzip"
                    headers["Content-Length"] = str(len(body))
                    message = {**message, "body": body}
                held = {**held, "headers": headers.raw}
            await send(held)
            await send(message)

        await self.app(scope, receive, sending)
        if start is not None:
            # An app that ended after its start and no body: the server sees what it sent.
            await send(start)


def _compressible(start: Message, body: bytes) -> bool:
    """Whether an answer whose start is `start` and whole body `body` is worth sending as gzip."""
    if start["status"] in (204, 206, 304) or len(body) < MIN_COMPRESSED:
        return False
    kind = b""
    for name, value in start.get("headers", []):
        name = name.lower()
        if name == b"content-encoding":
            return False
        if name == b"content-type":
            kind = value.split(b";", 1)[0].strip().lower()
    return kind == b"application/json"
