"""A conservative fast check that a list page is valid against the official MCP result schema.

jsonschema walking every tool of a 10 MB page (after writing it out and parsing it back as
plain JSON) was the largest single cost of `audit`. The result schemas use a dozen keywords
with plain values; for those, validity of a page can be decided in one walk of the parsed
values. The check only ever answers "certainly valid" or "ask jsonschema": any keyword it does
not model, a `$ref` it does not resolve, a value it is not sure of (a float where an integer is
asked, a non-finite number, an object that remembers duplicate keys, a failed check) and CA610
runs jsonschema as before; tests/rules/test_result_fast.py proves with hypothesis that a fast
"valid" is never a page jsonschema rejects.
"""

from __future__ import annotations

import math
from typing import Any

#: Keywords with no assertion here: jsonschema's validators are built without a format checker,
#: so `format` is an annotation too.
ANNOTATIONS = frozenset(
    {"description", "title", "default", "examples", "$comment", "format", "deprecated", "$schema"}
    | {"$defs", "definitions"}  # containers: definitions assert nothing where they sit
)

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
    "boolean": (bool,),
}


def certainly_valid(schema: Any, instance: Any, root: dict[str, Any], depth: int = 0) -> bool:
    """True only when `instance` is valid against `schema` (refs resolved in `root`)."""
    if schema is True or schema == {}:
        return True
    if not isinstance(schema, dict) or depth > 64:
        return False
    for key, value in schema.items():
        if key in ANNOTATIONS:
            continue
        check = _KEYWORDS.get(key)
        if check is None or not check(value, instance, schema, root, depth):
            return False
    return True


def _plain_scalar(instance: Any) -> bool:
    """Strings, booleans, null, and numbers that read back as themselves."""
    if isinstance(instance, float):
        return math.isfinite(instance)
    return isinstance(instance, (str, int, type(None)))


def _type(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    names = value if isinstance(value, list) else [value]
    return any(_is(name, instance) for name in names)


def _is(name: Any, instance: Any) -> bool:
    if name == "integer":
        return type(instance) is not bool and isinstance(instance, int)
    if name == "number":
        return (
            type(instance) is not bool
            and isinstance(instance, (int, float))
            and (_plain_scalar(instance))
        )
    kinds = _TYPES.get(name) if isinstance(name, str) else None
    if kinds is None:
        return False
    if kinds == (dict,):
        return type(instance) is dict  # not a WireObject: it remembers duplicate keys
    if kinds == (list,):
        return type(instance) is list
    return isinstance(instance, kinds)


def _properties(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(value, dict):
        return False
    if not isinstance(instance, dict):
        return True
    if type(instance) is not dict:
        return False
    return all(
        certainly_valid(value[k], v, root, depth + 1) for k, v in instance.items() if k in value
    )


def _additional(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(instance, dict):
        return True
    if type(instance) is not dict:
        return False
    declared = schema.get("properties", {})
    if not isinstance(declared, dict):
        return False
    extra = [v for k, v in instance.items() if k not in declared]
    if value is True or not extra:
        return True
    return all(certainly_valid(value, v, root, depth + 1) for v in extra)


def _required(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        return False
    return not isinstance(instance, dict) or all(k in instance for k in value)


def _items(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(value, (dict, bool)):
        return False  # the draft-07 tuple form
    if not isinstance(instance, list):
        return True
    if type(instance) is not list:
        return False
    return all(certainly_valid(value, v, root, depth + 1) for v in instance)


def _ref(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    for prefix in ("#/$defs/", "#/definitions/"):
        if isinstance(value, str) and value.startswith(prefix):
            name = value[len(prefix) :]
            defs = root.get(prefix[2:-1])
            if "/" in name or "~" in name or not isinstance(defs, dict) or name not in defs:
                return False
            return certainly_valid(defs[name], instance, root, depth + 1)
    return False


def _same(a: Any, b: Any) -> bool:
    """Equal as jsonschema compares, for the scalars decided here (no numbers: 1 == 1.0)."""
    return type(a) is type(b) and isinstance(a, (str, bool, type(None))) and a == b


def _const(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    return _same(value, instance)


def _enum(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    return isinstance(value, list) and any(_same(v, instance) for v in value)


def _bound(lower: bool) -> Any:
    def check(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
        if type(value) is bool or not isinstance(value, (int, float)):
            return False
        if type(instance) is bool or not isinstance(instance, (int, float)):
            return True
        if not _plain_scalar(instance):
            return False
        return bool(instance >= value) if lower else bool(instance <= value)

    return check


_KEYWORDS = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "items": _items,
    "$ref": _ref,
    "const": _const,
    "enum": _enum,
    "minimum": _bound(True),
    "maximum": _bound(False),
}

__all__ = ["certainly_valid"]
