"""An evening's or a season's record as one HTML document to print (`session`/`season --format html`).

Built from the plain forms `--format json` prints, as the other shells are.  The document asks for
nothing beyond itself (its Content-Security-Policy says so: the style inline, the chart inline SVG,
no script, no font, no image fetched), reads on a phone (each wide table scrolls in its own box)
and prints on A4 (each section on pages of its own, no row cut, a table's head on every page).
The chart tells its players apart without colour: each her own colour, dash, marker and a label
at her line's end.
"""

from __future__ import annotations

import html
import itertools
from importlib import resources
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from mjscore.cli.render import _night_money, _signed_money, _stake_said, _won_or_lost, hand_row
from mjscore.api import headings, money_total_said, season_heading, season_words, settle_up_lines, stakes_differ_said
from mjscore.model.money import with_money
from mjscore.model.say import _, language, number

if TYPE_CHECKING:
    from mjscore.model.answers import HandPlain

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

# Eight players told apart in black and white: colour (Okabe-Ito, distinct for colour-blind eyes
# too), dash and marker each their own.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#000000", "#E69F00", "#56B4E9", "#8C6D00")
DASHES = ("", "8 4", "2 3", "10 3 2 3", "4 4", "12 3 2 3 2 3", "1 5", "6 2 1 2 1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "plus", "down", "star")

# The page's style, a file of its own (package data), put inline into every page.
STYLE = resources.files("mjscore.cli").joinpath("report.css").read_text(encoding="utf-8")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _el(tag: str, *inner: str, **attrs: object) -> str:
    """An element: `inner` is markup already made (escape text with `_e`); each attribute's value
    escaped (`_` in a name is `-`: `text_anchor` is `text-anchor`; None leaves it out)."""
    said = "".join(f' {k.rstrip("_").replace("_", "-")}="{_e(v)}"' for k, v in attrs.items() if v is not None)
    if tag in VOID:
        return f"<{tag}{said}>"
    return f"<{tag}{said}>{''.join(inner)}</{tag}>"


VOID = frozenset({"meta"})                   # HTML's elements without an end tag, of those this page writes


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[int] = (),
           kind: str | None = None) -> str:
    """A table in its own scrolling box: `numeric` columns to the right."""
    def cell(tag: str, i: int, value: object) -> str:
        return _el(tag, _e(value), class_="n" if i in numeric else None)

    head = _el("thead", _el("tr", *(cell("th", i, h) for i, h in enumerate(headers))))
    body = _el("tbody", *(_el("tr", *(cell("td", i, v) for i, v in enumerate(row))) + "\n" for row in rows))
    return _el("div", _el("table", head, "\n", body, class_=kind), class_="scroll") + "\n"


def _h2(text: str) -> str:
    return _el("h2", _e(text)) + "\n"


def _titled(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]], numeric: Sequence[int] = ()) -> str:
    """A heading and its short table, kept together on one printed page."""
    return _el("div", _h2(title), _table(headers, rows, numeric), class_="part") + "\n"


def _p(text: str) -> str:
    return _el("p", _e(text)) + "\n"


def _page(title: str, sections: Sequence[str]) -> str:
    head = "\n".join(["", _el("meta", charset="utf-8"), _el("meta", http_equiv="Content-Security-Policy", content=CSP),
                      _el("meta", name="viewport", content="width=device-width, initial-scale=1"),
                      _el("title", _e(title)), _el("style", STYLE), ""])
    body = "\n".join(["", _el("h1", _e(title)), *(_el("section", "\n", s, class_="page") for s in sections), ""])
    return DOCTYPE + _el("html", "\n", _el("head", head), "\n", _el("body", body), "\n", lang=language()) + "\n"


DOCTYPE = "<!DOCTYPE html>\n"


# -- the chart ---------------------------------------------------------------------------------

def _f(v: float) -> str:
    return f"{v:.1f}"


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    r = 3.6
    line = {"stroke": colour, "stroke_width": "1.4"}
    if shape == "circle":
        return _el("circle", cx=_f(x), cy=_f(y), r=r, fill=colour)
    if shape == "square":
        return _el("rect", x=_f(x - r), y=_f(y - r), width=2 * r, height=2 * r, fill="none", **line)
    if shape == "plus":
        return _el("path", d=f"M{_f(x - r)},{_f(y)}H{_f(x + r)}M{_f(x)},{_f(y - r)}V{_f(y + r)}", **line)
    arms = {"cross": ((-r, -r, r, r), (-r, r, r, -r)),
            "star": ((-r, 0, r, 0), (0, -r, 0, r), (-.7 * r, -.7 * r, .7 * r, .7 * r),
                     (-.7 * r, .7 * r, .7 * r, -.7 * r))}
    if shape in arms:
        d = "".join(f"M{_f(x + a)},{_f(y + b)}L{_f(x + c)},{_f(y + e)}" for a, b, c, e in arms[shape])
        return _el("path", d=d, **line)
    points = {"triangle": ((0, -1.2), (1.1, .8), (-1.1, .8)), "down": ((0, 1.2), (1.1, -.8), (-1.1, -.8)),
              "diamond": ((0, -1.3), (1.1, 0), (0, 1.3), (-1.1, 0))}[shape]
    return _el("polygon", points=" ".join(f"{_f(x + dx * r)},{_f(y + dy * r)}" for dx, dy in points),
               fill="none" if shape == "down" else colour, **line)


def _step(span: float, ticks: int = 6) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about `ticks` ticks."""
    raw = max(span / ticks, 1)
    power: int = 10 ** (len(str(int(raw))) - 1)
    return next(k * power for k in (1, 2, 5, 10) if k * power >= raw)


def chart_svg(series: Mapping[str, Sequence[int]], title: str, xlabel: str) -> str:
    """Lines of whole figures over 0, 1, 2, ... as an inline SVG figure: each player her own
    colour, dash and marker, and her name at her line's end (the names kept a line apart)."""
    names = list(series)
    steps = max(len(v) for v in series.values()) - 1
    lows, highs = min(min(v) for v in series.values()), max(max(v) for v in series.values())
    step = _step(highs - lows or 100)
    bottom, top = (lows // step) * step, -(-highs // step) * step
    if top == bottom:
        top += step
    label_room = 40 + 7.5 * max(len(n) for n in names)
    width, height, left, upper, lower = 720.0, 380.0, 56.0, 16.0, 40.0
    plot_w, plot_h = width - left - label_room, height - upper - lower

    def px(i: float) -> float:
        return left + plot_w * i / max(steps, 1)

    def py(v: float) -> float:
        return upper + plot_h * (top - v) / (top - bottom)

    out = [_el("title", _e(title)),
           _el("rect", x=left, y=upper, width=_f(plot_w), height=_f(plot_h), fill="none", stroke="#888")]
    for t in range(int(bottom), int(top) + 1, step):
        out.append(_el("line", x1=left, y1=_f(py(t)), x2=_f(left + plot_w), y2=_f(py(t)), stroke="#ddd"))
        out.append(_el("text", _e(t), x=left - 6, y=_f(py(t) + 4), text_anchor="end"))
    every = max(1, -(-steps // 10))
    for i in range(0, steps + 1, every):
        out.append(_el("text", _e(i), x=_f(px(i)), y=_f(upper + plot_h + 16), text_anchor="middle"))
    out.append(_el("text", _e(xlabel), x=_f(left + plot_w / 2), y=_f(height - 6), text_anchor="middle"))
    gap = 15.0
    placed: dict[str, float] = {}
    last: float | None = None
    for n in sorted(names, key=lambda n: -series[n][-1]):
        y = py(series[n][-1])
        if last is not None and y - last < gap:
            y = last + gap
        placed[n] = last = y
    overflow = max(placed.values()) - (height - 4)
    if overflow > 0:
        placed = {n: y - overflow for n, y in placed.items()}
    mark_every = max(1, -(-steps // 24))
    for i, (name, colour, dash, shape) in enumerate(zip(names, itertools.cycle(COLOURS), itertools.cycle(DASHES),
                                                         itertools.cycle(MARKERS), strict=False)):
        ys = series[name]
        end_x, end_y, label_y = px(len(ys) - 1), py(ys[-1]), placed[name]
        out.append(_el(
            "g",
            _el("polyline", points=" ".join(f"{_f(px(x))},{_f(py(v))}" for x, v in enumerate(ys)), fill="none",
                stroke=colour, stroke_width=2, stroke_dasharray=dash or None),
            *(_marker(shape, px(x), py(v), colour) for x, v in enumerate(ys)
              if x % mark_every == 0 or x == len(ys) - 1),
            _el("line", x1=_f(end_x + 4), y1=_f(end_y), x2=_f(end_x + 12), y2=_f(label_y), stroke=colour),
            _marker(shape, end_x + 19, label_y, colour),
            _el("text", _e(name), x=_f(end_x + 27), y=_f(label_y + 4), fill=colour),
            class_="player", data_player=i))
    svg = _el("svg", *out, xmlns=SVG, viewBox=f"0 0 {width:.0f} {height:.0f}", role="img")
    return _el("figure", svg, class_="chart") + "\n"


SVG = "http://www.w3.org/2000/svg"       # the SVG namespace: a name, never fetched


# -- an evening --------------------------------------------------------------------------------

def session_html(result: Mapping[str, Any]) -> str:
    """An evening (what `session --format json` prints) as a document: the hands with each
    player's seat, score, net and total; the standings and the settle-up; the running totals drawn."""
    h = headings()
    names = list(result["players"])
    hands = list(result["hands"])
    rows: list[list[object]] = [list(hand_row(cast("HandPlain", hand), names)) for hand in hands]
    intro = " ".join([h["session"].format(players=", ".join(names)), h["starts"].format(start=result["start"])])
    hands_part = (_h2(_("Hands")) + _p(intro)
                  + _table([h["#"], h["round_column"], h["East"], h["result"]]
                           + [h["seat_score"].format(name=n) for n in names], rows,
                           numeric=range(4, 4 + len(names)), kind="hands"))
    stake = result.get("stake")
    currency = stake.get("currency") if stake else None
    standings = [[i + 1, s["name"], s["total"], _won_or_lost(s, result["start"], currency)]
                 for i, s in enumerate(result["standings"])]
    closing = _titled(h["final_standings"], [h["place"], h["player"], h["total_column"], h["won_or_lost_column"]],
                      standings, numeric=(0, 2, 3))
    lines = settle_up_lines(result)
    closing += _h2(lines[0].rstrip(':'))
    if len(lines) > 1:
        closing += _el("ul", *(_el("li", _e(x.strip())) for x in lines[1:]), class_="settle") + "\n"
    note = result.get("settle_up_note")
    if note and result.get("settle_up") is not None:
        closing += _p(f"{note[0].upper()}{note[1:]}.")
    nxt = result.get("next")
    if nxt and not result.get("errors"):
        closing += _p(nxt['text'])
    series = {n: [result["start"]] + [hand["totals"][n] for hand in hands] for n in names}
    sections = [hands_part, closing]
    if hands:
        sections.append(_h2(h['running_totals']) + chart_svg(series, h["running_totals"], h["hand"]))
    title = _("Evening: {players}").format(players=", ".join(names))
    return _page(title, sections)


# -- a season ----------------------------------------------------------------------------------

# The keys of a season's plain form this page lays out itself; any other it shows as it finds it.
SEASON_KEYS = frozenset({"evenings", "hands", "standings", "players", "left_out", "errors", "nights", "stake",
                         "stakes", "unstaked", "money"})


def season_html(result: Mapping[str, Any]) -> str:
    """A season (what `season --format json` prints) as a document: the standings and each
    player's figures; each player's won or lost evening by evening; the season totals drawn; and
    any further part of the plain form (a night-by-night table, money) as it comes."""
    w, h = season_words(), headings()
    evenings, players = list(result["evenings"]), list(result["players"])
    nights = list(result.get("nights") or [])
    # As the terminal's season (render_season): nights said, and averaged over, where a night of
    # several tables makes them other than the evenings.
    by_night = any(len(n["files"]) > 1 for n in nights)
    heading = " ".join(season_heading(len(evenings), result["hands"], len(players), None,
                                      len(nights) if by_night else None))
    first = _p(heading)
    if result.get("left_out"):
        first += _p(_('Left out (see the errors): {files}').format(files=', '.join(result['left_out'])))
    if not players:
        return _page(_("Season"), [first + _p(w['no_hands'])])
    stake = result.get("stake")

    def won(s: Mapping[str, Any]) -> str:
        # With the season's one stake, her money beside her points, as the terminal writes it.
        money = s.get("money")
        return f"{s['won_or_lost']:+d}" if money is None or stake is None else with_money(
            s["won_or_lost"], money, stake["currency"], True)

    first += _titled(w['standings'],
        [w["place"], w["player"], w["won_or_lost"], w["a_night"] if by_night else w["an_evening"], w["a_hand"]],
        [[s["place"], s["name"], won(s), number(f"{s['per_night'] if by_night else s['per_evening']:+.2f}"),
          number(f"{s['per_hand']:+.2f}")] for s in result["standings"]], numeric=(0, 2, 3, 4))
    nights_col = [w["nights"]] if by_night else []
    first += _titled(w['played'],
        [w["player"], *nights_col, w["evenings"], w["hands"], w["dealt"], w["draws"], _("hands won"),
         w["self_drawn"], w["on_a_discard"]],
        [[p["name"], *([p["nights"]] if by_night else []), p["evenings"], p["hands"], p["dealt"], p["draws"],
          p["hands_won"], p["won_self_drawn"], p["won_on_discard"]] for p in players],
        numeric=range(1, 8 + len(nights_col)))
    first += _titled(w['biggest_hands'],
        [w["player"], w["score"], w["limit_hand"], w["evening"], w["hand"]],
        [[p["name"], *_biggest(p["biggest_hand"], w)] for p in players], numeric=(1, 4))
    limits = [(p["name"], p["limit_hands"]) for p in players if p["limit_hands"]]
    if limits:
        first += _titled(w['limit_hands'].rstrip(':'),
            [w["player"], w["limit_hand"], w["hands"]],
            [[name, limit, n] for name, counts in limits for limit, n in counts.items()], numeric=(2,))
    else:
        first += _p(w['no_limit_hands'])
    first += _titled(w['penalties'],
        [w["player"], w["paid"], w["received"], w["paid_for_all"]],
        [[p["name"], p["penalties_paid"], p["penalties_received"], p["paid_for_all"]] for p in players],
        numeric=(1, 2, 3))
    # The evenings' table, and with it any part of the plain form this page does not know by name.
    names = [s["name"] for s in result["standings"]]
    sections = [first, (_by_night(result, nights, names, w) if nights else "")
                + _by_evening(evenings, names, w)
                + "".join(_further(key, value) for key, value in result.items() if key not in SEASON_KEYS)]
    # The chart by nights where there are nights, as `season --chart` draws it.
    steps: Sequence[Mapping[str, Any]] = nights or evenings
    series: dict[str, list[int]] = {p["name"]: [0] for p in players}
    for step in steps:
        for name, line in series.items():
            line.append(line[-1] + step["won_or_lost"].get(name, 0))
    sections.append(_h2(h['season_totals']) + chart_svg(series, h["season_totals"],
                                                        w["a_night"] if nights else h["evening"]))
    return _page(_("Season"), sections)


def _biggest(biggest: Mapping[str, Any] | None, w: Mapping[str, str]) -> list[object]:
    if biggest is None:
        return ["", w["no_hand_won"], "", ""]
    return [biggest["score"], biggest["limit"] or "", biggest["file"], biggest["hand"]]


def _by_night(result: Mapping[str, Any], nights: Sequence[Mapping[str, Any]], names: Sequence[str],
              w: Mapping[str, str]) -> str:
    """Players by nights (each cell her won or lost that night, blank where she did not play, the
    season's total last); with stakes that differ, the money night by night and a total for each
    currency, as the terminal's season gives them."""
    heads = [w["player"], *(n["name"] for n in nights), w["total"]]
    totals = {s["name"]: s["won_or_lost"] for s in result["standings"]}
    rows = [[name, *(f"{n['won_or_lost'][name]:+d}" if name in n["won_or_lost"] else "" for n in nights),
             f"{totals[name]:+d}"] for name in names]
    out = _titled(w["night_by_night"], heads, rows, numeric=range(1, len(nights) + 2))
    if result.get("stakes") and result.get("stake") is None:
        out += _p(stakes_differ_said([_stake_said(x) for x in result["stakes"]], result["unstaked"]))
        one_currency = len({x["currency"] for x in result["stakes"]}) == 1
        rows = [[name, *(_night_money(n["money"], name, one_currency) for n in nights)] for name in names]
        out += _titled(w["money_by_night"], [w["player"], *(n["name"] for n in nights)], rows,
                       numeric=range(1, len(nights) + 1))
        for m in result.get("money") or ():
            out += _p(money_total_said(m["currency"]) + " " + "  ".join(
                f"{name} {_signed_money(m['won_or_lost'][name])}" for name in names if name in m["won_or_lost"]))
    return out


def _by_evening(evenings: Sequence[Mapping[str, Any]], names: Sequence[str], w: Mapping[str, str]) -> str:
    """Players by evenings: each cell her won or lost that evening (blank where she did not play)."""
    heads = [w["player"]] + [str(i + 1) for i in range(len(evenings))] + [w["won_or_lost"]]
    rows = []
    for name in names:
        cells = [f"{e['won_or_lost'][name]:+d}" if name in e["won_or_lost"] else "" for e in evenings]
        rows.append([name, *cells, f"{sum(e['won_or_lost'].get(name, 0) for e in evenings):+d}"])
    files = _el("ol", *(_el("li", _e(_("{file}: {hands}").format(file=e["file"], hands=e["hands"]))) for e in evenings))
    return (_h2(_('Evening by evening'))
            + _table(heads, rows, numeric=range(1, len(evenings) + 2))
            + _p(_("The evenings (file: hands):")) + files + "\n")


def _further(key: str, value: object) -> str:
    """A part of the season's plain form this page does not know by name, shown as it is: a list
    of records as a table (their keys the columns), a mapping as a table of two columns."""
    title = key.replace("_", " ").capitalize()
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        columns = list(dict.fromkeys(k for v in value for k in v))
        rows = [[_flat(v.get(c, "")) for c in columns] for v in value]
        return _titled(title, [c.replace("_", " ") for c in columns], rows)
    if isinstance(value, dict):
        return _titled(title, ["", ""], [[k, _flat(v)] for k, v in value.items()])
    return _h2(title) + _p(_flat(value))


def _flat(value: object) -> str:
    """A value of the plain form in one cell: a mapping as `key value` pairs, a list by commas."""
    if isinstance(value, dict):
        return "; ".join(f"{k} {_flat(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_flat(v) for v in value)
    if isinstance(value, str) and value[:1] in "+-0123456789" and value.lstrip("+-").replace(".", "").isdigit():
        return number(value)
    return "" if value is None else str(value)
