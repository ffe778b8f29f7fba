"""What `diff --schema-only`, `--prose-only` and `--allowlist` change about a diff, and the
folding of spec-default annotation hints into one cosmetic change per listing.

Prose is what the one prose walker (`walker.visits`) visits: descriptions and titles of items,
prompt arguments and `annotations.title`, and `description`/`title` at any depth of the
schemas, never names, URIs or data keywords. `--schema-only` compares items with that prose
removed (kubeflow/mcp-server strips descriptions from its committed `tools/list` so wording
edits do not churn); `--prose-only` compares nothing else (a security review, where every
description change matters, as mcp-contracts does).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Any

from catalogaudit.diffing.schema import Ctx, pair
from catalogaudit.model import PROMPT_FIELDS, dump_string, pointer_tokens
from catalogaudit.walker import visits


def prose(listing: str, item: Any) -> dict[str, str]:
    """Every prose string of an item, by its pointer inside the item (the walker's view)."""
    return {v.pointer: v.text for v in visits(listing, item)}


def without_prose(listing: str, item: Any) -> Any:
    """A copy of the item with every prose string the walker visits removed."""
    pointers = list(prose(listing, item))
    if not pointers:
        return item
    out = copy.deepcopy(item)
    for pointer in pointers:
        *parents, last = pointer_tokens(pointer)
        node = out
        for token in parents:
            node = node[int(token)] if isinstance(node, list) else node[token]
        node.pop(last, None)
    return out


def compare_prose(ctx: Ctx, old: Any, new: Any) -> None:
    """`--prose-only`: one CA860 per prose string that differs, was added or was removed."""
    before, after = prose(ctx.listing, old), prose(ctx.listing, new)
    for pointer in sorted({*before, *after}, key=lambda p: pointer_tokens(p)):
        o, n = before.get(pointer), after.get(pointer)
        if o == n:
            continue
        top = pointer_tokens(pointer)[0]
        key = pointer_tokens(pointer)[-1]
        shown = pair("(absent)" if o is None else o, "(absent)" if n is None else n)
        ctx.add("CA860", pointer, f"{key} changed: {shown}", top in PROMPT_FIELDS[ctx.listing])


# --- allowlists ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    """One allowlist line: a name or glob, and where it was written."""

    pattern: str
    where: str  # FILE:LINE


def read_allowlist(text: str, name: str) -> list[Allowed]:
    """Names or globs, one a line; blank lines and `#` comments are skipped."""
    out: list[Allowed] = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.strip()
        if entry and not entry.startswith("#"):
            out.append(Allowed(entry, f"{name}:{number}"))
    return out


def relied_on(allowlist: Sequence[Allowed], old: str | None, new: str | None) -> Allowed | None:
    """The first entry that matched the old name and matches nothing now (the item is gone, or
    its new name falls outside the entry), or None."""
    if old is None:
        return None
    for entry in allowlist:
        if fnmatchcase(old, entry.pattern) and (new is None or not fnmatchcase(new, entry.pattern)):
            return entry
    return None


# --- spec-default hints ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Folded:
    """One spec-default hint change folded into a per-listing CA873 (kept for `--expand`)."""

    identity: str | None
    pointer: str
    message: str


def default_only(rule: str, message: str) -> bool:
    """A CA851 whose effective value did not move: a hint written out at (or dropped to) its
    spec default, which no client can tell apart."""
    return rule == "CA851" and message.endswith(")") and "(effective value stays " in message


def fold_defaults(changes: list[Any], change_type: Any) -> list[Any]:
    """Fold every spec-default hint change of a listing into one cosmetic CA873 change that
    counts them per hint and transition and keeps each one in `folded`."""
    by_listing: dict[str, list[Any]] = {}
    rest: list[Any] = []
    for c in changes:
        if default_only(c.rule_id, c.message):
            by_listing.setdefault(c.listing, []).append(c)
        else:
            rest.append(c)
    for listing, members in by_listing.items():
        kinds: dict[str, int] = {}
        for c in members:
            what = c.message.split(" (effective value stays ", 1)[0]
            kinds[what] = kinds.get(what, 0) + 1
        items = len({c.identity for c in members})
        parts = "; ".join(f"{what} on {n}" for what, n in kinds.items())
        message = (
            f"{len(members)} annotation hint{'s' if len(members) != 1 else ''} on {items} "
            f"item{'s' if items != 1 else ''} written out at or dropped to the spec default, "
            f"effective values unchanged: {parts}"
        )
        folded = tuple(Folded(c.identity, c.pointer, c.message) for c in members)
        rest.append(
            replace(
                change_type("CA873", listing, None, "/annotations", message),
                folded=folded,
            )
        )
    return rest


def allowlisted(c: Any, allowlist: Sequence[Allowed], change_type: Any) -> Any:
    """CA805 (breaking) for a removal or rename an allowlist entry relied on, else None."""
    if c.rule_id not in ("CA801", "CA802", "CA803") or not allowlist:
        return None
    gone = c.rule_id == "CA801"
    old, new = (c.identity, None) if gone else (c.old_identity, c.identity)
    entry = relied_on(allowlist, old, new)
    if entry is None:
        return None
    what = "removed" if gone else f"renamed from {dump_string(str(old))}"
    message = f"{what}; the allowlist relies on it ({entry.where}: {entry.pattern})"
    return change_type(
        "CA805", c.listing, c.identity, c.pointer, message, True, c.old_identity, c.position
    )
