"""The table page's `/openapi.json` is true (issue 31): every route's real answers, a success and
each error status the route declares, are validated against the schema the app itself publishes,
its `$ref`s resolved against its own components (jsonschema, JSON Schema 2020-12 as OpenAPI 3.1
writes it).  `CALLS` names, for every JSON route, requests that succeed and requests that fail;
the guard's refusals (400, 401, 413, and 403, 415 for a change) and a fault (500) are made for
every route from its first request.  A route of the app that is in neither `CALLS` nor `PAGE`,
or a status declared and never seen, or seen and never declared, fails.  Through the ASGI test
client, on 127.0.0.1."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import fastapi.routing
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import mjscore
import mjscore.api as api
from mjscore.web import routes
from mjscore.web.app import create_app

TOKEN = "o" * 32
AUTH = {"Authorization": f"Bearer {TOKEN}"}
JSON = {**AUTH, "Content-Type": "application/json"}
PLAYERS = ("Ann", "Bob", "Cid", "Dee")
HAND = "E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ..."
SPEC = "urn:mjscore:openapi"            # the published schema's address, for its $refs
NEXT = 3                                # every evening below has two hands played: hand 3 is next

# The evenings every route is tried on: each makes the answers' optional fields appear (a
# stake and its money, a kitty, a claim, a limit hand, a liable seat, names, a draw, add-up).
EVENINGS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "plain": ({}, (HAND, "E: score 40 win from S; S: ...; W: ...; N: score 8")),
    "staked": ({"scheme": "kajongg-dmjl", "kitty": 20, "stake": "0.05 EUR"},
               ("penalty Dee 10\nE: [111p] 222s 333m EEE 99s win 9s self = 352\nS: [555m] ...\nW: [777p] ...\nN: ...",
                "Ann: 111m 999m 111p 999p 11s win 1s self; Bob: ...; Cid: [CCC] ...; Dee: ...")),
    "added up": ({"paying": "add-up"}, ("penalty Bob 20 to Ann\n" + HAND, "draw")),
}


@pytest.fixture(scope="module")
def evenings(tmp_path_factory) -> dict[str, Path]:
    """Each evening's file, made once (each call plays on a copy)."""
    made = {}
    for kind, (settings, hands) in EVENINGS.items():
        path = tmp_path_factory.mktemp("evenings") / "ev.mj"
        ev = mjscore.Evening(path)
        ev.start(PLAYERS, **settings)
        for text in hands:
            ev.add(text)
        made[kind] = path
    return made


@pytest.fixture(scope="module")
def spec(evenings) -> dict[str, Any]:
    """The schema the app publishes."""
    r = TestClient(create_app(str(evenings["plain"]), TOKEN), base_url="http://127.0.0.1").get(
        "/openapi.json", headers=AUTH)
    assert r.status_code == 200
    schema: dict[str, Any] = r.json()
    return schema


def validator(spec: dict[str, Any], method: str, path: str, status: int) -> Draft202012Validator:
    """The validator of one answer: the schema the spec gives it, found by its JSON pointer and
    resolved against the spec's components."""
    def part(s: str) -> str:
        return quote(s.replace("~", "~0").replace("/", "~1"), safe="~")
    pointer = "/".join(["paths", part(path), method.lower(), "responses", str(status), "content",
                        "application~1json", "schema"])
    registry = Registry().with_resource(SPEC, Resource.from_contents(spec, default_specification=DRAFT202012))
    return Draft202012Validator({"$ref": f"{SPEC}#/{pointer}"}, registry=registry)


def errors_of(v: Draft202012Validator, body: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(body)]


# -- what the evening holds before a call --------------------------------------------------

Before = Callable[[Path, FastAPI], None]


def held(path: Path, app: FastAPI) -> None:
    """Hand 3's drafts and penalties, entered from the phones: a line right, one wrong, one
    in the prompt's shorthand, a penalty."""
    table = app.state.table
    table.put_line("E", "[111p] 222s 333m EEE 99s win 9s self", hand=NEXT, by=seated(path, "E"))
    table.put_line("S", "123m 456m 12x", hand=NEXT, by=seated(path, "S"))
    table.put_line("W", "8", hand=NEXT, by=seated(path, "W"))
    table.put_penalties(NEXT, [{"from": "Dee", "amount": 10, "to": "Cid"}], by="Cid", append=True)


def entered(path: Path, app: FastAPI) -> None:
    """Hand 3's four lines, all right: it can be settled."""
    for seat, text in (("E", "score 40 win self"), ("S", "8"), ("W", ""), ("N", "")):
        app.state.table.put_line(seat, text, hand=NEXT, by=seated(path, seat))


def bad_hand(path: Path, app: FastAPI) -> None:
    """A hand written wrong at a terminal."""
    path.write_text(path.read_text() + "---\nE: 12x\n")


def bad_header(path: Path, app: FastAPI) -> None:
    """A file that is no evening at all."""
    path.write_text("nonsense\n")


def settling(path: Path, app: FastAPI) -> None:
    """Another phone's settle of hand 3 under way (what `api.NextHand` holds while it writes)."""
    app.state.table._busy = NEXT


@dataclass
class Call:
    """A request to a route (`path`, with its query; `body` as JSON) and the status it gets, on
    each evening of EVENINGS, once `before` has made the evening so."""

    status: int
    path: str
    body: Any = None            # or what makes it from the evening's file (a correction names its hand's version)
    before: Before | None = None
    known: bool = False         # sent with If-None-Match: the status the phone has now


def boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a fault")


def no_evening() -> api.NextHand:
    raise RuntimeError("a fault")


def evening_lost(monkeypatch: pytest.MonkeyPatch, app: FastAPI) -> None:
    """A fault inside the route: its evening cannot be had (the dependency that gives it fails)."""
    app.dependency_overrides[routes.next_hand] = no_evening


@dataclass
class RouteCalls:
    """A route's calls, a success first (the guard's refusals are made from it); whether the
    route changes anything; how a fault (500) is made inside it."""

    calls: list[Call]
    change: bool = False
    fault: Callable[[pytest.MonkeyPatch, FastAPI], None] = evening_lost     # how a 500 is made in it


def seated(path: Path, seat: str) -> str:
    """Who sits at `seat` for the next hand (a draw in an add-up evening passes the deal on)."""
    return mjscore.Evening(path).next_deal().seats["ESWN".index(seat)]


def line(seat: str, text: str = "score 8", by: str | None = None) -> Callable[[Path], dict[str, Any]]:
    """Seat `seat`'s line of the next hand, sent as its player (or as `by`)."""
    return lambda path: {"text": text, "hand": NEXT, "by": by or seated(path, seat)}


LINE = line("S")
CORRECTION_TEXT = {"text": "E: score 20 win self; S: ...; W: ...; N: ...", "by": "Ann"}


def correction(number: int, version: str | None = None, text: str | None = None) -> Callable[[Path], dict[str, Any]]:
    """A correction of hand `number` (to `text`), naming the version of it the file holds (or `version`)."""
    def body(path: Path) -> dict[str, Any]:
        held = mjscore.Evening(path).hand_texts()[number - 1]
        return {**CORRECTION_TEXT, **({"text": text} if text else {}), "version": version or api.hand_version(held)}
    return body
PENALTY = {"hand": NEXT, "from": "dee", "amount": 100, "to": "Ann", "by": "Bob"}

# Every JSON route of the app: requests that succeed, then requests that fail.
CALLS: dict[tuple[str, str], RouteCalls] = {
    ("GET", "/api/status"): RouteCalls([
        Call(200, "/api/status"), Call(200, "/api/status", before=held),
        Call(304, "/api/status?wait=0.2", known=True),                            # nothing changed meanwhile
        Call(200, "/api/status", before=bad_hand), Call(200, "/api/status", before=bad_header),
        Call(422, "/api/status?wait=99")]),
    ("GET", "/api/evening"): RouteCalls([
        Call(200, "/api/evening"), Call(200, "/api/evening", before=bad_hand),        # the bad hand in `errors`
        Call(422, "/api/evening", before=bad_header)]),
    ("GET", "/api/standings"): RouteCalls([
        Call(200, "/api/standings"), Call(422, "/api/standings", before=bad_hand)]),
    ("GET", "/api/stats"): RouteCalls([
        Call(200, "/api/stats"), Call(422, "/api/stats", before=bad_hand)]),
    ("GET", "/api/hands/{number}"): RouteCalls([
        Call(200, "/api/hands/1"), Call(200, "/api/hands/2"), Call(404, "/api/hands/3"),
        Call(422, "/api/hands/x"), Call(422, "/api/hands/1", before=bad_header)]),
    ("GET", "/api/hands/{number}/text"): RouteCalls([
        Call(200, "/api/hands/1/text"), Call(404, "/api/hands/0/text"), Call(422, "/api/hands/x/text")]),
    ("GET", "/api/rules"): RouteCalls([
        Call(200, "/api/rules"), Call(422, "/api/rules", before=bad_hand)]),
    ("POST", "/api/hands"): RouteCalls([
        Call(201, "/api/hands", {"text": HAND, "hand": NEXT, "by": "Cid"}),
        Call(201, "/api/hands", {"hand": NEXT, "by": "Dee"}, before=entered),
        Call(201, "/api/hands", {"hand": NEXT, "draw": True}),
        Call(409, "/api/hands", {"text": HAND, "hand": 1}),
        Call(409, "/api/hands", {"hand": 2}),
        Call(422, "/api/hands", {"text": "E: 12x"}),
        Call(422, "/api/hands", {"hand": NEXT}, before=held),                       # a line wrong: its seat
        Call(422, "/api/hands", {}),
        Call(422, "/api/hands", {"text": HAND, "hand": "3"})], change=True),
    ("PUT", "/api/hands/{number}"): RouteCalls([
        Call(200, "/api/hands/1", correction(1)), Call(200, "/api/hands/2", correction(2)),
        Call(409, "/api/hands/1", correction(1), before=settling),
        Call(409, "/api/hands/1", correction(1, "0" * 16)),                         # corrected since it was read
        Call(422, "/api/hands/1", correction(1, text="E: 12x")), Call(422, "/api/hands/1", CORRECTION_TEXT),
        Call(422, "/api/hands/x", correction(1)), Call(422, "/api/hands/9", correction(1))], change=True),
    ("DELETE", "/api/hands/last"): RouteCalls([
        Call(200, "/api/hands/last?hand=2&by=Ann"), Call(409, "/api/hands/last?hand=1"),
        Call(422, "/api/hands/last"), Call(422, "/api/hands/last?hand=0")], change=True),
    ("POST", "/api/score"): RouteCalls([
        Call(200, "/api/score", {"text": HAND}),
        Call(200, "/api/score", {"text": "E: score 40 win self; S: ...; W: ...; N: ...",
                                 "settings": {"kitty": 20, "stake": "0.05 EUR", "paying": "winner-only"}}),
        Call(200, "/api/score", {"text": "E: [111p] 222s 333m EEE 99s win 9s from S; S: 123m 456m 789m 567p 2p; "
                                         "W: ...; N: ...", "scheme": "dmjl", "settings": {"paying": "add-up"}}),
        Call(200, "/api/score", {"text": "E: ...; S: 123m 456m 789m 345p 99s win 5p from E; "          # a ruling
                                         "W: 123s 456s 789s EEE 55p win 5p from E; N: ..."}),
        Call(200, "/api/score", {"text": "E: score 40 win self; S: score 8"}),          # no settlement: why
        Call(200, "/api/score", {"text": "players:\n  E: {tiles: '[CCC] 234m 678m 55p 789s', name: Ann,\n"
                                         "      win: {tile: 5p, from: W, liable: W}}\n  S: '...'\n  W: '...'\n"
                                         "  N: {score: 8, name: Dee}\n"}),
        Call(422, "/api/score", {"text": HAND, "settings": {"payng": "winner-only"}}),
        Call(422, "/api/score", {"text": HAND, "scheme": "/etc/hostname"}),
        Call(422, "/api/score", {"text": "E: 12x"})],
        change=True, fault=lambda monkeypatch, app: monkeypatch.setattr(api, "score", boom)),
    ("PUT", "/api/drafts/{seat}"): RouteCalls([
        Call(200, "/api/drafts/S", LINE), Call(200, "/api/drafts/E", line("E", "[111p] 222s 333m EEE 99s win 9s self")),
        Call(200, "/api/drafts/W", line("W", "12x")),                               # a line wrong is held too
        Call(404, "/api/drafts/Q", LINE), Call(409, "/api/drafts/S", lambda path: {**LINE(path), "hand": 1}),
        Call(409, "/api/drafts/E", LINE),                                          # South's player does not sit East
        Call(422, "/api/drafts/S", line("S", by="Eve")),                           # nor is Eve at the table
        Call(422, "/api/drafts/S", {"text": "score 8", "hand": NEXT}),
        Call(422, "/api/drafts/S", {"text": "score 8", "hand": NEXT, "by": "Bob"}, before=bad_hand)],
        change=True),
    ("DELETE", "/api/drafts"): RouteCalls([
        Call(200, f"/api/drafts?hand={NEXT}", before=held), Call(409, "/api/drafts?hand=1"),
        Call(422, "/api/drafts")], change=True),
    ("DELETE", "/api/drafts/{seat}"): RouteCalls([
        Call(200, f"/api/drafts/E?hand={NEXT}", before=held), Call(404, f"/api/drafts/Z?hand={NEXT}"),
        Call(409, "/api/drafts/E?hand=7"), Call(422, "/api/drafts/E?hand=x")], change=True),
    ("PUT", "/api/penalties"): RouteCalls([
        Call(200, "/api/penalties", {"hand": NEXT, "penalties": [PENALTY, {"from": "Cid", "amount": 5}], "by": "Ann"}),
        Call(200, "/api/penalties", {"hand": NEXT, "penalties": []}, before=held),
        Call(409, "/api/penalties", {"hand": 1, "penalties": []}),
        Call(422, "/api/penalties", {"hand": NEXT, "penalties": [{"from": "Eve", "amount": 5}]}),
        Call(422, "/api/penalties", {"hand": NEXT, "penalties": [{"from": "Ann", "amount": True}]})], change=True),
    ("POST", "/api/penalties"): RouteCalls([
        Call(200, "/api/penalties", PENALTY), Call(200, "/api/penalties", {**PENALTY, "to": None}, before=held),
        Call(409, "/api/penalties", {**PENALTY, "hand": 4}),
        Call(422, "/api/penalties", {**PENALTY, "amount": 0}), Call(422, "/api/penalties", {"hand": NEXT})],
        change=True),
}

# The routes that are not JSON, left out of the schema: the page and its files, the schema itself.
PAGE = {("GET", "/"): 200, ("GET", "/page.js"): 200, ("GET", "/page.css"): 200, ("GET", "/favicon.ico"): 204,
        ("GET", "/openapi.json"): 200}

# The guard's refusals and a fault, made for every route from its first request.
GUARD = {
    400: lambda headers: {**headers, "Host": "evil.example"},
    401: lambda headers: {k: v for k, v in headers.items() if k != "Authorization"},
    413: lambda headers: headers,                       # with a body of 70 KiB
    500: lambda headers: headers,                       # with RouteCalls.fault
}
CHANGE = {
    403: lambda headers: {**headers, "Origin": "http://evil.example"},
    415: lambda headers: {**headers, "Content-Type": "text/plain"},
}


def cases() -> list[Any]:
    out = []
    for (method, route), rc in CALLS.items():
        for n, call in enumerate(rc.calls):
            for kind in EVENINGS:
                out.append(pytest.param(method, route, call, kind, None, id=f"{method} {call.path} {call.status} {n} "
                                                                              f"{kind}"))
        for status in [*GUARD, *(CHANGE if rc.change else ())]:
            out.append(pytest.param(method, route, rc.calls[0], "plain", status,
                                    id=f"{method} {route} {status} guard"))
    return out


def app_routes(app: FastAPI) -> set[tuple[str, str]]:
    """Every route of the app by method and path: FastAPI's, and Starlette's `/openapi.json`.
    Older FastAPIs copy an included router's routes into the app's; newer ones keep the router
    whole and name each route in it by `iter_route_contexts`."""
    every = fastapi.routing.iter_route_contexts(app.routes) if hasattr(fastapi.routing, "iter_route_contexts") \
        else app.routes
    return {(m, r.path) for r in every for m in getattr(r, "methods", None) or () if m != "HEAD"}


def statuses(method: str, route: str) -> set[int]:
    """The statuses `CALLS` and the guard see for a route."""
    rc = CALLS[method, route]
    return {c.status for c in rc.calls} | set(GUARD) | (set(CHANGE) if rc.change else set())


# -- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("method,route,call,kind,guard", cases())
def test_every_answer_is_what_the_published_schema_says(spec, evenings, tmp_path, monkeypatch,
                                                         method, route, call, kind, guard):
    path = tmp_path / "ev.mj"
    shutil.copyfile(evenings[kind], path)
    app = create_app(str(path), TOKEN)
    client = TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)
    headers = JSON if method != "GET" else AUTH
    content, status = None, call.status
    if guard is None:
        if call.before is not None:
            call.before(path, app)
    else:
        headers, status = {**GUARD, **CHANGE}[guard](headers), guard
        if guard == 413:
            content = b" " * (70 * 1024)
        elif guard == 500:
            CALLS[method, route].fault(monkeypatch, app)
    if call.known and guard is None:
        headers = {**headers, "If-None-Match": client.get("/api/status", headers=AUTH).headers["etag"]}
    body = call.body(path) if callable(call.body) else call.body
    r = client.request(method, call.path, headers=headers, content=content, json=body if content is None else None)
    assert r.status_code == status, r.text
    assert str(status) in spec["paths"][route][method.lower()]["responses"], f"{status} is not declared"
    if status == 304:
        assert not r.content and r.headers["etag"] == headers["If-None-Match"]
        return
    assert r.headers["content-type"] == "application/json"
    problems = errors_of(validator(spec, method, route, status), r.json())
    assert not problems, "\n".join(problems[:10])


def test_every_route_of_the_app_is_in_the_table(evenings):
    """A route added without its calls here fails: the JSON ones in CALLS, the others in PAGE."""
    app = create_app(str(evenings["plain"]), TOKEN)
    assert app_routes(app) == set(CALLS) | set(PAGE)


def test_the_schema_describes_the_json_routes_and_only_them(spec):
    described = {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops}
    assert described == set(CALLS)


@pytest.mark.parametrize("method,route", list(CALLS))
def test_each_status_a_route_declares_is_seen_and_each_seen_is_declared(spec, method, route):
    declared = {int(s) for s in spec["paths"][route][method.lower()]["responses"]}
    assert declared == statuses(method, route)


def test_every_answer_has_its_model_and_every_error_the_apps_error_body(spec):
    """No route answers "an object": each success names its model, each error the app's own
    error body, never FastAPI's `{"detail": [...]}`."""
    components = spec["components"]["schemas"]
    assert "HTTPValidationError" not in components and "ValidationError" not in components
    for p, ops in spec["paths"].items():
        for m, op in ops.items():
            for status, answer in op["responses"].items():
                if status == "304":
                    assert "content" not in answer and answer["description"], (m, p)      # no body: nothing changed
                    continue
                schema = answer["content"]["application/json"]["schema"]
                assert set(schema) == {"$ref"}, (m, p, status, schema)
                name = schema["$ref"].removeprefix("#/components/schemas/")
                assert name in components
                assert (name == "ErrorBody") == (int(status) >= 400), (m, p, status, name)
                assert answer["description"], (m, p, status)
    for name, schema in components.items():
        Draft202012Validator.check_schema(schema)
        assert schema.get("type") == "object", name


def test_the_error_body_is_closed_and_names_its_message(spec):
    body = spec["components"]["schemas"]["ErrorBody"]
    assert body["required"] == ["error"] and body["additionalProperties"] is False
    detail = spec["components"]["schemas"]["ErrorDetail"]
    assert detail["required"] == ["message"] and detail["additionalProperties"] is False


@pytest.mark.parametrize("method,route", sorted(PAGE))
def test_the_routes_outside_the_schema_answer_and_refuse_with_the_error_body(spec, evenings, method, route):
    client = TestClient(create_app(str(evenings["plain"]), TOKEN), base_url="http://127.0.0.1")
    r = client.request(method, route, headers=AUTH)
    assert r.status_code == PAGE[method, route]
    assert (r.headers.get("content-type") == "application/json") == (route == "/openapi.json")
    registry = Registry().with_resource(SPEC, Resource.from_contents(spec, default_specification=DRAFT202012))
    body = Draft202012Validator({"$ref": f"{SPEC}#/components/schemas/ErrorBody"}, registry=registry)
    for r in (client.request(method, route), client.request(method, route, headers={**AUTH, "Host": "evil.example"})):
        assert r.status_code in (400, 401) and not errors_of(body, r.json())
    r = client.get("/nowhere", headers=AUTH)            # no route at all: the error body too
    assert r.status_code == 404 and not errors_of(body, r.json())


def test_the_check_is_not_blind(spec, evenings):
    """What the app does not send fails: FastAPI's own 422, a field unknown to the error body, an
    answer without a field that is always there or with one of the wrong type."""
    refused = validator(spec, "POST", "/api/hands", 422)
    assert errors_of(refused, {"detail": [{"loc": ["body", "hand"], "msg": "Field required", "type": "missing"}]})
    assert errors_of(refused, {"error": {"message": "no", "path": "/home/ann/ev.mj"}})
    assert not errors_of(refused, {"error": {"message": "no"}})
    status = validator(spec, "GET", "/api/status", 200)
    real = TestClient(create_app(str(evenings["plain"]), TOKEN), base_url="http://127.0.0.1").get(
        "/api/status", headers=AUTH).json()
    assert not errors_of(status, real)
    assert errors_of(status, {k: v for k, v in real.items() if k != "version"})
    assert errors_of(status, {**real, "hand": "3"})
    assert errors_of(status, {**real, "next": {**real["next"], "seats": {"X": "Ann"}}})
    # A field its declaration lacks (mjscore.model.answers), at the top or deep inside, fails too.
    assert errors_of(status, {**real, "said": []})
    assert errors_of(status, {**real, "next": {**real["next"], "wind": "E"}})


def test_every_answer_is_declared_closed(spec):
    """Every answer's shape is the library's one declaration (mjscore.model.answers), read closed:
    no object of the schema takes a field it does not name."""
    from mjscore.model import answers

    components = spec["components"]["schemas"]

    def objects(schema):
        if isinstance(schema, dict):
            if schema.get("type") == "object" and "properties" in schema:
                yield schema
            for v in schema.values():
                yield from objects(v)
        elif isinstance(schema, list):
            for v in schema:
                yield from objects(v)
    answered = {n for n, c in components.items() if not n.endswith("In")}
    assert answered and answered <= set(vars(answers)), sorted(answered - set(vars(answers)))
    for name in answered:
        for obj in objects(components[name]):
            assert obj.get("additionalProperties") is False, name
