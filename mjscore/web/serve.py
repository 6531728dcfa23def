"""Running the table page's server: uvicorn on the socket the command line has opened."""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Iterator

import uvicorn

from mjscore.web.app import create_app

_STOPS = (signal.SIGINT, signal.SIGTERM)


class TableServer(uvicorn.Server):
    """The page's server. It takes Ctrl-C and SIGTERM over as soon as it is made, before the
    address is shown, so a stop that comes at any moment after that (even before it listens)
    ends it cleanly: requests in flight are answered and `serve_on` returns. Uvicorn's own
    handling would raise the signal again once stopped, which a caller cannot tell from a stop
    that came too early for it."""

    def __init__(self, evening: str, token: str) -> None:
        super().__init__(uvicorn.Config(create_app(evening, token), log_level="warning", access_log=False,
                                        server_header=False, date_header=False, timeout_graceful_shutdown=3))
        self._previous = {sig: signal.signal(sig, self.handle_exit) for sig in _STOPS}

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield                       # taken over in __init__, given back in serve_on

    def serve_on(self, sock: socket.socket) -> None:
        """Serve until stopped, then give the signals back."""
        try:
            self.run(sockets=[sock])
        finally:
            for sig, handler in self._previous.items():
                signal.signal(sig, handler)
