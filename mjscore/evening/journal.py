"""An evening kept as a growing file: hands appended one at a time, the last one taken back.

The file stays the plain compact notation a person can read and edit (a header block naming the
players, then hands separated by `---`); `mjscore session` plays it back.  Every change holds the
evening's lock while it re-reads the file, checks the new evening by playing it whole, and
writes it (`store.lock`, `store.atomic`): two writers at once never lose or bring back a hand, and the file is
never left half-written.  The text checked is the text written: a hand is read as a file is
(line ends, bytes that are not UTF-8), and one hand only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from mjscore.evening.resume import play_file
from mjscore.evening.session import SessionResult, play
from mjscore.evening.words import finished_refusal
from mjscore.io.notation import print_table
from mjscore.io.reader import decode, normalise, yaml_by_name
from mjscore.io.sessionfile import HandSource, Session, player_names, read_session
# The evening file's bytes, read under its lock and written back like them (its line ends kept): no table is read.
from mjscore.io.text import MAX_INPUT_BYTES, read_bytes
from mjscore.store.atomic import check_writable, replace, target_of
from mjscore.store.lock import locked
from mjscore.model.errors import InputError, Location, MjError, SessionError
from mjscore.model.settings import EVENING, SETTINGS, header_lines
from mjscore.pipeline import EMPTY, named_in
from mjscore.rules.scheme import is_shipped_name, load_scheme
from mjscore.model.say import _, n_

_TABLE_SETTINGS = frozenset(s.name for s in SETTINGS)


class HandTakenError(SessionError):
    """The hand was to be hand N of the evening, and another writer added hand N first."""


class NotTheLastHandError(SessionError):
    """Hand N was to be taken back, and it is not the evening's last hand (another writer took it
    back first, or added a hand after it)."""


class HandChangedError(SessionError):
    """A correction of hand N started from a version of it that is no longer the file's (another
    phone, or the laptop, corrected it first): nothing was written."""


def hand_version(text: str) -> str:
    """What tells one text of a hand from another, as a correction names the hand it started from:
    its lines as the file holds them (the blank lines after it left out)."""
    return hashlib.sha256(text.rstrip().encode("utf-8", "surrogateescape")).hexdigest()[:16]


class Added(NamedTuple):
    evening: SessionResult          # the whole evening, the new hand last
    created: bool                   # the file was made by this call
    scheme: str | None = None       # a new evening's scheme, as its header names it (a path: from its folder)

    def to_dict(self) -> dict[str, Any]:
        """What `mjscore add --format json` prints: the hand added, and the evening as it stands."""
        e = self.evening
        return {"created": self.created, "players": list(e.players), "start": e.start,
                "hand": e.hands[-1].to_dict(), **e.summary()}


class Removed(NamedTuple):
    text: str                       # the hand as it stood in the file
    evening: SessionResult          # the evening without it

    def to_dict(self) -> dict[str, Any]:
        """What `mjscore undo --format json` prints: the hand taken out, and the evening without it."""
        e = self.evening
        return {"removed": self.text, "players": list(e.players), "start": e.start, "hands": len(e.hands),
                **e.summary()}


class Corrected(NamedTuple):
    number: int                     # the hand corrected
    old: str                        # its text as it stood in the file
    new: str                        # its text now
    before: dict[str, int]          # each player's total before the correction
    evening: SessionResult          # the evening with it

    def changed(self) -> dict[str, dict[str, int]]:
        """The totals the correction changed: name -> {before, after}."""
        after = self.evening.totals
        return {n: {"before": self.before[n], "after": after[n]} for n in after if after[n] != self.before.get(n)}

    def to_dict(self) -> dict[str, Any]:
        """What `mjscore edit --format json` prints: the hand as it was and is, what changed, and
        the evening as it stands."""
        e = self.evening
        return {"hand": e.hands[self.number - 1].to_dict(), "old": self.old, "new": self.new,
                "changed": self.changed(), "players": list(e.players), "start": e.start, **e.summary()}


def hand_lines(text: str) -> str:
    """A hand typed on one line (`E: ...; S: ...`) as the file keeps it: a line per player.
    The text's line ends are `\\n` already (`io.text.normalise`)."""
    out: list[str] = []
    for line in text.split("\n"):
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


def one_hand(text: str, name: str) -> str:
    """A hand as it was given (`-e`, a file, the prompt), read as a file is read, and refused
    when it holds no hand or more than one: the lines the evening file will hold."""
    text = normalise(text, name)
    lines = hand_lines(text)
    body = [ln for ln in lines.split("\n") if ln.split("#", 1)[0].strip()]
    if not body:
        raise InputError(_("holds no hand: write each player's line ('E: ...'), or 'draw'"), Location(name))
    if any(ln.strip() == "---" for ln in body):
        raise InputError(_("'---' separates hands: add one hand at a time"), Location(name), "---")
    return lines


def add_hand(path: str, hand: str, *, players: tuple[str, ...] | None = None, start: int | None = None,
             scheme: str | None = None, settings: Mapping[str, Any] = EMPTY, hand_name: str = "<hand>",
             number: int | None = None) -> Added:
    """Append one hand (compact notation; `;` may break its lines) to the evening in `path`.

    A file that does not exist yet is made, its header naming `players` (and `start`, `scheme`
    and the `settings` given, model.settings; a scheme file's path is written as the evening will
    read it, from the evening's folder); for an existing file, the table's settings become the
    hand's own headers (the evening's, such as the rotation and the stake, stay the header's to change).
    Raises MjError, and writes nothing, when the hand or the evening is wrong, or when another
    writer holds the evening for more than a few seconds.  With `number`, the hand must be that
    hand of the evening (HandTakenError when another writer has just added it: two phones
    sending the same hand add it once).
    """
    lines = one_hand(hand, hand_name)
    options = {k: v for k, v in settings.items() if v is not None}
    target = target_of(path)
    check_writable(target, path)        # first, to say why (another user's lock file is theirs: 0600)
    with locked(target, path):
        raw = _read_raw(target, path)
        if raw is not None:
            check_writable(target, path)
            text = decode(raw, path)
            kept = _without_trailing_separators(text)
            new = kept + "---\n" + header_lines(options) + lines
            session = read_session(new, path)       # read once (its header is the file's, its hands read as played)
            if players is not None and _given_names(players) != session.header.names:
                raise SessionError(_("the evening already names its players ({names}); leave out --players").format(
                    names=' '.join(session.header.names)), Location(path))
            if session.header.finished:
                raise SessionError(finished_refusal(), Location(path))
            if start is not None or scheme:
                raise SessionError(_("the evening's header already stands: --start and --scheme are for a new file "
                                   "(edit the header to change them)"), Location(path))
            evening_only = [k for k in options if k not in _TABLE_SETTINGS or k in EVENING]
            if evening_only:
                raise SessionError(_("the evening's header already stands: --{option} is for a new file (edit the "
                                     "header to change it)").format(option=evening_only[0].replace('_', '-')),
                                         Location(path))
        else:
            if players is None:
                raise InputError(_("no such evening file: name the players to start one (--players A B C D)"),
                                 Location(path))
            names = _given_names(players)
            scheme = _as_the_evening_reads_it(scheme, path)
            new = header(names, start, scheme, options) + "---\n" + lines
            session = read_session(new, path)
        before = new[:len(new) - len(lines)].count("\n")          # lines of the file above the new hand
        try:
            # The new hand is checked with all the rest (those the checkpoint holds as they were played).
            evening = play_file(session, target, every_hand=False)
        except MjError as e:
            if e.location.file == path and e.location.line > before:
                # Point into what was typed, not at a line of a file that was never written.
                e.location = Location(hand_name, e.location.line - before, e.location.column)
            raise
        if number is not None and len(evening.hands) != number:
            had = len(evening.hands) - 1
            if number > had:
                raise SessionError(_("the evening has {hands}; this would be hand {next}, not hand {number}: "
                                     "nothing was written").format(hands=_count_hands(had), next=had + 1,
                                                                   number=number), Location(path))
            raise HandTakenError(_("hand {number} is in the evening already (it has {had} hands before this one): "
                                   "nothing was written").format(number=number, had=had), Location(path))
        replace(target, new, like=raw, display=path)
    return Added(evening, raw is None, scheme if raw is None else None)


def start_evening(path: str, players: tuple[str, ...], *, start: int | None = None, scheme: str | None = None,
                  settings: Mapping[str, Any] = EMPTY, comment: str = "") -> bool:
    """Make a new evening's file with its header and no hand yet; False when the file is there
    already (it is left as it is).  `comment`: lines (each `# ...`) that head the header."""
    target = target_of(path)
    with locked(target, path):
        raw = _read_raw(target, path)
        if raw is not None and raw.strip():
            return False                # an empty file is no evening yet: it is started
        if raw is not None:
            check_writable(target, path)
        names = _given_names(players)
        as_read = _as_the_evening_reads_it(scheme, path)
        text = comment + header(names, start, as_read, {k: v for k, v in settings.items() if v is not None}) + "---\n"
        play(read_session(text, path))                           # the header is checked before it is written
        if as_read:
            # The scheme too, as the evening will read it: one it cannot would stop every hand.
            try:
                load_scheme(named_in(as_read, path))
            except MjError as e:
                raise type(e)(e.message, Location(scheme or path), e.token) from None
        replace(target, text, display=path)
    return True


def nth_hand(session: Session, number: int, path: str) -> HandSource:
    """Hand `number` of an evening as its file holds it, for a correction; SessionError when
    there is none."""
    if not 1 <= number <= len(session.hands):
        raise SessionError(_("the evening has {hands}: there is no hand {number} to correct").format(
            hands=_count_hands(len(session.hands)), number=number), Location(path))
    return session.hands[number - 1]


@contextlib.contextmanager
def _changing(path: str) -> Iterator[tuple[str, bytes, str]]:
    """An evening that exists, held for a change: (the file written, its bytes, its text), read
    under its lock and checked writable before the lock (to say why) and under it (to be sure)."""
    target = target_of(path)
    check_writable(target, path)
    with locked(target, path):
        raw = _read_raw(target, path)
        if raw is None:
            raise InputError(_("no such evening file"), Location(path))
        check_writable(target, path)
        yield target, raw, decode(raw, path)


def remove_last_hand(path: str, *, number: int | None = None) -> Removed:
    """Take the evening's last hand out of its file; raises MjError when there is none.  With
    `number`, only if that hand is the last (NotTheLastHandError otherwise, nothing written: two
    phones taking back the same hand take back one)."""
    with _changing(path) as (target, raw, text):
        body = _without_trailing_separators(text).rstrip("\n")
        # The last hand is found among the last lines, and the header's end from the top: a long
        # evening's lines are not all split and looked at (an undo at 2,000 hands: 8 ms of them).
        for most in (64, 4096, None):
            pieces = body.rsplit("\n", most) if most is not None else body.split("\n")
            whole = most is None or len(pieces) <= most
            lines = pieces if whole else pieces[1:]
            # The last hand that holds anything: empty hands after it (comments, an edit's `---`) go with it.
            separators = (n for n in range(len(lines) - 1, -1, -1) if lines[n].strip() == "---")
            cut = next((n for n in separators if any(line.split("#", 1)[0].strip() for line in lines[n + 1:])), None)
            if cut is not None or whole:
                break
        if cut is None:
            raise SessionError(_("the evening has no hand to take back"), Location(path))
        above = [] if whole else [pieces[0]]
        is_first_hand = (0 if whole else pieces[0].count("\n") + 1) + cut == _first_separator(body)
        kept = "\n".join(above + lines[:cut]) + "\n"
        removed = "\n".join(ln for ln in lines[cut + 1:] if ln.strip() != "---") + "\n"
        if is_first_hand:
            kept += "---\n"                                     # the header block stays a header block
        evening = play_file(read_session(kept, path), target, keep_going=True, every_hand=False)
        if number is not None and len(evening.hands) + 1 != number:
            last = len(evening.hands) + 1
            said = _("hand {number} is not in the evening (taken back already?): the last is hand {last}, and "
                     "nothing was taken back") if number > last else \
                _("hand {number} is not the evening's last hand: the last is hand {last}, and nothing was taken back")
            raise NotTheLastHandError(said.format(number=number, last=last), Location(path))
        replace(target, kept, like=raw, display=path)
    return Removed(removed, evening)


def replace_hand(path: str, number: int, hand: str, *, hand_name: str = "<hand>",
                 version: str | None = None) -> Corrected:
    """Replace hand `number` of the evening in `path` with `hand` (compact notation; `;` may
    break its lines) and play the hands after it again.  Raises MjError, and writes nothing, when
    the hand is wrong (its place in what was typed) or when a later hand is impossible after it
    (that hand named).  With `version` (`hand_version` of the text the correction started from),
    `HandChangedError` when the file holds another text of the hand now: read under the lock, so
    that of two corrections of one hand the second never silently undoes the first."""
    lines = one_hand(hand, hand_name)
    with _changing(path) as (target, raw, text):
        session = read_session(text, path)
        source = nth_hand(session, number, path)
        if version is not None and hand_version(source.text or "") != version:
            raise HandChangedError(_("hand {number} was changed after this correction of it began: nothing was "
                                     "written").format(number=number), Location(path))
        before = play_file(session, target, every_hand=False).totals
        file_lines = text.split("\n")
        first = source.line - 1                                   # its first line, from 0
        end = first + (source.text or "").count("\n") + 1          # up to the next `---` (or the end)
        old = "\n".join(file_lines[first:end]).rstrip("\n") + "\n"
        new_lines = lines.rstrip("\n").split("\n")
        at_end = end >= len(file_lines)
        new = "\n".join(file_lines[:first] + new_lines + ([""] if at_end else file_lines[end:]))
        changed = read_session(new, path)
        try:
            evening = play_file(changed, target, every_hand=False)
        except MjError as e:
            if e.location.file == path and first < e.location.line <= first + len(new_lines):
                e.location = Location(hand_name, e.location.line - first, e.location.column)
                raise
            later = next((k + 1 for k, h in enumerate(changed.hands) if h.line > e.location.line),
                         len(changed.hands) + 1) - 1
            raise SessionError(_("hand {later} would not be possible after the correction of hand {number}: {message} "
                                 "(nothing was written)").format(later=later, number=number, message=e.message),
                                     e.location, e.token) from None
        replace(target, new, like=raw, display=path)
    return Corrected(number, old, lines, dict(before), evening)


def print_session(text: str, name: str, style: str = "text") -> str:
    """A session file in canonical form: its header block (the players' names kept), then every
    hand by the seats it was played at, so that the printout plays again to the same evening."""
    session = read_session(text, name)
    evening = play(session)
    h = session.header
    out = [header(h.names, h.start if h.start != 2000 else None, h.scheme, dict(h.options)).rstrip("\n")]
    for source, hand in zip(session.hands, evening.hands, strict=True):
        out.append(print_table(source.read({n: s.value for s, n in hand.names.items()}), style=style).rstrip("\n"))
    return "\n---\n".join(out) + "\n"


def _count_hands(n: int) -> str:
    return _("no hand yet") if not n else n_("{n} hand", "{n} hands", n).format(n=n)


def _without_trailing_separators(text: str) -> str:
    """The file's text without the `---` lines and blank lines at its end (an edit may leave
    them): the next hand follows one separator, and undo finds the last hand.  Looked for from
    the end, a line at a time (the whole text split and joined again: 3 ms at 2,000 hands)."""
    body = text.rstrip("\n")
    while True:
        head, sep, last = body.rpartition("\n")
        if not sep or (last.strip() and last.strip() != "---"):
            return body + "\n"
        body = head


def _first_separator(body: str) -> int | None:
    """The number (from 0) of the first `---` line of `body`, read from the top: the end of
    the header block, a few lines down."""
    at, number = 0, 0
    while True:
        end = body.find("\n", at)
        if body[at:end if end >= 0 else len(body)].strip() == "---":
            return number
        if end < 0:
            return None
        at, number = end + 1, number + 1


def _given_names(players: tuple[str, ...]) -> tuple[str, ...]:
    """The players named on the command line (`--players`), read as a header's names are."""
    return player_names(list(players), [Location("--players")] * 4)


def _as_the_evening_reads_it(scheme: str | None, path: str) -> str | None:
    """A scheme file's path as the evening's header must write it: relative to the evening's
    folder (where `session` reads it from), not to the folder `add` was run in."""
    if not scheme or is_shipped_name(scheme):
        return scheme
    folder = os.path.dirname(os.path.abspath(path))
    return Path(os.path.relpath(os.path.abspath(scheme), folder)).as_posix()


def _read_raw(target: str, path: str) -> bytes | None:
    """The evening file's bytes, or None when it does not exist yet."""
    if yaml_by_name(path):
        raise SessionError(_("'add' and 'undo' keep an evening in the compact notation (.mj); a YAML session "
                           "is edited by hand"), Location(path))
    if not os.path.lexists(target):
        if os.path.islink(path):
            raise InputError(_("is a link to a file that does not exist"), Location(path))
        return None
    return read_bytes(target, MAX_INPUT_BYTES, path, what=_("evening file"))
