"""An evening kept as a growing file: hands appended one at a time, the last one taken back.

The file stays the plain compact notation a person can read and edit (a header block naming the
players, then hands separated by `---`); `mjscore session` plays it back.  A hand is checked
by playing the whole evening with it before anything is written, and the file is replaced in
one step (a new file in the same folder, then renamed over the old one), so it is never left
half-written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from collections.abc import Mapping
from typing import Any, NamedTuple

from mjscore.evening.session import SessionResult, play
from mjscore.pipeline import EMPTY
from mjscore.io.notation import print_table
from mjscore.io.sessionfile import read_session
from mjscore.io.text import MAX_INPUT_BYTES, decode, looks_like_yaml, read_bytes
from mjscore.model.errors import InputError, Location, MjError, SessionError
from mjscore.model.settings import SETTINGS, header_lines

_TABLE_SETTINGS = frozenset(s.name for s in SETTINGS)


class Added(NamedTuple):
    evening: SessionResult          # the whole evening, the new hand last
    created: bool                   # the file was made by this call


class Removed(NamedTuple):
    text: str                       # the hand as it stood in the file
    evening: SessionResult          # the evening without it


def hand_lines(text: str) -> str:
    """A hand typed on one line (`E: ...; S: ...`) as the file keeps it: a line per player."""
    out: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        body, hash_, comment = line.partition("#")
        parts = [p.strip() for p in body.split(";")]
        out.extend(p for p in parts[:-1] if p)
        last = parts[-1] + (("  " if parts[-1] else "") + hash_ + comment if hash_ else "")
        if last.strip():
            out.append(last)
    return "\n".join(out) + "\n"


def header(players: tuple[str, ...], start: int | None, scheme: str | None, settings: Mapping[str, Any]) -> str:
    lines = [f"players {' '.join(players)}"]
    if start is not None:
        lines.append(f"start {start}")
    if scheme:
        lines.append(f"scheme {scheme}")
    return "\n".join(lines) + "\n" + header_lines(settings)


def add_hand(path: str, hand: str, *, players: tuple[str, ...] | None = None, start: int | None = None,
             scheme: str | None = None, settings: Mapping[str, Any] = EMPTY, hand_name: str = "<hand>") -> Added:
    """Append one hand (compact notation; `;` may break its lines) to the evening in `path`.

    A file that does not exist yet is made, its header naming `players` (and `start`,
    `scheme` and the `settings` given, model.settings); for an existing file, the table's
    settings become the hand's own headers (the evening's, such as the rotation, stay the
    header's to change).  Raises MjError, and writes nothing, when the hand or the evening is
    wrong.
    """
    options = {k: v for k, v in settings.items() if v is not None}
    exists = os.path.lexists(path)
    if exists:
        text = _read(path)
        session = read_session(text, path)
        if players is not None and tuple(players) != session.header.names:
            raise SessionError(f"the evening already names its players ({' '.join(session.header.names)}); "
                               "leave out --players", Location(path))
        if start is not None or scheme:
            raise SessionError("the evening's header already stands: --start and --scheme are for a new file "
                               "(edit the header to change them)", Location(path))
        evening_only = [k for k in options if k not in _TABLE_SETTINGS]
        if evening_only:
            raise SessionError(f"the evening's header already stands: --{evening_only[0].replace('_', '-')} is for a "
                               "new file (edit the header to change it)", Location(path))
        new = text.rstrip("\n") + "\n---\n" + header_lines(options) + hand_lines(hand)
    else:
        if players is None:
            raise InputError("no such evening file: name the players to start one (--players A B C D)",
                             Location(path))
        new = header(tuple(players), start, scheme, options) + "---\n" + hand_lines(hand)
    before = new[:len(new) - len(hand_lines(hand))].count("\n")   # lines of the file above the new hand
    try:
        evening = play(read_session(new, path))      # the new hand is checked with all the rest
    except MjError as e:
        if e.location.file == path and e.location.line > before:
            # Point into what was typed, not at a line of a file that was never written.
            e.location = Location(hand_name, e.location.line - before, e.location.column)
        raise
    _replace(path, new)
    return Added(evening, not exists)


def remove_last_hand(path: str) -> Removed:
    """Take the evening's last hand out of its file; raises MjError when there is none."""
    text = _read(path)
    lines = text.rstrip("\n").split("\n")
    cut = max((n for n, line in enumerate(lines) if line.strip() == "---"), default=None)
    if cut is None or not any(line.split("#", 1)[0].strip() for line in lines[cut + 1:]):
        raise SessionError("the evening has no hand to take back", Location(path))
    first_hand = min(n for n, line in enumerate(lines) if line.strip() == "---")
    kept = "\n".join(lines[:cut]) + "\n"
    removed = "\n".join(lines[cut + 1:]) + "\n"
    if cut == first_hand:
        kept = "\n".join(lines[:cut]) + "\n---\n"                # the header block stays a header block
    evening = play(read_session(kept, path), keep_going=True)
    _replace(path, kept)
    return Removed(removed, evening)


def print_session(text: str, name: str, style: str = "text") -> str:
    """A session file in canonical form: its header block (the players' names kept), then every
    hand by the seats it was played at, so that the printout plays again to the same evening."""
    session = read_session(text, name)
    evening = play(session)
    h = session.header
    out = [header(h.names, h.start if h.start != 2000 else None, h.scheme, dict(h.options)).rstrip("\n")]
    for source, hand in zip(session.hands, evening.hands):
        out.append(print_table(source.read({n: s.value for s, n in hand.names.items()}), style=style).rstrip("\n"))
    return "\n---\n".join(out) + "\n"


def _read(path: str) -> str:
    if looks_like_yaml("", path):
        raise SessionError("'add' and 'undo' keep an evening in the compact notation (.mj); a YAML session "
                           "is edited by hand", Location(path))
    return decode(read_bytes(path, MAX_INPUT_BYTES, what="evening file"), path)


def _replace(path: str, text: str) -> None:
    """Write the file whole or not at all: a new file beside it, flushed, then renamed over it."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise InputError(f"cannot write beside the evening file: {e.strerror or e}", Location(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        os.replace(tmp, target)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise InputError(f"cannot write the evening file: {e.strerror or e}", Location(path)) from None


