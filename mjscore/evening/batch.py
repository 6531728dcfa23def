"""Batch scoring: many files, many tables, one result (or error row) per table, streamed."""

from __future__ import annotations

import json
from typing import TextIO

from mjscore.model.errors import MjError


def run_batch(files: list[str], choices, fmt: str, out: TextIO, progress: TextIO | None = None) -> int:
    """Write one result per table to `out` as it is scored; return how many tables had errors.

    Every input gives a result or an error row (inputs = results + errors).  `progress`, when
    given (a terminal), gets a running count every few hundred tables.
    """
    from mjscore.pipeline import evaluate
    from mjscore.io.reader import stream_tables
    from mjscore.cli.render import csv_rows, render_csv

    errors = 0
    n = 0
    if fmt == "csv":
        out.write(render_csv([], header=True))
    for path in files:
        for name, line, item in stream_tables(path):
            n += 1
            result, err = None, item if isinstance(item, MjError) else None
            if err is None:
                try:
                    result = evaluate(item, choices)
                except MjError as e:
                    err = e
            if err is not None:
                errors += 1
                row = {"table": n, "file": name, "line": line, "error": str(err)}
                out.write(render_csv([row], header=False) if fmt == "csv"
                          else json.dumps(row, ensure_ascii=False) + "\n")
            elif fmt == "csv":
                out.write(render_csv(csv_rows(result, n, name, line), header=False))
            else:
                out.write(json.dumps({"table": n, "file": name, "line": line, **result}, ensure_ascii=False) + "\n")
            if progress is not None and n % 500 == 0:
                progress.write(f"\r  {n:,} tables, {errors:,} with errors")
                progress.flush()
    if progress is not None and n >= 500:
        progress.write(f"\r  {n:,} tables, {errors:,} with errors\n")
    return errors
