"""`serve` answers tools/call (issue 17): over real stdio and real Streamable HTTP, through the
`mcp` SDK's own client (which checks structuredContent against the tool's outputSchema), the
result is valid for the tool's outputSchema, carries text content, and the call is logged."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from helpers import PYTHON, fixture

from catalogaudit.serve.instances import instance

FS = fixture("captures", "server-filesystem-2026.8.31.snapshot.json")
TOOLS = {t["name"]: t for t in json.loads(FS.read_text())["listings"]["tools"]["items"]}


async def _calls(server: Any, names: list[str]) -> list[Any]:
    from mcp import Client

    out = []
    with anyio.fail_after(60):
        async with Client(server, mode="auto", cache=None) as client:
            for name in names:
                result = await client.call_tool(name, instance(TOOLS[name]["inputSchema"]))
                out.append(result)  # noqa: PERF401 - one await at a time
    return out


def _check(results: list[Any], names: list[str], log: Path) -> None:
    for name, result in zip(names, results, strict=True):
        assert not result.is_error, result
        assert result.content and result.content[0].type == "text"
        schema = TOOLS[name].get("outputSchema")
        if schema is not None:
            jsonschema.validate(result.structured_content, schema)
            assert json.loads(result.content[0].text) == result.structured_content
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["name"] for r in logged] == names
    assert all(r["outcome"] == "ok" for r in logged)


NAMES = ["list_allowed_directories", "read_text_file", "get_file_info", "search_files"]


def test_tools_call_over_stdio(tmp_path: Path) -> None:
    from mcp import StdioServerParameters

    log = tmp_path / "calls.jsonl"
    argv = ["-m", "catalogaudit", "serve", str(FS), "--call-log", str(log)]
    params = StdioServerParameters(command=PYTHON, args=argv, env=dict(os.environ))
    results = anyio.run(_calls, params, NAMES)
    _check(results, NAMES, log)


def test_tools_call_over_http(tmp_path: Path) -> None:
    log = tmp_path / "calls.jsonl"
    argv = [PYTHON, "-m", "catalogaudit", "serve", str(FS), "--http", "0", "--call-log", str(log)]
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert proc.stderr is not None
        assert select.select([proc.stderr], [], [], 30)[0]
        line = proc.stderr.readline().decode()
        assert line.startswith("listening on http://127.0.0.1:"), line
        results = anyio.run(_calls, line.split(" ", 2)[2].strip(), NAMES)
        _check(results, NAMES, log)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=10)


def test_bad_arguments_and_unknown_tool(tmp_path: Path) -> None:
    """Arguments the inputSchema refuses get a tool error result; an unknown tool -32602."""
    from catalogaudit.serve.replay import Replay, ServeOptions

    doc = json.loads(FS.read_text())
    replay = Replay(doc, ServeOptions(str(FS)))
    seen: list[dict[str, Any]] = []
    replay.on_call = seen.append
    bad = replay.answer(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "read_text_file", "arguments": {}},
        }
    )
    assert bad.text is not None and '"isError":true' in bad.text
    unknown = replay.answer(
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "nope"}}
    )
    assert unknown.code == -32602
    assert [s["outcome"] for s in seen][1] == "unknown tool"
    assert "path" in seen[0]["outcome"]


def _schemas() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(
        [
            *fixture("real-servers").glob("*.snapshot.json"),
            *fixture("captures").glob("*.snapshot.json"),
        ]
    ):
        doc = json.loads(path.read_text())
        out.extend(
            (f"{path.name}:{tool.get('name')}:{key}", tool[key])
            for tool in doc.get("listings", {}).get("tools", {}).get("items", [])
            for key in ("inputSchema", "outputSchema")
            if isinstance(tool, dict) and isinstance(tool.get(key), dict)
        )
    return out


@pytest.mark.parametrize(("where", "schema"), _schemas(), ids=[w for w, _ in _schemas()])
def test_instances_validate(where: str, schema: dict[str, Any]) -> None:
    """The generator's value is valid for every real server's tool schema we hold."""
    try:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError:
        pytest.skip("not a valid schema")
    cls(schema).validate(instance(schema))
