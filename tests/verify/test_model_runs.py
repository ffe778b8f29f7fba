"""`verify --model` pieces without Claude Code: the bytes comparison across starts, the
predicted model view from the profile data, the tap relay, and `--calls`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS

from catalogaudit.errors import UsageError
from catalogaudit.verbs.verify_model import _calls
from catalogaudit.verify.model_runs import compare
from catalogaudit.verify.predict_model import qualified, view_of

A = '{"name":"a","input_schema":{"type":"object","properties":{"x":{},"y":{}}}}'
A_KEYS = '{"name":"a","input_schema":{"type":"object","properties":{"y":{},"x":{}}}}'
B = '{"name":"b","input_schema":{"enum":[1,2]}}'
B_ITEMS = '{"name":"b","input_schema":{"enum":[2,1]}}'
B_CONTENT = '{"name":"b","input_schema":{"enum":[3]}}'


def test_same_bytes_are_stable() -> None:
    got = compare([f"[{A},{B}]"] * 3)
    assert got.stable and got.drifts == () and len(set(got.sha256)) == 1


def test_changes_are_named_per_tool_and_start() -> None:
    got = compare([f"[{A},{B}]", f"[{A_KEYS},{B}]", f"[{A},{B_ITEMS}]", f"[{B_CONTENT}]"])
    assert not got.stable
    assert [(d.start, d.tool, d.how) for d in got.drifts] == [
        (2, "a", "key order"),
        (3, "b", "item order"),
        (4, "a", "removed"),
        (4, "b", "content"),
    ]
    assert [(d.tool, d.how) for d in compare([f"[{A},{B}]", f"[{B},{A}]"]).drifts] == [
        ("(tools array)", "item order")
    ]


ENTRY = {
    "name": "mcp__{server}__{tool}",
    "transform": "underscore-invalid",
    "fields": {"name": "name", "description": "description", "input_schema": "inputSchema"},
}


def test_predicted_view() -> None:
    tool = {"name": "a.b c", "title": "T", "inputSchema": {"type": "object"}, "annotations": {}}
    assert view_of(ENTRY, "srv", tool) == {
        "name": "mcp__srv__a_b_c",
        "description": "",
        "input_schema": {"type": "object"},
    }
    cut = {**ENTRY, "description": {"max": 4, "suffix": "..."}}
    assert view_of(cut, "s", {"name": "t", "description": "abcdef"})["description"] == "abcd..."
    assert qualified(ENTRY, "my.srv", "t") == "mcp__my_srv__t"


def test_calls_option() -> None:
    assert _calls([]) == ["all"]
    assert _calls(["a,b", "c"]) == ["a", "b", "c"]
    with pytest.raises(UsageError):
        _calls(["all", "x"])


def test_tap_relays_bytes_and_logs_calls(tmp_path: Path) -> None:
    """The tap passes lines through unchanged and notes tools/call and tools/list answers."""
    log = tmp_path / "calls.jsonl"
    counter = tmp_path / "counter"
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "steady", "arguments": {}},
        },
    ]
    proc = subprocess.run(
        [
            PYTHON,
            "-m",
            "catalogaudit.verify.tap",
            str(log),
            "--",
            sys.executable,
            str(SERVERS / "schema_order_server.py"),
            str(counter),
        ],
        input="".join(json.dumps(m) + "\n" for m in lines).encode(),
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    direct = subprocess.run(
        [sys.executable, str(SERVERS / "schema_order_server.py"), str(tmp_path / "c2")],
        input="".join(json.dumps(m) + "\n" for m in lines).encode(),
        capture_output=True,
        timeout=60,
    )
    assert proc.stdout == direct.stdout
    assert [json.loads(x)["name"] for x in log.read_text().splitlines()] == ["steady"]
    listed = Path(f"{log}.tools").read_text().splitlines()
    assert len(listed) == 1 and json.loads(listed[0])["id"] == 2
