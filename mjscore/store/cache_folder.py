"""The user's cache folder, and how a file in it is trusted: what the scheme cache
(`store.scheme_cache`) and the evenings' checkpoints (`store.checkpoints`) both keep there.

The folder is `$MJSCORE_CACHE_DIR`, `$XDG_CACHE_HOME/mjscore`, or else the system's user cache
folder as platformdirs names it (`~/.cache/mjscore` on Linux, computed there without importing
it, `~/Library/Caches/mjscore` on macOS, `%LOCALAPPDATA%\\mjscore\\Cache` on Windows);
`MJSCORE_CACHE_DIR=""` turns both off.  It is used only when it belongs to the current user and
nobody else may write to it (on Windows, which has neither user ids nor POSIX modes, the
folder's place in the user's own profile and the link checks stand in for the owner check: see
`private`).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path


def fingerprint(data: bytes) -> str:
    """The content's fingerprint: what a cache entry is found by and a checkpoint's chain is made of."""
    return hashlib.sha256(data).hexdigest()


# Opening an entry never follows a link and never waits (a FIFO planted in the folder opens at
# once, and is then refused, being no regular file).  Windows has neither flag: there a link is
# refused by the lstat checks (`usable_dir` and `load`), and there are no FIFOs in a folder.
# O_BINARY (Windows only) keeps the bytes as they are: no CRLF translation.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
BINARY = getattr(os, "O_BINARY", 0)


def cache_dir() -> Path | None:
    env = os.environ.get("MJSCORE_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME")      # honoured as it is, on every system
    if base:
        return Path(base) / "mjscore"
    if sys.platform.startswith("linux"):
        # What platformdirs names on Linux (tests/test_platforms.py holds them equal), without
        # importing it: 27 M instructions, 4% of a one-hand `score`.
        return Path(os.path.expanduser("~"), ".cache", "mjscore")
    import platformdirs                          # macOS, Windows and the rest: the system's folder

    return Path(platformdirs.user_cache_dir("mjscore", appauthor=False))


def private(st: os.stat_result) -> bool:
    """Owned by the current user, and writable by nobody else.

    Where there are no user ids (Windows) the owner and mode bits say nothing (st_uid is 0, and
    the mode shows only the read-only flag): the check is skipped there, and the cache is trusted
    for being in the user's own profile folder, which others cannot write to by default."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    return st.st_uid == getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def usable_dir(create: bool) -> Path | None:
    d = cache_dir()
    if d is None:
        return None
    try:
        if create and not os.path.lexists(d):
            os.makedirs(d, mode=0o700, exist_ok=True)
        st = os.lstat(d)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or not private(st):
        return None                  # a link, or a folder others could plant entries in: not ours to trust
    return d
