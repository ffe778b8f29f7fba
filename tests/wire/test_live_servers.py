"""`catalogaudit snapshot` against real MCP servers over real stdio and Streamable HTTP."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, cli, fixture, free_port, npm_bin, validate_snapshot, wait_port

from catalogaudit.wire import stdio

VENV_BIN = Path(sys.executable).parent


def snap(tmp_path: Path, *args: str, name: str = "s.json") -> dict[str, Any]:
    out = tmp_path / name
    result = cli("snapshot", "-o", str(out), *args)
    assert result.code == 0, str(result)
    doc = json.loads(out.read_text())
    validate_snapshot(doc)
    return doc


def counts(doc: dict[str, Any]) -> tuple[int | None, ...]:
    out = []
    for name in ("tools", "prompts", "resources", "resourceTemplates"):
        rec = doc["listings"][name]
        out.append(len(rec["items"]) if "items" in rec else None)
    return tuple(out)


@pytest.mark.npm
def test_everything_stdio_legacy_by_fallback(tmp_path: Path) -> None:
    doc = snap(tmp_path, "--", npm_bin("mcp-server-everything"), "stdio")
    assert counts(doc) == (13, 4, 7, 2)
    proto = doc["capture"]["protocol"]
    assert proto["negotiated"] == "2025-11-25"
    assert proto["era"] == "legacy"
    assert proto["offered"] == ["2026-07-28", "2025-11-25"]
    rules = {f["ruleId"] for f in doc["findings"]}
    assert "CA520" in rules  # discover answered -32601, fell back
    assert doc["capture"]["clientCapabilities"] == {}
    assert doc["capture"]["serverInfo"]["name"]
    assert len(doc["wire"]["pages"]["tools"]) == 1


@pytest.mark.npm
def test_everything_full_client_capabilities_changes_the_catalog(tmp_path: Path) -> None:
    doc = snap(
        tmp_path, "--client-capabilities", "full", "--", npm_bin("mcp-server-everything"), "stdio"
    )
    assert counts(doc)[0] == 17
    assert set(doc["capture"]["clientCapabilities"]) == {"roots", "sampling", "elicitation"}
    names = {t["name"] for t in doc["listings"]["tools"]["items"]}
    assert {"get-roots-list", "trigger-sampling-request"} <= names


@pytest.mark.npm
def test_everything_is_not_blamed_for_the_roots_request_we_cannot_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """server-everything asks roots/list 350 ms after `initialized`, after we closed stdin.

    It then waits for our answer instead of exiting; that wait is ours, not a CA513. Before,
    it was SIGTERMed after the shutdown grace, each run. The grace is stretched to 30 s here so
    that waiting it out cannot hide in a loaded machine's slowness.
    """
    monkeypatch.setattr(stdio, "SHUTDOWN_GRACE", 30.0)
    exe = npm_bin("mcp-server-everything")
    out = tmp_path / "runs.json"
    result = cli(
        "snapshot",
        "--client-capabilities",
        "full",
        "--runs",
        "3",
        "-o",
        str(out),
        "--",
        exe,
        "stdio",
    )
    assert result.code == 0, str(result)
    doc = json.loads(out.read_text())
    assert doc["capture"]["runs"]["stable"] is True
    rules = {f["ruleId"] for f in doc["findings"]}
    assert "CA513" not in rules and "CA512" in rules, rules
    assert result.seconds < 30.0, result.seconds


@pytest.mark.npm
def test_everything_twice_is_byte_identical(tmp_path: Path) -> None:
    exe = npm_bin("mcp-server-everything")
    a = cli("snapshot", "--", exe, "stdio")
    b = cli("snapshot", "--", exe, "stdio")
    assert a.code == b.code == 0, str(a)
    assert a.stdout == b.stdout
    assert a.stdout.endswith("}\n")


@pytest.mark.npm
def test_everything_streamable_http_matches_stdio(tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen(
        [npm_bin("mcp-server-everything"), "streamableHttp"],
        env={"PORT": str(port), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_port(port, server)
        url = f"http://127.0.0.1:{port}/mcp"
        http = snap(tmp_path, "--url", url, name="http.json")
        again = snap(tmp_path, "--url", url, name="http2.json")
    finally:
        server.terminate()
        server.wait(10)
    stdio = snap(tmp_path, "--", npm_bin("mcp-server-everything"), "stdio", name="stdio.json")
    assert counts(http) == (13, 4, 7, 2)
    assert http["capture"]["transport"] == "streamable-http"
    assert http["capture"]["server"]["url"] == url
    # SSE event ids, session ids and dates differ per session; the catalog must not.
    assert http["hashes"] == stdio["hashes"] == again["hashes"]
    assert (tmp_path / "http.json").read_bytes() == (tmp_path / "http2.json").read_bytes()


def test_python_reference_server_speaks_2026(tmp_path: Path) -> None:
    doc = snap(tmp_path, "--", str(VENV_BIN / "mcp-server-time"))
    assert counts(doc) == (2, 0, 0, 0)
    proto = doc["capture"]["protocol"]
    assert (proto["negotiated"], proto["era"], proto["handshake"]) == (
        "2026-07-28",
        "modern",
        "server/discover",
    )
    page = doc["listings"]["tools"]["pages"][0]["fields"]
    assert page["resultType"] == "complete"
    assert page["cacheScope"] in ("public", "private")
    assert doc["capture"]["supportedVersions"] == ["2026-07-28"]


@pytest.mark.parametrize(
    ("flag", "negotiated"),
    [("legacy", "2025-11-25"), ("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05")],
)
def test_forced_legacy_revisions(tmp_path: Path, flag: str, negotiated: str) -> None:
    doc = snap(tmp_path, "--protocol", flag, "--", str(VENV_BIN / "mcp-server-time"))
    proto = doc["capture"]["protocol"]
    assert proto["negotiated"] == negotiated
    assert proto["offered"] == [negotiated]
    assert proto["era"] == "legacy"
    assert "resultType" not in doc["listings"]["tools"]["pages"][0]["fields"]


def test_modern_only_against_a_legacy_server_is_a_clear_error() -> None:
    exe = npm_bin("mcp-server-everything")
    result = cli("snapshot", "--protocol", "modern", "--", exe, "stdio")
    assert result.code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), str(result)
    assert "server/discover" in lines[0] and "-32601" in lines[0]
    assert result.stdout == ""


def test_environment_names_recorded_values_never(tmp_path: Path) -> None:
    doc = snap(
        tmp_path,
        "--env",
        "SECRET_TOKEN=hunter2-value",
        "--env",
        "TZ=Asia/Tokyo",
        "--",
        str(VENV_BIN / "mcp-server-time"),
    )
    text = (tmp_path / "s.json").read_text()
    assert "hunter2-value" not in text
    env = doc["capture"]["server"]["environment"]
    assert env["set"] == ["SECRET_TOKEN", "TZ"]
    assert env["values"]["TZ"] == "Asia/Tokyo"
    assert doc["capture"]["server"]["command"] == ["mcp-server-time"]


@pytest.mark.npm
@pytest.mark.parametrize(
    ("binary", "args", "tools"),
    [
        ("mcp-server-filesystem", ["."], 14),
        ("mcp-server-memory", [], 9),
    ],
)
def test_other_npm_reference_servers(
    tmp_path: Path, binary: str, args: list[str], tools: int
) -> None:
    doc = snap(
        tmp_path,
        "--cwd",
        str(tmp_path),
        "--env",
        f"MEMORY_FILE_PATH={tmp_path}/memory.jsonl",
        "--",
        npm_bin(binary),
        *args,
    )
    assert counts(doc)[0] == tools
    assert doc["capture"]["protocol"]["negotiated"] == "2025-11-25"


def test_git_reference_server(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    doc = snap(tmp_path, "--", str(VENV_BIN / "mcp-server-git"), "--repository", str(repo))
    assert counts(doc)[0] == 12
    assert doc["capture"]["protocol"]["era"] == "modern"
    # absolute paths never reach the snapshot
    assert str(tmp_path) not in (tmp_path / "s.json").read_text()


def test_python_executable_is_named_not_pathed(tmp_path: Path) -> None:
    doc = snap(tmp_path, "--", PYTHON, "-m", "mcp_server_time")
    assert doc["capture"]["server"]["command"][0] == Path(PYTHON).name


def _serve_http(script: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [PYTHON, str(fixture("servers", script)), "http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_port(port, proc)
    return proc, f"http://127.0.0.1:{port}/mcp"


@pytest.mark.parametrize("script", ["example_server.py", "fastmcp_server.py"])
@pytest.mark.parametrize("protocol", ["auto", "legacy"])
def test_python_sdk_servers_over_stdio_and_http_agree(
    tmp_path: Path, script: str, protocol: str
) -> None:
    stdio = snap(
        tmp_path,
        "--protocol",
        protocol,
        "--",
        PYTHON,
        str(fixture("servers", script)),
        "stdio",
        name="stdio.json",
    )
    proc, url = _serve_http(script)
    try:
        http = snap(tmp_path, "--protocol", protocol, "--url", url, name="http.json")
    finally:
        proc.terminate()
        proc.wait(10)
    expected = "2026-07-28" if protocol == "auto" else "2025-11-25"
    for doc in (stdio, http):
        assert doc["capture"]["protocol"]["negotiated"] == expected
    assert http["hashes"] == stdio["hashes"]
    assert counts(http) == counts(stdio)


def test_example_server_priority_lexemes(tmp_path: Path) -> None:
    doc = snap(tmp_path, "--", PYTHON, str(fixture("servers", "example_server.py")), "stdio")
    assert counts(doc) == (3, 1, 3, 1)
    text = (tmp_path / "s.json").read_text()
    # The SDK writes priority=1 as 1.0: the snapshot keeps exactly that lexeme.
    assert '"priority": 1.0\n' in text and '"priority": 0.5\n' in text
    from catalogaudit.model import jsonwire, jsonwrite

    again = jsonwire.loads(text)
    prios = [
        r["annotations"]["priority"]
        for r in again["listings"]["resources"]["items"]
        if "annotations" in r and "priority" in r["annotations"]
    ]
    assert sorted(jsonwrite.lexeme(p) for p in prios) == ["0.5", "1.0"]
    tools = {t["name"]: t for t in doc["listings"]["tools"]["items"]}
    query = tools["search_notes"]["inputSchema"]["properties"]["query"]["description"]
    assert ";" in query
    assert max(len(t.get("description", "")) for t in tools.values()) > 2048
