"""Standard output as the command line writes it: a failure to write is an error the command can
tell apart from every other (a full disk, a closed stream), so that its exit status can say
truthfully what was done.

`main` puts `sys.stdout` behind `Output`; a stream closed before mjscore started (`>&-`) becomes
`Closed`, which refuses every write, and file descriptor 1 is held on the null device so that no
file mjscore opens can take its number.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, TextIO

from mjscore.model.say import _


class OutputError(Exception):
    """Standard output cannot be written (the disk is full, the stream is closed, ...)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Output:
    """A text stream whose write and flush failures are OutputError (a reader that went away,
    BrokenPipeError, stays itself: the command stops quietly)."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(e.strerror or str(e)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(e.strerror or str(e)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class Closed:
    """Standard output that was closed before mjscore started: nothing can be written to it."""

    encoding = "utf-8"
    errors = "backslashreplace"

    def write(self, text: str) -> int:
        raise OutputError(_("{why} (standard output is closed)").format(why=os.strerror(errno.EBADF)))

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1


def install() -> None:
    """Put standard output behind `Output` (or `Closed`), and make both streams escape what the
    terminal cannot show rather than fail on it (LC_ALL=C, a Latin-1 terminal)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)      # a TextIOWrapper's (or one behind Output)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    if sys.stdout is None:
        _hold(1)
        sys.stdout = Closed()            # a stand-in with the stream's methods
    else:
        sys.stdout = Output(sys.stdout)  # the same stream, its failures told apart
    if sys.stderr is None:
        _hold(2)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - standard error for the rest of the run


def silence() -> None:
    """Nothing more can be written: what is still buffered, and what comes, goes nowhere."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.close(fd)
    except OSError:
        pass
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - standard output for the rest of the run


def _hold(fd: int) -> None:
    """Keep a closed descriptor's number taken (by the null device), so that no file opened later
    is written through it by mistake."""
    try:
        os.fstat(fd)
    except OSError:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
