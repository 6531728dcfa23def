"""Batch scoring: many files, many tables, one result or one error per table, streamed in order."""

from __future__ import annotations

import itertools
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from mjscore.io.reader import TableText, stream_tables
from mjscore.model import plain
from mjscore.model.errors import MjError
from mjscore.model.table import Table
from mjscore.pipeline import EMPTY, TableResult, evaluate


class BatchItem(NamedTuple):
    """One table of a batch: where it stands, and its result or the error that stopped it.

    Every input table gives exactly one item (inputs = results + errors), in input order.
    """

    table: int                        # 1, 2, ... across all the files
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
        return {"table": self.table, "file": self.file, "line": self.line, **plain}

    def to_json(self) -> str:
        """`to_dict()` as JSON text (`model.plain`); a result writes its own, without the object."""
        if self.result is None:
            return plain.encode(self.to_dict())
        return "".join(['{"table": ', str(self.table), ', "file": ', plain.string(self.file), ', "line": ', str(self.line),
                        ", ", self.result.to_json()[1:]])


def score_stream(tables: Iterable[tuple[str, int, Table | MjError]], scheme: str | None = None,
                 given: Mapping[str, Any] = EMPTY, explain: bool = False) -> Iterator[BatchItem]:
    """Each (file, line, table or reading error) scored as it arrives, numbered from 1, under the
    scheme named and the settings given (as `pipeline.evaluate` takes them).

    A bad table gives an item with its error and the rest go on.
    """
    for n, (name, line, item) in enumerate(tables, start=1):
        if isinstance(item, MjError):
            yield BatchItem(n, name, line, None, item)
            continue
        try:
            yield BatchItem(n, name, line, evaluate(item, scheme, given, explain))
        except MjError as e:
            yield BatchItem(n, name, line, None, e)


def score_files(files: Iterable[str], scheme: str | None = None, given: Mapping[str, Any] = EMPTY, jobs: int = 1,
                encode: Encoder | None = None, explain: bool = False) -> Iterator[BatchItem]:
    """Each table of each file (`-`: standard input) scored as it is read.

    Compact files are read a table at a time, so memory does not grow with the number of tables.
    With `jobs` above 1 the tables are parsed and scored in that many worker processes and come
    back in input order, each with its plain result (`data`) rather than the typed one.
    `encode` (a module-level function, or a partial of one) turns an item into the text to write
    (from its plain form, `BatchItem.to_dict`, or its JSON, `BatchItem.to_json`); each item then
    carries it as `text`. It runs where the table was scored, so with workers the main process
    only writes.
    """
    if jobs <= 1:
        items = score_stream((row for path in files for row in stream_tables(path)), scheme, given, explain)
        return items if encode is None else (encoded(item, encode) for item in items)
    return _score_in_workers(((n, *row) for n, row in enumerate(
        (row for path in files for row in stream_tables(path, parse=False)), start=1)), (scheme, dict(given), explain), jobs,
        encode)


Encoder = Callable[["BatchItem"], str]            # an item -> the text written
Request = tuple[str | None, dict[str, Any], bool]   # the scheme named, the settings given, explain
Row = tuple[int, str, int, Any]                      # number, file, line, table (or its text, or an error)

CHUNK = 64                # tables a worker takes at a time: few enough to keep the order moving
WINDOW = 4                # chunks in flight for each worker: enough to keep them busy, memory flat


def _score_in_workers(rows: Iterable[Row], request: Request, jobs: int, encode: Encoder | None = None
                      ) -> Iterator[BatchItem]:
    # Workers are forked from this process, so they start with its loaded schemes; an interrupt
    # or SIGTERM here leaves the `with` and so ends them (`_worker_start`).
    source = iter(rows)
    first = list(itertools.islice(source, CHUNK))
    if len(first) < CHUNK:
        yield from _score_chunk(first, request, encode)   # too few tables to be worth a worker
        return
    chunks = itertools.chain([first], iter(lambda: list(itertools.islice(source, CHUNK)), []))
    context = multiprocessing.get_context("fork")
    with context.Pool(jobs, initializer=_worker_start) as pool:
        pending: deque[Any] = deque()
        while True:
            chunk = next(chunks, [])
            if chunk:
                pending.append(pool.apply_async(_score_chunk, (chunk, request, encode)))
            if pending and (not chunk or len(pending) >= jobs * WINDOW):
                yield from pending.popleft().get()
            elif not chunk:
                return


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the main process, which stops it and writes no half line, and
    dies quietly when that process ends it (SIGTERM): it does not inherit the main process's own
    handler, which would make it print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
            if isinstance(item, TableText):
                item = item.parse()
                line = item.where.line
            done = BatchItem(n, name, line, None, None, evaluate(item, scheme, given, explain).to_dict())
        except MjError as e:
            done = BatchItem(n, name, line, None, e)
        out.append(done if encode is None else encoded(done, encode))
    return out


def encoded(item: BatchItem, encode: Encoder) -> BatchItem:
    """The item as written out; the plain result it was written from is not kept (from a worker,
    only the text then travels back)."""
    return item._replace(data=None, text=encode(item))
