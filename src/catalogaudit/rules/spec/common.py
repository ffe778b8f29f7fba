"""Helpers shared by the spec rules: revision order, quoting, schema traversal."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from catalogaudit.model import LEGACY_VERSIONS, MODERN_VERSIONS, Item, pointer_join
from catalogaudit.rules.base import Hit

REVISIONS: tuple[str, ...] = (*LEGACY_VERSIONS, *MODERN_VERSIONS)
SPEC = "https://modelcontextprotocol.io/specification"


def rev_index(revision: str) -> int:
    """Position of a revision; unknown (newer) revisions sort after the known ones."""
    return REVISIONS.index(revision) if revision in REVISIONS else len(REVISIONS)


def at_least(revision: str, floor: str) -> bool:
    """True when `revision` is `floor` or later."""
    return rev_index(revision) >= rev_index(floor)


def strings(value: Any, at: str = "") -> Iterator[tuple[str, str]]:
    """Every string value in a JSON value with its pointer (names, data and prose alike)."""
    if isinstance(value, str):
        yield value, at
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, pointer_join(at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings(v, pointer_join(at, i))


def may_hold(value: Any, key: str, within: Item | None = None) -> bool:
    """Whether an object at any depth of `value` has a member named `key`: a scan without
    pointers that lets a rule skip its walk (most schemas have no `$ref`, and the
    pointer-building walks cost far more). `within`: the item `value` is part of, whose copy
    for jsonschema-rs noted which of the keys rules ask about it has (`Item.lacks`): a key it
    lacks is in no object of `value`, and nothing is walked."""
    if within is not None and within.lacks(key):
        return False
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        node = pop()
        kind = type(node)
        if kind is str or kind is int or kind is bool:
            continue  # NOTE: most values: one identity test each, not two isinstance calls
        if kind is dict or isinstance(node, dict):
            if key in node:
                return True
            push(node.values())
        elif kind is list or isinstance(node, list):
            push(node)
    return False


def is_number(value: Any) -> bool:
    """A JSON number (bools are not numbers)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def hit(item: Item, at: str, why: str, excerpt: str = "", **more: Any) -> Hit:
    """A hit about `item` at pointer `at`, its message led by the item's label."""
    return Hit(item, at, f"{item.label}: {why}", excerpt, **more)
