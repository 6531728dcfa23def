"""Rendering: results in their plain form (`to_dict()`) as text tables, Markdown, CSV or JSON.

Knows nothing about scoring: it only lays out figures it is given.
"""

from __future__ import annotations

import csv
import functools
import io
import itertools
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from mjscore.api import amount, how_won, outcome, paid, payment_sentences, penalty_sentences, special_sentence
from mjscore.api import figures, finished, nobody_pays, settle_up_lines, totals_stop, won_or_lost
from mjscore.api import added_up_said, completed_said, draw_said, grid_words, no_payments_said, not_settled_said
from mjscore.api import payments_said, settle_up_part, total_said, winner_said
from mjscore.api import headings, items_said, left_out_said, season_heading, season_words
from mjscore.api import money_total_said, stakes_differ_said
from mjscore.model.errors import escaped
from mjscore.model.money import Stake, with_money
from mjscore.model.say import ENGLISH, _, language, number
from mjscore.model.plain import encode
from mjscore.model.tiles import SEAT_LETTERS, SEAT_WORDS

if TYPE_CHECKING:
    from mjscore.api import BatchItem
    from mjscore.model.answers import (
        BiggestHandPlain,
        ChangedHandPlain,
        EveningPlain,
        HandPlain,
        ItemPlain,
        NextPlain,
        PlayerPlain,
        Scored,
        SeasonMoneyPlain,
        SeasonPlain,
        SessionPlain,
        SettlementPlain,
        SeasonStandingPlain,
        StakePlain,
        StandingPlain,
        TransferPlain,
        WinPlain,
    )

T = TypeVar("T")
Cell = str | int | float                 # a cell of a grid or of a CSV row
CsvRow = dict[str, Cell]

# What a winner's table stands on when its win is not written (it always is): self-drawn, no tile.
_NO_WIN: WinPlain = {"tile": None, "from": None, "flags": []}


def to_json(result: Mapping[str, object]) -> str:
    return json_safe(encode(items_said(result)))


def json_safe(text: str) -> str:
    """JSON whose strings hold no character a terminal would act on (a control character, an
    escape sequence's C1 introducer, a direction mark): each is written as its `\\uXXXX` escape,
    which reads back as the same string.  (The encoder escapes the C0 controls itself.)"""
    # JSON in ASCII (nearly every line) holds no such character but DEL, the C0 controls being
    # escaped already: asking that is a search for one character, where asking whether every
    # character prints looks each one up (86 M instructions of a 1,500-table batch, callgrind).
    if text.isascii() and "\x7f" not in text:
        return text
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _json_escape(c) for c in text)


def _json_escape(c: str) -> str:
    n = ord(c)
    if n <= 0xFFFF:
        return f"\\u{n:04x}"
    n -= 0x10000
    return f"\\u{0xD800 + (n >> 10):04x}\\u{0xDC00 + (n & 0x3FF):04x}"


def _fmt_item(item: ItemPlain) -> list[Cell]:
    if "limit" in item:
        value = headings()["share_of_limit"].format(share=_fraction(item["limit"]))
        return [_(item["text"]), item.get("applies_to", ""), "", "", value]
    return [_(item["text"]), item.get("applies_to", ""), item.get("points", "") if "points" in item else "",
            item.get("doubles", "") if "doubles" in item else "", ""]


def _fraction(f: float) -> str:
    h = headings()
    return {1.0: h["full"], 0.5: h["half"]}.get(f, h["times"].format(share=f"{f:g}"))


def _who(p: PlayerPlain, names: dict[str, str] | None = None) -> str:
    name = p.get("name") or (names or {}).get(p["seat"])
    return f"{SEAT_WORDS[p['seat']]} ({name})" if name else SEAT_WORDS[p["seat"]]


def _item_words(item: ItemPlain) -> str:
    """An item by its text and what it is for: `Pung or kong of dragons [CCC]`."""
    applies_to = item.get("applies_to")
    return _(item["text"]) + (" " + applies_to if applies_to else "")


def render_text(result: Scored, fmt: str = "table", width: int | None = None) -> str:
    """The human forms: `table` (plain text grids) or `markdown`; no line longer than `width`
    (a terminal's) when given, wrapping words but never a figure."""
    grid = "simple" if fmt == "table" else "github"
    if fmt == "markdown":
        result = markdown_safe(result)
    names = table_names(result)
    out: list[str] = []
    h = headings()
    head = [h["scheme"].format(scheme=result["scheme"]), h["round"].format(round=result["round"])]
    winner = result.get("winner")
    if result.get("draw"):
        head.append(draw_said())
    elif winner:
        win = result.get("win") or _NO_WIN
        how = how_won(win, lambda seat: label(seat, names))
        shown = [f for f in win.get("flags") or () if f != "unrecorded"]     # `how` says that one
        head.append(winner_said(label(winner, names), win.get("tile"), how, shown))
    for line in _words(head, width, sep="   "):
        # A phrase longer than the width by itself ("Winner: ..., 5m on a discard (whose was not
        # recorded)") is wrapped by its words.
        out.extend(_words(line.strip().split(" "), width) if width is not None and len(line) > width else [line])
    ruling = result.get("ruling")
    if ruling:
        out.extend(_words([h["ruling"], *ruling.split()], width, indent="  "))
    for p in winner_first(result["players"], winner):
        out.append("")
        title = f"{_who(p, names)}{h['winner_mark'] if p['winner'] else ''}:"
        words = [title] + p["arrangement"]
        out.extend(("## " + line if fmt == "markdown" else line) for line in _words(words, width))
        completed = p.get("completed")
        if completed:
            out.extend(_words([f"  {completed}:", *completed_text(result, names).split()], width, indent="   "))
        rows = [_fmt_item(i) for i in p["items"]]
        if rows and not p.get("counted"):
            out.append(fit(rows, [h["item"], h["for"], h["points"], h["doubles"], h["limit"]], grid, width,
                           wrap=(0, 1, 4)))
        for i in p.get("not_counted", []):
            out.extend(_words([h["not_counted"], _item_words(i) + ")"], width, indent="   "))
        out.extend(_words([h["total"], total_said(p)], width, indent="  "))
        ru = p.get("runner_up")
        if ru:
            out.extend(_words([h["runner_up"], *ru["arrangement"], f"= {ru['score']}"], width, indent="  "))
            for i in ru.get("missing", []):
                out.append(h["lacks"].format(item=_item_words(i)))
            for i in ru.get("extra", []):
                out.append(h["has"].format(item=_item_words(i)))
    out.append("")
    summary = [[_who(p, names), h["yes"] if p["winner"] else "", p["points"], p["doubles"], p["limit"] or "",
                p["score"]] for p in result["players"]]
    out.append(fit(summary, [h["player"], h["won"], h["points"], h["doubles"], h["limit"], h["score"]], grid, width,
                   wrap=(0, 4)))
    out.append("")
    out.extend(settlement_text(result, grid, width))
    out.extend(money_lines(result, width))
    text = "\n".join(out).rstrip() + "\n"
    return emphasis_safe(text) if fmt == "markdown" else text


def completed_text(result: Scored, names: dict[str, str]) -> str:
    """Why a set written concealed is shown exposed: `the 5p from North completed it`."""
    return completed_said(result.get("win") or _NO_WIN, lambda seat: _seat_name(seat, names))


def _seat_name(seat: str | None, names: dict[str, str]) -> str:
    return names.get(seat, SEAT_WORDS.get(seat, "")) if seat else ""


def winner_first(players: list[PlayerPlain], winner: str | None) -> list[PlayerPlain]:
    """The players as the hands are scored at the table: the winner first, then the others in
    turn from the winner (seed text 000: "each man scores his hand, beginning with the winner");
    in seat order when nobody won.  JSON and CSV keep seat order."""
    if not winner:
        return players
    order = "ESWN"
    start = order.index(winner)
    turn = {seat: (order.index(seat) - start) % 4 for seat in order}
    return sorted(players, key=lambda p: turn[p["seat"]])


def table_names(result: Scored) -> dict[str, str]:
    """Seat -> name, where the table or the session knows the players' names."""
    # by the seat's letter read as text (a copy: what the page and the file name a seat by)
    names: dict[str, str] = {seat: name for seat, name in result["names"].items()} if "names" in result else {}
    for p in result["players"]:
        name = p.get("name")
        if name:
            names[p["seat"]] = name
    return names


def label(seat: str, names: dict[str, str]) -> str:
    return f"{names[seat]} ({seat})" if seat in names else SEAT_WORDS[seat]


def settlement_text(result: Scored, grid: str = "simple", width: int | None = None) -> list[str]:
    """Who pays whom: the matrix of every seat (each cell the total that row pays that column,
    penalties included), what each pays in all, and each net; or, where nothing changes hands,
    what happens instead."""
    s = result.get("settlement")
    if s is None:
        return _words(not_settled_said(result.get("settlement_error")), width, indent="  ")
    names = table_names(result)
    net = s.get("net", {})
    specials = _special_lines(s, names, width)
    pens = penalty_lines(s, lambda seat: label(seat, names), width)
    if s["paying"] == "add-up":
        grows = ", ".join(f"{label(seat, names)} {net.get(seat, 0):+d}" for seat in SEAT_LETTERS if seat in net)
        said = added_up_said(bool(result.get("draw")), bool(s.get("penalties")), bool(s.get("east_double")))
        return _words([said, grows], width, indent="  ") + pens + specials
    if not s.get("payments"):
        return [no_payments_said(bool(result.get("draw")))] + pens + specials
    east = bool(s.get("east_double")) if s.get("east_double_applies") else None
    lines = _words(payments_said(s["paying"], s.get("payoff"), east), width)
    grid_said = grid_words()
    amount = paid(s)
    heads = [names.get(b, b) for b in SEAT_LETTERS]
    rows: list[list[str | int]] = [[label(a, names)] + [amount.get((a, b), "") if a != b else "." for b in SEAT_LETTERS]
                                   + [sum(amount.get((a, b), 0) for b in SEAT_LETTERS)] for a in SEAT_LETTERS]
    rows.append([grid_said["net"], *[f"{net.get(b, 0):+d}" for b in SEAT_LETTERS], ""])
    lines.append(fit(rows, [grid_said["corner"]] + heads + [grid_said["in_all"]], grid, width, wrap=(0, 1, 2, 3, 4)))
    return lines + penalty_lines(s, lambda seat: label(seat, names), width) + specials


def money_lines(result: Scored, width: int | None = None) -> list[str]:
    """With a stake, each seat's gain in money (the library's figures: `settlement.money`):
    "Net in money: East (Ann) +240 (EUR +12.00)  South (Bob) -76 (EUR -3.80) ..."."""
    s = result.get("settlement")
    if s is None or "money" not in s or "stake" not in s:     # the money comes with its stake
        return []
    names, currency = table_names(result), s["stake"]["currency"]
    return _words([headings()["net_in_money"]]
                  + [f"{label(seat, names)} {with_money(s['net'][seat], money, currency, True)}"
                     for seat, money in s["money"].items()], width, sep="  ", indent="    ")


def won_or_lost_line(totals: Mapping[str, int], start: int, stake: Stake | None, width: int | None,
                     head: str | None = None, money: Mapping[str, str] | None = None) -> list[str]:
    """With a stake, each player's won or lost (her total less her start) and its money, as the
    settle-up would pay it: "Won or lost:  Ann +240 (EUR +12.00)  Bob -76 (EUR -3.80) ..."; none
    without one.  `money`: the evening's own (`money` of its plain form) when these are its final
    totals, so that the line says what its standings say."""
    if stake is None:
        return []
    if money is None:
        from mjscore.api import money_so_far      # an evening's: a one-hand score loads none of it

        money = {n: f"{m:f}" for n, m in money_so_far(stake, {n: t - start for n, t in totals.items()}).items()}
    return _words([head if head is not None else headings()["won_or_lost"]]
                  + [f"{n} {with_money(t - start, money[n], stake.currency, True)}" for n, t in totals.items()],
                  width, sep="  ", indent="    ")


def penalty_lines(settlement: SettlementPlain | None, who: Callable[[str], str], width: int | None = None) -> list[str]:
    """Each penalty on a line of its own (the library's words), wrapped to `width`; none where
    the table was not settled."""
    if settlement is None:
        return []
    return [line for text in penalty_sentences(settlement, who) for line in _words(text.split(" "), width, indent="  ")]


def _special_lines(settlement: SettlementPlain | None, names: dict[str, str], width: int | None) -> list[str]:
    if settlement is None:
        return []
    return [line for x in settlement.get("specials", [])
            for line in _words(special_sentence(x, settlement["paying"], names).split(" "), width)]


def payment_lines(result: Scored) -> list[str]:
    """"Ann pays Bob 120", largest first: the library's words (`said`)."""
    return payment_sentences(result)


def fit(rows: Sequence[Sequence[object]], headers: list[str], grid: str, width: int | None,
        wrap: tuple[int, ...] = (), *, colalign: tuple[str, ...] | None = None, disable_numparse: bool = False) -> str:
    """A tabulate grid no wider than `width`: the widest of the columns in `wrap` (text) is
    narrowed a character at a time, its words wrapped (between words, never inside one, nor at
    a hyphen), until the grid fits; figures never break.

    The columns' widths are worked out directly (tabulate's "simple" grid is its columns, two
    spaces apart, each as wide as its widest line, a header with two spaces more: the cells here
    are text and whole numbers), so tabulate draws the grid once, with the cells wrapped at the
    widths kept.  `colalign` and `disable_numparse` go to tabulate as they are."""
    from tabulate import tabulate

    def draw(cells: Sequence[Sequence[object]], heads: Sequence[str]) -> str:
        return tabulate(cells, headers=heads, tablefmt=grid, colalign=colalign, disable_numparse=disable_numparse)

    if width is None or grid != "simple":
        return draw(rows, headers)
    tracked = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=True)]
    actual = [max(len(h) + 2, w) for h, w in zip(headers, tracked, strict=True)]    # a header has two spaces more
    limits: list[int | None] = [None] * len(headers)
    narrowed: dict[int, _Column] = {}
    gaps = 2 * (len(headers) - 1)
    # A column is not narrowed below its longest word: words are never broken.
    floor = [max(6, longest_word(col)) if c in wrap else 0 for c, col in enumerate(zip(headers, *rows, strict=True))]
    while sum(actual) + gaps > width:
        wide = max((c for c in wrap if tracked[c] > floor[c]), key=lambda c: tracked[c], default=None)
        if wide is None:
            break
        tracked[wide] -= 1
        limits[wide] = tracked[wide]
        column = narrowed.get(wide)
        if column is None:
            column = narrowed[wide] = _Column(headers[wide], [r[wide] for r in rows])
        actual[wide] = column.width_at(tracked[wide])
    if not narrowed:
        return draw(rows, headers)
    return draw(wrapped_cells(rows, limits), [str(h) for h in wrapped_cells([headers], limits)[0]])


def longest_word(cells: Sequence[object]) -> int:
    """The longest word among a column's text cells (numbers are never wrapped: not counted)."""
    return max((len(w) for c in cells if not _is_number(c) for w in str(c).split()), default=0)


def wrapped_cells(rows: Sequence[Sequence[object]], limits: Sequence[int | None]) -> list[list[object]]:
    """The text cells of the columns with a limit wrapped to it (lines joined by line breaks,
    which tabulate draws as a cell of several lines); numbers and other columns as they are."""
    return [[c if limit is None or _is_number(c) or not str(c) else "\n".join(_wrapper(limit).wrap(str(c)))
             for c, limit in zip(row, limits, strict=True)] for row in rows]


@functools.lru_cache(maxsize=256)
def _wrapper(limit: int) -> textwrap.TextWrapper:
    # Words are never broken: a word longer than the limit stands on a line of its own.
    return textwrap.TextWrapper(width=limit, break_long_words=False, break_on_hyphens=False)


class _Column:
    """One column of a grid with its text wrapped at a width: its widest line (numbers are never
    wrapped), the header's with two spaces of padding.

    A greedy wrap at a width no narrower than its widest line is the same wrap, so a column is
    wrapped again only when the width comes below its widest line (once or twice as it narrows,
    not at every character)."""

    def __init__(self, header: str, cells: Sequence[object]):
        self.header = header
        self.texts = [str(c) for c in cells if not _is_number(c) and str(c)]
        self.numbers = max((len(str(c)) for c in cells if _is_number(c)), default=0)
        self.head = self.text = -1          # widest line of the header, of the texts: not yet wrapped

    def width_at(self, limit: int) -> int:
        if self.head < 0 or self.head > limit:
            self.head = _widest_line(self.header, limit)
        if self.text < 0 or self.text > limit:
            self.text = max((_widest_line(t, limit) for t in self.texts), default=0)
        return max(self.head + 2, self.text, self.numbers)


@functools.lru_cache(maxsize=4096)
def _widest_line(text: str, limit: int) -> int:
    """The widest line of `text` wrapped at `limit`, words whole."""
    return max((len(line) for line in _wrapper(limit).wrap(text)), default=0)


def _is_number(cell: object) -> bool:
    if isinstance(cell, (int, float)):
        return True
    if not isinstance(cell, str):           # the plain forms' other values: None, a list, a mapping
        return False
    try:
        float(cell)
    except (TypeError, ValueError):
        return False
    return True


def _words(words: list[str], width: int | None, sep: str = " ", indent: str = "  ") -> list[str]:
    """Words laid into lines no longer than `width`, breaking only between words."""
    if width is None:
        return [sep.join(words)]
    lines: list[str] = []
    line = ""
    for w in words:
        if not line:
            line = w
        elif len(line) + len(sep) + len(w) <= width:
            line += sep + w
        else:
            lines.append(line)
            line = indent + w
    return lines + [line] if line else lines


def term_lines(term: str, text: str, column: int, width: int | None) -> list[str]:
    """A term and what it means, as a list shows them: side by side, the meaning wrapped under
    itself; where the width leaves the meaning too little room, the term on a line of its own
    and the meaning under it, indented."""
    if width is None or column + 2 + len(text) <= width:
        return [f"{term:<{column}}  {text}"]
    if width - column - 2 >= 28:
        lines = _words(text.split(" "), width - column - 2, indent="")
        return [f"{term:<{column}}  {lines[0]}"] + [" " * (column + 2) + x for x in lines[1:]]
    return [term] + ["    " + x for x in _words(text.split(" "), width - 4, indent="")]


def report_lines(line: str, width: int | None) -> list[str]:
    """One line of a report (`check`'s) laid into lines no longer than `width`, broken only
    between words: a continued line is indented under the text it continues (after a label and
    two spaces, as in `4 points  Flower 1f`), else four spaces further in."""
    if width is None or len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    gap = line.find("  ", lead)
    if gap > 0 and gap + 2 <= width // 2:
        hang, head, rest = gap + 2, line[:gap + 2], line[gap + 2:]
    else:
        hang, head, rest = lead + 4, line[:lead], line[lead:]
    words = rest.split(" ")
    out: list[str] = []
    current = head + words[0]
    for w in words[1:]:
        if len(current) + 1 + len(w) <= width:
            current += " " + w
        else:
            out.append(current)
            current = " " * hang + w
    return out + [current]


CSV_FIELDS = ["table", "file", "line", "hand", "seat", "name", "draw", "winner", "points", "doubles", "limit",
              "score", "claim", "arrangement", "net", "total", "settle_up", "error", "no_settlement"]


def csv_rows(result: Scored, table_no: int, file: str = "", line: int = 0) -> list[CsvRow]:
    """A row for every seat of the table, E S W N, listed or not (a bare `draw`, a loser left
    out under winner-only: the seat's net still counts); a session's hand also has its number,
    the players' names and their running totals."""
    settlement = result["settlement"]
    net = settlement["net"] if settlement is not None else {}
    number: int | str = ""
    names: dict[str, str] = {}
    totals: dict[str, int] = {}
    if "hand" in result:                          # a hand of a session
        number, names, totals = result["hand"], table_names(result), result["totals"]
    by_seat = {p["seat"]: p for p in result["players"]}
    rows = []
    for seat in SEAT_LETTERS:
        p = by_seat.get(seat)
        name = (p.get("name") if p is not None else None) or names.get(seat, "")
        row: CsvRow = {"table": table_no, "file": file, "line": line, "hand": number, "seat": seat,
               "name": name, "draw": "yes" if result.get("draw") else "", "winner": "", "points": "",
               "doubles": "", "limit": "", "score": "", "claim": "", "arrangement": "", "net": net.get(seat, ""),
               "total": totals.get(name, ""), "settle_up": "", "error": "",
               "no_settlement": "" if settlement is not None else result.get("settlement_error", "")}
        if p is not None:
            row.update({"winner": "yes" if p["winner"] else "", "points": p["points"], "doubles": p["doubles"],
                        "limit": p["limit"] or "", "score": p["score"], "claim": p.get("claim", ""),
                        "arrangement": " ".join(p["arrangement"])})
        rows.append(row)
    return rows


def session_end_rows(end: EveningPlain, file: str = "", line: int = 0) -> list[CsvRow]:
    """A session's end in a batch's CSV: a row for every player, with her final total, what she
    won or lost, and her part of the settle-up ("pays Ann 816", "receives 816 from Bob")."""
    parts: dict[str, list[str]] = {n: [] for n in end["players"]}
    stake = _stake(end)
    for t in end.get("settle_up") or []:
        amount = _amount(t, stake)
        parts[t["from"]].append(settle_up_part(payee=t["to"], amount=amount))
        parts[t["to"]].append(settle_up_part(payer=t["from"], amount=amount))
    money = end.get("money")            # the library's, which comes with the stake: what her transfers hand over
    if stake is not None and money is not None:
        # The money of what each won or lost, beside her part of the settle-up: the CSV's
        # columns stay numbers, as without a stake.
        for n in end["players"]:
            parts[n].append(settle_up_part(in_all=with_money(end['totals'][n] - end['start'], money[n], stake.currency,
                                                            True)))
    why = end.get("settle_up_note", "") if end.get("settle_up") is None else ""
    errors, nxt = end.get("errors"), end.get("next")
    if errors:
        why = totals_stop(len(errors), nxt["hand"] if nxt else None, briefly=True)
    return [{"table": "", "file": file, "line": line, "hand": "end", "seat": "", "name": n, "draw": "",
             "winner": "", "points": "", "doubles": "", "limit": "", "score": "", "claim": "", "arrangement": "",
             "net": end["totals"][n] - end["start"], "total": end["totals"][n],
             "settle_up": "; ".join(parts[n]) or (settle_up_part() if end.get("settle_up") is not None else ""),
             "error": "", "no_settlement": why} for n in end["players"]]


def csv_cell(value: Cell) -> Cell:
    """A value as a spreadsheet may safely read it: text that a spreadsheet would run as a
    formula (starting with = + - @, a tab or a carriage return) gets a leading `'`, and control
    characters are escaped.  Numbers are left as they are."""
    if not isinstance(value, str):
        return value
    if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        value = "'" + value
    return escaped(value)


class _Writer:
    """CSV rows by field name, each cell as a spreadsheet may safely read it (`csv_cell`)."""

    def __init__(self, buf: io.StringIO, fields: list[str]):
        self._rows = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")

    def writeheader(self) -> None:
        self._rows.writeheader()                # the field names: plain words, safe as they are

    def writerow(self, row: Mapping[str, Cell]) -> None:
        self._rows.writerow({k: csv_cell(v) for k, v in row.items()})


def render_csv(rows: Iterable[Mapping[str, Cell]], header: bool = True) -> str:
    buf = io.StringIO()
    w = _Writer(buf, CSV_FIELDS)
    if header:
        w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def markdown_safe(value: T) -> T:
    """A result with every text in it (names, a house scheme's item texts) made safe for a
    Markdown table: `|` would end a cell, `<` and `&` open HTML.  (The plain form's own keys hold
    none of these, so only names and texts change.)  The same shape comes back."""
    if isinstance(value, str):
        if not any(c in value for c in "|<>&"):
            return value
        return cast(T, value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|"))
    if isinstance(value, dict):
        return cast(T, {markdown_safe(k): markdown_safe(v) for k, v in value.items()})
    if isinstance(value, list):
        return cast(T, [markdown_safe(v) for v in value])
    return value


def emphasis_safe(text: str) -> str:
    """Markdown output with `*` and `_` escaped: a name (`Ann_1`, `B*b`) or a house scheme's text
    shows as written, never as emphasis.  (mjscore's own Markdown uses neither.)"""
    return text.replace("*", "\\*").replace("_", "\\_") if ("*" in text or "_" in text) else text


def terminal_safe(text: str) -> str:
    """Text for a terminal: every line's control and invisible characters escaped (a name or a
    scheme title could hold escape sequences), line breaks kept."""
    if text.isprintable():
        return text
    return "\n".join(escaped(line) for line in text.split("\n"))


def batch_line(item: BatchItem | None, fmt: str, header: bool = False) -> str:
    """One table of a batch (a result or an error row, see `BatchItem.to_dict`) as a JSON line
    (the item's own JSON, `BatchItem.to_json`) or CSV rows; with `header` (and no item), the CSV
    header line."""
    if item is None or header:
        return render_csv([], header=True) if fmt == "csv" else ""
    if fmt == "csv":
        row = item.to_dict()
        if "error" in row:
            return render_csv([{k: row[k] for k in ("table", "file", "line", "error")}], header=False)
        if "settle_up" in row:                     # a session's end
            return render_csv(session_end_rows(cast("EveningPlain", row), row["file"], row["line"]), header=False)
        return render_csv(csv_rows(cast("Scored", row), row["table"], row["file"], row["line"]), header=False)
    if language() != ENGLISH:       # results are kept in English: their items' names said here
        return json_safe(encode(items_said(item.to_dict()))) + "\n"
    return json_safe(item.to_json()) + "\n"


# -- sessions ----------------------------------------------------------------------------------

def hand_title(number: int, dealer: str, round_letter: str, kajongg_hand: int | None = None) -> str:
    """The hand named once, in the library (`api.hand_title`), which an evening's module holds:
    loaded when a hand is named, not when a table is scored."""
    from mjscore.api import hand_title as title

    return title(number, dealer, round_letter, kajongg_hand)


def _result_text(hand: HandPlain, sentence: bool = False) -> str:
    """What came of a hand (`sentence`: as a sentence of its own begins), in the library's words."""
    text = outcome(hand)
    return text[:1].upper() + text[1:] if sentence else text


def hand_row(hand: HandPlain, names: Sequence[str]) -> list[Cell]:
    """A hand's row of an evening's grid (the terminal's and the printed page's): its number,
    round, dealer and result, then each player's seat, score, net and total, in `names`' order."""
    seat_of = {v: k for k, v in hand["names"].items()}
    by_seat = {p["seat"]: p for p in hand["players"]}
    net = _net(hand)
    row: list[Cell] = [hand["hand"], hand["round"], hand["dealer"], _result_text(hand)]
    for n in names:
        seat = seat_of[n]
        p = by_seat.get(seat)
        row.append(f"{seat} {p['score'] if p else '-'} {net.get(seat, 0):+d} = {hand['totals'][n]}")
    return row


def _net(hand: Scored) -> dict[str, int]:
    """Each seat's gain in the hand (none where it was not settled)."""
    settlement = hand["settlement"]
    return {seat: gain for seat, gain in settlement["net"].items()} if settlement is not None else {}


def render_session(result: SessionPlain, fmt: str = "table", width: int | None = None) -> str:
    """Every hand of the evening with the running totals, then the standings, the settle-up and
    who deals next.  Where the wide grid does not fit `width`, each hand takes two lines."""
    from tabulate import tabulate

    grid = "github" if fmt == "markdown" else "simple"

    def safe(value: T) -> T:
        return markdown_safe(value) if fmt == "markdown" else value

    names = safe(result["players"])
    h = headings()
    out = _words([h["session"].format(players=", ".join(names)), h["starts"].format(start=result["start"])], width)
    out.append("")
    rows: list[list[Cell]] = []
    said: list[list[str]] = []
    # One pass over the hands, which may come one at a time (`mjscore session` makes each hand's
    # plain form as it is drawn, so an evening's hands are never all held at once).
    for hand in result["hands"]:
        hand = safe(hand)
        rows.append(hand_row(hand, names))
        said.append((hand_title(hand["hand"], hand["dealer"], hand["round"], hand.get("kajongg_hand")) + ".").split(" ")
                    + _result_text(hand, sentence=True).split())
    grid_text = tabulate(rows, headers=[h["#"], h["round_column"], h["East"], h["result"]]
                         + [h["seat_score"].format(name=n) for n in names], tablefmt=grid)
    if width is None or fmt == "markdown" or max(map(len, grid_text.split("\n"))) <= width:
        out.append(grid_text)
    else:
        for words, row in zip(said, rows, strict=True):
            # Two lines a hand: what happened, then each player's "seat score net = total".
            out.extend(_words(words, width, indent="    "))
            out.extend(_words([f"    {names[0]} {row[4]}"]
                              + [f"{n} {cell}" for n, cell in zip(names[1:], row[5:], strict=True)],
                              width, sep="  ", indent="    "))
    out.append("")
    evening = cast("EveningPlain", {k: v for k, v in result.items() if k != "hands"})
    out.extend(_closing(safe(evening), grid, width))
    text = "\n".join(out) + "\n"
    return emphasis_safe(text) if fmt == "markdown" else text


def _amount(transfer: TransferPlain, stake: Stake | None) -> str:
    """A transfer's amount, with its money beside it when the evening has a stake: `596 (EUR 29.80)`."""
    return amount(transfer["amount"], transfer.get("money") if stake is not None else None,
                  stake.currency if stake is not None else None)


def _won_or_lost(standing: StandingPlain, start: int, currency: str | None) -> str:
    return won_or_lost(standing["total"], start, standing.get("money"), currency)


def _stake(evening: EveningPlain) -> Stake | None:
    """The evening's stake, read back from its plain form; None without one."""
    plain = evening.get("stake")
    return Stake.from_plain(plain) if plain else None


def _closing(result: EveningPlain, grid: str, width: int | None, title: str | None = None) -> list[str]:
    """The standings, the settle-up and the next deal; with a stake, their money beside them."""
    from tabulate import tabulate

    h = headings()
    stake = _stake(result)
    currency = stake.currency if stake is not None else None
    out = [title if title is not None else h["final_standings"]]
    out.append(tabulate([[i + 1, s["name"], s["total"], _won_or_lost(s, result["start"], currency)]
                         for i, s in enumerate(result["standings"])],
                        headers=[h["place"], h["player"], h["total_column"], h["won_or_lost_column"]], tablefmt=grid,
                        colalign=None if stake is None else ("right", "left", "right", "right")))
    out.append("")
    settle_up = result.get("settle_up")
    out.extend(settle_up_lines(result))
    if settle_up is not None:
        note = result.get("settle_up_note")
        if note:
            # An evening that mixes paying methods: which hands the settle-up leaves out.
            out.extend(_words(f"{note[0].upper()}{note[1:]}.".split(" "), width))
    errors, nxt = result.get("errors"), result.get("next")
    if errors:
        out.append("")
        out.extend(_words(totals_stop(len(errors), nxt["hand"] if nxt else None).split(" "), width))
    elif nxt:
        out.append("")
        out.extend(_words(next_line(nxt).split(" "), width, indent="      "))
    elif result.get("finished"):
        out.append("")
        out.extend(_words(finished().split(" "), width))
    return out


def next_line(nxt: NextPlain) -> str:
    """Who deals the next hand, and what it carries, in the library's words (`NextDeal.sentence`)."""
    return nxt["text"]


def render_hand(result: ChangedHandPlain, width: int | None = None) -> str:
    """One hand of an evening, as the table wants it at once: the scores, who pays whom by name,
    each net, the running totals (with a stake and the evening's `start`, their won or lost in money
    too), and who deals next (`result`: what `add --format json` prints)."""
    hand = result["hand"]
    names = table_names(hand)
    out = _words((hand_title(hand["hand"], hand["dealer"], hand["round"], hand.get("kajongg_hand")) + ".").split(" ")
                 + (_result_text(hand, sentence=True) + ".").split(" "), width)
    for p in winner_first(hand["players"], hand.get("winner")):
        out.extend(_words([f"  {names[p['seat']]:<10} {p['seat']}  {p['score']:>6}", *figures(p).split()], width,
                          indent="                        "))
    settlement = hand["settlement"]

    def who(seat: str) -> str:
        return names.get(seat, SEAT_WORDS[seat])

    pays = payment_lines(hand)
    out.append("")
    if pays:
        out.extend(pays)
        out.extend(penalty_lines(settlement, who, width))
    elif settlement is not None and settlement["paying"] == "add-up":
        out.append(nobody_pays(settlement))
        out.extend(penalty_lines(settlement, who, width))
    else:
        out.append(nobody_pays(settlement))
    out.extend(_special_lines(settlement, table_names(hand), width))
    net = _net(hand)
    out.append("")
    h = headings()
    out.extend(_words([h["net"]] + [f"{names[s]} {net.get(s, 0):+d}" for s in SEAT_LETTERS], width, sep="  ",
                      indent="     "))
    out.extend(_words([h["totals"]] + [f"{n} {t}" for n, t in hand["totals"].items()], width, sep="  ",
                      indent="        "))
    if "start" in result:
        out.extend(won_or_lost_line(hand["totals"], result["start"], _stake(result), width,
                                    money=result.get("money") if hand["totals"] == result.get("totals") else None))
    nxt = result.get("next")
    if nxt:
        out.extend(_words(next_line(nxt).split(" "), width, indent="      "))
    return "\n".join(out) + "\n"


def render_standings(result: EveningPlain, width: int | None = None) -> str:
    return "\n".join(_closing(result, "simple", width, headings()["standings"])) + "\n"


SESSION_CSV_FIELDS = ["hand", "round", "dealer", "seat", "name", "winner", "score", "net", "total"]


def session_csv(result: SessionPlain) -> str:
    buf = io.StringIO()
    w = _Writer(buf, SESSION_CSV_FIELDS)
    w.writeheader()
    for hand in result["hands"]:
        net = _net(hand)
        by_seat = {p["seat"]: p for p in hand["players"]}
        for seat, name in hand["names"].items():
            p = by_seat.get(seat)
            w.writerow({"hand": hand["hand"], "round": hand["round"], "dealer": hand["dealer"], "seat": seat,
                        "name": name, "winner": "yes" if hand.get("winner") == seat else "",
                        "score": p["score"] if p else "", "net": net.get(seat, 0), "total": hand["totals"][name]})
    return buf.getvalue()


# A player's line: her own marker and her own dash (drawn, left out), so that eight players are
# told apart on a black-and-white terminal; colour is only an extra.  The i-th player takes the
# i-th marker and the (i + i // 8)-th dash: 64 players before two share both.
CHART_MARKERS = ("o", "x", "+", "*", "#", "@", "%", "=")
CHART_DASHES: tuple[tuple[bool, ...], ...] = (
    (True,), (True, False), (True, True, False), (True, False, False), (True, True, True, False),
    (True, True, False, False), (True, True, True, False, False), (True, False, False, False))


def chart_style(i: int) -> tuple[str, tuple[bool, ...]]:
    """The i-th player's marker and dash."""
    n = len(CHART_MARKERS)
    return CHART_MARKERS[i % n], CHART_DASHES[(i + i // n) % len(CHART_DASHES)]


def _nice_step(span: float, ticks: int = 6) -> int:
    """A round step (1, 2 or 5 times a power of ten, in whole chips) giving about `ticks` ticks."""
    raw = max(span / ticks, 1)
    power: int = 10 ** (len(str(int(raw))) - 1)
    return next(k * power for k in (1, 2, 5, 10) if k * power >= raw)


def session_chart(result: SessionPlain, color: bool = False, width: int | None = None) -> str:
    """The running totals as a terminal line chart (plotext, imported only when asked for): each
    player drawn with a marker and a dash of her own (`chart_style`) and named, with her
    marker, at her line's end, so the lines are told apart without colour; the axis in round
    numbers of whole chips; no wider than `width` (78 where no width is known)."""
    hands = list(result["hands"])              # drawn from once a player
    series = {n: [result["start"]] + [h["totals"][n] for h in hands] for n in result["players"]}
    h = headings()
    return line_chart(series, h["running_totals"], h["hand"], color, width)


def season_chart(result: SeasonPlain, color: bool = False, width: int | None = None) -> str:
    """Each player's season total (what she has won or lost so far) night by night (a file given
    alone is a night of one evening), drawn as `session_chart` draws an evening hand by hand; a
    night she missed leaves her line level."""
    series: dict[str, list[int]] = {p["name"]: [0] for p in result["players"]}
    for night in result["nights"]:
        for name, line in series.items():
            line.append(line[-1] + night["won_or_lost"].get(name, 0))
    h = headings()
    by_night = any(len(n["files"]) > 1 for n in result["nights"])     # else each night is an evening
    return line_chart(series, h["season_totals"], h["night"] if by_night else h["evening"], color, width)


def line_chart(series: dict[str, list[int]], title: str, xlabel: str, color: bool = False,
               width: int | None = None) -> str:
    """Lines of whole figures over 0, 1, 2, ... (hands, nights) as a terminal chart: a marker and
    a dash each (`chart_style`), and the marker and the name at each line's end.  The lines are
    drawn here a character cell at a time (plotext only places the points), so that a dash's
    gaps fall where the terminal's cells are."""
    import plotext as plt

    plt.clear_figure()
    steps = max(len(ys) for ys in series.values()) - 1
    xs = list(range(0, steps + 1))
    columns = min(width or 78, 100)
    rows = 20
    lows, highs = min(min(v) for v in series.values()), max(max(v) for v in series.values())
    step = _nice_step(highs - lows or 100)
    bottom, top = (lows // step) * step, -(-highs // step) * step
    if top == bottom:
        top += step
    # Room at the right for the names at the lines' ends, in hands.
    room = max(len(n) for n in series) + 4
    plot_columns = max(columns - len(str(top)) - 3, 20)
    xmax = max(steps, 1)
    extra = room * xmax / max(plot_columns - room, 1)
    # The names, in the order the lines end, kept a line apart.
    per_row = (top - bottom) / (rows - 5)
    ends = sorted(series, key=lambda n: series[n][-1])
    placed: dict[str, float] = {}
    last: float | None = None
    for n in ends:
        y = float(series[n][-1])
        if last is not None and y - last < per_row:
            y = last + per_row
        placed[n] = last = y
    x_cell = (xmax + extra) / plot_columns                        # what a character cell spans
    y_cell = (max(top, max(placed.values())) - bottom) / max(rows - 5, 1)
    for i, (name, ys) in enumerate(series.items()):
        marker, dash = chart_style(i)
        px, py = _dashed(xs, ys, dash, x_cell, y_cell or 1)
        plt.scatter(px, py, marker=marker, label=name)     # plotext's legend too: "oo Ann"
        plt.text(f" {marker} {name}", x=xs[-1] + extra * 0.15, y=min(placed[name], top), alignment="left")
    plt.plotsize(columns, rows)
    plt.xlim(0, xmax + extra)
    plt.ylim(bottom, max(top, max(placed.values())))
    step_x = max(1, -(-len(xs) // 10))
    plt.xticks(xs[::step_x])                     # whole numbers of hands (evenings), never 2.5
    ticks = list(range(int(bottom), int(top) + 1, step))
    plt.yticks(ticks, [str(t) for t in ticks])   # whole chips, in round numbers
    plt.title(title)
    plt.xlabel(xlabel)
    plt.theme("clear")                           # the terminal's own background, not a forced white one
    chart: str = plt.build()
    if not color:                                # a file, a pipe, or NO_COLOR: no escape codes at all
        chart = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", chart)
    return chart + "\n"


def _dashed(xs: Sequence[int], ys: Sequence[int], dash: tuple[bool, ...], x_cell: float,
            y_cell: float) -> tuple[list[float], list[float]]:
    """The points of a line through (xs, ys), about a character cell apart, those of the dash's
    gaps left out; every point of the data kept."""
    px: list[float] = [float(xs[0])]
    py: list[float] = [float(ys[0])]
    step = 0
    for (x0, y0), (x1, y1) in itertools.pairwise(zip(xs, ys, strict=True)):
        cells = max(int(abs(x1 - x0) / x_cell + 0.5), int(abs(y1 - y0) / y_cell + 0.5), 1)
        for k in range(1, cells + 1):
            step += 1
            if k == cells or dash[step % len(dash)]:
                px.append(x0 + (x1 - x0) * k / cells)
                py.append(y0 + (y1 - y0) * k / cells)
    return px, py


# -- seasons -----------------------------------------------------------------------------------

def render_season(result: SeasonPlain, fmt: str = "table", width: int | None = None) -> str:
    """A season's record (or one evening's figures, `session --stats`): the standings, then
    each player's hands, biggest hand and limit hands, penalties and paying for all, every grid
    fitted to `width` (its headers and text wrapped, never a figure)."""
    grid = "github" if fmt == "markdown" else "simple"
    if fmt == "markdown":
        result = markdown_safe(result)
    evenings, players, nights = result["evenings"], result["players"], result["nights"]
    w = season_words()
    one = evenings[0]["file"] if len(evenings) == 1 and not result["left_out"] else None
    # Nights are said, and averaged over, where a night of several tables makes them other than
    # the evenings; a season of files given alone reads as it always has.
    by_night = any(len(n["files"]) > 1 for n in nights)
    out = _words(season_heading(len(evenings), result["hands"], len(players), one,
                                len(nights) if by_night else None), width)
    if result["left_out"]:
        n = len(result["left_out"])
        out.extend(_words([left_out_said(n),
                           *(f + ("," if i < n - 1 else "") for i, f in enumerate(result["left_out"]))], width))
    if not players:
        out.extend(["", w["no_hands"]])
        return _finished("\n".join(out) + "\n", fmt)
    out += ["", w["standings"]]
    stake = result["stake"]
    currency = stake["currency"] if stake is not None else None

    def won(s: SeasonStandingPlain) -> str:
        # With the season's one stake, her money beside her points: +240 (EUR +12.00).
        money = s.get("money")
        return f"{s['won_or_lost']:+d}" if money is None else with_money(s["won_or_lost"], money, currency, True)

    rows: list[list[Cell]] = [[s["place"], s["name"], won(s),
                               number(f"{s['per_night'] if by_night else s['per_evening']:+.2f}"),
                               number(f"{s['per_hand']:+.2f}")] for s in result["standings"]]
    # The signed figures as written (+12.50, not tabulate's 12.5; German +12,50), to the right.
    out.append(fit(rows, [w["place"], w["player"], w["won_or_lost"], w["a_night"] if by_night else w["an_evening"],
                          w["a_hand"]], grid, width,
                   wrap=(0, 1, 2, 3, 4), disable_numparse=True, colalign=("right", "left", "right", "right", "right")))
    out += ["", w["played"]]
    if by_night:
        rows = [[p["name"], p["nights"], p["evenings"], p["hands"], p["dealt"], p["draws"]] for p in players]
        out.append(fit(rows, [w["player"], w["nights"], w["evenings"], w["hands"], w["dealt"], w["draws"]], grid,
                       width, wrap=(0, 1, 2, 3, 4, 5)))
    else:
        rows = [[p["name"], p["evenings"], p["hands"], p["dealt"], p["draws"]] for p in players]
        out.append(fit(rows, [w["player"], w["evenings"], w["hands"], w["dealt"], w["draws"]], grid, width,
                       wrap=(0, 1, 2, 3, 4)))
    out += ["", w["won"]]
    rows = [[p["name"], p["hands_won"], p["won_self_drawn"], p["won_on_discard"]] for p in players]
    out.append(fit(rows, [w["player"], w["hands"], w["self_drawn"], w["on_a_discard"]], grid, width, wrap=(0, 1, 2, 3)))
    out += ["", w["biggest_hands"]]
    rows = [[p["name"], *_biggest_cells(p["biggest_hand"])] for p in players]
    out.append(fit(rows, [w["player"], w["score"], w["limit_hand"], w["evening"], w["hand"]], grid, width,
                   wrap=(0, 1, 2, 3, 4)))
    limits = [(p["name"], p["limit_hands"]) for p in players if p["limit_hands"]]
    out.append("")
    if not limits:
        out.append(w["no_limit_hands"])
    else:
        out.append(w["limit_hands"])
        for name, counts in limits:
            out.extend(_words([f"  {name}:"] + [f"{limit} {n}" + ("," if i < len(counts) - 1 else "")
                                               for i, (limit, n) in enumerate(counts.items())], width,
                              indent="      "))
    out += ["", w["penalties"]]
    rows = [[p["name"], p["penalties_paid"], p["penalties_received"], p["paid_for_all"]] for p in players]
    out.append(fit(rows, [w["player"], w["paid"], w["received"], w["paid_for_all"]], grid, width, wrap=(0, 1, 2, 3)))
    out += ["", w["night_by_night"]]
    names = [s["name"] for s in result["standings"]]
    cells = [[f"{n['won_or_lost'][name]:+d}" if name in n["won_or_lost"] else "" for n in nights] for name in names]
    out.extend(night_blocks(names, [n["name"] for n in nights], cells,
                            [f"{s['won_or_lost']:+d}" for s in result["standings"]], grid, width))
    if result["stakes"] and stake is None:
        out.append("")
        out.extend(_words(stakes_differ_said([_stake_said(x) for x in result["stakes"]], result["unstaked"]).split(" "),
                          width))
        out += ["", w["money_by_night"]]
        one_currency = len({x["currency"] for x in result["stakes"]}) == 1
        cells = [[_night_money(n["money"], name, one_currency) for n in nights] for name in names]
        out.extend(night_blocks(names, [n["name"] for n in nights], cells, None, grid, width))
        for m in result["money"]:
            out.append("")
            out.extend(_words([money_total_said(m["currency"])]
                              + [f"{name} {_signed_money(m['won_or_lost'][name])}" for name in names
                                 if name in m["won_or_lost"]], width, sep="  ", indent="    "))
    return _finished("\n".join(out) + "\n", fmt)


def _stake_said(stake: StakePlain) -> str:
    return str(Stake.from_plain(stake))


def _signed_money(money: str) -> str:
    return number(money if money.startswith("-") else "+" + money)


def _night_money(money: Sequence[SeasonMoneyPlain], name: str, one_currency: bool) -> str:
    """A player's money of a night: `+12.00`; with the season in several currencies, each with its
    currency (`EUR +12.00; USD -3.00`); blank where she played for no stake that night."""
    parts = [(m["currency"], m["won_or_lost"][name]) for m in money if name in m["won_or_lost"]]
    return "; ".join(_signed_money(v) if one_currency or c is None else f"{c} {_signed_money(v)}" for c, v in parts)


def night_blocks(names: Sequence[str], nights: Sequence[str], cells: Sequence[Sequence[str]],
                 totals: Sequence[str] | None, grid: str, width: int | None) -> list[str]:
    """The night-by-night grid: a row a player, a column a night (its name the heading, a cell
    blank where she did not play), and the season's total last.  Too wide for `width`, the
    nights are cut into blocks of columns, each block a grid of its own under the one before
    it, the players' names at the left of each, the total in the last: every night is shown,
    oldest first."""
    total_head = season_words()["total"]
    player_head = season_words()["player"]

    def draw(first: int, last: int) -> str:
        heads = [player_head, *nights[first:last]]
        rows: list[list[Cell]] = [[name, *row[first:last]] for name, row in zip(names, cells, strict=True)]
        if totals is not None and last == len(nights):
            heads.append(total_head)
            rows = [[*row, t] for row, t in zip(rows, totals, strict=True)]
        return fit(rows, heads, grid, width, wrap=tuple(range(len(heads))), disable_numparse=True,
                   colalign=("left",) + ("right",) * (len(heads) - 1))

    if not nights:
        return [draw(0, 0)]
    blocks: list[str] = []
    first = 0
    while first < len(nights):
        last = first + 1
        # The most nights that fit (at least one, and the total with the last block).
        while last < len(nights) and _fits(draw(first, last + 1), width):
            last += 1
        if last == len(nights) and totals is not None and not _fits(draw(first, last), width) and last - first > 1:
            last -= 1                      # the total fits only without this block's last night
        blocks.append(draw(first, last))
        first = last
    return "\n\n".join(blocks).split("\n")


def _fits(text: str, width: int | None) -> bool:
    return width is None or max(map(len, text.split("\n"))) <= width


def _biggest_cells(biggest: BiggestHandPlain | None) -> list[Cell]:
    if biggest is None:
        return ["", season_words()["no_hand_won"], "", ""]
    return [biggest["score"], biggest["limit"] or "", biggest["file"], biggest["hand"]]


def _finished(text: str, fmt: str) -> str:
    return emphasis_safe(text) if fmt == "markdown" else text


SEASON_CSV_FIELDS = ["place", "name", "evenings", "hands", "won_or_lost", "per_evening", "per_hand", "hands_won",
                     "won_self_drawn", "won_on_discard", "dealt", "draws", "biggest_hand", "biggest_hand_limit",
                     "biggest_hand_file", "biggest_hand_number", "limit_hands", "penalties_paid",
                     "penalties_received", "paid_for_all"]


NIGHT_FIELD = "night"          # a night's column of the season's CSV: `night NAME` (a header: never translated)


def season_csv(result: SeasonPlain) -> str:
    """A row for every player, in the standings' order: her standing and her figures (the limit
    hands in one cell, `Thirteen Orphans 2; Heavenly Hand 1`); then her nights, her average a
    night, her money (with the season's one stake), and a column a night (`night NAME`: what she
    won or lost that night, blank where she did not play)."""
    buf = io.StringIO()
    night_fields: list[str] = []
    for n in result["nights"]:                   # two nights of one name: the second `night NAME (2)`
        field, k = f"{NIGHT_FIELD} {escaped(n['name'])}", 1
        while field in night_fields:
            k += 1
            field = f"{NIGHT_FIELD} {escaped(n['name'])} ({k})"
        night_fields.append(field)
    w = _Writer(buf, SEASON_CSV_FIELDS + ["nights", "per_night", "money"] + night_fields)
    w.writeheader()
    for s, p in zip(result["standings"], result["players"], strict=True):
        big = p["biggest_hand"]
        score, limit, file, number = (big["score"], big["limit"] or "", big["file"], big["hand"]) if big else ("",) * 4
        w.writerow({"place": s["place"], "name": s["name"], "evenings": s["evenings"], "hands": s["hands"],
                    "won_or_lost": s["won_or_lost"], "per_evening": s["per_evening"], "per_hand": s["per_hand"],
                    "hands_won": p["hands_won"], "won_self_drawn": p["won_self_drawn"],
                    "won_on_discard": p["won_on_discard"], "dealt": p["dealt"], "draws": p["draws"],
                    "penalties_paid": p["penalties_paid"], "penalties_received": p["penalties_received"],
                    "paid_for_all": p["paid_for_all"],
                    "biggest_hand": score, "biggest_hand_limit": limit, "biggest_hand_file": file,
                    "biggest_hand_number": number,
                    "limit_hands": "; ".join(f"{k} {n}" for k, n in p["limit_hands"].items()),
                    "nights": s["nights"], "per_night": s["per_night"], "money": s.get("money", ""),
                    **{f: n["won_or_lost"].get(s["name"], "") for f, n in zip(night_fields, result["nights"],
                                                                             strict=True)}})
    return buf.getvalue()


# -- documents ---------------------------------------------------------------------------------

_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_LOCAL_DOC = re.compile(r"(?<![\w/])(?:\.\./)?(?:docs/)?(notation|rules)\.md\b"
                        r"|(?<![\w/])(?:\.\./)?schemes/README\.md\b")


def _inline(text: str) -> str:
    """A Markdown line's inline marks as a terminal reads them: bold plain, links by their text
    (a document of mjscore's by the command that shows it), table escapes undone."""
    def link(m: re.Match[str]) -> str:
        target = m[2]
        if target.startswith(("http://", "https://")):
            return f"{m[1]} <{target}>"
        return m[1] if _LOCAL_DOC.search(m[1]) else f"{m[1]} ({target})"

    text = _LINK.sub(link, text).replace("**", "").replace("\\|", "|")
    return _LOCAL_DOC.sub(lambda m: f"'mjscore help {m[1] or 'schemes'}'", text)


def markdown_text(md: str, width: int | None = None) -> str:
    """A Markdown document as plain text for a terminal: paragraphs and list items wrapped at
    `width` (80 when none is known) between words, a table's rows as a term and its description,
    code kept as it is, indented."""
    width = width or 80
    out: list[str] = []
    paragraph: list[str] = []
    hang = ""

    def flush() -> None:
        nonlocal hang
        if paragraph:
            first = paragraph[0]
            lead = first[:len(first) - len(first.lstrip())]
            out.extend(_words(_inline(" ".join(p.strip() for p in paragraph)).split(" "), width - len(lead),
                              indent=hang) if not lead else
                       [lead + x for x in _words(_inline(" ".join(p.strip() for p in paragraph)).split(" "),
                                                 width - len(lead), indent=hang)])
            paragraph.clear()
        hang = ""

    lines = md.split("\n")
    code = False
    for raw in lines:
        line = raw.rstrip()
        if line.startswith("```"):
            flush()
            code = not code
            continue
        if code:
            out.append("  " + line)
            continue
        if not line:
            flush()
            out.append("")
            continue
        if line.startswith("#"):
            flush()
            title = _inline(line.lstrip("#").strip())
            out.extend([title, ("=" if line.startswith("# ") else "-") * min(len(title), width)])
            continue
        if line.startswith("|"):
            flush()
            if set(line) <= set("|-: "):
                continue                               # the rule under a table's header
            cells = [_inline(c.strip()) for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            out.extend(_words(cells[0].split(" "), width, indent="  "))
            rest = " — ".join(c for c in cells[1:] if c)
            if rest:
                out.extend("    " + x for x in _words(rest.split(" "), width - 4, indent=""))
            continue
        item = re.match(r"(\s*)([-*]|\d+\.) ", line)
        if item:
            flush()
            hang = " " * len(item[0])
        paragraph.append(line)
    flush()
    text = "\n".join(out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


# -- a night's draw --------------------------------------------------------------------------------

def render_draw(plain: Mapping[str, object], width: int | None = None) -> str:
    """A night's draw (`mjscore night`): each table, its file and its four seats a line each (a
    column of names: any name fits 60 columns), then the seed and how to draw it again."""
    tables = cast("list[dict[str, Any]]", plain["tables"])
    files = cast("list[str]", plain["files"])
    out = []
    for table, file in zip(tables, files, strict=True):
        out.append(_("Table {n} ({file}):").format(n=table["table"], file=file))
        seat_width = max(len(SEAT_WORDS[seat]) for seat in table["seats"])
        out += [f"  {SEAT_WORDS[seat]:<{seat_width}}  {name}" for seat, name in table["seats"].items()]
    players = " ".join(cast("list[str]", plain["players"]))
    out.append("")
    out += _words(_("Seed {seed}, drawn from: {players}").format(seed=plain["seed"], players=players).split(" "),
                  width)
    out += _words(_("The same seed and names draw the same night again: mjscore night NIGHT --seed {seed} --players "
                    "{players}").format(seed=plain["seed"], players=players).split(" "), width)
    return "\n".join(out) + "\n"
