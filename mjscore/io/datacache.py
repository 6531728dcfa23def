"""A cache of parsed YAML data files (schemes, payoff tables), kept as JSON beside the user's caches.

Start-up is what a player at the table feels, and parsing YAML (and importing the YAML library)
is most of what a one-hand `mjscore score` spends on its scheme.  The parsed, checked data of a
file is stored as JSON under `$MJSCORE_CACHE_DIR`, `$XDG_CACHE_HOME/mjscore` or `~/.cache/mjscore`,
keyed by the file's path, size and modification time and mjscore's version; any change to the
file, or any problem with the cache, means the file is read again.  Set MJSCORE_CACHE_DIR to an
empty string to turn the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from mjscore.version import __version__


def cache_dir() -> Path | None:
    env = os.environ.get("MJSCORE_CACHE_DIR")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjscore"


def _stamp(path: Path) -> list:
    st = path.stat()
    return [str(path.resolve()), st.st_size, st.st_mtime_ns]


def _entry(key: str) -> Path | None:
    d = cache_dir()
    if d is None:
        return None
    return d / (hashlib.sha1(key.encode("utf-8")).hexdigest() + ".json")


def load(key: str):
    """The cached data for `key`, or None when there is none or a file it came from changed."""
    entry = _entry(key)
    if entry is None:
        return None
    try:
        record = json.loads(entry.read_text(encoding="utf-8"))
        if record.get("version") != __version__:
            return None
        for stamp in record["files"]:
            if _stamp(Path(stamp[0])) != stamp:
                return None
        return record["data"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(key: str, files: list[Path], data) -> None:
    """Remember `data`, read from `files`; quietly does nothing if it cannot write."""
    entry = _entry(key)
    if entry is None:
        return
    try:
        record = {"version": __version__, "files": [_stamp(f) for f in files], "data": data}
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(record), encoding="utf-8")
        os.replace(tmp, entry)
    except (OSError, TypeError, ValueError):
        pass
