"""Profiles against real servers, snapshotted with the real CLI: the issue's Done-when cases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, cli, fixture, npm_bin

from catalogaudit.model import jsonwire, jsonwrite
from catalogaudit.model.catalog import Catalog
from catalogaudit.model.findings import Finding
from catalogaudit.profiles import resolve as profiles
from catalogaudit.profiles.load import load_all
from catalogaudit.rules.base import Context

#: ContextForge PyPI releases whose forbidden description list contains ';'.
SEMICOLON_RELEASES = ("0.9.0", "1.0.0b1", "1.0.0b2", "1.0.0rc1")
OTHER_RELEASES = ("0.3.1", "0.8.0", "1.0.0", "1.0.1", "1.0.7", "1.0.7.post20260921")


def snapshot(tmp: Path, name: str, *args: str) -> Catalog:
    out = tmp / f"{name}.json"
    result = cli("snapshot", "-o", str(out), *args, timeout=180)
    assert result.code == 0, str(result)
    text = out.read_text()
    return Catalog(jsonwire.loads(text), source=str(out), text=text)


def audit(catalog: Catalog, spec: str) -> list[Finding]:
    found, errors = profiles.run_profile(catalog, profiles.resolve(spec, {}), Context())
    assert not errors, errors
    return found


def at(found: list[Finding], identity: str, pointer: str) -> list[tuple[str, str, str]]:
    return [
        (f.rule_id, f.severity.value, f.excerpt)
        for f in found
        if f.identity == identity and f.pointer == pointer
    ]


def every_other_profile() -> list[str]:
    return [p for p in load_all() if p not in ("ascii-prose", "context-forge")]


@pytest.fixture(scope="module")
def filesystem(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    tmp = tmp_path_factory.mktemp("fs")
    (tmp / "root").mkdir()
    return snapshot(tmp, "filesystem", "--", npm_bin("mcp-server-filesystem"), str(tmp / "root"))


@pytest.mark.npm
@pytest.mark.parametrize("release", SEMICOLON_RELEASES)
def test_filesystem_semicolon_is_an_error_for_contextforge_0_9_to_rc1(
    filesystem: Catalog, release: str
) -> None:
    found = audit(filesystem, f"context-forge@{release}")
    assert ("CF-DESC-001", "error", ";") in at(found, "read_media_file", "/description")


@pytest.mark.npm
def test_filesystem_semicolon_is_an_error_for_ascii_prose(filesystem: Catalog) -> None:
    found = audit(filesystem, "ascii-prose")
    assert at(found, "read_media_file", "/description") == [("ASCII-PROSE-002", "error", ";")]
    assert [f.rule_id for f in found] == ["ASCII-PROSE-002"]  # pure ASCII otherwise


@pytest.mark.npm
@pytest.mark.parametrize(
    "spec",
    [*(f"context-forge@{r}" for r in OTHER_RELEASES), *every_other_profile()],
)
def test_filesystem_semicolon_is_not_a_finding_elsewhere(filesystem: Catalog, spec: str) -> None:
    found = audit(filesystem, spec)
    assert not [f for f in at(found, "read_media_file", "/description") if f[2] == ";"]
    assert not [f for f in found if f.rule_id == "CF-DESC-001"]


@pytest.fixture(scope="module")
def everything_full(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    tmp = tmp_path_factory.mktemp("everything")
    server = npm_bin("mcp-server-everything")
    return snapshot(tmp, "everything", "--client-capabilities", "full", "--", server, "stdio")


NESTED = "/inputSchema/properties/errorPath/description"


@pytest.mark.npm
def test_everything_nested_semicolon_under_ascii_prose_at_its_pointer(
    everything_full: Catalog,
) -> None:
    found = audit(everything_full, "ascii-prose")
    assert at(found, "trigger-url-elicitation", NESTED) == [("ASCII-PROSE-002", "error", ";")]
    hit = next(f for f in found if f.pointer == NESTED)
    assert hit.kind == "tools" and hit.location is not None
    assert hit.location.pointer.endswith(NESTED) and hit.location.line is not None


@pytest.mark.npm
@pytest.mark.parametrize("release", (*SEMICOLON_RELEASES, *OTHER_RELEASES))
def test_everything_nested_semicolon_is_not_a_contextforge_finding(
    everything_full: Catalog, release: str
) -> None:
    found = audit(everything_full, f"context-forge@{release}")
    assert at(found, "trigger-url-elicitation", NESTED) == []
    assert not [f for f in found if f.rule_id == "CF-DESC-001"]


@pytest.fixture(scope="module")
def git_server(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    tmp = tmp_path_factory.mktemp("git")
    repo = tmp / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    binary = Path(sys.executable).parent / "mcp-server-git"
    return snapshot(tmp, "git", "--", str(binary), "--repository", str(repo))


@pytest.mark.parametrize("release", ("0.9.0", "1.0.0b2", "1.0.0rc1", "1.0.0", "1.0.7"))
def test_git_revision_path_is_not_rejected_but_rewritten(git_server: Catalog, release: str) -> None:
    show = next(i for i in git_server.items("tools") if i.identity == "git_show")
    assert show.value["description"].endswith("<revision>:<path>")
    found = audit(git_server, f"context-forge@{release}")
    assert not [f for f in found if f.rule_id == "CF-DESC-001"]
    got = at(found, "git_show", "/description")
    if release in ("0.9.0", "1.0.0b2"):
        assert got == [("CF-DESC-004", "warning", "<>")]  # html-escaped
    else:
        assert got == [("CF-DESC-004", "warning", "<revision> <path>")]  # tags stripped
        hit = next(f for f in found if f.identity == "git_show")
        assert 'given as :"' in hit.message


def priorities(found: list[Finding]) -> list[tuple[str | None, str]]:
    return sorted((f.identity, f.excerpt) for f in found if f.pointer == "/annotations/priority")


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    tmp = tmp_path_factory.mktemp("example")
    server = str(fixture("servers", "example_server.py"))
    return snapshot(tmp, "example", "--", PYTHON, server, "stdio")


@pytest.fixture(scope="module")
def raw_lexemes(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    tmp = tmp_path_factory.mktemp("raw")
    server = str(fixture("servers", "raw_server.py"))
    return snapshot(tmp, "raw", "--", PYTHON, server, "--priority-lexemes")


def test_python_sdk_priority_1_0_is_flagged_by_codex_app(example: Catalog) -> None:
    index = next(i for i in example.items("resources") if i.identity == "notes://index")
    assert jsonwrite.lexeme(index.value["annotations"]["priority"]) == "1.0"  # priority=1 in source
    found = audit(example, "codex-app")
    assert priorities(found) == [("notes://index", "1.0"), ("notes://welcome", "0.5")]
    assert {f.rule_id for f in found if f.pointer == "/annotations/priority"} == {"CDX-ANN-001"}


def test_integer_priority_is_not_flagged_by_codex_app(raw_lexemes: Catalog) -> None:
    served: dict[str | None, Any] = {
        i.identity: jsonwrite.lexeme(i.value["annotations"]["priority"])
        for i in raw_lexemes.items("resources")
    }
    assert served["file:///fixture/resource_001.txt"] == "1"
    found = audit(raw_lexemes, "codex-app")
    assert priorities(found) == [
        ("file:///fixture/resource_000.txt", "1.0"),
        ("file:///fixture/resource_002.txt", "0.5"),
        ("file:///fixture/resource_003.txt", "1E0"),
    ]


def test_npm_codex_0_169_0_flags_neither(example: Catalog, raw_lexemes: Catalog) -> None:
    for catalog in (example, raw_lexemes):
        assert priorities(audit(catalog, "codex@0.169.0")) == []


def test_audit_verb_runs_profiles_on_a_real_snapshot(example: Catalog) -> None:
    """The same verdicts through `catalogaudit audit --profile` (the lead's engine)."""
    result = cli(
        "audit",
        example.source,
        "--profile",
        "codex-app",
        "--profile",
        "codex@0.169.0",
        "--format",
        "json",
    )
    assert result.code == 1, str(result)
    findings = result.json()["findings"]
    flagged = sorted(f["identity"] for f in findings if f["ruleId"] == "CDX-ANN-001")
    assert flagged == ["notes://index", "notes://welcome"]
    assert {f["profile"] for f in findings if f["ruleId"] == "CDX-ANN-001"} == {
        "codex-app@0.148.0a9"
    }
