"""Sessions: a whole evening's hands, seats rotating as the rules say, running totals, settle-up.

A session file names the players in seat order at the first hand and lists the hands, each
written by that hand's seat winds.  mjscore keeps the seating itself (reference/payments.md
section 11): East keeps the deal when East wins (up to the scheme's streak limit), the deal
passes to South otherwise; after a draw it passes or stays as the scheme says; the prevailing
wind moves on once every seat has dealt.  A hand may state its round, its dealer-wins or its
players' names; if they contradict the rotation, that is an error naming the hand.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field

from mjscore.model.errors import Location, MjError, NotationError, TableError, YamlFormError
from mjscore.model.table import OPTION_HEADERS, Table
from mjscore.model.tiles import SEATS, Wind

SESSION_HEADERS = {"players", "start", "scheme", *OPTION_HEADERS}


@dataclass(frozen=True)
class SessionHeader:
    names: tuple[str, str, str, str]          # seat order E S W N at the first hand
    start: int = 2000
    scheme: str | None = None
    options: tuple[tuple[str, object], ...] = ()   # settlement options for every hand
    where: Location = field(default_factory=Location, compare=False)


@dataclass(frozen=True)
class Session:
    header: SessionHeader
    hands: tuple                               # Table, or MjError for a hand that could not be read


class SessionError(TableError):
    """A hand that contradicts the rotation, or a session file without players."""


# -- reading -----------------------------------------------------------------------------------

def read_session(text: str, name: str) -> Session:
    from mjscore.io.reader import looks_like_yaml

    if looks_like_yaml(text, name):
        return _read_yaml_session(text, name)
    return _read_compact_session(text, name)


def _read_compact_session(text: str, name: str) -> Session:
    """A header block (`players A B C D`, `start N`, `scheme`, settlement options), `---`, hands."""
    from mjscore.io.notation import logical_lines, parse_table, split_tables

    chunks = list(split_tables(text, name))
    first_line, head_text = chunks[0]
    names, start, scheme, options = None, 2000, None, {}
    where = Location(name, first_line, 1)
    for line in logical_lines(head_text, name, first_line):
        word, args = line.tokens[0].text, line.tokens[1:]
        if word == "players":
            if len(args) != 4:
                raise NotationError("'players' names the four players in seat order E S W N",
                                    line.where, word)
            names = tuple(a.text for a in args)
        elif word == "start":
            if len(args) != 1 or not args[0].text.isdigit():
                raise NotationError("'start' takes each player's points before the first hand",
                                    line.where, word)
            start = int(args[0].text)
        elif word == "scheme" and len(args) == 1:
            scheme = args[0].text
        elif word in OPTION_HEADERS:
            t = parse_table(f"{word} {' '.join(a.text for a in args)}", name, line.where.line, allow_empty=True)
            options.update(t.options)
        else:
            raise NotationError(f"'{word}' is not a session header (players, start, scheme, paying, payoff, "
                                "east-double, round-payments-up, loser-difference-limit); hands follow the first ---",
                                line.where, word)
    if names is None:
        raise SessionError("a session starts with a header block naming the players "
                           "('players Ann Bob Cid Dee'), then '---' and the hands", where)
    hands = []
    for first, chunk in chunks[1:]:
        if not any(ln.split("#", 1)[0].strip() for ln in chunk.splitlines()):
            continue
        try:
            hands.append(parse_table(chunk, name, first))
        except MjError as e:
            hands.append(e)
    header = SessionHeader(names, start, scheme, tuple(options.items()), where)
    return Session(header, tuple(hands))


def _read_yaml_session(text: str, name: str) -> Session:
    import yaml

    from mjscore.io.yamlform import SESSION_KEYS, _Reader, load_nodes

    nodes = [n for n in load_nodes(text, name) if n is not None]
    if len(nodes) != 1 or not isinstance(nodes[0], yaml.MappingNode):
        raise YamlFormError("a session file is one mapping with 'players' and 'hands'", Location(name, 1, 1))
    reader = _Reader(text, name)
    fields = reader.mapping(nodes[0], "a session", SESSION_KEYS)
    where = reader.where(nodes[0])
    if "players" not in fields or "hands" not in fields:
        raise YamlFormError("a session needs 'players' (four names in seat order) and 'hands'", where)
    pnode = fields["players"][1]
    if not isinstance(pnode, yaml.SequenceNode) or len(pnode.value) != 4:
        raise YamlFormError("'players' lists the four players' names in seat order E S W N", reader.where(pnode))
    names = tuple(reader.text(n, "a player's name") for n in pnode.value)
    start = 2000
    if "start" in fields:
        start = reader.scalar(fields["start"][1], "'start'")
        if not isinstance(start, int) or isinstance(start, bool):
            raise YamlFormError("'start' takes a whole number", reader.where(fields["start"][1]))
    scheme = reader.text(fields["scheme"][1], "'scheme'") if "scheme" in fields else None
    options = reader.header_values(fields).options
    hnode = fields["hands"][1]
    if not isinstance(hnode, yaml.SequenceNode):
        raise YamlFormError("'hands' is a list of tables", reader.where(hnode))
    hands = []
    for item in hnode.value:
        try:
            hands.append(reader.table(item))
        except MjError as e:
            hands.append(e)
    return Session(SessionHeader(names, start, scheme, options, where), tuple(hands))


# -- playing it through ------------------------------------------------------------------------

@dataclass
class Seating:
    """Who is East, the prevailing wind, and East's run of wins."""

    dealer: int = 0          # index into the header's names of the player who is East
    round: int = 0           # 0 = East round ... 3 = North round; beyond: the game goes on round the winds
    passes: int = 0          # deals passed in this round
    streak: int = 0          # East's wins in a row

    def seat_of(self, player: int) -> Wind:
        return SEATS[(player - self.dealer) % 4]

    def player_at(self, seat: Wind) -> int:
        return (self.dealer + seat.number - 1) % 4

    def pass_deal(self) -> None:
        self.dealer = (self.dealer + 1) % 4
        self.streak = 0
        self.passes += 1
        if self.passes == 4:
            self.passes = 0
            self.round += 1


def play(session: Session, choices) -> dict:
    """Every hand scored and settled in order; raises MjError on the first bad hand."""
    from mjscore.pipeline import evaluate, scheme_for

    h = session.header
    names = h.names
    totals = {n: h.start for n in names}
    seating = Seating()
    results = []
    for number, hand in enumerate(session.hands, start=1):
        if isinstance(hand, MjError):
            raise hand
        prevailing = SEATS[seating.round % 4]
        _check_against_rotation(hand, number, prevailing, seating, names)
        table = _with_session_values(hand, h, prevailing, seating)
        scheme = scheme_for(table, choices)
        result = evaluate(table, choices)
        by_seat = {s: names[seating.player_at(s)] for s in SEATS}
        result["hand"] = number
        result["dealer"] = by_seat[Wind.EAST]
        result["names"] = {s.value: by_seat[s] for s in SEATS}
        net = (result["settlement"] or {}).get("net")
        if net is None:
            raise SessionError(f"hand {number} cannot be settled: {result.get('settlement_error')}", hand.where)
        for s in SEATS:
            totals[by_seat[s]] += net.get(s.value, 0)
        result["totals"] = dict(totals)
        results.append(result)
        _rotate(seating, table, scheme)
    standings = sorted(names, key=lambda n: (-totals[n], names.index(n)))
    out = {"players": list(names), "start": h.start, "hands": results, "totals": totals,
           "standings": [{"name": n, "total": totals[n]} for n in standings]}
    balance = {n: totals[n] - h.start for n in names}
    if sum(balance.values()) == 0:
        out["settle_up"] = settle_up(balance)
    else:
        # add-up: the totals only grow, so there is nothing to hand over at the end
        out["settle_up"] = None
        out["settle_up_note"] = "the totals were added up (add-up): no payments to settle"
    return out


def _check_against_rotation(hand: Table, number: int, prevailing: Wind, seating: Seating, names) -> None:
    if "round" in hand.stated and hand.round is not prevailing:
        raise SessionError(f"hand {number} says round {hand.round.value}, but by the rotation it is played "
                           f"in the {prevailing.name.lower()} round", hand.where, "round")
    if "dealer-wins" in hand.stated and hand.dealer_wins != seating.streak:
        raise SessionError(f"hand {number} says dealer-wins {hand.dealer_wins}, but East has won "
                           f"{seating.streak} in a row", hand.where, "dealer-wins")
    for p in hand.players:
        if p.name is not None:
            expected = names[seating.player_at(p.seat)]
            if p.name != expected:
                raise SessionError(f"hand {number} seats {p.name} at {p.seat.value}, but by the rotation "
                                   f"{expected} sits there", p.where, p.name)


def _with_session_values(hand: Table, h: SessionHeader, prevailing: Wind, seating: Seating) -> Table:
    options = dict(h.options)
    options.update(dict(hand.options))           # the hand's own header wins over the session's
    order = list(OPTION_HEADERS.values())
    return dataclasses.replace(hand, round=prevailing, dealer_wins=seating.streak,
                               scheme=hand.scheme or h.scheme,
                               options=tuple((k, options[k]) for k in order if k in options))


def _rotate(seating: Seating, table: Table, scheme) -> None:
    rotation = scheme.rotation
    winner = table.winner
    if table.draw or winner is None:
        if rotation.get("draw_passes_deal", True):
            seating.pass_deal()
        else:
            seating.streak = 0          # a draw breaks East's run of wins; East deals again
        return
    if winner.seat is Wind.EAST:
        seating.streak += 1
        limit = rotation.get("dealer_streak_limit")
        if limit and seating.streak >= limit:
            seating.pass_deal()         # the limit-hand win ends East's deal
    else:
        seating.pass_deal()


# -- settle-up ---------------------------------------------------------------------------------

def settle_up(balance: dict[str, int]) -> list[dict]:
    """Who pays whom at the end, in the fewest transfers.

    Players split into as many groups as possible whose balances sum to zero; each group of k
    players settles in k - 1 transfers (largest debtor to largest creditor, repeatedly), which
    is the fewest possible.
    """
    people = [p for p, b in balance.items() if b != 0]
    best = _zero_groups(tuple(people), balance)
    out = []
    for group in best:
        debt = {p: balance[p] for p in group}
        while any(debt.values()):
            payer = min(debt, key=lambda p: (debt[p], p))
            payee = max(debt, key=lambda p: (debt[p], p))
            amount = min(-debt[payer], debt[payee])
            out.append({"from": payer, "to": payee, "amount": amount})
            debt[payer] += amount
            debt[payee] -= amount
    return out


def _zero_groups(people: tuple, balance: dict) -> list[tuple]:
    """The partition of `people` into the most zero-sum groups (few players: exhaustive)."""
    if not people:
        return []
    first, rest = people[0], people[1:]
    best = None
    for size in range(1, len(rest) + 1):
        for others in itertools.combinations(rest, size):
            group = (first,) + others
            if sum(balance[p] for p in group) != 0:
                continue
            remaining = tuple(p for p in rest if p not in others)
            split = [group] + _zero_groups(remaining, balance)
            if best is None or len(split) > len(best):
                best = split
    return best or [people]
