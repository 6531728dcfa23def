"""Writing a file that people keep (an evening) whole or not at all, and still theirs.

- The file is replaced in one step: the new text goes to a temporary file in the same folder,
  flushed to disk, then renamed over the old one; a `kill -9` at any moment leaves the old file or
  the new one, and a temporary file left by such a kill is removed by the next writer, under the
  file's lock (`store.lock`).
- A link is written through to the file it points at; a read-only file, or one that belongs to
  another user, is refused rather than replaced by one of the writer's own; a new file gets the
  mode the umask gives; the file's line ends (CRLF) and byte-order mark are kept.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from mjscore.model.errors import InputError, Location
from mjscore.model.say import _

_TEMP_PREFIX, _TEMP_SUFFIX = ".", ".tmp"


def target_of(path: str) -> str:
    """The file a change is written to: a link's target (followed all the way), else the path."""
    return os.path.realpath(path) if os.path.islink(path) else path


def remove_stale_temps(folder: str, base: str) -> None:
    """Temporary files of this file left by a writer that was killed (the lock is ours, so no
    writer is making one now): removed, when they are ours to remove."""
    prefix = f"{_TEMP_PREFIX}{base}."
    try:
        names = [n for n in os.listdir(folder or ".") if n.startswith(prefix) and n.endswith(_TEMP_SUFFIX)]
    except OSError:
        return
    for n in names:
        p = os.path.join(folder, n)
        with contextlib.suppress(OSError):
            st = os.lstat(p)
            # No user ids (Windows): a file in the folder we may delete from is taken for ours.
            if stat.S_ISREG(st.st_mode) and (_uid() is None or st.st_uid == _uid()):
                os.unlink(p)


def _uid() -> int | None:
    """The user's id; None where there are none (Windows: files' owners are not uids there)."""
    getuid = getattr(os, "getuid", None)
    return None if getuid is None else int(getuid())


def check_writable(path: str, display: str | None = None) -> None:
    """Refuse to change a file its owner made read-only, or one of another user's."""
    name = display or path
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise InputError(_("cannot write the file: {why}").format(why=e.strerror or e), Location(name)) from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(_("is not a regular file: only a regular file is written"), Location(name))
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise InputError(_("the file is read-only: nothing was written (make it writable to change it)"),
                         Location(name))
    # Skipped where there are no user ids (Windows: st_uid is always 0 there); Windows itself
    # refuses, by the file's ACL, to let a writer replace a file that is not theirs to change.
    uid = _uid()
    if uid is not None and st.st_uid != uid and uid != 0:
        raise InputError(_("the file belongs to another user: mjscore changes only your own files (nothing was "
                           "written)"), Location(name))


def replace(path: str, text: str, *, like: bytes | None = None, display: str | None = None,
            private: bool = False) -> None:
    """Write `text` to `path` whole or not at all: a new file beside it, flushed, renamed over it.

    `like` is the file's old content: its byte-order mark and CRLF line ends are kept.  An
    existing file keeps its mode (and, written by root, its owner); a new one gets the mode the
    umask gives.  A `private` file is 0600 whatever stood there (what players typed, kept beside
    their evening)."""
    name = display or path
    data = encode(text, like)
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        old = os.stat(path)
    except OSError:
        old = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f"{_TEMP_PREFIX}{target.name}.", suffix=_TEMP_SUFFIX, dir=folder)
    except OSError as e:
        raise InputError(_("cannot write beside the file: {why}").format(why=e.strerror or e), Location(name)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if private:
            pass                                            # mkstemp made it 0600, whatever stood there
        elif old is not None:
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
            if _uid() == 0 and (old.st_uid, old.st_gid) != (0, 0):
                os.chown(tmp, old.st_uid, old.st_gid)      # root keeps another user's file theirs
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise InputError(_("cannot write the file: {why}").format(why=e.strerror or e), Location(name)) from None
        raise


def encode(text: str, like: bytes | None = None) -> bytes:
    """The bytes of `text` (its line ends `\\n`), with the byte-order mark and the CRLF line ends
    of `like`, the file's old content, when it had them."""
    if like is not None and b"\r\n" in like:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if like is not None and like.startswith(b"\xef\xbb\xbf"):
        data = b"\xef\xbb\xbf" + data
    return data
