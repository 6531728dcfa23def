"""Running the table page's server: uvicorn on the socket the command line has opened, made to
stay up all evening with anyone on the table's network able to reach it.

- A connection that has not sent a whole request within `REQUEST_SECONDS` is closed (uvicorn
  closes an idle keep-alive connection, but waits for ever for a first request).
- Connections are capped below the file-descriptor limit, which is raised to what the system
  allows first; at the cap, the connection that has waited longest without a request is closed
  to let the new one in, so that a client holding hundreds of idle sockets does not lock the
  phones out.
- Faults (a socket refused, a request that is no HTTP) are logged one line per kind per
  minute, never a traceback per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from collections.abc import Iterator, Sequence
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from mjscore.web.app import create_app

_STOPS = (signal.SIGINT, signal.SIGTERM)
REQUEST_SECONDS = 10.0          # a whole request, from the connection or the last answer
MAX_CONNECTIONS = 1024          # at most, and never above the descriptor limit less a reserve
BACKLOG = 32                    # connections the kernel queues, and asyncio accepts in one go
# Descriptors kept free beyond those open at the start: the evening's file, its lock, the cache,
# the logs, and the connections asyncio accepts before any of them is counted: up to a backlog
# each turn of the loop, and a closed one's descriptor is let go two turns on (measured: with
# one backlog's reserve, 300 sockets under a limit of 256 still met EMFILE, and a second's pause).
_RESERVE = 32 + 3 * BACKLOG
FAULT_SECONDS = 60.0            # one line a kind of fault in this time


def raise_descriptor_limit() -> int:
    """The soft limit on open files raised to the hard one where the system allows (not on
    Windows); the limit in force after."""
    try:
        import resource
    except ImportError:             # pragma: no cover - not a POSIX system
        return MAX_CONNECTIONS + _RESERVE
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def _open_descriptors() -> int:
    """How many files the process has open now (where the system says; a guess elsewhere)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 64


class _Connections:
    """The connections of one server, in the order they were made or last answered."""

    def __init__(self, cap: int):
        self.cap = cap
        self.waiting: dict[TableProtocol, float] = {}   # connections with no request under way


class TableProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 connection, with a time limit on the request and a share of the cap."""

    registry: _Connections = _Connections(MAX_CONNECTIONS)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's own
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        reg = self.registry
        while len(reg.waiting) >= reg.cap:
            # At the cap: the one that has waited longest for a request makes room.
            oldest = next(iter(reg.waiting))
            oldest._close_idle()
        self._waiting()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        self.registry.waiting.pop(self, None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.more_body:
            # A whole request came: it is answered, and the clock starts again after the answer.
            self._stop_clock()
            self.registry.waiting.pop(self, None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._waiting()

    def _waiting(self) -> None:
        self._stop_clock()
        self.registry.waiting.pop(self, None)
        self.registry.waiting[self] = time.monotonic()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._close_idle)

    def _stop_clock(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            assert self._deadline is not None
            self._deadline.cancel()
            self._deadline = None

    def _close_idle(self) -> None:
        self._stop_clock()
        self.registry.waiting.pop(self, None)
        if not self.transport.is_closing():
            self.transport.close()


class _OncePerMinute(logging.Filter):
    """One line per kind of fault per minute, its traceback left out: a client that opens
    connections by the hundred writes no tracebacks by the hundred."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("No supported WebSocket library"):
            return False                # advice for a server that serves WebSockets: this one serves none
        kind = str(record.msg)
        if record.exc_info and record.exc_info[1] is not None:
            kind += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        now = time.monotonic()
        if now - self.last.get(kind, -FAULT_SECONDS) < FAULT_SECONDS:
            return False
        self.last[kind] = now
        record.msg, record.args = f"{record.getMessage()}{kind[len(str(record.msg)):]}", ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True


class TableServer(uvicorn.Server):
    """The page's server. It takes Ctrl-C and SIGTERM over as soon as it is made, before the
    address is shown, so a stop that comes at any moment after that (even before it listens)
    ends it cleanly: requests in flight are answered and `serve_on` returns. Uvicorn's own
    handling would raise the signal again once stopped, which a caller cannot tell from a stop
    that came too early for it."""

    def __init__(self, evening: str | Sequence[tuple[str, str]], token: str) -> None:
        cap = max(8, min(MAX_CONNECTIONS, raise_descriptor_limit() - _open_descriptors() - _RESERVE))
        protocol = type("TableProtocol", (TableProtocol,), {"registry": _Connections(cap)})
        # The backlog is also how many connections asyncio accepts in one go (uvicorn's default,
        # 2048, would outrun the cap under a small file limit: EMFILE, and a second's pause).
        self._app = create_app(evening, token)
        super().__init__(uvicorn.Config(self._app, log_level="warning", access_log=False,
                                        server_header=False, date_header=False, timeout_graceful_shutdown=3,
                                        http=protocol, ws="none", timeout_keep_alive=5, backlog=BACKLOG))
        self._previous = {sig: signal.signal(sig, self.handle_exit) for sig in _STOPS}
        faults = _OncePerMinute()
        for name in ("asyncio", "uvicorn.error"):
            logging.getLogger(name).addFilter(faults)

    def handle_exit(self, sig: int, frame: Any) -> None:
        # The phones' waiting status requests answer now (304: each asks again, and finds the
        # server gone), rather than being cut when the server stops.
        self._app.state.stopping = True
        self._app.state.wake()
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield                       # taken over in __init__, given back in serve_on

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        # The loop's own faults (a refused accept, a broken connection) go through the same filter.
        loop = asyncio.get_running_loop()

        def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            logging.getLogger("asyncio").error(context.get("message", "fault"), exc_info=context.get("exception"))
        loop.set_exception_handler(handler)
        await super().startup(sockets)

    def serve_on(self, sock: socket.socket) -> None:
        """Serve until stopped, then give the signals back."""
        try:
            self.run(sockets=[sock])
        finally:
            for sig, handler in self._previous.items():
                signal.signal(sig, handler)
