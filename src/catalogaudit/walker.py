"""The one prose walker and the one JSON-Schema descent: every human-readable string of a
catalog item, audit and rewrite alike, and every subschema of a schema (`subschemas`).

Prose is `description` and `title` of tools, prompts, prompt arguments, resources and
templates, `annotations.title`, and the `description`/`title` keywords at any depth of
`inputSchema` and `outputSchema`. The walker understands JSON Schema: keys under `properties`,
`patternProperties`, `$defs`, `definitions`, `dependentSchemas` and draft-07 `dependencies`
are names, so a property called `description` is a schema, not prose; subschema keywords are
entered; data keywords (`default`, `const`, `enum`, `examples`) and unknown keywords never are.
Because the audit and the rewrite both call `walk`, what one checks is what the other can fix,
and because the schema rules descend with `subschemas` (`schema_children` under both), a rule
sees exactly the subschemas the walker enters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from catalogaudit.model import pointer_join

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


def schema_children(schema: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """The direct subschemas of a schema object, each with its slot in the parent (`(keyword,)`
    or `(keyword, name or index)`), in document order.

    Names under the map keywords (and draft-07 `dependencies`, whose array values are property
    names, not schemas) are names; data keywords are never entered.
    """
    present = _ENTERED.intersection(schema)
    if not present:
        return  # a leaf (most subschemas): one set operation instead of twenty lookups
    for key in sorted(present, key=_ORDER.__getitem__) if len(present) > 1 else present:
        value = schema[key]
        kind = _KIND[key]
        if kind == "map":
            if isinstance(value, dict):
                for name, sub in value.items():
                    yield (key, name), sub
        elif kind == "one":
            yield (key,), value
        elif kind == "items":
            if isinstance(value, list):
                for i, sub in enumerate(value):
                    yield ("items", i), sub
            elif value is not None:
                yield ("items",), value
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield (key, i), sub


#: Every keyword `schema_children` enters, the order it enters them in, and how.
_KIND = {
    **dict.fromkeys((*SCHEMA_MAPS, "dependencies"), "map"),
    **dict.fromkeys(SCHEMA_ONE, "one"),
    "items": "items",
    **dict.fromkeys(SCHEMA_LIST, "list"),
}
_ORDER = {k: i for i, k in enumerate(_KIND)}
_ENTERED = frozenset(_KIND)


def slot_pointer(at: str, slot: tuple[Any, ...]) -> str:
    """The pointer of a child subschema from its parent's pointer and its slot."""
    for token in slot:
        at = pointer_join(at, token)
    return at


def subschemas(
    schema: Any, at: str = "", depth: int = 1
) -> Iterator[tuple[dict[str, Any], str, int]]:
    """Every (sub)schema object with its pointer and nesting depth (root = 1), entered the way
    the prose walker enters them; booleans and junk are not schema objects."""
    if not isinstance(schema, dict):
        return
    # NOTE: one stack, not one generator per level: `yield from` through every level of a
    # deep schema made each value cost a resume per ancestor. Same pre-order as the recursion.
    # `schema_children` and `slot_pointer` are inlined (no generator, no call per child): the
    # keywords need no pointer escaping, names under the maps may.
    stack = [(schema, at, depth)]
    pop, push = stack.pop, stack.extend
    entered, order, kinds = _ENTERED.intersection, _ORDER.__getitem__, _KIND
    while stack:
        entry = pop()
        yield entry
        node, here, level = entry
        present = entered(node)
        if not present:
            continue  # a leaf (most subschemas)
        children: list[tuple[dict[str, Any], str, int]] = []
        add = children.append
        down = level + 1
        for key in sorted(present, key=order) if len(present) > 1 else present:
            value = node[key]
            kind = kinds[key]
            base = here + "/" + key
            if kind == "map":
                if isinstance(value, dict):
                    for name, sub in value.items():
                        if isinstance(sub, dict):
                            add((sub, pointer_join(base, name), down))
            elif kind == "one":
                if isinstance(value, dict):
                    add((value, base, down))
            elif kind == "items":
                if isinstance(value, list):
                    for i, sub in enumerate(value):
                        if isinstance(sub, dict):
                            add((sub, f"{base}/{i}", down))
                elif isinstance(value, dict):
                    add((value, base, down))
            elif isinstance(value, list):
                for i, sub in enumerate(value):
                    if isinstance(sub, dict):
                        add((sub, f"{base}/{i}", down))
        if children:
            children.reverse()
            push(children)


def schema_nodes(schema: Any, at: str = "") -> tuple[tuple[dict[str, Any], str, int], ...]:
    """`subschemas(schema, at)` as a tuple, kept by the schema's identity: the prose walk and
    the schema rules (CA404, CA405/CA408) descend the same schemas, so one descent serves them
    all. Schemas are never mutated in place (`walk` copies), so a kept answer cannot go stale.
    """
    key = (id(schema), at)
    kept = _NODES.get(key)
    if kept is not None and kept[0] is schema:
        return kept[1]
    nodes = tuple(subschemas(schema, at))
    if len(_NODES) >= _KEEP:
        _NODES.clear()
    _NODES[key] = (schema, nodes)
    return nodes


class Visit(NamedTuple):
    """One prose string and where it lives.

    NOTE: a named tuple, not a frozen dataclass: the audit builds one per prose string, and a
    frozen dataclass's `__init__` costs several times a tuple's. It keeps the pointer of the
    object holding the text (that object's `schema_nodes` pointer), not a new string joined for
    each text: an audit keeps every item's visits (`visits`), and few are ever pointed at.
    """

    listing: str
    at: str  # JSON Pointer inside the item of the object holding the text
    key: str  # "description" or "title"
    text: str
    where: str  # item | argument | annotations | schema

    @property
    def pointer(self) -> str:
        """The text's JSON Pointer inside the item (`key` needs no escaping)."""
        return self.at + "/" + self.key

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
    """Every prose visit of one item, in document order (the audit's view).

    NOTE: several rules ask for the same item's visits; the last answers are kept by the
    item's identity (`is`, so an equal but new item is walked again). Items are never mutated
    in place (`walk` copies), so a kept answer cannot go stale.
    """
    key = id(item)
    kept = _VISITS.get(key)
    if kept is not None and kept[0] is item and kept[1] == listing:
        return list(kept[2])
    seen = _collect(listing, item)
    if len(_VISITS) >= _KEEP:
        _VISITS.clear()
    _VISITS[key] = (item, listing, tuple(seen))
    return seen


_KEEP = 50_000


def forget() -> None:
    """Drop the kept walks (and the items they hold): the audit calls it after each catalog,
    so 500 files audited in one run do not keep every file's items alive."""
    _VISITS.clear()
    _NODES.clear()


def _collect(listing: str, item: Any) -> list[Visit]:
    """What `walk` shows a callback that replaces nothing, in its order, without its copying
    machinery: the item's prose, then (tools) annotations and each subschema of inputSchema
    and outputSchema in `subschemas` order (the walk's), or (prompts) each argument's."""
    seen: list[Visit] = []
    if not isinstance(item, dict):
        return seen
    _prose(seen, listing, item, "", "item")
    if listing == "tools":
        _prose(seen, listing, item.get("annotations"), "/annotations", "annotations")
        add = seen.append
        for key in ("inputSchema", "outputSchema"):
            if key in item:
                # NOTE: `_prose` inlined: no call per subschema.
                for sub, at, _ in schema_nodes(item[key], "/" + key):
                    for prose in PROSE_KEYS:
                        text = sub.get(prose)
                        if isinstance(text, str):
                            add(_new(Visit, (listing, at, prose, text, "schema")))
                # NOTE: the kept descent goes: in an audit this walk is the last to ask for it
                # (the schema rules run first, and the visits are kept), and kept to the end
                # it was as big as the visits.
                _NODES.pop((id(item[key]), "/" + key), None)
    elif listing == "prompts":
        args = item.get("arguments")
        if isinstance(args, list):
            for i, arg in enumerate(args):
                _prose(seen, listing, arg, pointer_join("/arguments", i), "argument")
    return seen


def _prose(seen: list[Visit], listing: str, node: Any, at: str, where: str) -> None:
    if isinstance(node, dict):
        for key in PROSE_KEYS:
            text = node.get(key)
            if isinstance(text, str):
                seen.append(_new(Visit, (listing, at, key, text, where)))


#: Builds a Visit from a tuple of its fields without the keyword-handling `__new__`.
_new: Any = tuple.__new__


_VISITS: dict[int, tuple[Any, str, tuple[Visit, ...]]] = {}
_NODES: dict[tuple[int, str], tuple[Any, tuple[tuple[dict[str, Any], str, int], ...]]] = {}


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
            new = self.callback(Visit(self.listing, at, key, text, where))
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
        owned = out is not node
        copied: set[str] = set()  # keywords whose map or array `out` already owns
        for slot, sub in list(schema_children(out)):
            new = self.schema(sub, slot_pointer(at, slot))
            if new is sub:
                continue
            if not owned:
                out, owned = _copy(out), True
            key = slot[0]
            if len(slot) == 1:
                out[key] = new
                continue
            if key not in copied:
                container = out[key]
                out[key] = _copy(container) if isinstance(container, dict) else list(container)
                copied.add(key)
            out[key][slot[1]] = new
        return out


def _copy(node: dict[str, Any]) -> dict[str, Any]:
    # NOTE: a plain dict keeps served key order; the duplicate-key marker of a WireObject is a
    # capture fact already reported, not something a rewrite should carry.
    return dict(node)
