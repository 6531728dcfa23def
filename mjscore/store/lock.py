"""The lock of a file that people keep (an evening): one writer at a time.

A change takes an exclusive lock on a lock file beside the file (`.NAME.lock`, made 0600 without
following a link), so two writers at once never lose a hand: each re-reads the file under the
lock before it changes it (`evening.journal`).  A writer that cannot get the lock within a few
seconds gives up and writes nothing.  POSIX locks with flock; where there is no fcntl (Windows)
the lock is filelock's lock of the descriptor.  Holding the lock, a writer first removes the
temporary files a killed writer left (`store.atomic`): no other writer can be making one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Iterator

from mjscore.model.errors import InputError, Location
from mjscore.model.say import _
from mjscore.store.atomic import remove_stale_temps

LOCK_WAIT = 5.0                 # seconds a writer waits for another to finish
_POLL = 0.02


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
            raise OSError(errno.ELOOP, _("its lock file is a link"))
        fd = os.open(lock_path, flags, 0o600)
    except OSError as e:
        why = (_("its lock file belongs to another user") if e.errno == errno.EACCES and os.path.lexists(lock_path)
               else _("its folder must be writable"))
        raise InputError(_("cannot lock the file for writing ({error}): {why}").format(error=e.strerror or e, why=why),
                         Location(name)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(_("cannot lock the file for writing: its lock file is not a regular file"),
                             Location(name))
        _acquire(fd, name, wait)
        remove_stale_temps(folder, base)
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
                raise InputError(_("cannot lock the file for writing: {why}").format(why=e.strerror or e),
                                 Location(name)) from None
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
            raise InputError(_("cannot lock the file for writing: {why}").format(why=e.strerror or e),
                             Location(name)) from None
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
    return InputError(_("another writer is changing this file and did not finish within {wait} seconds; nothing was "
                        "written (try again)").format(wait=f"{wait:g}"), Location(name))
