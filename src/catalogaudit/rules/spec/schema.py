"""Spec rules about names, identities and JSON Schemas of tools (CA1xx, CA4xx)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from catalogaudit.model import IDENTITY, LISTINGS, Catalog, pointer_of
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.spec.common import at_least, may_hold
from catalogaudit.rules.spec.metaschema import first_schema_error
from catalogaudit.walker import schema_nodes, subschemas

#: P:2025-11-25/server/tools "Tool Names" (SHOULD): 1-128 of A-Z a-z 0-9 _ - .
TOOL_NAME = re.compile(r"[A-Za-z0-9._-]{1,128}\Z")
#: RFC 9110 token (tchar) for x-mcp-header values (P:2026-07-28/server/tools#x-mcp-header).
TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")
NETWORK_REF = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
DIALECTS = {
    "json-schema.org/draft-04/schema": "Draft4Validator",
    "json-schema.org/draft-06/schema": "Draft6Validator",
    "json-schema.org/draft-07/schema": "Draft7Validator",
    "json-schema.org/draft/2019-09/schema": "Draft201909Validator",
    "json-schema.org/draft/2020-12/schema": "Draft202012Validator",
}


@lru_cache(maxsize=256)
def dialect(declared: str) -> str | None:
    """The jsonschema validator class name for a `$schema` URI (scheme and `#` ignored); kept
    (CA403 and CA407 ask it of every schema, nearly always of the same few URIs)."""
    return DIALECTS.get(re.sub(r"^https?://", "", declared).rstrip("#"))


def tool_names(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA101: tool names outside 1-128 of [A-Za-z0-9._-] (a SHOULD from 2025-11-25)."""
    if at_least(catalog.revision, "2025-11-25"):
        yield from _bad_tool_names(catalog)


def tool_names_early(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA103: the same names in a session of a revision before 2025-11-25, which had no such
    rule yet (advice: clients of later revisions will meet the name)."""
    if not at_least(catalog.revision, "2025-11-25"):
        yield from _bad_tool_names(catalog)


def _bad_tool_names(catalog: Catalog) -> Iterator[Hit]:
    for item in catalog.items("tools"):
        name = item.value.get("name") if isinstance(item.value, dict) else None
        if not isinstance(name, str):
            continue
        if not TOOL_NAME.match(name):
            why = (
                "is empty"
                if not name
                else (
                    f"is {len(name)} characters"
                    if len(name) > 128
                    else "has characters outside A-Z a-z 0-9 _ - ."
                )
            )
            yield Hit(item, "/name", f"{item.label}: the name {why}", name)


def duplicates(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA102: two items of one listing share an identity (name, uri or uriTemplate)."""
    for listing in LISTINGS:
        seen: dict[str, int] = defaultdict(int)
        for item in catalog.items(listing):
            if item.identity is None:
                continue
            seen[item.identity] += 1
            if seen[item.identity] == 2:
                field = IDENTITY[listing]
                yield Hit(
                    item,
                    "/" + field,
                    f"{item.label}: {field} served more than once in {listing}",
                    item.identity,
                )


def input_schema_object(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA401: `inputSchema` missing, not an object, or its root `type` is not "object"."""
    for item in catalog.items("tools"):
        tool = item.value
        if not isinstance(tool, dict):
            continue
        schema = tool.get("inputSchema")
        if not isinstance(schema, dict):
            what = "missing" if "inputSchema" not in tool else f"a {type(schema).__name__}"
            yield Hit(item, "/inputSchema", f"{item.label}: inputSchema is {what}")
        elif schema.get("type") != "object":
            got = schema.get("type")
            yield Hit(
                item,
                "/inputSchema/type" if "type" in schema else "/inputSchema",
                f'{item.label}: inputSchema root type is {got!r}, not "object"',
                str(got),
            )


def output_schema_object(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA402: `outputSchema` not object-rooted where the revision requires it (before 2026)."""
    if at_least(catalog.revision, "2026-07-28"):
        return
    for item in catalog.items("tools"):
        schema = item.value.get("outputSchema") if isinstance(item.value, dict) else None
        if schema is None:
            continue
        if not isinstance(schema, dict) or schema.get("type") != "object":
            got = schema.get("type") if isinstance(schema, dict) else type(schema).__name__
            yield Hit(
                item,
                "/outputSchema",
                f"{item.label}: outputSchema root type is {got!r}; {catalog.revision} requires "
                '"object"',
                str(got),
            )


def _schemas(catalog: Catalog) -> Iterator[tuple[Any, str, Any]]:
    for item in catalog.items("tools"):
        if not isinstance(item.value, dict):
            continue
        for key in ("inputSchema", "outputSchema"):
            schema = item.value.get(key)
            if isinstance(schema, dict):
                yield item, "/" + key, schema


def dialect_valid(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA403: a schema that is not valid for its dialect (`$schema`, default by revision)."""
    default = (
        "https://json-schema.org/draft/2020-12/schema"
        if at_least(catalog.revision, "2025-11-25")
        else "http://json-schema.org/draft-07/schema#"
    )
    for item, at, schema in _schemas(catalog):
        declared = schema.get("$schema", default)
        name = dialect(str(declared))
        if name is None:
            continue  # CA407
        exc = first_schema_error(name, schema)
        if exc is not None:
            where = pointer_of(exc.absolute_path)
            yield Hit(
                item,
                at + where,
                f"{item.label}: {at[1:]} is not a valid {name[:-9]} schema: {exc.message}",
                str(exc.instance)[:200],
            )


def dialect_known(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA407: a `$schema` naming a dialect no validator here knows (so CA403 cannot check it)."""
    for item, at, schema in _schemas(catalog):
        declared = schema.get("$schema")
        if declared is not None and dialect(str(declared)) is None:
            yield Hit(
                item,
                at + "/$schema",
                f"{item.label}: unknown JSON Schema dialect {quote(str(declared))}",
                str(declared),
            )


def required_declared(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA404: `required` names a property that `properties` does not declare."""
    for item, at, schema in _schemas(catalog):
        for sub, sub_at, _ in schema_nodes(schema, at):
            required = sub.get("required")
            props = sub.get("properties")
            if not isinstance(required, list) or not isinstance(props, dict):
                continue
            for i, name in enumerate(required):
                if isinstance(name, str) and name not in props:
                    yield Hit(
                        item,
                        f"{sub_at}/required/{i}",
                        f"{item.label}: required property {quote(name)} is not in properties",
                        name,
                    )


def network_refs(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA405: `$ref` to a network URI in a session before 2026-07-28 (advice)."""
    if not catalog.modern:
        yield from _network_refs(catalog)


def network_refs_modern(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA408: `$ref` to a network URI in a 2026-07-28 session, where clients MUST NOT
    auto-dereference it."""
    if catalog.modern:
        yield from _network_refs(catalog)


def _network_refs(catalog: Catalog) -> Iterator[Hit]:
    for item, at, schema in _schemas(catalog):
        if not may_hold(schema, "$ref"):
            continue
        for sub, sub_at, _ in schema_nodes(schema, at):
            ref = sub.get("$ref")
            if isinstance(ref, str) and NETWORK_REF.match(ref):
                yield Hit(
                    item,
                    sub_at + "/$ref",
                    f"{item.label}: $ref {quote(ref)} points at the network",
                    ref,
                )


def x_mcp_header(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA406: x-mcp-header rules of 2026-07-28; HTTP clients MUST drop tools that break them."""
    if not catalog.modern:
        return
    for item in catalog.items("tools"):
        schema = item.value.get("inputSchema") if isinstance(item.value, dict) else None
        if not isinstance(schema, dict):
            continue
        if not may_hold(schema, "x-mcp-header"):
            continue
        reachable = set(_property_chain(schema, "/inputSchema"))
        seen: dict[str, str] = {}
        for sub, at, _ in subschemas(schema, "/inputSchema"):
            if "x-mcp-header" not in sub:
                continue
            value = sub["x-mcp-header"]
            ptr = at + "/x-mcp-header"
            if not isinstance(value, str) or not TOKEN.match(value):
                yield Hit(
                    item,
                    ptr,
                    f"{item.label}: x-mcp-header {quote(str(value))} is not an RFC 9110 token",
                    str(value),
                )
                continue
            if value.lower() in seen:
                yield Hit(
                    item,
                    ptr,
                    f"{item.label}: x-mcp-header {quote(value)} repeats "
                    f"{seen[value.lower()]} (case-insensitive)",
                    value,
                )
            seen.setdefault(value.lower(), at)
            kind = sub.get("type")
            if kind not in ("string", "integer", "boolean"):
                yield Hit(
                    item,
                    ptr,
                    f"{item.label}: x-mcp-header on a {kind!r} property; only "
                    "string, integer and boolean are allowed",
                    value,
                )
            if at not in reachable:
                yield Hit(
                    item,
                    ptr,
                    f"{item.label}: x-mcp-header property is not reachable "
                    "through properties alone",
                    value,
                )


def _property_chain(schema: dict[str, Any], at: str) -> Iterator[str]:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    for name, sub in props.items():
        sub_at = pointer_of(("properties", name), at)
        yield sub_at
        if isinstance(sub, dict):
            yield from _property_chain(sub, sub_at)
