"""A cache of parsed YAML data files (schemes, payoff tables), kept as JSON beside the user's caches.

Start-up is what a player at the table feels, and importing the YAML library and parsing a
scheme is most of what a one-hand `mjscore score` would spend on its scheme (about 15 ms of
about 200).  The parsed data of a file is stored as JSON in the user's cache folder
(`store.cache_folder`); `MJSCORE_CACHE_DIR=""` turns the cache off.

The cache is a convenience, never an authority:

- it is used only in a folder that belongs to the current user and that nobody else may write
  to, and an entry is read only when it is a regular file of the user's, not a link
  (`store.cache_folder`);
- an entry is found by the content of the file it was made from (and mjscore's version), and
  holds the content fingerprints of every other file that went into it (a scheme's `extends:`
  chain): any change to any of them, even one that keeps the size and the time, misses;
- what comes out of it goes through the same checks as freshly read YAML, and any doubt (a
  broken entry, a check that fails) means the YAML is read again;
- entries are written to a new file that is never a link (created exclusively, not followed)
  and then renamed into place; data whose JSON would be larger than its source allows is not
  cached at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
from collections.abc import Callable

from mjscore.store.cache_folder import BINARY, NOFOLLOW, NONBLOCK, fingerprint, private, usable_dir
from mjscore.version import __version__

MAX_ENTRY_BYTES = 4 * 1024 * 1024
EXPANSION = 16            # an entry's JSON may be at most this many times its sources' bytes (+ 64 KiB)


def _key(kind: str, path: str, source: str) -> str:
    return fingerprint(f"{__version__}\0{kind}\0{path}\0{source}".encode())


def load(kind: str, path: str, source: str, reread: Callable[[str], str | None]) -> object | None:
    """The data cached for the file `path` whose content has the fingerprint `source`, or None.

    `reread(path)` gives the current fingerprint of another file the entry depends on; every one
    must match.
    """
    d = usable_dir(create=False)
    if d is None:
        return None
    key = _key(kind, path, source)
    try:
        entry = d / f"{key}.json"
        if not NOFOLLOW and os.path.islink(entry):
            return None                  # no O_NOFOLLOW (Windows): a link is refused here instead
        fd = os.open(entry, os.O_RDONLY | NOFOLLOW | NONBLOCK | BINARY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or not private(st) or st.st_size > MAX_ENTRY_BYTES:
                return None
            record = json.loads(f.read(MAX_ENTRY_BYTES + 1))
        if not isinstance(record, dict) or record.get("key") != key:
            return None
        for dep_path, dep_fp in record["depends"]:
            if reread(dep_path) != dep_fp:
                return None
        data: object = record["data"]
        return data
    except Exception:       # noqa: BLE001 -- any doubt about an entry means the file is read again
        return None


def store(kind: str, path: str, source: str, depends: list[tuple[str, str]], source_bytes: int, data: object) -> None:
    """Remember `data`, parsed from `path` (fingerprint `source`) and the files in `depends`
    ((path, fingerprint) each, together `source_bytes` long); quietly does nothing when it
    cannot, or when the data is larger than its sources allow."""
    d = usable_dir(create=True)
    if d is None:
        return
    key = _key(kind, path, source)
    try:
        text = json.dumps({"key": key, "depends": depends, "data": data}, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return
    if len(text) > min(MAX_ENTRY_BYTES, 65536 + EXPANSION * source_bytes):
        return
    tmp = d / f".{key}.{secrets.token_hex(8)}.tmp"
    try:
        # O_EXCL alone refuses an existing name, a link included, where there is no O_NOFOLLOW.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | BINARY | getattr(os, "O_CLOEXEC", 0), 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, d / f"{key}.json")
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
