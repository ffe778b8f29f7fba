"""The exact writer, one generator step per value: the oracle `jsonwrite.dumps` (orjson, with
`_pieces` for what orjson would write otherwise) must equal byte for byte
(`tests/model/test_orjson_exact.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from catalogaudit.model.jsonwrite import dump_string, jcs_key, lexeme


def exact_dumps(
    value: Any,
    *,
    sort_keys: bool,
    indent: int | None,
    number: Callable[[int | float], str] = lexeme,
) -> str:
    """`value` written with RFC 8785 escapes, keys sorted (UTF-16) or served, numbers by
    `number`, compact or indented."""
    return "".join(_chunks(value, sort_keys, indent, number, 0))


def _chunks(
    value: Any,
    sort_keys: bool,
    indent: int | None,
    number: Callable[[int | float], str],
    depth: int,
) -> Iterator[str]:
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, str):
        yield dump_string(value)
    elif isinstance(value, (int, float)):
        yield number(value)
    elif isinstance(value, dict):
        if not value:
            yield "{}"
            return
        keys = sorted(value, key=jcs_key) if sort_keys else list(value)
        inner, close, sep, colon = _layout(indent, depth)
        yield "{" + inner
        for i, key in enumerate(keys):
            if i:
                yield sep
            yield dump_string(key) + colon
            yield from _chunks(value[key], sort_keys, indent, number, depth + 1)
        yield close + "}"
    elif isinstance(value, (list, tuple)):
        if not value:
            yield "[]"
            return
        inner, close, sep, _ = _layout(indent, depth)
        yield "[" + inner
        for i, item in enumerate(value):
            if i:
                yield sep
            yield from _chunks(item, sort_keys, indent, number, depth + 1)
        yield close + "]"
    else:
        raise TypeError(f"cannot serialize {type(value).__name__}")


def _layout(indent: int | None, depth: int) -> tuple[str, str, str, str]:
    if indent is None:
        return "", "", ",", ":"
    pad = "\n" + " " * (indent * (depth + 1))
    return pad, "\n" + " " * (indent * depth), "," + pad, ": "
