"""Spec rules over whole pages and the catalog: the official MCP schema, 2026-07-28 page fields,
prompt-cache hazards and instability (CA6xx, CA7xx)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache, partial
from importlib import resources
from typing import Any

from catalogaudit.model import (
    CUT,
    LISTINGS,
    MAX_DEPTH,
    NOT_PLAIN,
    Catalog,
    Item,
    compact,
    cut_deep,
    is_integer_lexeme,
    pointer_of,
    stand_ins,
    validator,
    value_depth,
    written,
)
from catalogaudit.model import plain as validation_plain
from catalogaudit.rules.base import Context, Hit, quote
from catalogaudit.rules.spec.common import REVISIONS, hit
from catalogaudit.rules.spec.runs import runs_of


@cache
def mcp_schema(revision: str) -> dict[str, Any]:
    """The vendored official MCP JSON Schema of a revision."""
    folder = resources.files("catalogaudit.rules.spec").joinpath("mcp")
    path = folder.joinpath(f"{revision}.schema.json")
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@cache
def result_schema(revision: str, listing: str) -> dict[str, Any]:
    """The schema of one listing's result: a `$ref` to its definition (`ListToolsResult`,
    `ListResourceTemplatesResult`), with every definition."""
    schema = mcp_schema(revision)
    defs = "$defs" if "$defs" in schema else "definitions"
    return {
        "$schema": schema.get("$schema", "http://json-schema.org/draft-07/schema#"),
        "$ref": f"#/{defs}/List{listing[0].upper()}{listing[1:]}Result",
        defs: schema[defs],
    }


@cache
def _validator(revision: str, listing: str) -> Any:
    import jsonschema  # lazy: heavy

    root = result_schema(revision, listing)
    return jsonschema.validators.validator_for(root)(root)


@cache
def _valid(revision: str, listing: str) -> Any:
    """`_validator`'s answer "valid", from jsonschema-rs (`model.validation`)."""
    return validator(result_schema(revision, listing)).is_valid


def _plain_page(fields: dict[str, Any], listing: str, chunk: list[Item]) -> Any:
    """`validation_plain` of the page `{**fields, listing: items}`, from each item's own copy
    (`Item.plain`, which CA403 reads too), which the items then let go: no rule reads it
    after this one."""
    shell = validation_plain({**fields, listing: []})
    items = [i.plain for i in chunk]
    for item in chunk:
        item.forget_plain()
    if shell is NOT_PLAIN or any(i is NOT_PLAIN for i in items):
        return NOT_PLAIN
    return {**shell, listing: items}


def mcp_schema_valid(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA610: every page validates against the official MCP JSON Schema of its revision."""
    rev = catalog.revision if catalog.revision in REVISIONS else REVISIONS[-1]
    for listing in LISTINGS:
        if not catalog.present(listing):
            continue
        items = catalog.items(listing)
        start = 0
        for index, (fields, page) in enumerate(
            zip(catalog.pages(listing), catalog.listing(listing).get("pages") or [], strict=False)
        ):
            count = page.get("items", 0) if isinstance(page, dict) else 0
            chunk = items[start : start + count]
            start += count
            result = {**fields, listing: [i.value for i in chunk]}
            copy = _plain_page(fields, listing, chunk)
            if copy is NOT_PLAIN:  # NOTE: the MCP schemas compare numbers with 0 and 1 only
                copy = stand_ins(result)
            if copy is not NOT_PLAIN and _valid(rev, listing)(copy):
                continue  # python-jsonschema would find nothing either
            deep = copy is NOT_PLAIN and value_depth(result) >= MAX_DEPTH
            if deep:  # NOTE: the MCP schemas constrain a few levels; python-jsonschema overflows
                result = cut_deep(result, CUT)
            plain = json.loads(written(result))
            for err in _validator(rev, listing).iter_errors(plain):
                path = list(err.absolute_path)
                if deep and len(path) >= CUT - 1:
                    continue  # at or below an emptied container: not a finding of the page's
                if len(path) >= 2 and path[0] == listing and isinstance(path[1], int):
                    item = chunk[path[1]]
                    pointer = pointer_of(path[2:])
                    covered = pointer in ("/inputSchema", "/inputSchema/type") or (
                        pointer == "" and "'inputSchema'" in err.message
                    )
                    if listing == "tools" and covered and _input_schema_defect(item.value):
                        continue  # CA401 reports a missing or non-object inputSchema precisely
                    why = f"{_short(err.message)} (MCP {rev} schema, at {pointer or '/'})"
                    yield hit(item, pointer, why, _short(err.message))
                else:
                    if catalog.modern and _cache_field_error(path, err):
                        continue  # CA611 reports each missing or wrong cache field once
                    why = f"{_short(err.message)} (MCP {rev} schema)"
                    yield _on_page(listing, index, pointer_of(path), why, _short(err.message))


#: The 2026-07-28 page fields CA611 checks (and explains) itself.
CACHE_FIELDS = ("resultType", "ttlMs", "cacheScope")


def _cache_field_error(path: list[Any], err: Any) -> bool:
    """A schema error about a page's cache field: one change, one finding (CA611's)."""
    if path:
        return path[0] in CACHE_FIELDS
    return err.validator == "required" and any(f"'{k}'" in err.message for k in CACHE_FIELDS)


def _input_schema_defect(tool: Any) -> bool:
    schema = tool.get("inputSchema") if isinstance(tool, dict) else None
    return not isinstance(schema, dict) or schema.get("type") != "object"


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _on_page(listing: str, index: int, pointer: str, message: str, excerpt: str = "") -> Hit:
    """A hit about a page of a listing, not about one of its items."""
    where = f"{listing} page {index + 1}"
    return Hit(None, pointer, f"{where}: {message}", excerpt, listing=listing, page=index)


def page_fields(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA611: 2026-07-28 list pages need resultType "complete", integer ttlMs >= 0 and one
    cacheScope (public or private) on every page."""
    scopes: dict[str, set[str]] = {listing: set() for listing in LISTINGS}
    for listing, index, fields in _pages(catalog) if catalog.modern else ():
        yield from _modern_page(listing, index, fields, scopes[listing])


def _pages(catalog: Catalog) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Each page of each listing served: its listing, index and fields."""
    for listing in LISTINGS:
        for index, fields in enumerate(catalog.pages(listing) if catalog.present(listing) else ()):
            yield listing, index, fields


def legacy_page_fields(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA612: pages of an earlier revision carry 2026-07-28 cache fields, which its clients
    do not read (a server that copies them down is harmless, but its hints do nothing)."""
    for listing, index, fields in () if catalog.modern else _pages(catalog):
        extra = ", ".join(k for k in CACHE_FIELDS if k in fields)
        if extra:
            why = f"{extra} on a {catalog.revision} page (2026-07-28 fields)"
            yield _on_page(listing, index, "/" + extra.split(",")[0], why, extra)


def _modern_page(
    listing: str, index: int, fields: dict[str, Any], scopes: set[str]
) -> Iterator[Hit]:
    on_page = partial(_on_page, listing, index)
    rt = fields.get("resultType")
    if rt != "complete":
        got = "missing" if "resultType" not in fields else compact(rt)
        yield on_page("/resultType", f'resultType is {got}, must be "complete"', got)
    ttl = fields.get("ttlMs")
    if "ttlMs" not in fields:
        yield on_page("/ttlMs", "ttlMs is missing (required)")
    elif isinstance(ttl, bool) or not isinstance(ttl, int) or not is_integer_lexeme(ttl) or ttl < 0:
        text = compact(ttl)
        yield on_page("/ttlMs", f"ttlMs {text} is not an integer >= 0", text)
    scope = fields.get("cacheScope")
    if scope not in ("public", "private"):
        got = "missing" if "cacheScope" not in fields else compact(scope)
        yield on_page("/cacheScope", f"cacheScope is {got}, must be public or private", got)
    else:
        if scopes and scope not in scopes:
            why = "differs from earlier pages (must be the same on every page)"
            yield on_page("/cacheScope", f"cacheScope {scope} {why}", scope)
        scopes.add(scope)


def instability(catalog: Catalog, ctx: Context) -> Iterator[Hit]:
    """CA702: `snapshot --runs` saw the catalog change between starts."""
    runs = catalog.capture.get("runs")
    if not isinstance(runs, dict) or runs.get("stable", True):
        return
    agreement = runs.get("agreement") or {}
    proved = runs_of(catalog)
    for listing, kinds in agreement.items():
        if isinstance(kinds, dict) and not all(kinds.values()):
            bad = sorted(k for k, v in kinds.items() if not v)
            keys = proved.changed.get(listing) if proved is not None else None
            named = sorted(keys, key=lambda k: (k is None, k or "")) if keys else []
            which = ", ".join(quote(k) if k is not None else "(no identity)" for k in named[:8])
            which += f" and {len(named) - 8} more" if len(named) > 8 else ""
            what = (
                f"; items that changed: {which}"
                if named
                else "; no item's own bytes changed (their order or the page fields did)"
                if keys is not None
                else "; which items changed is not known (their pages were not kept: --no-wire)"
            )
            yield Hit(
                None,
                "",
                f"{listing}: {', '.join(bad)} hashes differed across {runs.get('count')} runs"
                + what,
                ", ".join(bad),
                listing=listing,
                items=tuple(k for k in named if k is not None),
            )
