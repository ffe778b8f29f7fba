"""CA403 names python-jsonschema's first meta-schema error, found by jsonschema-rs, on real
servers' schemas and on hostile ones (deep nesting, catastrophic-backtracking patterns).
tests/model/test_validation_reference.py compares the two libraries on generated schemas."""

from __future__ import annotations

import json
import subprocess
import time
from typing import Any

from helpers import PYTHON, SERVERS, cli

from catalogaudit.model import jsonwire
from catalogaudit.rules.spec.metaschema import first_schema_error, python_first


def _view(error: Any) -> Any:
    if error is None:
        return None
    return jsonwire.pointer_of(error.absolute_path), error.message, str(error.instance)[:200]


def test_a_deep_defect_among_valid_properties() -> None:
    valid = {"type": "string", "description": "d", "minLength": 1}
    bad = {"type": "number", "multipleOf": jsonwire.loads("-0.250")}
    schema = {
        "type": "object",
        "properties": {
            **{f"p{i}": dict(valid) for i in range(20)},
            "deep": {"type": "object", "properties": {"n": bad}},
        },
    }
    for name in ("Draft202012Validator", "Draft7Validator", "Draft4Validator"):
        got = first_schema_error(name, schema)
        assert _view(got) == _view(python_first(name, schema))
        assert got is not None
        assert jsonwire.pointer_of(got.absolute_path) == "/properties/deep/properties/n/multipleOf"
        assert got.message == "-0.250 is less than or equal to the minimum of 0"


def test_an_error_that_needs_a_sibling_is_named_in_place() -> None:
    # NOTE: draft-04's `exclusiveMinimum` needs its `minimum`: the keyword alone is no unit.
    schema = {"properties": {"a": {"exclusiveMinimum": True}}, "items": [{"type": "x"}]}
    for name in ("Draft4Validator", "Draft7Validator"):
        assert _view(first_schema_error(name, schema)) == _view(python_first(name, schema))


def test_a_real_servers_defects_are_named_with_numbers_as_served(tmp_path: Any) -> None:
    """A real `mcp` server's schemas (fixtures/servers/schema_defects_server.py), snapshotted
    over stdio and audited: the `patternProperties` name that is no regex is found, and the
    message and excerpt show a number as the server wrote it, not the parser's wrapper."""
    snap = tmp_path / "defects.snapshot.json"
    made = cli("snapshot", "-o", str(snap), "--", PYTHON, str(SERVERS / "schema_defects_server.py"))
    assert made.code == 0, made
    done = cli("audit", "--format", "json", str(snap))
    found = {
        (f["identity"], f["pointer"]): f
        for f in json.loads(done.stdout)["findings"]
        if f["ruleId"] == "CA403"
    }
    assert set(found) == {
        ("pay", "/inputSchema/properties/amount/multipleOf"),
        ("tag", "/inputSchema/patternProperties"),
    }
    pay = found["pay", "/inputSchema/properties/amount/multipleOf"]
    assert pay["message"].endswith("schema: -0.25 is less than or equal to the minimum of 0")
    assert pay["excerpt"] == "-0.25"
    assert found["tag", "/inputSchema/patternProperties"]["message"].endswith(
        "schema: '[' is not a 'regex'"
    )
    assert "Wire" not in done.stdout


def test_a_catastrophic_pattern_is_compiled_never_run(tmp_path: Any) -> None:
    """`^(a+)+$` against a long run of a's would backtrack for ages; meta-schema validation
    only compiles a schema's patterns (format "regex"), and the snapshot schema's own patterns
    run in linear time."""
    text = "a" * 50_000 + "!"
    tools = [
        {
            "name": "t",
            "inputSchema": {
                "type": "object",
                "properties": {"x": {"type": "string", "pattern": "^(a+)+$", "default": text}},
                "patternProperties": {"^(a|aa)+$": {"const": text}},
            },
        }
    ]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    start = time.monotonic()
    done = cli("audit", "--format", "json", str(path))
    assert time.monotonic() - start < 60
    assert done.code in (0, 1), done
    assert not [f for f in json.loads(done.stdout)["findings"] if f["ruleId"] == "CA403"]


DEEP = """
import sys
from catalogaudit.model import validation
from catalogaudit.rules.spec.metaschema import first_schema_error
from catalogaudit.snapshots import build

deep = {}
node = deep
for _ in range(10_000):
    node["properties"] = {"a": {}}
    node = node["properties"]["a"]
assert validation.plain(deep) is validation.NOT_PLAIN
print("CA403 answered", first_schema_error("Draft202012Validator", deep))
doc = {"formatVersion": 1, "capture": {"server": deep}}
try:
    build.validate(doc)
except RecursionError:
    print("snapshot refused")
else:
    print("snapshot answered")
"""


def test_nesting_10000_deep_cannot_crash_the_process() -> None:
    """jsonschema-rs handed such a value overflows its native stack and the process dies
    (SIGSEGV); it is never handed one: CA403 validates its first `validation.CUT` levels
    (tests/rules/test_metaschema_depth.py), where this one is valid."""
    done = subprocess.run(
        [PYTHON, "-c", DEEP], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "CA403 answered None" in done.stdout
    assert "snapshot" in done.stdout
