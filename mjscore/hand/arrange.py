"""Every way a player's tiles can be laid out: the arrangements that scoring chooses from.

An arrangement is the player's written groups plus a grouping of the loose concealed tiles.
For a winner only complete arrangements count (four sets and a pair, or a special shape the
scheme knows), and when the winning tile came from a discard, each set it could have completed
gives its own arrangement, with that set exposed.  For a loser the only groupings that can
score are pungs and pairs, so those are enumerated and the rest is left as it lies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import product
from operator import attrgetter, itemgetter
from typing import NamedTuple

from mjscore.hand.shapes import MAJORS, Counts, counts_of, decompositions
from mjscore.model.plain import string
from mjscore.model.table import CLAIMED_FORMS, Form, Meld, PlayerHand, SetKind, indices_text
from mjscore.model.tiles import KINDS, WIND_BASE, Tile


class Block(NamedTuple):
    """One set, pair or leftover of an arrangement.

    A named tuple rather than a frozen dataclass: scoring builds and hashes tens of these per
    hand, and a tuple is made and hashed in C.
    """

    kind: SetKind
    tiles: tuple[int, ...]        # tile indices, sorted
    # Made with a claimed tile (a claimed discard, or the discarded winning tile): the scheme
    # decides what that means for a claimed kong (`Scheme.claimed_kong`).
    exposed: bool = False
    form: Form = Form.CONCEALED   # how the player wrote it, or CONCEALED when mjscore arranged it
    won: bool = False             # the winning tile completed this block

    @property
    def tile(self) -> int:
        return self.tiles[0]

    @property
    def is_set(self) -> bool:
        return self.kind in (SetKind.PUNG, SetKind.KONG, SetKind.CHOW)

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind is SetKind.PUNG or self.kind is SetKind.KONG

    def text(self) -> str:
        # Sets and pairs come back hand after hand and are remembered (`_placed`); a loser's
        # leftovers seldom do, and would only push them out.
        return _placed(self)[1] if self.kind is not SetKind.SINGLE else _write_block(self)


def _write_block(b: Block) -> str:
    """A block in notation: [ ] exposed, < > claimed kong, ( ) declared kong, { } the player's
    group, plain arranged."""
    # A leftover of several tiles is written as runs, like concealed tiles in the notation.
    body = indices_text(b.tiles, sep=" " if b.kind is SetKind.SINGLE else "")
    if b.form is Form.DECLARED_KONG:
        return f"({body})"
    if b.form is Form.CLAIMED_KONG:
        return f"<{body}>"
    if b.exposed:
        return f"[{body}]"
    if b.form is Form.GROUP:
        return f"{{{body}}}"
    return body


class Arrangement(NamedTuple):
    blocks: tuple[Block, ...]
    shape: str                   # "standard", a special shape's name, or "partial" for a loser

    @property
    def won_block(self) -> Block | None:
        for b in self.blocks:
            if b.won:
                return b
        return None

    def completed_by_discard(self) -> str | None:
        """The set or pair a winning discard completed, as it is shown, where the player wrote
        its tiles concealed (it is shown exposed, `[55p]`, as the rules count it); None else."""
        b = self.won_block
        if b is None or not b.exposed or b.form is not Form.CONCEALED:
            return None
        return _placed(b)[1]

    def text(self) -> list[str]:
        """The blocks as the player would lay them out: written groups, sets, pairs, leftovers."""
        return list(map(_TEXT, self._laid_out()))

    def text_json(self) -> str:
        """`text()` as the members of a JSON array (`model.plain`'s strings, comma-separated):
        what every result writes for every player, each set's and pair's remembered with it."""
        return ", ".join(map(_QUOTED, self._laid_out()))

    def _laid_out(self) -> list[tuple[tuple[int, tuple[int, ...]], str, str]]:
        # Each block's place, text and JSON string looked up in C (`_placed`, for sets and pairs)
        # and sorted by place alone: the sort keeps the blocks' order where places tie.  A
        # loser's leftovers, her last block, are written each time.
        blocks = self.blocks
        kinds = list(map(_KIND_OF, blocks))
        if SetKind.SINGLE not in kinds:
            placed = list(map(_placed, blocks))
        elif kinds[-1] is SetKind.SINGLE and kinds.count(SetKind.SINGLE) == 1:
            placed = list(map(_placed, blocks[:-1]))
            placed.append(_unremembered(blocks[-1]))
        else:
            placed = [_placed(b) if b.kind is not SetKind.SINGLE else _unremembered(b) for b in blocks]
        placed.sort(key=_PLACE)
        return placed


_KIND_OF = attrgetter("kind")
_PLACE, _TEXT, _QUOTED = itemgetter(0), itemgetter(1), itemgetter(2)


def _layout_order(b: Block) -> tuple[int, tuple[int, ...]]:
    return (0 if b.form is not Form.CONCEALED else _KIND_ORDER[b.kind], b.tiles)


@lru_cache(maxsize=8192)
def _placed(b: Block) -> tuple[tuple[int, tuple[int, ...]], str, str]:
    """A set's or pair's place in the layout, its text and that text as a JSON string:
    remembered, since scoring names sets by their text, every result writes its arrangement,
    and the same sets and pairs come back hand after hand."""
    return _unremembered(b)


def _unremembered(b: Block) -> tuple[tuple[int, tuple[int, ...]], str, str]:
    text = _write_block(b)
    return _layout_order(b), text, string(text)


_KIND_ORDER = {SetKind.CHOW: 1, SetKind.PUNG: 1, SetKind.KONG: 1, SetKind.PAIR: 2,
               SetKind.KNITTED: 3, SetKind.SINGLE: 3}


def written_blocks(hand: PlayerHand) -> tuple[Block, ...]:
    out = []
    for m in hand.melds:
        # A written group is always a set (the readers see to it); one that is not would be leftovers.
        out.append(Block(m.kind or SetKind.SINGLE, m.indices, m.form in CLAIMED_FORMS, m.form))
    return tuple(out)


_KIND = {"pung": SetKind.PUNG, "chow": SetKind.CHOW, "pair": SetKind.PAIR}


def _block_of(kind: str, i: int) -> Block:
    return _BLOCKS[kind][i]


def _make_block(kind: str, i: int) -> Block:
    if kind == "chow":
        return Block(SetKind.CHOW, (i, i + 1, i + 2))
    return Block(_KIND[kind], (i,) * (3 if kind == "pung" else 2))


# Every pung, pair and chow there is, made once: arrangements share them.
_BLOCKS = {kind: {i: _make_block(kind, i) for i in range(KINDS) if kind != "chow" or (i < WIND_BASE and i % 9 <= 6)}
           for kind in _KIND}
_PUNGS, _PAIRS = _BLOCKS["pung"], _BLOCKS["pair"]


# -- special shapes ----------------------------------------------------------------------------
# Each returns the blocks of the special shape for 14 concealed tile counts, or None.

Blocks = tuple[Block, ...]


def _thirteen_orphans(c: Counts) -> Blocks | None:
    if sum(c) != 14 or any(c[i] == 0 for i in MAJORS) or sum(c[i] for i in MAJORS) != 14:
        return None
    return tuple(Block(SetKind.PAIR if c[i] == 2 else SetKind.SINGLE, (i,) * c[i]) for i in MAJORS)


def _seven_pairs(c: Counts, only: frozenset[int] | None = None) -> Blocks | None:
    if sum(c) != 14 or any(n not in (0, 2) for n in c):
        return None
    idx = [i for i in range(KINDS) if c[i] == 2]
    if only is not None and any(i not in only for i in idx):
        return None
    return tuple(Block(SetKind.PAIR, (i, i)) for i in idx)


def _all_pair_honours(c: Counts) -> Blocks | None:
    return _seven_pairs(c, only=frozenset(MAJORS))


def _knitting(c: Counts) -> Blocks | None:
    """Seven pairs, each the same number in two suits; two suits only, no honours."""
    if sum(c) != 14 or any(c[WIND_BASE:]):
        return None
    suits = [s for s in range(3) if any(c[s * 9:(s + 1) * 9])]
    if len(suits) != 2:
        return None
    a, b = suits
    blocks = []
    for r in range(9):
        if c[a * 9 + r] != c[b * 9 + r]:
            return None
        blocks += [Block(SetKind.KNITTED, (a * 9 + r, b * 9 + r))] * c[a * 9 + r]
    return tuple(blocks)


def _triple_knitting(c: Counts) -> Blocks | None:
    """Four triples of one number in all three suits, and a pair of one number in two suits."""
    if sum(c) != 14 or any(c[WIND_BASE:]) or _suits_used(c) != 3:
        return None
    blocks = []
    rest = []
    for r in range(9):
        n = [c[s * 9 + r] for s in range(3)]
        k = min(n)
        blocks += [Block(SetKind.KNITTED, (r, 9 + r, 18 + r))] * k
        rest += [s * 9 + r for s in range(3) for _ in range(n[s] - k)]
    if len(blocks) != 4 or len(rest) != 2:
        return None
    x, y = sorted(rest)
    if x % 9 != y % 9 or x // 9 == y // 9:
        return None
    return tuple(blocks) + (Block(SetKind.KNITTED, (x, y)),)


def _wriggling_snake(c: Counts) -> Blocks | None:
    """BMJA: a pair of 1s, 2 to 9 of the same suit, and each of the four winds."""
    if sum(c) != 14 or any(c[WIND_BASE + w] != 1 for w in range(4)) or any(c[WIND_BASE + 4:]):
        return None
    for s in range(3):
        if c[s * 9] == 2 and all(c[s * 9 + r] == 1 for r in range(1, 9)):
            return (Block(SetKind.PAIR, (s * 9, s * 9)),) + tuple(
                Block(SetKind.SINGLE, (i,)) for i in range(KINDS) if c[i] and i != s * 9)
    return None


_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)         # 1112345678999


def nine_gates(c: Counts) -> tuple[int, int] | None:
    """(suit, rank of the extra tile, 1 to 9) when these 14 tiles are 1112345678999 of one suit
    and one more tile of it; None otherwise."""
    if sum(c) != 14:
        return None
    for s in range(3):
        suit = c[s * 9:(s + 1) * 9]
        if sum(suit) != 14:
            continue
        if any(suit[r] < _GATES[r] for r in range(9)):
            return None
        return s, next(r for r in range(9) if suit[r] > _GATES[r]) + 1    # the one tile more than the gates
    return None


def _nine_gates(c: Counts, lo: int = 1, hi: int = 9) -> tuple[Block, ...] | None:
    """Nine gates, the extra tile's rank in [lo, hi], laid out as four sets and a pair, as it
    always can be (whatever the chow limit)."""
    found = nine_gates(c)
    if found is None or not lo <= found[1] <= hi:
        return None
    return tuple(_block_of(k, i) for k, i in decompositions(c, 4, 1)[0])


SPECIAL_SHAPES: dict[str, Callable[[Counts], Blocks | None]] = {
    "nine-gates": _nine_gates,
    "gates-of-heaven": lambda c: _nine_gates(c, 2, 8),
    "thirteen-orphans": _thirteen_orphans,
    "seven-pairs": _seven_pairs,
    "all-pair-honours": _all_pair_honours,
    "knitting": _knitting,
    "triple-knitting": _triple_knitting,
    "wriggling-snake": _wriggling_snake,
}
SHAPES = frozenset({"standard", *SPECIAL_SHAPES})


def _only(indices: Iterable[int]) -> Callable[[Counts], bool]:
    allowed = frozenset(indices)
    return lambda c: all(i in allowed for i in range(KINDS) if c[i])


def _suits_used(c: Counts) -> int:
    return sum(1 for s in range(3) if any(c[s * 9:(s + 1) * 9]))


def _near_knitting(c: Counts) -> bool:
    """Two suits at most, and all but one tile already matched by the same number in the other."""
    if any(c[WIND_BASE:]):
        return False
    used = [s for s in range(3) if any(c[s * 9:(s + 1) * 9])]
    if len(used) == 1:
        return sum(c) <= 1
    if len(used) != 2:
        return False
    a, b = used
    return sum(abs(c[a * 9 + r] - c[b * 9 + r]) for r in range(9)) <= 1


# What 13 tiles must already look like for one more tile to make the special shape: a cheap
# test that spares trying all 34 tiles on hands that are nowhere near it.
SPECIAL_NEAR: dict[str, Callable[[Counts], bool]] = {
    "thirteen-orphans": _only(MAJORS),
    "all-pair-honours": _only(MAJORS),
    "seven-pairs": lambda c: sum(1 for n in c if n % 2) <= 1,
    "knitting": lambda c: _near_knitting(c),
    "triple-knitting": lambda c: (not any(c[WIND_BASE:])
                                  and sum(min(c[r], c[9 + r], c[18 + r]) for r in range(9)) >= 3),
    "wriggling-snake": lambda c: not any(c[WIND_BASE + 4:]) and _suits_used(c) <= 1,
    "nine-gates": lambda c: not any(c[WIND_BASE:]) and _suits_used(c) <= 1,
    "gates-of-heaven": lambda c: not any(c[WIND_BASE:]) and _suits_used(c) <= 1,
}


def special_blocks(shape: str, counts: Counts) -> Blocks | None:
    return SPECIAL_SHAPES[shape](counts)


@lru_cache(maxsize=4096)
def is_special(shape: str, counts: Counts) -> bool:
    """Whether 14 concealed tiles make the special shape (remembered: waits ask it often)."""
    return SPECIAL_SHAPES[shape](counts) is not None


# -- the winner --------------------------------------------------------------------------------

def readings(hand: PlayerHand) -> tuple[PlayerHand, ...]:
    """The hands a winner may have held, one for each bracketed set the winning discard may have
    completed, that set's tiles back among the concealed ones (how the notation reads a single
    such set, `[345p] ... win 5p from E`); the hand itself when its winning tile is among its
    concealed tiles.  Of `[456m] [777m] [789m] ... win 7m from E` the discard completed 777m or
    789m: two readings, and the scorer takes the one that scores best, as for plain tiles."""
    win = hand.win
    if win is None or win.discarder is None or win.tile is None or win.tile in hand.concealed:
        return (hand,)
    return _readings(hand)


@lru_cache(maxsize=64)
def _readings(hand: PlayerHand) -> tuple[PlayerHand, ...]:
    # Remembered: validation and scoring ask for the same readings, and the arrangements of each
    # are remembered on the reading (one object each time).
    tile = hand.win.tile if hand.win is not None else None
    out: list[PlayerHand] = []
    seen: set[Meld] = set()
    for k, m in enumerate(hand.melds):
        if m.form is not Form.EXPOSED or tile not in m.tiles or len(m.tiles) > 3 or m in seen:
            continue
        seen.add(m)
        rest = hand.melds[:k] + hand.melds[k + 1:]
        if any(r.form is Form.EXPOSED and len(r.tiles) == 2 for r in rest):
            continue                  # another pair left in brackets: a pair is never laid down
        concealed = tuple(sorted(hand.concealed + m.tiles, key=_INDEX))
        out.append(dataclasses.replace(hand, concealed=concealed, melds=rest))
    return tuple(out) or (hand,)


_INDEX = attrgetter("index")


def winner_arrangements(hand: PlayerHand, shapes: frozenset[str], max_chows: int) -> list[Arrangement]:
    """Every complete arrangement of a winner's hand, one per set the winning tile may have completed."""
    return list(_winner_arrangements(hand, shapes, max_chows))


@lru_cache(maxsize=64)
def _winner_arrangements(hand: PlayerHand, shapes: frozenset[str], max_chows: int) -> tuple[Arrangement, ...]:
    # Remembered for a moment: validation asks whether the winner is complete, then scoring
    # asks for the same arrangements.
    win = hand.win
    return tuple(winning_arrangements(written_blocks(hand), counts_of(hand.concealed),
                                      win.tile.index if win and win.tile else None,
                                      bool(win and not win.self_drawn), shapes, max_chows))


def winning_arrangements(written: tuple[Block, ...], counts: Counts, win_tile: int | None, discard: bool,
                         shapes: frozenset[str], max_chows: int) -> list[Arrangement]:
    """Complete arrangements of written groups plus loose concealed tiles (`counts`)."""
    out: list[Arrangement] = []
    need = 4 - len(written)
    if "standard" in shapes and need >= 0:
        written_chows = sum(1 for b in written if b.kind is SetKind.CHOW)
        for split in decompositions(counts, need, 1):
            if written_chows + sum(1 for k, _ in split if k == "chow") > max_chows:
                continue
            blocks = written + tuple(_block_of(k, i) for k, i in split)
            out.extend(_mark_winning_block(blocks, "standard", win_tile, discard))
    if not written:
        for shape in shapes:
            # is_special is remembered, and the waits have usually asked it already.
            special = special_blocks(shape, counts) if shape != "standard" and is_special(shape, counts) else None
            if special is not None:
                out.extend(_mark_winning_block(special, shape, win_tile, discard))
    return out


# Written sets the winning tile cannot have completed: they were on the table before it.
_LAID_DOWN = frozenset({Form.EXPOSED, Form.CLAIMED_KONG, Form.DECLARED_KONG})


def _mark_winning_block(blocks: tuple[Block, ...], shape: str, win_tile: int | None,
                        discard: bool) -> list[Arrangement]:
    """One arrangement per concealed block that holds the winning tile (duplicates once)."""
    if win_tile is None:
        return [Arrangement(blocks, shape)]
    seen = set()
    out = []
    for n, b in enumerate(blocks):
        if win_tile not in b.tiles or b.form in _LAID_DOWN:
            continue
        key = (b.kind, b.tiles, b.form)
        if key in seen:
            continue
        seen.add(key)
        won = Block(b.kind, b.tiles, exposed=discard, form=b.form, won=True)
        out.append(Arrangement(blocks[:n] + (won,) + blocks[n + 1:], shape))
    return out


# -- the losers --------------------------------------------------------------------------------

def losing_arrangements(hand: PlayerHand, exhaustive: bool = False) -> list[Arrangement]:
    """The arrangements of a loser's loose concealed tiles worth comparing.

    Chows score nothing for a loser, so only pungs and pairs are formed and the tiles left over
    stay together as one leftover block.  Four identical undeclared tiles are a pung and a
    single, never a kong.  A pung is worth at least a pair, and a pair at least nothing, under
    every rule of the catalogue that a loser can earn except "zero points"; so unless the
    scheme gives losers such a rule (`exhaustive`), the one arrangement with every pung and
    pair formed is the best, and it is the only one returned.
    """
    written = written_blocks(hand)
    if not exhaustive:
        return [_every_pung_and_pair(written, hand.concealed)]
    counts = counts_of(hand.concealed)
    options = [[None, (i, "pair")] + ([(i, "pung")] if n >= 3 else []) for i, n in enumerate(counts) if n >= 2]
    return [_partial(written, counts, [c for c in choice if c is not None]) for choice in product(*options)]


def _every_pung_and_pair(written: tuple[Block, ...], concealed: tuple[Tile, ...]) -> Arrangement:
    """A loser's one best arrangement: every run of equal tiles a pung (four: a pung and a
    single) or a pair, the rest one leftover block; `_partial` of every pung and pair, found
    kind by kind over the kinds held (in order, each kind's copies counted in C) rather than
    over all 34 kinds or tile by tile."""
    blocks = list(written)
    left = []
    idx = sorted(map(_INDEX, concealed))
    for i in dict.fromkeys(idx):
        n = idx.count(i)
        if n >= 3:
            blocks.append(_PUNGS[i])
            if n == 4:
                left.append(i)
        elif n == 2:
            blocks.append(_PAIRS[i])
        else:
            left.append(i)
    if left:
        blocks.append(Block(SetKind.SINGLE, tuple(left)))
    return Arrangement(tuple(blocks), "partial")


def _partial(written: tuple[Block, ...], counts: Counts, formed: list[tuple[int, str]]) -> Arrangement:
    """A loser's arrangement: the written groups, the pungs and pairs `formed` ((tile, "pung" or
    "pair"), in tile order) and the tiles left over as one leftover block."""
    rest = list(counts)
    blocks = list(written)
    for i, kind in formed:
        blocks.append(_block_of(kind, i))
        rest[i] -= 3 if kind == "pung" else 2
    leftovers = tuple(i for i, n in enumerate(rest) if n for _ in range(n))
    if leftovers:
        blocks.append(Block(SetKind.SINGLE, leftovers))
    return Arrangement(tuple(blocks), "partial")
