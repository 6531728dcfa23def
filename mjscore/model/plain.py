"""The plain form's text: JSON as every result is written, declared once.

A result's plain form (`to_dict()`) is written as JSON by one encoder: characters as they are
(`ensure_ascii` off: the command line escapes what a terminal would act on), and without the
check for cycles, since a plain form is a tree made fresh for each result, never a structure
that refers to itself.  Results that write their JSON themselves (`to_json()`, without building
the tree first) write their strings with `string`, which quotes and escapes a string as this
encoder does, so the text is the same either way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any

encode: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
string: Callable[[str], str] = encode_basestring          # one string, as `encode` writes it


def boolean(value: bool) -> str:
    """`true` or `false`, as `encode` writes a boolean."""
    return "true" if value else "false"
