"""Input: a file, standard input or an inline text, in compact notation or YAML -> tables.

This is the only module that touches files.  It decides the form (by the file's ending, or by
looking at the text when it has none), decodes it safely and hands the text to the parser of
that form.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mjscore.errors import InputError, Location
from mjscore.table import Table

MAX_INPUT_BYTES = 64 * 1024 * 1024
_YAML_START = re.compile(r"^(players|hands|round|scheme|draw|dealer[-_]wins)\s*:(\s|$)|^- |^%YAML", re.M)


def decode(data: bytes, file: str) -> str:
    if b"\x00" in data:
        raise InputError("this is not a text file (it holds NUL bytes)", Location(file))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise InputError(f"not UTF-8 text: byte 0x{data[e.start]:02x} cannot be read",
                         Location(file, line, col)) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: str) -> tuple[str, str]:
    """(text, display name) of a file path, or of standard input for `-`."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        name = "<stdin>"
    else:
        p = Path(path)
        name = path
        try:
            if p.is_dir():
                raise InputError("is a folder, not a file", Location(name))
            size = p.stat().st_size
            if size > MAX_INPUT_BYTES:
                raise InputError(f"file is {size:,} bytes; at most {MAX_INPUT_BYTES:,} are read", Location(name))
            data = p.read_bytes()
        except FileNotFoundError:
            raise InputError("no such file", Location(name)) from None
        except PermissionError:
            raise InputError("permission denied", Location(name)) from None
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or e}", Location(name)) from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"input is larger than {MAX_INPUT_BYTES:,} bytes", Location(name))
    return decode(data, name), name


def looks_like_yaml(text: str, name: str) -> bool:
    lower = name.lower()
    if lower.endswith((".yaml", ".yml")):
        return True
    if lower.endswith(".mj"):
        return False
    return bool(_YAML_START.search(text))


def parse_any(text: str, name: str = "<input>", *, yaml_form: bool | None = None) -> list[Table]:
    """Every table of a text, in whichever form it is written."""
    if yaml_form is None:
        yaml_form = looks_like_yaml(text, name)
    if yaml_form:
        from mjscore.yamlform import parse_yaml_tables

        return parse_yaml_tables(text, name)
    from mjscore.notation import parse_tables

    return parse_tables(text, name)


def read_tables(path: str) -> list[Table]:
    text, name = read_text(path)
    return parse_any(text, name)


def iter_tables(text: str, name: str):
    """Each table of a text with the line it starts on: (line, Table) or (line, MjError).

    A bad table does not stop the others: batch reports it as an error row and goes on.
    """
    from mjscore.errors import MjError

    if looks_like_yaml(text, name):
        from mjscore.yamlform import iter_yaml_tables

        yield from iter_yaml_tables(text, name)
        return
    from mjscore.notation import parse_table, split_tables

    for first, chunk in split_tables(text, name):
        if not chunk.strip() or all(not ln.split("#", 1)[0].strip() for ln in chunk.splitlines()):
            continue
        try:
            yield first, parse_table(chunk, name, first)
        except MjError as e:
            yield first, e
