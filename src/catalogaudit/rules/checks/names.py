"""Name and URI checks: qualified-name budgets, collisions after a client's renaming, reserved
names, URI character sets, MIME allow-lists and property-key patterns."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from urllib.parse import unquote

from catalogaudit.model import IDENTITY, Catalog, pointer_join
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.checks.common import (
    FIELD_PARAM,
    LISTINGS_PARAM,
    check,
    field_targets,
    items,
)
from catalogaudit.walker import subschemas


def cf_slug(text: str) -> str:
    """ContextForge's `slugify`: ASCII-fold, lower-case, every run of non-alphanumerics
    (including `_`) becomes `-`, stripped at the ends (`mcpgateway/utils/create_slug.py`)."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


#: Renamings clients and gateways apply to names before using them (see compat-rules.md).
TRANSFORMS: dict[str, Callable[[str], str]] = {
    "none": lambda s: s,
    "casefold": str.casefold,
    "trim": str.strip,
    "cf-slug": cf_slug,
    # Codex `mcp_tool_names.rs`: both parts sanitized to [A-Za-z0-9_], an empty one to `_`.
    "codex": lambda s: re.sub(r"[^A-Za-z0-9_]", "_", s) or "_",
    # opencode v1, Claude Code: anything outside [A-Za-z0-9_-] becomes `_`.
    "underscore-invalid": lambda s: re.sub(r"[^A-Za-z0-9_-]", "_", s),
    # Gemini CLI `generateValidName`: outside [A-Za-z0-9_.:-] becomes `_` (gemini-cli#20987).
    "gemini-cli": lambda s: re.sub(r"[^A-Za-z0-9_.:-]", "_", s),
    # VS Code `McpToolName`: invalid characters to `_`, then sliced to 64.
    "vscode-id": lambda s: re.sub(r"[^A-Za-z0-9_-]", "_", s)[:64],
}
TRANSFORM_PARAM: dict[str, Any] = {"enum": sorted(TRANSFORMS)}


def _length(text: str, unit: str) -> int:
    return len(text.encode("utf-8", "surrogatepass")) if unit == "bytes" else len(text)


def prefix_name(
    params: Mapping[str, Any], ctx: Context, catalog: Catalog | None = None
) -> tuple[str | None, bool]:
    """The server or gateway name a qualified-name check uses, and whether it was assumed:
    a setting or the CLI (`--server-name`) first; else, for a server prefix, the server's own
    `serverInfo.name`, what users most often call it (assumed, so every hit says so)."""
    setting = params.get("name_setting")
    if setting and isinstance(ctx.settings.get(setting), str) and ctx.settings[setting]:
        return str(ctx.settings[setting]), False
    if params.get("prefix") == "gateway":
        return ctx.gateway_name, False
    if ctx.server_name is not None or catalog is None:
        return ctx.server_name, False
    info = catalog.capture.get("serverInfo")
    name = info.get("name") if isinstance(info, dict) else None
    return (name, True) if isinstance(name, str) and name.strip() else (None, False)


@check(
    "qualified-name-length",
    {
        "listings": LISTINGS_PARAM,
        "format": {"type": "string", "pattern": "\\{tool\\}"},
        "prefix": {"enum": ["server", "gateway"]},
        "name_setting": {"type": "string", "description": "Setting that names the prefix."},
        "transform": TRANSFORM_PARAM,
        "max": {"type": "integer", "minimum": 1},
        "unit": {"enum": ["chars", "bytes"]},
        "min_prefix": {"type": "integer", "minimum": 0},
        "unknown_upto": {
            "type": "integer",
            "minimum": 1,
            "description": "Makes the clause the unknown-prefix budget: it runs only when the "
            "prefix name is not given, and reports names that fit a `min_prefix`-character "
            "prefix but overflow with one of at most this many characters, naming the "
            "prefix lengths that break them.",
        },
        "action": {"enum": ["reject", "hash", "filter"]},
        "raw_max": {
            "type": "integer",
            "minimum": 1,
            "description": "Names longer than this (whitespace-stripped) are refused earlier by "
            "another clause and never reach this limit (ContextForge's validator before its "
            "database listener).",
        },
    },
    required=["format", "max"],
)
def qualified_name_length(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """`format` (with `{prefix}` and `{tool}`) after `transform` of both parts must fit in
    `max`. The prefix is the server name (`--server-name`, else the capture's
    `serverInfo.name`, said in a note and every hit) or gateway name; when unknown, a
    `min_prefix`-character name is assumed (default 1), so only names that overflow any
    real prefix are reported; a clause with `unknown_upto` reports the rest by the prefix
    lengths that break them (`_budget_hits`)."""
    fn = TRANSFORMS[params.get("transform", "none")]
    known, assumed_from_server = prefix_name(params, ctx, catalog)
    if "unknown_upto" in params:
        if known is None:
            yield from _budget_hits(catalog, params, fn)
        return
    if assumed_from_server:
        yield Hit(
            None,
            "/capture/serverInfo/name",
            f"no --server-name: qualified names are checked with the server's own name "
            f"{quote(str(known))} (serverInfo.name); pass --server-name for the name your "
            "clients know it by; where a name is too long",
            excerpt=str(known),
            note=True,
        )
    prefix = fn(known) if known is not None else "x" * int(params.get("min_prefix", 1))
    unit, limit = params.get("unit", "chars"), int(params["max"])
    kind = params.get("prefix", "server")
    for item in items(catalog, params, ("tools",)):
        name = item.value.get("name") if isinstance(item.value, dict) else None
        if not isinstance(name, str) or len(name.strip()) > params.get("raw_max", len(name)):
            continue
        qualified = params["format"].replace("{prefix}", prefix).replace("{tool}", fn(name))
        n = _length(qualified, unit)
        if n <= limit:
            continue
        shown = params["format"].replace("{prefix}", prefix if known is not None else f"<{kind}>")
        shown = shown.replace("{tool}", fn(name))
        assumed = (
            f" (server name {quote(str(known))} assumed from serverInfo.name; pass "
            "--server-name if clients know it by another)"
            if assumed_from_server
            else ""
            if known is not None
            else f" even with a {len(prefix)}-character {kind} name (pass --{kind}-name)"
        )
        yield Hit(
            item,
            "/name",
            f"{item.label}: qualified name {quote(shown)} is {n} {unit}, over {limit}{assumed}",
            excerpt=name,
        )


def _budget_hits(
    catalog: Catalog, params: Mapping[str, Any], fn: Callable[[str], str]
) -> Iterator[Hit]:
    """Names whose qualified form overflows `max` with a prefix of more than `min_prefix`
    but at most `unknown_upto` characters (a transformed prefix is ASCII, one byte each)."""
    unit, limit = params.get("unit", "chars"), int(params["max"])
    kind = params.get("prefix", "server")
    floor, upto = int(params.get("min_prefix", 1)), int(params["unknown_upto"])
    for item in items(catalog, params, ("tools",)):
        name = item.value.get("name") if isinstance(item.value, dict) else None
        if not isinstance(name, str) or len(name.strip()) > params.get("raw_max", len(name)):
            continue
        shown = params["format"].replace("{prefix}", f"<{kind}>").replace("{tool}", fn(name))
        rest = _length(params["format"].replace("{prefix}", "").replace("{tool}", fn(name)), unit)
        breaks = limit - rest + 1  # the shortest prefix that overflows
        if not floor < breaks <= upto:
            continue
        yield Hit(
            item,
            "/name",
            f"{item.label}: qualified name {quote(shown)} is over {limit} {unit} with a {kind} "
            f"name of {breaks} or more characters (it fits one of at most {breaks - 1}; pass "
            f"--{kind}-name to check yours)",
            excerpt=name,
        )


@check(
    "name-collision",
    {
        "listings": LISTINGS_PARAM,
        "field": FIELD_PARAM,
        "transform": TRANSFORM_PARAM,
        "distinct_only": {
            "type": "boolean",
            "description": "Only names that differ before the transform (exact duplicates are "
            "another clause's business).",
        },
    },
)
def name_collision(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Two items of one listing whose names (`field`, default the identity) are equal after
    `transform` (`none`: plain duplicates). Every item after the first is reported."""
    fn = TRANSFORMS[params.get("transform", "none")]
    for listing in params.get("listings") or ("tools",):
        field = params.get("field") or "/" + IDENTITY[listing]
        first: dict[str, str] = {}
        raw: dict[str, set[str]] = {}
        for item, at, value in field_targets(catalog, {"field": field}, (listing,)):
            if not isinstance(value, str):
                continue
            key = fn(value)
            if key not in first:
                first[key] = item.label
                raw[key] = {value}
                continue
            if params.get("distinct_only") and value in raw[key]:
                continue
            raw[key].add(value)
            how = "is a duplicate of" if key == value else f"becomes {quote(key)}, as does"
            yield Hit(item, at, f"{item.label}: {at.lstrip('/')} {how} {first[key]}", excerpt=key)


@check(
    "reserved-names",
    {
        "listings": LISTINGS_PARAM,
        "field": FIELD_PARAM,
        "names": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "transform": {"type": "string", "enum": sorted(TRANSFORMS)},
    },
    required=["names"],
)
def reserved_names(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A name the enforcer keeps for itself (exact, case-sensitive match), after the
    enforcer's own renaming (`transform`) when it compares renamed names."""
    reserved = set(params["names"])
    fix = TRANSFORMS[params.get("transform", "none")]
    for item, at, value in field_targets(
        catalog, {"field": params.get("field", "/name"), **params}, ("tools",)
    ):
        if not isinstance(value, str) or fix(value) not in reserved:
            continue
        name = quote(fix(value))
        how = "is" if fix(value) == value else f"becomes {name},"
        yield Hit(item, at, f"{item.label}: {quote(value)} {how} a reserved name", excerpt=value)


_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*:)(//[^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?\Z", re.DOTALL)
_PATH_ENCODE = {c: f"%{ord(c):02X}" for c in ' "<>`{}'}


def _remove_dots(path: str) -> str:
    out: list[str] = []
    segments = path.split("/")
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg in (".", "%2e", "%2E"):
            if last:
                out.append("")
            continue
        if seg in ("..", ".%2e", "%2e.", "%2e%2e", ".%2E", "%2E.", "%2E%2E"):
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
            continue
        out.append(seg)
    return "/".join(out)


def anyurl(uri: str) -> str:
    """Approximately what the MCP SDK's `AnyUrl` (WHATWG URL parsing) makes of a URI with an
    authority: dot segments removed, space, quotes, `<>`, backtick and braces percent-encoded
    in the path. Opaque URIs (`note:a/../b`) are left alone, as WHATWG does."""
    m = _URL.match(uri)
    if m is None:
        return uri
    scheme, authority, path, query, fragment = m.groups()
    path = "".join(_PATH_ENCODE.get(c, c) for c in _remove_dots(path))
    return scheme + authority + path + (query or "") + (fragment or "")


@check(
    "uri-charset",
    {
        "listings": LISTINGS_PARAM,
        "allowed": {"type": "string", "format": "regex", "description": "Character class"},
        "forbid_dotdot": {"type": "boolean"},
        "decode_dotdot": {"type": "boolean", "description": "Percent-decode once first."},
        "max_length": {"type": "integer", "minimum": 1},
        "double_encoding": {"type": "boolean"},
        "normalize": {"enum": ["none", "anyurl"], "description": "Applies to resources."},
    },
    required=["allowed"],
)
def uri_charset(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A resource `uri` or template `uriTemplate` must consist of `allowed` characters, with
    optional `..`, length and double-encoding tests. With `normalize: anyurl` resource URIs are
    first normalized the way the MCP SDK does before a gateway sees them."""
    allowed = re.compile(params["allowed"])
    defaults = ("resources", "resourceTemplates")
    for listing in params.get("listings") or defaults:
        field = "/" + IDENTITY[listing]
        for item, at, value in field_targets(catalog, {"field": field}, (listing,)):
            if not isinstance(value, str):
                continue
            uri = value
            if listing == "resources" and params.get("normalize") == "anyurl":
                uri = anyurl(value)
            yield from _uri_hits(item, at, uri, allowed, params)


def _uri_hits(
    item: Any, at: str, uri: str, allowed: re.Pattern[str], params: Mapping[str, Any]
) -> Iterator[Hit]:
    what = f"{item.label}: {at.lstrip('/')}"
    bad = "".join(dict.fromkeys(c for c in uri if not allowed.fullmatch(c)))
    if bad:
        yield Hit(item, at, f"{what} {quote(uri)} has characters {quote(bad)}", excerpt=bad)
    decoded = unquote(uri) if params.get("decode_dotdot") else uri
    if params.get("forbid_dotdot") and ".." in decoded:
        yield Hit(item, at, f"{what} {quote(uri)} contains '..'", excerpt="..")
    limit = params.get("max_length")
    if limit is not None and len(uri) > limit:
        yield Hit(item, at, f"{what} is {len(uri)} chars, over {limit}", excerpt=uri[limit:])
    if params.get("double_encoding") and re.search(r"%[0-9A-Fa-f]{2}", unquote(uri)):
        yield Hit(item, at, f"{what} {quote(uri)} is double percent-encoded", excerpt=uri)


@check(
    "mime-allowlist",
    {
        "listings": LISTINGS_PARAM,
        "allowed": {"type": "array", "items": {"type": "string"}},
        "prefixes": {"type": "array", "items": {"type": "string"}},
        "allow_suffix": {"type": "boolean", "description": "Accept any type containing '+'."},
        "empty_absent": {"type": "boolean", "description": "An empty mimeType reads as none."},
    },
    required=["allowed"],
)
def mime_allowlist(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """`mimeType` (parameters after `;` ignored, case-insensitive) must be syntactically a
    type/subtype and be listed, start with an allowed prefix, or (with `allow_suffix`)
    contain `+` (structured syntax suffixes such as `+json`); with `empty_absent`, "" passes
    (ContextForge tests the value's truth before validating it)."""
    allowed = {a.lower() for a in params["allowed"]}
    prefixes = tuple(p.lower() for p in params.get("prefixes", ()))
    syntax = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*")
    for item, at, value in field_targets(catalog, {"field": "/mimeType", **params}, ("resources",)):
        if not isinstance(value, str) or (value == "" and params.get("empty_absent")):
            continue
        base = value.split(";", 1)[0].strip().lower()
        ok = syntax.fullmatch(base) is not None and (
            base in allowed
            or base.startswith(prefixes)
            or (bool(params.get("allow_suffix")) and "+" in base)
        )
        if not ok:
            yield Hit(
                item, at, f"{item.label}: mimeType {quote(value)} is not allowed", excerpt=value
            )


@check(
    "property-key-regex",
    {
        "field": FIELD_PARAM,
        "pattern": {"type": "string", "format": "regex"},
        "scope": {"enum": ["top", "all"]},
        "expect": {"type": "string"},
    },
    required=["pattern"],
)
def property_key_regex(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Keys of `properties` in a tool's schema (default `/inputSchema`) must fully match
    `pattern`: only the root object's keys (`scope: top`, what the Anthropic API checks) or
    every nested object's too (`all`)."""
    rx = re.compile(params["pattern"])
    expect = params.get("expect") or f"/{params['pattern']}/"
    field = params.get("field", "/inputSchema")
    for item, at, schema in field_targets(catalog, {"field": field}, ("tools",)):
        nodes = subschemas(schema, at)
        for node, node_at, _ in nodes:
            props = node.get("properties")
            if isinstance(props, dict):
                for key in props:
                    if rx.fullmatch(key) is None:
                        where = pointer_join(pointer_join(node_at, "properties"), key)
                        yield Hit(
                            item,
                            where,
                            f"{item.label}: property name {quote(key)} does not match {expect}",
                            excerpt=key,
                        )
            if params.get("scope", "top") == "top":
                break
