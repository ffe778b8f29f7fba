"""The one prose walker: every human-readable string of a catalog item, audit and rewrite alike.

Prose is `description` and `title` of tools, prompts, prompt arguments, resources and
templates, `annotations.title`, and the `description`/`title` keywords at any depth of
`inputSchema` and `outputSchema`. The walker understands JSON Schema: keys under `properties`,
`patternProperties`, `$defs`, `definitions`, `dependentSchemas` and draft-07 `dependencies`
are names, so a property called `description` is a schema, not prose; subschema keywords are
entered; data keywords (`default`, `const`, `enum`, `examples`) and unknown keywords never are.
Because the audit and the rewrite both call `walk`, what one checks is what the other can fix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalogaudit.model.jsonwire import pointer_join

#: Keywords whose value maps names to subschemas.
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
#: Keywords whose value is one subschema.
SCHEMA_ONE = (
    "additionalProperties",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
)
#: Keywords whose value is an array of subschemas.
SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
PROSE_KEYS = ("title", "description")


@dataclass(frozen=True)
class Visit:
    """One prose string and where it lives."""

    listing: str
    pointer: str  # JSON Pointer inside the item
    key: str  # "description" or "title"
    text: str
    where: str  # item | argument | annotations | schema

    @property
    def top_level(self) -> bool:
        """The item's own description or title (what most gateways check)."""
        return self.where == "item"


#: A callback gets each visit and returns a replacement string, or None to keep the text.
Callback = Callable[[Visit], "str | None"]


def walk(listing: str, item: Any, callback: Callback) -> tuple[Any, bool]:
    """Visit every prose string of one item; return the (copied where changed) item and
    whether anything was replaced. The input is never mutated."""
    if not isinstance(item, dict):
        return item, False
    w = _Walk(listing, callback)
    out = w.prose_keys(item, "", "item")
    if listing == "tools":
        out = w.sub(out, "annotations", lambda v, p: w.prose_keys(v, p, "annotations"))
        out = w.sub(out, "inputSchema", w.schema)
        out = w.sub(out, "outputSchema", w.schema)
    elif listing == "prompts":
        out = w.sub(out, "arguments", w.arguments)
    return out, w.changed


def visits(listing: str, item: Any) -> list[Visit]:
    """Every prose visit of one item, in document order (the audit's view)."""
    seen: list[Visit] = []

    def record(v: Visit) -> None:
        seen.append(v)

    walk(listing, item, record)
    return seen


class _Walk:
    def __init__(self, listing: str, callback: Callback) -> None:
        self.listing = listing
        self.callback = callback
        self.changed = False

    def prose_keys(self, node: Any, at: str, where: str) -> Any:
        if not isinstance(node, dict):
            return node
        out = node
        for key in PROSE_KEYS:
            text = node.get(key)
            if not isinstance(text, str):
                continue
            new = self.callback(Visit(self.listing, pointer_join(at, key), key, text, where))
            if new is not None and new != text:
                if out is node:
                    out = _copy(node)
                out[key] = new
                self.changed = True
        return out

    def sub(self, node: Any, key: str, fn: Callable[[Any, str], Any]) -> Any:
        """Apply `fn` to `node[key]`, copying `node` only when the child changed."""
        if not isinstance(node, dict) or key not in node:
            return node
        child = node[key]
        new = fn(child, pointer_join("", key))
        if new is child:
            return node
        out = _copy(node)
        out[key] = new
        return out

    def arguments(self, args: Any, at: str) -> Any:
        if not isinstance(args, list):
            return args
        out = args
        for i, arg in enumerate(args):
            new = self.prose_keys(arg, pointer_join(at, i), "argument")
            if new is not arg:
                if out is args:
                    out = list(args)
                out[i] = new
        return out

    def schema(self, node: Any, at: str) -> Any:
        if not isinstance(node, dict):
            return node  # booleans and junk hold no prose
        out = self.prose_keys(node, at, "schema")
        for key in SCHEMA_MAPS:
            out = self._map(out, key, at)
        # draft-07 `dependencies`: values are subschemas or arrays of property names.
        out = self._map(out, "dependencies", at)
        for key in SCHEMA_ONE:
            if key in out:
                out = self._replace(out, key, self.schema(out[key], pointer_join(at, key)))
        if "items" in out:
            items = out["items"]
            new = (
                self._list(items, pointer_join(at, "items"))
                if isinstance(items, list)
                else self.schema(items, pointer_join(at, "items"))
            )
            out = self._replace(out, "items", new)
        for key in SCHEMA_LIST:
            if key in out:
                out = self._replace(out, key, self._list(out[key], pointer_join(at, key)))
        return out

    def _map(self, node: dict[str, Any], key: str, at: str) -> dict[str, Any]:
        named = node.get(key)
        if not isinstance(named, dict):
            return node
        base = pointer_join(at, key)
        new_named = named
        for name, sub in named.items():
            new = self.schema(sub, pointer_join(base, name))
            if new is not sub:
                if new_named is named:
                    new_named = _copy(named)
                new_named[name] = new
        return self._replace(node, key, new_named)

    def _list(self, schemas: Any, at: str) -> Any:
        if not isinstance(schemas, list):
            return schemas
        out = schemas
        for i, sub in enumerate(schemas):
            new = self.schema(sub, pointer_join(at, i))
            if new is not sub:
                if out is schemas:
                    out = list(schemas)
                out[i] = new
        return out

    @staticmethod
    def _replace(node: dict[str, Any], key: str, new: Any) -> dict[str, Any]:
        if node[key] is new:
            return node
        out = _copy(node)
        out[key] = new
        return out


def _copy(node: dict[str, Any]) -> dict[str, Any]:
    # NOTE: a plain dict keeps served key order; the duplicate-key marker of a WireObject is a
    # capture fact already reported, not something a rewrite should carry.
    return dict(node)
