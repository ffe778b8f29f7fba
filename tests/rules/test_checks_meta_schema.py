"""The `meta-schema-valid` check against python-jsonschema alone: jsonschema-rs only spares
python-jsonschema the schemas it finds valid, so the hits must be exactly the reference's, on
valid and invalid schemas of each dialect, with and without asserted formats, and for wire
numbers jsonschema-rs cannot read exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from catalogaudit import intake
from catalogaudit.model.catalog import Catalog
from catalogaudit.rules.base import Context
from catalogaudit.rules.checks import CHECKS

D7 = "http://json-schema.org/draft-07/schema#"
D2020 = "https://json-schema.org/draft/2020-12/schema"
SCHEMAS: list[Any] = [
    {"type": "object", "properties": {"q": {"type": "string", "pattern": "^a"}}},
    {"type": "object", "properties": {"q": {"type": 5}}},
    {"type": "object", "required": "q"},
    {"type": "object", "properties": {"n": {"type": "number", "multipleOf": -0.25}}},
    {"type": "object", "properties": {"n": {"type": "number", "minimum": 1.50}}},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "(unclosed"}}},
    {"$schema": D7, "type": "object", "properties": {"q": {"type": "strin"}}},
    {"$schema": D7, "type": "object", "definitions": {"a": {"$ref": "#"}}},
    {"type": "object", "properties": {"q": {"enum": []}}, "additionalProperties": {"type": []}},
    True,
]


def _catalog(tmp_path: Path) -> Catalog:
    tools = [{"name": f"t{i}", "inputSchema": s} for i, s in enumerate(SCHEMAS)]
    path = tmp_path / "tools.json"
    # NOTE: `1.50` stays a wire number (its lexeme kept), which jsonschema-rs is not asked about
    path.write_text(json.dumps({"tools": tools}).replace("1.5,", "1.50,").replace("1.5}", "1.50}"))
    doc = intake.read_catalog(str(path)).doc
    assert doc is not None
    return Catalog(doc, source=str(path))


def _reference(params: dict[str, Any]) -> list[tuple[int, str]]:
    """Each violation's tool and pointer, from python-jsonschema's own meta-schema validator."""
    out = []
    for i, schema in enumerate(SCHEMAS):
        draft = D7 if params.get("dialect") == "draft-07" else D2020
        cls = jsonschema.validators.validator_for({"$schema": draft})
        if "dialect" not in params:
            cls = jsonschema.validators.validator_for(schema, default=cls)
        formats = params.get("formats")
        checker = jsonschema.FormatChecker(formats) if formats else None
        errors = cls(cls.META_SCHEMA, format_checker=checker).iter_errors(schema)
        ordered = sorted(errors, key=lambda e: [str(p) for p in e.absolute_path])
        out.extend((i, "/inputSchema" + "".join(f"/{p}" for p in e.absolute_path)) for e in ordered)
    return out


@pytest.mark.parametrize(
    "params",
    [{}, {"dialect": "draft-07"}, {"formats": ["regex"]}],
    ids=["auto", "draft-07", "regex-format"],
)
def test_hits_are_python_jsonschemas_errors(tmp_path: Path, params: dict[str, Any]) -> None:
    hits = list(CHECKS["meta-schema-valid"](_catalog(tmp_path), params, Context()))
    got = [(int(h.item.identity[1:]), h.pointer) for h in hits if h.item and h.item.identity]
    assert got == _reference(params)
    assert len(got) >= 5  # the invalid schemas are reported, not only skipped


@pytest.mark.parametrize("named", [None, 7, 1.5, {"": {}}, []])
def test_a_schema_keyword_that_is_no_string_is_a_hit(tmp_path: Path, named: Any) -> None:
    """A `$schema` that is not a string reached jsonschema's `validator_for`, which raised
    (the rule crashed under every profile using the check): it names no dialect, so the default
    dialect's meta-schema judges the schema, and says `$schema` is not a string."""
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": {"$schema": named}}]}))
    doc = intake.read_catalog(str(path)).doc
    assert doc is not None
    hits = list(CHECKS["meta-schema-valid"](Catalog(doc, source=str(path)), {}, Context()))
    assert [h.pointer for h in hits] == ["/inputSchema/$schema"]
