"""`audit server.json`: the MCP registry's published schema (vendored with its licence and
source) and the official registry's own requirements, located by line and column."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT, cli

VENDORED = ROOT / "src" / "catalogaudit" / "rules" / "spec" / "registry"

GOOD = {
    "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
    "name": "io.github.someone/weather",
    "description": "Weather forecasts",
    "version": "1.0.0",
    "packages": [
        {
            "registryType": "npm",
            "identifier": "@someone/weather-mcp",
            "version": "1.0.0",
            "transport": {"type": "stdio"},
            "runtimeHint": "npx",
            "packageArguments": [{"type": "positional", "valueHint": "config_path"}],
            "environmentVariables": [{"name": "API_KEY", "isSecret": True, "isRequired": True}],
        },
        {
            "registryType": "oci",
            "identifier": "ghcr.io/someone/weather:1.0.0",
            "transport": {"type": "stdio"},
        },
    ],
    "remotes": [{"type": "streamable-http", "url": "https://weather.example.com/mcp"}],
    "_meta": {"io.modelcontextprotocol.registry/publisher-provided": {"tool": "ci"}},
}

BAD = """{
  "name": "weather",
  "description": "Weather",
  "version": "^1.2.0",
  "_meta": {"com.example/build": {"id": 1}},
  "packages": [
    {"registryType": "npm", "identifier": "@x/weather", "version": "1.2.0",
     "registryBaseUrl": "https://npm.example.com", "transport": {"type": "stdio"},
     "runtimeArguments": [{"type": "positional", "value": "--x"}]},
    {"registryType": "oci", "identifier": "quay.io/x/weather:1.2.0",
     "transport": {"type": "stdio"}},
    {"registryType": "pypi", "identifier": "weather", "transport": {"type": "stdio"}}
  ]
}
"""


def test_a_valid_server_json_is_clean(tmp_path: Path) -> None:
    path = tmp_path / "server.json"
    path.write_text(json.dumps(GOOD, indent=2))
    got = cli("audit", path, "--format", "json", "--fail-on", "info")
    assert got.code == 0, str(got)
    assert got.json()["findings"] == []


def test_every_problem_is_found_and_located(tmp_path: Path) -> None:
    path = tmp_path / "weather.server.json"
    path.write_text(BAD)
    got = cli("audit", path, "--format", "json")
    assert got.code == 1
    found = {
        (f["ruleId"], f["location"]["pointer"], f["location"]["line"])
        for f in got.json()["findings"]
    }
    assert found == {
        ("CA940", "/name", 2),  # not reverse-DNS
        ("CA940", "/packages/2", 12),  # a registry package without its version
        ("CA941", "/version", 4),  # a range
        ("CA941", "/packages/0/registryBaseUrl", 8),
        ("CA941", "/packages/1/identifier", 10),  # quay.io is not a trusted OCI registry
        ("CA942", "/_meta/com.example~1build", 5),
        ("CA942", "/packages/0/runtimeArguments", 9),
    }
    narrowed = cli("audit", path, "--select", "CA941", "--format", "json")
    assert {f["ruleId"] for f in narrowed.json()["findings"]} == {"CA941"}


def test_a_registry_answer_is_linted_entry_by_entry(tmp_path: Path) -> None:
    broken = {**GOOD, "name": "io.github.someone/other", "version": "1.x"}
    answer = {"servers": [{"server": GOOD}, {"server": broken}], "metadata": {"count": 2}}
    path = tmp_path / "server.json"
    path.write_text(json.dumps(answer))
    got = cli("audit", path, "--format", "json")
    (only,) = got.json()["findings"]
    assert (only["ruleId"], only["identity"]) == ("CA941", "io.github.someone/other")
    assert only["location"]["pointer"] == "/servers/1/server/version"


def test_not_json_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "server.json"
    path.write_text("{")
    got = cli("audit", path)
    assert got.code == 2 and got.stderr.startswith("error: ") and got.stderr.count("\n") == 1


def test_the_vendored_schema_names_its_source_and_licence() -> None:
    (schema,) = VENDORED.glob("*.server.schema.json")
    doc = json.loads(schema.read_text())
    date = schema.name.split(".")[0]
    assert doc["$id"] == f"https://static.modelcontextprotocol.io/schemas/{date}/server.schema.json"
    source = (VENDORED / "SOURCE.md").read_text()
    assert "github.com/modelcontextprotocol/registry at commit" in source and doc["$id"] in source
    assert (VENDORED / "LICENSE").read_text().startswith("MIT License")


def test_the_lint_report_validates_as_an_audit_document(tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads(
        (ROOT / "src" / "catalogaudit" / "formatters" / "schemas" / "audit.schema.json").read_text()
    )
    path = tmp_path / "server.json"
    path.write_text(BAD)
    jsonschema.Draft202012Validator(schema).validate(cli("audit", path, "--format", "json").json())
