"""Which of two JSON Schemas accepts more, when that can be proved: the keyword vocabulary of
`diff`'s schema comparison, the spellings that mean the same, and `implies`.

Sound by construction, not complete: a small set of normalisations (`true`, `{}` and absent
are one subschema where the keyword defaults to "anything"; `properties` absent is `{}`) and
a keyword-by-keyword proof that one schema's constraints are among the other's. What is not
proved stays `unknown` in `diff`.
"""

from __future__ import annotations

from typing import Any

from catalogaudit.diffing.paths import same

COMPOSITION = frozenset(
    {
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "dependencies",
    }
)
DEFINITIONS = frozenset({"$defs", "definitions"})
PROSE = frozenset({"description", "title"})
ANNOTATION_KEYWORDS = frozenset(
    {
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
        "$id",
        "$anchor",
        "contentMediaType",
        "contentEncoding",
    }
)
LOWER = frozenset(
    {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
)
UPPER = frozenset(
    {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)
ABSENT: Any = object()
#: Subschema keywords for which absent, `true` and `{}` all accept every instance (JSON Schema
#: 2020-12 section 10.3 and draft-07's equivalents): one meaning, three spellings.
OPEN_BY_DEFAULT = frozenset(
    {
        "additionalProperties",
        "items",
        "additionalItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "propertyNames",
    }
)
#: Keywords with the only type they constrain: a change to one is moot when the old or the new
#: schema admits no instance of that type (it is reported with `type`).
APPLIES_TO = {
    **dict.fromkeys(
        (
            "items",
            "additionalItems",
            "prefixItems",
            "contains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ),
        "array",
    ),
    **dict.fromkeys(
        (
            "properties",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "required",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "unevaluatedProperties",
        ),
        "object",
    ),
    **dict.fromkeys(("minLength", "maxLength", "pattern", "format"), "string"),
    **dict.fromkeys(
        ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"), "number"
    ),
}
#: Keywords whose meaning depends on siblings: equal alone does not mean the same constraint.
_CONTEXT = {
    "additionalProperties": ("properties", "patternProperties"),
    "additionalItems": ("items",),
    "items": ("prefixItems",),
    "exclusiveMinimum": ("minimum",),
    "exclusiveMaximum": ("maximum",),
    "minContains": ("contains",),
    "maxContains": ("contains",),
    "if": ("then", "else"),
    "then": ("if",),
    "else": ("if",),
}
#: Keywords `implies` never proves: a reference's target may differ between the two documents,
#: and `unevaluated*` depend on every applicator beside them.
_UNPROVED = frozenset(
    {"$ref", "$dynamicRef", "$recursiveRef", "unevaluatedProperties", "unevaluatedItems"}
)
#: Keywords whose absence means an empty object or array: absent and empty are one spelling.
EMPTY_BY_DEFAULT: dict[str, Any] = {
    "properties": {},
    "patternProperties": {},
    "required": [],
    "dependentRequired": {},
    "dependentSchemas": {},
    "$defs": {},
    "definitions": {},
}


def same_or_absent(a: Any, b: Any) -> bool:
    if a is ABSENT or b is ABSENT:
        return a is b
    return same(a, b)


def typeset(s: dict[str, Any]) -> set[str] | None:
    t = s.get("type", ABSENT)
    if t is ABSENT:
        return None
    if isinstance(t, str):
        return {t}
    # NOTE: a `type` neither a name nor a list of them (null, a number, an object) names no
    # type, as a list of no names does.
    return {x for x in t if isinstance(x, str)} if isinstance(t, list) else set()


def covers(wide: set[str] | None, narrow: set[str] | None) -> bool:
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


def sub(value: Any, key: str = "") -> Any:
    """A subschema with its spellings of "anything" (absent, `true`) as `{}`; under
    `propertyNames`, `type: "string"` is dropped too (every property name is a string)."""
    if value is ABSENT or value is True:
        return {}
    if key == "propertyNames" and isinstance(value, dict) and value.get("type") == "string":
        return {k: v for k, v in value.items() if k != "type"}
    return value


def moot(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """The instance types one side admits none of while `type` changed: a change to a keyword
    of such a type constrains nothing the type change does not already say."""
    o, n = typeset(old), typeset(new)
    if o is None or n is None or o == n:
        return set()
    out = set()
    for kind in ("array", "object", "string", "number"):
        wanted = {kind, "integer"} if kind == "number" else {kind}
        if not (o & wanted) or not (n & wanted):
            out.add(kind)
    return out


def _has_ref(value: Any) -> bool:
    if isinstance(value, dict):
        return bool(value.keys() & _UNPROVED) or any(_has_ref(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_ref(v) for v in value)
    return False


def implies(narrow: Any, wide: Any) -> bool:
    """True only when every instance `narrow` accepts, `wide` accepts too, proved keyword by
    keyword: each constraint of `wide` is in `narrow` with the same value (and the siblings its
    meaning depends on), `type` is covered, and an `anyOf` of `wide` has a branch `narrow`
    implies. Anything else (a `$ref`, whose target may differ; merging branches) is not
    proved: False means "not shown", never "wider"."""
    narrow, wide = sub(narrow), sub(wide)
    if not isinstance(narrow, dict) or not isinstance(wide, dict) or _has_ref(wide):
        return False
    for key, value in wide.items():
        if key in PROSE or key in ANNOTATION_KEYWORDS or key in DEFINITIONS or key.startswith("x-"):
            continue
        if key == "type":
            if not covers(typeset(wide), typeset(narrow)):
                return False
        elif key == "anyOf" and not same_or_absent(narrow.get(key, ABSENT), value):
            if not isinstance(value, list) or not any(implies(narrow, b) for b in value):
                return False
        elif not same_or_absent(narrow.get(key, ABSENT), value):
            return False
        if any(
            not same_or_absent(narrow.get(d, ABSENT), wide.get(d, ABSENT))
            for d in _CONTEXT.get(key, ())
        ):
            return False
    return True


def subsumption(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """same, wider, narrower (what `new` accepts against `old`), or None: not proved."""
    wider, narrower = implies(old, new), implies(new, old)
    if wider and narrower:
        return "same"
    return "wider" if wider else "narrower" if narrower else None
