"""One reading path (issue 40, item 3): a table is read through `mjscore.io.reader` (`tables_of`,
or `parse_any` for a text whose every table is required), whatever it comes from, and the same
text gives the same tables from a file, from standard input and given whole."""

import ast
import io
import sys
from pathlib import Path

import pytest

from mjscore.io.notation import MAX_TABLE_CHARS
from mjscore.io.reader import Given, Lines, SessionText, TableText, parse_any, tables_of
from mjscore.io.text import MAX_LINE
from mjscore.model.errors import InputError, MjError

ROOT = Path(__file__).resolve().parent.parent

# What reads a table, or the bytes and lines one is read from, below the reader (None: every
# name of the module).  Outside mjscore/io these come through mjscore.io.reader only.
BELOW_THE_READER = {
    "mjscore.io.text": None,
    "mjscore.io.yamlform": None,
    "mjscore.io.yamlsafe": {"load_nodes"},
    "mjscore.io.notation": {"parse_table", "parse_tables", "split_tables", "tables_in", "logical_lines", "tokens_of",
                            "parse_player_tokens", "TableText", "holds_anything"},
}

# Those that read something else, each with why (a comment says it beside the import too).
READ_OTHERWISE = {
    # YAML data files, not tables: their bytes are their fingerprint, then one document
    ("mjscore/rules/scheme.py", "mjscore.io.text"): {"decode", "read_bytes"},
    ("mjscore/rules/payoffs.py", "mjscore.io.text"): {"decode", "read_bytes"},
    # the evening file's bytes, read under its lock and written back like them
    ("mjscore/evening/journal.py", "mjscore.io.text"): {"MAX_INPUT_BYTES", "read_bytes"},
    # one player's line, or one hand, typed at the table and read with the evening's names: no source is read
    ("mjscore/evening/entry.py", "mjscore.io.notation"): {"parse_table"},
    ("mjscore/evening/session.py", "mjscore.io.notation"): {"parse_table"},
}


def _imports(path: Path) -> list[tuple[int, str, str]]:
    """(line, module, name) for each name the file imports from a module of ours, anywhere in it
    (the API imports inside its functions); a module imported whole is named by itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mjscore"):
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.append((node.lineno, whole, "*") if whole in BELOW_THE_READER
                             else (node.lineno, node.module or "", alias.name))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, "*") for alias in node.names if alias.name.startswith("mjscore"))
    return found


def test_nothing_outside_io_reads_a_table_but_through_the_reader():
    bypasses = []
    for path in sorted((ROOT / "mjscore").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith("mjscore/io/"):
            continue
        for line, module, name in _imports(path):
            if module not in BELOW_THE_READER:
                continue
            names = BELOW_THE_READER[module]
            if (names is None or name == "*" or name in names) and name not in READ_OTHERWISE.get((where, module), ()):
                bypasses.append(f"{where}:{line}: {name} from {module}")
    assert bypasses == []


def test_the_scan_sees_each_way_of_importing(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import mjscore.io.text\nfrom mjscore.io import yamlform\n\n\ndef f():\n"
                      "    from mjscore.io.notation import print_table, split_tables\n")
    assert _imports(module) == [(1, "mjscore.io.text", "*"), (2, "mjscore.io.yamlform", "*"),
                                (6, "mjscore.io.notation", "print_table"), (6, "mjscore.io.notation", "split_tables")]


def test_every_exception_is_still_needed():
    """An exception no module takes any more goes from the list (it would let a bypass back in)."""
    unused = []
    for (where, module), names in READ_OTHERWISE.items():
        taken = {name for _, m, name in _imports(ROOT / where) if m == module}
        unused += [f"{where}: {name} from {module}" for name in sorted(names - taken)]
    assert unused == []


# -- the same tables, however the text comes ------------------------------------------------------

HAND = "E: [111p] 234m 567s 99s EEE win 9s self\nS: 123m ...\n"
TEXTS = {
    "tables": f"# an evening's tables\n{HAND}---\n\n# the next\nround S\nE: score 10 win self\n---\nE: 1x\n---\n"
              "E: score 8 win self; S: ...\n---\n# comments alone\n---\n;\n---\n",
    "crlf": f"{HAND}---\nE: score 10 win self\n".replace("\n", "\r\n"),
    "lone cr": f"{HAND}---\nE: score 10 win self\n".replace("\n", "\r"),
    "byte-order mark": "\ufeff" + HAND,
    "no table": "# nothing here\n\n",
    "nothing": "",
    "a long line": f"{HAND}---\nE: {'1m ' * MAX_LINE}\n---\nE: score 10 win self\n",
    "a long table": "E: score 10 win self\n" + "# a comment line of the table\n" * (MAX_TABLE_CHARS // 30 + 1)
                    + "---\nE: score 4 win self\n",
    "yaml": "players:\n  E: '[111p] 234m 567s 99s EEE win 9s self'\n  S: {tiles: 123m, incomplete: true}\n",
    "yaml list": "- players: {E: 'score 10 win self'}\n- players: {E: '1x'}\n- round: Q\n  players: {E: '...'}\n",
    "yaml that is none": "players: [\n",
    "session": "players Ann Bob Cid Dee\n---\nE: score 40 win self\nS: score 8\nW: ...\nN: ...\n",
    "yaml session": "players: [Ann, Bob, Cid, Dee]\nhands:\n  - players: {Ann: 'score 40 win self'}\n",
}


def _plain(rows):
    """Rows to compare: errors by their class and message (which names the file, line and column)."""
    return [(line, (type(item), str(item)) if isinstance(item, MjError) else item) for _, line, item in rows]


def _from_stdin(monkeypatch, data: bytes, **how):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    return _plain(tables_of("-", **how))


SESSIONS = {"session", "yaml session"}


@pytest.mark.parametrize("sessions", [False, True])
@pytest.mark.parametrize("name", TEXTS)
def test_a_file_standard_input_and_a_text_given_whole_give_the_same_tables(name, sessions, tmp_path, monkeypatch):
    text = TEXTS[name]
    path = tmp_path / "tables"                      # no ending: the text tells the form, as on standard input
    path.write_bytes(text.encode())
    from_file = _plain(tables_of(str(path), sessions=sessions))
    assert from_file == _plain(tables_of(Given(text, str(path)), sessions=sessions))
    assert from_file == _plain(tables_of(path, sessions=sessions))          # a path object names the file too
    from_stdin = _from_stdin(monkeypatch, text.encode(), sessions=sessions)
    assert from_stdin == _plain(tables_of(Given(text, "<stdin>"), sessions=sessions))
    assert [line for line, _ in from_stdin] == [line for line, _ in from_file]
    assert [type(item) for _, item in from_file if isinstance(item, SessionText)] == (
        [SessionText] if sessions and name in SESSIONS else [])


@pytest.mark.parametrize("name", ["tables", "crlf", "lone cr", "a long line", "a long table", "no table"])
def test_lines_given_one_at_a_time_give_the_same_tables(name):
    text = TEXTS[name]
    assert _plain(tables_of(Lines(text.splitlines(keepends=True), "t"))) == _plain(tables_of(Given(text, "t")))


@pytest.mark.parametrize("name", ["tables", "crlf", "yaml list"])
def test_a_table_left_for_a_worker_is_the_table_read_at_once(name, tmp_path):
    path = tmp_path / "tables"
    path.write_text(TEXTS[name], newline="")
    later = []
    for _, line, item in tables_of(str(path), parse=False):
        if isinstance(item, TableText):
            try:                                   # as a worker parses it (evening.batch)
                item = item.parse()
                line = item.where.line
            except MjError as e:
                item = e
        later.append(("", line, item))
    assert _plain(later) == _plain(tables_of(str(path)))


def test_a_text_given_whole_is_refused_whole_where_a_file_gives_the_line(tmp_path):
    """A NUL in a file is its line's error row; in a text given whole (`-e`), the text's error."""
    data = f"{HAND}---\nE: 1m\x00 win self\n".encode()
    path = tmp_path / "t.mj"
    path.write_bytes(data)
    [*_, (_, line, error)] = tables_of(str(path))
    assert line == 4 and isinstance(error, InputError)
    with pytest.raises(InputError) as raised:
        list(tables_of(Given(data.decode(), str(path))))
    assert str(raised.value) == str(error)
    with pytest.raises(InputError) as strictly:
        parse_any(data.decode(), str(path))
    assert str(strictly.value) == str(error)


@pytest.mark.parametrize("name", ["tables", "crlf", "a long line", "yaml list", "session"])
def test_reading_every_table_raises_the_first_error_the_rows_give(name):
    text = TEXTS[name].replace("# comments alone\n---\n;\n---\n", "")    # errors where every table is required
    rows = _plain(tables_of(Given(text, "t")))
    errors = [item for _, item in rows if isinstance(item, tuple)]
    if errors:
        with pytest.raises(MjError) as raised:
            parse_any(text, "t")
        assert (type(raised.value), str(raised.value)) == errors[0]
    else:
        assert parse_any(text, "t") == [item for _, item in rows]
