"""Schemes laid out as text tables (or Markdown): the rows come from the library
(`mjscore.api.describe_scheme`, `diff_schemes`, `payoff_tables`); this module only draws them."""

from __future__ import annotations

from typing import Any

SCOPE_TITLES = {"every": "Every hand", "winner": "The winner only", "loser": "Losers only"}


def show(view: dict[str, Any], fmt: str = "table") -> str:
    from tabulate import tabulate

    grid = "github" if fmt == "markdown" else "simple"
    out = [f"{view['name']}: {view['title']}", "", view["description"], ""]
    out.append(tabulate(view["parameters"], headers=["parameter", "value"], tablefmt=grid))
    out.append("")
    out.append(tabulate(view["sets"], headers=["set", "exposed", "concealed"], tablefmt=grid))
    out.append("")
    pairs = view["pairs"] or [["(no pair scores)", ""]]
    out.append(tabulate(pairs, headers=["pair", "points"], tablefmt=grid))
    for scope, rules in view["rules"].items():
        if not rules:
            continue
        out.append("")
        out.append(SCOPE_TITLES[scope])
        out.append(tabulate([[r["text"], r["value"], r["when"]] for r in rules],
                            headers=["rule", "value", "when"], tablefmt=grid))
    out.append("")
    out.append("Sources:")
    out.extend(f"  - {src}" for src in view["sources"])
    return "\n".join(out) + "\n"


def render_diff(a: str, b: str, rows: list[list[str]], fmt: str = "table") -> str:
    from tabulate import tabulate

    if not rows:
        return f"{a} and {b} give every value alike.\n"
    grid = "github" if fmt == "markdown" else "simple"
    return (f"{len(rows)} differences between {a} and {b} (- = not in that scheme):\n"
            + tabulate(rows, headers=["item", a, b], tablefmt=grid, maxcolwidths=[30, 45, 45]) + "\n")


def payoff_tables(tables: list[dict[str, Any]], fmt: str = "table") -> str:
    """Each payoff scheme: what each loser pays the winner, in every situation."""
    from tabulate import tabulate

    grid = "github" if fmt == "markdown" else "simple"
    out = []
    for t in tables:
        default = " (the scheme's default)" if t["default"] else ""
        east = {"switch": "East pays and receives double when --east-double is on",
                "built-in": "East's double is in the figures", "none": "East is never doubled"}[t["east_double"]]
        out.append(f"{t['name']}{default}: {t['text']}; {east}")
        out.append(tabulate(t["rows"], headers=["situation", *t["roles"]], tablefmt=grid))
        out.append("")
    return "\n".join(out)
