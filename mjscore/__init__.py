"""mjscore: score and settle finished Mahjong hands under the classical Chinese rules.

    >>> import mjscore
    >>> r = mjscore.score("E: [111p] 222s 333m EEE 99s win 9s self; S: [555m] ...; W: [777p] ...; N: ...")
    >>> r.player("E").score, r.net[mjscore.Wind.EAST]
    (352, 2112)

The functions (`parse`, `score`, `score_many`, `play_session`, `play_season`, `waits`, `check`, `Evening`,
`load_scheme`, ...) are documented in `mjscore.api`; the results are typed (`TableResult`,
`SessionResult`, `BatchItem`) and each has `to_dict()`, the object the command line prints as
JSON.  Bad input raises `MjError` (and its kinds), never prints.
"""

from typing import TYPE_CHECKING

from mjscore.version import __version__

# Loaded on first use (PEP 562): the command line imports this package on every start, and
# pays for the scoring engine only when a command needs it.
_API = {
    "parse": "mjscore.api", "score": "mjscore.api", "score_many": "mjscore.api",
    "play_session": "mjscore.api", "play_season": "mjscore.api", "waits": "mjscore.api", "check": "mjscore.api",
    "check_many": "mjscore.api", "check_line": "mjscore.api",
    "entry_line": "mjscore.api", "answer_kind": "mjscore.api", "help_topics": "mjscore.api",
    "help_text": "mjscore.api", "examples": "mjscore.api", "example": "mjscore.api",
    "NoWinnerError": "mjscore.model.errors",
    "load_scheme": "mjscore.api", "shipped_schemes": "mjscore.api", "tables": "mjscore.api",
    "waits_many": "mjscore.api", "canonical": "mjscore.api", "Evening": "mjscore.api",
    "describe_scheme": "mjscore.api", "diff_schemes": "mjscore.api", "payoff_tables": "mjscore.api",
    "payoff_names": "mjscore.api", "import_kajongg": "mjscore.api", "night_tables": "mjscore.api",
    "play_night": "mjscore.api", "draw_night": "mjscore.api", "start_night": "mjscore.api",
    "NightDraw": "mjscore.evening.draw", "NightResult": "mjscore.evening.night",
    "KajonggImport": "mjscore.evening.kajongg",
    "ImportedGame": "mjscore.evening.kajongg", "Entry": "mjscore.api", "LineCheck": "mjscore.api",
    "HandTakenError": "mjscore.evening.journal", "NotTheLastHandError": "mjscore.evening.journal",
    "NextHand": "mjscore.evening.next_hand", "HandMovedError": "mjscore.evening.next_hand",
    "NotSettled": "mjscore.evening.next_hand",
    "Penalty": "mjscore.evening.entry",
    "Settings": "mjscore.model.settings", "Rotation": "mjscore.model.settings", "Paying": "mjscore.model.settings",
    "SettingError": "mjscore.model.settings", "SettlementError": "mjscore.settle",
    "NextDeal": "mjscore.evening.session", "Added": "mjscore.evening.journal", "Removed": "mjscore.evening.journal",
    "TableResult": "mjscore.pipeline", "SessionResult": "mjscore.evening.session",
    "PlayedHand": "mjscore.evening.session", "Transfer": "mjscore.evening.session",
    "SeasonResult": "mjscore.evening.season", "PlayerFigures": "mjscore.evening.season",
    "Standing": "mjscore.evening.season", "BiggestHand": "mjscore.evening.season",
    "EveningLine": "mjscore.evening.season",
    "BatchItem": "mjscore.evening.batch", "CheckReport": "mjscore.evening.check",
    "Scheme": "mjscore.rules.scheme", "Rule": "mjscore.rules.scheme",
    "PlayerScore": "mjscore.scoring.score", "Item": "mjscore.scoring.score",
    "Settlement": "mjscore.settle", "Payment": "mjscore.settle",
    "Table": "mjscore.model.table", "PlayerHand": "mjscore.model.table", "Meld": "mjscore.model.table",
    "Win": "mjscore.model.table", "WinFlag": "mjscore.model.table",
    "Tile": "mjscore.model.tiles", "Wind": "mjscore.model.tiles",
    "MjError": "mjscore.model.errors", "InputError": "mjscore.model.errors",
    "NotationError": "mjscore.model.errors", "YamlFormError": "mjscore.model.errors",
    "TableError": "mjscore.model.errors", "SchemeError": "mjscore.model.errors",
    "Location": "mjscore.model.errors",
}

# Made from _API so that a name is listed once; pyright reads only a literal list here.
__all__ = ["__version__", *_API]  # pyright: ignore[reportUnsupportedDunderAll]

if TYPE_CHECKING:      # what type checkers and editors see; at run time __getattr__ loads them
    from mjscore.api import (
        Entry,
        Evening,
        LineCheck,
        answer_kind,
        canonical,
        check,
        check_line,
        check_many,
        describe_scheme,
        diff_schemes,
        entry_line,
        example,
        examples,
        help_text,
        help_topics,
        import_kajongg,
        load_scheme,
        parse,
        payoff_names,
        payoff_tables,
        draw_night,
        night_tables,
        play_night,
        start_night,
        play_season,
        play_session,
        score,
        score_many,
        shipped_schemes,
        tables,
        waits,
        waits_many,
    )
    from mjscore.evening.entry import Penalty
    from mjscore.evening.journal import Added, HandTakenError, NotTheLastHandError, Removed
    from mjscore.evening.batch import BatchItem
    from mjscore.evening.check import CheckReport
    from mjscore.evening.night import NightResult
    from mjscore.evening.draw import NightDraw
    from mjscore.evening.season import BiggestHand, EveningLine, PlayerFigures, SeasonResult, Standing
    from mjscore.evening.kajongg import ImportedGame, KajonggImport
    from mjscore.evening.next_hand import HandMovedError, NextHand, NotSettled
    from mjscore.evening.session import NextDeal, PlayedHand, SessionResult, Transfer
    from mjscore.model.errors import (
        InputError,
        Location,
        MjError,
        NoWinnerError,
        NotationError,
        SchemeError,
        TableError,
        YamlFormError,
    )
    from mjscore.model.settings import Paying, Rotation, SettingError, Settings
    from mjscore.model.table import Meld, PlayerHand, Table, Win, WinFlag
    from mjscore.model.tiles import Tile, Wind
    from mjscore.pipeline import TableResult
    from mjscore.rules.scheme import Rule, Scheme
    from mjscore.scoring.score import Item, PlayerScore
    from mjscore.settle import Payment, Settlement, SettlementError


def __getattr__(name: str) -> object:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'mjscore' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
