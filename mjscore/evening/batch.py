"""Batch scoring: many files, many tables, one result or one error per table, streamed in order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from mjscore.io.reader import stream_tables
from mjscore.model.errors import MjError
from mjscore.model.table import Table
from mjscore.pipeline import Choices, TableResult, evaluate


class BatchItem(NamedTuple):
    """One table of a batch: where it stands, and its result or the error that stopped it.

    Every input table gives exactly one item (inputs = results + errors), in input order.
    """

    table: int                        # 1, 2, ... across all the files
    file: str
    line: int
    result: TableResult | None
    error: MjError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_dict(self) -> dict:
        """A JSON line of `mjscore batch`: the result's object, or an error row."""
        if self.error is not None:
            return {"table": self.table, "file": self.file, "line": self.line, "error": str(self.error)}
        return {"table": self.table, "file": self.file, "line": self.line, **self.result.to_dict()}


def score_stream(tables: Iterable[tuple[str, int, Table | MjError]], choices: Choices = Choices()
                 ) -> Iterator[BatchItem]:
    """Each (file, line, table or reading error) scored as it arrives, numbered from 1.

    A bad table gives an item with its error and the rest go on.
    """
    for n, (name, line, item) in enumerate(tables, start=1):
        if isinstance(item, MjError):
            yield BatchItem(n, name, line, None, item)
            continue
        try:
            yield BatchItem(n, name, line, evaluate(item, choices))
        except MjError as e:
            yield BatchItem(n, name, line, None, e)


def score_files(files: Iterable[str], choices: Choices = Choices()) -> Iterator[BatchItem]:
    """Each table of each file (`-`: standard input) scored as it is read.

    Compact files are read a table at a time, so memory does not grow with the number of tables.
    """
    return score_stream((row for path in files for row in stream_tables(path)), choices)
