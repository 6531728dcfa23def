"""The next hand of an evening as the table page holds it while the people at the table enter it,
each on their own phone: each seat's line and the hand's penalties, held under the hand's number,
every line checked as it comes, kept beside the evening's file, and written as a hand when it is
settled (`NextHand`).

It works on an evening as `mjscore.api.Evening` keeps it, given to it (`EveningFile` names what it
asks of one); the page's server reaches it through `mjscore.api`.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from mjscore.evening.entry import Penalty, hand_parts
from mjscore.evening.journal import Added, Corrected, HandChangedError, HandTakenError, Removed, hand_version
from mjscore.evening.session import NextDeal, SessionResult
from mjscore.model.errors import InputError, Location, MjError, SessionError
from mjscore.model.say import Later, _, later, n_
from mjscore.model.table import name_key
from mjscore.model.tiles import SEAT_WORDS, WIND_BY_LETTER
from mjscore.model.tiles import SEATS as SEATS_ORDER
from mjscore.rules.scheme import load_scheme


class LineChecked(Protocol):
    """A line checked by the evening (`mjscore.api.LineCheck`), as the drafts hold it."""

    def to_dict(self) -> dict[str, Any]: ...


class EveningFile(Protocol):
    """What the next hand asks of its evening: what `mjscore.api.Evening` does with the file."""

    def version(self) -> str: ...

    def state(self) -> tuple[str, SessionResult, tuple[str, ...]]: ...

    def scheme(self) -> str | None: ...

    def check_line(self, seat: str, line: str) -> LineChecked: ...

    def add(self, hand: str, *, name: str | None = None, number: int | None = None) -> Added: ...

    def edit(self, number: int, hand: str, *, name: str | None = None, version: str | None = None) -> Corrected: ...

    def undo(self, *, number: int | None = None) -> Removed: ...

    def kept_next(self) -> Any: ...

    def keep_next(self, held: Mapping[str, Any] | None) -> None: ...


E = TypeVar("E", bound=EveningFile)


class HandMovedError(SessionError):
    """A line or a penalty was for hand N of the evening, and hand N is no longer the next hand
    (another phone settled it, or took a hand back): nothing was kept."""


class NotYourSeatError(HandMovedError):
    """A line sent for a seat its player does not sit in for that hand (a phone that has not yet
    heard that a correction moved the seats): nothing was kept.  `seat` is where the player sits now."""

    def __init__(self, message: str, location: Location, seat: str):
        super().__init__(message, location)
        self.seat = seat


class NotSettled(Exception):
    """The drafts of a hand do not make a hand: the evening's error (as `add` gives it), and the
    seat whose line it is in, when it is in one."""

    def __init__(self, error: MjError, seat: str | None):
        super().__init__(str(error))
        self.error = error
        self.seat = seat


class NextHand(Generic[E]):
    """The next hand of an evening as the people at the table enter it, each on their own phone
    (the table page): each seat's line and the hand's penalties, held here under the hand's
    number, every line checked as it comes.  Settling writes the hand as held, so no phone's
    view of it decides what is written; a line or penalty for a hand that is no longer the next
    is refused (`HandMovedError`), and a hand taken back comes back as the drafts of that hand.
    Each change is told to the others as a notice ("Hand 8 was taken back by Ann") for a minute.

    A line belongs to its player (`by`): it is taken only for the seat that player sits in, and
    when the next hand's seats move (a correction, a hand taken back, the laptop's `add`, `edit`
    or `undo`) it moves with its player; what cannot move is dropped, and a notice names it.
    What is held is kept beside the evening's file as it changes (`Evening.keep_next`), bound to
    the file's text, and taken back when the server starts again.

    >>> import mjscore, tempfile
    >>> from pathlib import Path
    >>> ev = mjscore.Evening(Path(tempfile.mkdtemp()) / "evening.mj")
    >>> ev.start(("Ann", "Bob", "Cid", "Dee"))
    True
    >>> nh = NextHand(ev)
    >>> nh.put_line("E", "score 40 win self", hand=1, by="Ann")["ok"]
    True
    >>> NextHand(ev).status()["drafts"]["E"]["text"]         # a server started again has it
    'score 40 win self'
    >>> nh.put_penalties(1, [Penalty("Dee", 10)], by="Bob")[0]["by"]
    'Bob'
    >>> nh.settle(1, others_nothing=True, by="Cid").evening.totals
    {'Ann': 2250, 'Bob': 1930, 'Cid': 1930, 'Dee': 1890}
    >>> nh.undo(1, by="Ann").text.splitlines()[0], sorted(nh.status()["drafts"]), nh.status()["notices"][-1]["text"]
    ('penalty Dee 10', ['E', 'N', 'S', 'W'], 'Hand 1 was taken back by Ann')
    """

    NOTICE_SECONDS = 60.0

    def __init__(self, evening: E):
        self.evening = evening
        self._lock = threading.Lock()
        self._saving = threading.Lock()                  # one writer of the kept file at a time, in order
        self._hand = 0                                   # the hand the drafts are for
        self._version = ""                               # the file's version they were checked against
        self._seats: tuple[str, ...] = ()                # who sits where (E S W N) for that hand
        self._texts: tuple[str, ...] | None = None       # the hands' texts at that version
        self._totals: dict[str, int] = {}                # and the totals
        self._lines: dict[str, dict[str, Any]] = {}      # seat letter -> the line's check, its text, who
        self._penalties: list[dict[str, Any]] = []       # {"from", "amount", "to", "by"}
        self._other: tuple[str, ...] = ()                # a taken-back hand's own header lines
        # The hand being written or taken back now (0: none): what is sent for it meanwhile is
        # refused (409), not kept and then dropped when the hand moves on.
        self._busy = 0
        self._notices: list[dict[str, Any]] = []
        self._count = 0                                  # notices made so far (each one's id)
        self._changes = 0                                # every change of what is held
        self._corrected: dict[int, tuple[str | None, str]] = {}   # hand -> who corrected it last, and when
        # This server's run: a phone whose line was taken by another run sends it again if it is not held.
        self.run = secrets.token_hex(4)
        self._watchers: list[Callable[[], None]] = []

    # -- what every phone asks for

    def tag(self) -> str:
        """What changes whenever the status would (this server's run, the file's version and
        every change held here; the status's `version`): cheap, so that a phone's waiting request
        can ask it often."""
        return f"{self.run}.{self.evening.version()}.{self._changes}"

    def watch(self, call: Callable[[], None]) -> None:
        """Call `call` (from whichever thread made it) after every change held here."""
        self._watchers.append(call)

    def status(self) -> dict[str, Any]:
        """The next hand as held: its number and deal, each seat's draft, the penalties, the
        notices of the last minute, and whether it is being settled; `error` (an `MjError`) when
        the evening's file does not play (a hand edited wrong while it is served)."""
        try:
            version, played = self._current()
        except MjError as e:
            version = self.evening.version()
            with self._lock:
                return {"version": f"{self.run}.{version}.{self._changes}", "run": self.run, "error": e, "hands": None,
                        "players": [], "next": None, "hand": None, "drafts": {}, "penalties": [],
                        "notices": self._recent(), "settling": False, "limit": None}
        nxt = played.next
        assert nxt is not None
        limit = self._limit()
        with self._lock:
            # While a hand is written or taken back, or before the drafts have followed the file,
            # what is held is another hand's: none is shown for this one.
            held = not self._busy and self._hand == nxt.hand
            return {"version": f"{self.run}.{version}.{self._changes}", "run": self.run, "error": None,
                    "hands": len(played.hands), "players": list(played.players), "next": nxt.as_dict(),
                    "hand": nxt.hand, "drafts": {s: dict(d) for s, d in self._lines.items()} if held else {},
                    "penalties": [{**p, "said": _held_penalty(p)} for p in self._penalties] if held else [],
                    "other": list(self._other) if held else [], "notices": self._recent(),
                    "settling": bool(self._busy), "limit": limit}

    # -- entering the hand

    def put_line(self, seat: str, text: str, *, hand: int, by: str | None) -> dict[str, Any]:
        """Check one player's line of hand `hand` and hold it as that seat's draft: the line's
        check (`LineCheck.to_dict`) with the text as typed and who entered it.  `by` is the player
        whose line it is: `NotYourSeatError` (with the seat they sit in) when they do not sit at
        `seat` for that hand, an `InputError` when they are not at the table."""
        played = self._played_for(hand)
        assert played.next is not None
        seats = played.next.seats
        who = self._player(by, seats, _("a line is entered by its player"))
        _seated(seats, seat, who, hand)
        checked = self.evening.check_line(seat, text).to_dict()
        checked.update(text=text, by=who)
        with self._lock:
            self._still_next(hand)
            self._still_seated(seat, who, hand)        # a correction may have moved the seats meanwhile
            self._lines[seat] = checked
            self._changed()
            # Which run of the server holds it, from which version of what it holds: a phone that
            # later sees a status of another run without its line sends it again.
            answer = {**checked, "run": self.run, "held": f"{self.run}.{self.evening.version()}.{self._changes}"}
        self._keep()
        return answer

    def drop_lines(self, *, hand: int, seat: str | None = None, by: str | None = None) -> None:
        """Drop every seat's line of hand `hand` (its penalties stay), or only `seat`'s (a player
        who cleared what they typed: their line is withdrawn, not left in); with `by`, only if
        the line there is that player's (`NotYourSeatError` when the seats moved and it is another's)."""
        self._played_for(hand)
        with self._lock:
            self._still_next(hand)
            if seat is None:
                self._lines = {}
            else:
                held = self._lines.get(seat)
                if by is not None and held is not None and held.get("by") != by:
                    self._still_seated(seat, by, hand)
                self._lines.pop(seat, None)
            self._changed()
        self._keep()

    def put_penalties(self, hand: int, penalties: Sequence[Penalty | Mapping[str, Any]], *,
                      by: str | None = None, append: bool = False) -> list[dict[str, Any]]:
        """The penalties of hand `hand`, replacing those held (or added to them, `append`);
        each between two of the hand's players by name (any case), a whole amount from 1 up,
        entered by one of them (`by`, or the penalty's own `by`).  An `InputError` says what is
        wrong with one, and nothing is changed."""
        played = self._played_for(hand)
        assert played.next is not None
        seats = played.next.seats
        given = [self._penalty(p, seats, by) for p in penalties]
        with self._lock:
            self._still_next(hand)
            if append and len(self._penalties) + len(given) > MAX_PENALTIES:
                raise InputError(_("a hand has at most {n} penalties").format(n=MAX_PENALTIES), Location("<penalty>"))
            self._penalties = (self._penalties if append else []) + given
            if append and given:
                self._notice("penalty", hand, by, _entered(given[0]["by"], tuple(dict(p) for p in given)))
            self._changed()
            held = [dict(p) for p in self._penalties]
        self._keep()
        return held

    # -- settling and taking back

    def settle(self, hand: int, *, others_nothing: bool = False, draw: bool = False, by: str | None = None) -> Added:
        """Write hand `hand` as held: its penalties, its own header lines, and each seat's line
        (a seat with none: `...` when `others_nothing`; a `draw` with the lines held, if any).  `NotSettled`
        when they do not make a hand (the evening's own message); `HandTakenError` when the hand
        is in the evening already (a settle sent twice writes it once)."""
        played = self._played_for(hand, settled_ok=True)
        assert played.next is not None
        with self._lock:
            self._still_next(hand)
            lines = [Penalty(p["from"], p["amount"], p["to"]).line() for p in self._penalties] + list(self._other)
            seats: list[str | None] = [None] * len(lines)       # the seat whose line each is
            if draw:
                lines.append("draw")
                seats.append(None)
            for seat in WIND_BY_LETTER:
                d = self._lines.get(seat)
                if d is None and (draw or not others_nothing):
                    continue            # the evening says whose line is missing (a draw needs none)
                lines.append(f"{seat}: {d.get('line') or d['text'] if d else '...'}")
                seats.append(seat)
            self._busy = hand
        try:
            try:
                added = self.evening.add("\n".join(lines), name="<hand>", number=hand)
            except HandTakenError:
                raise
            except MjError as e:
                where = e.location
                # The seat the error names (a missing loser), else the seat of the line it points at.
                whose = e.seats[0] if len(e.seats) == 1 else \
                    seats[where.line - 1] if where.file == "<hand>" and 1 <= where.line <= len(seats) else None
                raise NotSettled(e, whose) from None
            now = self.evening.state()              # read before the lock: phones' requests go on meanwhile
            with self._lock:
                self._start(hand + 1)
                self._notice("settle", hand, by, _done(hand, "settled", by))
                self._known(now)
        finally:
            self._idle()
        self._keep()
        return added

    def add(self, text: str, *, hand: int | None = None, by: str | None = None) -> Added:
        """Add a hand's text, as `mjscore add -e TEXT` does (hand number `hand`, when given:
        `HandTakenError` if it is there already); what was held for that hand is dropped, and named."""
        with self._changing():
            added = self.evening.add(text, name="<hand>", number=hand)
            number = len(added.evening.hands)
            now = self.evening.state()
            with self._lock:
                gone = self._held_words()
                self._start(number + 1)
                self._notice("settle", number, by, _done(number, "added", by) + _dropped(gone, number))
                self._known(now)
        self._keep()
        return added

    def edit(self, hand: int, text: str, *, by: str | None = None, version: str | None = None) -> Corrected:
        """Correct hand `hand` (any hand, not only the last), as `mjscore edit` does; every phone
        is told, with the totals that changed.  With `version` (`hand_version` of the text the
        correction started from), a hand corrected meanwhile is refused (`HandChangedError`, naming
        who corrected it and when).  The next hand's lines move with their players when the
        correction moves the seats."""
        with self._changing():
            try:
                corrected = self.evening.edit(hand, text, name="<hand>", version=version)
            except HandChangedError as e:
                who, at = self._corrected.get(hand, (None, ""))
                told = (_("by {player} at {time}").format(player=who, time=at) if who else
                        _("at the laptop at {time}").format(time=at)) if at else \
                    _("at the laptop or before the page was started")
                raise HandChangedError(_("hand {hand} was corrected {when}, after you began your correction: "
                                         "yours was not saved; here it is as it is now").format(hand=hand, when=told),
                                       e.location) from None
            nxt = corrected.evening.next
            assert nxt is not None
            changed = corrected.changed()
            moved = _totals_moved([(n, c["before"], c["after"]) for n, c in changed.items()])
            now = self.evening.state()
            with self._lock:
                self._corrected[hand] = (by, time.strftime("%H:%M"))
                words = self._reseat(nxt)
                self._notice("edit", hand, by, _done(hand, "corrected", by) + _moved(moved) + words)
                self._known(now)
        self._keep()
        return corrected

    def undo(self, hand: int, *, by: str | None = None) -> Removed:
        """Take hand `hand` back, if it is the evening's last (`NotTheLastHandError` otherwise:
        two phones taking back the same hand take back one); its lines and penalties come back
        as the drafts of that hand, each line its player's, so nobody types them again.  What was
        held for the hand after it is dropped, and named."""
        with self._changing():
            removed = self.evening.undo(number=hand)
            nxt = removed.evening.next
            assert nxt is not None
            parts = hand_parts(removed.text, nxt.seats)
            checked = {s: {**self.evening.check_line(s, line).to_dict(), "text": line,
                           "by": nxt.seats[WIND_BY_LETTER[s].number - 1]}
                       for s, line in parts.lines.items()}
            now = self.evening.state()
            with self._lock:
                gone = self._held_words()
                self._start(hand)
                self._lines = checked
                self._penalties = [{"from": p.payer, "amount": p.amount, "to": p.payee, "by": by or p.payer}
                                   for p in parts.penalties]
                self._other = parts.other
                self._notice("undo", hand, by, _done(hand, "taken_back", by) + _dropped(gone, hand + 1))
                self._known(now)
        self._keep()
        return removed

    # -- inside

    def _played_for(self, hand: int, settled_ok: bool = False) -> SessionResult:
        """The evening as it stands, refusing a hand that is not its next: `HandTakenError` for
        one written already when `settled_ok` (a settle sent again), `HandMovedError` otherwise."""
        _version, played = self._current()
        nxt = played.next
        assert nxt is not None
        if hand < nxt.hand and settled_ok:
            raise HandTakenError(_("hand {hand} is in the evening already: nothing was written").format(hand=hand),
                                 Location("<hand>"))
        with self._lock:
            self._still_next(hand)
        return played

    @contextlib.contextmanager
    def _changing(self) -> Iterator[None]:
        """While the block changes the evening (a hand added, corrected or taken back): what is
        sent for the next hand meanwhile is refused (409)."""
        # A change made beside the page just before is told as the laptop's, not taken for this one.
        with contextlib.suppress(MjError):
            self._current()
        with self._lock:
            if self._busy:
                raise HandMovedError(_("hand {hand} is being settled or taken back from another phone: "
                                       "try again in a moment").format(hand=self._busy), Location("<hand>"))
            self._busy = self._hand
        try:
            yield
        finally:
            self._idle()

    def _idle(self) -> None:
        with self._lock:
            self._busy = 0
            self._changed()

    def _still_next(self, hand: int) -> None:
        """Under the lock: refuse what is for a hand that is not the next."""
        if hand == self._hand:
            if self._busy == hand:
                raise HandMovedError(_("hand {hand} is being settled or taken back from another phone: nothing "
                                       "was kept (try again in a moment)").format(hand=hand), Location("<hand>"))
            return
        if hand == self._hand - 1 or hand == self._hand + 1:
            why = (_("hand {hand} was settled while you typed: your line was not kept (the next hand is hand {next})")
                   if hand < self._hand else
                   _("hand {hand} was taken back while you typed: your line was not kept (the next hand is hand "
                     "{next})"))
            raise HandMovedError(why.format(hand=hand, next=self._hand), Location("<hand>"))
        raise HandMovedError(_("hand {hand} is not the next hand (the next is hand {next}): nothing was kept").format(
            hand=hand, next=self._hand), Location("<hand>"))

    def _still_seated(self, seat: str, who: str, hand: int) -> None:
        """Under the lock: refuse what `who` sends for `seat` when they no longer sit there."""
        if self._seats:
            _seated(self._seats, seat, who, hand)

    def _current(self) -> tuple[str, SessionResult]:
        """The file's version and the evening at it, the drafts following it (see `_follow`)."""
        version, played, texts = self.evening.state()
        self._follow(played, version, texts)
        return version, played

    def _follow(self, played: SessionResult, version: str, texts: tuple[str, ...]) -> None:
        """The drafts belong to one next hand at one file's version.  The first time, what was
        kept beside the file is taken back (when it is of this file's text and its next hand).
        When the file has changed beside the page (`mjscore add`, `edit` or `undo` at the
        laptop), every phone is told what changed, and the drafts follow: they move with their
        players when the seats moved, and are dropped, by name, when the next hand is another."""
        assert played.next is not None
        if version == self._version:
            return
        with self._lock:
            if version == self._version or self._busy:
                return              # the page's own change: its writer says what it did (`_known`)
            first = self._texts is None
            before, old_texts, old_totals = self._hand, self._texts or (), dict(self._totals)
            self._version = version
            if first:
                self._start(played.next.hand)
                self._seats, self._texts, self._totals = played.next.seats, texts, dict(played.totals)
                self._take_back_kept(played)
                return
            said = _laptop_words(old_texts, texts, old_totals, dict(played.totals))
            if said is not None and said[0] == "edit":
                self._corrected[said[1]] = (None, time.strftime("%H:%M"))
            if played.next.hand == before:
                words = self._reseat(played.next)
            else:
                words = _dropped(self._held_words(), before)
                self._start(played.next.hand)
            self._seats, self._texts, self._totals = played.next.seats, texts, dict(played.totals)
            if said is not None or words:
                kind, hand, text = said if said is not None else ("file", before, _file_changed())
                self._notice(kind, hand, None, text + words)
        self._keep()

    def _known(self, now: tuple[str, SessionResult, tuple[str, ...]]) -> None:
        """Under the lock: the file as this page has just written it (`Evening.state`, read before
        the lock was taken) is known, its changes told."""
        version, played, texts = now
        assert played.next is not None
        self._version = version
        self._seats, self._texts, self._totals = played.next.seats, texts, dict(played.totals)

    def _reseat(self, nxt: NextDeal) -> Later | str:
        """Under the lock: the next hand's seats are now `nxt`'s (a correction moved them, or not):
        each line goes to its player's seat, checked there again; a line or a penalty whose
        player is not at the table now is dropped.  The words that name what was dropped."""
        if nxt.hand != self._hand:
            gone = self._held_words()
            self._start(nxt.hand)
            return _dropped(gone, self._hand)
        if nxt.seats == self._seats:
            return ""
        lines: dict[str, dict[str, Any]] = {}
        gone = []
        for seat, d in self._lines.items():
            who = d.get("by") or self._seats[WIND_BY_LETTER[seat].number - 1]
            if who in nxt.seats:
                now = SEATS_ORDER[nxt.seats.index(who)].letter
                lines[now] = {**self.evening.check_line(now, d["text"]).to_dict(), "text": d["text"], "by": who}
            else:
                gone.append(_line_of(who))
        kept = [p for p in self._penalties if p["from"] in nxt.seats and (p["to"] is None or p["to"] in nxt.seats)]
        gone += [_the_penalty(dict(p)) for p in self._penalties if p not in kept]
        self._lines, self._penalties, self._seats = lines, kept, nxt.seats
        self._changed()
        return _dropped(gone, self._hand)

    def _held_words(self) -> list[Later]:
        """Under the lock: what is held, named (`Ann's line`, `the penalty Dee pays 10 to each`)."""
        return ([_line_of(d.get("by") or self._seats[WIND_BY_LETTER[s].number - 1]) for s, d in self._lines.items()]
                + [_the_penalty(dict(p)) for p in self._penalties])

    def _start(self, hand: int) -> None:
        """Under the lock: hand `hand` is the next, with nothing entered yet."""
        if self._lines or self._penalties or self._other or hand != self._hand:
            self._changed()
        self._hand = hand
        self._lines, self._penalties, self._other = {}, [], ()

    def _changed(self) -> None:
        """Under the lock: something held changed; the watchers (a phone's waiting request) are told."""
        self._changes += 1
        for call in self._watchers:
            call()

    def _keep(self) -> None:
        """Keep what is held beside the evening's file (nothing, when nothing is held), bound to
        the file's text and the hand's number, so that a server started again takes it back."""
        with self._saving:
            with self._lock:
                if not (self._lines or self._penalties or self._other):
                    held: dict[str, Any] | None = None
                else:
                    held = {"form": 1, "texts": _texts_key(self._texts or ()), "hand": self._hand,
                            "lines": {s: {"text": d["text"], "by": d.get("by")} for s, d in self._lines.items()},
                            "penalties": [dict(p) for p in self._penalties], "other": list(self._other)}
                if held is None and not self._kept:
                    return
                self._kept = held is not None
            try:
                self.evening.keep_next(held)
            except MjError as e:
                # Held all the same, and every phone told: a restart now would lose it.
                with self._lock:
                    if not any(n["kind"] == "unkept" for n in self._notices):
                        self._notice("unkept", self._hand, None, _unkept(e.message))

    _kept = True        # whether a file may be kept beside the evening (at first: it may)

    def _take_back_kept(self, played: SessionResult) -> None:
        """Under the lock, the first time: the lines and penalties kept beside the file for its
        next hand, if they are of this file's text and its next hand, each checked again as a
        line or penalty sent now would be (anything else in the file is passed over)."""
        kept = self.evening.kept_next()
        assert played.next is not None
        seats = played.next.seats
        if not (isinstance(kept, dict) and kept.get("form") == 1 and kept.get("hand") == self._hand
                and kept.get("texts") == _texts_key(self._texts or ())):
            return
        lines, penalties, other = kept.get("lines"), kept.get("penalties"), kept.get("other")
        if not (isinstance(lines, dict) and isinstance(penalties, list) and isinstance(other, list)
                and all(isinstance(x, str) and len(x) <= 4096 for x in other) and len(penalties) <= MAX_PENALTIES):
            return
        for seat, d in lines.items():
            if not (seat in WIND_BY_LETTER and isinstance(d, dict) and isinstance(d.get("text"), str)
                    and len(d["text"]) <= 4096 and d.get("by") == seats[WIND_BY_LETTER[seat].number - 1]):
                continue
            self._lines[seat] = {**self.evening.check_line(seat, d["text"]).to_dict(), "text": d["text"],
                                 "by": d["by"]}
        for p in penalties:
            with contextlib.suppress(MjError):
                if isinstance(p, dict):
                    self._penalties.append(self._penalty(p, seats, None))
        self._other = tuple(other)
        self._changed()

    def _notice(self, kind: str, hand: int, by: str | None, text: Later) -> None:
        # The words are said when a phone reads them (`_recent`), in that phone's language.
        self._count += 1
        self._notices.append({"id": self._count, "kind": kind, "hand": hand, "by": by, "text": text,
                              "at": time.monotonic()})
        del self._notices[:-MAX_NOTICES]
        self._changed()

    def _recent(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        self._notices = [n for n in self._notices if now - n["at"] < self.NOTICE_SECONDS]
        return [{k: v() if k == "text" else v for k, v in n.items() if k != "at"} for n in self._notices]

    def _limit(self) -> int | None:
        try:
            return load_scheme(self.evening.scheme()).limit
        except MjError:
            return None

    @staticmethod
    def _player(by: object, seats: Sequence[str], what: str) -> str:
        """The player `by` names (any case), one of `seats`; an InputError otherwise."""
        keys = {name_key(n): n for n in seats}
        if not isinstance(by, str) or name_key(by) not in keys:
            raise InputError(_("{what}: name one of the players ({players}) as `by`").format(
                what=what, players=", ".join(seats)), Location("<hand>"))
        return keys[name_key(by)]

    @classmethod
    def _penalty(cls, p: Penalty | Mapping[str, Any], seats: Sequence[str], by: str | None) -> dict[str, Any]:
        payer: object
        amount: object
        payee: object
        who: object
        if isinstance(p, Penalty):
            payer, amount, payee, who = p.payer, p.amount, p.payee, by
        else:
            payer, amount, payee, who = p.get("from"), p.get("amount"), p.get("to"), p.get("by") or by
        keys = {name_key(n): n for n in seats}
        where = Location("<penalty>")
        if not isinstance(payer, str) or name_key(payer) not in keys:
            raise InputError(_("a penalty is paid by one of the players ({players})").format(
                players=", ".join(seats)), where)
        if payee is not None and (not isinstance(payee, str) or name_key(payee) not in keys):
            raise InputError(_("a penalty is paid to one of the players ({players}), or to each").format(
                players=", ".join(seats)), where)
        if type(amount) is not int or not 1 <= amount <= MAX_PENALTY:
            raise InputError(_("a penalty is a whole number from 1 to {most}").format(most=f"{MAX_PENALTY:,}"), where)
        if payee is not None and name_key(payee) == name_key(payer):
            raise InputError(_("a player does not pay a penalty to themselves"), where)
        return {"from": keys[name_key(payer)], "amount": amount,
                "to": keys[name_key(payee)] if payee is not None else None,
                "by": cls._player(who, seats, _("a penalty is entered by a player at the table"))}


MAX_PENALTY = 10 ** 9           # far above any table's stakes; a typo of more is refused
MAX_PENALTIES = 64              # a hand's, as the page's API takes them at once
MAX_NOTICES = 16                # kept for the phones at once, the newest


def _seated(seats: Sequence[str], seat: str, who: str, hand: int) -> None:
    """Refuse a line sent by `who` for `seat` where `seats` (E S W N) has another player there:
    `NotYourSeatError`, with the seat `who` sits in."""
    if seats[WIND_BY_LETTER[seat].number - 1] == who:
        return
    now = SEATS_ORDER[seats.index(who)] if who in seats else None
    if now is None:
        raise InputError(_("{player} does not play hand {hand}: the line was not kept").format(player=who, hand=hand),
                         Location("<hand>"))
    raise NotYourSeatError(_("{player} sits {now} for hand {hand} now, not {seat}: the line was not kept (send it "
                             "again as {now}'s)").format(player=who, now=_(SEAT_WORDS[now.letter]), hand=hand,
                                                         seat=_(SEAT_WORDS[seat])), Location("<hand>"), now.letter)


@later
def _done(hand: int, what: str, by: str | None) -> str:
    """A notice's words: `Hand 8 was taken back by Ann`."""
    # Each a whole sentence, with its player and without (a language orders them its own way).
    if by:
        return {"corrected": _("Hand {hand} was corrected by {player}"),
                "taken_back": _("Hand {hand} was taken back by {player}"),
                "settled": _("Hand {hand} was settled by {player}"),
                "added": _("Hand {hand} was added by {player}")}[what].format(hand=hand, player=by)
    return {"corrected": _("Hand {hand} was corrected"), "taken_back": _("Hand {hand} was taken back"),
            "settled": _("Hand {hand} was settled"), "added": _("Hand {hand} was added")}[what].format(hand=hand)


def _total_moved(name: str, before: int, after: int) -> str:
    """A total a correction changed: `Ann 2000 -> 2040`."""
    return _("{player} {before} -> {after}").format(player=name, before=before, after=after)


@later
def _moved(moved: Later) -> str:
    """The totals a correction changed, as its notice ends them."""
    totals = moved()
    return _(": {totals}").format(totals=totals) if totals else _(": no total changed")


@later
def _totals_moved(moved: Sequence[tuple[str, int, int]]) -> str:
    return ", ".join(_total_moved(name, before, after) for name, before, after in moved)


@later
def _entered(player: str, given: Sequence[Mapping[str, Any]]) -> str:
    return _("{player} entered a penalty: {penalties}").format(
        player=player, penalties="; ".join(_penalty_text(p) for p in given))


@later
def _line_of(player: str) -> str:
    return _("{player}'s line").format(player=player)


@later
def _the_penalty(p: Mapping[str, Any]) -> str:
    return _("the penalty {penalty}").format(penalty=_penalty_text(p))


@later
def _file_changed() -> str:
    return _("The evening's file changed at the laptop")


@later
def _unkept(why: str) -> str:
    return _("What was entered could not be kept beside the evening's file ({why}): stopping the "
             "server now would lose it").format(why=why)


def _dropped(gone: Sequence[Later], hand: int) -> Later | str:
    """`_dropped_words`, or nothing when nothing was dropped (a notice is made only for a change)."""
    return _dropped_words(gone, hand) if gone else ""


@later
def _dropped_words(gone: Sequence[Later], hand: int) -> str:
    """What a change dropped of the next hand's entries, as a notice ends: `; Ann's line and the
    penalty Dee pays 10 to each for hand 5 were dropped`."""
    if not gone:
        return ""
    said = [g() for g in gone]
    named = said[0] if len(said) == 1 else _("{some} and {last}").format(some=", ".join(said[:-1]), last=said[-1])
    return n_("; {gone} for hand {hand} was dropped", "; {gone} for hand {hand} were dropped",
              len(gone)).format(gone=named, hand=hand)


def _texts_key(texts: Sequence[str]) -> str:
    """The evening's hands as one fingerprint: what the kept next hand is bound to."""
    return hand_version("\0".join(t.rstrip() for t in texts))


def _laptop_words(before: Sequence[str], after: Sequence[str], totals_before: Mapping[str, int],
                  totals_after: Mapping[str, int]) -> tuple[str, int, Later] | None:
    """What a change of the file beside the page did, in a notice's kind, hand and words (`Hand 3
    was corrected at the laptop: Ann 2000 -> 2040`); None when no hand changed."""
    # The last hand's text ends where the file does, or at the `---` a hand added after it brings.
    before, after = tuple(t.rstrip() for t in before), tuple(t.rstrip() for t in after)
    if len(after) == len(before) + 1 and after[:-1] == before:
        return "settle", len(after), _at_the_laptop("added", len(after))
    if len(after) == len(before) - 1 and after == before[:-1]:
        return "undo", len(before), _at_the_laptop("taken_back", len(before))
    if len(after) == len(before):
        changed = next((k + 1 for k, (a, b) in enumerate(zip(before, after, strict=True)) if a != b), None)
        if changed is None:
            return None
        moved = _totals_moved([(n, totals_before[n], t) for n, t in totals_after.items()
                               if n in totals_before and totals_before[n] != t])
        return "edit", changed, _at_the_laptop("corrected", changed) + _moved(moved)
    return "file", len(after) + 1, _at_the_laptop("changed", 0)


@later
def _at_the_laptop(what: str, hand: int) -> str:
    if what == "added":
        return _("Hand {hand} was added at the laptop").format(hand=hand)
    if what == "taken_back":
        return _("Hand {hand} was taken back at the laptop").format(hand=hand)
    if what == "corrected":
        return _("Hand {hand} was corrected at the laptop").format(hand=hand)
    return _("The evening's file was changed at the laptop")


def _held_penalty(p: Mapping[str, Any]) -> str:
    """A held penalty as the phones list it: `Penalty: Dee pays 10 to each (entered by Bob)`."""
    if p.get("by"):
        return _("Penalty: {penalty} (entered by {player})").format(penalty=_penalty_text(p), player=p["by"])
    return _("Penalty: {penalty}").format(penalty=_penalty_text(p))


def _penalty_text(p: Mapping[str, Any]) -> str:
    if p["to"]:
        return _("{payer} pays {amount} to {payee}").format(payer=p["from"], amount=p["amount"], payee=p["to"])
    return _("{payer} pays {amount} to each").format(payer=p["from"], amount=p["amount"])
