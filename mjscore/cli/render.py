"""Rendering: results in their plain form (`to_dict()`) as text tables, Markdown, CSV or JSON.

Knows nothing about scoring: it only lays out figures it is given.
"""

from __future__ import annotations

import csv
import io
import json

from mjscore.model.errors import escaped

SEATS = ("E", "S", "W", "N")
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def to_json(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False)


def _fmt_item(item: dict) -> list:
    if "limit" in item:
        value = f"{_fraction(item['limit'])} limit"
        return [item["text"], item.get("applies_to", ""), "", "", value]
    return [item["text"], item.get("applies_to", ""), item.get("points", "") if "points" in item else "",
            item.get("doubles", "") if "doubles" in item else "", ""]


def _fraction(f: float) -> str:
    return {1.0: "full", 0.5: "half"}.get(f, f"{f:g} x")


def _who(p: dict) -> str:
    name = f" ({p['name']})" if p.get("name") else ""
    return f"{SEAT_NAMES[p['seat']]}{name}"


def _total_line(p: dict) -> str:
    if p.get("counted"):
        return f"score {p['score']} (counted at the table)"
    if p["limit"]:
        return f"{p['limit']}: limit hand, {p['score']}"
    d = p["doubles"]
    return f"{p['points']} points x 2^{d} = {p['score']}" if d else f"{p['points']} points = {p['score']}"


def render_text(result: dict, fmt: str = "table") -> str:
    """The human forms: `table` (plain text grids) or `markdown`."""
    from tabulate import tabulate

    grid = "simple" if fmt == "table" else "github"
    out: list[str] = []
    head = [f"Scheme: {result['scheme']}", f"Round: {result['round']}"]
    if result.get("draw"):
        head.append("Draw: the wall ran out")
    elif result.get("winner"):
        win = result.get("win") or {}
        how = "self-drawn" if not win.get("from") else f"on {win['from']}'s discard"
        tile = f"{win['tile']} " if win.get("tile") else ""
        flags = f" ({', '.join(win['flags'])})" if win.get("flags") else ""
        head.append(f"Winner: {result['winner']}, {tile}{how}{flags}")
    out.append("   ".join(head))
    for p in result["players"]:
        out.append("")
        title = f"{_who(p)}{' - winner' if p['winner'] else ''}: {' '.join(p['arrangement'])}".rstrip(": ")
        out.append(f"## {title}" if fmt == "markdown" else title)
        rows = [_fmt_item(i) for i in p["items"]]
        if rows:
            out.append(tabulate(rows, headers=["item", "for", "points", "doubles", "limit"], tablefmt=grid))
        for i in p.get("not_counted", []):
            out.append(f"  (not counted: {i['text']}{' ' + i['applies_to'] if i.get('applies_to') else ''})")
        out.append(f"Total: {_total_line(p)}")
        ru = p.get("runner_up")
        if ru:
            out.append(f"Runner-up arrangement: {' '.join(ru['arrangement'])} = {ru['score']}")
            for i in ru.get("missing", []):
                out.append(f"  lacks {i['text']}{' ' + i['applies_to'] if i.get('applies_to') else ''}")
            for i in ru.get("extra", []):
                out.append(f"  has {i['text']}{' ' + i['applies_to'] if i.get('applies_to') else ''}")
    out.append("")
    summary = [[_who(p), "yes" if p["winner"] else "", p["points"], p["doubles"], p["limit"] or "", p["score"]]
               for p in result["players"]]
    out.append(tabulate(summary, headers=["player", "won", "points", "doubles", "limit", "score"], tablefmt=grid))
    out.append("")
    out.extend(_settlement_text(result, grid))
    return "\n".join(out).rstrip() + "\n"


def _settlement_text(result: dict, grid: str) -> list[str]:
    from tabulate import tabulate

    s = result.get("settlement")
    if s is None:
        return [f"No payments: {result.get('settlement_error', 'not computed')}"]
    seats = [p["seat"] for p in result["players"]]
    names = {p["seat"]: _who(p) for p in result["players"]}
    out = [f"Payments ({s['paying']}, {s.get('payoff') or 'no payoff'}, "
           f"East double {'on' if s.get('east_double') else 'off'}): rows pay, columns receive"]
    amount = {(x["from"], x["to"]): x["amount"] for x in s.get("payments", [])}
    rows = []
    for a in seats:
        row = [names[a]] + [amount.get((a, b), "") if a != b else "." for b in seats]
        row.append(sum(amount.get((a, b), 0) for b in seats))
        rows.append(row)
    rows.append(["net"] + [f"{s['net'].get(b, 0):+d}" for b in seats] + [""])
    out.append(tabulate(rows, headers=["pays \\ receives"] + seats + ["pays in all"], tablefmt=grid))
    for pen in s.get("penalties", []):
        out.append(f"Penalty: {pen['from']} pays {pen['amount']} to {pen['to']}")
    return out


CSV_FIELDS = ["table", "file", "line", "seat", "name", "winner", "points", "doubles", "limit", "score",
              "arrangement", "net", "error"]


def csv_rows(result: dict, table_no: int, file: str = "", line: int = 0) -> list[dict]:
    net = (result.get("settlement") or {}).get("net", {})
    return [{"table": table_no, "file": file, "line": line, "seat": p["seat"], "name": p.get("name", ""),
             "winner": "yes" if p["winner"] else "", "points": p["points"], "doubles": p["doubles"],
             "limit": p["limit"] or "", "score": p["score"], "arrangement": " ".join(p["arrangement"]),
             "net": net.get(p["seat"], ""), "error": ""} for p in result["players"]]


def csv_cell(value):
    """A value as a spreadsheet may safely read it: text that a spreadsheet would run as a
    formula (starting with = + - @, a tab or a carriage return) gets a leading `'`, and control
    characters are escaped.  Numbers are left as they are."""
    if not isinstance(value, str):
        return value
    if value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        value = "'" + value
    return escaped(value)


def _writer(buf, fields):
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    row = w.writerow
    w.writerow = lambda r: row({k: csv_cell(v) for k, v in r.items()})
    return w


def render_csv(rows: list[dict], header: bool = True) -> str:
    buf = io.StringIO()
    w = _writer(buf, CSV_FIELDS)
    if header:
        w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def terminal_safe(text: str) -> str:
    """Text for a terminal: every line's control and invisible characters escaped (a name or a
    scheme title could hold escape sequences), line breaks kept."""
    if text.isprintable():
        return text
    return "\n".join(escaped(line) for line in text.split("\n"))


def batch_line(row: dict | None, fmt: str, header: bool = False) -> str:
    """One table of a batch (a result or an error row, see `BatchItem.to_dict`) as a JSON line
    or CSV rows; with `header`, the CSV header line."""
    if fmt == "csv":
        if header:
            return render_csv([], header=True)
        if "error" in row:
            return render_csv([{k: row[k] for k in ("table", "file", "line", "error")}], header=False)
        return render_csv(csv_rows(row, row["table"], row["file"], row["line"]), header=False)
    return json.dumps(row, ensure_ascii=False) + "\n"


# -- sessions ----------------------------------------------------------------------------------

def _result_text(hand: dict) -> str:
    if hand.get("draw"):
        return "draw"
    w = hand.get("winner")
    if not w:
        return "no winner"
    name = hand["names"][w]
    win = hand.get("win") or {}
    how = "self-drawn" if not win.get("from") else f"on {hand['names'][win['from']]}'s discard"
    return f"{name} ({w}) wins {how}"


def render_session(result: dict, fmt: str = "table") -> str:
    from tabulate import tabulate

    grid = "github" if fmt == "markdown" else "simple"
    names = result["players"]
    rows = []
    for hand in result["hands"]:
        seat_of = {v: k for k, v in hand["names"].items()}
        by_seat = {p["seat"]: p for p in hand["players"]}
        net = (hand.get("settlement") or {}).get("net", {})
        row = [hand["hand"], hand["round"], hand["dealer"], _result_text(hand)]
        for n in names:
            seat = seat_of[n]
            p = by_seat.get(seat)
            score = p["score"] if p else "-"
            row.append(f"{seat} {score} {net.get(seat, 0):+d} = {hand['totals'][n]}")
        rows.append(row)
    out = [f"Session: {', '.join(names)}; each starts with {result['start']}", ""]
    out.append(tabulate(rows, headers=["#", "round", "East", "result"] + [f"{n}: seat score net = total" for n in names],
                        tablefmt=grid))
    out.append("")
    out.append("Final standings")
    out.append(tabulate([[i + 1, s["name"], s["total"], f"{s['total'] - result['start']:+d}"]
                         for i, s in enumerate(result["standings"])],
                        headers=["place", "player", "total", "won or lost"], tablefmt=grid))
    out.append("")
    if result.get("settle_up") is None:
        out.append(f"Settle-up: {result.get('settle_up_note', 'none')}")
    elif not result["settle_up"]:
        out.append("Settle-up: nobody owes anything.")
    else:
        out.append(f"Settle-up ({len(result['settle_up'])} transfers):")
        out.extend(f"  {t['from']} pays {t['to']} {t['amount']}" for t in result["settle_up"])
    return "\n".join(out) + "\n"


SESSION_CSV_FIELDS = ["hand", "round", "dealer", "seat", "name", "winner", "score", "net", "total"]


def session_csv(result: dict) -> str:
    buf = io.StringIO()
    w = _writer(buf, SESSION_CSV_FIELDS)
    w.writeheader()
    for hand in result["hands"]:
        net = (hand.get("settlement") or {}).get("net", {})
        by_seat = {p["seat"]: p for p in hand["players"]}
        for seat, name in hand["names"].items():
            p = by_seat.get(seat)
            w.writerow({"hand": hand["hand"], "round": hand["round"], "dealer": hand["dealer"], "seat": seat,
                        "name": name, "winner": "yes" if hand.get("winner") == seat else "",
                        "score": p["score"] if p else "", "net": net.get(seat, 0), "total": hand["totals"][name]})
    return buf.getvalue()


def session_chart(result: dict, color: bool = False) -> str:
    """The running totals as a terminal line chart (plotext, imported only when asked for)."""
    import plotext as plt

    plt.clear_figure()
    xs = list(range(0, len(result["hands"]) + 1))
    for name in result["players"]:
        ys = [result["start"]] + [h["totals"][name] for h in result["hands"]]
        plt.plot(xs, ys, label=name)
    plt.plotsize(78, 20)
    plt.title("Running totals")
    plt.xlabel("hand")
    if not color:
        plt.clear_color()
    return plt.build() + "\n"
