# SPDX-License-Identifier: Apache-2.0
"""One line of JSON lines: find the string member to privatise and splice
the result back, so that every other byte of the line stays as it was
(numbers keep their spelling, keys their order and escapes), as
`dxtext privatize --jsonl` does."""

from __future__ import annotations

import json
import re
from typing import List, Tuple

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


class RecordError(ValueError):
    """A record that cannot be privatised as asked (not a JSON object, the
    member missing, twice, or not a string); --on-error skip skips these."""


def _after_space(line: str, i: int) -> int:
    """The index of the first character from `i` on that is not JSON's whitespace."""
    return _SPACE.match(line, i).end()  # type: ignore[union-attr]  # it matches everywhere, if only ""


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
    # The members of the object, in order: the line is valid JSON, so each
    # name and value is where the one before it and JSON's syntax put it.
    found: List[Tuple[int, int, str]] = []
    i = _after_space(line, 0) + 1  # past "{"
    while parsed:
        name, i = _DECODER.raw_decode(line, _after_space(line, i))
        begin = _after_space(line, _after_space(line, i) + 1)  # past ":"
        value, i = _DECODER.raw_decode(line, begin)
        if name == key:
            if not isinstance(value, str):
                raise RecordError(f'"{key}" is not a string')
            found.append((begin, i, value))
        i = _after_space(line, i) + 1  # past "," or "}"
        if line[i - 1] == "}":
            break
    if not found:
        raise RecordError(f'no member "{key}"')
    if len(found) > 1:
        raise RecordError(f'the member "{key}" appears {len(found)} times')
    return found[0]


def replace_member(line: str, begin: int, end: int, text: str) -> str:
    """`line` with the span [begin, end) replaced by `text` as a JSON string."""
    return line[:begin] + json.dumps(text, ensure_ascii=False) + line[end:]
