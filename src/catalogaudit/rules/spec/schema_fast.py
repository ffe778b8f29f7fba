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
    return True


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
    for key, value in schema.items():
        if key not in KEYWORDS:
            continue  # an annotation (x-..., vendor keys): allowed by every meta-schema
        if key in STRINGS:
            ok = isinstance(value, str)
        elif key in ANY:
            ok = True
        elif key == "pattern":
            ok = isinstance(value, str) and _regex(value)
        elif key == "$ref":
            ok = isinstance(value, str) and bool(LOCAL_REF.match(value))
        elif key == "type":
            ok = _type(value)
        elif key in NUMBERS:
            ok = _number(value)
        elif key in COUNTS:
            ok = _count(value)
        elif key == "multipleOf":
            ok = _number(value) and value > 0
        elif key in ("uniqueItems", "deprecated", "readOnly", "writeOnly"):
            ok = isinstance(value, bool)
        elif key == "required":
            ok = (
                isinstance(value, list)
                and all(isinstance(v, str) for v in value)
                and len(set(value)) == len(value)
            )
        elif key in ("enum", "examples"):
            ok = isinstance(value, list)
        elif key in SCHEMA_MAPS:
            ok = isinstance(value, dict) and all(
                certainly_valid(v, depth + 1) for v in value.values()
            )
        elif key in SCHEMA_ONE or key == "items":
            ok = certainly_valid(value, depth + 1)
        elif key in SCHEMA_LISTS:
            ok = (
                isinstance(value, list)
                and bool(value)
                and all(certainly_valid(v, depth + 1) for v in value)
            )
        else:
            ok = False  # a keyword whose rules differ by dialect: let jsonschema decide
        if not ok:
            return False
    return True
