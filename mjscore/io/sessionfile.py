"""Session files: the header block naming the players, then the hands, in compact form or YAML.

Reading only: the hands come back as tables (or as the error that stopped one), each written
by that hand's seat winds.  Playing them through, with the seats rotating, is the evening's work.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from mjscore.io.notation import (
    FLAGS,
    HEADERS,
    MAX_SCORE,
    SESSION_SETTINGS,
    holds_anything,
    logical_lines,
    parse_number,
    parse_setting,
    parse_table,
    split_tables,
)
from mjscore.io.reader import looks_like_yaml
from mjscore.io.yamlform import SESSION_KEYS, NodeReader
from mjscore.io.yamlsafe import load_nodes
from mjscore.model.errors import Location, NotationError, SessionError, YamlFormError, excerpt
from mjscore.model.settings import ordered
from mjscore.model.table import Table, name_key
from mjscore.model.say import N_, _

SESSION_HEADERS = ("players", "start", "scheme", "finished", *SESSION_SETTINGS)


class SessionHeader(NamedTuple):
    names: tuple[str, ...]                    # the four, in seat order E S W N at the first hand
    start: int = 2000
    scheme: str | None = None
    options: tuple[tuple[str, object], ...] = ()   # the settings for every hand (model.settings: SETTINGS, ROTATION)
    where: Location = Location()
    scheme_where: Location = Location()       # the header's `scheme` word, what an unreadable scheme is blamed on
    finished: bool = False                    # `finished`: the game is over, no hand follows (`add` refuses one)


class HandSource(NamedTuple):
    """One hand of a session as written.  It is read once its seating is known, because a hand
    may name its players where seats go (`Ann: score 40 win self`, `win 5p from Bob`)."""

    line: int
    read: Callable[[dict[str, str]], Table]    # player's name -> seat letter, to the table (or MjError)
    text: str | None = None                    # the hand as written (compact notation; None for YAML)


class Session(NamedTuple):
    header: SessionHeader
    hands: tuple[HandSource, ...]
    head: str | None = None                    # the header block as written (compact notation; None for YAML)


def _compact_hand(chunk: str, name: str, first: int, names: dict[str, str]) -> Table:
    return parse_table(chunk, name, first, names=names)


def _yaml_hand(reader: NodeReader, node: Any, names: dict[str, str]) -> Table:
    reader.names = names
    try:
        return reader.table(node)
    finally:
        reader.names = {}


def read_session(text: str, name: str) -> Session:
    if looks_like_yaml(text, name):
        return _read_yaml_session(text, name)
    return _read_compact_session(text, name)


class _Read(NamedTuple):
    """A compact session as last read from a file: its text, what was read, and its last chunk
    (the text after its last `---`, which the next hand appended to it ends)."""

    text: str
    session: Session
    last: tuple[int, str]


# An evening grows by a hand at a time (`add`, the table page), and is read whole after each:
# what was read of it is kept for its next reading, which reads only what was appended
# (a 2,000-hand evening's `add` read 2,000 hands: 29 ms of its 55 ms).  A few files at a time.
_LAST_READ: dict[str, _Read] = {}
_LAST_READ_FILES = 8


def _read_compact_session(text: str, name: str) -> Session:
    """A header block (`players A B C D`, `start N`, `scheme`, settlement options), `---`, hands."""
    last = _LAST_READ.get(name)
    if last is not None:
        if text == last.text:
            return last.session
        known = _appended(last, text, name) or _cut(last, text, name)
        if known is not None:
            return known
    chunks = list(split_tables(text, name))
    session = _compact_session(chunks, name)
    _remember(name, _Read(text, session, chunks[-1]))
    return session


def _remember(name: str, read: _Read) -> None:
    _LAST_READ.pop(name, None)
    _LAST_READ[name] = read
    while len(_LAST_READ) > _LAST_READ_FILES:
        del _LAST_READ[next(iter(_LAST_READ))]


def _appended(last: _Read, text: str, name: str) -> Session | None:
    """The session `text` holds when it is `last.text` with `---` and more hands after it: the
    hands read before are kept, the last one's text ended where the `---` now stands, and only
    the new ones are read; None when the text is not so (then it is read whole).  What it gives
    is what reading the whole text gives."""
    old = last.text
    first, chunk = last.last
    if first == last.session.header.where.line:
        return None                     # no `---` yet: the header block itself is the last chunk
    if not (old.endswith("\n") and text.startswith(old) and text.startswith("---", len(old))):
        return None
    split_at = len(old)
    rest_start = text.find("\n", split_at)
    if rest_start < 0 or text[split_at:rest_start].strip() != "---":
        return None
    line_of_separator = old.count("\n") + 1
    ended = chunk[:-1] if chunk.endswith("\n") else chunk          # its last line was the one now `---`
    hands = list(last.session.hands)
    if hands and hands[-1].line == first:
        hands.pop()
    new_chunks = [(first, ended), *split_tables(text[rest_start + 1:], name, line_of_separator + 1)]
    hands.extend(_hand_sources(new_chunks, name))
    session = Session(last.session.header, tuple(hands), last.session.head)
    _remember(name, _Read(text, session, new_chunks[-1]))
    return session


def _cut(last: _Read, text: str, name: str) -> Session | None:
    """The session `text` holds when it is `last.text` cut just before one of its `---` lines
    (the last hand taken back): the hands before the cut are kept, the one it now ends is read
    again with the line end it has now; None when the text is not so."""
    old = last.text
    if not (len(text) < len(old) and text.endswith("\n") and old.startswith(text)):
        return None
    end = old.find("\n", len(text))
    if old[len(text):end if end >= 0 else len(old)].strip() != "---":
        return None
    # The chunk the cut now ends: from the last `---` line of the text on (a few lines back).
    pieces = text.rsplit("\n", _CUT_LINES)
    lines = pieces if len(pieces) <= _CUT_LINES else pieces[1:]      # the last lines only, not the whole text
    total = text.count("\n") + 1
    back = next((k for k in range(len(lines) - 1, -1, -1) if lines[k].strip() == "---"), None)
    if back is None:
        return None                                        # a long last hand, or the header: read whole
    first = total - (len(lines) - back) + 2
    chunk = "\n".join(lines[back + 1:])
    if first <= last.session.header.where.line:
        return None
    hands = [h for h in last.session.hands if h.line < first]
    hands.extend(_hand_sources([(first, chunk)], name))
    session = Session(last.session.header, tuple(hands), last.session.head)
    _remember(name, _Read(text, session, (first, chunk)))
    return session


_CUT_LINES = 200                # how far back the last `---` is looked for


def _hand_sources(chunks: list[tuple[int, str]], name: str) -> list[HandSource]:
    """The hands of `---`-separated chunks, those that hold anything but comments."""
    return [HandSource(first, partial(_compact_hand, chunk, name, first), chunk) for first, chunk in chunks
            if holds_anything(chunk.split("\n"))]


def _compact_session(chunks: list[tuple[int, str]], name: str) -> Session:
    first_line, head_text = chunks[0]
    names, start, scheme, options, finished = None, 2000, None, {}, False
    scheme_where = Location()
    where = Location(name, first_line, 1)
    seen: set[str] = set()
    for line in logical_lines(head_text, name, first_line):
        word, args = line.tokens[0].text, line.tokens[1:]
        if word in seen:
            raise NotationError(_("'{header}' is given twice in the session's header").format(
                header=excerpt(word)), line.where, word)
        seen.add(word)
        if word == "players":
            if len(args) != 4:
                raise NotationError(_("'players' names the four players in seat order E S W N"),
                                    line.where, word)
            names = player_names([a.text for a in args], [a.where for a in args])
        elif word == "start":
            if len(args) != 1:
                raise NotationError(_("'start' takes each player's points before the first hand"),
                                    line.where, word)
            start = parse_number(args[0], "'start'")
        elif word == "scheme" and len(args) == 1:
            scheme, scheme_where = args[0].text, args[0].where
        elif word == "finished":
            if args:
                raise NotationError(_("'finished' takes nothing: it says the game is "
                                      "over"), args[0].where, args[0].text)
            finished = True
        elif word in SESSION_SETTINGS:
            options[SESSION_SETTINGS[word].name] = parse_setting(line.tokens[0], args, SESSION_SETTINGS)
        else:
            raise NotationError(_("'{word}' is not a session header ({headers}); hands follow the first ---").format(
                word=excerpt(word), headers=', '.join(SESSION_HEADERS)), line.where, word)
    if names is None:
        raise SessionError(_("a session starts with a header block naming the players "
                           "('players Ann Bob Cid Dee'), then '---' and the hands"), where)
    header = SessionHeader(names, start, scheme, ordered(options), where, scheme_where, finished)
    return Session(header, tuple(_hand_sources(chunks[1:], name)), head_text)


def _read_yaml_session(text: str, name: str) -> Session:
    import yaml

    nodes = [n for n in load_nodes(text, name) if n is not None]
    if len(nodes) != 1 or not isinstance(nodes[0], yaml.MappingNode):
        raise YamlFormError(_("a session file is one mapping with 'players' and 'hands'"), Location(name, 1, 1))
    reader = NodeReader(text, name)
    fields = reader.mapping(nodes[0], N_("a session"), SESSION_KEYS)
    where = reader.where(nodes[0])
    if "players" not in fields or "hands" not in fields:
        raise YamlFormError(_("a session needs 'players' (four names in seat order) and 'hands'"), where)
    pnode = fields["players"][1]
    if not isinstance(pnode, yaml.SequenceNode) or len(pnode.value) != 4:
        raise YamlFormError(_("'players' lists the four players' names in seat order E S W N"), reader.where(pnode))
    names = player_names([reader.text(n, N_("a player's name")) for n in pnode.value],
                         [reader.where(n) for n in pnode.value])
    start = 2000
    if "start" in fields:
        given = reader.scalar(fields["start"][1], "'start'")
        if not isinstance(given, int) or isinstance(given, bool) or not 0 <= given <= MAX_SCORE:
            raise YamlFormError(_("'start' takes a whole number from 0 to {most}").format(most=f"{MAX_SCORE:,}"),
                                reader.where(fields["start"][1]))
        start = given
    scheme = reader.text(fields["scheme"][1], "'scheme'") if "scheme" in fields else None
    scheme_where = reader.where(fields["scheme"][1]) if "scheme" in fields else Location()
    options = reader.header_values(fields, SESSION_SETTINGS).options
    finished = False
    if "finished" in fields:
        given = reader.scalar(fields["finished"][1], "'finished'")
        if not isinstance(given, bool):
            raise YamlFormError(_("'finished' takes true or false"), reader.where(fields["finished"][1]))
        finished = given
    hnode = fields["hands"][1]
    if not isinstance(hnode, yaml.SequenceNode):
        raise YamlFormError(_("'hands' is a list of tables"), reader.where(hnode))
    hands = [HandSource(item.start_mark.line + 1, partial(_yaml_hand, reader, item)) for item in hnode.value]
    return Session(SessionHeader(names, start, scheme, options, where, scheme_where, finished), tuple(hands))


# Words a name cannot be, in any case: it would read as a seat or a word of the notation.
_NOT_NAMES = frozenset(w.casefold() for w in ("E", "S", "W", "N", *HEADERS, "score", "win", "from", "self", "discarded",
                                              "liable", "to", "players", "start", *FLAGS))
_NOT_IN_NAMES = frozenset(":;#=[](){}<>|\\\"'`")
MAX_NAME = 32


def player_names(names: list[str], places: list[Location]) -> tuple[str, ...]:
    """The four players' names, each normalised (NFKC: a full-width or composed letter is the
    plain one), checked that it can stand where a seat goes in a hand and be written back in the
    notation, and that no two are one name once case and form are set aside."""
    out: list[str] = []
    for raw, where in zip(names, places, strict=True):
        name = unicodedata.normalize("NFKC", raw)
        why = _unwritable(name)
        if why:
            raise NotationError(_("'{name}' cannot be a player's name: {why}").format(
                name=excerpt(raw), why=why), where, raw)
        clash = next((n for n in out if name_key(n) == name_key(name)), None)
        if clash is not None:
            raise NotationError(_("'{name}' and '{other}' are one name: 'players' names four different "
                                  "players").format(name=excerpt(raw), other=excerpt(clash)), where, raw)
        out.append(name)
    return tuple(out)


def name_problem(name: str) -> str | None:
    """Why a name cannot be a player's (as `player_names` says it), or None when it can."""
    return _unwritable(unicodedata.normalize("NFKC", name))


def _unwritable(name: str) -> str | None:
    if not name:
        return _("it is empty")
    if any(0xDC80 <= ord(c) <= 0xDCFF for c in name):
        return _("it holds a byte that is not UTF-8")
    if not name.isprintable():
        return _("it holds a control character or one that prints as nothing")
    if any(c.isspace() for c in name):
        return _("a name is one word (no spaces), as the header and the hands write it")
    if any(c in _NOT_IN_NAMES for c in name) or name.startswith("..."):
        return _("it holds a character the notation reads as its own (: ; # = brackets quotes)")
    if name.startswith("-"):
        # `--players A B C --lan` would take the option for a name; `---` separates hands.
        return _("a name does not start with '-' (on a command line it reads as an option)")
    if name_key(name) in _NOT_NAMES:
        return _("it would read as a seat or a word of the notation")
    if len(name) > MAX_NAME:
        return _("a name has at most {most} characters").format(most=MAX_NAME)
    return None
