"""Writing a file that people keep (an evening): under a lock, whole or not at all, still theirs.

- A change takes an exclusive lock on a lock file beside the file (`.NAME.lock`, made without
  following a link), so two writers at once never lose a hand: each re-reads the file under the
  lock before it changes it.  A writer that cannot get the lock within a few seconds gives up
  and writes nothing.
- The file is replaced in one step: the new text goes to a temporary file in the same folder,
  flushed to disk, then renamed over the old one; a `kill -9` at any moment leaves the old file or
  the new one, and a temporary file left by such a kill is removed by the next writer (it holds
  the lock, so no other writer can be writing one).
- A link is written through to the file it points at; a read-only file, or one that belongs to
  another user, is refused rather than replaced by one of the writer's own; a new file gets the
  mode the umask gives; the file's line ends (CRLF) and byte-order mark are kept.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from mjscore.model.errors import InputError, Location

LOCK_WAIT = 5.0                 # seconds a writer waits for another to finish
_POLL = 0.02
_TEMP_PREFIX, _TEMP_SUFFIX = ".", ".tmp"


def target_of(path: str) -> str:
    """The file a change is written to: a link's target (followed all the way), else the path."""
    return os.path.realpath(path) if os.path.islink(path) else path


@contextlib.contextmanager
def locked(path: str, display: str | None = None, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold the exclusive lock of `path` (its lock file beside it) for the block; InputError when
    another writer holds it for longer than `wait` seconds, or the lock cannot be made."""
    name = display or path
    folder, base = os.path.split(os.path.abspath(path))
    lock_path = os.path.join(folder, f".{base}.lock")
    # Read-only: a lock is taken on any descriptor, so a lock file another writer made serves too.
    # Made 0600: a lock file another local user could open is one they could hold for ever.
    # Windows has neither O_NOFOLLOW nor O_NONBLOCK: there a link in the lock file's place is
    # refused by os.path.islink just before, and a folder holds no FIFOs to block on.
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    flags = (os.O_RDONLY | os.O_CREAT | nofollow | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_CLOEXEC", 0))          # a FIFO in its place opens at once, and is refused
    try:
        if not nofollow and os.path.islink(lock_path):
            raise OSError(errno.ELOOP, "its lock file is a link")
        fd = os.open(lock_path, flags, 0o600)
    except OSError as e:
        why = ("its lock file belongs to another user" if e.errno == errno.EACCES and os.path.lexists(lock_path)
               else "its folder must be writable")
        raise InputError(f"cannot lock the file for writing ({e.strerror or e}): {why}", Location(name)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError("cannot lock the file for writing: its lock file is not a regular file", Location(name))
        _acquire(fd, name, wait)
        _remove_stale_temps(folder, base)
        yield
    finally:
        _release(fd)


def _acquire(fd: int, name: str, wait: float) -> None:
    try:
        import fcntl
    except ImportError:                  # not a POSIX system (Windows): filelock's lock of the descriptor
        _acquire_windows(fd, name, wait)
        return
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise InputError(f"cannot lock the file for writing: {e.strerror or e}", Location(name)) from None
        if time.monotonic() >= deadline:
            raise _busy(name, wait)
        time.sleep(_POLL)


def _acquire_windows(fd: int, name: str, wait: float) -> None:
    """The lock where there is no fcntl: filelock's lock of a descriptor we opened (on Windows
    LockFileEx of its first byte, the lock its FileLock takes; tested there by filelock), taken
    without blocking and tried again until `wait` runs out, as flock is above.  `_release`
    undoes it before the descriptor is closed: Windows frees a closed file's lock only later."""
    import filelock

    deadline = time.monotonic() + wait
    while True:
        try:
            if filelock.lock_descriptor(fd, blocking=False):
                return
        except OSError as e:
            raise InputError(f"cannot lock the file for writing: {e.strerror or e}", Location(name)) from None
        if time.monotonic() >= deadline:
            raise _busy(name, wait)
        time.sleep(_POLL)


def _release(fd: int) -> None:
    """Closing the descriptor releases the lock; where filelock took it (no fcntl), it is undone first."""
    try:
        import fcntl  # noqa: F401  # only whether it is there: flock's lock goes with the descriptor
    except ImportError:
        import filelock

        with contextlib.suppress(OSError):
            filelock.unlock_descriptor(fd)
    os.close(fd)


def _busy(name: str, wait: float) -> InputError:
    return InputError(f"another writer is changing this file and did not finish within {wait:g} seconds; "
                      "nothing was written (try again)", Location(name))


def _remove_stale_temps(folder: str, base: str) -> None:
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
        raise InputError(f"cannot write the file: {e.strerror or e}", Location(name)) from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError("is not a regular file: only a regular file is written", Location(name))
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise InputError("the file is read-only: nothing was written (make it writable to change it)", Location(name))
    # Skipped where there are no user ids (Windows: st_uid is always 0 there); Windows itself
    # refuses, by the file's ACL, to let a writer replace a file that is not theirs to change.
    uid = _uid()
    if uid is not None and st.st_uid != uid and uid != 0:
        raise InputError("the file belongs to another user: mjscore changes only your own files "
                         "(nothing was written)", Location(name))


def replace(path: str, text: str, *, like: bytes | None = None, display: str | None = None) -> None:
    """Write `text` to `path` whole or not at all: a new file beside it, flushed, renamed over it.

    `like` is the file's old content: its byte-order mark and CRLF line ends are kept.  An
    existing file keeps its mode (and, written by root, its owner); a new one gets the mode the
    umask gives."""
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
        raise InputError(f"cannot write beside the file: {e.strerror or e}", Location(name)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if old is not None:
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
            raise InputError(f"cannot write the file: {e.strerror or e}", Location(name)) from None
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
