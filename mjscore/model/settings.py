"""The settings: every choice of how a hand is settled and how an evening runs, declared once.

A setting is a field of `Settings` (how one table settles) or of `Rotation` (how the deal moves
round an evening), with its help text, its range and its default beside it.  Everything else is
derived from these declarations, so a setting is added by adding a field here:

- its header word (`east-double off`) and its command-line flag (`--east-double`, or
  `--no-east-double` for a switch) are the field's name with `-` for `_`;
- its key in a scheme file is the field's name, under `settlement:` or `rotation:`;
- the readers of headers, the scheme's checks, the command line's options and the keyword
  arguments of `mjscore.score` all take it from `SETTINGS` (and `ROTATION`);
- a setting of the whole `evening` (the stake) is given by an evening's header or the command
  line, never by one hand's own header.

The layers, from the first that counts to the last: the command line (or the API's keyword
arguments), the table's header, the session's header, the scheme.  `Settings.layered` is the
one place that decides which value wins.

    >>> from mjscore.model.settings import Settings
    >>> s = Settings().layered({"paying": None, "kitty": 50}, {"kitty": 20, "east_double": False})
    >>> s.paying.value, s.kitty, s.east_double
    ('between-all', 50, False)
    >>> [x.word for x in SETTINGS][:3]
    ['paying', 'payoff', 'east-double']
"""

import dataclasses
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Generic, NamedTuple, TypeVar

from mjscore.model.errors import Location, MjError, excerpt
from mjscore.model.say import N_, _
from mjscore.model.money import BadStake, Stake


class Paying(str, Enum):
    """How a table settles (docs/rules.md, "Paying methods")."""

    WINNER_ONLY = "winner-only"          # only the winner is paid
    BETWEEN_ALL = "between-all"          # the losers settle their differences too
    ADD_UP = "add-up"                    # no payments: each score is added to its player's total

    def __str__(self) -> str:
        return self.value


class SeatChange(str, Enum):
    """Whether the players change seats when a new round begins (docs/rules.md, "The deal")."""

    NONE = "none"                        # every player keeps her seat all game; only the deal moves
    KAJONGG = "kajongg"                  # Kajongg's exchange at the start of each new round

    def __str__(self) -> str:
        return self.value


MAX_AMOUNT = 100_000_000        # the most any setting counts in points or chips


class SettingError(MjError):
    """A setting given a value it cannot take."""


class _Declared(NamedTuple):
    help: str
    metavar: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    follows: str | None = None
    evening: bool = False


def setting(default: Any, help: str, *, metavar: str | None = None, minimum: int | None = None,
            maximum: int | None = None, follows: str | None = None, evening: bool = False) -> Any:
    """A field of `Settings` or `Rotation`: its default, and what the help says of it.  A
    setting that `follows` another takes its value from it (None) unless it is given itself at
    the same place as the other or a higher one (see `layered`).  A setting of the whole
    `evening` is given once for all its hands: by its header or the command line, not a hand's."""
    return field(default=default, metadata={"setting": _Declared(help, metavar, minimum, maximum, follows, evening)})


@dataclass(frozen=True)
class Settings:
    """How one table settles.  Every field is a setting (see the module's docstring)."""

    paying: Paying = setting(
        Paying.BETWEEN_ALL,
        N_("How the table settles: winner-only (only the winner is paid), between-all (losers also settle "
        "their differences), add-up (no payments: scores are added to totals)."))
    payoff: str = setting(
        "chinese-classical",
        N_("How the winner is paid: chinese-classical, chinese-modern, japanese, or a payoff defined in "
        "the scheme file."), metavar="NAME")
    east_double: bool = setting(
        True,
        N_("East pays and receives double: on payments to the winner under chinese-classical, on "
        "differences between losers under between-all, and East's added score under add-up. "
        "chinese-modern never doubles for East; japanese has East's double built in."))
    east_double_losers: bool | None = setting(
        None,
        N_("East's double on the differences between losers, apart from the winner's payments "
        "(default: as --east-double; given where East's double is given, or at a place above it, "
        "it stands on its own: --no-east-double --east-double-losers doubles East between losers only)."),
        follows="east_double")
    east_penalty_double: bool = setting(
        False, N_("Under add-up, a penalty East incurs is taken off twice."))
    round_payments_up: int | None = setting(
        None, N_("Round every payment up to a multiple of N (Japanese Modern: 100)."),
        metavar="N", minimum=1, maximum=MAX_AMOUNT)
    loser_difference_limit: int | None = setting(
        None, N_("Cut each difference between two losers to N before East's double."),
        metavar="N", minimum=1, maximum=MAX_AMOUNT)
    kitty: int = setting(
        0, N_("A kitty: each player puts N in every deal; a winner takes it (see --kitty-hand); 0: none."),
        metavar="N", minimum=0, maximum=MAX_AMOUNT)
    kitty_hand: str | None = setting(
        None, N_("Only a winner whose hand earns this rule of the scheme takes the kitty (e.g. no-chow); "
              "default: any winner."), metavar="RULE")
    extra_hand_bonus: int = setting(
        0, N_("The winner is paid N for each of East's extra hands in a row (deals East kept); 0: none."),
        metavar="N", minimum=0, maximum=MAX_AMOUNT)
    # One stake for the whole evening: the settle-up's money is its points' at that stake.
    stake: Stake | None = setting(
        None, N_("What a point is worth in money, with a currency if you like (0.05, or '0.05 EUR'): each "
              "settle-up and each player's won or lost also shows its money, to the cent, a half cent up "
              "('Bob pays Cid 596 (EUR 29.80)'); default: points only."), metavar="AMOUNT [CURRENCY]", evening=True)

    @property
    def east_doubles_between_losers(self) -> bool:
        """East's double on the losers' differences: as East's double, unless given itself."""
        return self.east_double if self.east_double_losers is None else self.east_double_losers

    def layered(self, *layers: Mapping[str, Any]) -> "Settings":
        return layered(self, *layers)


@dataclass(frozen=True)
class Rotation:
    """How the deal moves round an evening (docs/rules.md, "The deal").  Every field is a setting."""

    draw_passes_deal: bool = setting(
        True, N_("After a draw the deal passes to South (otherwise East deals again)."))
    dealer_streak_limit: int | None = setting(
        None, N_("East passes the deal after N wins in a row (default: never)."),
        metavar="N", minimum=1, maximum=1000)
    seat_change: SeatChange = setting(
        SeatChange.NONE,
        N_("How the players change seats when a new round begins: none (they keep their seats), or kajongg "
        "(as Kajongg: once the deal has passed, in the South round South and West exchange seats and East "
        "and North; in the West round South and East; in the North round West and East)."))

    def layered(self, *layers: Mapping[str, Any]) -> "Rotation":
        return layered(self, *layers)


T = TypeVar("T", Settings, Rotation)


def layered(base: T, *layers: Mapping[str, Any]) -> T:
    """`base` with the values the layers give, the first layer that gives a setting winning
    (None: not given; a name that is not one of `base`'s settings: a setting of the other kind).
    The one place where the command line beats the header, the header the session's header, and
    each of them the scheme."""
    if not any(layers):
        return base                 # the usual table: no setting given anywhere but the scheme
    names = _NAMES[type(base)]
    changes: dict[str, Any] = {}
    place: dict[str, int] = {}      # where each setting was given: 0 the first layer, ... the scheme last
    for at in range(len(layers) - 1, -1, -1):
        for k, v in layers[at].items():
            if v is not None and k in names:
                changes[k], place[k] = v, at
    for follower, leader in _FOLLOWS[type(base)].items():
        if leader in place:
            # The leader was given above the scheme: the follower stands only where it was given
            # at the same place or a higher one (the scheme's own is below every layer).
            at = place.get(follower, len(layers))
            if at > place[leader]:
                changes[follower] = None
    return dataclasses.replace(base, **changes) if changes else base


V = TypeVar("V")


class Setting(NamedTuple, Generic[V]):
    """One declared setting, with what every place that reads or writes it needs (a named tuple:
    the declarations are read once, at start-up, and a dataclass costs more to define)."""

    name: str                           # the field's name: the scheme key and the API keyword
    kind: type                          # bool, int, str or an Enum
    optional: bool                      # None is a value of its own (not given, or none)
    default: V
    help: str
    metavar: str | None
    minimum: int | None
    maximum: int | None
    section: str                        # settlement | rotation: the scheme key it stands under
    follows: str | None = None          # the setting whose value it takes unless given itself (`layered`)
    evening: bool = False               # given for a whole evening, never by one hand's own header

    @property
    def word(self) -> str:
        """The header word, and the flag without its dashes."""
        return self.name.replace("_", "-")

    @property
    def flags(self) -> tuple[str, ...]:
        """The command-line flag: `--kitty`, or `--east-double/--no-east-double` for a switch."""
        if self.kind is bool:
            return (f"--{self.word}/--no-{self.word}",)
        return (f"--{self.word}",)

    @property
    def words(self) -> int:
        """How many words its value may take in a header: one, or a stake's two (`0.05 EUR`)."""
        return 2 if self.kind is Stake else 1

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(m.value for m in self.kind) if issubclass(self.kind, Enum) else ()

    def describe(self) -> str:
        """What the setting takes, for messages."""
        if self.kind is bool:
            return _("on or off")
        if self.choices:
            return _("one of {list}").format(list=', '.join(self.choices))
        if self.kind is int:
            low = self.minimum if self.minimum is not None else 0
            top = self.maximum if self.maximum is not None else MAX_AMOUNT
            return _("a whole number of {low} or more, at most {top:,}").format(low=low, top=top)
        if self.kind is Stake:
            return _("an amount a point, with a currency if you like (0.05, or 0.05 EUR)")
        return _("a name")

    def parse(self, text: str, where: Location) -> V:
        """The value of a header's word (`on`, `winner-only`, `100`); a SettingError says what
        it takes, naming the word."""
        if self.kind is bool:
            if text not in ON_OFF:
                raise SettingError(_("'{word}' takes on or off, not '{excerpt}'").format(
                    word=self.word, excerpt=excerpt(text)), where, text)
            return typing.cast(V, ON_OFF[text])
        if self.choices:
            if text not in self.choices:
                raise SettingError(_("'{word}' takes {describe}, not '{excerpt}'").format(
                    word=self.word, describe=self.describe(), excerpt=excerpt(text)), where, text)
            return typing.cast(V, self.kind(text))
        if self.kind is int:
            if not text.isdigit() or not text.isascii():
                raise SettingError(_("'{word}' takes a whole number, not '{excerpt}'").format(
                    word=self.word, excerpt=excerpt(text)), where, text)
            if len(text) > 10:
                raise SettingError(_("'{word}': {excerpt} is too large").format(
                    word=self.word, excerpt=excerpt(text)), where, text)
            return self._in_range(int(text), f"'{self.word}'", where, text)
        if self.kind is Stake:
            # Each word where it stands in the text, so that an error points at the wrong one.
            words = [(m.group(), where._replace(column=where.column + m.start()) if where.column else where)
                     for m in re.finditer(r"\S+", text)]
            return self.parse_words(words or [(text, where)])
        return typing.cast(V, text)

    def parse_words(self, words: Sequence[tuple[str, Location]]) -> V:
        """The value of a header's words, each with where it stands (a stake's `0.05 EUR` is
        two); a SettingError names the word at fault."""
        if self.kind is not Stake:
            return self.parse(*words[0])
        try:
            return typing.cast(V, Stake.from_words([text for text, _where in words]))
        except BadStake as e:
            text, where = words[min(e.word, len(words) - 1)]
            raise SettingError(f"'{self.word}' {e.message}", where, text) from None

    def check(self, value: object, what: str, where: Location = Location()) -> V:
        """A value from a scheme file or a keyword argument, checked for type and range; `what`
        names it in the message (`settlement.kitty`)."""
        if self.optional and value is None:
            return typing.cast(V, None)
        if self.kind is bool:
            if not isinstance(value, bool):
                raise SettingError(_("{what}: takes true or false, not {excerpt}").format(
                    what=what, excerpt=excerpt(value)), where, what)
            return typing.cast(V, value)
        if self.choices:
            if isinstance(value, self.kind):
                return typing.cast(V, value)
            if not isinstance(value, str) or value not in self.choices:
                raise SettingError(_("{what}: takes one of: {list}").format(
                    what=what, list=', '.join(self.choices)), where, what)
            return typing.cast(V, self.kind(value))
        if self.kind is int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise SettingError(_("{what}: takes {describe}, not {excerpt}").format(
                    what=what, describe=self.describe(), excerpt=excerpt(value)), where, what)
            return self._in_range(value, f"{what}:", where, what)
        if self.kind is Stake:
            return typing.cast(V, _stake(value, what, where))
        if not isinstance(value, str) or not value:
            raise SettingError(_("{what}: takes text, not {excerpt}").format(
                what=what, excerpt=excerpt(value)), where, what)
        return typing.cast(V, value)

    def _in_range(self, n: int, what: str, where: Location, token: str) -> V:
        low = self.minimum if self.minimum is not None else 0
        top = self.maximum if self.maximum is not None else MAX_AMOUNT
        if not low <= n <= top:
            hint = _(" (leave it out for none)") if self.optional else ""
            raise SettingError(_("{what} takes {describe}{hint}, not {n:,}").format(
                what=what, describe=self.describe(), hint=hint, n=n), where, token)
        return typing.cast(V, n)

    def text(self, value: object) -> str:
        """The value as a header writes it."""
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, Enum):
            return str(value.value)
        return str(value)


def _stake(value: object, what: str, where: Location) -> Stake:
    """A stake from a scheme file or a keyword argument: a Stake, its text (`"0.05 EUR"`), or an
    amount (a YAML number is read as the decimal it was written as: 0.05, not the float)."""
    if isinstance(value, Stake):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Decimal)):
        raise SettingError(_("{what}: takes an amount a point (0.05, or '0.05 EUR'), not {excerpt}").format(
            what=what, excerpt=excerpt(value)), where, what)
    try:
        return Stake.read(repr(value) if isinstance(value, float) else f"{value:f}" if isinstance(value, Decimal)
                          else str(value))
    except BadStake as e:
        raise SettingError(f"{what}: {e.message}", where, what) from None


ON_OFF = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}


def _declared(cls: type, section: str) -> tuple[Setting[Any], ...]:
    # The annotations are the types themselves (this module does not defer them): read as they
    # stand, with no evaluation of text at start-up.
    out = []
    for f in dataclasses.fields(cls):
        meta: _Declared = f.metadata["setting"]
        hint: Any = f.type
        args = typing.get_args(hint)
        kind = next((a for a in args if a is not type(None)), hint) if args else hint
        out.append(Setting(f.name, kind, type(None) in args, f.default, meta.help, meta.metavar,
                           meta.minimum, meta.maximum, section, meta.follows, meta.evening))
    return tuple(out)


SETTINGS: tuple[Setting[Any], ...] = _declared(Settings, "settlement")     # a table's header may set these
ROTATION: tuple[Setting[Any], ...] = _declared(Rotation, "rotation")       # a session's header may set these too
_NAMES: dict[type, frozenset[str]] = {Settings: frozenset(s.name for s in SETTINGS),
                                      Rotation: frozenset(s.name for s in ROTATION)}
_FOLLOWS: dict[type, dict[str, str]] = {kind: {s.name: s.follows for s in group if s.follows}
                                        for kind, group in ((Settings, SETTINGS), (Rotation, ROTATION))}
BY_NAME: dict[str, Setting[Any]] = {s.name: s for s in SETTINGS + ROTATION}
EVENING: frozenset[str] = frozenset(s.name for s in SETTINGS + ROTATION if s.evening)   # never one hand's own


def header_lines(values: Mapping[str, Any]) -> str:
    """Settings as header lines (`paying winner-only`, `east-double off`), in declaration order;
    values of None are left out."""
    return "".join(f"{s.word} {s.text(values[s.name])}\n" for s in SETTINGS + ROTATION
                   if values.get(s.name) is not None)


def given(values: Mapping[str, Any], *, what: str = "a setting", section: tuple[Setting[Any], ...] | None = None
          ) -> dict[str, Any]:
    """Settings given by name (keyword arguments, a request's JSON): each checked for its type
    and range, unknown names refused, None left out; in declaration order."""
    known = {s.name: s for s in (section if section is not None else SETTINGS + ROTATION)}
    for name in values:
        if name not in known:
            raise SettingError(_("no setting '{excerpt}'; known: {list}").format(
                excerpt=excerpt(name), list=', '.join(known)), Location(what), name)
    return {s.name: s.check(values[s.name], s.name) for s in known.values() if values.get(s.name) is not None}


def ordered(values: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Settings as a table or a header keeps them: (name, value) pairs in declaration order."""
    return tuple((s.name, values[s.name]) for s in SETTINGS + ROTATION if s.name in values)
