"""Bytes to text: files and standard input read safely, decoded, and their form recognised.

Every command and every file mjscore reads (tables, sessions, schemes) goes through `decode`,
so the same bytes give the same text everywhere.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mjscore.model.errors import InputError, Location

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
