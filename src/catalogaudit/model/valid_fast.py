"""A conservative fast check that a value is valid against a JSON Schema we ship or vendor.

jsonschema walking every tool of a 10 MB page (after writing it out and parsing it back as
plain JSON) was the largest single cost of `audit`, and checking a snapshot's skeleton against
the snapshot schema (after writing and re-parsing its 11 MB wire section) a large cost of
`hash`, `canonicalize` and `snapshot`; importing jsonschema alone costs 0.15-0.3 s. The MCP
result schemas and the snapshot schema use a few keywords with plain values; for those,
validity can be decided in one walk of the parsed values. The check only ever answers
"certainly valid" or "ask jsonschema": any keyword it does not model, a `$ref` it does not
resolve, a value it is not sure of (a float where an integer is asked, a non-finite number, an
object that remembers duplicate keys, a failed check) and the caller runs jsonschema as before
(CA610; `snapshot.build.validate`). tests/model/test_valid_fast.py proves with hypothesis that a
fast "valid" is never a value jsonschema rejects, for draft-07 and 2020-12 alike.
"""

from __future__ import annotations

import math
import re
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
        if key in ANNOTATIONS or (key == "$id" and schema is root and _plain_id(value)):
            continue
        check = _KEYWORDS.get(key)
        if check is None or not check(value, instance, schema, root, depth):
            return False
    return True


def _plain_id(value: Any) -> bool:
    """A root `$id` that only names the document (so `#/$defs/...` still resolves in it)."""
    return isinstance(value, str) and value.startswith("https://") and "#" not in value


def _plain_scalar(instance: Any) -> bool:
    """Strings, booleans, null, and numbers that read back as themselves."""
    if isinstance(instance, float):
        return math.isfinite(instance)
    return isinstance(instance, (str, int, type(None)))


def _type(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if isinstance(value, str):
        return _is(value, instance)  # NOTE: nearly every `type`: no list, no generator
    names = value if isinstance(value, list) else [value]
    return any(_is(name, instance) for name in names)


def _is(name: Any, instance: Any) -> bool:
    if name == "object":  # NOTE: the MCP schemas' two usual types first
        return type(instance) is dict  # not a WireObject: it remembers duplicate keys
    if name == "string":
        return isinstance(instance, str)
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
    if not value:
        return True  # `properties: {}` (the MCP schemas' inputSchema properties)
    for k, v in instance.items():
        if k in value and not certainly_valid(value[k], v, root, depth + 1):
            return False
    return True


def _additional(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(instance, dict):
        return True
    if type(instance) is not dict:
        return False
    declared = schema.get("properties", {})
    if not isinstance(declared, dict):
        return False
    if value is True:
        return True  # NOTE: the MCP schemas' usual `true`: no list of the extra members
    extra = [v for k, v in instance.items() if k not in declared]
    if not extra:
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
    """Equal as jsonschema compares, for the scalars decided here (integers only as integers:
    jsonschema's 1 == 1.0 and True != 1 are its own)."""
    if _integer(a) and _integer(b):
        return bool(a == b)
    return type(a) is type(b) and isinstance(a, (str, bool, type(None))) and a == b


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


def _any_of(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    # NOTE: every branch must be a schema: jsonschema tries them in order and fails on one
    # that is not (`{"anyOf": [null, true]}`) before it reaches one that would pass.
    return (
        isinstance(value, list)
        and all(isinstance(s, (bool, dict)) for s in value)
        and any(certainly_valid(s, instance, root, depth + 1) for s in value)
    )


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _max_items(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    return _count(value) and (not isinstance(instance, list) or len(instance) <= value)


def _min_length(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    return _count(value) and (not isinstance(instance, str) or len(instance) >= value)


def _pattern(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    # NOTE: jsonschema's `pattern` is `re.search` too.
    if not isinstance(value, str):
        return False
    if not isinstance(instance, str):
        return True
    try:
        return re.search(value, instance) is not None
    except re.error:
        return False


def _unique(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if value is False or not isinstance(instance, list):
        return value is False or value is True
    # NOTE: only strings are decided (jsonschema's equality of numbers and bools is its own).
    return (
        value is True
        and all(type(v) is str for v in instance)
        and len(set(instance)) == len(instance)
    )


def _property_names(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(instance, dict):
        return True
    return all(certainly_valid(value, k, root, depth + 1) for k in instance)


def _dependent_required(value: Any, instance: Any, schema: Any, root: Any, depth: int) -> bool:
    if not isinstance(value, dict):
        return False
    if not isinstance(instance, dict):
        return True
    return all(
        isinstance(need, list) and all(isinstance(n, str) and n in instance for n in need)
        for key, need in value.items()
        if key in instance
    )


_KEYWORDS = {
    "anyOf": _any_of,
    "maxItems": _max_items,
    "minLength": _min_length,
    "pattern": _pattern,
    "uniqueItems": _unique,
    "propertyNames": _property_names,
    "dependentRequired": _dependent_required,
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
