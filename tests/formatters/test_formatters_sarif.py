"""SARIF output against the official OASIS SARIF 2.1.0 schema (vendored, see its SOURCE.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
from test_formatters import (
    F_CACHE,
    F_DESC,
    F_NAME,
    HOSTILE,
    RULES,
    clean_report,
    full_report,
    hostile_report,
)

from catalogaudit import __version__
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.formatters.report import format_report
from catalogaudit.formatters.sarif import artifact_uri
from catalogaudit.model.findings import Finding, Report, Severity

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
SCHEMA_FILE = VECTORS / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"

# RFC 3986 characters; jsonschema checks `uri` formats only with optional packages, so the
# URI-typed SARIF properties are checked here by hand.
URI_CHARS = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
URI_KEYS = {"$schema", "informationUri", "helpUri", "uri"}


def schema() -> dict[str, Any]:
    data = SCHEMA_FILE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == SCHEMA_SHA256, "vendored SARIF schema edited?"
    loaded: dict[str, Any] = json.loads(data)
    return loaded


def sarif(report: Report) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(format_report(report, OutputFormat.SARIF))
    return doc


def uris(node: Any) -> list[tuple[str, str]]:
    if isinstance(node, dict):
        found = [(k, v) for k, v in node.items() if k in URI_KEYS and isinstance(v, str)]
        return found + [u for v in node.values() for u in uris(v)]
    if isinstance(node, list):
        return [u for v in node for u in uris(v)]
    return []


def test_vendored_schema_is_the_oasis_2_1_0_schema() -> None:
    doc = schema()
    assert doc["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    assert doc["properties"]["version"]["enum"] == ["2.1.0"]
    jsonschema.Draft4Validator.check_schema(doc)
    assert (VECTORS / "sarif-schema-2.1.0.SOURCE.md").exists()


@pytest.mark.parametrize("make", [full_report, clean_report, hostile_report, Report])
def test_sarif_validates_against_the_official_schema(make: Any) -> None:
    doc = sarif(make())
    validator = jsonschema.Draft4Validator(schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    for key, value in uris(doc):
        assert URI_CHARS.match(value), (key, value)
        if key in {"$schema", "informationUri", "helpUri"}:
            assert urlsplit(value).scheme in {"http", "https"}, (key, value)


def test_sarif_run_and_driver() -> None:
    doc = sarif(full_report())
    assert doc["version"] == "2.1.0" and len(doc["runs"]) == 1
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "catalogaudit" and driver["version"] == __version__
    assert driver["informationUri"].startswith("https://")
    assert run["invocations"] == [
        {
            "executionSuccessful": False,
            "toolExecutionNotifications": [
                {
                    "level": "error",
                    "message": {"text": "rule CA999 raised: ValueError: boom"},
                    "associatedRule": {"id": "CA999"},
                }
            ],
        }
    ]
    assert run["properties"] == {
        "counts": {"error": 1, "warning": 1, "info": 1},
        "inputs": ["snap.json"],
        "notes": ["context-forge: no version given, used the newest verified (1.0.0b2)"],
        "profiles": ["spec", "context-forge@1.0.0b2"],
        "revision": "2025-11-25",
        "revisionAssumed": True,
        "rewritten": True,
        "suppressed": 2,
    }


def test_sarif_rules_carry_help_and_urls() -> None:
    rules = sarif(full_report())["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["CA101", "CA501", "CF-DESC-001"]
    cf = RULES["CF-DESC-001"]
    assert rules[2] == {
        "id": "CF-DESC-001",
        "name": "context-forge.description-forbidden",
        "shortDescription": {"text": cf.summary},
        "fullDescription": {"text": cf.summary},
        "help": {
            "text": f"{cf.summary}\n\nFix: Remove the substring.\n\n"
            "Applies to context-forge >=0.9.0,<1.0.0rc2.\n\nSource: https://example.org/cf#desc"
        },
        "helpUri": "https://example.org/cf#desc",
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "origin": "context-forge",
            "versions": ">=0.9.0,<1.0.0rc2",
            "confidence": "measured",
            "tags": ["catalogaudit", "context-forge"],
        },
    }
    assert rules[0]["help"]["text"].startswith(RULES["CA101"].description + "\n\nFix: Rename")
    assert rules[0]["defaultConfiguration"] == {"level": "warning"}
    # CA501 produced a finding but has no metadata in the report: a minimal descriptor keeps
    # ruleIndex valid.
    assert rules[1]["id"] == "CA501" and rules[1]["defaultConfiguration"] == {"level": "note"}


def test_sarif_results() -> None:
    results = sarif(full_report())["runs"][0]["results"]
    assert results[2] == {
        "ruleId": "CF-DESC-001",
        "ruleIndex": 2,
        "level": "error",
        "message": {"text": F_DESC.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "snaps/a%20b.json"},
                    "region": {"startLine": 12, "startColumn": 20},
                },
                "logicalLocations": [
                    {"name": "read", "kind": "tools", "fullyQualifiedName": "tools/read"},
                    {
                        "name": "/description",
                        "kind": "value",
                        "fullyQualifiedName": "tools/read/description",
                    },
                ],
            }
        ],
        "partialFingerprints": {"catalogaudit/v1": F_DESC.fingerprint},
        "properties": {
            "kind": "tools",
            "identity": "read",
            "pointer": "/description",
            "profile": "context-forge@1.0.0b2",
            "excerpt": ";",
            "hint": "Remove the semicolon.",
            "source": "https://example.org/cf#desc",
            "documentPointer": "/listings/tools/items/0/description",
        },
    }
    # No line known: the file without a region. No file read: logical locations only.
    assert results[0]["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "snap.json"}
    }
    assert results[0]["properties"]["page"] == 0
    assert results[0]["partialFingerprints"] == {"catalogaudit/v1": F_NAME.fingerprint}
    assert results[1]["locations"] == [
        {
            "logicalLocations": [
                {"name": "catalog", "kind": "catalog", "fullyQualifiedName": "catalog"}
            ]
        }
    ]
    assert results[1]["level"] == "note"
    assert results[1]["partialFingerprints"] == {"catalogaudit/v1": F_CACHE.fingerprint}


def test_sarif_clean_is_a_full_log() -> None:
    run = sarif(clean_report())["runs"][0]
    assert run["results"] == [] and run["tool"]["driver"]["rules"] == []
    assert run["invocations"] == [{"executionSuccessful": True}]


def test_sarif_fingerprint_ignores_location() -> None:
    moved = dataclasses.replace(F_DESC, location=None, message="other words")
    assert sarif(Report(findings=[moved]))["runs"][0]["results"][0]["partialFingerprints"] == {
        "catalogaudit/v1": F_DESC.fingerprint
    }


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("snap.json", "snap.json"),
        ("dir/a b#1.json", "dir/a%20b%231.json"),
        ("/abs/p ath.json", "file:///abs/p%20ath.json"),
        ("C:\\work\\snap.json", "file:///C:/work/snap.json"),
        ("snaps/\u00e9.json", "snaps/%C3%A9.json"),
    ],
)
def test_artifact_uri(path: str, uri: str) -> None:
    assert artifact_uri(path) == uri


def test_sarif_levels() -> None:
    findings = [Finding(f"CA10{i}", s, "m") for i, s in enumerate(Severity)]
    levels = [r["level"] for r in sarif(Report(findings=findings))["runs"][0]["results"]]
    assert levels == ["error", "warning", "note"]


def test_sarif_message_shows_hidden_characters_and_keeps_raw_excerpt() -> None:
    result = sarif(hostile_report())["runs"][0]["results"][0]
    assert "\x1b" not in result["message"]["text"]
    assert r"\x1b[31mRED" in result["message"]["text"]
    assert result["properties"]["excerpt"] == HOSTILE
