"""Issue 13 item 4, Gemini: the API's `parameters` Schema wants string enums on string schemas
and `items` on arrays (GEM-SCHEMA-002, one finding per cause naming tools and pointers), while
Gemini CLI sends parametersJsonSchema and so is not held to the `parameters` schema rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, PYTHON, cli, fixture, npm_bin

from catalogaudit.profiles.load import load_all

CASES = FIXTURES / "rules" / "GEM-SCHEMA-002"


def _audit(profile: str, path: Path) -> list[dict[str, Any]]:
    result = cli("audit", "--profile", profile, "--format", "json", str(path))
    assert result.code in (0, 1), str(result)
    findings: list[dict[str, Any]] = result.json()["findings"]
    return findings


def _causes(findings: list[dict[str, Any]]) -> dict[str, str]:
    return {f["excerpt"]: f["message"] for f in findings if f["ruleId"] == "GEM-SCHEMA-002"}


def _snapshot(tmp_path: Path, *command: str) -> Path:
    out = tmp_path / "snapshot.json"
    result = cli("snapshot", "-o", str(out), "--", *command, timeout=180)
    assert result.code == 0, str(result)
    return out


def test_a_python_server_with_literal_and_tuple_params_gets_one_finding_per_cause(
    tmp_path: Path,
) -> None:
    """`Literal[1, 5, 10]` and `tuple[float, float]`, served over stdio by mcp 2.3.0."""
    served = _snapshot(tmp_path, PYTHON, str(fixture("servers", "typed_params_server.py")), "stdio")
    causes = _causes(_audit("gemini", served))
    assert set(causes) == {
        "enum with non-string values",
        "enum on a schema whose type is not string",
        "array schema without items",
    }
    assert causes["enum with non-string values"].startswith(
        'enum with non-string values in 1 tool: tool "forecast" at '
        "/inputSchema/properties/days/enum;"
    )
    assert causes["array schema without items"].startswith(
        'array schema without items in 1 tool: tool "distance" at '
        "/inputSchema/properties/origin, /inputSchema/properties/target;"
    )
    assert "unit" not in str(causes)  # Literal["c", "f"] is a string enum on a string schema
    assert all(f["severity"] == "warning" for f in _audit("gemini", served))
    # the committed fail case is that capture
    assert _causes(_audit("gemini", CASES / "fail" / "typed_params_server.json")) == causes


def test_nested_arrays_untyped_and_boolean_enums_name_every_tool() -> None:
    causes = _causes(_audit("gemini", CASES / "fail" / "nested.json"))
    assert causes["array schema without items"].startswith(
        'array schema without items in 2 tools: tool "plot" at /inputSchema/properties/rows/items; '
        'tool "toggle" at /inputSchema/properties/labels;'
    )
    assert causes["enum on a schema whose type is not string"].startswith(
        'enum on a schema whose type is not string in 2 tools: tool "plot" at '
        "/inputSchema/properties/style/enum, /inputSchema/properties/dpi/enum; "
        'tool "toggle" at /inputSchema/properties/on/enum;'
    )
    assert 'unknown type "text"' in causes


@pytest.mark.npm
def test_server_everything_string_enums_pass(tmp_path: Path) -> None:
    """server-everything 2026.8.31: four string enums on string schemas, every array typed."""
    served = _snapshot(tmp_path, npm_bin("mcp-server-everything"))
    assert _causes(_audit("gemini", served)) == {}
    assert [f["ruleId"] for f in _audit("gemini", served)] == ["GEM-SCHEMA-001"]


def test_gemini_cli_is_not_held_to_the_parameters_schema_rules() -> None:
    """Gemini CLI sends inputSchema as parametersJsonSchema (mcp-client.ts, tools.ts), which
    takes integer enums, bare arrays, $schema and additionalProperties."""
    profile = load_all()["gemini-cli"]
    assert not {i.rule.id for i in profile.includes} & {"GEM-SCHEMA-001", "GEM-SCHEMA-002"}
    assert "parametersJsonSchema" in profile.summary
    found = _audit("gemini-cli", CASES / "fail" / "typed_params_server.json")
    assert [f for f in found if f["ruleId"].startswith("GEM-")] == []
