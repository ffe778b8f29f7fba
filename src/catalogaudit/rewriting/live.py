"""The rewrite of one served list or call result, and which fixes a client needs: what `proxy`
applies to a live session, with the same item and page functions `derive` applies to a snapshot.

A result page goes through `derive.fix_item` (substitutions, `codex-app`), `derive.backfill`
(`cache-hints`, 2026-07-28 pages only) and `pages.rewritten_pages` (unchanged items and members
kept byte for byte), so what a client receives through the proxy is what `rewrite` writes into
the snapshot's page texts for the same fixes. A call result (`tools/call`, `prompts/get`) of a
`codex-app` session gets each content block's priority rounded as `derive.integer_priority`
rounds a listed resource's, and nothing else.

Which sessions get a fix is profile data: a profile names its clients (`clients`: clientInfo
name prefix or title, at versions), and a fix is needed where one of that profile's rules,
resolved at the client's version, has the check the fix clears.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from packaging.version import InvalidVersion, Version

from catalogaudit.model import (
    Finding,
    Item,
    WireDecodeError,
    array_items,
    loads,
    parse_members,
)
from catalogaudit.model import identity as names_identity
from catalogaudit.profiles import applicable, load_all, resolve_profile
from catalogaudit.rewriting.derive import FIXES, Derived, backfill, fix_item, integer_priority
from catalogaudit.rewriting.pages import page_items, rewritten_pages
from catalogaudit.rewriting.substitutions import Substitutions

#: The profile check each fix clears: a client whose rules hold that check needs the fix.
CLEARS = {"codex-app": "priority-integer-lexeme", "cache-hints": "cache-fields-required"}


@dataclass(frozen=True)
class PageRewrite:
    """One result page as rewritten: its text (the served text when nothing changed), how many
    strings changed and the growth-bound refusals."""

    text: str
    changes: int
    refused: tuple[Finding, ...]


def rewrite_result(
    listing: str, text: str, subs: Substitutions | None, fixes: Sequence[str], modern: bool
) -> PageRewrite:
    """A served list result page with `subs` and `fixes` applied as `rewrite` applies them;
    `modern`: the request was made at 2026-07-28 (the cache hints belong to that era only)."""
    elements = page_items(listing, text)
    if elements is None:
        return PageRewrite(text, 0, ())
    try:
        page = loads(text)
        values = [loads(e) for e in elements]
    except WireDecodeError:  # pragma: no cover - page_items read it already
        return PageRewrite(text, 0, ())
    out = Derived({})
    served = [
        fix_item(Item(listing, names_identity(listing, v), v, i, i), v, subs, fixes, out)
        for i, v in enumerate(values)
    ]
    fields = {k: v for k, v in page.items() if k != listing}
    if "cache-hints" in fixes and modern:
        fields = backfill(listing, 0, fields, out)
    new = rewritten_pages(listing, [text], served, [fields])
    return PageRewrite(text if new is None else new[0], len(out.changes), tuple(out.refused))


#: The call results that hold content blocks, whose `annotations` Codex decodes as it decodes a
#: listed resource's (compat-rules.md CDX-ANN-001: "content blocks in tools/call results"): the
#: array and, when the block is a member of each element, its key. A `resources/read` result
#: has none: its contents carry no `annotations` (P:2025-11-25 and P:2026-07-28 schema
#: `ResourceContents`; rmcp's `ResourceContents` has no such field, and serde ignores it).
BLOCKS = {"tools/call": ("content", None), "prompts/get": ("messages", "content")}


def rewrite_answer(method: str, text: str, fixes: Sequence[str]) -> str:
    """A call result with each content block's `annotations.priority` written as an integer
    for a `codex-app` session; only those lexemes change, every other byte stays."""
    where = BLOCKS.get(method)
    if "codex-app" not in fixes or where is None:
        return text
    key, inner = where
    edits: list[tuple[int, int, str]] = []
    try:
        array = parse_members(text).get(key)
        if array is None or not isinstance(array.value, list):
            return text
        pos = array.start
        for element in array_items(text[array.start : array.end]):
            pos = text.index(element, pos)
            edits += _priority_edit(text, pos, pos + len(element), inner)
            pos += len(element)
    except (WireDecodeError, RecursionError):  # pragma: no cover - read once already
        return text
    for start, end, lexeme in reversed(edits):
        text = text[:start] + lexeme + text[end:]
    return text


def _priority_edit(
    text: str, start: int, end: int, inner: str | None
) -> list[tuple[int, int, str]]:
    """The span of one block's priority lexeme and its integer, when it needs one."""
    for key in (k for k in (inner, "annotations") if k is not None):
        found = parse_members(text[start:end]).get(key) if text.startswith("{", start) else None
        if found is None or not isinstance(found.value, dict):
            return []
        start, end = start + found.start, start + found.end
    prio = parse_members(text[start:end]).get("priority")
    old = {"annotations": {"priority": prio.value}} if prio else {}
    new = integer_priority(old)
    if prio is None or new is old:
        return []
    return [(start + prio.start, start + prio.end, str(new["annotations"]["priority"]))]


#: Distinct clients remembered (clientInfo is the client's text: a hostile one varies it).
KNOWN_CLIENTS = 256


@lru_cache(maxsize=KNOWN_CLIENTS)
def needed_fixes(name: str, title: str, version: str, agent: str = "") -> tuple[str, ...]:
    """The fixes whose check a profile naming this client (by clientInfo, or by User-Agent
    product `agent`) holds at its version (FIXES order); a check that only reads fields when
    present (`present_only`) needs no backfill."""
    try:
        at: Version | None = Version(version)
    except InvalidVersion:
        at = None
    found: set[str] = set()
    for profile in load_all().values():
        if not any(c.matches(name, title, at, agent) for c in profile.clients):
            continue
        spec = profile.id if at is None or not profile.versions else f"{profile.id}@{at}"
        for _, clause, _ in applicable(resolve_profile(spec, {})):
            for fix, check in CLEARS.items():
                if clause.type == check and not clause.params.get("present_only"):
                    found.add(fix)
    return tuple(f for f in FIXES if f in found)


def client_profiles(name: str, title: str, version: str, agent: str = "") -> list[str]:
    """The ids of the profiles that name this client (for the proxy's session note)."""
    try:
        at: Version | None = Version(version)
    except InvalidVersion:
        at = None
    found = load_all().values()
    return [p.id for p in found if any(c.matches(name, title, at, agent) for c in p.clients)]
