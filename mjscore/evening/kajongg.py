"""Kajongg's games as evening files, and how far `session` of them gives Kajongg's own figures.

Each game of a Kajongg database (io.kajongg_db) becomes one compact evening file that `mjscore
session` plays: the players by name in Kajongg's seat order, `start 0` (Kajongg's balances start
at nothing), the scheme that reproduces the game's rule set (`kajongg-dmjl` for "Classical
Chinese DMJL", `kajongg-bmja` for "Classical Chinese BMJA"), then every hand with each player's
tiles as Kajongg recorded them, the winner, the winning tile and how it came, and `round` (a
comment names the dealer and who sits where, and at a new round who exchanged seats: the scheme
seats the players as Kajongg does, so the file states no seats).

Kajongg records no more than that.  What it leaves out, the file says in a comment where it
stands in for it:

- who discarded the winning tile: `from` names the player before the winner in the order of
  play (under these schemes who discarded it changes no score and no payment), the player who
  pays for all (`liable`, Kajongg's "Dangerous Game"), the robbed player, or East for a win on
  East's first discard;
- the robbed tile: Kajongg leaves it in the kong it robbed; the file writes that set as the
  pung it was before the tile was added (the notation's `robbed` asks it, and four of a tile is
  all there is).

`check_game` then plays the file and compares every hand's scores and payments, and the final
balances, with the ones Kajongg stored, and names each hand that departs with the reason: a
winner's hand that Kajongg scored as the robot declared it (shown, not guessed: of the ways
mjscore finds the same tiles go out, the one with Kajongg's sets gives Kajongg's figure), or a
robbed kong that Kajongg scored as a kong.  `import_games` writes the files, the departures
noted in them.

A player's hand string that cannot be read (or a winner's that the notation cannot write) costs
that hand, never the game or the database: that player's line is `score N` with the score Kajongg
stored, a comment says whose string and why, and the check names the hand (`unread`) and does
not count it as agreeing.
"""

from __future__ import annotations

import datetime
import os
import re
import textwrap
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from mjscore.io.kajongg_db import KajonggDatabase, KajonggGame, KajonggHand, KHand, KMeld, Source, parse_hand_string
from mjscore.store.atomic import check_writable, replace
from mjscore.io.sessionfile import name_problem, read_session
from mjscore.model.errors import InputError, Location, MjError, escaped, excerpt
from mjscore.model.say import _, n_
from mjscore.model.table import Form, SetKind, name_key
from mjscore.model.tiles import SEATS, Suit, Tile, Wind
from mjscore.pipeline import TableResult
from mjscore.scoring.score import Valuation, winning_valuations
from mjscore.evening.session import SessionResult, play

# Kajongg's rule sets that a shipped scheme reproduces (schemes/kajongg-*.yaml).
SCHEMES = {"Classical Chinese DMJL": "kajongg-dmjl", "Classical Chinese BMJA": "kajongg-bmja"}
DANGEROUS_GAME = "Dangerous Game"       # the rule whose `payforall` makes one loser pay for all


@dataclass(frozen=True)
class Departure:
    """A hand whose figures under mjscore are not the ones Kajongg stored, and why."""

    hand: int                      # the hand's number in the evening file (1, 2, ...)
    kajongg_hand: int              # score.hand (0, 1, ...)
    players: tuple[str, ...]       # whose score differs (the winner's or the robbed player's)
    why: str

    def as_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "kajongg_hand": self.kajongg_hand, "players": list(self.players), "why": self.why}


@dataclass(frozen=True)
class GameCheck:
    """A game's evening file played through, against what Kajongg stored."""

    hands: int
    agreeing: int                              # hands whose four scores and four payments agree
    balances: dict[str, int]                   # Kajongg's final balance, by our name
    totals: dict[str, int]                     # `session`'s final totals
    departures: tuple[Departure, ...]
    errors: tuple[str, ...] = ()               # hands `session` could not play (none for a good import)
    unread: tuple[Departure, ...] = ()         # hands with a player's tiles not read: that line is Kajongg's score

    @property
    def balances_agree(self) -> bool:
        return not self.errors and self.balances == self.totals

    def as_dict(self) -> dict[str, object]:
        return {"hands": self.hands, "agreeing": self.agreeing, "balances_agree": self.balances_agree,
                "kajongg_balances": dict(self.balances), "totals": dict(self.totals),
                "departures": [d.as_dict() for d in self.departures], "errors": list(self.errors),
                "unread": [d.as_dict() for d in self.unread]}


@dataclass(frozen=True)
class KajonggEvening:
    """One game as an evening file: its name, its text, and the facts the check needs."""

    game: KajonggGame
    file_name: str
    text: str
    scheme: str
    names: dict[int, str]                      # Kajongg's player id -> the evening's name
    hands: tuple[_Hand, ...]


@dataclass(frozen=True)
class _Hand:
    """One hand as written, with what the check needs of it."""

    source: KajonggHand
    lines: tuple[str, ...]                     # the hand's text in the file, its comments aside
    seats: dict[Wind, int]                     # seat -> Kajongg's player id
    robbed: tuple[Wind, Tile] | None = None    # the robbed player's seat, the tile (written as a pung)
    winner: KHand | None = None                # the winner's hand as Kajongg recorded it (None: not read)
    unread: tuple[tuple[Wind, str], ...] = ()  # whose hand string was not read (by seat), and why


def evening_of(game: KajonggGame, database: str, notes: dict[int, str] | None = None) -> KajonggEvening:
    """The evening file of one Kajongg game (InputError for a rule set no scheme reproduces or
    penalty rows that do not say who paid whom; a hand string that cannot be read costs only its
    hand, `_hand`); `notes` (hand number -> text) go into the hands' comments."""
    where = Location(database)
    scheme = SCHEMES.get(game.ruleset)
    if scheme is None:
        known = " and ".join(f'"{n}"' for n in SCHEMES)
        raise InputError(_("game {game}: its rule set \"{rules}\" is not one mjscore reproduces (it reads "
                           "{known})").format(game=game.id, rules=escaped(game.ruleset), known=known), where)
    names = _names(game)
    hands = tuple(_hand(game, h, names, where) for h in game.hands)
    head = _head(game, database, scheme, names)
    body = []
    prev: _Hand | None = None
    for k, h in enumerate(hands, start=1):
        note = (notes or {}).get(k)
        said = ([_("# mjscore departs from Kajongg here:"), *(f"#   {x}" for x in textwrap.wrap(note, 90))]
                if note else [])
        body.append("\n".join([*_comments(k, h, prev, names, game), *said, *h.lines]))
        prev = h
    text = head + "\n---\n" + "\n---\n".join(body) + "\n"
    return KajonggEvening(game, _file_name(game), text, scheme, names, hands)


# -- names -------------------------------------------------------------------------------------

def _names(game: KajonggGame) -> dict[int, str]:
    """Each player's name as an evening writes it: one word (spaces become `_`), only the
    characters a name may hold; a name that cannot be made so, or that two players would share,
    is `Player` and Kajongg's id."""
    out: dict[int, str] = {}
    for pid, raw in game.players:
        name = re.sub(r"[^\w.+-]+", "_", unicodedata.normalize("NFKC", raw).strip()).strip("_")
        name = name.lstrip("-.")[:32]
        if not name or name_problem(name) or any(name_key(name) == name_key(n) for n in out.values()):
            name = f"Player{pid}"
        out[pid] = name
    return out


def _file_name(game: KajonggGame) -> str:
    """`2026-12-01-222605-game1.mj`: the game's start (when Kajongg wrote one) and its number."""
    try:
        start = datetime.datetime.fromisoformat(game.start)
        return f"{start:%Y-%m-%d-%H%M%S}-game{game.id}.mj"
    except ValueError:
        return f"game{game.id}.mj"


def _head(game: KajonggGame, database: str, scheme: str, names: dict[int, str]) -> str:
    kajongg = ", ".join(escaped(n) for _player, n in game.players)
    ours = " ".join(names[p] for p, _name in game.players)
    end = _(" to {end}").format(end=escaped(game.end)) if game.end else _(", not finished")
    lines = [_("# Kajongg game {game} of {database}: {rules}, seed {seed}, {start}{end}, {hands} hands").format(
                 game=game.id, database=escaped(os.path.basename(database)), rules=escaped(game.ruleset),
                 seed=escaped(game.seed), start=escaped(game.start) or _("no start time"), end=end,
                 hands=len(game.hands)),
             _("# Kajongg's players, East to North at the first hand: {players}").format(players=kajongg),
             *_("# Made by 'mjscore import kajongg'. Kajongg does not record who discarded a winning tile: where a\n"
                "# win says 'unrecorded', its 'from' only stands in for the discarder (it changes no score or\n"
                "# payment here). Each hand's 'kajongg-hand' is its number in Kajongg, which counts from 0."
                ).split("\n"),
             f"players {ours}",
             "start 0",
             f"scheme {scheme}"]
    if game.end:
        lines.append("finished")        # Kajongg ended the game: `session` names no next hand
    return "\n".join(lines)


def _comments(k: int, h: _Hand, prev: _Hand | None, names: dict[int, str], game: KajonggGame) -> list[str]:
    src = h.source
    seats = ", ".join(f"{s.letter} {names[h.seats[s]]}" for s in SEATS)
    out = [_("# hand {hand} (Kajongg's hand {theirs}): {wind} round, {dealer} deals; {seats}").format(
        hand=k, theirs=src.number, wind=_(src.prevailing.name.capitalize()), dealer=names[h.seats[Wind.EAST]],
        seats=seats)]
    if prev is not None and prev.source.prevailing is not src.prevailing:
        moved = _exchanged(prev, h, names)
        out.append(_("# a new round: {moved}").format(moved=moved) if moved else
                   _("# a new round: nobody changes seats"))
    scores = ", ".join(f"{names[r.player]} {r.points}{_(' (won)') if r.won else ''}" for r in src.rows)
    out.append(_("# Kajongg scored: {scores}").format(scores=scores) if src.winner is not None else
               _("# Kajongg: a draw, nobody scores"))
    if h.unread:
        out += [_("# not read:"), *(f"#   {x}" for x in textwrap.wrap(escaped(_unread_said(h, names)), 90))]
    return out


def _exchanged(prev: _Hand, h: _Hand, names: dict[int, str]) -> str:
    """Who exchanged seats at a new round: the seats the deal's passing alone would give, against
    the ones Kajongg recorded."""
    passed = {s: prev.seats[s.next()] for s in SEATS}          # South becomes East, and so on
    moved = [s for s in SEATS if passed[s] != h.seats[s]]
    pairs = []
    for s in moved:
        for t in moved:
            if s.number < t.number and passed[s] == h.seats[t] and passed[t] == h.seats[s]:
                pairs.append(_("{a} and {b} swap chairs").format(a=names[passed[s]], b=names[passed[t]]))
    return "; ".join(pairs) if pairs and 2 * len(pairs) == len(moved) else (
        _("seats as Kajongg recorded them: {seats}").format(
            seats=", ".join(f"{s.letter} {names[h.seats[s]]}" for s in SEATS)) if moved else "")


# -- one hand ----------------------------------------------------------------------------------

def _hand(game: KajonggGame, src: KajonggHand, names: dict[int, str], where: Location) -> _Hand:
    """One hand as the evening writes it.  A player whose hand string cannot be read (or, for the
    winner, cannot be written in the notation) costs that player's tiles, never the game: the line
    carries the score Kajongg stored (`score N`, the notation's counted score), and the hand says
    why in a comment and in the check (`unread`)."""
    seats = {r.wind: r.player for r in src.rows}
    parsed: dict[Wind, KHand] = {}
    unread: dict[Wind, str] = {}
    for r in src.rows:
        try:
            parsed[r.wind] = parse_hand_string(r.data)
        except ValueError as e:
            unread[r.wind] = _("'{data}' is not a hand string Kajongg writes: {why}").format(data=excerpt(r.data, 60),
                                                                                              why=e)
    at = _("game {game}, hand {hand}").format(game=game.id, hand=src.number)
    winner = src.winner
    lines = [f"round {src.prevailing.letter}", f"kajongg-hand {src.number}"]
    streak = _dealer_wins(game, src)
    if streak:
        lines.append(f"dealer-wins {streak}")
    robbed = None
    if winner is None:
        lines.insert(0, "draw")
        for s in SEATS:
            lines.append(f"{s.letter}: {_loser(parsed[s]) if s in parsed else f'score {src.row_at(s).points}'}")
    else:
        w = winner.wind
        kh = parsed.get(w)
        said = note = None
        discarder: Wind | None = None
        if kh is not None:
            try:
                win_clause, discarder, note = _win_clause(kh, w, src, parsed, at, where)
                said = _winner(kh, win_clause, at, where)
            except InputError as e:
                why = e.message.removeprefix(f"{at}: ")
                unread[w] = _("'{data}' cannot be written as a hand: {why}").format(data=excerpt(winner.data, 60),
                                                                                     why=why)
        if kh is None or said is None:
            kh = None
            win_clause, note = _counted_win(winner.data, w, src)
            said = f"score {winner.points} {win_clause}"
        elif kh.source == Source.ROBBED_KONG and kh.last is not None and discarder is not None:
            robbed = (discarder, kh.last)
        for s in SEATS:
            if s is w:
                lines.append(f"{s.letter}: {said}")
            elif s not in parsed:
                lines.append(f"{s.letter}: score {src.row_at(s).points}")
            else:
                lines.append(f"{s.letter}: {_loser(parsed[s], robbed[1] if robbed and robbed[0] is s else None)}")
        if note:
            lines.append(f"# {note}")
    lines.extend(_penalties(src, seats, at, where))
    read_winner = parsed.get(winner.wind) if winner is not None and winner.wind not in unread else None
    return _Hand(src, tuple(lines), seats, robbed, read_winner, tuple((s, unread[s]) for s in SEATS if s in unread))


def _unread_said(h: _Hand, names: dict[int, str]) -> str:
    """Whose tiles a hand does not read and why, and what the file holds instead."""
    whose = "; ".join(_("{player}'s hand {why}").format(player=names[h.seats[s]], why=why) for s, why in h.unread)
    return whose + n_("; the file gives Kajongg's score for it", "; the file gives Kajongg's scores for them",
                      len(h.unread))


def _counted_win(data: str, w: Wind, src: KajonggHand) -> tuple[str, str]:
    """The win clause of a winner whose tiles are not read: how the tile came, from the hand
    string's `m` word when it has a readable one (Kajongg's source letter), and who discarded it
    as `_win_clause` says it; the scores given, neither changes a payment under these schemes."""
    mark = next((x for x in data.split() if len(x) >= 2 and x[0] == "m" and x[1] in Source.ALL), None)
    source = mark[1] if mark is not None else Source.UNKNOWN
    liable = next((r.wind for r in src.rows if not r.won and DANGEROUS_GAME in r.rules), None)
    if source == Source.UNKNOWN:
        how, note = "self", _("'win self': Kajongg's hand string does not say how the winning tile came; with the "
                              "scores given, how it came changes no payment")
    elif source in (Source.DISCARD, Source.LAST_DISCARD, Source.ROBBED_KONG) or (
            source == Source.EAST_14TH and w is not Wind.EAST):
        discarder = liable or (Wind.EAST if source == Source.EAST_14TH else w.next(-1))
        stand_in = discarder is not liable and source != Source.EAST_14TH
        how = f"from {discarder.letter}" + (" unrecorded" if stand_in else "")
        note = _("'{how}': Kajongg does not record who discarded the winning tile; {who}").format(
            how=how, who=(_("{seat} pays for all (Kajongg's Dangerous Game)").format(seat=discarder.letter)
                          if discarder is liable else _("East dealt it") if source == Source.EAST_14TH else
                          _("{seat}, who plays before the winner, stands in").format(seat=discarder.letter)))
    else:
        how, note = "self", ""
    clause = f"win {how}" + (f" liable {liable.letter}" if liable is not None else "")
    return clause, note


def _dealer_wins(game: KajonggGame, src: KajonggHand) -> int:
    """East's wins in a row before this hand: the hands before it that the same East won, back to
    a draw, another's win, or another East."""
    east = src.row_at(Wind.EAST).player
    count = 0
    for h in reversed(game.hands[:src.number]):
        if h.row_at(Wind.EAST).player != east or h.winner is None or h.winner.player != east:
            break
        count += 1
    return count


def _win_clause(kh: KHand, w: Wind, src: KajonggHand, parsed: dict[Wind, KHand], at: str,
                where: Location) -> tuple[str, Wind | None, str | None]:
    """`win TILE self|from SEAT [flags] [liable SEAT]`, the discarder, and a note on who it is."""
    source = kh.source
    if source is None or source == Source.UNKNOWN:
        raise InputError(_("{at}: the winner's hand does not say where the winning tile came from").format(at=at),
                         where)
    discard = source in (Source.DISCARD, Source.LAST_DISCARD, Source.ROBBED_KONG) or (
        source == Source.EAST_14TH and w is not Wind.EAST)
    flags = _win_flags(source, w, kh.announcements)
    liable = next((r.wind for r in src.rows if not r.won and DANGEROUS_GAME in r.rules), None)
    if (kh.last is None and source != Source.EAST_14TH) or (kh.last is not None and kh.last.is_bonus):
        raise InputError(_("{at}: the winner's hand names no winning tile").format(at=at), where)
    note = None
    discarder = None
    if discard:
        if source == Source.ROBBED_KONG:
            assert kh.last is not None
            discarder = next((s for s in SEATS if s is not w and s in parsed and any(
                m.kong and m.tiles[0] == kh.last for m in parsed[s].melds)), None)
            if discarder is None:
                raise InputError(_("{at}: the winner robbed a kong of {tile}, but nobody shows one").format(
                    at=at, tile=kh.last.text), where)
        elif source == Source.EAST_14TH:
            discarder = Wind.EAST
        elif liable is not None:
            discarder = liable
            note = _("'from {seat}': Kajongg does not record who discarded {tile}; {seat} pays for all (Kajongg's "
                     "Dangerous Game)").format(seat=liable.letter, tile=kh.last.text if kh.last else _("the tile"))
        else:
            # A stand-in, never stated as fact: the win says `unrecorded` (the words then say "on
            # a discard (whose was not recorded)").
            discarder = w.next(-1)
            flags.append("unrecorded")
            note = _("'from {seat} unrecorded': Kajongg does not record who discarded {tile}; {seat}, who plays "
                     "before the winner, stands in").format(seat=discarder.letter,
                                                            tile=kh.last.text if kh.last else _("the tile"))
    if kh.last is None:
        # Blessing of Heaven: Kajongg names no last tile (East won on the tiles dealt); the
        # notation asks one, and under a limit hand which one changes nothing.
        hidden = [t for m in kh.melds if not (m.exposed or m.kong) for t in m.tiles] + list(kh.loose)
        if not hidden:
            raise InputError(_("{at}: the winner's hand names no winning tile").format(at=at), where)
        stand_in = max(hidden)
        note = _("'win {tile}': Kajongg names no winning tile for a win on the dealt tiles").format(tile=stand_in.text)
        tile = f" {stand_in.text}"
    else:
        tile = f" {kh.last.text}"
    how = f"from {discarder.letter}" if discarder is not None else "self"
    clause = f"win{tile} {how}" + "".join(f" {f}" for f in flags)
    if liable is not None:
        clause += f" liable {liable.letter}"
    return clause, discarder, note


def _win_flags(source: str, w: Wind, announcements: str) -> list[str]:
    """The win clause's flags, as Kajongg's source letter and the winner's announcements say:
    a loose tile, the last tile, a robbed kong, heaven or earth (East's dealt tiles), then the
    original call and twofold fortune."""
    flags = []
    if source == Source.DEAD_WALL:
        flags.append("loose")
    elif source in (Source.LAST_OF_WALL, Source.LAST_DISCARD):
        flags.append("last")
    elif source == Source.ROBBED_KONG:
        flags.append("robbed")
    elif source == Source.EAST_14TH:
        flags.append("heaven" if w is Wind.EAST else "earth")
    if "a" in announcements:
        flags.append("original-call")
    if "t" in announcements:
        flags.append("twofold")
    return flags


def _winner(kh: KHand, clause: str, at: str, where: Location) -> str:
    """The winner's line: the sets on the table, then the concealed tiles, each set Kajongg laid
    out a run of its own (the one a discard completed among them), then the loose ones."""
    last_set = None
    if kh.last_meld is not None:
        if len(kh.last_meld.tiles) > 3:
            raise InputError(_("{at}: the winning tile completes no kong").format(at=at), where)
        last_set = next((m for m in kh.melds if m.tiles == kh.last_meld.tiles
                         and m.case.islower() == kh.last_exposed), None)
        if last_set is None:
            raise InputError(_("{at}: the set the winning tile completed is not in the winner's hand").format(at=at),
                             where)
    shown = [_set(m) for m in kh.melds if m is not last_set and (m.exposed or m.kong)]
    plain = [_run(m.tiles) for m in kh.melds if m is last_set or not (m.exposed or m.kong)]
    if kh.loose:
        plain.append(_loose(kh.loose))
    return " ".join([*shown, *plain, *(t.text for t in kh.bonus), clause])


def _loser(kh: KHand, robbed: Tile | None = None) -> str:
    """A loser's line; the robbed player's kong written as the pung it was.  A hand of fewer than
    13 tiles (a scoring game's partial entry) is marked `...`."""
    shown: list[str] = []
    plain: list[str] = []
    count = 0
    for m in kh.melds:
        if robbed is not None and m.kong and m.tiles[0] == robbed:
            # The kong the winner robbed: the pung it was (exposed, or concealed for a kong
            # being declared concealed).
            (shown if m.exposed else plain).append(f"[{_run(m.tiles[:3])}]" if m.exposed else _run(m.tiles[:3]))
            count += 3
            robbed = None
            continue
        count += min(len(m.tiles), 3)
        if m.exposed or m.kong:
            shown.append(_set(m))
        else:
            plain.append(_run(m.tiles))
    count += len(kh.loose)
    if kh.loose:
        plain.append(_loose(kh.loose))
    words = [*shown, *plain, *(t.text for t in kh.bonus)]
    if count < 13:
        words.append("...")
    return " ".join(words) if words else "..."


def _set(m: KMeld) -> str:
    text = _run(m.tiles)
    if len(m.tiles) == 4:
        return {"aaaa": f"[{text}]", "aaaA": f"<{text}>", "aAAa": f"({text})"}[m.case]
    return f"[{text}]"


def _run(tiles: Sequence[Tile]) -> str:
    """Tiles as the notation writes them, in their order: `123m`, `55p`, `EEE`, `12m3p`."""
    out: list[str] = []
    digits = ""
    suit = None
    for t in tiles:
        if t.suit.is_numbered:
            if suit is not None and t.suit is not suit:
                out.append(digits + suit.value)
                digits = ""
            suit = t.suit
            digits += str(t.rank)
        else:
            if suit is not None:
                out.append(digits + suit.value)
                digits, suit = "", None
            out.append(t.text)
    if suit is not None:
        out.append(digits + suit.value)
    return "".join(out)


def _loose(tiles: Sequence[Tile]) -> str:
    """Loose concealed tiles in the notation's order, a run a suit: `3p 1234447889s NN PC`."""
    runs: dict[Suit, list[Tile]] = {}
    for t in sorted(tiles):
        runs.setdefault(t.suit, []).append(t)
    return " ".join(_run(run) for run in runs.values())


def _penalties(src: KajonggHand, seats: dict[Wind, int], at: str, where: Location) -> list[str]:
    """A scoring game's penalty rows as `penalty SEAT N to SEAT2`: the one who paid, to each who
    received (or each who paid, to the one who received)."""
    if not src.penalties:
        return []
    seat_of = {p: s for s, p in seats.items()}
    paid = [r for r in src.penalties if r.payments < 0]
    got = [r for r in src.penalties if r.payments > 0]
    if sum(r.payments for r in src.penalties) != 0 or not paid or not got or (len(paid) > 1 and len(got) > 1):
        raise InputError(_("{at}: its penalty rows do not say who paid whom").format(at=at), where)
    offence = ", ".join(x for r in src.penalties for x in r.rules if r.payments < 0) or "unnamed"
    lines = [_("# Kajongg's penalty: {offence}").format(offence=escaped(offence))]
    if len(paid) == 1:
        lines += [f"penalty {seat_of[paid[0].player].letter} {r.payments} to {seat_of[r.player].letter}" for r in got]
    else:
        lines += [f"penalty {seat_of[r.player].letter} {-r.payments} to {seat_of[got[0].player].letter}" for r in paid]
    return lines


# -- the check ---------------------------------------------------------------------------------

def check_game(evening: KajonggEvening, name: str | None = None) -> GameCheck:
    """Play the evening and compare it, hand by hand, with what Kajongg stored."""
    name = name or evening.file_name
    played = play(read_session(evening.text, name), keep_going=True)
    return compare(evening, played)


def compare(evening: KajonggEvening, played: SessionResult) -> GameCheck:
    names = evening.names
    departures = []
    agreeing = 0
    # A hand with a player's tiles not read is not checked (that line carries Kajongg's own score):
    # named, never counted as agreeing.
    unread = tuple(Departure(k, h.source.number, tuple(names[h.seats[s]] for s, _why in h.unread),
                             _unread_said(h, names))
                   for k, h in enumerate(evening.hands, start=1) if h.unread)
    # Played with keep_going, the evening may stop short of Kajongg's hands (at a hand we refuse):
    # the hands after it are not compared.
    for k, (h, ours) in enumerate(zip(evening.hands, played.hands, strict=False), start=1):
        src = h.source
        result = ours.result
        seating_ok = all(ours.names[s] == names[h.seats[s]] for s in SEATS)
        score_off = []
        net_off = False
        for s in SEATS:
            row = src.row_at(s)
            mine = result.player(s)
            paid = row.payments + sum(p.payments for p in src.penalties if p.player == row.player)
            if result.net.get(s, 0) != paid:
                net_off = True
            if src.winner is not None and (mine is None or mine.score != row.points):
                score_off.append(s)
        if seating_ok and not score_off and not net_off:
            agreeing += not h.unread
            continue
        departures.append(Departure(k, src.number, tuple(names[h.seats[s]] for s in score_off),
                                    _why(evening, h, result, score_off, seating_ok, ours.names)))
    errors = tuple(str(e) for e in played.errors)
    last = evening.game.hands[-1]
    balances = {names[p]: last.row_of(p).balance for p, _name in evening.game.players}
    return GameCheck(len(evening.hands), agreeing, balances, dict(played.totals), tuple(departures), errors, unread)


def _why(evening: KajonggEvening, h: _Hand, result: TableResult, score_off: list[Wind], seating_ok: bool,
         seated: dict[Wind, str]) -> str:
    names = evening.names
    src = h.source
    if not seating_ok:
        ours = ", ".join(f"{s.letter} {seated[s]}" for s in SEATS)
        theirs = ", ".join(f"{s.letter} {names[h.seats[s]]}" for s in SEATS)
        return _("the seats differ: Kajongg recorded {theirs}; the rotation gives {ours}").format(theirs=theirs,
                                                                                                  ours=ours)
    reasons = []
    for s in score_off:
        row = src.row_at(s)
        mine = result.player(s)
        who = names[row.player]
        got = mine.score if mine is not None else 0
        if h.robbed is not None and h.robbed[0] is s:
            t = h.robbed[1].text
            reasons.append(_("Kajongg left the robbed {tile} in {player}'s kong and scored it as a kong ({theirs}); "
                             "robbed, it is a pung of {tile} ({ours})").format(tile=t, player=who, theirs=row.points,
                                                                               ours=got))
        elif row.won and h.winner is not None and (read := _kajongg_reading(h.winner, result, s)) is not None \
                and read.score == row.points and mine is not None:
            reasons.append(_reading_said(who, h.winner, read, mine.best, row.points))
        else:
            reasons.append(_("{player}: Kajongg {theirs}, mjscore {ours}, for a reason not found").format(
                player=who, theirs=row.points, ours=got))
    if not reasons:
        reasons.append(_("the payments differ, the scores agree"))
    return "; ".join(reasons)


def _kajongg_reading(kh: KHand, result: TableResult, seat: Wind) -> Valuation | None:
    """Of the ways mjscore finds the winner's tiles go out, the one Kajongg recorded: the same
    set completed by the winning tile, the same concealed sets."""
    hand = next((p for p in result.table.players if p.seat is seat), None)
    if hand is None or kh.last_meld is None:
        return None
    last = sorted(t.index for t in kh.last_meld.tiles)
    laid = sorted(tuple(sorted(t.index for t in m.tiles)) for m in kh.melds if not (m.exposed or m.kong))
    if kh.last_exposed:
        laid = sorted([*laid, tuple(last)])
    for v in winning_valuations(hand, result.table, result.scheme):
        arr = v.arrangement
        won = arr.won_block if arr is not None else None
        if arr is None or won is None or list(won.tiles) != last:
            continue
        concealed = sorted(b.tiles for b in arr.blocks if b.form is Form.CONCEALED and b.kind is not SetKind.SINGLE)
        if concealed == laid and not kh.loose:
            return v
    return None


def _reading_said(who: str, kh: KHand, read: Valuation, best: Valuation, points: int) -> str:
    tile = kh.last.text if kh.last is not None else _("winning tile")
    theirs, ours = read.arrangement, best.arrangement
    assert theirs is not None and ours is not None
    a, b = theirs.won_block, ours.won_block
    if a is not None and b is not None and a.tiles != b.tiles:
        return _("Kajongg scored {player}'s hand as the robot declared it, the {tile} completing {theirs} ({points}); "
                 "the best reading of the same tiles has it complete {ours} ({score})").format(
            player=who, tile=tile, theirs=a.text(), points=points, ours=b.text(), score=best.score)
    return _("Kajongg scored {player}'s hand as the robot laid it out, {theirs} ({points}); the best arrangement of "
             "the same tiles, {ours}, gives {score}").format(player=who, theirs=" ".join(theirs.text()), points=points,
                                                             ours=" ".join(ours.text()), score=best.score)


# -- the import --------------------------------------------------------------------------------

@dataclass(frozen=True)
class ImportedGame:
    """One game brought in: its evening file (written to `path`, when a folder was given) and
    how `session` of it compares with Kajongg's own figures."""

    game: int
    ruleset: str
    scheme: str
    finished: bool
    file_name: str
    path: str | None
    text: str
    check: GameCheck

    def as_dict(self) -> dict[str, object]:
        return {"game": self.game, "ruleset": self.ruleset, "scheme": self.scheme, "finished": self.finished,
                "file": self.path if self.path is not None else self.file_name, **self.check.as_dict()}


@dataclass(frozen=True)
class KajonggImport:
    games: tuple[ImportedGame, ...]
    refused: tuple[MjError, ...] = ()          # the games no scheme reproduces, each with its rule set


def import_games(database: KajonggDatabase, folder: str | None = None, *, game: int | None = None,
                 force: bool = False) -> KajonggImport:
    """Every game of the database (or game `game`) as an evening file, checked against Kajongg's
    figures, and written into `folder` when one is given (no file replaced unless `force`, a
    link never)."""
    path = database.path
    if game is not None and not database.games:
        raise InputError(_("game {game} has no hands: Kajongg records a game's hands as they are played").format(
            game=game), Location(path))
    if not database.games:
        raise InputError(_("holds no game with hands: Kajongg records a game's hands as they are played"),
                         Location(path))
    made: list[tuple[KajonggGame, KajonggEvening, GameCheck]] = []
    refused: list[MjError] = []
    for g in database.games:
        try:
            evening = evening_of(g, path)
        except InputError as e:
            if g.ruleset in SCHEMES or game is not None:
                raise
            refused.append(e)
            continue
        check = check_game(evening)
        if check.departures:
            evening = evening_of(g, path, {d.hand: d.why for d in check.departures})
        made.append((g, evening, check))
    targets: dict[str, str] = {}
    if folder is not None and made:
        targets = {ev.file_name: os.path.join(folder, ev.file_name) for _game, ev, _check in made}
        _check_targets(folder, list(targets.values()), force)
        for _game, ev, _check in made:
            replace(targets[ev.file_name], ev.text)
    games = tuple(ImportedGame(g.id, g.ruleset, ev.scheme, g.end is not None, ev.file_name,
                               targets.get(ev.file_name), ev.text, c) for g, ev, c in made)
    return KajonggImport(games, tuple(refused))


def _check_targets(folder: str, targets: list[str], force: bool) -> None:
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise InputError(_("is not a folder: -o names the folder the evening files go into"), Location(folder))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise InputError(_("cannot make the folder: {why}").format(why=e.strerror or e), Location(folder)) from None
    for t in targets:
        if os.path.islink(t):
            raise InputError(_("is a link: an imported evening is written as a file of its own (nothing was "
                               "written)"), Location(t))
        if os.path.lexists(t):
            if not force:
                raise InputError(_("exists already: give --force to replace it (nothing was written)"), Location(t))
            check_writable(t)
