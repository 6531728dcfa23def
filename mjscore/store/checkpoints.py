"""Evenings' checkpoints, kept in the user's cache: a file of JSON lines per evening, one record
per hand played (the hand's result and the evening's state after it), so that `add` plays only
the hand it adds and `session` reads what it has played before.

This module only keeps the lines; what a record holds, and whether it belongs to the evening
as it stands now, is `mjscore.evening.resume`'s to say.  The trust rules are the scheme
cache's (`store.cache_folder`): the folder must be the user's own and writable by nobody else, a
file is opened without following links and read only when it is a regular file of the user's,
within a size limit; a record is never believed before it is checked, and any doubt (a broken
line, a file that is not as it should be) means the evening is played again.  Writing is
best-effort: a cache that cannot be written leaves things as they were.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from mjscore.store.cache_folder import BINARY, NOFOLLOW, NONBLOCK, private, usable_dir

MAX_FILE_BYTES = 256 * 1024 * 1024      # a season of 5,000 hands keeps about 15 MB
MAX_RECORD_BYTES = 1024 * 1024
_TAIL = 64 * 1024                      # the first read from the end: several records' worth
# Never a link, and never a wait: a FIFO planted in the folder opens at once (and is then
# passed over, being no regular file) instead of blocking until someone writes to it.  Windows
# has neither flag (nor FIFOs in a folder): there `_open` refuses a link by os.path.islink, and
# O_BINARY keeps the byte offsets the records are found by.
_FLAGS = NOFOLLOW | NONBLOCK | BINARY | getattr(os, "O_CLOEXEC", 0)


class Record(NamedTuple):
    start: int          # where its line starts in the file, and where the next one starts
    end: int
    data: Any           # the line's JSON value, unchecked


def folder(create: bool) -> Path | None:
    base = usable_dir(create)
    if base is None:
        return None
    d = base / "evenings"
    try:
        if create and not os.path.lexists(d):
            os.mkdir(d, 0o700)
        st = os.lstat(d)
    except OSError:
        return None
    return d if stat.S_ISDIR(st.st_mode) and private(st) else None


def _open(key: str, flags: int) -> int | None:
    d = folder(create=bool(flags & os.O_CREAT))
    if d is None:
        return None
    path = d / f"{key}.jsonl"
    if not NOFOLLOW and os.path.islink(path):
        return None
    try:
        fd = os.open(path, flags | _FLAGS, 0o600)
    except OSError:
        return None
    st = os.fstat(fd)
    # Too large to read is too large to believe; a writer cuts it down (`write`), so that the
    # evening keeps a checkpoint again.
    if not stat.S_ISREG(st.st_mode) or not private(st) or (st.st_size > MAX_FILE_BYTES and not flags & os.O_WRONLY):
        os.close(fd)
        return None
    return fd


def _records(data: bytes, base: int) -> Iterator[Record]:
    """The complete lines of `data` (read from offset `base`) as records; a line that is not
    JSON is skipped (another writer may have been cut short)."""
    at = 0
    while True:
        end = data.find(b"\n", at)
        if end < 0:
            return
        line = data[at:end]
        if len(line) <= MAX_RECORD_BYTES:
            try:
                record = json.loads(line)
            except ValueError:                  # a broken line is passed over
                pass
            else:
                yield Record(base + at, base + end + 1, record)
        at = end + 1


def read_all(key: str) -> list[Record]:
    """Every record of the evening's checkpoint, in the file's order ([] when there is none)."""
    fd = _open(key, os.O_RDONLY)
    if fd is None:
        return []
    with os.fdopen(fd, "rb") as f:
        return list(_records(f.read(MAX_FILE_BYTES + 1), 0))


def read_last(key: str, count: int) -> list[Record]:
    """The last `count` records (fewer when the file holds fewer), read from the end of the
    file: what an `add` or an `undo` needs, whatever the evening's length."""
    fd = _open(key, os.O_RDONLY)
    if fd is None:
        return []
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        span = _TAIL
        while True:
            start = max(0, size - span)
            f.seek(start)
            data = f.read(size - start)
            if start > 0:                       # the first line read may be cut: from the next one on
                cut = data.find(b"\n")
                data, start = (data[cut + 1:], start + cut + 1) if cut >= 0 else (b"", size)
            # Only the last `count` lines are decoded: a correction 100 hands back reads spans of
            # several hundred records to find its hand's, and decoding them all was most of its cost.
            # From the end back: the start of the last `count` complete lines.
            at = data.rfind(b"\n")
            for _ in range(count):
                if at < 0:
                    break
                at = data.rfind(b"\n", 0, at)
            if at >= 0 or start == 0 or span >= MAX_FILE_BYTES:
                return list(_records(data[at + 1:], start + at + 1))[-count:]
            span *= 4


def write(key: str, keep: int, records: list[Any]) -> None:
    """The checkpoint cut after its first `keep` bytes (the records still true of the evening),
    then `records` appended, one line each; quietly nothing when the cache cannot be written."""
    lines = b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
                     for r in records)
    if keep + len(lines) > MAX_FILE_BYTES:
        return
    fd = _open(key, os.O_WRONLY | os.O_CREAT)
    if fd is None:
        return
    try:
        size = os.fstat(fd).st_size
        keep = min(keep, size)
        if keep < size:
            os.ftruncate(fd, keep)
        os.lseek(fd, keep, os.SEEK_SET)
        while lines:
            lines = lines[os.write(fd, lines):]
    except OSError:
        pass
    finally:
        os.close(fd)
