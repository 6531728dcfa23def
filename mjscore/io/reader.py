"""Input: a file, standard input or an inline text, in compact notation or YAML -> tables.

This is the only module that touches files.  It decides the form (by the file's ending, or by
looking at the text when it has none), decodes it safely and hands the text to the parser of
that form.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mjscore.model.errors import InputError, Location
from mjscore.model.table import Table

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
        from mjscore.io.yamlform import parse_yaml_tables

        return parse_yaml_tables(text, name)
    if is_compact_session(text):
        from mjscore.evening.session import read_session

        hands = read_session(text, name).hands
        for h in hands:
            if isinstance(h, Exception):
                raise h
        return list(hands)
    from mjscore.io.notation import parse_tables

    return parse_tables(text, name)


_SESSION_START = re.compile(r"\A(?:[ \t]*(?:#.*)?\n)*[ \t]*players[ \t]")


_YAML_HANDS = re.compile(r"^hands\s*:", re.M)


def is_session(text: str, name: str) -> bool:
    """A session file: a compact header block naming the players, or YAML with `hands:`."""
    if looks_like_yaml(text, name):
        return bool(_YAML_HANDS.search(text))
    return is_compact_session(text)


def is_compact_session(text: str) -> bool:
    """A compact session opens with a header block naming the players (`players A B C D`)."""
    return bool(_SESSION_START.match(text))


def read_tables(path: str) -> list[Table]:
    text, name = read_text(path)
    return parse_any(text, name)


def iter_tables(text: str, name: str):
    """Each table of a text with the line it starts on: (line, Table) or (line, MjError).

    A bad table does not stop the others: batch reports it as an error row and goes on.
    """
    from mjscore.model.errors import MjError

    if looks_like_yaml(text, name):
        from mjscore.io.yamlform import iter_yaml_tables

        yield from iter_yaml_tables(text, name)
        return
    from mjscore.io.notation import parse_table, split_tables

    if is_compact_session(text):
        from mjscore.evening.session import read_session

        try:
            hands = read_session(text, name).hands
        except MjError as e:
            yield e.location.line or 1, e
            return
        for h in hands:
            yield (h.location.line if isinstance(h, MjError) else h.where.line), h
        return
    for first, chunk in split_tables(text, name):
        if not chunk.strip() or all(not ln.split("#", 1)[0].strip() for ln in chunk.splitlines()):
            continue
        try:
            yield first, parse_table(chunk, name, first)
        except MjError as e:
            yield first, e


def stream_tables(path: str):
    """(display name, line, Table | MjError) for each table of a file, read as it goes.

    A compact file is read line by line and each table parsed when its `---` arrives, so memory
    does not grow with the number of tables.  YAML files and sessions are read whole (they are
    bounded in size).  An unreadable file gives one error row.
    """
    from mjscore.model.errors import MjError
    from mjscore.io.notation import MAX_LINE, parse_table

    name = "<stdin>" if path == "-" else path
    try:
        stream = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as e:
        yield name, 0, InputError(f"cannot read: {e.strerror or e}" if not isinstance(e, FileNotFoundError)
                                  else "no such file", Location(name))
        return
    try:
        head = stream.read(65536)
        if b"\x00" in head:
            yield name, 0, InputError("this is not a text file (it holds NUL bytes)", Location(name))
            return
        head_text = head.decode("utf-8", "replace")
        if looks_like_yaml(head_text, name) or is_compact_session(head_text):
            data = head + stream.read(MAX_INPUT_BYTES + 1 - len(head))
            if len(data) > MAX_INPUT_BYTES:
                yield name, 0, InputError(f"input is larger than {MAX_INPUT_BYTES:,} bytes", Location(name))
                return
            try:
                text = decode(data, name)
            except MjError as e:
                yield name, e.location.line, e
                return
            for line, item in iter_tables(text, name):
                yield name, line, item
            return
        yield from _stream_compact(head, stream, name, MAX_LINE, parse_table)
    finally:
        if path != "-":
            stream.close()


def _stream_compact(head: bytes, stream, name: str, max_line: int, parse_table):
    import io

    from mjscore.model.errors import MjError, NotationError

    reader = io.BufferedReader(_Prefixed(head, stream)) if head else stream
    chunk: list[str] = []
    first = 1
    number = 0
    problem = None

    def emit():
        text = "\n".join(chunk)
        if problem is not None:
            return first, problem
        if not any(ln.split("#", 1)[0].strip() for ln in chunk):
            return None
        try:
            table = parse_table(text, name, first)
            return table.where.line, table
        except MjError as e:
            return first, e

    while True:
        raw = reader.readline(max_line + 2)
        if not raw:
            break
        number += 1
        if len(raw) > max_line and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):        # skip the rest of an overlong line
                raw = reader.readline(max_line + 2)
            if problem is None:
                problem = NotationError(f"line is longer than {max_line:,} characters", Location(name, number, 1))
            continue
        try:
            line = raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError:
            if problem is None:
                problem = InputError("not UTF-8 text", Location(name, number, 1))
            continue
        if line.strip() == "---":
            out = emit()
            if out is not None:
                yield (name,) + out
            chunk, first, problem = [], number + 1, None
        else:
            chunk.append(line)
    out = emit()
    if out is not None:
        yield (name,) + out


class _Prefixed:
    """A raw stream that first gives back the bytes already read to sniff the file's form."""

    def __init__(self, head: bytes, stream):
        self.head = head
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        if self.head:
            n = min(len(buf), len(self.head))
            buf[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.stream.read(len(buf))
        buf[:len(data)] = data
        return len(data)

    @property
    def closed(self) -> bool:
        return False
