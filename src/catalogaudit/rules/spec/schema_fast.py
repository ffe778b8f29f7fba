"""A conservative fast check that a schema is valid for draft-07 and 2020-12 alike.

Meta-schema validation with jsonschema costs about 2.5 ms per 1 KB schema (2020-12 resolves
dynamic references), which dominates a pre-commit audit. Nearly every real tool schema uses a
handful of keywords with plain values; for those, validity can be decided by shape alone. The
check only ever answers "certainly valid" or "ask jsonschema": any keyword it does not model, or
any value it is not sure about, falls back to the full meta-schema check (CA403 calls both, and a
hypothesis test proves the fast answer never disagrees with jsonschema).
"""

from __future__ import annotations

import re
from typing import Any

TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})

#: Keywords of draft-07 and 2020-12 (core, applicator, validation, meta-data, format, content,
#: unevaluated); a key outside this set is an annotation every meta-schema allows.
KEYWORDS = frozenset(
    {
        "$schema",
        "$id",
        "$ref",
        "$comment",
        "$defs",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
        "$recursiveRef",
        "$recursiveAnchor",
        "definitions",
        "type",
        "enum",
        "const",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "required",
        "dependentRequired",
        "dependencies",
        "properties",
        "patternProperties",
        "additionalProperties",
        "propertyNames",
        "items",
        "prefixItems",
        "additionalItems",
        "contains",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "unevaluatedItems",
        "unevaluatedProperties",
        "title",
        "description",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "examples",
        "format",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    }
)
STRINGS = frozenset({"title", "description", "format", "$comment", "$schema"})
#: A local `$ref` that is a valid URI reference under any format checker.
LOCAL_REF = re.compile(r"#(?:/[A-Za-z0-9._~$-]*)*\Z")
ANY = frozenset({"const", "default"})
NUMBERS = frozenset({"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"})
COUNTS = frozenset(
    {"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"}
)
SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions"})
SCHEMA_ONE = frozenset({"additionalProperties", "not"})
SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf"})


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _regex(value: str) -> bool:
    # jsonschema's check_schema asserts format "regex" with re.compile; do the same.
    try:
        re.compile(value)
    except (re.error, RecursionError, OverflowError):
        return False
    if len(_REGEXES) >= 4096:
        _REGEXES.clear()
    _REGEXES.add(value)  # NOTE: one set lookup next time, not re's cache behind three calls
    return True


#: Patterns `_regex` saw compile (bounded).
_REGEXES: set[str] = set()


def _type(value: Any) -> bool:
    if isinstance(value, str):
        return value in TYPES
    if isinstance(value, list) and value:
        return all(isinstance(t, str) and t in TYPES for t in value) and len(set(value)) == len(
            value
        )
    return False


def certainly_valid(schema: Any, depth: int = 0) -> bool:
    """True only when `schema` is valid under both draft-07 and 2020-12 meta-schemas."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or depth > 64:
        return False
    # NOTE: one dict lookup per keyword, then the branches by how often real schemas use them
    # (a chain of set tests cost ten lookups for `properties`), the one-line checks inline (a
    # call per keyword was a third of CA403).
    kind_of = _KIND.get
    for key, value in schema.items():
        kind = kind_of(key)
        if kind is None:
            continue  # an annotation (x-..., vendor keys): allowed by every meta-schema
        if kind == _STRING:
            if not isinstance(value, str):
                return False
        elif kind == _TYPE:
            if not (value in TYPES if isinstance(value, str) else _type(value)):
                return False
        elif kind == _MAP:
            if not isinstance(value, dict):
                return False
            for sub in value.values():
                if sub is not True and not certainly_valid(sub, depth + 1):
                    return False
        elif kind == _COUNT:
            if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
                return False
        elif kind == _NUMBER:
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return False
        elif kind == _REQUIRED:
            if not (
                isinstance(value, list)
                and all(isinstance(v, str) for v in value)
                and len(set(value)) == len(value)
            ):
                return False
        elif kind == _ONE:
            if value is not False and not certainly_valid(value, depth + 1):
                return False
        elif kind == _ANY_VALUE:
            pass
        elif kind == _ARRAY:
            if not isinstance(value, list):
                return False
        elif kind == _PATTERN:
            if not (isinstance(value, str) and (value in _REGEXES or _regex(value))):
                return False
        elif kind == _LIST:
            if not isinstance(value, list) or not value:
                return False
            for sub in value:
                if not certainly_valid(sub, depth + 1):
                    return False
        elif kind == _BOOL:
            if not isinstance(value, bool):
                return False
        elif kind == _REF:
            if not (isinstance(value, str) and LOCAL_REF.match(value)):
                return False
        elif kind == _MULTIPLE:
            if not (_number(value) and value > 0):
                return False
        else:
            return False  # a keyword whose rules differ by dialect: let jsonschema decide
    return True


#: How `certainly_valid` checks each keyword's value (`_OTHER`: it does not; jsonschema does).
(
    _STRING,
    _TYPE,
    _MAP,
    _ONE,
    _LIST,
    _ANY_VALUE,
    _REQUIRED,
    _ARRAY,
    _NUMBER,
    _COUNT,
    _BOOL,
    _PATTERN,
    _REF,
    _MULTIPLE,
    _OTHER,
) = range(15)
_KIND: dict[str, int] = {
    **dict.fromkeys(KEYWORDS, _OTHER),
    **dict.fromkeys(("enum", "examples"), _ARRAY),
    **dict.fromkeys(("uniqueItems", "deprecated", "readOnly", "writeOnly"), _BOOL),
    **dict.fromkeys(COUNTS, _COUNT),
    **dict.fromkeys(NUMBERS, _NUMBER),
    **dict.fromkeys(SCHEMA_LISTS, _LIST),
    **dict.fromkeys((*SCHEMA_ONE, "items"), _ONE),
    **dict.fromkeys(SCHEMA_MAPS, _MAP),
    **dict.fromkeys(ANY, _ANY_VALUE),
    "required": _REQUIRED,
    "multipleOf": _MULTIPLE,
    "pattern": _PATTERN,
    "$ref": _REF,
    "type": _TYPE,
    **dict.fromkeys(STRINGS, _STRING),
}
