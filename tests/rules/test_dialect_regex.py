"""CA403 asks jsonschema-rs with its own formats first (`rules/spec/metaschema.py`
`_surely_valid`), which read "regex" as ECMA-262 does: a pattern ECMA-262 accepts and Python's
`re` refuses must still be reported, wherever the meta-schema asserts "regex" (a `pattern`, a
`patternProperties` name), at any depth, and the first error must be python-jsonschema's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import cli

from catalogaudit.model import pointer_of
from catalogaudit.rules.spec.metaschema import python_first

#: Schemas valid for the meta-schemas but for one pattern Python's `re` refuses (`\p{L}`,
#: `(?<name>...)`), which ECMA-262 accepts.
ECMA_ONLY = [
    {"type": "object", "properties": {"x": {"type": "string", "pattern": "\\p{L}+"}}},
    {"type": "object", "patternProperties": {"^\\p{Lu}": {"type": "string"}}},
    {"type": "object", "$defs": {"d": {"items": {"pattern": "(?<year>\\d{4})"}}}},
    {"type": "object", "dependentSchemas": {"x": {"not": {"pattern": "\\p{N}"}}}},
    {"anyOf": [{"type": "object"}, {"prefixItems": [{"if": {"pattern": "\\p{L}"}}]}]},
]


def _ca403(tmp_path: Any, schema: dict[str, object]) -> list[dict[str, Any]]:
    """The CA403 findings of `catalogaudit audit` on one tool with `schema`."""
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}))
    done = cli("audit", "--format", "json", str(path))
    return [f for f in json.loads(done.stdout)["findings"] if f["ruleId"] == "CA403"]


@pytest.mark.parametrize("schema", ECMA_ONLY)
def test_a_pattern_only_ecma_reads_is_reported_as_python_jsonschema_words_it(
    tmp_path: Any, schema: dict[str, object]
) -> None:
    found = _ca403(tmp_path, schema)
    first = python_first("Draft202012Validator", schema)
    assert first is not None
    assert [f["pointer"] for f in found] == [pointer_of(first.absolute_path, "/inputSchema")]
    assert first.message in found[0]["message"]


def test_patterns_python_reads_pass(tmp_path: Any) -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"type": "string", "pattern": "^[a-z]+$"}},
        "patternProperties": {"^y_": {"type": "integer"}},
    }
    assert _ca403(tmp_path, schema) == []


#: Patterns `re.compile` refuses without `re.error` (OverflowError, ValueError, RecursionError),
#: which python-jsonschema's own checker lets escape: a rule error, not a verdict, before.
NOT_COMPILED = ["a{99999999999}", "(?u)(?a)x", "(" * 3000 + ")" * 3000]


@pytest.mark.parametrize("pattern", NOT_COMPILED, ids=["repeat", "flags", "nesting"])
def test_a_pattern_re_cannot_compile_is_not_a_regex(tmp_path: Any, pattern: str) -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "pattern": pattern}}}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}))
    done = cli("audit", "--format", "json", str(path))
    report = json.loads(done.stdout)
    assert report["ruleErrors"] == []
    (found,) = [f for f in report["findings"] if f["ruleId"] == "CA403"]
    assert found["pointer"] == "/inputSchema/properties/x/pattern"
    assert found["message"].endswith("is not a 'regex'")


@pytest.mark.parametrize("dialect", ["draft-04", "draft-06", "draft-07"])
@pytest.mark.parametrize("pattern", [[], {"a": 1}, 5, None])
def test_a_pattern_no_dialect_reads_may_be_anything(
    tmp_path: Any, dialect: str, pattern: object
) -> None:
    """`prefixItems` is no keyword before 2020-12: a `pattern` under it that is no string is no
    error, and must not end CA403 (a list was an unhashable key of the pattern cache)."""
    sub = {"prefixItems": [{"pattern": pattern}], "patternProperties": {"^a": {}}}
    schema = {"$schema": f"http://json-schema.org/{dialect}/schema#", "type": "object"}
    schema["properties"] = {"x": sub}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": schema}]}))
    done = cli("audit", "--format", "json", str(path))
    assert done.code == 0, done
    report = json.loads(done.stdout)
    assert report["ruleErrors"] == []
    assert [f for f in report["findings"] if f["ruleId"] == "CA403"] == []
