"""Batch scoring: many files, many tables, one result or one error per table, streamed in order."""

from __future__ import annotations

import gc
import itertools
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple, cast

from mjscore.evening.session import EveningState, hands_of
from mjscore.io.reader import SessionText, TableText, tables_of
from mjscore.io.sessionfile import read_session
from mjscore.model import plain
from mjscore.model.errors import Location, MjError, SessionError
from mjscore.model.table import Table
from mjscore.pipeline import EMPTY, TableResult, evaluate
from mjscore.model import say
from mjscore.model.say import _


class BatchItem(NamedTuple):
    """One table of a batch: where it stands, and its result or the error that stopped it.

    Every input table gives exactly one item (inputs = results + errors), in input order; a
    session file gives one for each of its hands (`data` is the hand as `session --format
    json` gives it: the table's result, with the hand's number, names and running totals), then
    one for the evening's end (table 0, which is no table: the totals, standings and settle-up).
    """

    table: int                        # 1, 2, ... across all the files; 0 for a session's end
    file: str
    line: int
    result: TableResult | None
    error: MjError | None = None
    data: dict[str, Any] | None = None   # the result in its plain form, where it was scored in another process
    text: str | None = None           # the item as written out, where `score_files` was given `encode`

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """A JSON line of `mjscore batch`: the result's object, or an error row."""
        if self.error is not None:
            return {"table": self.table, "file": self.file, "line": self.line, "error": str(self.error)}
        plain = self.result.to_dict() if self.result is not None else self.data or {}
        if not self.table:                        # a session's end: no table of its own
            return {"file": self.file, "line": self.line, **plain}
        return {"table": self.table, "file": self.file, "line": self.line, **plain}

    def to_json(self) -> str:
        """`to_dict()` as JSON text (`model.plain`); a result writes its own, without the object."""
        if self.result is None:
            return plain.encode(self.to_dict())
        return "".join(['{"table": ', str(self.table), ', "file": ', plain.string(self.file),
                        ', "line": ', str(self.line), ", ", self.result.to_json()[1:]])


class Played(NamedTuple):
    """A hand of a session (or the session's end), already played through with its seating:
    its plain form, as the batch writes it."""

    data: dict[str, Any]
    end: bool = False


def session_rows(text: str, file: str, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
                 explain: bool = False) -> Iterator[tuple[str, int, Played | MjError]]:
    """(file, line, the hand played, or its error) for each hand of a session, in order, then the
    session's end (the totals, standings and settle-up: `session --format json` without the
    hands).  The hands after a bad one are not counted (who sat where cannot be known): each
    gives an error saying so, after its own if it has one."""
    try:
        session = read_session(text, file)
    except MjError as e:
        yield file, e.location.line, e
        return
    state = EveningState(session.header)
    stopped: int | None = None
    for number, line, outcome in hands_of(session, scheme, given, explain, state):
        if isinstance(outcome, MjError):
            stopped = stopped or number
            yield file, line, outcome
        elif outcome is None:
            yield file, line, SessionError(_("hand {number} is not counted: the evening stops at hand {stopped}, "
                                             "after which who sat where cannot be known").format(number=number,
                                                 stopped=stopped), Location(file, line))
        else:
            yield file, line, Played(cast("dict[str, Any]", outcome.to_dict()))
    # The session's end: its object without the hands (each was yielded above), never built.
    ended = state.result()
    end: dict[str, Any] = {"players": list(ended.players), "start": ended.start, **ended.summary()}
    yield file, session.header.where.line or 1, Played(end, end=True)


def _expanded(rows: Iterable[tuple[str, int, Any]], scheme: str | None, given: Mapping[str, Any],
              explain: bool) -> Iterator[tuple[str, int, Any]]:
    """The rows of the files, a session's expanded into its hands and its end."""
    for name, line, item in rows:
        if isinstance(item, SessionText):
            yield from session_rows(item.text, item.file, scheme, given, explain)
        else:
            yield name, line, item


def _numbered(rows: Iterable[tuple[str, int, Any]]) -> Iterator[tuple[int, str, int, Any]]:
    """Each row with its table number, counted across the files; a session's end counts none."""
    n = 0
    for name, line, item in rows:
        if isinstance(item, Played) and item.end:
            yield 0, name, line, item
        else:
            n += 1
            yield n, name, line, item


def score_stream(tables: Iterable[tuple[str, int, Table | MjError]], scheme: str | None = None,
                 given: Mapping[str, Any] = EMPTY, explain: bool = False) -> Iterator[BatchItem]:
    """Each (file, line, table or reading error) scored as it arrives, numbered from 1, under the
    scheme named and the settings given (as `pipeline.evaluate` takes them).

    A bad table gives an item with its error and the rest go on.
    """
    for n, name, line, item in _numbered(tables):
        if isinstance(item, MjError):
            yield BatchItem(n, name, line, None, item)
            continue
        if isinstance(item, Played):
            yield BatchItem(n, name, line, None, None, item.data)
            continue
        try:
            yield BatchItem(n, name, line, evaluate(item, scheme, given, explain))
        except MjError as e:
            yield BatchItem(n, name, line, None, e)


def score_files(files: Iterable[str], scheme: str | None = None, given: Mapping[str, Any] = EMPTY, jobs: int = 1,
                encode: Encoder | None = None, explain: bool = False, sessions: bool = False) -> Iterator[BatchItem]:
    """Each table of each file (`-`: standard input) scored as it is read.

    Compact files are read a table at a time, so memory does not grow with the number of tables.
    With `jobs` above 1 the tables are parsed and scored in that many worker processes and come
    back in input order, each with its plain result (`data`) rather than the typed one.
    With `sessions`, a session file gives its hands, played with its seating, and its end (see
    BatchItem); without, one error saying it is a session.
    `encode` (a module-level function, or a partial of one) turns an item into the text to write
    (from its plain form, `BatchItem.to_dict`, or its JSON, `BatchItem.to_json`); each item then
    carries it as `text`. It runs where the table was scored, so with workers the main process
    only writes.
    """
    if jobs <= 1:
        rows = _expanded((row for path in files for row in tables_of(path, sessions=sessions)), scheme, given, explain)
        items = score_stream(rows, scheme, given, explain)
        return items if encode is None else (encoded(item, encode) for item in items)
    # A session is played through here, in order (its seating runs from hand to hand); its hands
    # go to the workers already played, to be written out in their place.
    rows = _expanded((row for path in files for row in tables_of(path, parse=False, sessions=sessions)), scheme,
                     given, explain)
    return _score_in_workers(_numbered(rows), (scheme, dict(given), explain), jobs, encode)


def collect_for_a_long_run() -> None:
    """The garbage collector tuned for a process that scores table after table: what start-up
    made (modules, classes, the schemes read so far) lives as long as the process, so it is
    moved where the collector never looks again (`gc.freeze`), and the youngest generation is
    collected after 100,000 new containers rather than 700.  A table makes about 2,000, nearly
    all freed by their counts of references before the collector would look, so what it scans
    is the few alive at that moment: fewer collections, the same work each.  Memory stays flat:
    it still runs, and only garbage in cycles waits for it.  On the benchmark's 1,500 tables
    (callgrind), of 2,280 k instructions a table 50 k were the collector's, 26 k with a
    threshold of 10,000; this threshold and the reader's unsearched ASCII lines took 12 k more off."""
    gc.freeze()
    gc.set_threshold(100_000, 10, 10)


Encoder = Callable[["BatchItem"], str]            # an item -> the text written
Request = tuple[str | None, dict[str, Any], bool]   # the scheme named, the settings given, explain
Row = tuple[int, str, int, Any]                      # number, file, line, table (or its text, or an error)

CHUNK = 64                # tables a worker takes at a time: few enough to keep the order moving
WINDOW = 4                # chunks in flight for each worker: enough to keep them busy, memory flat


def _score_in_workers(rows: Iterable[Row], request: Request, jobs: int, encode: Encoder | None = None
                      ) -> Iterator[BatchItem]:
    # Workers are forked from this process where they can be (they start with its loaded schemes),
    # else spawned (see `start_method`).  However the generator is left (the last result, an
    # interrupt or SIGTERM, its consumer closing it), the workers are ended without waiting on
    # anything they may have half sent (`_end`).
    source = iter(rows)
    first = list(itertools.islice(source, CHUNK))
    if len(first) < CHUNK:
        yield from _score_chunk(first, request, encode)   # too few tables to be worth a worker
        return
    chunks = itertools.chain([first], iter(lambda: list(itertools.islice(source, CHUNK)), []))
    import multiprocessing      # only for workers: 24 M instructions a one-hand `score` need not pay

    context = multiprocessing.get_context(start_method(multiprocessing.get_all_start_methods(), sys.platform))
    # The workers start with Ctrl-C and SIGTERM held back until `_worker_start` has set their own
    # handling (else one that came at once would run this process's, a traceback in the worker);
    # the pool's threads keep them held back, so that they come to the main thread.  One that
    # comes meanwhile is taken here as soon as the pool is made.
    held = _hold_signals()
    try:
        pool = context.Pool(jobs, initializer=_worker_start, initargs=(say.language(),))
    finally:
        _release_signals(held)
    try:
        started = list(getattr(pool, "_pool", []))
        pending: deque[Any] = deque()
        while True:
            chunk = next(chunks, [])
            if chunk:
                pending.append(pool.apply_async(_score_chunk, (chunk, request, encode)))
            if pending and (not chunk or len(pending) >= jobs * WINDOW):
                yield from _answer(pending.popleft(), pool, started, context.TimeoutError)
            elif not chunk:
                return
    finally:
        _end(pool)


class WorkerLost(RuntimeError):
    """A worker ended without answering (killed, out of memory, or what it was sent or sent back
    could not be read): the pool would wait for its chunk for ever."""


POLL = 0.5                # seconds between looks at the workers while a chunk is awaited


def _answer(result: Any, pool: Any, started: list[Any], timeout: type[Exception]) -> list[BatchItem]:
    """A chunk's items, once its worker sends them.  The pool starts a new worker for one that
    dies, but the chunk the dead one held is never answered, and one the pool cannot read stops
    its result thread: either is a WorkerLost here rather than a wait for ever."""
    while True:
        try:
            items: list[BatchItem] = result.get(POLL)
            return items
        except timeout:
            dead = [p.exitcode for p in started if p.exitcode is not None]
            reader = getattr(pool, "_result_handler", None)
            if dead:
                raise WorkerLost(_("a worker process ended without answering (exit code {code})").format(
                    code=dead[0])) from None
            if reader is not None and not reader.is_alive():
                raise WorkerLost(_("the workers' answers could not be read")) from None


STOP_WAIT = 2.0           # seconds the pool's own shutdown may take before its workers are killed


def _end(pool: Any) -> None:
    """End the pool's workers now, and never wait for good on them.

    `Pool.terminate` can block for ever: a worker it kills while sending a result leaves half a
    message in the pipe, and the pool's result thread, which `terminate` joins, waits on the rest
    (issue 31: `batch --jobs 2` hung at Ctrl-C).  So `terminate` runs in a thread of its own,
    given `STOP_WAIT`; whatever worker is still there after it is killed (SIGKILL) and reaped.
    The pool's threads are daemons: one left waiting does not hold up the exit."""
    import threading

    workers = list(getattr(pool, "_pool", []))    # the worker processes (CPython's Pool keeps them there)
    stopper = threading.Thread(target=pool.terminate, name="mjscore-pool-stop", daemon=True)
    stopper.start()
    try:
        stopper.join(STOP_WAIT)
    finally:
        workers += [p for p in getattr(pool, "_pool", []) if p not in workers]   # any the pool started since
        for p in workers:
            if p.exitcode is None:
                p.kill()
        for p in workers:
            p.join(STOP_WAIT)


def start_method(available: list[str], platform: str) -> str:
    """"fork" where the system has it (Linux, as before), else "spawn": Windows has no fork, and
    on macOS CPython itself calls fork unsafe (system libraries may have started threads) and
    spawns by default.  A spawned worker imports mjscore afresh and reads its schemes again;
    what it runs (`_worker_start`, `_score_chunk`, the encoder) is module-level, so it pickles.

    >>> start_method(["fork", "spawn", "forkserver"], "linux"), start_method(["spawn"], "win32")
    ('fork', 'spawn')
    >>> start_method(["spawn", "fork", "forkserver"], "darwin")
    'spawn'
    """
    return "fork" if "fork" in available and platform != "darwin" else "spawn"


def _worker_start(language: str = say.ENGLISH) -> None:
    """A worker leaves Ctrl-C to the main process, which stops it and writes no half line, and
    dies quietly when that process ends it (SIGTERM): it does not inherit the main process's own
    handler, which would make it print a traceback.  It speaks the main process's language (a
    spawned worker would start in English)."""
    say.use(language)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _release_signals(set())
    collect_for_a_long_run()          # a spawned worker's start-up is its own


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _hold_signals() -> set[int | signal.Signals]:
    """Hold back Ctrl-C and SIGTERM in this thread (where the system can: not on Windows); the
    signals held before."""
    if not hasattr(signal, "pthread_sigmask"):
        return set()
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)


def _release_signals(held: set[int | signal.Signals]) -> None:
    """Let Ctrl-C and SIGTERM through again, but for those among `held`."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS - held)


def _score_chunk(chunk: list[Row], request: Request, encode: Encoder | None = None) -> list[BatchItem]:
    """In a worker: each (number, file, line, table or its text or an error) parsed and scored
    under `request` (the scheme named, the settings given, whether to explain), and written out by `encode` when
    given (then only the text travels back, not the result)."""
    scheme, given, explain = request
    out = []
    for n, name, line, item in chunk:
        try:
            if isinstance(item, MjError):
                raise item
            if isinstance(item, Played):
                done = BatchItem(n, name, line, None, None, item.data)
            else:
                if isinstance(item, TableText):
                    item = item.parse()
                    line = item.where.line
                result = evaluate(item, scheme, given, explain)
                # Only what is written travels back: the text when there is an encoder, else the plain form.
                done = (BatchItem(n, name, line, None, None, result.to_dict()) if encode is None
                        else BatchItem(n, name, line, result))
        except MjError as e:
            done = BatchItem(n, name, line, None, e)
        out.append(done if encode is None else encoded(done, encode)._replace(result=None))
    return out


def encoded(item: BatchItem, encode: Encoder) -> BatchItem:
    """The item as written out; the plain result it was written from is not kept (from a worker,
    only the text then travels back)."""
    return item._replace(data=None, text=encode(item))
