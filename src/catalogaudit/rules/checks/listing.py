"""Listing, page and session checks: priorities as served, counts, cache fields, capability
objects, cursors and order stability."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from catalogaudit.model import (
    LISTINGS,
    METHODS,
    Catalog,
    compact,
    dump_string,
    escape_pointer,
    is_integer_lexeme,
)
from catalogaudit.model import lexeme as jsonwire_lexeme
from catalogaudit.rules.base import Context, Hit
from catalogaudit.rules.checks.common import (
    LISTINGS_PARAM,
    check,
    field_targets,
    json_type,
    lax_is_type,
)

PRIORITY = "/annotations/priority"
ANNOTATED = ("resources", "resourceTemplates")


@check("priority-integer-lexeme", {"listings": LISTINGS_PARAM})
def priority_integer_lexeme(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """`annotations.priority` must be written as an integer on the wire (`-?(0|[1-9][0-9]*)`):
    `1.0`, `0.5` and `1E0` fail, `1` and `0` pass. Reads the served lexeme
    (`jsonwrite.is_integer_lexeme`), never the parsed value, because `1.0 == 1` in Python."""
    for item, at, value in field_targets(catalog, {"field": PRIORITY, **params}, ANNOTATED):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if not is_integer_lexeme(value):
            lexeme = jsonwire_lexeme(value)
            yield Hit(
                item,
                at,
                f"{item.label}: priority is written {lexeme}, not as an integer",
                excerpt=lexeme,
            )


@check(
    "priority-range",
    {
        "listings": LISTINGS_PARAM,
        "min": {"type": "number"},
        "max": {"type": "number"},
        "require_number": {"type": "boolean", "description": "Also report non-numbers."},
    },
)
def priority_range(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """`annotations.priority` within [`min`, `max`] (default [0, 1], the schema's bounds that
    zod and pydantic enforce); with `require_number` (default) a non-number is a hit too."""
    lo, hi = params.get("min", 0), params.get("max", 1)
    for item, at, value in field_targets(catalog, {"field": PRIORITY, **params}, ANNOTATED):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number:
            if params.get("require_number", True):
                kind = json_type(value)
                yield Hit(item, at, f"{item.label}: priority is {kind}", excerpt=kind)
            continue
        if not lo <= value <= hi:
            lexeme = jsonwire_lexeme(value)
            yield Hit(
                item, at, f"{item.label}: priority {lexeme} is outside [{lo}, {hi}]", excerpt=lexeme
            )


@check(
    "item-count",
    {
        "listing": {"enum": list(LISTINGS)},
        "min": {"type": "integer", "minimum": 0},
        "max": {"type": "integer", "minimum": 0},
    },
)
def item_count(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """How many items a listing has (default tools): more than `max` or fewer than `min`
    (an absent listing counts 0). A listing-level hit."""
    listing = params.get("listing", "tools")
    n = len(catalog.items(listing))
    if "max" in params and n > params["max"]:
        yield Hit(
            None,
            "",
            f"{listing}: {n} items, over {params['max']}",
            excerpt=str(n),
            listing=listing,
        )
    if "min" in params and n < params["min"]:
        yield Hit(
            None,
            "",
            f"{listing}: {n} items, fewer than {params['min']}",
            excerpt=str(n),
            listing=listing,
        )


@check(
    "catalog-budget",
    {
        "listings": LISTINGS_PARAM,
        "max": {"type": "integer", "minimum": 1},
        "reserved": {
            "type": "integer",
            "minimum": 0,
            "description": "Part of the budget other sources take (a client's own tools).",
        },
    },
    required=["max"],
)
def catalog_budget(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A client-wide budget (default: tools) that one catalog already overspends: more items
    than `max` - `reserved`. One hit per catalog, at the first listing's record, naming the
    count and the limit (unlike `item-count`, the limit is shared with what else the client
    holds)."""
    chosen = params.get("listings") or ("tools",)
    n = sum(len(catalog.items(name)) for name in chosen)
    limit, reserved = int(params["max"]), int(params.get("reserved", 0))
    if n <= limit - reserved:
        return
    what = " + ".join(chosen)
    share = f" ({limit} minus {reserved} the client holds itself)" if reserved else ""
    yield Hit(
        None,
        "",
        f"{what}: {n} items, over the client budget of {limit - reserved}{share}",
        excerpt=str(n),
        listing=chosen[0],
    )


@check("listing-absent", {"listing": {"enum": list(LISTINGS)}})
def listing_absent(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """The listing (default tools) was not served at all: the server answered its list method
    with an error (usually -32601) or did not advertise it. An empty list is not absent.
    A listing-level hit."""
    listing = params.get("listing", "tools")
    if catalog.present(listing):
        return
    answer = catalog.listing(listing).get("answer")
    code = answer.get("code") if isinstance(answer, dict) else None
    told = f"answered {code}" if isinstance(code, int) else "not served"
    yield Hit(None, "", f"{listing}: the listing is absent ({told})", excerpt=told, listing=listing)


@check(
    "cache-fields-required",
    {
        "listings": LISTINGS_PARAM,
        "revisions": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "result_type": {
            "enum": [True, False, "string"],
            "description": 'Also require resultType: "complete" (true), or any string.',
        },
        "integer": {
            "type": "boolean",
            "description": "ttlMs must be an integer within JavaScript's safe range (zod int()).",
        },
        "present_only": {
            "type": "boolean",
            "description": "Check only the fields a page has (a missing one is tolerated).",
        },
        "lax": {
            "type": "boolean",
            "description": "ttlMs as pydantic's lax int reads it (a boolean or a whole float "
            "passes, no safe-range bound), a negative one floored to 0 first (the Python SDK).",
        },
    },
)
def cache_fields_required(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """On a catalog negotiated at one of `revisions` (default 2026-07-28), every page of every
    listing needs `ttlMs` (a number >= 0) and `cacheScope` (`public` or `private`), and with
    `result_type` a `resultType` of `complete`, with `integer` a whole ttlMs no larger than
    2^53 - 1 (with `lax`, pydantic's reading); with `present_only`, a field the page lacks is
    not a hit. Page-level hits. A
    handshake-era session is skipped even when its `initialize` named 2026-07-28: the cache
    hints belong to the stateless era."""
    if catalog.revision not in params.get("revisions", ("2026-07-28",)):
        return
    proto = catalog.capture.get("protocol")
    if isinstance(proto, dict) and proto.get("handshake") == "initialize":
        return
    for listing in params.get("listings") or LISTINGS:
        if not catalog.present(listing):
            continue
        for page, fields in enumerate(catalog.pages(listing)):
            yield from _page_hits(listing, page, fields, params)


def _page_hits(
    listing: str, page: int, fields: Mapping[str, Any], params: Mapping[str, Any]
) -> Iterator[Hit]:
    where = f"{METHODS[listing]} page {page + 1}"
    if params.get("present_only"):
        # A missing field reads as a good one: only the fields sent are judged.
        fields = {"ttlMs": 0, "cacheScope": "private", "resultType": "complete", **fields}
    ttl = fields.get("ttlMs")
    if params.get("lax"):
        # The client floors a negative number before its model reads it.
        number = "ttlMs" in fields and lax_is_type(ttl, "integer")
        whole = True
    else:
        number = isinstance(ttl, (int, float)) and not isinstance(ttl, bool) and ttl >= 0
        whole = isinstance(ttl, (int, float)) and float(ttl).is_integer() and ttl < 2**53
    if not number or (params.get("integer") and not whole):
        shown = "missing" if "ttlMs" not in fields else compact(ttl)
        yield Hit(
            None,
            "/ttlMs",
            f"{where}: ttlMs is {shown}",
            excerpt="ttlMs",
            listing=listing,
            page=page,
        )
    scope = fields.get("cacheScope")
    if scope not in ("public", "private"):
        shown = "missing" if "cacheScope" not in fields else compact(scope)
        yield Hit(
            None,
            "/cacheScope",
            f"{where}: cacheScope is {shown}",
            excerpt="cacheScope",
            listing=listing,
            page=page,
        )
    wanted = params.get("result_type")
    kind = fields.get("resultType")
    if wanted and (not isinstance(kind, str) if wanted == "string" else kind != "complete"):
        yield Hit(
            None,
            "/resultType",
            f"{where}: resultType is not a string"
            if wanted == "string"
            else f'{where}: resultType is not "complete"',
            excerpt="resultType",
            listing=listing,
            page=page,
        )


@check(
    "page-field-type",
    {
        "listings": LISTINGS_PARAM,
        "field": {"type": "string", "description": "A member of the list result (nextCursor)."},
        "type": {"enum": ["string", "object", "array", "number", "integer", "boolean"]},
        "nullable": {"type": "boolean", "description": "null passes (read as absent)."},
        "non_empty": {
            "type": "boolean",
            "description": "An empty string on the last page fails too: a client that follows "
            "it asks for a page the capture does not hold.",
        },
    },
    required=["field", "type"],
)
def page_field_type(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A member of a list result page (`nextCursor`, `_meta`), where present, must be of
    `type` (with `non_empty`, not `` on the last page): a typed client decodes the whole
    result at once, so one page member of the wrong type costs the listing. Page-level hits."""
    name, wanted = params["field"], params["type"]
    for listing in params.get("listings") or LISTINGS:
        if not catalog.present(listing):
            continue
        pages = catalog.pages(listing)
        for page, fields in enumerate(pages):
            if name not in fields or (fields[name] is None and params.get("nullable")):
                continue
            value = fields[name]
            got = json_type(value)
            bad = got != wanted and not (wanted == "number" and got == "integer")
            last = page == len(pages) - 1
            if bad or (params.get("non_empty") and value == "" and last):
                shown = compact(value)
                yield Hit(
                    None,
                    f"/{escape_pointer(name)}",
                    f"{METHODS[listing]} page {page + 1}: {name} is {shown}",
                    excerpt=name,
                    listing=listing,
                    page=page,
                )


@check(
    "empty-capability-object",
    {"capabilities": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    required=["capabilities"],
)
def empty_capability_object(
    catalog: Catalog, params: Mapping[str, Any], ctx: Context
) -> Iterator[Hit]:
    """A server capability advertised as `{}` (e.g. `"resources": {}`): valid MCP, but an
    enforcer that tests the object's truthiness (ContextForge) imports nothing for it.
    Catalog-level hit, pointing into the snapshot's capture block."""
    caps = catalog.capture.get("serverCapabilities")
    if not isinstance(caps, dict):
        return
    for name in params["capabilities"]:
        if caps.get(name) == {}:
            yield Hit(
                None,
                f"/capture/serverCapabilities/{escape_pointer(name)}",
                f"server capability {dump_string(name)} is an empty object",
                excerpt=name,
            )


@check(
    "pagination-guards",
    {"listings": LISTINGS_PARAM, "max_pages": {"type": "integer", "minimum": 1}},
)
def pagination_guards(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A `nextCursor` repeated within one listing, or more than `max_pages` pages (opencode's
    `catalog.ts` guards, which fail the listing)."""
    limit = params.get("max_pages")
    for listing in params.get("listings") or LISTINGS:
        pages = catalog.pages(listing)
        seen: set[str] = set()
        for page, fields in enumerate(pages):
            cursor = fields.get("nextCursor")
            if isinstance(cursor, str):
                if cursor in seen:
                    yield Hit(
                        None,
                        "/nextCursor",
                        f"{METHODS[listing]} page {page + 1} repeats cursor {dump_string(cursor)}",
                        excerpt=cursor,
                        listing=listing,
                        page=page,
                    )
                seen.add(cursor)
        if limit is not None and len(pages) > limit:
            yield Hit(
                None,
                "",
                f"{METHODS[listing]}: {len(pages)} pages, over {limit}",
                excerpt=str(len(pages)),
                listing=listing,
            )


@check("first-page-only", {"listings": LISTINGS_PARAM})
def first_page_only(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """A listing served over more than one page, to an enforcer that reads only the first
    (it never sends `nextCursor` back). One hit, on the first item of page 2, whose scope
    (`item-and-later`) covers every item after it."""
    for listing in params.get("listings") or LISTINGS:
        pages = catalog.listing(listing).get("pages") or []
        counts = [p.get("items") if isinstance(p, dict) else None for p in pages]
        first = counts[0] if counts else None
        served = catalog.items(listing)
        if len(counts) < 2 or not isinstance(first, int) or len(served) <= first:
            continue
        item, later = served[first], len(served) - first - 1
        yield Hit(
            item,
            "",
            f"{item.label} is the first item of page 2 of {METHODS[listing]} "
            f"({len(counts)} pages; {later} more item{'' if later == 1 else 's'} after it)",
            excerpt=str(len(counts)),
        )


@check("served-order-stable", {"listings": LISTINGS_PARAM})
def served_order_stable(catalog: Catalog, params: Mapping[str, Any], ctx: Context) -> Iterator[Hit]:
    """Across `snapshot --runs`, each listing's served hash must agree (same items, same
    order, same bytes), or every client prompt cache misses. Silent without recorded runs."""
    runs = catalog.capture.get("runs")
    agreement = runs.get("agreement") if isinstance(runs, dict) else None
    if not isinstance(agreement, dict):
        return
    for listing in params.get("listings") or LISTINGS:
        rec = agreement.get(listing)
        if isinstance(rec, dict) and rec.get("served") is False:
            yield Hit(
                None,
                "",
                f"{METHODS[listing]}: the served bytes differed between runs",
                excerpt="served",
                listing=listing,
            )
