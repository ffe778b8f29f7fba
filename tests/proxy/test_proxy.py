"""`catalogaudit proxy` over stdio (issue 38), with real processes: what a client receives
through the proxy is what `rewrite` writes for the same fixes, byte for byte; a client whose
profile does not need a fix gets the server's bytes; the server never outlives the proxy.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, PYTHON, cli, fixture, pid_alive
from helpers.rawservers import assert_gone

EXAMPLE = fixture("captures", "example-server.snapshot.json")
PRIORITIES = FIXTURES / "oracle" / "C-priority-lexemes" / "resources.json"
CA = [PYTHON, "-m", "catalogaudit"]
#: A 2026-07-28 server without ttlMs, cacheScope and resultType on its list results.
BARE = [*CA, "serve", "--cache-hints", "absent", str(EXAMPLE)]


def snap(tmp_path: Path, name: str, *argv: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    result = cli("snapshot", "-o", str(out), "--", *argv, timeout=180)
    assert result.code == 0, str(result)
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def rewritten(tmp_path: Path, doc: dict[str, Any], *args: str) -> dict[str, Any]:
    src, out = tmp_path / "direct.json", tmp_path / "rewritten.json"
    src.write_text(json.dumps(doc))
    result = cli("rewrite", str(src), *args, "-o", str(out))
    assert result.code in (0, 1), str(result)
    got: dict[str, Any] = json.loads(out.read_text())
    return got


def same_catalog(a: dict[str, Any], b: dict[str, Any]) -> None:
    """The page texts as served (byte for byte), the readable items and every hash."""
    assert a["wire"]["pages"] == b["wire"]["pages"]
    assert a["listings"] == b["listings"]
    assert a["hashes"] == b["hashes"]


@pytest.mark.parametrize(
    ("fix", "args"),
    [("cache-hints", ("--fix", "cache-hints")), ("subs", ("--substitutions", "notes=memos,.=!"))],
)
def test_through_the_proxy_is_what_rewrite_writes(
    tmp_path: Path, fix: str, args: tuple[str, ...]
) -> None:
    direct = snap(tmp_path, "direct", *BARE)
    proxied = snap(tmp_path, "proxied", *CA, "proxy", *args, "--", *BARE)
    expected = rewritten(tmp_path, direct, *args)
    same_catalog(proxied, expected)
    assert proxied["wire"]["pages"] != direct["wire"]["pages"]  # the fix did something


def test_the_codex_app_fix_through_the_proxy_is_rewrites(tmp_path: Path) -> None:
    static = tmp_path / "priorities.json"
    assert cli("snapshot", "--from", str(PRIORITIES), "-o", str(static)).code == 0
    server = [*CA, "serve", str(static)]
    direct = snap(tmp_path, "direct", *server)
    proxied = snap(tmp_path, "proxied", *CA, "proxy", "--fix", "codex-app", "--", *server)
    same_catalog(proxied, rewritten(tmp_path, direct, "--fix", "codex-app"))
    priorities = [r["annotations"]["priority"] for r in proxied["listings"]["resources"]["items"]]
    assert sorted(map(str, priorities)) == ["1", "1", "1"]


def test_a_client_without_a_profile_gets_the_servers_bytes(tmp_path: Path) -> None:
    # catalogaudit's own client has no profile: no fix applies to it, not even cache-hints
    # on a server that omits them
    direct = snap(tmp_path, "direct", *BARE)
    proxied = snap(tmp_path, "proxied", *CA, "proxy", "--", *BARE)
    same_catalog(proxied, direct)


RAW_SERVER = r"""
import sys
for line in sys.stdin:
    msg = line.strip()
    if '"id":7' in msg:
        sys.stdout.buffer.write(b'{ "jsonrpc" : "2.0" ,"result":{"tools":'
            b'[{"name":"t\xff","x":1.50}],"nextCursor" : "c" }, "id":7}\r\n')
    elif '"id":8' in msg:
        sys.stdout.buffer.write(b'{"jsonrpc":"2.0","id":8,"result":{"tools":[ ]}}\n')
    sys.stdout.buffer.write(b'not json \x00 at all\n')
    sys.stdout.flush()
"""


def session(
    tmp_path: Path, lines: list[dict[str, Any]], *args: str, server: list[str] | None = None
) -> tuple[bytes, str, int]:
    """Send `lines` through `proxy ARGS -- SERVER`, close stdin; stdout, stderr, exit code."""
    if server is None:
        script = tmp_path / "raw_server.py"
        script.write_text(RAW_SERVER)
        server = [PYTHON, str(script)]
    data = b"".join(json.dumps(m, separators=(",", ":")).encode() + b"\n" for m in lines)
    proc = subprocess.run(
        [*CA, "proxy", *args, "--", *server], input=data, capture_output=True, timeout=120
    )
    return proc.stdout, proc.stderr.decode(), proc.returncode


def meta(name: str, version: str, title: str = "") -> dict[str, Any]:
    info = {"name": name, "version": version, **({"title": title} if title else {})}
    return {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": info,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    }


def test_untouched_lines_pass_byte_for_byte(tmp_path: Path) -> None:
    lines = [{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": meta("x", "1")}]
    out, err, code = session(tmp_path, lines, "--substitutions", "zzz=y")
    assert code == 0, err
    assert out == (
        b'{ "jsonrpc" : "2.0" ,"result":{"tools":[{"name":"t\xff","x":1.50}],'
        b'"nextCursor" : "c" }, "id":7}\r\n'
        b"not json \x00 at all\n"
    )
    assert "substitutions: 1 pair(s) for every client" in err


def test_a_rewritten_answer_changes_its_result_and_nothing_else(tmp_path: Path) -> None:
    lines = [{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": meta("x", "1")}]
    out, err, code = session(tmp_path, lines, "--fix", "cache-hints")
    assert code == 0, err
    first = out.split(b"\n")[0]
    assert first == (
        b'{ "jsonrpc" : "2.0" ,"result":{"tools":[{"name":"t\xff","x":1.50}],'
        b'"nextCursor":"c","ttlMs":0,"cacheScope":"private","resultType":"complete"}, "id":7}\r'
    )
    assert "fix cache-hints: on for every client (--fix)" in err


@pytest.mark.parametrize(
    ("client", "fixed"),
    [
        (("claude-code", "2.1.258", "Claude Code"), True),  # CC-CACHE-001
        (("claude-code", "2.1.328", "Claude Code"), False),  # tolerates their absence
        (("my-agent", "1.0", ""), False),  # no profile
    ],
)
def test_cache_hints_go_to_the_clients_whose_profile_needs_them(
    tmp_path: Path, client: tuple[str, str, str], fixed: bool
) -> None:
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": meta(*client)}]
    out, err, code = session(tmp_path, lines, server=BARE)
    assert code == 0, err
    result = json.loads(out.splitlines()[0])["result"]
    assert ("ttlMs" in result) is fixed, (result.keys(), err)
    assert f"client {client[0]} {client[1]}" in err


def test_codex_sessions_by_clientinfo_get_integer_priorities(tmp_path: Path) -> None:
    static = tmp_path / "priorities.json"
    assert cli("snapshot", "--from", str(PRIORITIES), "-o", str(static)).code == 0

    def priorities(version: str, *args: str) -> list[str]:
        init = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "codex-mcp-client", "title": "Codex", "version": version},
        }
        lines = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 1, "method": "resources/list"},
        ]
        out, err, code = session(
            tmp_path, lines, *args, server=[*CA, "serve", "--protocol", "legacy", str(static)]
        )
        assert code == 0, err
        (answer,) = [ln for ln in out.splitlines() if b'"id":1' in ln]
        # the lexemes as written on the wire
        return [p.split(b"}")[0].decode().strip() for p in answer.split(b'"priority":')[1:]]

    assert priorities("0.148.0-alpha.6") == ["1", "1", "1"]  # codex-app (CDX-ANN-001)
    assert priorities("0.169.0") == ["0.5", "1.0", "1"]  # npm codex accepts them
    assert priorities("0.148.0-alpha.6", "--no-fix", "codex-app") == ["0.5", "1.0", "1"]


def test_sigterm_ends_the_proxy_and_its_server(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = tmp_path / "slow.py"
    script.write_text(
        "import os, sys, time\n"
        f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen(
        [*CA, "proxy", "--", PYTHON, str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    server = int(pidfile.read_text())
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert b"stopped by SIGTERM" in err
    assert not pid_alive(server)


def ended_first(server: list[str]) -> tuple[int, str]:
    """The proxy's exit code and stderr when the server ends while the client is still there."""
    proc = subprocess.Popen(
        [*CA, "proxy", "--", *server],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        code = proc.wait(timeout=60)
    finally:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        err = proc.stderr.read().decode()
    return code, err


def test_a_server_that_ends_first_ends_the_proxy_with_its_story() -> None:
    code, err = ended_first([PYTHON, "-c", "import sys; sys.exit(3)"])
    assert code == 1
    assert "the server exited with status 3" in err


def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    for args in (["proxy"], ["proxy", "--fix", "nope", "--", "x"]):
        result = cli(*args)
        assert result.code == 2 and result.stderr.count("error:") == 1, str(result)
    both = cli("proxy", "--fix", "codex-app", "--no-fix", "codex-app", "--", "x")
    assert both.code == 2 and "contradict" in both.stderr
    missing = cli("proxy", "--", str(tmp_path / "no-such-server"))
    assert missing.code == 2 and "command not found" in missing.stderr


def test_secrets_in_the_command_are_never_said(tmp_path: Path) -> None:
    token = "ghp_" + "a1" * 18
    script = tmp_path / "leaky.py"
    script.write_text("import sys\nprint('using', sys.argv[2], file=sys.stderr)\n")
    code, err = ended_first([PYTHON, str(script), "--token", token])
    assert code == 1
    assert "using ***" in err and token not in err


def test_a_client_message_over_the_bound_is_dropped_and_answered(tmp_path: Path) -> None:
    big = {"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {"x": "a" * 2000}}
    small = {"jsonrpc": "2.0", "id": 8, "method": "tools/list"}
    out, err, code = session(tmp_path, [big, small], "--max-message-size", "1024")
    assert code == 0, err
    lines = out.splitlines()
    assert json.loads(lines[0])["error"]["code"] == -32700  # ours, for the dropped line
    assert lines[1:] == [
        b'{"jsonrpc":"2.0","id":8,"result":{"tools":[ ]}}',
        b"not json \x00 at all",
    ]
    assert "exceeded 1024 bytes: dropped" in err


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_the_server_and_its_children_die_with_the_proxy(tmp_path: Path, sig: int) -> None:
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    # a server with a grandchild in its group, as npm wrappers have
    server = f"echo > {pid_dir}/$$; sleep 600 & echo > {pid_dir}/$!; wait"
    proc = subprocess.Popen(
        [*CA, "proxy", "--", "sh", "-c", server],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while len(os.listdir(pid_dir)) < 2:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        pids = [int(name) for name in os.listdir(pid_dir)]
        proc.send_signal(sig)
        proc.wait(15)
        assert_gone(pids, within=5.0)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for name in os.listdir(pid_dir):
            with contextlib.suppress(OSError):
                os.kill(int(name), signal.SIGKILL)


def test_both_sessions_of_a_dual_era_server_are_what_rewrite_writes(tmp_path: Path) -> None:
    # mcp-server-time answers server/discover and initialize: --legacy-probe captures both
    # sessions, and rewrite rewrites the legacy session's pages (wire.legacy) too
    time_server = str(Path(PYTHON).parent / "mcp-server-time")
    sub = ("--substitutions", "Get current time in a specific timezone=Get the time in a zone")
    out = tmp_path / "direct.json"
    assert cli("snapshot", "--legacy-probe", "-o", str(out), "--", time_server).code == 0
    direct = json.loads(out.read_text())
    assert direct["wire"]["legacy"]["pages"]["tools"]
    proxied_out = tmp_path / "proxied.json"
    made = cli(
        "snapshot",
        "--legacy-probe",
        "-o",
        str(proxied_out),
        "--",
        *CA,
        "proxy",
        *sub,
        "--",
        time_server,
    )
    assert made.code == 0, str(made)
    proxied = json.loads(proxied_out.read_text())
    expected = rewritten(tmp_path, direct, *sub)
    same_catalog(proxied, expected)
    assert proxied["wire"]["legacy"]["pages"] == expected["wire"]["legacy"]["pages"]
    assert "Get the time in a zone" in proxied["wire"]["legacy"]["pages"]["tools"][0]
