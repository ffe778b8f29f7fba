"""Schema shapes: JSON-Schema features in the subject tool's inputSchema (at the root and
nested in a property) and outputSchema forms."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from catalogaudit.verify.lattice.base import MISSING, Raw, Shape, make

_Q: dict[str, Any] = {"type": "string"}
#: Feature id -> the keywords added to (root) or that make up (nested) a schema.
FEATURES: dict[str, dict[str, Any]] = {
    "anyOf": {"anyOf": [{"type": "string"}, {"type": "number"}]},
    "oneOf": {"oneOf": [{"type": "string"}, {"type": "number"}]},
    "allOf": {"allOf": [{"type": "string"}, {"minLength": 1}]},
    "not": {"not": {"type": "null"}},
    "if-then-else": {"if": {"type": "string"}, "then": {"minLength": 1}, "else": {"minimum": 0}},
    "ref-local": {"$ref": "#/$defs/word"},
    "ref-remote": {"$ref": "https://example.com/schemas/word.json"},
    "definitions-ref": {"$ref": "#/definitions/word"},
    "enum-strings": {"enum": ["a", "b"]},
    "enum-numbers": {"enum": [1, 2]},
    "enum-mixed": {"enum": ["a", 1, None, True]},
    "const-string": {"const": "a"},
    "const-number": {"const": 1},
    "type-array": {"type": ["string", "null"]},
    "type-integer": {"type": "integer"},
    "type-null": {"type": "null"},
    "type-unknown": {"type": "text"},
    "pattern-plain": {"type": "string", "pattern": "^[a-z]+$"},
    "pattern-lookahead": {"type": "string", "pattern": "^(?=.*[a-z]).+$"},
    "pattern-lookbehind": {"type": "string", "pattern": "(?<=a)b"},
    "pattern-backreference": {"type": "string", "pattern": "^(a)\\1$"},
    "pattern-invalid": {"type": "string", "pattern": "(["},
    "format-date-time": {"type": "string", "format": "date-time"},
    "format-uri": {"type": "string", "format": "uri"},
    "format-unknown": {"type": "string", "format": "shoe-size"},
    "array-items-object": {"type": "array", "items": {"type": "string"}},
    "array-items-tuple": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]},
    "array-prefixItems": {"type": "array", "prefixItems": [{"type": "string"}]},
    "array-items-false": {"type": "array", "items": False},
    "array-no-items": {"type": "array"},
    "boolean-true": {},
    "minimum-lexeme": {"type": "number", "minimum": Raw("1.0")},
    "default-wrong-type": {"type": "string", "default": 3},
}
#: additionalProperties forms, on the root object schema.
ADDITIONAL: dict[str, Any] = {
    "false": False,
    "true": True,
    "schema": {"type": "string"},
    "empty-schema": {},
    "string": "no",
}
DRAFTS = {
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "unknown": "https://example.com/my-schema",
}


def _root(feature: str, keywords: dict[str, Any]) -> dict[str, Any]:
    """The subject's object schema with `keywords` added at its root; combinators and
    conditionals at the root name whole object schemas."""
    schema: dict[str, Any] = {"type": "object", "properties": {"q": dict(_Q)}, "required": ["q"]}
    if feature in ("anyOf", "oneOf"):
        schema[feature] = [{"required": ["q"]}, {"properties": {"q": {"minLength": 1}}}]
    elif feature == "allOf":
        schema["allOf"] = [{"required": ["q"]}]
    elif feature == "not":
        schema["not"] = {"required": ["x"]}
    elif feature == "if-then-else":
        schema.update({"if": {"required": ["q"]}, "then": {}, "else": {"required": ["q"]}})
    elif feature.startswith(("ref-", "definitions-")):
        schema["properties"]["q"] = dict(keywords)
        schema["$defs" if feature == "ref-local" else "definitions"] = {"word": dict(_Q)}
    else:
        schema.update(keywords)
    return schema


def shapes(era: str) -> Iterator[Shape]:
    """The schema shapes of one era."""

    def tool(sid: str, path: str, value: Any, defect: str) -> Shape:
        return make(era, sid, "tools", f"/tools/1/{path}", value, defect)

    for feature, keywords in FEATURES.items():
        if feature.startswith(("array-", "type-", "boolean-")) or feature in (
            "enum-strings",
            "enum-numbers",
            "enum-mixed",
            "const-string",
            "const-number",
        ):
            root: Any = dict(keywords)  # the root replaced: what a non-object root does
        else:
            root = _root(feature, keywords)
        if feature == "boolean-true":
            root = True
        yield tool(f"tool.inputSchema/root-{feature}", "inputSchema", root, f"root {feature}")
        nested: Any = True if feature == "boolean-true" else dict(keywords)
        if feature.startswith(("ref-", "definitions-")):
            nested = {
                "type": "object",
                "properties": {"w": dict(keywords)},
                "$defs" if feature == "ref-local" else "definitions": {"word": dict(_Q)},
            }
        yield tool(
            f"tool.inputSchema/nested-{feature}",
            "inputSchema/properties/q",
            nested,
            f"property q: {feature}",
        )
    for form, value in ADDITIONAL.items():
        yield tool(
            f"tool.inputSchema/additionalProperties-{form}",
            "inputSchema/additionalProperties",
            value,
            f"additionalProperties {form}",
        )
    for draft, uri in DRAFTS.items():
        yield tool(
            f"tool.inputSchema/schema-{draft}", "inputSchema/$schema", uri, f"$schema {draft}"
        )
    for sid, value in (
        ("properties-string", "x"),
        ("properties-array", []),
        ("required-string", "q"),
        ("required-unknown", ["nope"]),
        ("type-missing", None),
        ("type-array", ["object"]),
        ("type-string", "string"),
    ):
        field = sid.rpartition("-")[0] if sid.count("-") else sid
        if sid == "type-missing":
            yield make(
                era,
                "tool.inputSchema.type/missing",
                "tools",
                "/tools/1/inputSchema/type",
                MISSING,
                "inputSchema without type",
            )
            continue
        yield tool(
            f"tool.inputSchema.{field}/{sid.partition('-')[2]}",
            f"inputSchema/{field}",
            value,
            f"inputSchema {field}: {value!r}",
        )
    yield tool(
        "tool.inputSchema.properties/deep-20",
        "inputSchema/properties/q",
        _deep(20),
        "20 nested object levels",
    )
    for sid, value in (
        ("type-array", {"type": "array", "items": {"type": "string"}}),
        ("type-string", {"type": "string"}),
        ("no-type", {"properties": {"n": {"type": "integer"}}}),
        ("root-anyOf", {"anyOf": [{"type": "object"}, {"type": "object", "required": ["n"]}]}),
        ("draft-07", {"$schema": DRAFTS["draft-07"], "type": "object"}),
        (
            "ref-local",
            {
                "type": "object",
                "properties": {"n": {"$ref": "#/$defs/n"}},
                "$defs": {"n": {"type": "integer"}},
            },
        ),
    ):
        yield tool(f"tool.outputSchema/{sid}", "outputSchema", value, f"outputSchema {sid}")


def _deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"x": node}}
    return node
