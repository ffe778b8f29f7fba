"""`catalogaudit proxy --listen PORT --url URL` (issue 38): Streamable HTTP in front of
`catalogaudit serve --http`, with real processes. Through the proxy is what `rewrite` writes,
JSON bodies and event streams alike; sessions of different clients get their own answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import FIXTURES, PYTHON, cli, fixture
from helpers.listening import listening

EXAMPLE = fixture("captures", "example-server.snapshot.json")
PRIORITIES = FIXTURES / "oracle" / "C-priority-lexemes" / "resources.json"


def snap(tmp_path: Path, name: str, url: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    result = cli("snapshot", "--url", url, "-o", str(out), timeout=120)
    assert result.code == 0, str(result)
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


@pytest.mark.parametrize("answers", [(), ("--sse",)], ids=["json", "event-stream"])
def test_through_the_http_proxy_is_what_rewrite_writes(
    tmp_path: Path, answers: tuple[str, ...]
) -> None:
    serve = ["serve", "--http", "0", "--cache-hints", "absent", *answers, str(EXAMPLE)]
    with listening(*serve) as (upstream, _):
        direct = snap(tmp_path, "direct", upstream)
        with listening("proxy", "--listen", "0", "--url", upstream, "--fix", "cache-hints") as (
            url,
            proxy,
        ):
            proxied = snap(tmp_path, "proxied", url)
    assert proxy.returncode == 0  # SIGTERM is a clean end
    src, out = tmp_path / "direct.json", tmp_path / "rewritten.json"
    src.write_text(json.dumps(direct))
    assert cli("rewrite", str(src), "--fix", "cache-hints", "-o", str(out)).code == 0
    expected = json.loads(out.read_text())
    assert proxied["wire"]["pages"] == expected["wire"]["pages"]
    assert proxied["listings"] == expected["listings"]
    assert proxied["hashes"] == expected["hashes"]
    assert proxied["wire"]["pages"] != direct["wire"]["pages"]


def modern(client: str, version: str) -> tuple[dict[str, str], dict[str, Any]]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": version},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    return headers, body


def test_clients_through_one_proxy_get_their_own_answers() -> None:
    serve = ["serve", "--http", "0", "--cache-hints", "absent", str(EXAMPLE)]
    with (
        listening(*serve) as (upstream, _),
        listening("proxy", "--listen", "0", "--url", upstream) as (url, _),
    ):
        got = {}
        for version in ("2.1.258", "2.1.328", "2.1.258"):
            headers, body = modern("claude-code", version)
            answer = httpx.post(url, json=body, headers=headers, timeout=30)
            assert answer.status_code == 200
            got[version] = "ttlMs" in answer.json()["result"]
    assert got == {"2.1.258": True, "2.1.328": False}  # CC-CACHE-001 is below 2.1.328


def test_legacy_sessions_are_known_by_their_session_id(tmp_path: Path) -> None:
    static = tmp_path / "priorities.json"
    assert cli("snapshot", "--from", str(PRIORITIES), "-o", str(static)).code == 0
    serve = ["serve", "--http", "0", "--protocol", "legacy", str(static)]
    with (
        listening(*serve) as (upstream, _),
        listening("proxy", "--listen", "0", "--url", upstream) as (url, _),
        httpx.Client(timeout=30) as http,
    ):

        def session(version: str) -> str:
            info = {"name": "codex-mcp-client", "title": "Codex", "version": version}
            params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}
            init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
            answer = http.post(url, json=init)
            assert answer.status_code == 200, answer.text
            return answer.headers["Mcp-Session-Id"]

        app, npm = session("0.148.0-alpha.6"), session("0.169.0")

        def priorities(sid: str) -> list[str]:
            body = {"jsonrpc": "2.0", "id": 1, "method": "resources/list"}
            answer = http.post(url, json=body, headers={"Mcp-Session-Id": sid})
            parts = answer.content.split(b'"priority":')[1:]
            return [p.split(b"}")[0].decode().strip() for p in parts]

        assert priorities(npm) == ["0.5", "1.0", "1"]
        assert priorities(app) == ["1", "1", "1"]  # codex-app (CDX-ANN-001)


def test_an_unreachable_server_is_a_bad_gateway() -> None:
    with listening("proxy", "--listen", "0", "--url", "http://127.0.0.1:9/mcp") as (url, _):
        answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "x"}, timeout=30)
    assert answer.status_code == 502


def test_listen_needs_url_and_url_takes_no_command() -> None:
    for args in (
        ["--listen", "0"],
        ["--url", "http://127.0.0.1:9/mcp", "--", "server"],
        ["--url", "ftp://x", "--listen", "0"],
    ):
        result = cli("proxy", *args)
        assert result.code == 2 and result.stderr.count("error:") == 1, str(result)


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_a_stdio_client_in_front_of_an_http_server(tmp_path: Path, era: str) -> None:
    serve = ["serve", "--http", "0", "--protocol", "dual", "--cache-hints", "absent"]
    with listening(*serve, str(EXAMPLE)) as (upstream, _):
        out = tmp_path / "direct.json"
        made = cli("snapshot", "--protocol", era, "--url", upstream, "-o", str(out))
        assert made.code == 0, str(made)
        proxied = tmp_path / "proxied.json"
        argv = [PYTHON, "-m", "catalogaudit", "proxy", "--url", upstream, "--fix", "cache-hints"]
        made = cli("snapshot", "--protocol", era, "-o", str(proxied), "--", *argv)
        assert made.code == 0, str(made)
    rewritten = tmp_path / "rewritten.json"
    assert cli("rewrite", str(out), "--fix", "cache-hints", "-o", str(rewritten)).code in (0, 1)
    got, expected = json.loads(proxied.read_text()), json.loads(rewritten.read_text())
    assert got["wire"]["pages"] == expected["wire"]["pages"]
    assert got["hashes"] == expected["hashes"]
    direct = json.loads(out.read_text())
    assert got["capture"]["protocol"]["negotiated"] == direct["capture"]["protocol"]["negotiated"]
    # the fix is for 2026-07-28 results only
    assert ("ttlMs" in got["wire"]["pages"]["tools"][0]) is (era == "modern")


def test_a_request_without_clientinfo_is_known_by_its_user_agent(tmp_path: Path) -> None:
    # Codex's Streamable HTTP client sends User-Agent codex-mcp-client/VERSION (the codex
    # profile's `clients` evidence). The session starts past the proxy, so the proxy never saw
    # its clientInfo: the gap a stateless server (no Mcp-Session-Id) leaves too.
    static = tmp_path / "priorities.json"
    assert cli("snapshot", "--from", str(PRIORITIES), "-o", str(static)).code == 0
    serve = ["serve", "--http", "0", "--protocol", "legacy", str(static)]
    with (
        listening(*serve) as (upstream, _),
        listening("proxy", "--listen", "0", "--url", upstream) as (url, proxy),
        httpx.Client(timeout=30) as http,
    ):
        info = {"name": "some-client", "version": "1"}
        params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": info}
        init = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}
        sid = http.post(upstream, json=init).headers["Mcp-Session-Id"]

        def priorities(agent: str, info: dict[str, str] | None = None) -> list[str]:
            params = {"_meta": {"io.modelcontextprotocol/clientInfo": info}} if info else {}
            body = {"jsonrpc": "2.0", "id": 1, "method": "resources/list", "params": params}
            headers = {"User-Agent": agent, "Mcp-Session-Id": sid}
            answer = http.post(url, json=body, headers=headers)
            assert answer.status_code == 200, answer.text
            parts = answer.content.split(b'"priority":')[1:]
            return [p.split(b"}")[0].decode().strip() for p in parts]

        assert priorities("codex-mcp-client/0.148.0-alpha.6") == ["1", "1", "1"]
        assert priorities("codex-mcp-client/0.169.0") == ["0.5", "1.0", "1"]
        assert priorities("python-httpx/0.28.1") == ["0.5", "1.0", "1"]
        # the request's own clientInfo wins over its User-Agent
        claude = {"name": "claude-code", "version": "2.1.328"}
        assert priorities("codex-mcp-client/0.148.0-alpha.6", claude) == ["0.5", "1.0", "1"]
    assert proxy.stderr is not None
    said = proxy.stderr.read().decode()
    assert "client codex-mcp-client 0.148.0-alpha.6 (User-Agent) (profile codex, codex-app)" in said
