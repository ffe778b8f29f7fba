"""The `verify --model` fields in every verify format, with hostile server text kept inert."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import jsonschema
import pytest
from helpers import ROOT

from catalogaudit.formatters.formats import VerifyFormat
from catalogaudit.formatters.verify import format_verify
from catalogaudit.model.verify import Drift, PromptBytes, ToolView, VerifyRun, ViewRow

SCHEMAS = ROOT / "src" / "catalogaudit" / "formatters" / "schemas"
VIEW = '{"name":"mcp__s__t","description":"d","input_schema":{"type":"object"}}'
OK = ToolView(
    "c.json", "tool-search-off", 0, "t", "inline", "mcp__s__t", VIEW, "ab" * 32, "reached", "result"
)
BAD = ToolView(
    "c.json",
    "tool-search-off",
    1,
    "evil\n::error::x",
    "inline",
    "mcp__s__evil",
    VIEW,
    "cd" * 32,
    "refused",
    "refused\n::error::forged",
)
ROWS = (
    ViewRow(OK, "inline", "reached", json.loads(VIEW)),
    ViewRow(BAD, "inline", "reached", {"name": "other"}, "CC-X-001: because"),
)
RUN = VerifyRun(
    "claude-code",
    "2.1.328",
    (),
    "stdio",
    ROWS,
    PromptBytes(("1" * 64, "2" * 64), (Drift(2, "mcp__s__t", "key order"),)),
    (("cat\n::error::x.json", "sha256:" + "e" * 64),),
)


@pytest.mark.parametrize("fmt", list(VerifyFormat))
def test_every_format_shows_the_model_fields(fmt: VerifyFormat) -> None:
    text = format_verify(RUN, fmt)
    assert "mcp__s__t" in text
    if fmt is not VerifyFormat.JUNIT:  # a failure body is XML text: lines there forge nothing
        assert "\n::error::forged" not in text and "\n::error::x" not in text
    if fmt is VerifyFormat.JSON:
        doc = json.loads(text)
        assert doc["modelViews"][0]["modelView"] == json.loads(VIEW)
        assert doc["modelViews"][0]["modelViewSha256"] == "ab" * 32
        assert doc["modelViews"][1]["matches"] is False
        assert doc["promptBytes"]["stable"] is False
        assert doc["prompts"] == {"cat\n::error::x.json": "sha256:" + "e" * 64}
        assert doc["matches"] is False
        schema = json.loads((SCHEMAS / "verify.schema.json").read_text())
        jsonschema.Draft202012Validator(schema).validate(doc)
    if fmt is VerifyFormat.JUNIT:
        root = ET.fromstring(text.split("?>", 1)[1])
        assert root.get("failures") == "2" and root.get("tests") == "3"
    if fmt is VerifyFormat.TEXT:
        assert "UNSTABLE over 2 starts: mcp__s__t (key order, start 2)" in text
        assert "MISMATCH" in text and "sha256 abababab" in text
    if fmt in (VerifyFormat.TEXT, VerifyFormat.MARKDOWN):
        assert "sha256:" + "e" * 64 in text
