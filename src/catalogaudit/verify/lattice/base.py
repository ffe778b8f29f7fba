"""The base catalog every shape starts from, and the raw-text writer that keeps lexemes."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

#: `legacy`: a 2025-11-25 catalog; `modern`: 2026-07-28 (each page carries resultType,
#: ttlMs and cacheScope).
ERAS = ("legacy", "modern")
#: Listing name -> the list result's array member (the names `snapshot --from` reads).
LISTING_KEYS = {
    "tools": "tools",
    "prompts": "prompts",
    "resources": "resources",
    "resourceTemplates": "resourceTemplates",
}
MODERN_HINTS: dict[str, Any] = {"resultType": "complete", "ttlMs": 0, "cacheScope": "private"}


class Raw(str):
    """A JSON number written exactly as this lexeme (`1.0`, `1e0`), not as Python prints it."""


def dumps(value: Any) -> str:
    """JSON text with `Raw` lexemes kept; members in insertion order, no extra whitespace."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


ICON = {"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"]}
META = {"example.com/note": "base"}
_SUBJECT_SCHEMA = {
    "type": "object",
    "properties": {"q": {"type": "string", "description": "What to look up."}},
    "required": ["q"],
}


def _items() -> dict[str, list[dict[str, Any]]]:
    """Two items per listing: `ok` (never touched) then `subject` (every field, all valid)."""
    return {
        "tools": [
            {
                "name": "ok",
                "description": "A well-formed tool.",
                "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
            },
            {
                "name": "subject",
                "title": "Subject",
                "description": "The tool under test.",
                "inputSchema": copy.deepcopy(_SUBJECT_SCHEMA),
                "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
                "annotations": {
                    "title": "Subject",
                    "readOnlyHint": True,
                    "destructiveHint": False,
                    "idempotentHint": True,
                    "openWorldHint": False,
                },
                "icons": [dict(ICON)],
                "_meta": dict(META),
            },
        ],
        "prompts": [
            {"name": "ok", "description": "A well-formed prompt."},
            {
                "name": "subject",
                "title": "Subject",
                "description": "The prompt under test.",
                "arguments": [
                    {"name": "arg", "title": "Arg", "description": "An argument.", "required": True}
                ],
                "icons": [dict(ICON)],
                "_meta": dict(META),
            },
        ],
        "resources": [
            {"uri": "file:///ok", "name": "ok"},
            {
                "uri": "file:///subject",
                "name": "subject",
                "title": "Subject",
                "description": "The resource under test.",
                "mimeType": "text/plain",
                "size": 12,
                "annotations": {"audience": ["user"], "lastModified": "2026-01-01T00:00:00Z"},
                "icons": [dict(ICON)],
                "_meta": dict(META),
            },
        ],
        "resourceTemplates": [
            {"uriTemplate": "file:///ok/{id}", "name": "ok"},
            {
                "uriTemplate": "file:///subject/{id}",
                "name": "subject",
                "title": "Subject",
                "description": "The template under test.",
                "mimeType": "text/plain",
                "annotations": {"audience": ["user"]},
                "icons": [dict(ICON)],
                "_meta": dict(META),
            },
        ],
    }


def base_pages(era: str) -> dict[str, list[dict[str, Any]]]:
    """The base catalog: listing -> its pages (one each), as JSON values to mutate."""
    out: dict[str, list[dict[str, Any]]] = {}
    for listing, items in _items().items():
        page: dict[str, Any] = {LISTING_KEYS[listing]: items}
        if era == "modern":
            page.update(MODERN_HINTS)
        out[listing] = [page]
    return out


@dataclass(frozen=True)
class Shape:
    """One catalog of the lattice: the base with exactly one defect.

    `pointer` locates the defect in `pages` (`/tools/0/tools/1/name`: listing, page, then the
    path inside that page's result); `defect` says what was done there.
    """

    id: str
    era: str
    pointer: str
    defect: str
    pages: dict[str, list[Any]]

    @property
    def kind(self) -> str:
        """The item kind or part the shape is about (`tool`, `resource.annotations`, ...)."""
        return self.id.partition("/")[0].partition(".")[0]

    def texts(self) -> dict[str, list[str]]:
        """Listing -> each page's raw JSON text, in served order."""
        return {name: [dumps(p) for p in pages] for name, pages in self.pages.items()}


def jsonl(shape: Shape) -> str:
    """The shape as one JSONL document (one list result a line), for `snapshot --from`."""
    return "".join(t + "\n" for texts in shape.texts().values() for t in texts)


#: The value that removes a field instead of setting it.
MISSING = object()


def locate(page: Any, parts: list[str]) -> tuple[Any, str | int]:
    """The container and the key of the last step of a path inside a page."""
    node = page
    for step in parts[:-1]:
        node = node[int(step)] if isinstance(node, list) else node[step]
    last = parts[-1]
    return node, int(last) if isinstance(node, list) else last


def make(era: str, sid: str, listing: str, path: str, value: Any, defect: str) -> Shape:
    """The base of `era` with `path` (inside the listing's only page) set to `value`, or
    removed when `value` is `MISSING`."""
    pages = base_pages(era)
    page = pages[listing][0]
    node, key = locate(page, path.strip("/").split("/"))
    if value is MISSING:
        del node[key]
    else:
        node[key] = copy.deepcopy(value)
    suffix = "" if era == "legacy" else "@modern"
    return Shape(sid + suffix, era, f"/{listing}/0{path}", defect, pages)
