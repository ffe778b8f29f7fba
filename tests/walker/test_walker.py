"""The prose walker: what the audit scans is exactly what a rewrite can change."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogaudit import walker
from catalogaudit.model.jsonwire import pointer_join

NAMES = st.sampled_from(
    ["description", "title", "properties", "items", "default", "x", "enum", "a/~b"]
)
TEXT = st.text(max_size=6)
LEAF = st.none() | st.booleans() | st.integers() | TEXT


def schemas(depth: int = 3) -> st.SearchStrategy[Any]:
    if depth == 0:
        return st.fixed_dictionaries({}, optional={"description": TEXT, "title": TEXT})
    sub = schemas(depth - 1)
    data = st.recursive(
        LEAF,
        lambda c: st.lists(c, max_size=2) | st.dictionaries(NAMES, c, max_size=2),
        max_leaves=4,
    )
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.just("object"),
            "description": TEXT | st.integers(),
            "title": TEXT,
            "properties": st.dictionaries(NAMES, sub | st.booleans(), max_size=3),
            "patternProperties": st.dictionaries(NAMES, sub, max_size=2),
            "$defs": st.dictionaries(NAMES, sub, max_size=2),
            "definitions": st.dictionaries(NAMES, sub, max_size=1),
            "dependentSchemas": st.dictionaries(NAMES, sub, max_size=1),
            "dependencies": st.dictionaries(NAMES, sub | st.lists(NAMES, max_size=2), max_size=2),
            "items": sub | st.lists(sub, max_size=2),
            "prefixItems": st.lists(sub, max_size=2),
            "additionalProperties": sub | st.booleans(),
            "anyOf": st.lists(sub, max_size=2),
            "oneOf": st.lists(sub, max_size=2),
            "allOf": st.lists(sub, max_size=2),
            "not": sub,
            "if": sub,
            "then": sub,
            "else": sub,
            "contains": sub,
            "propertyNames": sub,
            "default": data,
            "const": data,
            "enum": st.lists(data, max_size=2),
            "examples": st.lists(data, max_size=2),
            "x-vendor": data,
            "pattern": TEXT,
        },
    )


TOOLS = st.fixed_dictionaries(
    {"name": TEXT, "inputSchema": schemas()},
    optional={
        "description": TEXT,
        "title": TEXT,
        "outputSchema": schemas(),
        "annotations": st.fixed_dictionaries(
            {}, optional={"title": TEXT, "readOnlyHint": st.booleans()}
        ),
        "_meta": st.dictionaries(NAMES, TEXT, max_size=2),
    },
)
PROMPTS = st.fixed_dictionaries(
    {"name": TEXT},
    optional={
        "description": TEXT,
        "title": TEXT,
        "arguments": st.lists(
            st.fixed_dictionaries(
                {"name": TEXT},
                optional={"description": TEXT, "title": TEXT, "required": st.booleans()},
            ),
            max_size=3,
        ),
    },
)
RESOURCES = st.fixed_dictionaries(
    {"uri": TEXT, "name": TEXT},
    optional={
        "description": TEXT,
        "title": TEXT,
        "mimeType": TEXT,
        "annotations": st.fixed_dictionaries({}, optional={"priority": st.floats(0, 1)}),
    },
)
ITEMS = (
    st.tuples(st.just("tools"), TOOLS)
    | st.tuples(st.just("prompts"), PROMPTS)
    | st.tuples(st.just("resources"), RESOURCES)
    | st.tuples(st.just("resourceTemplates"), RESOURCES)
)


def all_strings(value: Any, at: str = "") -> dict[str, str]:
    """Every string value in a document by pointer (names, URIs, data, prose alike)."""
    out: dict[str, str] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(all_strings(v, pointer_join(at, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(all_strings(v, pointer_join(at, i)))
    elif isinstance(value, str):
        out[at] = value
    return out


@settings(max_examples=300)
@given(ITEMS)
def test_audit_set_equals_rewrite_set_and_nothing_else_changes(case: tuple[str, Any]) -> None:
    listing, item = case
    original = copy.deepcopy(item)
    scanned = {v.pointer for v in walker.visits(listing, item)}
    rewritten, changed = walker.walk(listing, item, lambda v: v.text + "\u2603")
    assert item == original, "the walker must not mutate its input"
    before, after = all_strings(item), all_strings(rewritten)
    assert before.keys() == after.keys()
    differs = {p for p in before if before[p] != after[p]}
    assert differs == scanned
    assert changed is bool(scanned)
    for p in scanned:
        assert p.rsplit("/", 1)[1] in ("description", "title")


def test_a_property_named_description_is_a_schema_not_prose() -> None:
    tool = {
        "name": "t",
        "description": "top",
        "inputSchema": {
            "type": "object",
            "properties": {"description": {"type": "string", "description": "nested; deep"}},
            "default": {"description": "data, never prose"},
            "enum": ["description"],
        },
    }
    got = [(v.pointer, v.where) for v in walker.visits("tools", tool)]
    assert got == [
        ("/description", "item"),
        ("/inputSchema/properties/description/description", "schema"),
    ]


def test_prompt_arguments_and_annotation_titles() -> None:
    prompt = {"name": "p", "title": "P", "arguments": [{"name": "a", "description": "arg"}]}
    assert [v.pointer for v in walker.visits("prompts", prompt)] == [
        "/title",
        "/arguments/0/description",
    ]
    tool = {"name": "t", "inputSchema": {"type": "object"}, "annotations": {"title": "T"}}
    assert [(v.pointer, v.where) for v in walker.visits("tools", tool)] == [
        ("/annotations/title", "annotations")
    ]


def test_names_uris_patterns_are_never_visited() -> None:
    res = {"uri": "file:///x;y", "name": "n;", "description": "d"}
    assert [v.pointer for v in walker.visits("resources", res)] == ["/description"]
    tool = {
        "name": "t",
        "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "string", "pattern": "^a;b$", "title": "A"}},
        },
    }
    assert [v.pointer for v in walker.visits("tools", tool)] == ["/inputSchema/properties/a/title"]


def _children_as_written(schema: dict[str, Any]) -> Any:
    """`schema_children` as first written (one lookup per keyword, in keyword order)."""
    for key in (*walker.SCHEMA_MAPS, "dependencies"):
        named = schema.get(key)
        if isinstance(named, dict):
            for name, sub in named.items():
                yield (key, name), sub
    for key in walker.SCHEMA_ONE:
        if key in schema:
            yield (key,), schema[key]
    entries = schema.get("items")
    if isinstance(entries, list):
        for i, sub in enumerate(entries):
            yield ("items", i), sub
    elif entries is not None:
        yield ("items",), entries
    for key in walker.SCHEMA_LIST:
        subs = schema.get(key)
        if isinstance(subs, list):
            for i, sub in enumerate(subs):
                yield (key, i), sub


def _recursive_subschemas(schema: Any, at: str = "", depth: int = 1) -> Any:
    """The descent as first written (one generator per level): the fast one must equal it."""
    if not isinstance(schema, dict):
        return
    assert list(walker.schema_children(schema)) == list(_children_as_written(schema))
    yield schema, at, depth
    for slot, sub in _children_as_written(schema):
        yield from _recursive_subschemas(sub, walker.slot_pointer(at, slot), depth + 1)


@settings(max_examples=300)
@given(ITEMS)
def test_visits_and_subschemas_equal_the_walk_and_the_recursion(case: tuple[str, Any]) -> None:
    listing, item = case
    walked: list[walker.Visit] = []
    walker.walk(listing, item, lambda v: walked.append(v) and None)
    assert walker.visits(listing, copy.deepcopy(item)) == walked
    for key in ("inputSchema", "outputSchema"):
        if isinstance(item.get(key), dict):
            got = [(at, d) for _, at, d in walker.subschemas(item[key], "/" + key)]
            want = [(at, d) for _, at, d in _recursive_subschemas(item[key], "/" + key)]
            assert got == want


@settings(max_examples=100)
@given(schemas())
def test_schema_nodes_are_the_descent_kept_by_identity(schema: Any) -> None:
    walker.forget()
    kept = walker.schema_nodes(schema, "/inputSchema")
    assert kept == tuple(_recursive_subschemas(schema, "/inputSchema"))
    assert walker.schema_nodes(schema, "/inputSchema") is kept  # the second rule asks a dict
    assert walker.schema_nodes(copy.deepcopy(schema), "/inputSchema") is not kept
    walker.forget()
    assert walker.schema_nodes(schema, "/inputSchema") is not kept
