"""Helpers shared by the spec rules: revision order, quoting, schema traversal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from catalogaudit.model import jsonwire
from catalogaudit.walker import SCHEMA_LIST, SCHEMA_MAPS, SCHEMA_ONE

REVISIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
SPEC = "https://modelcontextprotocol.io/specification"


def rev_index(revision: str) -> int:
    """Position of a revision; unknown (newer) revisions sort after the known ones."""
    return REVISIONS.index(revision) if revision in REVISIONS else len(REVISIONS)


def at_least(revision: str, floor: str) -> bool:
    """True when `revision` is `floor` or later."""
    return rev_index(revision) >= rev_index(floor)


def quote(text: str, limit: int = 80) -> str:
    """A JSON-quoted, shortened excerpt of server text for messages."""
    short = text if len(text) <= limit else text[: limit - 1] + "\u2026"
    return jsonwire.dump_string(short)


def spec_url(revision: str, page: str) -> str:
    """The spec page of a revision (2025-11-25 when the revision is unknown)."""
    rev = revision if revision in REVISIONS else "2025-11-25"
    return f"{SPEC}/{rev}/{page}"


def subschemas(schema: Any, at: str = "") -> Iterator[tuple[Any, str]]:
    """Every (sub)schema object of a JSON Schema with its pointer, the same way the walker
    enters them (data keywords never)."""
    if not isinstance(schema, dict):
        return
    yield schema, at
    for key in (*SCHEMA_MAPS, "dependencies"):
        named = schema.get(key)
        if isinstance(named, dict):
            for name, sub in named.items():
                yield from subschemas(
                    sub, jsonwire.pointer_join(jsonwire.pointer_join(at, key), name)
                )
    for key in SCHEMA_ONE:
        if key in schema:
            yield from subschemas(schema[key], jsonwire.pointer_join(at, key))
    items = schema.get("items")
    if isinstance(items, list):
        for i, sub in enumerate(items):
            yield from subschemas(sub, jsonwire.pointer_join(jsonwire.pointer_join(at, "items"), i))
    elif items is not None:
        yield from subschemas(items, jsonwire.pointer_join(at, "items"))
    for key in SCHEMA_LIST:
        subs = schema.get(key)
        if isinstance(subs, list):
            for i, sub in enumerate(subs):
                yield from subschemas(sub, jsonwire.pointer_join(jsonwire.pointer_join(at, key), i))


def strings(value: Any, at: str = "") -> Iterator[tuple[str, str]]:
    """Every string value in a JSON value with its pointer (names, data and prose alike)."""
    if isinstance(value, str):
        yield value, at
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, jsonwire.pointer_join(at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings(v, jsonwire.pointer_join(at, i))


def is_number(value: Any) -> bool:
    """A JSON number (bools are not numbers)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
