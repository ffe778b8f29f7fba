"""One JSON envelope (`$schema`, `formatVersion`, `kind`) on every verb's JSON output, each
validated against the schema it names, on real servers' captures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import FIXTURES, PYTHON, ROOT, cli

import catalogaudit as api
from catalogaudit.model.envelope import FIELDS, SCHEMA_BASE, VERSIONS, schema_id

SCHEMAS = ROOT / "src" / "catalogaudit" / "formatters" / "schemas"
EVERYTHING = str(FIXTURES / "real-servers" / "server-everything.snapshot.json")
NOTION = str(FIXTURES / "real-servers" / "notion-mcp-server.snapshot.json")
TIME = str(FIXTURES / "real-servers" / "mcp-server-time.snapshot.json")
FS_OLD = str(FIXTURES / "captures" / "server-filesystem-2026.1.14.snapshot.json")
FS_NEW = str(FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json")

#: One real run per kind: the command line and the exit codes it may end with.
RUNS: dict[str, tuple[list[str], tuple[int, ...]]] = {
    "audit": (["audit", EVERYTHING, "--format", "json", "--fail-on", "never"], (0,)),
    "matrix": (
        ["audit", NOTION, "--matrix", "--profile", "spec", "--profile", "openai-strict"]
        + ["--profile", "claude-code", "--format", "json"],
        (0, 1),
    ),
    "suggest": (["audit", EVERYTHING, "--suggest", "--profile", "ascii-prose"], (0, 1)),
    "diff": (["diff", FS_OLD, FS_NEW, "--format", "json"], (0, 1)),
    "stability": (["stability", FS_OLD, FS_NEW, "--format", "json"], (0, 1)),
    "hash": (["hash", TIME, "--format", "json"], (0,)),
    "rules": (["rules", "--format", "json"], (0,)),
    "rule": (["rule", "CC-SCHEMA-001", "--format", "json"], (0,)),
    "profiles": (["profiles", "--format", "json"], (0,)),
    "profile": (["profiles", "context-forge@1.0.0b2", "--format", "json"], (0,)),
    "rewrite": (
        ["rewrite", EVERYTHING, "--fix", "cache-hints", "-o", "OUT", "--format", "json"],
        (0, 1),
    ),
    "verify": (["verify", "--client", "python-sdk", "--format", "json", FS_NEW], (0,)),
    "baseline": (["audit", EVERYTHING, "--profile", "anthropic", "--write-baseline", "OUT"], (0,)),
    "fleet": (["snapshot", "--servers", "CONFIG", "-o", "DIR"], (1,)),
}


def schema(kind: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    return loaded


def check(doc: Any, kind: str) -> None:
    """The envelope is first-class and right, and the document is valid under its schema."""
    assert isinstance(doc, dict)
    assert (doc["$schema"], doc["formatVersion"], doc["kind"]) == (
        schema_id(kind),
        VERSIONS[kind],
        kind,
    )
    name = doc["$schema"].removeprefix(SCHEMA_BASE)
    assert (SCHEMAS / name).is_file(), f"{doc['$schema']} names no schema file"
    jsonschema.Draft202012Validator(schema(kind)).validate(doc)


def test_every_run_covers_every_kind() -> None:
    assert sorted(RUNS) == sorted(VERSIONS)


@pytest.mark.parametrize("kind", sorted(VERSIONS))
def test_each_kind_has_a_published_schema_with_its_id_and_version(kind: str) -> None:
    s = schema(kind)
    jsonschema.Draft202012Validator.check_schema(s)
    assert s["$id"] == schema_id(kind)
    assert s["$id"].startswith("https://github.com/catalogaudit/catalogaudit/")
    assert s["properties"]["$schema"] == {"const": schema_id(kind)}
    assert s["properties"]["formatVersion"]["const"] == VERSIONS[kind]
    assert s["properties"]["kind"] == {"const": kind}
    assert set(FIELDS) <= set(s["required"])


def test_no_schema_file_without_a_kind() -> None:
    assert sorted(p.name for p in SCHEMAS.glob("*.schema.json")) == sorted(
        f"{k}.schema.json" for k in VERSIONS
    )


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_every_verb_json_carries_the_envelope_and_validates(kind: str, tmp_path: Path) -> None:
    args, codes = RUNS[kind]
    args = [str(tmp_path / "out.json") if a == "OUT" else a for a in args]
    if kind == "fleet":  # one replayed real server, one whose command does not exist
        servers = {
            "time": {"command": PYTHON, "args": ["-m", "catalogaudit", "serve", TIME]},
            "gone": {"command": str(tmp_path / "no-such-server")},
        }
        (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": servers}))
        swap = {"CONFIG": str(tmp_path / "mcp.json"), "DIR": str(tmp_path / "fleet")}
        args = [swap.get(a, a) for a in args]
    if kind == "suggest":
        args += ["--format", "json"]
    if kind == "rewrite":
        args += ["--report", str(tmp_path / "report.json")]
    result = cli(*args, timeout=300)
    assert result.code in codes, str(result)
    text = result.stdout
    if kind == "rewrite":
        text = (tmp_path / "report.json").read_text()
    if kind == "baseline":
        text = (tmp_path / "out.json").read_text()
    if kind == "fleet":
        text = (tmp_path / "fleet" / "fleet.json").read_text()
    check(json.loads(text), kind)


def test_the_matrix_lists_every_break() -> None:
    args, _ = RUNS["matrix"]
    doc = cli(*args).json()
    strict = next(r for r in doc["matrix"] if r["profile"] == "openai-strict")
    assert strict["errors"] > 5 and len(strict["breaks"]) == strict["errors"]
    assert {b["listing"] for b in strict["breaks"]} == {"tools"}
    assert all(b["ruleId"].startswith("OAI-") and b["message"] for b in strict["breaks"])


def test_the_public_api_returns_the_documents_the_verbs_print() -> None:
    check(api.hashes(TIME), "hash")
    check(api.stability(FS_OLD, FS_NEW), "stability")
    printed = cli("hash", TIME, "--format", "json").json()
    assert {**api.hashes(TIME), "input": ""} == {**printed, "input": ""}


def test_findings_and_changes_name_their_listing_listing() -> None:
    audit = cli(*RUNS["audit"][0]).json()
    assert audit["findings"] and all("listing" in f and "kind" not in f for f in audit["findings"])
    diff = cli("diff", FS_OLD, FS_NEW, "--format", "json").json()
    assert all("listing" in c and "kind" not in c for c in diff["changes"])


def test_a_baseline_written_before_the_envelope_still_reads(tmp_path: Path) -> None:
    """Old baselines have no envelope and say `kind`: --baseline and --strict-baseline take
    them as before (the reader looks at `fingerprints`, and `listing` or else `kind`)."""
    new = tmp_path / "new.json"
    cli(*RUNS["baseline"][0][:-1], str(new))
    doc = json.loads(new.read_text())
    old = {
        "fingerprints": doc["fingerprints"] + ["0" * 64],
        "findings": [
            {("kind" if k == "listing" else k): v for k, v in f.items()} for f in doc["findings"]
        ]
        + [
            {
                "fingerprint": "0" * 64,
                "ruleId": "ANT-NAME-001",
                "kind": "prompts",
                "identity": "gone",
                "pointer": "/name",
            }
        ],
    }
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    args = ["audit", EVERYTHING, "--profile", "anthropic", "--baseline", str(path)]
    assert cli(*args).code == 0
    strict = cli(*args, "--strict-baseline", "--format", "json")
    assert strict.code == 1
    (stale,) = [f for f in strict.json()["findings"] if f["ruleId"] == "CA920"]
    assert stale["listing"] == "prompts" and stale["identity"] == "gone"


def test_no_old_envelope_names_remain() -> None:
    """`reportVersion` and the `catalogaudit.invalid` ids are gone from code, schemas and docs
    (docs/json.md says what they became)."""
    stale = []
    for path in [*(ROOT / "src").rglob("*"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]:
        if path.name == "json.md":
            continue
        if path.is_file() and path.suffix in (".py", ".json", ".md"):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "reportVersion" in text or "catalogaudit.invalid" in text:
                stale.append(str(path.relative_to(ROOT)))
    assert stale == [], stale
