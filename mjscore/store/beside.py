"""What the table page holds for an evening's next hand, kept on disk beside the evening's file
(`.NAME.next`), so that a server stopped and started again gives the phones back what they typed.

The file is private to the user (0600, made by mkstemp), written whole or not at all (a
temporary file flushed and renamed over it) under the evening's own lock (`store.lock`), so
that it is never half-written and never written while `add` or `undo` changes the evening. It
is read as every file mjscore reads may have been written by someone else: never through a
link, never a FIFO, only a regular file of the user's own, within a size limit.  What it holds
is checked by its reader (`evening.next_hand`); here it is only bytes.
"""

from __future__ import annotations

import contextlib
import os
import stat

from mjscore.store.atomic import replace, target_of
from mjscore.store.cache_folder import BINARY, NOFOLLOW, NONBLOCK, private
from mjscore.store.lock import locked

MAX_NEXT_BYTES = 256 * 1024     # four lines of at most 4 KiB and 64 penalties come to far less
_SUFFIX = ".next"


def next_path(evening: str) -> str:
    """The file that holds an evening's next hand: `.NAME.next` beside the evening's file (its
    target, when the evening is a link), hidden as its lock file is."""
    folder, base = os.path.split(os.path.abspath(target_of(evening)))
    return os.path.join(folder, f".{base}{_SUFFIX}")


def write_next(evening: str, text: str | None) -> None:
    """Replace what is kept for the evening's next hand with `text` (None: nothing is kept, the
    file removed), under the evening's lock, as the evening itself is written (`store.atomic`:
    whole or not at all, never through a link), made 0600; InputError when it cannot be written."""
    path = next_path(evening)
    with locked(target_of(evening), evening):
        if text is not None:
            replace(path, text, display=evening, private=True)
            return
        with contextlib.suppress(FileNotFoundError):
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                os.unlink(path)


def read_next(evening: str) -> bytes | None:
    """What is kept for the evening's next hand; None when there is nothing, or nothing that
    can be trusted: by the cache's rules (`cache_folder.private`), never through a link, never a
    FIFO, only a regular file of the user's own that nobody else may write, within a size limit."""
    path = next_path(evening)
    if not NOFOLLOW and os.path.islink(path):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | BINARY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_NEXT_BYTES or not private(st):
            return None
        data = f.read(MAX_NEXT_BYTES + 1)
    return data if len(data) <= MAX_NEXT_BYTES else None
