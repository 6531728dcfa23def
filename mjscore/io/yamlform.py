"""Tables written in YAML: the same content as the compact form, read with the safe loader.

The YAML is first run through the event parser (which is iterative, so deep nesting cannot
exhaust the stack) to refuse absurd input: too deep, too many aliases, too many nodes.  Only
then is it composed into nodes, and tables are built from the nodes themselves so that every
error can point at the line and column of the value at fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from mjscore.io.notation import (
    TABLE_SETTINGS,
    ColumnOf,
    Token,
    parse_player_tokens,
    parse_table,
    name_seat,
    resolve_names,
    tokens_of,
)
from mjscore.io.yamlsafe import load_nodes, mark_location
from mjscore.model.errors import Location, MjError, NotationError, YamlFormError
from mjscore.model.settings import ROTATION, SETTINGS, Setting
from mjscore.model.table import COUNTERS, RECORD_NUMBERS, PlayerHand, Table
from mjscore.model.tiles import SEATS, WIND_BY_LETTER, Wind
from mjscore.model.say import N_, _

if TYPE_CHECKING:                  # yaml is imported when a YAML text is read, not at start-up
    from yaml.nodes import Node

# A scalar as YAML's core schema reads it (other tags are refused before).
Scalar = str | int | bool | None
# A mapping's entries by key: (key node, value node).
Fields = dict[str, tuple["Node", "Node"]]

TABLE_KEYS = {"round", "scheme", "draw", "players", "name", "id", "penalties", *(x.name for x in SETTINGS),
              *COUNTERS, *COUNTERS.values(), *RECORD_NUMBERS, *RECORD_NUMBERS.values()}
PLAYER_KEYS = {"tiles", "bonus", "win", "claim", "name", "score", "incomplete", "discarded"}
WIN_KEYS = {"tile", "from", "self", "flags", "liable"}
SESSION_KEYS = {"players", "scheme", "start", "finished", "hands", *(x.name for x in SETTINGS + ROTATION)}

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_FLOAT = "tag:yaml.org,2002:float"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_SAFE_TAGS = {_STR, _INT, _BOOL, _NULL, _FLOAT, _SEQ, _MAP}


class NodeReader:
    """Builds tables from composed YAML nodes, checking shapes and types as it goes."""

    def __init__(self, text: str, file: str):
        self.file = file
        self.names: dict[str, str] = {}        # a session's hand: player's name -> seat letter
        self.lines = text.split("\n")
        self.seen = 0

    # -- node helpers -----------------------------------------------------------------------
    def where(self, node: Node) -> Location:
        return mark_location(self.file, node.start_mark)

    def count(self, node: Node) -> None:
        # Aliases share nodes; counting every visit bounds what a billion-laughs document costs.
        self.seen += 1
        if self.seen > 200_000:
            raise YamlFormError(_("YAML expands to too many values: refused (alias bomb?)"), self.where(node))
        if node.tag not in _SAFE_TAGS:
            raise YamlFormError(_("YAML tag '{tag}' is not allowed: tables are plain data").format(
                tag=node.tag), self.where(node))

    # `what`, below, names the value in a message: a phrase marked N_ or notation ("'round'"),
    # translated where the message is made (an error), not on the way there.
    def scalar(self, node: Node, what: str) -> Scalar:
        import yaml

        self.count(node)
        if not isinstance(node, yaml.ScalarNode):
            raise YamlFormError(_("{what} must be a single value, not a list or mapping").format(
                what=_(what)), self.where(node))
        value: str = node.value          # a scalar node's value is its text
        if node.tag == _STR:
            return value
        if node.tag == _INT:
            try:
                return int(value.replace("_", ""), 0)
            except ValueError:
                return value
        if node.tag == _BOOL:
            return value.lower() in ("true", "yes", "on", "y")
        if node.tag == _NULL:
            return None
        return value

    def text(self, node: Node, what: str) -> str:
        v = self.scalar(node, what)
        if v is None:
            return ""
        if isinstance(v, bool):
            raise YamlFormError(_("{what} must be text, not {value}").format(
                what=_(what), value=node.value), self.where(node))
        return str(v)

    def mapping(self, node: Node, what: str, allowed: set[str]) -> Fields:
        import yaml

        self.count(node)
        if not isinstance(node, yaml.MappingNode):
            raise YamlFormError(_("{what} must be a mapping").format(what=_(what)), self.where(node))
        out: Fields = {}
        for k, v in node.value:
            key = self.scalar(k, N_("a key"))
            if not isinstance(key, str) or key not in allowed:
                raise YamlFormError(_("unknown key '{key}' in {what}; known: {keys}").format(
                    key=key, what=_(what), keys=', '.join(sorted(allowed))),
                                    self.where(k), str(key))
            if key in out:
                raise YamlFormError(_("key '{key}' is given twice in {what}").format(
                    key=key, what=_(what)), self.where(k), key)
            out[key] = (k, v)
        return out

    def column_of(self, node: Node) -> ColumnOf:
        """Map (line, column) inside a string value to the file position of its text."""
        base_line = node.start_mark.line + 1
        base_col = node.start_mark.column + 1
        style = getattr(node, "style", None)     # a scalar's: `text` has refused any other node
        if style in ("|", ">"):
            indent = None
            for raw in self.lines[node.start_mark.line + 1:]:
                if raw.strip():
                    indent = len(raw) - len(raw.lstrip(" "))
                    break
            indent = indent or 0
            return lambda line, col: (base_line + line, indent + col)
        shift = 1 if style in ('"', "'") else 0
        return lambda line, col: (base_line + line - 1, (base_col + shift + col - 1) if line == 1 else col)

    def tokens(self, node: Node, what: str) -> tuple[Token, ...]:
        text = self.text(node, what)
        return tokens_of(text, self.file, 1, self.column_of(node))

    # -- tables -----------------------------------------------------------------------------
    def table_nodes(self, doc: Node) -> list[Node]:
        """The nodes of a document's tables: a list's items, the hands of a session (the session's
        own keys are checked here; running a session is the session module's business), or the
        document itself."""
        import yaml

        if isinstance(doc, yaml.SequenceNode):
            self.count(doc)
            items: list[Node] = doc.value
            return items
        if not (isinstance(doc, yaml.MappingNode) and any(
                isinstance(k, yaml.ScalarNode) and k.value == "hands" for k, __ in doc.value)):
            return [doc]
        fields = self.mapping(doc, N_("a session"), SESSION_KEYS)
        hands = fields["hands"][1]
        self.count(hands)
        if not isinstance(hands, yaml.SequenceNode):
            raise YamlFormError(_("'hands' must be a list of tables"), self.where(hands))
        items = hands.value
        return items

    def table(self, node: Node) -> Table:
        import yaml

        if isinstance(node, yaml.ScalarNode):
            text = self.text(node, N_("a table"))
            return parse_table(text, self.file, 1, self.column_of(node), allow_empty=False, names=self.names)
        fields = self.mapping(node, N_("a table"), TABLE_KEYS)
        if "players" not in fields and "draw" not in fields:
            raise YamlFormError(_("a table needs 'players' (seat: hand)"), self.where(node))
        round_wind = Wind.EAST
        if "round" in fields:
            k, v = fields["round"]
            r = self.text(v, "'round'")
            if r not in WIND_BY_LETTER:
                raise YamlFormError(_("'round' takes a wind (E, S, W or N), not '{token}'").format(token=r),
                                    self.where(v), r)
            round_wind = WIND_BY_LETTER[r]
        scheme = self.text(fields["scheme"][1], "'scheme'") if "scheme" in fields else None
        draw = False
        if "draw" in fields:
            d = self.scalar(fields["draw"][1], "'draw'")
            if not isinstance(d, bool):
                raise YamlFormError(_("'draw' takes true or false"), self.where(fields["draw"][1]))
            draw = d
        counters = {}
        for word, name in {**COUNTERS, **RECORD_NUMBERS}.items():
            given = fields.get(word) or fields.get(name)
            if given is not None:
                n = self.scalar(given[1], f"'{word}'")
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1000:
                    raise YamlFormError(_("'{word}' takes a whole number from 0 to 1000").format(
                        word=word), self.where(given[1]))
                counters[name] = n
        headers = self.header_values(fields)
        players: dict[Wind, PlayerHand] = {}
        if "players" in fields:
            pnode = fields["players"][1]
            allowed = set(WIND_BY_LETTER) | set(self.names)
            if self.names and isinstance(pnode, yaml.MappingNode):
                # A session's players by name, written in any case (`ann:` is Ann).
                allowed |= {k.value for k, __ in pnode.value
                            if isinstance(k.value, str) and name_seat(self.names, k.value) is not None}
            pmap = self.mapping(pnode, "'players'", allowed)
            for seat_text, (knode, vnode) in pmap.items():
                seat = WIND_BY_LETTER[name_seat(self.names, seat_text) or seat_text]
                if seat in players:
                    raise YamlFormError(_("seat {seat} is listed twice").format(seat=seat.value), self.where(knode))
                players[seat] = self.player(seat, knode, vnode)
        if not players and not draw:
            raise YamlFormError(_("the table lists no players"), self.where(node))
        return Table(players=tuple(players[w] for w in SEATS if w in players), round=round_wind,
                     scheme=scheme, draw=draw, **counters, penalties=headers.penalties,
                     options=headers.options, where=self.where(node), names=(),
                     stated=frozenset(k for k in ("round", *COUNTERS) if k in fields or COUNTERS.get(k) in fields))

    def header_values(self, fields: Fields, settings: Mapping[str, Setting[Any]] = TABLE_SETTINGS) -> Table:
        """The settings and penalties among a table's (or with SESSION_SETTINGS a session's) YAML
        keys, as a table header holds them: they go through the compact form's own checks,
        pointing at the YAML."""
        import yaml

        header_lines = []
        for setting in settings.values():
            if setting.name in fields:
                k, v = fields[setting.name]
                value = self.scalar(v, f"'{setting.name}'")
                header_lines.append((v, f"{setting.word} {setting.text(value)}"))
        if "penalties" in fields:
            pnode = fields["penalties"][1]
            items = pnode.value if isinstance(pnode, yaml.SequenceNode) else [pnode]
            self.count(pnode)
            for item in items:
                if isinstance(item, yaml.MappingNode):
                    pf = self.mapping(item, N_("a penalty"), {"from", "amount", "to"})
                    text = f"penalty {self.text(pf['from'][1], 'from') if 'from' in pf else ''} " \
                           f"{self.text(pf['amount'][1], 'amount') if 'amount' in pf else ''}"
                    if "to" in pf:
                        text += f" to {self.text(pf['to'][1], 'to')}"
                else:
                    text = "penalty " + self.text(item, N_("a penalty"))
                header_lines.append((item, text))
        if not header_lines:
            return Table()
        return parse_table("\n".join(t for __, t in header_lines), self.file, 1,
                           lambda line, col: (header_lines[line - 1][0].start_mark.line + 1,
                                              header_lines[line - 1][0].start_mark.column + 1),
                           allow_empty=True, names=self.names, settings=settings)

    def player(self, seat: Wind, knode: Node, vnode: Node) -> PlayerHand:
        import yaml

        head = Token.at(f"{seat.value}:", self.where(knode))
        # Named with its seat, so said once a player (not a word): translated here, and again
        # (to the same) where a message shows it.
        what = _("player {seat}").format(seat=seat.value)
        if not isinstance(vnode, yaml.MappingNode):
            return parse_player_tokens(seat, head, self.seats(self.tokens(vnode, what)))
        fields = self.mapping(vnode, what, PLAYER_KEYS)
        toks: list[Token] = []
        for key in ("tiles", "bonus"):
            if key in fields:
                node = fields[key][1]
                if isinstance(node, yaml.SequenceNode):
                    self.count(node)
                    for item in node.value:
                        toks.extend(self.tokens(item, f"'{key}'"))
                else:
                    toks.extend(self.tokens(node, f"'{key}'"))
        if "discarded" in fields:
            node = fields["discarded"][1]
            toks.append(Token.at("discarded", self.where(fields["discarded"][0])))
            for item in (node.value if isinstance(node, yaml.SequenceNode) else [node]):
                toks.extend(self.tokens(item, "'discarded'"))
        if "incomplete" in fields and self.scalar(fields["incomplete"][1], "'incomplete'") is True:
            toks.append(Token.at("...", self.where(fields["incomplete"][1])))
        if "score" in fields:
            toks += [Token.at("score", self.where(fields["score"][0])),
                     self.number_token(fields["score"][1], "'score'")]
        if "win" in fields:
            toks.extend(self.win_tokens(fields["win"][0], fields["win"][1]))
        if "claim" in fields:
            toks += [Token.at("=", self.where(fields["claim"][0])), self.number_token(fields["claim"][1], "'claim'")]
        hand = parse_player_tokens(seat, head, self.seats(tuple(toks)))
        if "name" in fields:
            name = self.text(fields["name"][1], "'name'").strip()
            hand = dataclasses.replace(hand, name=name or None)
        return hand

    def seats(self, tokens: tuple[Token, ...]) -> tuple[Token, ...]:
        """Players' names in seat positions (`from Bob`), in a session's hand, made seats."""
        if not self.names or not tokens:
            return tuple(tokens)
        return resolve_names((Token.at("-", tokens[0].where), *tokens), self.names)[1:]

    def number_token(self, node: Node, what: str) -> Token:
        v = self.scalar(node, what)
        if not isinstance(v, int) or isinstance(v, bool):
            raise NotationError(_("{what} takes a whole number, not '{value}'").format(
                what=_(what), value=node.value), self.where(node), node.value)
        return Token.at(str(v), self.where(node))

    def win_tokens(self, knode: Node, vnode: Node) -> list[Token]:
        import yaml

        at = self.where(knode)
        if isinstance(vnode, yaml.ScalarNode):
            # `win: 5p from N` -- the clause as text
            return [Token.at("win", at), *self.tokens(vnode, "'win'")]
        fields = self.mapping(vnode, "'win'", WIN_KEYS)
        toks = [Token.at("win", at)]
        if "tile" in fields:
            toks.extend(self.tokens(fields["tile"][1], "'tile'"))
        if "from" in fields and self.scalar(fields["from"][1], "'from'") not in (None, "self"):
            toks += [Token.at("from", self.where(fields["from"][0])), *self.tokens(fields["from"][1], "'from'")]
        else:
            toks.append(Token.at("self", self.where(fields["from"][0] if "from" in fields else knode)))
        if "liable" in fields:
            toks += [Token.at("liable", self.where(fields["liable"][0])), *self.tokens(fields["liable"][1], "'liable'")]
        if "flags" in fields:
            node = fields["flags"][1]
            if isinstance(node, yaml.SequenceNode):
                self.count(node)
                for item in node.value:
                    toks.extend(self.tokens(item, N_("a flag")))
            else:
                toks.extend(self.tokens(node, "'flags'"))
        return toks


def parse_yaml_tables(text: str, file: str = "<input>") -> list[Table]:
    """Every table of a YAML text (one table, a list of tables, several documents, a session),
    each of them a table; the first error is raised."""
    tables: list[Table] = []
    for __, item in iter_yaml_tables(text, file):
        if isinstance(item, MjError):
            raise item
        tables.append(item)
    if not tables:
        raise YamlFormError(_("the YAML holds no table"), Location(file, 1, 1))
    return tables


def iter_yaml_tables(text: str, file: str) -> Iterator[tuple[int, Table | MjError]]:
    """(line, Table) or (line, MjError) for each table of a YAML text, in order: a bad table
    does not stop the others."""
    reader = NodeReader(text, file)
    try:
        docs = load_nodes(text, file)
    except MjError as e:
        yield e.location.line or 1, e
        return
    for doc in docs:
        if doc is None:
            continue
        try:
            nodes = reader.table_nodes(doc)
        except MjError as e:                        # a list or a session that is none
            yield e.location.line or doc.start_mark.line + 1, e
            continue
        for node in nodes:
            try:
                yield node.start_mark.line + 1, reader.table(node)
            except MjError as e:
                yield node.start_mark.line + 1, e
