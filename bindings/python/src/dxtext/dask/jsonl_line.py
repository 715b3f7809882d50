# SPDX-License-Identifier: Apache-2.0
"""One line of JSON lines: find the string member to privatise and splice
the result back, so that every other byte of the line stays as it was
(numbers keep their spelling, keys their order and escapes), as
`dxtext privatize --jsonl` does."""

from __future__ import annotations

import json
import re
from typing import Tuple

# The tokens that matter for finding a top-level member: strings (with
# their escapes) and structural characters. Numbers, true, false and null
# are never needed: a key is always a string, and the value wanted is one.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]', re.DOTALL)


class RecordError(ValueError):
    """A record that cannot be privatised as asked (not a JSON object, the
    member missing, twice, or not a string); --on-error skip skips these."""


def _is_key(token: str, key: str) -> bool:
    if "\\" not in token:
        return token[1:-1] == key
    return bool(json.loads(token) == key)


def find_string_member(line: str, key: str) -> Tuple[int, int, str]:
    """(begin, end, value) of the member `key` of the JSON object on `line`:
    the value's span from its opening to one past its closing quote, and the
    decoded string. Raises RecordError as the CLI refuses a line: not one
    JSON object, `key` missing or present twice, or its value not a string."""
    try:
        parsed = json.loads(line)
    except ValueError as e:
        raise RecordError(f"not JSON: {e}") from None
    if not isinstance(parsed, dict):
        raise RecordError("the line is not a JSON object")
    depth = 0
    previous = ""  # the previous structural token at depth 1, or ""
    found = []
    tokens = _TOKENS.finditer(line)
    for match in tokens:
        token = match.group()
        first = token[0]
        if first in "{[":
            depth += 1
            previous = token if depth == 1 else previous
        elif first in "}]":
            depth -= 1
        elif depth == 1 and first == '"' and previous in ("{", ",") and _is_key(token, key):
            # The key; its value follows the colon.
            colon = next(tokens)
            value = next(tokens, None)
            if (
                value is None
                or value.group()[0] != '"'
                or line[colon.end() : value.start()].strip(" \t\r\n")
            ):
                raise RecordError(f'"{key}" is not a string')
            found.append((value.start(), value.end()))
            previous = ""
        elif depth == 1 and first in ",:":
            previous = token
        elif depth == 1:
            previous = ""
    if not found:
        raise RecordError(f'no member "{key}"')
    if len(found) > 1:
        raise RecordError(f'the member "{key}" appears {len(found)} times')
    value = parsed[key]
    if not isinstance(value, str):  # pragma: no cover - the scan found a string
        raise RecordError(f'"{key}" is not a string')
    begin, end = found[0]
    return begin, end, value


def replace_member(line: str, begin: int, end: int, text: str) -> str:
    """`line` with the span [begin, end) replaced by `text` as a JSON string."""
    return line[:begin] + json.dumps(text, ensure_ascii=False) + line[end:]
