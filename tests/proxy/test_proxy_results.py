"""`annotations.priority` in call results through `catalogaudit proxy` (issue 38: "in listings
and results"): a Codex session whose profile needs `codex-app` (CDX-ANN-001 names tool call
results) gets each content block's priority as an integer lexeme, and every other byte as the
server wrote it; a Codex that accepts the lexemes, or `--no-fix codex-app`, gets the server's
bytes. Against server-everything's `get-annotated-message` (priorities 0.7, 0.3 and 0.5) and a
raw server for `prompts/get` and odd spacing.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import PYTHON, npm_bin

CA = [PYTHON, "-m", "catalogaudit"]
OLD_CODEX = "0.148.0-alpha.6"  # codex-app: CDX-ANN-001
NEW_CODEX = "0.169.0"  # npm codex accepts fractional priorities


def init(version: str) -> dict[str, Any]:
    info = {"name": "codex-mcp-client", "title": "Codex", "version": version}
    params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}
    return {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}


def answers(argv: list[str], version: str, calls: list[tuple[str, Any]]) -> list[bytes]:
    """The exact answer lines to `calls` (ids 1..n) of a Codex session of `version`."""
    lines = [init(version), {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [
        {"jsonrpc": "2.0", "id": i, "method": m, "params": p}
        for i, (m, p) in enumerate(calls, start=1)
    ]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    for msg in lines:  # one at a time: a stdio server may answer out of order otherwise
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()
    got: dict[int, bytes] = {}
    while len(got) < len(calls):
        line = proc.stdout.readline()
        assert line, got
        rid = json.loads(line).get("id")
        if isinstance(rid, int) and rid >= 1 and "method" not in json.loads(line):
            got[rid] = line
    proc.stdin.close()
    proc.wait(60)
    return [got[i] for i in range(1, len(calls) + 1)]


def lexemes(line: bytes) -> list[str]:
    return re.findall(r'"priority"\s*:\s*([^,}\s]+)', line.decode())


def annotated(kind: str) -> tuple[str, Any]:
    args = {"messageType": kind, "includeImage": True}
    return "tools/call", {"name": "get-annotated-message", "arguments": args}


def test_codex_app_sessions_get_integer_priorities_in_tool_results() -> None:
    server = [npm_bin("mcp-server-everything")]
    calls = [annotated("success"), annotated("debug"), annotated("error")]
    direct = answers(server, OLD_CODEX, calls)
    proxied = answers([*CA, "proxy", "--", *server], OLD_CODEX, calls)
    assert [lexemes(a) for a in direct] == [["0.7", "0.5"], ["0.3", "0.5"], ["1", "0.5"]]
    assert [lexemes(a) for a in proxied] == [["1", "1"], ["0", "1"], ["1", "1"]]
    for before, after in zip(direct, proxied, strict=True):  # nothing else changed
        assert re.sub(rb'"priority":[^,}]+', b"P", before) == re.sub(
            rb'"priority":[^,}]+', b"P", after
        )


@pytest.mark.parametrize(
    ("version", "args"), [(NEW_CODEX, ()), (OLD_CODEX, ("--no-fix", "codex-app"))]
)
def test_other_sessions_get_the_servers_result_bytes(version: str, args: tuple[str, ...]) -> None:
    server = [npm_bin("mcp-server-everything")]
    calls = [annotated("success")]
    direct = answers(server, version, calls)
    assert answers([*CA, "proxy", *args, "--", *server], version, calls) == direct


RAW_SERVER = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    rid = msg.get("id")
    if msg.get("method") == "initialize":
        out = b'{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18",' \
              b'"capabilities":{"prompts":{}},"serverInfo":{"name":"raw","version":"1"}}}'
    elif msg.get("method") == "prompts/get":
        out = b'{"jsonrpc":"2.0","id":%d,"result":{ "messages" : [ {"role":"user","content":' \
              b'{"type":"text","text":"\\u00e9 \xc3\xa9","annotations": { "priority" : 1.0 }}},' \
              b'{"role":"user","content":{"type":"text","text":"x"}} ] }}' % rid
    elif msg.get("method") == "tools/call":
        out = b'{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"resource",' \
              b'"resource":{"uri":"a:b","text":"t"},"annotations":{"priority":2.5e-1}}],' \
              b'"structuredContent":{"annotations":{"priority":0.5}}}}' % rid
    else:
        continue
    sys.stdout.buffer.write(out + b"\n")
    sys.stdout.flush()
"""


def test_prompt_messages_and_embedded_resources_change_in_their_priority_only(
    tmp_path: Path,
) -> None:
    script = tmp_path / "raw.py"
    script.write_text(RAW_SERVER)
    calls: list[tuple[str, Any]] = [("prompts/get", {"name": "p"}), ("tools/call", {"name": "t"})]
    prompt, call = answers([*CA, "proxy", "--", PYTHON, str(script)], OLD_CODEX, calls)
    assert prompt == (
        b'{"jsonrpc":"2.0","id":1,"result":{ "messages" : [ {"role":"user","content":'
        b'{"type":"text","text":"\\u00e9 \xc3\xa9","annotations": { "priority" : 1 }}},'
        b'{"role":"user","content":{"type":"text","text":"x"}} ] }}\n'
    )
    # the block's priority is rounded; structuredContent is the tool's own data, kept
    assert call == (
        b'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"resource",'
        b'"resource":{"uri":"a:b","text":"t"},"annotations":{"priority":0}}],'
        b'"structuredContent":{"annotations":{"priority":0.5}}}}\n'
    )
