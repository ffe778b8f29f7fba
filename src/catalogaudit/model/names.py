"""MCP names every layer shares: the four listings, their list methods, the field that
identifies an item, and what a client forwards to the model (the prompt projection)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalogaudit.model.jsonwrite import jcs_key

#: Listing result keys in protocol order, with their list methods.
LISTINGS: tuple[str, ...] = ("tools", "prompts", "resources", "resourceTemplates")
METHODS: Mapping[str, str] = {
    "tools": "tools/list",
    "prompts": "prompts/list",
    "resources": "resources/list",
    "resourceTemplates": "resources/templates/list",
}
#: The field that identifies an item of each listing.
IDENTITY: Mapping[str, str] = {
    "tools": "name",
    "prompts": "name",
    "resources": "uri",
    "resourceTemplates": "uriTemplate",
}
#: What clients forward to the model (the brief's prompt projection).
PROMPT_FIELDS: Mapping[str, frozenset[str]] = {
    "tools": frozenset({"name", "title", "description", "inputSchema"}),
    "prompts": frozenset({"name", "title", "description", "arguments"}),
    "resources": frozenset({"uri", "name", "title", "description", "mimeType"}),
    "resourceTemplates": frozenset({"uriTemplate", "name", "title", "description", "mimeType"}),
}
HASH_KINDS: tuple[str, ...] = ("served", "prompt", "canonical")


def result_note(listing: str) -> str:
    """How a raw input holding one page of `listing` is described on stderr."""
    return f"a {METHODS[listing]} result"


def identity(listing: str, item: Any) -> str | None:
    """An item's identity (name, uri or uriTemplate), or None when it has no string identity."""
    if isinstance(item, dict):
        value = item.get(IDENTITY[listing])
        if isinstance(value, str):
            return value
    return None


def identity_sort_key(ident: str | None, tiebreak: Any) -> tuple[int, bytes, Any]:
    """Items sort by identity in UTF-16 code-unit order; items without identity go last."""
    if ident is None:
        return (1, b"", tiebreak)
    return (0, jcs_key(ident), tiebreak)
