"""JSON Schema keyword checks: keyword subsets, refused keywords, types, OpenAI strict mode and
nesting, over every subschema the prose walker would enter."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from catalogaudit.model import Catalog, compact, pointer_join
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.checks.common import check, field_targets, json_type
from catalogaudit.rules.checks.schema import JSON_TYPES, SCHEMA_FIELD
from catalogaudit.walker import subschemas


@check(
    "schema-keyword-subset",
    {
        "field": SCHEMA_FIELD,
        "allowed": {"type": "array", "items": {"type": "string"}},
        "per": {
            "enum": ["place", "keyword"],
            "description": "place (default): a hit per offending keyword of each tool; keyword: "
            "one hit per keyword naming every tool that uses it (one cause, one finding: a TS "
            "SDK server puts $schema in all its tools).",
        },
    },
    required=["allowed"],
)
def schema_keyword_subset(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """Every keyword of every (sub)schema must be in `allowed` (Gemini's OpenAPI subset
    rejects the whole request on the first unknown key)."""
    allowed = set(params["allowed"])
    users: dict[str, dict[str, str | None]] = {}  # keyword -> label -> identity
    for item, at, schema in field_targets(
        catalog, {"field": params.get("field", "/inputSchema")}, ("tools",)
    ):
        for node, node_at, _ in subschemas(schema, at):
            for key in node:
                if key in allowed:
                    continue
                if params.get("per") == "keyword":
                    users.setdefault(key, {}).setdefault(item.label, item.identity)
                    continue
                where = pointer_join(node_at, key)
                yield Hit(
                    item, where, f"{item.label}: unsupported keyword {quote(key)}", excerpt=key
                )
    for key, labels in users.items():
        yield Hit(
            None,
            "",
            f"unsupported keyword {quote(key)} in {len(labels)} tool"
            f"{'' if len(labels) == 1 else 's'}: {', '.join(labels)}",
            excerpt=key,
            listing="tools",
            items=tuple(i for i in labels.values() if i is not None),
        )


@check(
    "schema-forbidden-keywords",
    {
        "field": SCHEMA_FIELD,
        "forbidden": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "scope": {"enum": ["root", "nested", "all"]},
    },
    required=["forbidden"],
)
def schema_forbidden_keywords(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """Keywords not allowed at the schema root (`root`), below it (`nested`) or anywhere."""
    forbidden, scope = set(params["forbidden"]), params.get("scope", "all")
    for item, at, schema in field_targets(
        catalog, {"field": params.get("field", "/inputSchema")}, ("tools",)
    ):
        for node, node_at, level in subschemas(schema, at):
            if (scope == "root" and level > 1) or (scope == "nested" and level == 1):
                continue
            for key in node:
                if key in forbidden:
                    where = pointer_join(node_at, key)
                    place = "at the schema root" if level == 1 else f"at {node_at[1:]}"
                    yield Hit(item, where, f"{item.label}: {quote(key)} {place}", excerpt=key)


@check(
    "schema-types",
    {
        "field": SCHEMA_FIELD,
        "requires": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
            "description": "type -> keywords a subschema of that type must have.",
        },
        "allowed_types": {"type": "array", "items": {"type": "string"}},
        "scope": {"enum": ["root", "all"]},
        "properties_are_schemas": {
            "type": "boolean",
            "description": "Every value under `properties` must be a schema (object/boolean).",
        },
        "enum_type": {
            "enum": JSON_TYPES,
            "description": "`enum` only on a subschema whose `type` is this one, with values of "
            "this JSON type (Gemini `parameters`: string).",
        },
        "per": {
            "enum": ["place", "cause"],
            "description": "place (default): a hit per offending subschema; cause: one hit per "
            "cause (array without items, non-string enum...) naming every tool and pointer.",
        },
    },
)
def schema_types(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Per subschema (`scope: all`, default) or the root only: each `type` (string or list)
    must be in `allowed_types`, a subschema of a type listed in `requires` must carry those
    keywords (OpenAI: objects need `properties`, arrays `items`), with
    `properties_are_schemas` every `properties` value must be a schema, and with `enum_type`
    an `enum` must sit on a subschema of that type and hold only values of it."""
    requires = params.get("requires") or {}
    allowed = set(params.get("allowed_types") or JSON_TYPES)
    enum_type = params.get("enum_type")
    users: dict[str, dict[str, list[str]]] = {}
    identities: dict[str, str | None] = {}  # label -> identity
    for item, at, schema in field_targets(
        catalog, {"field": params.get("field", "/inputSchema")}, ("tools",)
    ):
        for node, node_at, level in subschemas(schema, at):
            if params.get("scope") == "root" and level > 1:
                break
            found = list(_type_hits(item, node, node_at, requires, allowed))
            if enum_type is not None:
                found.extend(_enum_hits(item, node, node_at, enum_type))
            props = node.get("properties")
            if params.get("properties_are_schemas") and isinstance(props, dict):
                for key, sub in props.items():
                    if not isinstance(sub, (dict, bool)):
                        where = pointer_join(pointer_join(node_at, "properties"), key)
                        found.append(
                            _Place(
                                Hit(
                                    item,
                                    where,
                                    f"{item.label}: property {quote(key)} is {json_type(sub)}, "
                                    "not a schema",
                                    excerpt=key,
                                ),
                                "a property that is not a schema",
                            )
                        )
            if params.get("per") != "cause":
                yield from (place.hit for place in found)
                continue
            identities[item.label] = item.identity
            for place in found:
                users.setdefault(place.cause, {}).setdefault(item.label, []).append(
                    place.hit.pointer
                )
    for cause, tools in users.items():
        named = "; ".join(f"{label} at {', '.join(where)}" for label, where in tools.items())
        yield Hit(
            None,
            "",
            f"{cause} in {len(tools)} tool{'' if len(tools) == 1 else 's'}: {named}",
            excerpt=cause,
            listing="tools",
            items=tuple(i for label in tools if (i := identities.get(label)) is not None),
        )


@dataclass(frozen=True)
class _Place:
    """One offending subschema and the cause it is grouped under with `per: cause`."""

    hit: Hit
    cause: str


def _type_hits(
    item: Any, node: dict[str, Any], at: str, requires: Mapping[str, Any], allowed: set[str]
) -> Iterator[_Place]:
    kinds = node.get("type")
    listed = kinds if isinstance(kinds, list) else [kinds] if kinds is not None else []
    for kind in listed:
        if not isinstance(kind, str) or kind not in allowed:
            shown = compact(kind)
            where = pointer_join(at, "type")
            yield _Place(
                Hit(item, where, f"{item.label}: unknown type {quote(shown)}", excerpt=shown),
                f"unknown type {shown}",
            )
            continue
        for needed in requires.get(kind, ()):
            if needed not in node:
                place = f"at {at[1:]}" if at.count("/") > 1 else "at the root"
                yield _Place(
                    Hit(
                        item,
                        at,
                        f"{item.label}: {kind} schema {place} has no {needed}",
                        excerpt=f"{kind} without {needed}",
                    ),
                    f"{kind} schema without {needed}",
                )


def _enum_hits(item: Any, node: dict[str, Any], at: str, wanted: str) -> Iterator[_Place]:
    """Gemini's Schema keeps `enum` as strings of a `type: string` schema: a number fails the
    proto parse ("(TYPE_STRING), 1"), another type fails validation ("only allowed for STRING
    type")."""
    values = node.get("enum")
    if not isinstance(values, list):
        return
    where = pointer_join(at, "enum")
    odd = [v for v in values if json_type(v) != wanted]
    if odd:
        shown = compact(odd[0])
        yield _Place(
            Hit(item, where, f"{item.label}: enum at {at[1:]} holds {shown}", excerpt=shown),
            f"enum with non-{wanted} values",
        )
    kinds = node.get("type")
    if kinds != wanted and not (isinstance(kinds, list) and wanted in kinds):
        shown = "no type" if kinds is None else f"type {compact(kinds)}"
        yield _Place(
            Hit(item, where, f"{item.label}: enum at {at[1:]} on {shown}", excerpt=shown),
            f"enum on a schema whose type is not {wanted}",
        )


@check("strict-objects", {"field": SCHEMA_FIELD})
def strict_objects(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """OpenAI strict mode: every object schema needs `additionalProperties: false` and must
    list every property in `required` (optional ones become `type: [T, "null"]`)."""
    for item, at, schema in field_targets(
        catalog, {"field": params.get("field", "/inputSchema")}, ("tools",)
    ):
        for node, node_at, _ in subschemas(schema, at):
            kinds = node.get("type")
            if not (kinds == "object" or (isinstance(kinds, list) and "object" in kinds)):
                continue
            if node.get("additionalProperties") is not False:
                yield Hit(
                    item,
                    pointer_join(node_at, "additionalProperties"),
                    f"{item.label}: object at {node_at[1:]} lacks additionalProperties: false",
                    excerpt="additionalProperties",
                )
            props = node.get("properties")
            required = node.get("required")
            required = required if isinstance(required, list) else []
            for key in props if isinstance(props, dict) else ():
                if key not in required:
                    yield Hit(
                        item,
                        pointer_join(pointer_join(node_at, "properties"), key),
                        f"{item.label}: property {quote(key)} is not in required",
                        excerpt=key,
                    )


@check(
    "schema-nesting-max",
    {"field": SCHEMA_FIELD, "max": {"type": "integer", "minimum": 1}},
    required=["max"],
)
def schema_nesting_max(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Subschema nesting (the root schema is level 1, each property/items/composition
    level adds one) must not exceed `max`; reported once per tool, at the first too-deep
    subschema."""
    limit = int(params["max"])
    for item, at, schema in field_targets(
        catalog, {"field": params.get("field", "/inputSchema")}, ("tools",)
    ):
        for _node, node_at, level in subschemas(schema, at):
            if level > limit:
                yield Hit(
                    item,
                    node_at,
                    f"{item.label}: schema nested {level} levels at {node_at[1:]}, over {limit}",
                    excerpt=str(limit),
                )
                break


@check(
    "schema-nonlocal-ref",
    {"fields": {"type": "array", "items": SCHEMA_FIELD, "minItems": 1}},
)
def schema_nonlocal_ref(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A `$ref` that does not start with `#` in a tool's schemas (default inputSchema and
    outputSchema): an enforcer whose validator never retrieves (ContextForge 1.0.11) cannot
    resolve it, and fails validation closed."""
    for field in params.get("fields") or ("/inputSchema", "/outputSchema"):
        for item, at, schema in field_targets(catalog, {"field": field}, ("tools",)):
            for node, node_at, _ in subschemas(schema, at):
                ref = node.get("$ref")
                if isinstance(ref, str) and not ref.startswith("#"):
                    yield Hit(
                        item,
                        pointer_join(node_at, "$ref"),
                        f"{item.label}: $ref {quote(ref)} at {node_at[1:]} is not local",
                        excerpt=ref,
                    )
