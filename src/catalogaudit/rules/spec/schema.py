"""Spec rules about names, identities and JSON Schemas of tools (CA1xx, CA4xx)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from catalogaudit.model import IDENTITY, LISTINGS, NOT_PLAIN, Catalog, pointer_of
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.spec.common import at_least, hit, may_hold
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


def tool_names(catalog: Catalog, ctx: Context, early: bool = False) -> Iterator[Hit]:
    """CA101: tool names outside 1-128 of [A-Za-z0-9._-] (a SHOULD from 2025-11-25); CA103
    (`early`): the same names in a session of an earlier revision, which had no such rule yet
    (advice: clients of later revisions will meet the name)."""
    if at_least(catalog.revision, "2025-11-25") == early:
        return
    for item in catalog.items("tools"):
        name = item.value.get("name") if isinstance(item.value, dict) else None
        if isinstance(name, str) and not TOOL_NAME.match(name):
            why = "has characters outside A-Z a-z 0-9 _ - ." if name else "is empty"
            why = f"is {len(name)} characters" if len(name) > 128 else why
            yield hit(item, "/name", f"the name {why}", name)


def duplicates(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA102: two items of one listing share an identity (name, uri or uriTemplate)."""
    for listing in LISTINGS:
        seen: dict[str | None, int] = defaultdict(int)
        field = IDENTITY[listing]
        for item in catalog.items(listing):
            seen[item.identity] += 1
            if item.identity is not None and seen[item.identity] == 2:
                why = f"{field} served more than once in {listing}"
                yield hit(item, "/" + field, why, item.identity)


def input_schema_object(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA401: `inputSchema` missing, not an object, or its root `type` is not "object"."""
    for item in catalog.items("tools"):
        tool = item.value
        if not isinstance(tool, dict):
            continue
        schema = tool.get("inputSchema")
        if not isinstance(schema, dict):
            what = "missing" if "inputSchema" not in tool else f"a {type(schema).__name__}"
            yield hit(item, "/inputSchema", f"inputSchema is {what}")
        elif schema.get("type") != "object":
            got = schema.get("type")
            at = "/inputSchema/type" if "type" in schema else "/inputSchema"
            yield hit(item, at, f'inputSchema root type is {got!r}, not "object"', str(got))


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
            why = f'outputSchema root type is {got!r}; {catalog.revision} requires "object"'
            yield hit(item, "/outputSchema", why, str(got))


def _schemas(catalog: Catalog) -> Iterator[tuple[Any, str, Any]]:
    for item in catalog.items("tools"):
        for key in ("inputSchema", "outputSchema") if isinstance(item.value, dict) else ():
            if isinstance(schema := item.value.get(key), dict):
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
        whole = item.plain  # NOTE: copied for CA610 too; None: `schema` is copied alone
        copy = None if whole is NOT_PLAIN else whole[at[1:]]
        exc = first_schema_error(name, schema, copy, item.keys, at)
        if exc is not None:
            why = f"{at[1:]} is not a valid {name[:-9]} schema: {exc.message}"
            yield hit(item, at + pointer_of(exc.absolute_path), why, str(exc.instance)[:200])


def dialect_known(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA407: a `$schema` naming a dialect no validator here knows (so CA403 cannot check it)."""
    for item, at, schema in _schemas(catalog):
        declared = schema.get("$schema")
        if declared is not None and dialect(str(declared)) is None:
            why = f"unknown JSON Schema dialect {quote(str(declared))}"
            yield hit(item, at + "/$schema", why, str(declared))


def required_declared(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA404: `required` names a property that `properties` does not declare."""
    for item, at, schema in _schemas(catalog):
        for sub, sub_at, _ in schema_nodes(schema, at):
            required, props = sub.get("required"), sub.get("properties")
            if not isinstance(required, list) or not isinstance(props, dict):
                continue
            for i, name in enumerate(required):
                if isinstance(name, str) and name not in props:
                    why = f"required property {quote(name)} is not in properties"
                    yield hit(item, f"{sub_at}/required/{i}", why, name)


def network_refs(catalog: Catalog, ctx: Context, modern: bool = False) -> Iterator[Hit]:
    """CA405: `$ref` to a network URI in a session before 2026-07-28 (advice); CA408 (`modern`)
    in a 2026-07-28 session, where clients MUST NOT auto-dereference it."""
    if catalog.modern != modern:
        return
    for item, at, schema in _schemas(catalog):
        if not may_hold(schema, "$ref", item):
            continue
        for sub, sub_at, _ in schema_nodes(schema, at):
            ref = sub.get("$ref")
            if isinstance(ref, str) and NETWORK_REF.match(ref):
                why = f"$ref {quote(ref)} points at the network"
                yield hit(item, sub_at + "/$ref", why, ref)


def x_mcp_header(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA406: x-mcp-header rules of 2026-07-28; HTTP clients MUST drop tools that break them."""
    if not catalog.modern:
        return
    for item in catalog.items("tools"):
        schema = item.value.get("inputSchema") if isinstance(item.value, dict) else None
        if not isinstance(schema, dict) or not may_hold(schema, "x-mcp-header", item):
            continue
        reachable = set(_property_chain(schema, "/inputSchema"))
        seen: dict[str, str] = {}
        for sub, at, _ in subschemas(schema, "/inputSchema"):
            if "x-mcp-header" not in sub:
                continue
            value, ptr = sub["x-mcp-header"], at + "/x-mcp-header"
            if not isinstance(value, str) or not TOKEN.match(value):
                why = f"x-mcp-header {quote(str(value))} is not an RFC 9110 token"
                yield hit(item, ptr, why, str(value))
                continue
            kind, low = sub.get("type"), value.lower()
            for problem in (
                low in seen
                and f"x-mcp-header {quote(value)} repeats {seen[low]} (case-insensitive)",
                kind not in ("string", "integer", "boolean")
                and f"x-mcp-header on a {kind!r} property; only string, integer and boolean "
                "are allowed",
                at not in reachable
                and "x-mcp-header property is not reachable through properties alone",
            ):
                if problem:
                    yield hit(item, ptr, problem, value)
            seen.setdefault(low, at)


def _property_chain(schema: dict[str, Any], at: str) -> Iterator[str]:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    for name, sub in props.items():
        sub_at = pointer_of(("properties", name), at)
        yield sub_at
        if isinstance(sub, dict):
            yield from _property_chain(sub, sub_at)
