"""The full map of a JSON text, by pointer: the oracle `model.positions.Finder` is tested
against (it was the product's map of raw inputs until the finder read along each pointer).

An explicit stack instead of recursion: schemas nest deeper than Python's recursion limit.
Invalid JSON (JSON Lines, say) gives an empty index: no region rather than a made-up one.
"""

from __future__ import annotations

import bisect
import json
import re

from catalogaudit.model.jsonwire import pointer_join

_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null")


def _offsets(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    #: open containers: (pointer, next array index or -1 for an object)
    stack: list[list[str | int]] = []
    i = _WS.match(text, 0).end()  # type: ignore[union-attr]
    pointer = ""

    def key_at(at: int) -> tuple[str, int]:
        m = _STRING.match(text, at)
        if m is None:
            raise ValueError("key expected")
        after = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
        if text[after] != ":":
            raise ValueError("':' expected")
        return json.loads(m.group()), _WS.match(text, after + 1).end()  # type: ignore[union-attr]

    while True:
        out[pointer] = i
        ch = text[i]
        if ch in "{[":
            inner = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
            if text[inner] in "}]":
                i = inner + 1
            elif ch == "{":
                stack.append([pointer, -1])
                key, i = key_at(inner)
                pointer = pointer_join(pointer, key)
                continue
            else:
                stack.append([pointer, 0])
                i, pointer = inner, pointer_join(pointer, 0)
                continue
        else:
            m = (_STRING if ch == '"' else _SCALAR).match(text, i)
            if m is None:
                raise ValueError("value expected")
            i = m.end()
        while True:  # after a value: a comma, or the end of its container(s)
            i = _WS.match(text, i).end()  # type: ignore[union-attr]
            if not stack:
                if i != len(text):
                    raise ValueError("trailing data")
                return out
            top = stack[-1]
            if text[i] == ",":
                after = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                if top[1] == -1:
                    key, i = key_at(after)
                    pointer = pointer_join(str(top[0]), key)
                else:
                    top[1] = int(top[1]) + 1
                    i, pointer = after, pointer_join(str(top[0]), int(top[1]))
                break
            if text[i] in "}]":
                stack.pop()
                i += 1
                continue
            raise ValueError("',' expected")


def raw_positions(text: str) -> dict[str, tuple[int, int]]:
    """Line and column (1-based; columns in code points) of every value, by pointer; {} when
    `text` is not one JSON document."""
    try:
        offsets = _offsets(text)
    except (ValueError, IndexError):
        return {}
    newlines = [m.start() for m in re.finditer("\n", text)]
    out: dict[str, tuple[int, int]] = {}
    for pointer, at in offsets.items():
        line = bisect.bisect_left(newlines, at)
        start = newlines[line - 1] + 1 if line else 0
        out[pointer] = (line + 1, at - start + 1)
    return out
