"""CA403 on arrays nested 850 to 20,000 deep in an input schema (issue 33, hostile run).

Deeper than `validation.MAX_DEPTH`, jsonschema-rs refuses a value (and crashes near 10,000
levels) and python-jsonschema overflows the recursion limit (it words an error with the repr of
its whole instance): CA403 then validates the schema's first `metaschema.CUT` levels, so the
error in `items` is still found, and no other tool's finding is lost (CA610 validates such a
page the same way). Files stop at the
parser's nesting bound (about 1,000 levels); deeper values are handed to the rule in a child
process, so a crash of the native stack would show as its exit status."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import PYTHON, cli_process

GOOD = {"type": "object", "properties": {"n": {"type": "number", "multipleOf": -1}}}
WANT = [("a", "/inputSchema/properties/x/items"), ("b", "/inputSchema/properties/n/multipleOf")]


def _tools(items: str) -> str:
    """Two tools, `a` with `items` spelled as given (JSON text), `b` with a bad multipleOf."""
    schema = '{"type": "object", "properties": {"x": {"items": ' + items + "}}}"
    good = json.dumps(GOOD)
    return (
        '{"tools": [{"name": "a", "inputSchema": '
        + schema
        + "}, "
        + ('{"name": "b", "inputSchema": ' + good + "}]}")
    )


@pytest.mark.parametrize("depth", [850, 970])
def test_deep_arrays_in_a_file_keep_every_ca403_finding(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "tools.json"
    path.write_text(_tools("[" * depth + "]" * depth), encoding="utf-8")
    done = cli_process("audit", str(path), "--format", "json")
    assert done.code == 1, str(done)
    report = done.json()
    assert report["ruleErrors"] == []  # CA610 too: it validates such a page's first levels
    found = [(f["identity"], f["pointer"]) for f in report["findings"] if f["ruleId"] == "CA403"]
    assert found == WANT
    assert "is not of type 'object', 'boolean'" in report["findings"][0]["message"]


@pytest.mark.parametrize("depth", [5000, 20_000])
def test_deeper_arrays_are_one_error_line_in_a_file(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "tools.json"
    path.write_text(_tools("[" * depth + "]" * depth), encoding="utf-8")
    done = cli_process("audit", str(path), "--select", "CA403")
    assert done.code == 2
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr


RULE = """
import json, sys
from catalogaudit.intake import read_catalog
from catalogaudit.model.catalog import Catalog
from catalogaudit.rules.base import Context
from catalogaudit.rules.spec.schema import dialect_valid

path, depth = sys.argv[1], int(sys.argv[2])
catalog = Catalog(read_catalog(path, protocol="2025-11-25").doc, source=path)
deep = []
for _ in range(depth - 1):
    deep = [deep]
(item,) = [i for i in catalog.all_items() if i.identity == "a"]
item.value["inputSchema"]["properties"]["x"]["items"] = deep
print(json.dumps(sorted((h.item.identity, h.pointer) for h in dialect_valid(catalog, Context()))))
"""


@pytest.mark.parametrize("depth", [850, 970, 5000, 20_000])
def test_deep_arrays_handed_to_the_rule(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "tools.json"
    path.write_text(_tools('"deep"'), encoding="utf-8")
    done = subprocess.run(
        [PYTHON, "-c", RULE, str(path), str(depth)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert [tuple(f) for f in json.loads(done.stdout)] == WANT
