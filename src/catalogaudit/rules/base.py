"""What a rule is: metadata plus a pure `check` that yields hits; the engine makes findings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from catalogaudit.model import Catalog, Item, Severity, dump_string


@dataclass(frozen=True)
class Hit:
    """One place a check found a problem; the engine adds rule id, severity, hint and source."""

    item: Item | None  # None: about the catalog as a whole (or a page, see `listing`)
    pointer: str  # JSON Pointer inside the item (or the page result when `item` is None)
    message: str  # names the item and quotes the offending text
    excerpt: str = ""
    #: The offending text when it is not the excerpt ("" when no text is: a length check's
    #: excerpt is the tail past the limit, which any rewrite of the string moves).
    offending: str | None = None
    #: Not a finding: what the check could not tell from the snapshot, said once as a note of
    #: the report. (A rule has one severity per clause; a hit cannot soften or raise it.)
    note: bool = False
    #: The listing of a page-level or listing-level hit without an item.
    listing: str | None = None
    page: int | None = None
    #: A hit that names several items for one cause (`per: keyword`): their identities.
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Context:
    """What a check may depend on besides the catalog: profile version and user settings."""

    profile: str = "spec"
    version: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    #: `--server-name`: the server's name as the client or gateway knows it.
    server_name: str | None = None
    #: The gateway's own name, for gateway-qualified tool names (ContextForge).
    gateway_name: str | None = None


CheckFn = Callable[[Catalog, Context], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    """A spec rule: stable id, dotted name, default severity, docs, and the check."""

    id: str
    name: str
    severity: Severity
    summary: str
    description: str
    hint: str
    source: str
    check: CheckFn
    groups: tuple[str, ...] = ("spec",)


def quote(text: str, limit: int = 80) -> str:
    """A JSON-quoted, shortened excerpt of server text for messages."""
    short = text if len(text) <= limit else text[: limit - 1] + "\u2026"
    return dump_string(short)
