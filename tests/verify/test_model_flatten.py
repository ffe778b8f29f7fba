"""Claude Code's root-combinator flattening and its own schema check, predicted from the
claude-code profile's `model_view` data, against what 2.1.328 sent (recorded with
`verify --client claude-code --model` in fixtures/model/root-combinators.observed.json): the
predicted object must equal the one Claude Code sent (a flattened root's key order too), and a
tool it left out must be predicted not offered."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import FIXTURES, cli
from packaging.version import Version

from catalogaudit.model.verify import NOT_OFFERED
from catalogaudit.verify.base import Target, targets
from catalogaudit.verify.flatten import as_sent, normalize
from catalogaudit.verify.predict_model import _entries, _first, predict_views

OBSERVED = json.loads((FIXTURES / "model" / "root-combinators.observed.json").read_text())


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Target:
    out = tmp_path_factory.mktemp("flatten") / "rc.json"
    got = cli(
        "snapshot",
        "--from",
        str(FIXTURES / "model" / "root-combinators-tools.json"),
        "-o",
        str(out),
    )
    assert got.code == 0, str(got)
    (t,) = targets([out], out.parent)
    return t


@pytest.mark.parametrize("mode", ["tool-search-off", "default"])
def test_prediction_has_the_bytes_claude_code_sent(target: Target, mode: str) -> None:
    predicted = predict_views(target, OBSERVED["server"], "claude-code@2.1.328", mode, frozenset())
    names = {i.served_index: str(i.value["name"]) for i in target.catalog.items("tools")}
    assert set(names.values()) == set(OBSERVED["tools"])
    for index, p in predicted.items():
        seen = OBSERVED["tools"][names[index]][mode]
        assert p.offered == seen["offered"], names[index]
        if seen["offered"] == NOT_OFFERED:
            assert p.view is None and "left out" in p.because
            continue
        assert p.view == seen["modelView"], names[index]
        # a flattened root's key order is Claude Code's, whatever the served order was
        if p.view["description"].startswith("Input constraint"):
            assert list(p.view["input_schema"]) == list(seen["modelView"]["input_schema"])


def test_the_recorded_flattening() -> None:
    """The shapes issue 32 names, as recorded: anyOf and oneOf lose every branch's required,
    allOf keeps the union, the root's other keywords go, the note is put first."""
    tools = OBSERVED["tools"]

    def sent_schema(name: str) -> dict[str, Any]:
        view: dict[str, Any] = tools[name]["tool-search-off"]["modelView"]
        return view

    anyof = sent_schema("anyof")
    assert anyof["input_schema"]["required"] == []
    assert anyof["input_schema"]["additionalProperties"] is True
    assert anyof["description"].startswith(
        "Input constraint: Provide parameters for at least one of: (id) or (name).\n\n"
    )
    assert sent_schema("allof")["input_schema"]["required"] == ["a", "b"]
    assert "exactly one of" in sent_schema("oneof")["description"]
    assert "minProperties" not in sent_schema("anyof_d7")["input_schema"]
    assert "not" in sent_schema("not_root")["input_schema"]
    assert tools["anyof_not_array"]["tool-search-off"]["offered"] == NOT_OFFERED


def test_no_combinator_no_change_and_bad_branches() -> None:
    entry = _first(_entries()[0]["claude-code"], Version("2.1.328"))
    assert entry is not None
    spec = entry["schema_normalize"]
    assert normalize({"type": "object", "not": {}}, spec, every=True) is None
    assert normalize({"type": "object", "allOf": {}}, spec, every=False) == (
        "input schema has top-level allOf that is not an array"
    )
    plain = {"name": "t", "description": "d", "inputSchema": {"type": "object"}}
    assert (
        as_sent(plain, entry).schema == {"type": "object"}
        and as_sent(plain, entry).description == "d"
    )
    # the retry: a variant that fails the 2020-12 check is merged first-wins instead
    odd = {
        "type": "object",
        "anyOf": [
            {"properties": {"a": {"type": "string"}}},
            {"properties": {"a": {"type": "strin"}}},
        ],
    }
    got = as_sent({"name": "t", "inputSchema": odd}, entry)
    assert not got.skipped and got.schema["properties"] == {"a": {"type": "string"}}


def test_older_versions_have_no_flattening_data() -> None:
    """Before 2.1.328 nothing is measured: no model_view entry, so no prediction."""
    assert (
        _first(
            _entries()[0]["claude-code"], __import__("packaging.version").version.Version("2.1.258")
        )
        is None
    )


#: Subschema keywords (one schema, a map of them, an array of them), and members the
#: 2020-12 meta-schema refuses or accepts wherever they are.
_ONE = ("items", "additionalProperties", "not", "if", "then", "contains", "propertyNames")
_MAP = ("properties", "patternProperties", "$defs", "dependentSchemas", "dependencies")
_ARRAY = ("allOf", "anyOf", "oneOf", "prefixItems")
_LEAVES = (
    {"multipleOf": -0.25},
    {"minLength": -1},
    {"required": "name"},
    {"type": 5},
    {"type": "string"},
    {"enum": []},
    {"description": 3},
    {"minimum": 1.5},
    {"dependencies": {"a": ["b", 1]}},
    {"items": [{"type": "string"}]},
    {"$anchor": "a\n"},
)


def _schemas() -> Any:
    from hypothesis import strategies as st

    leaf = st.sampled_from(_LEAVES).map(dict) | st.booleans()
    names = st.sampled_from(["a", "b", "properties", "items", "0"])

    def nest(inner: Any) -> Any:
        one = st.tuples(st.sampled_from(_ONE), inner).map(lambda kv: {kv[0]: kv[1]})
        mapped = st.tuples(
            st.sampled_from(_MAP), st.dictionaries(names, inner, min_size=1, max_size=3)
        ).map(lambda kv: {kv[0]: kv[1]})
        listed = st.tuples(st.sampled_from(_ARRAY), st.lists(inner, max_size=3)).map(
            lambda kv: {kv[0]: kv[1]}
        )
        merged = st.lists(one | mapped | listed | leaf, min_size=1, max_size=3)
        return merged.map(
            lambda ds: {k: v for d in ds if isinstance(d, dict) for k, v in d.items()}
        )

    return st.recursive(leaf, nest, max_leaves=12).filter(lambda s: isinstance(s, dict))


def test_the_schema_check_is_python_jsonschemas_verdict() -> None:
    """`_valid` (jsonschema-rs, then python-jsonschema on the subschema of its error) answers
    what python-jsonschema's walk of the whole schema answers."""
    from hypothesis import given
    from jsonschema import Draft202012Validator

    from catalogaudit.verify.flatten import _valid

    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)

    @given(_schemas())
    def check(schema: dict[str, Any]) -> None:
        assert _valid(schema) == meta.is_valid(schema)

    check()
