"""The texts `catalogaudit serve` answers with, built once from a snapshot before serving.

The point of `serve` is to replay what a server sent, byte for byte, so each list page is the
captured `wire.pages` text and the handshake is `wire.handshake`. Only when an option asks for a
change (`--cache-hints`, `--page-size`, `--capabilities`, an era the snapshot did not negotiate)
is a text rebuilt, and then minimally: the top-level object is re-joined from its members, each
kept member's value copied verbatim from the captured text (items, number lexemes, escapes and
key order inside them untouched), removed members dropped, added members appended at the end.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from catalogaudit.errors import InputError
from catalogaudit.model import (
    LISTINGS,
    WireDecodeError,
    array_items,
    compact,
    dump_string,
    join,
    members,
    parse_members,
)

HINT_KEYS = ("resultType", "ttlMs", "cacheScope")
#: Added when `--cache-hints present` finds a hint missing: the mcp SDK's own defaults
#: (P:2026-07-28/server/utilities/caching: `0` means stale at once, always safe).
DEFAULT_HINTS = {"resultType": '"complete"', "ttlMs": "0", "cacheScope": '"private"'}
FALLBACK_SERVER_INFO = {"name": "catalogaudit-serve", "version": "0"}
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"


@dataclass
class ListingReplay:
    """What one listing answers: its page texts and which cursor leads to which page."""

    name: str
    pages: list[str] = field(default_factory=list)
    cursors: dict[str, int] = field(default_factory=dict)
    #: The recorded error: the whole answer of an absent listing, or the page after the last.
    error: dict[str, Any] | None = None
    #: A cursor that leads to `error` (the capture saw a later page fail, CA531).
    error_cursor: str | None = None


def with_hints(text: str, mode: str, scope: str | None) -> str:
    """Add (`present`) or remove (`absent`) the 2026-07-28 cache hints; unchanged when neither.

    The text is returned untouched unless a member really has to go or come, so
    `--cache-hints present` on a page that already carries all three keeps its exact bytes.
    """
    if mode not in ("present", "absent"):
        return text
    pairs = members(text)
    keys = {k for k, _ in pairs}
    if mode == "absent":
        if not keys & set(HINT_KEYS):
            return text
        return join([(k, v) for k, v in pairs if k not in HINT_KEYS])
    missing = [k for k in HINT_KEYS if k not in keys]
    if not missing:
        return text
    add = dict(DEFAULT_HINTS)
    if scope is not None:
        add["cacheScope"] = dump_string(scope)
    return join(pairs + [(k, add[k]) for k in missing])


# --- listings ---------------------------------------------------------------------------------


def served_items(record: dict[str, Any]) -> list[Any]:
    """The readable items of a listing record back in served order (`servedPositions`)."""
    items = record.get("items") or []
    positions = record.get("servedPositions") or list(range(len(items)))
    served: list[Any] = [None] * len(items)
    for item, pos in zip(items, positions, strict=False):
        if 0 <= pos < len(served):
            served[pos] = item
    return served


def readable_pages(name: str, record: dict[str, Any]) -> list[str]:
    """Page texts rebuilt from the readable copy (no `wire` section): bytes may differ."""
    served = served_items(record)
    out: list[str] = []
    start = 0
    for page in record.get("pages") or [{"items": len(served), "fields": {}}]:
        count = page.get("items", 0)
        chunk = served[start : start + count]
        start += count
        fields = page.get("fields") or {}
        out.append(join([(name, compact(chunk))] + _field_pairs(fields)))
    return out


def _field_pairs(fields: dict[str, Any]) -> list[tuple[str, str]]:
    return [(k, compact(v)) for k, v in fields.items()]


def listing_replay(
    name: str,
    record: dict[str, Any],
    wire_pages: list[Any] | None,
    page_size: int | None,
    hints: str,
) -> ListingReplay:
    """Build one listing's answers from its record and captured page texts."""
    replay = ListingReplay(name)
    if record.get("status") == "absent" or (
        not record.get("pages") and record.get("answer") is not None
    ):
        answer = record.get("answer")
        # NOTE: only a recorded JSON-RPC error (integer code) is replayed as such; a static
        # input's "not in the inputs" note is not an error a client could parse: -32601.
        code = answer.get("code") if isinstance(answer, dict) else None
        valid = isinstance(code, int) and not isinstance(code, bool)
        replay.error = answer if valid else None
        return replay
    if wire_pages is not None and all(isinstance(p, str) for p in wire_pages):
        texts: list[str] = list(wire_pages)
    else:
        texts = readable_pages(name, record)
    if page_size is not None:
        texts, cursors = repaginate(name, texts, page_size)
        replay.pages, replay.cursors = texts, cursors
    else:
        replay.pages = texts
        for index, text in enumerate(texts):
            nxt = _next_cursor(text)
            if nxt is None:
                continue
            if index + 1 < len(texts):
                replay.cursors.setdefault(nxt, index + 1)
            elif record.get("status") == "error" and isinstance(record.get("answer"), dict):
                replay.error, replay.error_cursor = record["answer"], nxt
    scope = _scope(texts)
    replay.pages = [with_hints(t, _page_mode(hints), scope) for t in replay.pages]
    return replay


def _page_mode(hints: str) -> str:
    return "absent" if hints == "discover-only" else hints


def _next_cursor(text: str) -> str | None:
    try:
        spans = parse_members(text)
    except WireDecodeError:
        return None
    value = spans["nextCursor"].value if "nextCursor" in spans else None
    return value if isinstance(value, str) else None


def _scope(texts: list[str]) -> str | None:
    """The listing's cacheScope, so added hints keep one scope on every page (spec MUST)."""
    for text in texts:
        try:
            spans = parse_members(text)
        except WireDecodeError:
            continue
        value = spans["cacheScope"].value if "cacheScope" in spans else None
        if value in ("public", "private"):
            return str(value)
    return None


def repaginate(name: str, texts: list[str], size: int) -> tuple[list[str], dict[str, int]]:
    """Cut the served items into pages of `size` with fresh opaque cursors.

    Every item's exact text is kept; page-level members come from the first captured page
    (its key order too), with `nextCursor` replaced, or added after the item array.
    """
    items: list[str] = []
    for text in texts:
        value = dict(members(text)).get(name)
        if value is None or not value.lstrip().startswith("["):
            raise InputError(f"{name}: a captured page has no {name!r} array to re-paginate")
        items.extend(array_items(value))
    template = members(texts[0]) if texts else [(name, "[]")]
    chunks = [items[i : i + size] for i in range(0, len(items), size)] or [[]]
    pages: list[str] = []
    cursors: dict[str, int] = {}
    for index, chunk in enumerate(chunks):
        cursor = None
        if index + 1 < len(chunks):
            cursor = _cursor(name, index + 1)
            cursors[cursor] = index + 1
        pairs: list[tuple[str, str]] = []
        placed = False
        for key, value in template:
            if key == name:
                pairs.append((key, "[" + ",".join(chunk) + "]"))
                if cursor is not None and "nextCursor" not in dict(template):
                    pairs.append(("nextCursor", dump_string(cursor)))
                    placed = True
            elif key == "nextCursor":
                if cursor is not None and not placed:
                    pairs.append((key, dump_string(cursor)))
            else:
                pairs.append((key, value))
        pages.append(join(pairs))
    return pages, cursors


def _cursor(name: str, page: int) -> str:
    """An opaque cursor: clients must not parse it, so its shape is ours to choose."""
    return base64.urlsafe_b64encode(f"catalogaudit-serve:{name}:{page}".encode()).decode()


def listings_replay(
    doc: dict[str, Any], page_size: int | None, hints: str
) -> dict[str, ListingReplay]:
    """All four listings; `wire.pages` when the snapshot kept them, else the readable copy."""
    wire = doc.get("wire")
    pages = wire.get("pages", {}) if isinstance(wire, dict) else {}
    return {
        name: listing_replay(
            name,
            doc["listings"][name],
            pages.get(name) if isinstance(wire, dict) else None,
            page_size,
            hints,
        )
        for name in LISTINGS
    }


def legacy_replay(
    legacy: dict[str, Any], page_size: int | None, hints: str
) -> dict[str, ListingReplay]:
    """The four listings as a legacy session of the server answered them (`wire.legacy`)."""
    pages = legacy.get("pages")
    answers = legacy.get("answers")
    out: dict[str, ListingReplay] = {}
    for name in LISTINGS:
        got = pages.get(name) if isinstance(pages, dict) else None
        texts: list[Any] = got if isinstance(got, list) else []
        answer = answers.get(name) if isinstance(answers, dict) else None
        status = "error" if answer is not None else "ok"
        record = {"status": status if texts else "absent", "answer": answer}
        record["pages"] = [{}] * len(texts)
        out[name] = listing_replay(name, record, texts, page_size, hints)
    return out


# --- handshakes -------------------------------------------------------------------------------


def server_info(capture: dict[str, Any]) -> Any:
    """The captured serverInfo, or a stand-in when the capture had none (static inputs)."""
    info = capture.get("serverInfo")
    return info if isinstance(info, dict) else FALLBACK_SERVER_INFO


def initialize_text(capture: dict[str, Any], version: str, caps_text: str) -> str:
    """An InitializeResult built from the capture block (key order as the mcp SDKs write it)."""
    pairs = [
        ("protocolVersion", dump_string(version)),
        ("capabilities", caps_text),
        ("serverInfo", compact(server_info(capture))),
    ]
    if isinstance(capture.get("instructions"), str):
        pairs.append(("instructions", dump_string(capture["instructions"])))
    return join(pairs)


def discover_text(capture: dict[str, Any], supported: list[str], caps_text: str) -> str:
    """A DiscoverResult built from the capture block, with the hints the schema requires."""
    pairs = [
        ("supportedVersions", compact(supported)),
        ("capabilities", caps_text),
    ]
    if isinstance(capture.get("instructions"), str):
        pairs.append(("instructions", dump_string(capture["instructions"])))
    pairs += [(k, DEFAULT_HINTS[k]) for k in HINT_KEYS]
    pairs.append(("_meta", compact({META_SERVER_INFO: server_info(capture)})))
    return join(pairs)
