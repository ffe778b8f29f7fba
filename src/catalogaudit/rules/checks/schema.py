"""Shape checks: required fields and types, schema roots, depth, dialect validity, keyword
subsets and the OpenAI schema rules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from catalogaudit.model import (
    Catalog,
    Item,
    compact,
    pointer_of,
    pointer_tokens,
    regex_guarded,
    surely_valid,
)
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.checks.common import (
    FIELD_PARAM,
    LISTINGS_PARAM,
    Path,
    check,
    exact_types,
    field_targets,
    is_date_time,
    is_type,
    items,
    json_type,
    lax_is_type,
    paths,
    select_tokens,
)

JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"]
SCHEMA_FIELD: dict[str, Any] = {"enum": ["/inputSchema", "/outputSchema"]}
ERAS_PARAM: dict[str, Any] = {
    "type": "array",
    "items": {"enum": ["legacy", "modern"]},
    "minItems": 1,
    "description": "Only on a catalog of these eras (modern: 2026-07-28 met through "
    "server/discover); default both.",
}


def era_of(catalog: Catalog) -> str:
    """`modern` for a catalog negotiated at 2026-07-28 or later through server/discover (not a
    handshake-era `initialize` that named it), else `legacy`."""
    proto = catalog.capture.get("protocol")
    if isinstance(proto, dict) and proto.get("handshake") == "initialize":
        return "legacy"
    return "modern" if catalog.revision >= "2026-07-28" else "legacy"


@check(
    "input-schema-object",
    {
        "field": SCHEMA_FIELD,
        "missing": {"enum": ["hit", "skip"]},
        "nullable": {"type": "boolean", "description": "null reads as absent (pydantic)."},
        "eras": ERAS_PARAM,
    },
)
def input_schema_object(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A tool's schema (default `/inputSchema`) must be an object whose `type` is the literal
    `"object"` (what the TS SDK's zod and the Python SDK's pydantic models demand). `missing:
    hit` also reports a tool without the field (default: `hit` for inputSchema, `skip` for
    outputSchema, which is optional). `eras` narrows it to one era's result schemas (the TS
    SDK v2 checks `outputSchema.type` in the handshake era only); `nullable`: null is absent."""
    if era_of(catalog) not in params.get("eras", ("legacy", "modern")):
        return
    field = params.get("field", "/inputSchema")
    missing = params.get("missing", "hit" if field == "/inputSchema" else "skip")
    tokens, nullable = pointer_tokens(field), params.get("nullable")
    for item in catalog.items("tools"):
        found = paths(item.value, tokens)
        if nullable:
            found = [(path, schema) for path, schema in found if schema is not None]
        if not found:
            if missing == "hit":
                yield Hit(item, field, f"{item.label} has no {field[1:]}", excerpt=field[1:])
            continue
        path, schema = found[0]
        kind = schema.get("type") if isinstance(schema, dict) else None
        if kind != "object":
            at = pointer_of(path)
            shown = compact(kind) if isinstance(schema, dict) else json_type(schema)
            yield Hit(
                item,
                at if not isinstance(schema, dict) else at + "/type",
                f'{item.label}: {field[1:]} type is {shown}, not "object"',
                excerpt=shown,
            )


@check(
    "required-field",
    {
        "listings": LISTINGS_PARAM,
        "field": FIELD_PARAM,
        "type": {"enum": JSON_TYPES},
        "parent_optional": {
            "type": "boolean",
            "description": "Skip items whose parent of the field is absent.",
        },
    },
    required=["field"],
)
def required_field(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """The field must be present (and of `type` when given). With `parent_optional`, only
    items that have the parent object are checked (e.g. `additionalProperties` of an
    `inputSchema` that exists). A field under an array wildcard (`/arguments/*/name`) is
    required in every element of that array."""
    field = params["field"]
    parent, _, name = field.rpartition("/")
    tokens, above = pointer_tokens(field), pointer_tokens(parent)
    optional, each = params.get("parent_optional"), parent.endswith("/*")
    wanted = params.get("type")
    passes = exact_types(_named(wanted)) if wanted else frozenset()
    for item in items(catalog, params):
        if optional and not paths(item.value, above):
            continue
        if each:
            # Every element of an array (a non-array there is another check's business).
            for at, array in select_tokens(item.value, above[:-1]):
                for i, element in enumerate(array if isinstance(array, list) else []):
                    if not isinstance(element, dict) or name not in element:
                        where = f"{at}/{i}/{name}"
                        yield Hit(item, where, f"{item.label} has no {where[1:]}", excerpt=name)
        found = paths(item.value, tokens)
        if not found and "*" not in parent:
            yield Hit(item, field, f"{item.label} has no {field[1:]}", excerpt=name)
            continue
        for path, value in found:
            if wanted and type(value) not in passes and not is_type(value, wanted):
                at = pointer_of(path)
                yield Hit(
                    item,
                    at,
                    f"{item.label}: {at[1:]} is {json_type(value)}, not {wanted}",
                    excerpt=json_type(value),
                )


@check(
    "field-type",
    {
        "listings": LISTINGS_PARAM,
        "field": FIELD_PARAM,
        "fields": {"type": "array", "items": FIELD_PARAM, "minItems": 1},
        "type": {"enum": JSON_TYPES},
        "enum": {"type": "array", "minItems": 1},
        "nullable": {
            "type": "boolean",
            "description": "null passes (an optional field decoded as Rust's Option<T>).",
        },
        "minimum": {"type": "number", "description": "A number must be at least this."},
        "lax": {
            "type": "boolean",
            "description": "Types as pydantic's lax mode reads them (a boolean or a whole "
            "float is an integer, 0 and 1 are booleans).",
        },
        "format": {
            "enum": ["date-time"],
            "description": "A string must be an RFC 3339 date-time with seconds and an offset.",
        },
        "eras": ERAS_PARAM,
    },
)
def field_type(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Where a field (`field`, or each of `fields`) is present it must have `type` and, with
    `enum`, one of those values, with `minimum` at least that (typed decoders such as rmcp's
    serde structs or the TS SDK's zod schemas fail on anything else; `nullable`: they read
    null as absent; `lax`: the coercions pydantic's models allow pass; `format`: a string must
    be a date-time); with `eras`, only on a catalog of those eras."""
    if era_of(catalog) not in params.get("eras", ("legacy", "modern")):
        return
    wanted, allowed, least = params.get("type"), params.get("enum"), params.get("minimum")
    typed = lax_is_type if params.get("lax") else is_type
    nullable, date_time = params.get("nullable"), params.get("format")
    # NOTE: with a type alone, a value of that type (or a number for "number") passes without
    # the tests below; every other value (a subclass too) takes them as before.
    fast = bool(wanted) and allowed is None and least is None and not date_time
    passes = exact_types(_named(wanted)) if fast else frozenset()
    fields = [pointer_tokens(field) for field in params.get("fields") or [params["field"]]]
    # NOTE: each item is walked once for all the fields (its members are read while near in
    # memory, not once per field over every item); what the tests below read is kept per
    # field, so the hits come field by field, each field's in item order, as before
    tested: list[list[tuple[Item, Path, Any]]] = [[] for _ in fields]
    every = range(len(fields))
    for item in items(catalog, params):
        value = item.value
        for n in every:
            for path, found in paths(value, fields[n]):
                if not (type(found) in passes or found is None and nullable):
                    tested[n].append((item, path, found))
    for item, path, value in (one for kept in tested for one in kept):
        at = pointer_of(path)
        if wanted and not typed(value, wanted):
            yield Hit(
                item,
                at,
                f"{item.label}: {at[1:]} is {json_type(value)}, not {wanted}",
                excerpt=json_type(value),
            )
        elif date_time and isinstance(value, str) and not is_date_time(value):
            shown = compact(value)
            yield Hit(
                item, at, f"{item.label}: {at[1:]} {quote(shown)} is not a date-time", excerpt=shown
            )
        elif allowed is not None and value not in allowed:
            shown = compact(value)
            yield Hit(item, at, f"{item.label}: {at[1:]} is {quote(shown)}", excerpt=shown)
        elif least is not None and is_type(value, "number") and value < least:
            shown = compact(value)
            yield Hit(item, at, f"{item.label}: {at[1:]} is {shown}, below {least}", excerpt=shown)


def _named(wanted: Any) -> tuple[str, ...]:
    """The JSON type names `is_type(value, wanted)` accepts."""
    return (str(wanted), "integer") if wanted == "number" else (str(wanted),)


def depth(value: Any) -> int:
    """Nesting depth of containers, the root container counting 1 (scalars 0)."""
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


@check(
    "json-depth",
    {
        "listings": LISTINGS_PARAM,
        "fields": {"type": "array", "items": FIELD_PARAM, "minItems": 1},
        "max": {"type": "integer", "minimum": 1},
    },
    required=["fields", "max"],
)
def json_depth(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Nested dict/list containers of each field, root = 1 (ContextForge's
    `validate_json_depth`): every nested object property costs two levels."""
    limit = int(params["max"])
    fields = [pointer_tokens(field) for field in params["fields"]]
    for item in items(catalog, params):
        for tokens in fields:
            for at, value in select_tokens(item.value, tokens):
                n = depth(value)
                if n > limit:
                    yield Hit(
                        item,
                        at,
                        f"{item.label}: {at[1:]} is nested {n} levels deep, over {limit}",
                        excerpt=str(n),
                    )


DIALECTS = {
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}


@check(
    "meta-schema-valid",
    {
        "field": SCHEMA_FIELD,
        "dialect": {"enum": ["draft-07", "2020-12", "auto"]},
        "default": {"enum": ["draft-07", "2020-12"]},
        "formats": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Formats the meta-schema's `format` keywords are checked for, as "
            "a validator with a format checker does (e.g. `regex`: every `pattern` compiles).",
        },
    },
)
def meta_schema_valid(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """The schema must validate against its dialect's meta-schema (jsonschema's validator for
    `dialect`, or with `auto` the one its `$schema` names, else `default`), each violation
    reported at its pointer; with `formats`, the meta-schema's `format` keywords of those
    names are asserted too (jsonschema's own checkers)."""
    import jsonschema  # lazy: only profiles that check dialects pay for it

    field = params.get("field", "/inputSchema")
    dialect = params.get("dialect", "auto")
    for item, at, schema in field_targets(catalog, {"field": field}, ("tools",)):
        if not isinstance(schema, (dict, bool)):
            continue
        if dialect == "auto":
            default = jsonschema.validators.validator_for(
                {"$schema": DIALECTS[params.get("default", "2020-12")]}
            )
            # NOTE: a `$schema` that is not a string names no dialect (jsonschema's lookup
            # raises on it): the default's meta-schema says why it is invalid.
            named = schema.get("$schema", "") if isinstance(schema, dict) else ""
            cls = (
                jsonschema.validators.validator_for(schema, default=default)
                if isinstance(named, str)
                else default
            )
        else:
            cls = jsonschema.validators.validator_for({"$schema": DIALECTS[dialect]})
        formats = tuple(params.get("formats") or ())
        if surely_valid(cls.META_SCHEMA["$schema"], schema, formats):
            continue  # NOTE: valid for python-jsonschema too, without its walk
        checker = regex_guarded(jsonschema.FormatChecker(formats)) if formats else None
        meta = cls(cls.META_SCHEMA, format_checker=checker)
        errors = sorted(meta.iter_errors(schema), key=lambda e: [str(p) for p in e.absolute_path])
        for err in errors:
            where = pointer_of(err.absolute_path, at)
            yield Hit(
                item,
                where,
                f"{item.label}: {where[1:]} is not a valid schema: {err.message[:120]}",
                excerpt=err.message[:80],
            )
