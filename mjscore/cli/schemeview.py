"""Schemes laid out as text tables (or Markdown): the rows come from the library
(`mjscore.api.describe_scheme`, `diff_schemes`, `payoff_tables`); this module only draws them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mjscore.model.answers import PayoffTablePlain, RuleRowPlain, SchemeViewPlain

SCOPE_TITLES = {"every": "Every hand", "winner": "The winner only", "loser": "Losers only"}


def show(view: SchemeViewPlain, fmt: str = "table", width: int | None = None) -> str:
    """A scheme laid out for people: its values in tables, each with what a house file writes to
    change it (a rule by its id), no wider than `width` (a terminal's) where given."""
    from mjscore.cli.render import _inline, _words, fit

    grid = "github" if fmt == "markdown" else "simple"
    house = view["house"]
    out = [*_words(f"{view['name']}: {view['title']}".split(" "), width), ""]
    out += [*_words(_inline(view["description"]).split(" "), width, indent=""), ""]
    params = [list(row) for row in view["parameters"]]          # [what, value, what a house file writes]
    out.append(fit(params, ["parameter", "value", "a house file writes"], grid, width, wrap=(0, 1, 2)))
    out.append("")
    out.append(fit(view["sets"], ["set", "exposed", "concealed"], grid, width, wrap=(0,)))
    if house.get("sets"):
        out += _words(["A", "house", "file", "writes", "sets:", "{KIND:", "{CLASS:", "[EXPOSED,", "CONCEALED]}},",
                       "as", house["sets"][0]], width, indent="  ")
    out.append("")
    pairs = view["pairs"] or [["(no pair scores)", ""]]
    out.append(fit(pairs, ["pair", "points"], grid, width, wrap=(0,)))
    if view["pairs"]:
        out += _words(["A", "house", "file", "writes", "pairs:", "{PAIR:", "POINTS},", "as", house["pairs"][0]]
                      if house.get("pairs") else [], width, indent="  ")
    for scope, rules in view["rules"].items():
        if not rules:
            continue
        out.append("")
        out.append(SCOPE_TITLES[scope])
        rows = [[r["id"], _worth(r), r["text"] + ("" if r["when"] == "always" else f": {r['when']}")] for r in rules]
        table = fit(rows, ["id", "value", "rule, and when it counts"], grid, width, wrap=(2,))
        if width is not None and max(map(len, table.split("\n"))) > width:
            # Ids too long to stand beside the text at this width: each rule on lines of its own,
            # its id and value, then what it is for, indented.
            table = "\n".join(line for rid, worth, text in [["id", "value", "rule, and when it counts"], *rows]
                              for line in [f"{rid}  {worth}",
                                           *("    " + x for x in _words(text.split(" "), width - 4, indent=""))])
        out.append(table)
    example = next((r for rules in view["rules"].values() for r in rules), None)
    if example is not None:
        out.append("")
        out += _words(["A", "house", "file", "changes", "a", "rule", "by", "its", "id", "and", "value:", "rules:",
                       f"[{example['house']}]", "('mjscore", "help", "schemes')."], width, indent="  ")
    out.append("")
    out.append("Sources:")
    for src in view["sources"]:
        out += _words(["  -", *src.split(" ")], width, indent="    ")
    return "\n".join(out) + "\n"


def _worth(rule: RuleRowPlain) -> str:
    """A rule's value as a house file writes it (`points: 20`), from its item (`{id: x, points: 20}`)."""
    item = str(rule.get("house", ""))
    return item.split(", ", 1)[1].rstrip("}") if ", " in item else str(rule["value"])


def render_diff(a: str, b: str, rows: list[list[str]], fmt: str = "table", width: int | None = None) -> str:
    """What differs between two schemes, a row an item, no wider than `width` (120 in a file or
    a pipe, where no terminal says), words wrapped whole."""
    from mjscore.cli.render import _words, fit

    if not rows:
        return f"{a} and {b} give every value alike.\n"
    grid = "github" if fmt == "markdown" else "simple"
    head = _words(f"{len(rows)} differences between {a} and {b} (- = not in that scheme):".split(" "), width)
    return "\n".join(head) + "\n" + fit(rows, ["item", a, b], grid, width or 120, wrap=(0, 1, 2)) + "\n"


def payoff_tables(tables: list[PayoffTablePlain], fmt: str = "table", width: int | None = None) -> str:
    """Each payoff scheme: what each loser pays the winner, in every situation."""
    from tabulate import tabulate

    from mjscore.cli.render import _words

    grid = "github" if fmt == "markdown" else "simple"
    out: list[str] = []
    for t in tables:
        default = " (the scheme's default)" if t["default"] else ""
        east = {"switch": "East pays and receives double when --east-double is on",
                "built-in": "East's double is in the figures", "none": "East is never doubled"}[t["east_double"]]
        text = t["text"]
        # A house file's own text may already say what becomes of East: said once, not twice.
        said = text if "east" in text.lower() and "doubl" in text.lower() else f"{text}; {east}"
        out += _words(f"{t['name']}{default}: {said}".split(" "), width)
        out.append(tabulate(t["rows"], headers=["situation", *t["roles"]], tablefmt=grid))
        out.append("")
    return "\n".join(out)
