"""Issue 18 item 3: SARIF and annotation paths are repository paths, with real regions.

A temporary git repository holds a committed snapshot with an offending value; the real CLI
runs in it (and in a sub-directory) on `git:HEAD:PATH`, `./PATH`, `sub/../PATH` and a file
outside the repository; the logs are validated against the vendored OASIS schema.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import cli

SCHEMA = Path(__file__).resolve().parents[1] / "vectors" / "sarif-schema-2.1.0.json"
LISTING = {
    "tools": [
        {"name": "fine", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "search files", "description": "d", "inputSchema": {"type": "object"}},
    ]
}


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        env=env,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "sub").mkdir(parents=True)
    (root / "tools.json").write_text(json.dumps(LISTING), encoding="utf-8")
    got = cli("snapshot", "--from", "tools.json", "-o", "catalog.snapshot.json", cwd=root)
    assert got.code == 0, got
    _git(root, "init", "-q")
    _git(root, "add", "catalog.snapshot.json")
    _git(root, "commit", "-q", "-m", "snapshot")
    return root


def _valid(log: dict[str, Any]) -> dict[str, Any]:
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(log)
    return log


def _offending_line(path: Path, value: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if json.dumps(value) in line)


def _name_results(log: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in log["runs"][0]["results"] if r["ruleId"] == "CA101"]


@pytest.mark.parametrize(
    "spec",
    ["git:HEAD:catalog.snapshot.json", "./catalog.snapshot.json", "sub/../catalog.snapshot.json"],
)
def test_sarif_names_the_repository_path_and_the_offending_line(repo: Path, spec: str) -> None:
    got = cli("audit", spec, "--format", "sarif", cwd=repo)
    assert got.code in (0, 1), got
    log = _valid(got.json())
    (result,) = _name_results(log)
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "catalog.snapshot.json"}
    line = _offending_line(repo / "catalog.snapshot.json", "search files")
    assert physical["region"]["startLine"] == line
    assert physical["region"]["startColumn"] > 1
    assert "originalUriBaseIds" not in log["runs"][0]


def test_paths_from_a_sub_directory_and_outside_the_repository(repo: Path, tmp_path: Path) -> None:
    got = cli("audit", "../catalog.snapshot.json", "--format", "sarif", cwd=repo / "sub")
    (result,) = _name_results(_valid(got.json()))
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri == {"uri": "catalog.snapshot.json"}  # not a cwd-relative ../catalog...
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "other.snapshot.json").write_bytes((repo / "catalog.snapshot.json").read_bytes())
    got = cli("audit", str(outside / "other.snapshot.json"), "--format", "sarif", cwd=repo)
    log = _valid(got.json())
    (result,) = _name_results(log)
    artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "other.snapshot.json", "uriBaseId": "OUTSIDE1"}
    bases = log["runs"][0]["originalUriBaseIds"]
    assert bases == {"OUTSIDE1": {"uri": outside.resolve().as_uri() + "/"}}
    gh = cli("audit", "git:HEAD:catalog.snapshot.json", "--format", "github", cwd=repo / "sub")
    line = _offending_line(repo / "catalog.snapshot.json", "search files")
    assert f"file=catalog.snapshot.json,line={line}," in gh.stdout


def test_diff_points_at_the_committed_snapshot_when_new_is_untracked(repo: Path) -> None:
    listing = json.loads(json.dumps(LISTING))
    listing["tools"][1]["inputSchema"] = {"type": "object", "required": ["q"]}
    (repo / "new.json").write_text(json.dumps(listing), encoding="utf-8")
    got = cli("diff", "catalog.snapshot.json", "new.json", "--format", "sarif", cwd=repo)
    assert got.code == 1, got
    log = _valid(got.json())
    results = log["runs"][0]["results"]
    assert results
    lines = (repo / "catalog.snapshot.json").read_text(encoding="utf-8").splitlines()
    for r in results:
        physical = r["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == "catalog.snapshot.json"
        # the changed tool's inputSchema (the nearest parent of the new `required`), not line 1
        at = physical["region"]["startLine"]
        assert '"inputSchema"' in lines[at - 1] and '"search files"' in "".join(lines[at : at + 4])
    gh = cli("diff", "catalog.snapshot.json", "new.json", "--format", "github", cwd=repo)
    assert "file=catalog.snapshot.json,line=" in gh.stdout
    junit = cli("diff", "catalog.snapshot.json", "new.json", "--format", "junit", cwd=repo)
    assert 'file="catalog.snapshot.json" line="' in junit.stdout


def test_repository_path_is_pure() -> None:
    from catalogaudit.formatters.paths import Repository, repository_path

    repo = Repository("/r", "/r/sub")
    assert repository_path("git:HEAD:a/b.json", repo) == ("a/b.json", None)
    assert repository_path("git:HEAD:./b.json", repo) == ("sub/b.json", None)
    assert repository_path("./x/../b.json", repo) == ("sub/b.json", None)
    assert repository_path("../b.json", repo) == ("b.json", None)
    assert repository_path("../../o/b.json", repo) == ("b.json", "/o")
    assert repository_path("/r/c.json", repo) == ("c.json", None)


def test_raw_list_inputs_get_real_regions(repo: Path) -> None:
    # served order is not the snapshot's sorted order: the item is found by served position
    listing = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "tools": [
                {"name": "zeta", "inputSchema": {"type": "object"}, "description": "d"},
                {"description": "d", "inputSchema": {"type": "object"}, "name": "bad name"},
                {"name": "alpha", "description": "d", "inputSchema": {"type": "object"}},
            ]
        },
    }
    (repo / "tools.json").write_text(json.dumps(listing, indent=4), encoding="utf-8")
    _git(repo, "add", "tools.json")
    _git(repo, "commit", "-q", "-m", "raw")
    line = _offending_line(repo / "tools.json", "bad name")
    for spec in ("git:HEAD:tools.json", "tools.json"):
        log = _valid(cli("audit", spec, "--format", "sarif", cwd=repo).json())
        (result,) = _name_results(log)
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": "tools.json"}
        assert physical["region"] == {"startLine": line, "startColumn": 25}
    junit = cli("audit", "tools.json", "--format", "junit", "--fail-on", "warning", cwd=repo)
    assert f'file="tools.json" line="{line}"' in junit.stdout


def test_raw_regions_found_along_the_pointer() -> None:
    """A raw input's regions: an escaped key read as the key it spells, the JSON-RPC
    envelope's `result`, and no made-up region for JSON Lines or deep nesting."""
    from catalogaudit.model.catalog import Catalog

    def region(raw: str, pointer: str) -> tuple[int | None, int | None]:
        doc = {"listings": {"tools": {"items": [{}], "pages": [{"items": 1}]}}}
        catalog = Catalog(doc, raw=raw)
        item = catalog.items("tools")[0]
        location = catalog.location(item, pointer)
        return location.line, location.column

    assert region('{"tools": [{"k\\u00e9y": [1, {"x": "é"}]}]}', "/k\u00e9y/1/x") == (1, 35)
    assert region('{"id": 1,\n "result": {"tools": [\n  {"a": 1}]}}', "/a") == (3, 9)
    assert region('{"id": 1,\n "result": {"tools": [\n  {"a": 1}]}}', "/b") == (3, 3)
    assert region('{"tools": [{"a": 1}]}\n{"tools": []}\n', "/a") == (None, None)
    deep = '{"tools": [{"a": ' + "[" * 3000 + '"x"' + "]" * 3000 + "}]}"
    assert region(deep, "/a" + "/0" * 3000) == (None, None)


def test_several_files_audited_one_at_a_time_keep_their_repository_paths(repo: Path) -> None:
    """Two inputs take the streamed audit (read, audit, drop per file): each result still
    names its own repository path and line, also for a `git:` input read from a
    sub-directory (its path is the root's, not the current directory's)."""
    (repo / "sub" / "other.snapshot.json").write_bytes(
        (repo / "catalog.snapshot.json").read_bytes()
    )
    got = cli(
        "audit",
        "git:HEAD:catalog.snapshot.json",
        "other.snapshot.json",
        "--format",
        "sarif",
        cwd=repo / "sub",
    )
    assert got.code in (0, 1), got
    results = _name_results(_valid(got.json()))
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results)
    assert uris == ["catalog.snapshot.json", "sub/other.snapshot.json"]
    line = _offending_line(repo / "catalog.snapshot.json", "search files")
    assert {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results} == {line}
