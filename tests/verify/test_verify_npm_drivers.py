"""The opencode and inspector drivers' parsing, without the clients: opencode's logfmt warnings
and command names, Inspector's JSON output and error lines, and how each finds its client; and
the real Inspector on a page it never answers."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT, cli

from catalogaudit.verify import base
from catalogaudit.verify.base import ClientNotFound
from catalogaudit.verify.drivers import inspector, opencode
from catalogaudit.verify.lattice import shapes
from catalogaudit.verify.observatory import target

PROMPTS = [{"name": "git:commit"}, {"name": "git_commit"}, {"name": "dup"}, {"name": "dup"}]


def _target(tmp_path: Path, doc: dict[str, list[dict[str, object]]]) -> base.Target:
    """A snapshot of these raw list results, as `verify` would load it."""
    inputs = []
    for name, items in doc.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(json.dumps({name: items}), encoding="utf-8")
        inputs += ["--from", str(path)]
    out = tmp_path / "snapshot.json"
    assert cli("snapshot", *inputs, "-o", str(out)).code == 0
    (target,) = base.targets([str(out)], tmp_path)
    return target


def test_opencode_warning_lines_become_compact_messages() -> None:
    line = (
        'timestamp=x level=WARN run=r message="failed to get resources" clientName=c3 '
        'error="[\\n  {\\n    \\"code\\": \\"too_big\\",\\n'
        '    \\"message\\": \\"Too big\\"\\n  }\\n]"'
    )
    (m,) = opencode._FAILED.finditer(line)
    assert (m.group(1), m.group(2)) == ("resources", "c3")
    assert opencode._unquote(m.group(3)) == '[{"code":"too_big","message":"Too big"}]'
    assert opencode._unquote("MCP error -32601:\\n  Method not found") == (
        "MCP error -32601: Method not found"
    )


def test_opencode_colliding_prompt_commands_keep_the_first(tmp_path: Path) -> None:
    target = _target(tmp_path, {"prompts": PROMPTS})
    kept = opencode._prompts_kept(target, {"git_commit", "dup"})
    assert kept == [{"name": "git:commit"}, {"name": "dup"}]


def test_opencode_failed_server_fails_every_listing_it_reads(tmp_path: Path) -> None:
    target = _target(tmp_path, {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]})
    entry = {"status": "failed", "error": "Failed to get tools"}
    (out,) = opencode._outcomes(target, "c0", entry, {}, [], {})
    assert (out.listing, out.items, out.error) == ("tools", None, "Failed to get tools")


def test_opencode_client_path(tmp_path: Path) -> None:
    binary = tmp_path / "opencode-linux-x64" / "bin" / "opencode"
    binary.parent.mkdir(parents=True)
    binary.write_text("#!/bin/sh\n", encoding="utf-8")
    binary.chmod(0o755)
    assert opencode.executable(str(tmp_path)) == str(binary.resolve())
    with pytest.raises(ClientNotFound, match="no executable"):
        opencode.executable(str(tmp_path / "missing"))


def _proc(code: int, out: str = "", err: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess([], code, out, err)


def test_inspector_output_and_errors() -> None:
    kept = inspector._outcome("tools", _proc(0, '{"tools": [{"name": "a"}]}'))
    assert (kept.items, kept.error) == ([{"name": "a"}], "")
    err = (
        'catalogaudit serve: stdin closed\n{"error":{"code":"error","message":"Connection closed"}}'
    )
    failed = inspector._outcome("tools", _proc(1, "", err))
    assert (failed.items, failed.error) == (None, "Connection closed")
    glued = inspector._outcome("prompts", _proc(1, "", 'closed{"error":{"message":"boom"}}'))
    assert glued.error == "boom"
    plain = inspector._outcome("prompts", _proc(1, "", "Error: spawn ENOENT\n"))
    assert plain.error == "exit 1: Error: spawn ENOENT"


def test_inspector_client_path(tmp_path: Path) -> None:
    with pytest.raises(ClientNotFound, match="no mcp-inspector"):
        inspector.command(str(tmp_path))
    script = tmp_path / ".bin" / "mcp-inspector"
    node = tmp_path / ".bin" / "node"
    script.parent.mkdir()
    for f in (script, node):
        f.write_text("#!/bin/sh\n", encoding="utf-8")
        f.chmod(0o755)
    assert inspector.command(str(tmp_path)) == [str(node.resolve()), str(script.resolve())]


@pytest.mark.skipif(
    not (ROOT / "tests" / "node_modules" / ".bin" / "mcp-inspector").is_file(),
    reason="npm ci --prefix tests",
)
def test_inspector_no_answer_fails_that_list_and_the_run_goes_on(tmp_path: Path) -> None:
    """Inspector 2.12.0 never answers a tools page whose `_meta` is a string: that list fails
    with the timeout, like an SDK client's request timeout, and the other target is listed."""
    chosen = {s.id: s for s in shapes() if s.id in ("tools.page._meta/string", "base")}
    driver = inspector.InspectorDriver(str(ROOT / "tests" / "node_modules"), timeout=15)
    silent, base_ = driver.run(
        [target(chosen[i], tmp_path, "inspector") for i in ("tools.page._meta/string", "base")]
    )
    assert [(o.listing, o.items, o.error) for o in silent] == [
        ("tools", None, "no answer in 15 s (request timed out)")
    ]
    assert base_ and all(o.items for o in base_)
