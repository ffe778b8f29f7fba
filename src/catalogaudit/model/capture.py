"""What a capture produced, as records: pages, listings and the capture itself (live or
static), plus the wire anomalies a parsed page can carry (CA540-CA544)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from catalogaudit.model import jsonwire
from catalogaudit.model.findings import Finding, Severity
from catalogaudit.model.jsonwrite import jcs_number, lexeme
from catalogaudit.model.names import identity
from catalogaudit.model.protocol import Session
from catalogaudit.model.wiretypes import MAX_SAFE_INTEGER, has_unsafe_integer


@dataclass
class Page:
    """One page of a listing as served."""

    text: str | None
    fields: dict[str, Any]
    items: list[Any]


@dataclass
class Listing:
    """Everything captured for one of the four listings."""

    name: str
    advertised: bool
    status: str  # ok | partial (stopped early, see findings) | absent | error
    pages: list[Page] = field(default_factory=list)
    answer: dict[str, Any] | None = None
    findings: list[Finding] = field(default_factory=list)

    def items(self) -> list[Any]:
        """All items in served order across pages."""
        return [item for page in self.pages for item in page.items]


#: A surrogate's escape, or text that reads like one after an escaped backslash (`\\ud800`).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}")


def _lone_surrogate_escape(text: str) -> bool:
    """Whether the JSON text `text` escapes a lone surrogate: a high surrogate's escape not
    followed by a low one's, or a low one's not after a high one's. Astral characters written
    `\\u`-escaped (Python's `json.dumps` default) come in pairs. Only the escapes are visited."""
    after_high = -1  # NOTE: where a low surrogate's escape must start, after a high one's
    for match in _SURROGATE_ESCAPE.finditer(text):
        start = match.start()
        before = start
        while before and text[before - 1] == "\\":
            before -= 1
        if (start - before) % 2:
            continue  # NOTE: an escaped backslash, then the letter u
        if after_high >= 0 and start != after_high:
            return True
        low = match.group()[3] in "cdefCDEF"
        if low != (after_high >= 0):
            return True
        after_high = -1 if low else match.end()
    return after_high >= 0


def page_anomalies(
    result: Any, text: str | None, invalid_utf8: bool, plain: bool, digits: bool = True
) -> list[jsonwire.Anomaly]:
    """`jsonwire.anomalies` and `unsafe_integers` of a page result, without walking it when its
    text rules them out: a plain parse has no duplicate keys or NaN, valid UTF-8 without a
    lone surrogate escape (`_lone_surrogate_escape`) has no lone surrogate, a text with no
    digit run that may be an integer beyond 2^53-1 (`has_unsafe_integer`; `digits=False`:
    known to have none) has no unsafe integer."""
    found: list[jsonwire.Anomaly] = []
    risky = text is None or invalid_utf8 or not plain or _lone_surrogate_escape(text)
    if risky:
        found.extend(jsonwire.anomalies(result, invalid_utf8))
    if text is None or (digits and has_unsafe_integer(text)):
        found.extend(unsafe_integers(result))
    return found


def unsafe_integers(value: Any) -> list[jsonwire.Anomaly]:
    """Integers beyond +-(2^53-1) (CA544): for each item of a page's arrays, and for the rest
    of the page, its first such integer, standing for all of them (`Anomaly.count`); in
    document order.

    Valid JSON, but not I-JSON (RFC 7493 section 2.2): JavaScript clients and the RFC 8785
    canonical form round them, so two different served limits can hash the same canonically.
    Depth first, each container's members in order; a pointer is built only for a container,
    an item and an integer found (a number-heavy page holds a hundred thousand scalars).
    """
    found: dict[str | None, list[Any]] = {}  # item pointer (None: the page) -> first, its count
    # NOTE: (members, their container's pointer, their group, whether each member is an item)
    stack: list[tuple[Any, str, str | None, bool]] = [(iter([(None, value)]), "", None, False)]
    while stack:
        members, at, group, items = stack[-1]
        for key, node in members:
            mine = jsonwire.pointer_join(at, key) if items else group
            if isinstance(node, (dict, list)):
                inner = iter(node.items()) if isinstance(node, dict) else enumerate(node)
                where = at if key is None else jsonwire.pointer_join(at, key)
                # the members of an array that is a member of the page result are items
                arrays = len(stack) == 2 and isinstance(value, dict) and isinstance(node, list)
                stack.append((inner, where, mine, arrays))
                break
            if (
                isinstance(node, int)
                and not isinstance(node, bool)
                and abs(node) > MAX_SAFE_INTEGER
            ):
                if mine in found:
                    found[mine][2] += 1
                else:
                    found[mine] = [at if key is None else jsonwire.pointer_join(at, key), node, 1]
        else:
            stack.pop()
    return [
        jsonwire.Anomaly(
            "unsafe-integer",
            where,
            f"integer {lexeme(n)} is beyond 2^53-1; IEEE 754 readers "
            f"(JavaScript, the canonical hash) see {jcs_number(n)}",
            count=count,
        )
        for where, n, count in found.values()
    ]


ANOMALY_RULES = {
    "duplicate-key": ("CA540", Severity.ERROR),
    "non-finite-number": ("CA541", Severity.ERROR),
    "lone-surrogate": ("CA542", Severity.ERROR),
    "invalid-utf8": ("CA543", Severity.ERROR),
    "unsafe-integer": ("CA544", Severity.WARNING),
}


def anomaly_findings(
    name: str, found: list[jsonwire.Anomaly], items: list[Any], page: int
) -> list[Finding]:
    """The findings (CA540-CA544) of a page's anomalies: one per kind and item, and per kind
    for the rest of the page, at the first and saying how many more there are. One per
    anomaly made a page of number schemas 130,000 CA544 findings, and an audit of them
    gigabytes: a hostile page could grow them without bound."""
    groups: dict[tuple[str, int | None], list[Any]] = {}  # kind, item -> first, total
    for anomaly in found:
        key = (anomaly.kind, _item_index(name, anomaly.pointer, len(items)))
        if key in groups:
            groups[key][1] += anomaly.count
        else:
            groups[key] = [anomaly, anomaly.count]
    out: list[Finding] = []
    for (kind, index), (first, total) in groups.items():
        ident = None if index is None else identity(name, items[index])
        pointer, where = first.pointer, f"page pointer {first.pointer}"
        if ident is not None:  # NOTE: "/tools/3/description": the item's identity, "/description"
            pointer = "".join("/" + part for part in pointer.split("/")[3:])
            where = f"{ident!r} at {pointer or '/'}"
        more = ""
        if total > 1:
            more = f"; {total - 1:,} more in this " + ("item" if index is not None else "page")
        message = f"{first.detail}{more} ({where})"
        rule, severity = ANOMALY_RULES[kind]
        out.append(Finding(rule, severity, message, name, ident, pointer=pointer, page=page))
    return out


def _item_index(name: str, pointer: str, count: int) -> int | None:
    """The index of the item of listing `name` a page pointer is in ("/tools/3/..."), or None."""
    parts = pointer.split("/", 3)
    if len(parts) >= 3 and parts[1] == name and parts[2].isdigit() and int(parts[2]) < count:
        return int(parts[2])
    return None


@dataclass
class Capture:
    """Everything one session with the server produced."""

    #: `stdio` or `streamable-http`, and what the snapshot records of the server (argv without
    #: absolute paths, env names; URL without credentials); both None for static intake.
    transport: str | None
    server: dict[str, Any] | None
    session: Session
    listings: dict[str, Listing]
    findings: list[Finding]
    inputs: list[str] = field(default_factory=list)
    #: `snapshot --legacy-probe` of a modern server that answered: the legacy session's
    #: handshake text and page texts (`wire.legacy`), or None.
    legacy_wire: dict[str, Any] | None = None
    #: HTTP content codings the answers came in (the page text is the decoded body).
    content_codings: list[str] = field(default_factory=list)
    #: Streamable HTTP only: request method -> the Content-Type its answer came with
    #: (`capture.http.answers`), or None.
    http_answers: dict[str, str] | None = None
