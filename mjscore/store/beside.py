"""What the table page holds for an evening's next hand, kept on disk beside the evening's file
(`.NAME.next`), so that a server stopped and started again gives the phones back what they typed.

The file is private to the user (0600, made by mkstemp), written whole or not at all (a
temporary file flushed and renamed over it) under the evening's own lock (`store.lock`), so
that it is never half-written and never written while `add` or `undo` changes the evening. It
is read as every file mjscore reads may have been written by someone else: never through a
link, never a FIFO, only a regular file of the user's own, within a size limit.  What it holds
is checked by its reader (`api.NextHand`); here it is only bytes.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from mjscore.model.errors import InputError, Location
from mjscore.store.atomic import _uid, target_of
from mjscore.store.lock import locked

MAX_NEXT_BYTES = 256 * 1024     # four lines of at most 4 KiB and 64 penalties come to far less
_SUFFIX = ".next"
_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def next_path(evening: str) -> str:
    """The file that holds an evening's next hand: `.NAME.next` beside the evening's file (its
    target, when the evening is a link), hidden as its lock file is."""
    folder, base = os.path.split(os.path.abspath(target_of(evening)))
    return os.path.join(folder, f".{base}{_SUFFIX}")


def write_next(evening: str, data: bytes | None) -> None:
    """Replace what is kept for the evening's next hand with `data` (None: nothing is kept, the
    file removed), under the evening's lock; InputError when it cannot be written."""
    path = next_path(evening)
    folder = os.path.dirname(path)
    with locked(target_of(evening), evening):
        if data is None:
            with contextlib.suppress(FileNotFoundError):
                if not stat.S_ISDIR(os.lstat(path).st_mode):
                    os.unlink(path)
            return
        try:
            # mkstemp makes the file 0600: what players typed is nobody else's to read.  Named
            # `.NAME.next.XXXX.tmp`, so that the lock's holder removes one a killed writer left.
            fd, tmp = tempfile.mkstemp(prefix=f"{os.path.basename(path)}.", suffix=".tmp", dir=folder)
        except OSError as e:
            raise InputError(f"cannot keep the next hand beside the evening: {e.strerror or e}",
                             Location(evening)) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)           # a link planted at `path` is replaced, never followed
        except BaseException as e:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            if isinstance(e, OSError):
                raise InputError(f"cannot keep the next hand beside the evening: {e.strerror or e}",
                                 Location(evening)) from None
            raise


def read_next(evening: str) -> bytes | None:
    """What is kept for the evening's next hand; None when there is nothing, or nothing that
    can be trusted (a link, not a regular file, another user's, too large)."""
    path = next_path(evening)
    if not getattr(os, "O_NOFOLLOW", 0) and os.path.islink(path):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | _FLAGS)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        uid = _uid()
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_NEXT_BYTES or (uid is not None and st.st_uid != uid):
            return None
        data = f.read(MAX_NEXT_BYTES + 1)
    return data if len(data) <= MAX_NEXT_BYTES else None
