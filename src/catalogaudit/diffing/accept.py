"""Changes accepted on purpose: the committed file (`catalogaudit.accepted.toml`) that lets an
intended breaking change pass `diff`, `diff --live` and `ci`, reviewed in the pull request like
code (as oasdiff's `breaking.ignore` and buf's `ignore_only` are).

An entry names one change by its stable identity: the rule, the item (`tools/search`; the listing
alone, `tools`, for a listing-level change; `catalog` for the instructions) and the JSON Pointer
inside the item (`at`), each as `diff` reports them; a reason is required, an expiry date
optional. A matched change stays in every report, marked accepted with its reason, and fails
nothing. An entry that matches no change, or that has expired, is a warning of the diff, so a
stale acceptance is seen (an expired one accepts nothing).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from catalogaudit.errors import UsageError
from catalogaudit.model import visible

if TYPE_CHECKING:
    from catalogaudit.diffing.items import Change, DiffResult

#: The keys of one `[[accept]]` entry.
KEYS = ("rule", "item", "at", "reason", "expires")


@dataclass(frozen=True)
class Accepted:
    """One entry: the change it names, why, until when, and where it was written."""

    rule: str
    item: str
    at: str
    reason: str
    expires: datetime.date | None
    where: str

    def matches(self, c: Change) -> bool:
        """Whether `c` is the change this entry names."""
        return (self.rule, self.item, self.at) == (c.rule_id, item_of(c), c.pointer)

    @property
    def names(self) -> str:
        """How messages name the change: `CA810 tools/search /inputSchema/required`."""
        return " ".join(x for x in (self.rule, self.item, self.at) if x)


def item_of(c: Change) -> str:
    """The `item` of an entry for `c`: `listing/identity`, or the listing alone."""
    return c.listing if c.identity is None else f"{c.listing}/{c.identity}"


def parse(doc: Any, name: str) -> list[Accepted]:
    """The entries of a parsed accepted-changes file (`[[accept]]` tables)."""
    if not isinstance(doc, dict) or set(doc) - {"accept"}:
        raise UsageError(f"{name}: the file holds [[accept]] tables and nothing else")
    entries = doc.get("accept", [])
    if not isinstance(entries, list):
        raise UsageError(f"{name}: accept must be an array of tables ([[accept]])")
    out = []
    for n, entry in enumerate(entries, 1):
        where = f"{name}: accept #{n}"
        if not isinstance(entry, dict):
            raise UsageError(f"{where} is not a table")
        unknown = sorted(set(entry) - set(KEYS))
        if unknown:
            raise UsageError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
        for key in ("rule", "item", "reason"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise UsageError(f"{where}: {key} must be a string that is not empty")
        at = entry.get("at", "")
        if not isinstance(at, str) or (at and not at.startswith("/")):
            raise UsageError(f"{where}: at must be a JSON Pointer (starting with /) or absent")
        expires = entry.get("expires")
        if isinstance(expires, datetime.datetime) or not (
            expires is None or isinstance(expires, datetime.date)
        ):
            raise UsageError(f"{where}: expires must be a date (expires = 2027-01-31)")
        out.append(Accepted(entry["rule"], entry["item"], at, entry["reason"], expires, where))
    return out


def apply(result: DiffResult, entries: Sequence[Accepted], today: datetime.date) -> None:
    """Mark each change an entry in force names as accepted; warn of the entries that name no
    change and of those past their expiry."""
    used: set[int] = set()
    changes = []
    for c in result.changes:
        for i, entry in enumerate(entries):
            if entry.matches(c):
                used.add(i)
                if entry.expires is None or entry.expires >= today:
                    c = replace(c, accepted=entry.reason)
                    break
        changes.append(c)
    result.changes = changes
    for i, entry in enumerate(entries):
        if entry.expires is not None and entry.expires < today:
            message = (
                f"{entry.where} ({entry.names}) expired on {entry.expires.isoformat()}: "
                "it accepts nothing; remove it, or renew it with a new reason"
            )
            result.warnings.append({"kind": "accepted-expired", "message": message})
        elif i not in used:
            message = (
                f"{entry.where} ({entry.names}) matches no change of this diff: it is stale; "
                "remove it"
            )
            result.warnings.append({"kind": "accepted-unmatched", "message": message})


def _string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def entries_for(
    changes: Sequence[Change], reason: str, expires: datetime.date | None = None
) -> str:
    """`[[accept]]` tables for `changes`, to append to the file."""
    blocks = []
    for c in changes:
        lines = [
            "# " + visible(f"{c.cls}: {c.subject}: {c.message}", keep=""),
            "[[accept]]",
            f"rule = {_string(c.rule_id)}",
            f"item = {_string(item_of(c))}",
        ]
        if c.pointer:
            lines.append(f"at = {_string(c.pointer)}")
        lines.append(f"reason = {_string(reason)}")
        if expires is not None:
            lines.append(f"expires = {expires.isoformat()}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)
