"""`snapshot --from`: the one loader over snapshots, list results, JSON-RPC lines, JSONL, -, git."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import PYTHON, cli, fixture, validate_snapshot

TOOLS_RESULT = (
    '{"tools":[{"name":"b","inputSchema":{"type":"object"}},'
    '{"name":"a","inputSchema":{"type":"object"},"annotations":{"x":1.0}}]}'
)
RESOURCES_LINE = '{"jsonrpc":"2.0","id":3,"result":{"resources":[{"uri":"r://1","name":"one","annotations":{"priority":1.0}},{"uri":"r://2","name":"two","annotations":{"priority":1}}]}}'


def static(tmp_path: Path, *args: str, stdin: str | None = None) -> tuple[dict, str]:
    out = tmp_path / "out.json"
    result = cli("snapshot", "-o", str(out), *args, stdin=stdin, cwd=tmp_path)
    assert result.code == 0, str(result)
    doc = json.loads(out.read_text())
    validate_snapshot(doc)
    assert doc["capture"]["source"] == "static"
    return doc, result.stderr


def write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return name


def test_raw_list_result_and_jsonrpc_line_merge(tmp_path: Path) -> None:
    doc, stderr = static(
        tmp_path,
        "--protocol",
        "2025-06-18",
        "--from",
        write(tmp_path, "tools.json", TOOLS_RESULT),
        "--from",
        write(tmp_path, "res.json", RESOURCES_LINE),
    )
    assert [t["name"] for t in doc["listings"]["tools"]["items"]] == ["a", "b"]
    assert doc["listings"]["tools"]["servedPositions"] == [1, 0]
    assert doc["listings"]["prompts"]["status"] == "absent"
    assert doc["capture"]["protocol"]["negotiated"] == "2025-06-18"
    assert doc["capture"]["inputs"] == ["tools.json", "res.json"]
    assert doc["wire"]["pages"]["tools"] == [TOOLS_RESULT]
    assert "a tools/list result" in stderr and "a resources/list result" in stderr
    text = (tmp_path / "out.json").read_text()
    # 1.0 and 1 stay distinguishable, in the readable items as on the wire
    assert '"priority": 1.0' in text and '"priority": 1\n' in text


def test_revision_is_inferred_or_said_to_be_assumed(tmp_path: Path) -> None:
    doc, _ = static(tmp_path, "--from", write(tmp_path, "tools.json", TOOLS_RESULT))
    assert doc["capture"]["protocol"]["negotiated"] == "2025-11-25"
    assert [f["ruleId"] for f in doc["findings"]] == ["CA524"]


def test_jsonl_capture_with_handshake_and_pages(tmp_path: Path) -> None:
    lines = [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
        '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-03-26","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}',
        '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"x","inputSchema":{"type":"object"}}],"nextCursor":"c1"}}',
        '{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"y","inputSchema":{"type":"object"}}]}}',
    ]
    doc, said = static(tmp_path, "--from", write(tmp_path, "cap.jsonl", "\n".join(lines) + "\n"))
    assert "cap.jsonl: line 2: an initialize result\n" in said, said
    tools = doc["listings"]["tools"]
    assert [p["items"] for p in tools["pages"]] == [1, 1]
    assert tools["pages"][0]["fields"] == {"nextCursor": "c1"}
    assert doc["capture"]["protocol"]["negotiated"] == "2025-03-26"
    assert doc["capture"]["serverInfo"] == {"name": "s", "version": "1"}
    assert doc["capture"]["serverCapabilities"] == {"tools": {}}


def test_a_snapshot_round_trips_through_static_intake(tmp_path: Path) -> None:
    live = tmp_path / "live.json"
    server = str(fixture("servers", "example_server.py"))
    result = cli("snapshot", "-o", str(live), "--", PYTHON, server, "stdio")
    assert result.code == 0, str(result)
    doc, _ = static(tmp_path, "--from", str(live))
    original = json.loads(live.read_text())
    assert doc["listings"] == original["listings"]
    assert doc["hashes"] == original["hashes"]
    assert doc["capture"]["protocol"]["negotiated"] == original["capture"]["protocol"]["negotiated"]


def test_stdin_and_git_inputs(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "tools.json").write_text(TOOLS_RESULT)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "tools.json"], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    out = tmp_path / "out.json"
    result = cli(
        "snapshot",
        "-o",
        str(out),
        "--from",
        "git:HEAD:tools.json",
        "--from",
        "-",
        stdin=RESOURCES_LINE,
        cwd=repo,
    )
    assert result.code == 0, str(result)
    doc = json.loads(out.read_text())
    assert doc["capture"]["inputs"] == ["git:HEAD:tools.json", "-"]
    assert len(doc["listings"]["tools"]["items"]) == 2
    assert len(doc["listings"]["resources"]["items"]) == 2


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (["a.json", "a.json"], "two inputs for tools/list"),
        (["missing.json"], "missing.json: no such file"),
        (["bad.json"], "bad.json: not JSON"),
        (["other.json"], "not a snapshot, list result or JSON-RPC response"),
        (["git:HEAD:nope.json"], "git:HEAD:nope.json"),
    ],
)
def test_bad_inputs_are_one_line_errors(tmp_path: Path, inputs: list[str], message: str) -> None:
    write(tmp_path, "a.json", TOOLS_RESULT)
    write(tmp_path, "bad.json", '{"tools": [')
    write(tmp_path, "other.json", '{"hello": "world"}')
    out = tmp_path / "out.json"
    out.write_text("sentinel")
    args = [a for i in inputs for a in ("--from", i)]
    result = cli("snapshot", "-o", str(out), *args, cwd=tmp_path)
    assert result.code == 2, str(result)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], str(result)
    assert out.read_text() == "sentinel"
