"""Hypothesis strategies for tables (shared by the property tests)."""

from decimal import Decimal

from hypothesis import strategies as st

from mjscore.model.money import Stake
from mjscore.model.settings import SETTINGS, Setting
from mjscore.model.table import Form, Meld, SeatPenalty, PlayerHand, Table, Win, WinFlag
from mjscore.model.tiles import KINDS, TILES, Wind

playing = st.sampled_from(TILES[:KINDS])
bonus_tiles = st.sampled_from(TILES[KINDS:])


@st.composite
def melds(draw):
    form = draw(st.sampled_from([Form.EXPOSED, Form.DECLARED_KONG, Form.CLAIMED_KONG, Form.GROUP]))
    t = draw(playing)
    if form is Form.DECLARED_KONG or form is Form.CLAIMED_KONG:
        return Meld((t,) * 4, form)
    kinds = ["pung"] + (["kong"] if form is Form.EXPOSED else [])
    if t.suit.is_numbered and t.rank <= 7:
        kinds.append("chow")
    kind = draw(st.sampled_from(kinds))
    if kind == "chow":
        return Meld((t, TILES[t.index + 1], TILES[t.index + 2]), form)
    return Meld((t,) * (3 if kind == "pung" else 4), form)


@st.composite
def players(draw, seat):
    if draw(st.booleans()) and draw(st.booleans()):
        score = draw(st.integers(0, 10_000))
        win = None
        if draw(st.booleans()):
            win = Win(draw(st.none() | playing), draw(st.none() | st.sampled_from([w for w in Wind if w is not seat]))
                      , frozenset())
        return PlayerHand(seat=seat, score=score, win=win, claim=draw(st.none() | st.integers(0, 5000)))
    concealed = tuple(sorted(draw(st.lists(playing, max_size=14))))
    ms = draw(st.lists(melds(), max_size=4))
    from mjscore.io.notation import meld_order
    ms.sort(key=meld_order)
    bonus = tuple(sorted(draw(st.lists(bonus_tiles, max_size=4, unique=True))))
    win = None
    if concealed and draw(st.booleans()):
        others = [w for w in Wind if w is not seat]
        win = Win(draw(st.sampled_from(concealed)), draw(st.none() | st.sampled_from(others)),
                  frozenset(draw(st.sets(st.sampled_from(list(WinFlag))))),
                  draw(st.none() | st.sampled_from(others)))
    return PlayerHand(seat=seat, concealed=concealed, melds=tuple(ms), bonus=bonus,
                      incomplete=draw(st.booleans()), claim=draw(st.none() | st.integers(0, 5000)), win=win)


@st.composite
def tables(draw):
    seats = draw(st.lists(st.sampled_from(list(Wind)), min_size=1, max_size=4, unique=True))
    seats.sort(key=lambda w: w.number)
    ps = tuple(draw(players(s)) for s in seats)
    penalties = tuple(draw(st.lists(st.builds(
        SeatPenalty, st.sampled_from(list(Wind)), st.integers(0, 1000), st.none()), max_size=2)))
    chosen = draw(st.sets(st.sampled_from(SETTINGS)))
    options = tuple((x.name, draw(setting_values(x))) for x in SETTINGS if x in chosen)
    return Table(players=ps, round=draw(st.sampled_from(list(Wind))),
                 scheme=draw(st.none() | st.sampled_from(["classical", "dmjl", "house/rules.yaml"])),
                 draw=draw(st.booleans()), dealer_wins=draw(st.integers(0, 20)),
                 kitty_deals=draw(st.integers(0, 20)), extra_hands=draw(st.integers(0, 20)),
                 penalties=penalties, options=options)


def setting_values(x: Setting):
    """Values a header may give the setting, from its declaration: every setting is drawn, the
    ones added later too."""
    if x.kind is bool:
        return st.booleans()
    if x.choices:
        return st.sampled_from(list(x.kind))
    if x.kind is int:
        low = x.minimum or 0
        return st.integers(low, min(x.maximum or 1000, low + 1000))
    if x.kind is Stake:
        return st.builds(Stake, st.decimals(Decimal("0.0001"), Decimal(100), places=4),
                         st.none() | st.from_regex(r"[A-Z]{3}", fullmatch=True))
    return st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)


# Any stake a header may give: whole cents and finer ones (down to a hundredth of a cent), where
# rounding each payment to the cent is felt.
stakes = st.builds(Stake, st.decimals(Decimal("0.0001"), Decimal(100), places=4)
                   | st.decimals(Decimal("0.01"), Decimal(10), places=2),
                   st.none() | st.sampled_from(["EUR", "GBP", "USD"]))
