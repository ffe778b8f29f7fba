"""`snapshot --servers`: a Claude Desktop configuration naming five real servers (the pinned
npm server-everything, server-filesystem and server-memory, the Python example server, and one
that exits at start) gives four snapshots and one error row, exit 1 as documented; the
credential given to one server is written nowhere; `audit DIR` gives one fleet report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS, cli, npm_bin
from helpers.rawservers import http_server

SECRET = "sk-fleet-0123456789abcdef"


def _config(tmp_path: Path) -> Path:
    config = {
        "mcpServers": {
            "everything": {"command": npm_bin("mcp-server-everything"), "args": ["stdio"]},
            "files": {"command": npm_bin("mcp-server-filesystem"), "args": [str(tmp_path)]},
            "memory": {
                "command": npm_bin("mcp-server-memory"),
                "env": {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl"), "API_KEY": SECRET},
            },
            "example": {"command": PYTHON, "args": [str(SERVERS / "example_server.py"), "stdio"]},
            "broken": {
                "command": PYTHON,
                "args": [
                    "-c",
                    "import sys; sys.stderr.write('no database configured\\n'); sys.exit(3)",
                ],
            },
        }
    }
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def test_five_servers_four_snapshots_and_one_error_row(tmp_path: Path) -> None:
    out = tmp_path / "fleet"
    got = cli("snapshot", "--servers", _config(tmp_path), "--jobs", "3", "-o", out, timeout=300)
    assert got.code == 1, str(got)
    manifest = json.loads((out / "fleet.json").read_text())
    assert manifest["client"] == "claude-desktop" and manifest["servers"] == 5
    rows = {r["name"]: r for r in manifest["rows"]}
    assert sorted(rows) == ["broken", "everything", "example", "files", "memory"]
    assert "no database configured" in rows["broken"]["error"] and "file" not in rows["broken"]
    written = sorted(p.name for p in out.glob("*.snapshot.json"))
    assert written == [f"{n}.snapshot.json" for n in ("everything", "example", "files", "memory")]
    for name in ("everything", "example", "files", "memory"):
        doc = json.loads((out / rows[name]["file"]).read_text())
        assert len(doc["listings"]["tools"]["items"]) == rows[name]["tools"] > 0
    assert rows["memory"]["env"] == ["API_KEY", "MEMORY_FILE_PATH"]
    for path in out.iterdir():
        assert SECRET not in path.read_text(), path
    assert SECRET not in got.stderr
    assert "fleet: 4 of 5 server(s) captured" in got.stderr

    report = cli("audit", out, "--format", "json")
    assert report.code == 1, str(report)
    findings = report.json()["findings"]
    (failed,) = [f for f in findings if f["ruleId"] == "CA930"]
    assert failed["identity"] == "broken" and failed["location"]["file"] == "fleet.json"
    files = {f["location"]["file"] for f in findings if "location" in f}
    assert "memory.snapshot.json" in files or "everything.snapshot.json" in files
    tokens = {f["identity"] for f in findings if f["ruleId"] == "CA932"}
    assert {"codex@0.169.0", "claude-code@2.1.328"} <= tokens
    # Without --profile each server is judged by the configuration's own client too: Claude
    # Desktop refuses the example server's dotted tool name; with --profile spec it is not asked.
    assert ("CD-NAME-001", "example.snapshot.json") in {
        (f["ruleId"], f.get("location", {}).get("file")) for f in findings
    }
    spec_only = cli("audit", out, "--profile", "spec", "--format", "json").json()["findings"]
    assert not [f for f in spec_only if f["ruleId"].startswith("CD-")]


def test_bad_input_is_one_error_line_and_nothing_written(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text("{not json", encoding="utf-8")
    got = cli("snapshot", "--servers", config, "-o", tmp_path / "out")
    assert got.code == 2 and got.stderr.startswith("error: ") and got.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()
    assert cli("snapshot", "--servers", _config(tmp_path)).code == 2  # no -o DIR
    assert cli("snapshot", "--shard", "1/2", "--", "true").code == 2
    got = cli("snapshot", "--servers", _config(tmp_path), "--shard", "3/2", "-o", tmp_path / "o")
    assert got.code == 2 and "I/N" in got.stderr
    got = cli("snapshot", "--servers", _config(tmp_path), "--min-tools", "1", "-o", tmp_path / "o")
    assert got.code == 2 and "one server" in got.stderr
    assert not (tmp_path / "o").exists()


def test_each_server_keeps_its_own_timeouts(tmp_path: Path) -> None:
    """A Codex configuration gives one server a 1-second start-up: it hangs and fails its row
    at once, on its own clock, while the other server (the command's 30 seconds) is captured."""
    hang = tmp_path / "hang.py"
    hang.write_text("import time\ntime.sleep(60)\n")
    config = tmp_path / "config.toml"
    config.write_text(
        f"""
[mcp_servers.slow]
command = {json.dumps(PYTHON)}
args = [{json.dumps(str(hang))}]
startup_timeout_sec = 1

[mcp_servers.example]
command = {json.dumps(PYTHON)}
args = [{json.dumps(str(SERVERS / "example_server.py"))}, "stdio"]
""",
        encoding="utf-8",
    )
    got = cli("snapshot", "--servers", config, "--jobs", "2", "-o", tmp_path / "out", timeout=120)
    assert got.code == 1, str(got)
    rows = {r["name"]: r for r in json.loads((tmp_path / "out" / "fleet.json").read_text())["rows"]}
    assert "file" in rows["example"]
    assert "1" in rows["slow"]["error"] and "time" in rows["slow"]["error"].lower()
    assert got.seconds < 20


def test_a_remote_server_gets_its_header_and_the_value_is_written_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Cursor configuration whose remote server needs `Authorization` from `${env:...}`:
    the server accepts it (it answers 401 otherwise), the manifest names the header."""
    token = "Bearer tok-4f1c2e9a7b3d5c6e"
    monkeypatch.setenv("FLEET_TOKEN", token.split()[1])
    with http_server(tmp_path, "--require-header", f"Authorization: {token}") as server:
        servers = {
            "remote": {
                "url": server.url,
                "headers": {"Authorization": "Bearer ${env:FLEET_TOKEN}"},
            },
            "unset": {"url": server.url, "headers": {"Authorization": "Bearer ${env:NOT_SET_X}"}},
        }
        config = tmp_path / ".cursor" / "mcp.json"
        config.parent.mkdir()
        config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
        out = tmp_path / "fleet"
        got = cli("snapshot", "--servers", config, "-o", out, timeout=120)
    assert got.code == 1, str(got)
    rows = {r["name"]: r for r in json.loads((out / "fleet.json").read_text())["rows"]}
    assert rows["remote"]["headers"] == ["Authorization"] and "file" in rows["remote"]
    assert "NOT_SET_X is not set" in rows["unset"]["error"]
    for path in out.iterdir():
        assert token.split()[1] not in path.read_text(), path
