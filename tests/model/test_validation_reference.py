"""jsonschema-rs against python-jsonschema, the reference, on the schemas we validate against.

Exactness needs jsonschema-rs to be at least as strict as python-jsonschema (its "valid" is
final; its errors are confirmed by python-jsonschema): for every dialect's meta-schema (CA403),
every revision's MCP result schemas (CA610) and the snapshot schema, on generated values with
what makes the two libraries differ (wire numbers, NaN, 50-digit integers, 1.0, ECMA-262 and
Python-only regexes, strings ending in a newline, booleans as schemas, `$ref`, formats).
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from helpers import DIALECTS, error_view, fixture
from hypothesis import example, given, settings
from hypothesis import strategies as st

from catalogaudit.model import LISTINGS, jsonwire, jsonwrite, validation
from catalogaudit.model.wiretypes import WireFloat
from catalogaudit.rules.spec.common import REVISIONS
from catalogaudit.rules.spec.pages import result_schema
from catalogaudit.snapshots import build

#: Strings where Python's `re` and ECMA-262 part ways, as values and as patterns.
TEXTS = [
    "",
    "a",
    "a\n",
    "x#\n",
    "x#",
    "LC_\r",
    "TZ\n",
    "\u0663",
    "\ufeff",
    "^a$",
    "[",
    "[a-",
    "(?P<n>a)",
    "(?<n>a)",
    "\\p{L}",
    "\\d+$",
    "^(a+)+$",
    "#/$defs/a",
    "http://x y",
    "https://json-schema.org/draft/2020-12/schema",
]
NUMBERS = (
    st.integers(-3, 3)
    | st.sampled_from([10**50, -(10**50), 2**63, 1.0, -0.0, 0.5, -0.25, 1e308])
    | st.sampled_from(["1.0", "1.50E1", "-0", "NaN", "Infinity", "1E400", "-0.25"]).map(
        lambda lexeme: jsonwire.loads(lexeme)
    )
)
SCALARS = st.none() | st.booleans() | NUMBERS | st.sampled_from(TEXTS)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "name", "type"]), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYWORDS = [
    "type",
    "multipleOf",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "minLength",
    "pattern",
    "required",
    "enum",
    "const",
    "format",
    "$id",
    "$ref",
    "$anchor",
    "$dynamicAnchor",
    "$schema",
    "uniqueItems",
    "dependentRequired",
    "default",
]
MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
ONES = ["items", "additionalProperties", "not", "if", "then", "contains", "propertyNames"]
LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
NAMES = st.sampled_from(["a", "b", "^x", "[", "(?P<n>a)", "\\p{L}", "description"])
VALUES = SCALARS | st.lists(SCALARS, max_size=3) | st.sampled_from(["string", "object"])


def schemas() -> st.SearchStrategy[Any]:
    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        keyword = st.one_of(
            st.tuples(st.sampled_from(KEYWORDS), VALUES),
            st.tuples(st.sampled_from(MAPS), st.dictionaries(NAMES, inner, max_size=3)),
            st.tuples(st.sampled_from(ONES), inner),
            st.tuples(st.sampled_from(LISTS), st.lists(inner, max_size=3) | inner),
            st.tuples(st.just("dependencies"), st.dictionaries(NAMES, inner, max_size=2)),
        )
        return st.lists(keyword, max_size=5).map(dict)

    base = st.dictionaries(st.sampled_from(KEYWORDS), VALUES, max_size=3)
    return st.recursive(base | st.booleans(), extend, max_leaves=20)


@pytest.mark.parametrize("name", DIALECTS)
@settings(max_examples=250, deadline=None)
@given(schema=schemas().filter(lambda s: isinstance(s, dict)))
@example(schema={"patternProperties": {"[": {}}, "properties": {"a": {"type": "string"}}})
@example(schema={"$id": "x#\n", "$anchor": "a\n", "pattern": "(?<n>a)"})
@example(schema={"enum": {"exclusiveMinimum": True}, "minLength": 1.0})
@example(schema={"enum": [10**50, 10**50 + 1], "uniqueItems": 2**63})
def test_ca403_names_python_jsonschemas_first_error(name: str, schema: dict[str, Any]) -> None:
    from catalogaudit.rules.spec.metaschema import _rs, first_schema_error, python_first

    expected = python_first(name, schema)
    assert error_view(first_schema_error(name, schema)) == error_view(expected)
    copy = validation.plain(schema)
    if copy is not validation.NOT_PLAIN and _rs(name).is_valid(copy):
        assert expected is None  # jsonschema-rs is never the more lenient


def _python_valid(schema: dict[str, Any], value: Any) -> bool:
    plain = json.loads(jsonwrite.written(value))
    return not list(jsonschema.validators.validator_for(schema)(schema).iter_errors(plain))


def _rs_valid(schema: dict[str, Any], value: Any) -> bool | None:
    copy = validation.plain(value)
    if copy is validation.NOT_PLAIN:
        copy = validation.stand_ins(value)  # NOTE: as CA610 asks, for 50-digit integers
    return None if copy is validation.NOT_PLAIN else validation.validator(schema).is_valid(copy)


TOOLISH = st.fixed_dictionaries(
    {"name": st.sampled_from(["t", "get_x"]) | JSON},
    optional={
        "description": st.text(max_size=5) | JSON,
        "inputSchema": st.fixed_dictionaries(
            {"type": st.just("object") | JSON}, optional={"properties": JSON, "required": JSON}
        )
        | JSON,
        "annotations": st.dictionaries(
            st.sampled_from(["readOnlyHint", "title", "priority"]), JSON, max_size=2
        ),
        "uri": JSON,
        "uriTemplate": JSON,
        "arguments": st.lists(JSON, max_size=2),
        "icons": st.lists(JSON, max_size=2),
        "_meta": JSON,
    },
)


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("listing", sorted(LISTINGS))
@settings(max_examples=80, deadline=None)
@given(
    items=st.lists(TOOLISH, max_size=3),
    fields=st.dictionaries(st.sampled_from(["nextCursor", "_meta", "ttlMs"]), JSON, max_size=2),
)
@example(items=[{"name": "t", "annotations": {"priority": 10**50}}], fields={})
@example(items=[{"name": 10**50, "inputSchema": {"type": "object"}}], fields={"ttlMs": -(10**50)})
def test_ca610_jsonschema_rs_agrees_on_pages(
    revision: str, listing: str, items: list[Any], fields: dict[str, Any]
) -> None:
    root = result_schema(revision, listing)
    page = {**fields, listing: items}
    got = _rs_valid(root, page)
    if got is not None:
        assert got == _python_valid(root, page)


def _numbers(value: Any, key: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in _numbers(v, k)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v, key)]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [(key, value)]
    return []


def test_the_result_schemas_compare_numbers_only_with_small_bounds() -> None:
    """What `validation.stand_ins` needs of a schema to be exact, so of CA610's: no
    `multipleOf`, every number of magnitude below the stand-ins'."""
    for revision in REVISIONS:
        for listing in LISTINGS:
            found = _numbers(result_schema(revision, listing))
            assert "multipleOf" not in json.dumps(result_schema(revision, listing))
            bound = validation.STAND_IN_BOUND
            assert all(-bound < n < bound for _, n in found), (revision, listing)


SNAPSHOT = fixture("bench", "tools100.json")


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            found += _paths(v, (*at, i))
    return found


def _skeleton(doc: dict[str, Any]) -> Any:
    """The document as plain JSON, each listing's items emptied (the schema says nothing of
    them), as `build.errors` hands it to python-jsonschema."""
    listings = doc.get("listings")
    if isinstance(listings, dict):
        doc = {
            **doc,
            "listings": {
                k: {**v, "items": []}
                if isinstance(v, dict) and isinstance(v.get("items"), list)
                else v
                for k, v in listings.items()
            },
        }
    return json.loads(jsonwrite.written(doc))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_snapshot_validation_agrees(data: st.DataObject) -> None:
    from catalogaudit import intake

    doc = intake.read_catalog(str(SNAPSHOT), rehash=True).doc
    at = data.draw(st.sampled_from(_paths(_skeleton(doc))))
    if at:
        target = doc
        for token in at[:-1]:
            target = target[token]
        target[at[-1]] = data.draw(JSON)
    expected = [
        jsonwire.pointer_of(e.absolute_path) + f": {e.message}"
        for e in sorted(
            jsonschema.Draft202012Validator(build.snapshot_schema()).iter_errors(_skeleton(doc)),
            key=lambda e: list(e.absolute_path),
        )
    ]
    assert build.validate(doc) == expected
    got = _rs_valid(build.snapshot_schema(), _skeleton(doc))
    if got:
        assert expected == []


@pytest.mark.parametrize("key", ["TZ\n", "LC_\r", "LC_ALL", "\ufeffTZ", "X" * 100_000 + "\n"])
def test_snapshot_patterns_are_no_more_lenient_than_python(key: str) -> None:
    """`$` before a final newline and `.` on a carriage return: ECMA-262 refuses what Python's
    `re` accepts, so jsonschema-rs says "invalid" and python-jsonschema decides."""
    from catalogaudit import intake

    doc = intake.read_catalog(str(SNAPSHOT), rehash=True).doc
    doc["capture"]["server"] = {"environment": {"set": [], "values": {key: "1"}}}
    doc["findings"][0]["ruleId"] = key  # the other pattern
    got = _rs_valid(build.snapshot_schema(), _skeleton(doc))
    python = _python_valid(build.snapshot_schema(), _skeleton(doc))
    assert python or not got
    assert (build.validate(doc) == []) == python


@pytest.mark.parametrize(
    "lexeme", ["NaN", "Infinity", "-Infinity", "1E400", "123456789012345678901234567890"]
)
def test_values_jsonschema_rs_cannot_read_go_to_python(lexeme: str) -> None:
    value = jsonwire.loads(f'{{"a": [{lexeme}]}}')
    assert validation.plain(value) is validation.NOT_PLAIN


def test_wire_numbers_are_read_by_their_value() -> None:
    value = jsonwire.loads('{"a": [1.50E1, -0, 0.5], "b": "x"}')
    copy = validation.plain(value)
    assert copy == {"a": [15.0, 0, 0.5], "b": "x"}
    assert [type(x) for x in copy["a"]] == [float, int, float]
    assert type(value["a"][2]) is WireFloat
    # NOTE: handed a WireFloat itself, jsonschema-rs 0.61 answers this `not` wrongly (True).
    assert validation.validator({"items": {"not": {"type": "number"}}}).is_valid(copy["a"]) is False
    plain = {"a": ["x", 1, True, None, 0.5]}
    assert validation.plain(plain) is plain  # nothing to copy


def test_nesting_is_bounded() -> None:
    value: Any = "x"
    for _ in range(validation.MAX_DEPTH):  # MAX_DEPTH lists around "x"
        value = [value]
    assert validation.plain(value) is value
    assert validation.plain([value]) is validation.NOT_PLAIN


def test_the_meta_schemas_use_only_the_formats_handled() -> None:
    import jsonschema_specifications

    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for resource in jsonschema_specifications.REGISTRY.values():
        walk(resource.contents)
    assert found == set(validation.META_FORMATS)


@pytest.mark.parametrize(
    "value", [{"a": "x\ud800"}, {"\udc00": 1}, ["\udced\udca0\udc80"], "\ud800"]
)
def test_a_lone_surrogate_is_left_to_python_jsonschema(value: Any) -> None:
    """jsonschema-rs reads strings as UTF-8 and raised UnicodeEncodeError on a lone surrogate
    (an internal error of `audit` on a fuzzed snapshot, seed 20261201 #13)."""
    assert validation.plain(value) is validation.NOT_PLAIN
    assert validation.plain({"a": "é", "b": ["ü"]}) == {"a": "é", "b": ["ü"]}
