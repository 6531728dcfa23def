"""mjscore's catalogues, made with Babel (the development extras: `pip install -e '.[test]'`).

    python tools/catalogues.py extract   # every sentence (package, schemes) -> mjscore/locale/mjscore.pot
    python tools/catalogues.py update    # the template's messages into each language's .po (new ones empty)
    python tools/catalogues.py compile   # each .po -> its .mo, which the wheel ships and gettext reads
    python tools/catalogues.py check     # every message translated, with the same places, nothing fuzzy
    python tools/catalogues.py all       # extract, update, check, compile

`update` and `compile` are Babel's own (`pybabel update -i mjscore/locale/mjscore.pot -d mjscore/locale
-D mjscore`, `pybabel compile -d mjscore/locale -D mjscore` do the same); `extract` adds to
`pybabel extract` the words a scheme file shows (its title, description, rule and payoff names),
which are data, not Python.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import extract as extract_from, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "mjscore" / "locale"
TEMPLATE = LOCALE / "mjscore.pot"
LANGUAGES = ("de", "nl", "fr")
# Each language's plural forms as GNU gettext gives them: two each.  Babel's (CLDR's) French has a
# third, for exact millions ("1 000 000 de points"), which no sentence of mjscore counts.
PLURAL_FORMS = {"de": (2, "(n != 1)"), "nl": (2, "(n != 1)"), "fr": (2, "(n > 1)")}


def plural_forms(cat: Catalog, lang: str) -> Catalog:
    cat._num_plurals, cat._plural_expr = PLURAL_FORMS[lang]
    return cat
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}
# A place to fill: {name} or {name:format}; {{ and }} are braces written out.
PLACE = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}(?!\})")


def scheme_words(fileobj: Any, keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for a scheme file: what `schemes show`, a breakdown and the page show of it."""
    text = fileobj.read().decode("utf-8")
    data = yaml.safe_load(text) or {}
    lines = text.splitlines()

    def line_of(value: str) -> int:
        head = value.split()[0] if value.split() else value
        return next((n for n, line in enumerate(lines, 1) if head in line), 0)

    for key in ("title", "description"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            yield line_of(value), "_", value.strip(), [f"the scheme's {key}"]
    for rule in data.get("rules") or ():
        if isinstance(rule, dict) and isinstance(rule.get("text"), str):
            yield line_of(rule["text"]), "_", rule["text"], [f"a rule's name ({rule.get('id')})"]
    for name, payoff in (data.get("payoffs") or {}).items():
        if isinstance(payoff, dict) and isinstance(payoff.get("text"), str):
            yield line_of(payoff["text"]), "_", payoff["text"], [f"the payoff scheme {name}"]


# Typer's own words that mjscore's command line shows (its help's headings, "Missing command."):
# Typer says them through gettext's global domain, which mjscore.cli.start makes mjscore's, so they
# are translated in mjscore's catalogue.  (Typer 0.28's copy of click writes its words as they
# stand: mjscore.cli.usage says those, in mjscore's own messages.)
LIBRARIES = {"typer": ("core.py",)}
LIBRARY_KEYWORDS = {"_": None, "ngettext": (1, 2)}


def command_helps(path: Path) -> Iterator[tuple[int, str]]:
    """The help of each command of the command line: its function's docstring, as Typer shows it
    (mjscore.cli.commands._said_help says it through the catalogue)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
                for d in node.decorator_list):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.body[0].lineno, doc


def extract() -> Catalog:
    cat = Catalog(project="mjscore", msgid_bugs_address="", copyright_holder="mjscore's authors",
                  charset="utf-8")
    sources = ((ROOT / "mjscore", [("**.py", "python")]),
               (ROOT / "schemes", [("**.yaml", scheme_words)]))
    for folder, method_map in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
                str(folder), method_map, keywords=KEYWORDS, comment_tags=("Translators:",),
                strip_comment_tags=True):
            where = str((folder / filename).relative_to(ROOT))
            cat.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    commands = ROOT / "mjscore" / "cli" / "commands.py"
    for lineno, doc in command_helps(commands):
        cat.add(doc, None, [(str(commands.relative_to(ROOT)), lineno)], auto_comments=["a command's --help"])
    for library, files in LIBRARIES.items():
        folder = Path(importlib.import_module(library).__file__ or "").parent
        for name in files:
            with (folder / name).open("rb") as f:
                for lineno, message, _comments, context in extract_from("python", f, LIBRARY_KEYWORDS):
                    if message and message not in cat:
                        cat.add(message, None, [(f"{library}/{name}", lineno)], context=context)
    return cat


def _write(path: Path, cat: Catalog, **kw: Any) -> None:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=False, **kw)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def places(message: str) -> set[str]:
    return set(PLACE.findall(message))


def problems(cat: Catalog) -> Iterator[str]:
    """What keeps a catalogue from being whole: an empty or fuzzy message, a place lost or added."""
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        where = f"{cat.locale}: {ids[0]!r}"
        if not all(strs):
            yield f"{where}: not translated"
            continue
        if m.fuzzy:
            yield f"{where}: fuzzy"
        want = places(ids[-1]) | places(ids[0])
        for s in strs:
            if places(s) != want and not (len(ids) > 1 and places(s) <= want):
                yield f"{where}: places {sorted(want)} but {sorted(places(s))} in {s!r}"


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "mjscore.po"


def main(argv: list[str]) -> int:
    steps = argv[1:] or ["all"]
    if steps == ["all"]:
        steps = ["extract", "update", "check", "compile"]
    status = 0
    for step in steps:
        if step == "extract":
            cat = extract()
            _write(TEMPLATE, cat, omit_header=False)
            print(f"{TEMPLATE.relative_to(ROOT)}: {len(cat)} messages")
        elif step == "update":
            template = read_po(TEMPLATE.open("rb"))
            for lang in LANGUAGES:
                path = po_path(lang)
                cat = read_po(path.open("rb"), locale=lang) if path.exists() else Catalog(locale=lang)
                cat.update(template, no_fuzzy_matching=True)
                _write(path, plural_forms(cat, lang), ignore_obsolete=True)
                print(f"{path.relative_to(ROOT)}: {len(cat)} messages")
        elif step == "check":
            for lang in LANGUAGES:
                cat = read_po(po_path(lang).open("rb"), locale=lang)
                found = list(problems(cat))
                for p in found[:50]:
                    print(p)
                done = sum(1 for m in cat if m.id and all(m.string if isinstance(m.string, tuple) else (m.string,)))
                print(f"{lang}: {done} of {len(cat)} messages translated, {len(found)} problems")
                status |= bool(found)
        elif step == "compile":
            for lang in LANGUAGES:
                path = po_path(lang)
                cat = read_po(path.open("rb"), locale=lang)
                with path.with_suffix(".mo").open("wb") as out:
                    write_mo(out, cat, use_fuzzy=False)
                print(f"{path.with_suffix('.mo').relative_to(ROOT)}")
        else:
            print(f"unknown step {step!r}: extract, update, compile, check or all", file=sys.stderr)
            return 2
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
