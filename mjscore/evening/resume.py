"""An evening played from its checkpoint: only the hands not played before are scored.

`add`, `undo` and `session` keep, in the user's cache (`store.checkpoints`), a record for every
hand of an evening file they have played: the hand's result as `to_dict()` gives it, the
evening's state after it (`EveningState.snapshot`: the seating and its counts, the totals,
what was paid, the hands added up) and the fingerprints of the schemes it was scored under.

A record belongs to the evening by a chain of fingerprints: the first is made of mjscore's
version, the file's real path, what the caller asks (a scheme or settings given over the
file's, `explain`) and the header block as written; each hand's is made of the one before it,
the line the hand starts on and its text.  So a record is used only while the file, up to and
including that hand, is what it was when the record was made, and the schemes are what they
were: edit an early hand, and the evening is played again from it.  Records are checked (their
types and ranges) before they are believed, and anything in doubt is played again.

Only files in the compact notation have checkpoints (YAML sessions and standard input are
played whole), and `MJSCORE_CACHE_DIR=""` turns them off with the scheme cache.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from mjscore.evening.session import (
    EveningState,
    Hands,
    PlayedHand,
    SessionResult,
    hands_of,
    play,
    valid_snapshot,
)
from mjscore.store import checkpoints
from mjscore.store.checkpoints import Record
from mjscore.store.cache_folder import fingerprint
from mjscore.io.sessionfile import HandSource, Session
from mjscore.model.errors import MjError
from mjscore.model.tiles import WIND_BY_LETTER
from mjscore.pipeline import EMPTY, TableResult
from mjscore.rules.scheme import load_scheme
from mjscore.model.say import language
from mjscore.version import __version__

# An add finds its record among the last few (an undo's is the one before the last).
_TAIL_RECORDS = 3
# The plain form a record's hand is kept in, made part of the evening's first fingerprint: a
# record kept in another form is not believed (2: a win's `liable` seat, which the season's
# figures read; 3: a hand's `kajongg_hand`).
_FORM = 3


def play_file(session: Session, path: str, scheme: str | None = None, given: Mapping[str, Any] = EMPTY,
              keep_going: bool = False, explain: bool = False, *, every_hand: bool = True) -> SessionResult:
    """`session.play` of the evening file at `path`, from its checkpoint: the hands the
    checkpoint holds are read back, the others scored (and remembered).  With `every_hand`
    False (what `add` and `undo` need: the last hand and the evening's state), only the
    checkpoint's last records are read, and the result's earlier hands are fetched when one is
    asked for.  A hand read back gives its `to_dict()` as it was; its typed `result`, if asked
    for, is had by playing the evening again."""
    chain = fingerprints(session, path, scheme, given, explain)
    if chain is None:
        return play(session, scheme, given, keep_going, explain)
    key = chain[0]
    n = len(session.hands)
    records = checkpoints.read_all(key) if every_hand else checkpoints.read_last(key, _TAIL_RECORDS)
    again = _Again(session, scheme, given, explain)
    held, keep, schemes = _believed(records, chain, session, every_hand, again)
    count = _TAIL_RECORDS
    while not held and records and not every_hand and len(records) == count:
        # None of the last records is of this file: an earlier hand was edited.  Played again
        # from the first hand that differs, not from the first; that hand's record is looked for
        # from the end, four times as many records each time, so that a correction of hand N
        # reads the records after N, not the evening's (all 2,000 records: 1,070 M instructions).
        count *= 4
        records = checkpoints.read_last(key, count)
        held, keep, schemes = _believed(records, chain, session, False, again)
    counted = held[-1][0].number if held else 0
    if counted:
        before: Hands
        if every_hand:
            before = Hands(hand for hand, _ in held)
        else:
            # The last record's hand is held as it was read: the last hand (what a page asks for
            # after every add) is had without reading every record (1,087 M instructions at 2,000 hands).
            before = Hands([held[-1][0]], before=counted - 1,
                           fetch=lambda: _every_hand(session, path, scheme, given, explain, counted - 1))
        state = EveningState.restored(session.header, held[-1][1], before)
    else:
        state = EveningState(session.header)
    fresh: list[dict[str, Any]] = []
    for number, _line, outcome in hands_of(session, scheme, given, explain, state):
        if isinstance(outcome, MjError) and not keep_going:
            raise outcome
        if isinstance(outcome, PlayedHand) and not state.errors:
            used = outcome.result.scheme
            schemes = {**schemes, used.file: used.fingerprint}
            kept = json.dumps(outcome.to_dict(), ensure_ascii=False, separators=(",", ":"))
            record = {"i": number, "fp": chain[number], "names": outcome.names_by_letter(),
                      "after": state.snapshot(), "schemes": schemes, "hand": kept}
            fresh.append({**record, "sum": _sum(record)})
    if fresh or counted < n or not every_hand:
        checkpoints.write(key, keep, fresh)
    return state.result()


def fingerprints(session: Session, path: str, scheme: str | None, given: Mapping[str, Any],
                 explain: bool) -> list[str] | None:
    """The chain of fingerprints of an evening file: [the file's, then each hand's, in order];
    None when it keeps no checkpoint (a YAML session, standard input)."""
    if session.head is None:
        return None                     # a YAML session: its hands have no text of their own
    where = os.path.realpath(path)
    # The language too: a hand's result holds its items' names and notes as said in it.
    asked = repr((scheme, sorted((k, repr(v)) for k, v in given.items()), explain, language()))
    # A name that is not UTF-8 arrives as the surrogates that stand for its bytes: kept, not refused.
    first = fingerprint(f"{__version__}\0{_FORM}\0{where}\0{asked}\0{session.header.where.line}\0"
                        f"{session.head}".encode("utf-8", "surrogateescape"))
    chain = [first]
    # The hands read before (io.sessionfile keeps them when a hand is appended) keep their
    # fingerprints: only the new ones are made (12 ms of a 2,000-hand evening's add).
    known = _CHAINS.get(first)
    same = 0
    if known is not None:
        hands, prints = known
        # All the hands read before, or all but the last (whose text a `---` after it has ended),
        # or all but the last of the hands now (the last taken back: the one before it ends the
        # file now), compared in one pass (a tuple's == takes an element that is the same object
        # as equal).
        for k in sorted({len(hands), len(hands) - 1, len(session.hands), len(session.hands) - 1}, reverse=True):
            if 0 < k <= min(len(hands), len(session.hands)) and session.hands[:k] == hands[:k]:
                same = k
                break
        else:
            # A hand in the middle corrected: the hands before it keep theirs (a correction 100
            # hands back at 2,000 made every fingerprint again).
            same = next((k for k, (a, b) in enumerate(zip(session.hands, hands, strict=False)) if a != b),
                        min(len(hands), len(session.hands)))
        chain = prints[:same + 1]
    for h in session.hands[same:]:
        # Its text without the blank lines after it: the evening's last hand ends the file, and
        # is the same hand once another follows it.
        chain.append(fingerprint(f"{chain[-1]}\0{h.line}\0{(h.text or '').rstrip()}".encode()))
    _CHAINS.pop(first, None)
    _CHAINS[first] = (session.hands, chain)
    while len(_CHAINS) > 8:
        del _CHAINS[next(iter(_CHAINS))]
    return list(chain)


# The last chains made, by their first fingerprint: the hands they were made of, and the chain.
_CHAINS: dict[str, tuple[tuple[HandSource, ...], list[str]]] = {}


class _Again:
    """The evening played again without its checkpoint, once, for the typed result of a hand
    read back from it (which holds only its plain form)."""

    def __init__(self, session: Session, scheme: str | None, given: Mapping[str, Any], explain: bool):
        self.args = (session, scheme, given, True, explain)
        self.played: SessionResult | None = None

    def result_of(self, number: int) -> TableResult:
        if self.played is None:
            self.played = play(*self.args)
        return self.played.hands[number - 1].result


def _believed(records: list[Record], chain: list[str], session: Session, every_hand: bool,
              again: _Again) -> tuple[list[tuple[PlayedHand, dict[str, Any]]], int, dict[str, str]]:
    """The hands the records vouch for (each with the state after it), from the first on when
    `every_hand`, else the latest one only; where the kept part of the checkpoint ends; and the
    schemes they were scored under."""
    n = len(chain) - 1
    good: dict[int, Record] = {}
    for r in records:
        d = r.data
        if isinstance(d, dict) and type(d.get("i")) is int and 1 <= d["i"] <= n and d.get("fp") == chain[d["i"]]:
            good[d["i"]] = r
    if every_hand:
        k = 0
        while k + 1 in good:
            k += 1
        ordered = [good[i] for i in range(1, k + 1)]
    else:
        ordered = [good[max(good)]] if good else []
    held: list[tuple[PlayedHand, dict[str, Any]]] = []
    for r in ordered:
        hand = _played(r.data, session, again)
        if hand is None:
            break
        held.append((hand, r.data["after"]))
    if not held or not _schemes_stand(ordered[len(held) - 1].data.get("schemes")):
        return [], 0, {}
    last = ordered[len(held) - 1]
    return held, last.end, dict(last.data["schemes"])


def _played(d: dict[str, Any], session: Session, again: _Again) -> PlayedHand | None:
    """The hand a record holds, or None when the record is not what one is made of.  The hand's
    JSON is the text written (the record's fingerprint, `_sum`, is checked), so it reads back as it was."""
    number, after, seats, kept = d["i"], d.get("after"), d.get("names"), d.get("hand")
    names = session.header.names
    if not (isinstance(after, dict) and valid_snapshot(after, number)
            and isinstance(seats, dict) and set(seats) == set(WIND_BY_LETTER)
            and sorted(seats.values()) == sorted(names) and isinstance(kept, str) and d.get("sum") == _sum(d)):
        return None
    return PlayedHand(number, {WIND_BY_LETTER[s]: n for s, n in seats.items()},
                      lambda: again.result_of(number), dict(zip(names, after["totals"], strict=True)), kept)


def _sum(record: dict[str, Any]) -> str:
    """The fingerprint of everything a record holds but itself: a record changed anywhere (an
    edit, a disk's error) is not believed, however plausible what it says."""
    body = {k: v for k, v in record.items() if k != "sum"}
    return fingerprint(json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode())


def _schemes_stand(schemes: object) -> bool:
    """Whether every scheme a record's hands were scored under is still what it was."""
    if not isinstance(schemes, dict):
        return False
    for file, print_ in schemes.items():
        try:
            if not isinstance(file, str) or load_scheme(file).fingerprint != print_:
                return False
        except MjError:
            return False
    return True


def _every_hand(session: Session, path: str, scheme: str | None, given: Mapping[str, Any], explain: bool,
                counted: int) -> Sequence[PlayedHand]:
    """The first `counted` hands in full: read back from the checkpoint, or played again."""
    return play_file(session, path, scheme, given, True, explain).hands[:counted]
