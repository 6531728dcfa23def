"""What lets a phone wait for a change instead of asking every second, and what keeps one phone's
large answer from costing the others: a wake-up for the status requests held open (a long poll),
and the evening-wide answers made once per version of the evening's file.

A long poll (rather than server-sent events): every request stays an ordinary, short-lived
answer that the guard, the token, the compression and a phone's own retry already handle; a
phone whose Wi-Fi drops simply asks again, and a proxy or a sleeping phone that cuts a stream
cannot leave a phone believing it is still listening.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

from mjscore.model.say import LANGUAGES


class Wake:
    """Wakes every status request waiting on the event loop when the next hand changes; told
    from any thread (the routes run in a thread pool)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def __call__(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):         # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(self._set)

    def _set(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait(self, seconds: float) -> None:
        """Until the next change, or `seconds` at most."""
        loop = asyncio.get_running_loop()
        if self._event is None or loop is not self._loop:
            self._loop, self._event = loop, asyncio.Event()     # an event belongs to one loop
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), seconds)


class Remembered:
    """Answers made once per version of the evening's file: the evening, its standings, its
    figures.  Two phones asking at once for the same answer wait for one making of it."""

    KEEP = 8                            # versions' answers kept (the last few: a phone may lag one)

    def __init__(self) -> None:
        self._made: dict[tuple[str, str], bytes] = {}
        self._lock = threading.Lock()
        self._making: dict[tuple[str, str], threading.Lock] = {}

    def get(self, what: str, version: Callable[[], str], make: Callable[[], bytes]) -> bytes:
        """`what` at the file's version now, made by `make` unless it was made at that version
        already; kept only when the file had that version before and after the making (an answer
        made while the file changed is sent, never kept for a version it is not of)."""
        before = version()
        key = (what, before)
        with self._lock:
            if key in self._made:
                return self._made[key]
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                with self._lock:
                    if key in self._made:
                        return self._made[key]
                made = make()
                if version() == before:
                    with self._lock:
                        self._made[key] = made
                        while len(self._made) > self.KEEP * 3 * len(LANGUAGES):
                            del self._made[next(iter(self._made))]
                return made
        finally:
            with self._lock:
                self._making.pop(key, None)
