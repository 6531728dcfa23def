"""Batch scoring: many files, many tables, one result (or error row) per table, streamed."""

from __future__ import annotations

import json
from typing import TextIO

from mjscore.errors import MjError


def run_batch(files: list[str], choices, fmt: str, out: TextIO) -> int:
    """Write one result per table to `out`; return how many tables had errors."""
    from mjscore.pipeline import evaluate
    from mjscore.reader import iter_tables, read_text
    from mjscore.render import csv_rows, render_csv

    errors = 0
    n = 0
    if fmt == "csv":
        out.write(render_csv([], header=True))
    for path in files:
        try:
            text, name = read_text(path)
            items = iter_tables(text, name)
        except MjError as e:
            items = iter([(0, e)])
            name = path
        for line, item in items:
            n += 1
            if isinstance(item, MjError):
                result = None
                err = item
            else:
                try:
                    result = evaluate(item, choices)
                    err = None
                except MjError as e:
                    result, err = None, e
            if err is not None:
                errors += 1
                if fmt == "csv":
                    out.write(render_csv([{"table": n, "file": name, "line": line, "error": str(err)}], header=False))
                else:
                    out.write(json.dumps({"table": n, "file": name, "line": line, "error": str(err)},
                                         ensure_ascii=False) + "\n")
                continue
            if fmt == "csv":
                out.write(render_csv(csv_rows(result, n, name, line), header=False))
            else:
                result = {"table": n, "file": name, "line": line, **result}
                out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return errors
