"""Schemes laid out as text tables (or Markdown): the rows come from the library
(`mjscore.api.describe_scheme`, `diff_schemes`, `payoff_tables`); this module only draws them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mjscore.api import scheme_words

if TYPE_CHECKING:
    from mjscore.model.answers import PayoffTablePlain, RuleRowPlain, SchemeViewPlain

def show(view: SchemeViewPlain, fmt: str = "table", width: int | None = None) -> str:
    """A scheme laid out for people: its values in tables, each with what a house file writes to
    change it (a rule by its id), no wider than `width` (a terminal's) where given."""
    from mjscore.cli.render import _inline, _words, fit

    w = scheme_words()
    grid = "github" if fmt == "markdown" else "simple"
    house = view["house"]
    out = [*_words(f"{view['name']}: {view['title']}".split(" "), width), ""]
    out += [*_words(_inline(view["description"]).split(" "), width, indent=""), ""]
    params = [list(row) for row in view["parameters"]]          # [what, value, what a house file writes]
    out.append(fit(params, [w["parameter"], w["value"], w["house_writes"]], grid, width, wrap=(0, 1, 2)))
    out.append("")
    out.append(fit(view["sets"], [w["set"], w["exposed"], w["concealed"]], grid, width, wrap=(0,)))
    if house.get("sets"):
        out += _words(_tokens(w["sets_how"], example=house["sets"][0]), width, indent="  ")
    out.append("")
    pairs = view["pairs"] or [[w["no_pairs"], ""]]
    out.append(fit(pairs, [w["pair"], w["points"]], grid, width, wrap=(0,)))
    if view["pairs"]:
        out += _words(_tokens(w["pairs_how"], example=house["pairs"][0])
                      if house.get("pairs") else [], width, indent="  ")
    for scope, rules in view["rules"].items():
        if not rules:
            continue
        out.append("")
        out.append(w[f"scope_{scope}"])
        rows = [[r["id"], _worth(r), r["text"] + ("" if r["when"] == "always" else f": {r['when']}")] for r in rules]
        heads = [w["id"], w["value"], w["rule_when"]]
        table = fit(rows, heads, grid, width, wrap=(2,))
        if width is not None and max(map(len, table.split("\n"))) > width:
            # Ids too long to stand beside the text at this width: each rule on lines of its own,
            # its id and value, then what it is for, indented.
            table = "\n".join(line for rid, worth, text in [heads, *rows]
                              for line in [f"{rid}  {worth}",
                                           *("    " + x for x in _words(text.split(" "), width - 4, indent=""))])
        out.append(table)
    example = next((r for rules in view["rules"].values() for r in rules), None)
    if example is not None:
        out.append("")
        out += _words(_tokens(w["rules_how"], example=example["house"]), width, indent="  ")
    out.append("")
    out.append(w["sources"])
    for src in view["sources"]:
        out += _words(["  -", *src.split(" ")], width, indent="    ")
    return "\n".join(out) + "\n"


def _tokens(sentence: str, **places: object) -> list[str]:
    """A sentence's words, each place filled in its own word (an example with spaces in it is
    never broken across lines)."""
    return [word.format(**places) for word in sentence.split(" ")]


def _worth(rule: RuleRowPlain) -> str:
    """A rule's value as a house file writes it (`points: 20`), from its item (`{id: x, points: 20}`)."""
    item = str(rule.get("house", ""))
    return item.split(", ", 1)[1].rstrip("}") if ", " in item else str(rule["value"])


def render_diff(a: str, b: str, rows: list[list[str]], fmt: str = "table", width: int | None = None) -> str:
    """What differs between two schemes, a row an item, no wider than `width` (120 in a file or
    a pipe, where no terminal says), words wrapped whole."""
    from mjscore.cli.render import _words, fit

    if not rows:
        return scheme_words()["alike"].format(a=a, b=b) + "\n"
    grid = "github" if fmt == "markdown" else "simple"
    head = _words(scheme_words()["differences"].format(n=len(rows), a=a, b=b).split(" "), width)
    return "\n".join(head) + "\n" + fit(rows, [scheme_words()["item"], a, b], grid, width or 120, wrap=(0, 1, 2)) + "\n"


def payoff_tables(tables: list[PayoffTablePlain], fmt: str = "table", width: int | None = None) -> str:
    """Each payoff scheme: what each loser pays the winner, in every situation."""
    from tabulate import tabulate

    from mjscore.cli.render import _words

    w = scheme_words()
    grid = "github" if fmt == "markdown" else "simple"
    out: list[str] = []
    for t in tables:
        default = w["default"] if t["default"] else ""
        east = w[f"east_{t['east_double'].replace('-', '_')}"]
        text = t["text"]
        # A house file's own text may already say what becomes of East: said once, not twice.
        said = text if "east" in text.lower() and "doubl" in text.lower() else f"{text}; {east}"
        out += _words(f"{t['name']}{default}: {said}".split(" "), width)
        out.append(tabulate(t["rows"], headers=[w["situation"], *t["roles"]], tablefmt=grid))
        out.append("")
    return "\n".join(out)
