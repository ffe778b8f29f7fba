"""Streamable HTTP against the raw HTTP server, which records every request it receives:
headers and session handling of both eras, SSE, redirects, secrets in headers."""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from helpers import cli, validate_snapshot
from helpers.rawservers import (
    FAST,
    counts,
    findings,
    http_server,
    raw,
    snapshot_fails,
    snapshot_ok,
)

from catalogaudit import __version__

LIST_METHODS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]
META_KEYS = {
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/clientInfo",
}


def body_method(req: dict[str, Any]) -> str | None:
    body = req["body"]
    return body.get("method") if isinstance(body, dict) else None


@pytest.mark.parametrize("answer", ["json", "sse"])
def test_legacy_server_by_fallback(tmp_path: Path, answer: str) -> None:
    with http_server(tmp_path, "--era", "legacy", "--answer", answer) as server:
        doc, _ = snapshot_ok(tmp_path, "--url", server.url)
    reqs = server.requests()
    assert [(r["method"], body_method(r)) for r in reqs] == [
        ("POST", "server/discover"),
        ("POST", "initialize"),
        ("POST", "notifications/initialized"),
        *[("POST", m) for m in LIST_METHODS],
        ("DELETE", None),
    ]
    probe, init, *later = reqs
    assert probe["headers"]["mcp-protocol-version"] == "2026-07-28"
    assert probe["headers"]["mcp-method"] == "server/discover"
    assert "mcp-session-id" not in probe["headers"]
    assert "accept" in probe["headers"]
    assert set(probe["headers"]["accept"].replace(" ", "").split(",")) == {
        "application/json",
        "text/event-stream",
    }
    # initialize starts over: no session, no protocol header (the version is in the body)
    assert "mcp-session-id" not in init["headers"]
    assert "mcp-protocol-version" not in init["headers"]
    assert init["body"]["params"]["protocolVersion"] == "2025-11-25"
    for req in later:
        assert req["headers"]["mcp-session-id"] == "fixture-session-0001", req
        assert req["headers"]["mcp-protocol-version"] == "2025-11-25", req
        assert "mcp-method" not in req["headers"], req
    assert reqs[-1]["method"] == "DELETE"
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"], proto["handshake"]) == (
        "legacy",
        "2025-11-25",
        "initialize",
    )
    assert proto["offered"] == ["2026-07-28", "2025-11-25"]
    assert len(findings(doc, "CA520")) == 1
    assert doc["capture"]["transport"] == "streamable-http"
    assert counts(doc) == (3, 2, 4, 1)
    if answer == "sse":
        assert findings(doc, "CA510") == []  # priming events and comments are not garbage


@pytest.mark.parametrize("answer", ["json", "sse"])
@pytest.mark.parametrize("era", ["modern", "both"])
def test_modern_server(tmp_path: Path, era: str, answer: str) -> None:
    with http_server(tmp_path, "--era", era, "--answer", answer) as server:
        doc, _ = snapshot_ok(tmp_path, "--url", server.url)
    reqs = server.requests()
    assert [body_method(r) for r in reqs] == ["server/discover", *LIST_METHODS]
    for req in reqs:
        headers = req["headers"]
        assert req["method"] == "POST"
        assert headers["mcp-protocol-version"] == "2026-07-28", req
        assert headers["mcp-method"] == req["body"]["method"], req
        assert "mcp-session-id" not in headers, req
        meta = req["body"]["params"]["_meta"]
        assert set(meta) == META_KEYS
        assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
        assert meta["io.modelcontextprotocol/clientCapabilities"] == {}
        assert meta["io.modelcontextprotocol/clientInfo"] == {
            "name": "catalogaudit",
            "version": __version__,
        }
    proto = doc["capture"]["protocol"]
    assert (proto["era"], proto["negotiated"], proto["handshake"]) == (
        "modern",
        "2026-07-28",
        "server/discover",
    )
    assert findings(doc, "CA520") == []
    assert counts(doc) == (3, 2, 4, 1)


def test_same_origin_redirect_is_followed(tmp_path: Path) -> None:
    with http_server(tmp_path, "--redirect-same-origin") as server:
        doc, _ = snapshot_ok(tmp_path, "--url", server.url)
    reqs = server.requests()
    assert [(r["path"], body_method(r)) for r in reqs[:2]] == [
        ("/mcp", "server/discover"),
        ("/mcp2", "server/discover"),
    ]
    assert {r["path"] for r in reqs} == {"/mcp", "/mcp2"}
    assert all(r["listener"] == "127.0.0.1" for r in reqs)
    assert counts(doc) == (3, 2, 4, 1)
    assert doc["capture"]["server"]["url"] == server.url  # what we were asked, not the target


def test_cross_origin_redirect_is_refused(tmp_path: Path) -> None:
    with http_server(tmp_path, "--redirect-cross-origin") as server:
        # the other origin really listens: the redirect would have reached it
        with socket.create_connection(("127.0.0.2", server.port), timeout=5):
            pass
        line, result = snapshot_fails(tmp_path, *FAST, "--url", server.url)
    assert line == (
        f"server at {server.url}, server/discover: refused a cross-origin redirect to "
        f"http://127.0.0.2:{server.port}/mcp"
    )
    assert result.seconds < 5
    reqs = server.requests()
    assert len(reqs) == 1
    assert [r["listener"] for r in reqs] == ["127.0.0.1"]


SECRET = "s3cret"
BEARER = f"Bearer {SECRET}"


def test_header_from_environment_is_sent_and_never_written(tmp_path: Path) -> None:
    with http_server(tmp_path, "--require-header", f"Authorization: {BEARER}") as server:
        out = tmp_path / "s.json"
        result = cli(
            "snapshot",
            "-o",
            str(out),
            *FAST,
            "--url",
            server.url,
            "--header",
            "Authorization: env:MY_TOKEN",
            env={"MY_TOKEN": BEARER},
        )
        assert result.code == 0, str(result)
        text = out.read_text()
        doc = json.loads(text)
        validate_snapshot(doc)
    for where in (text, result.stdout, result.stderr):
        assert SECRET not in where
    assert doc["capture"]["server"]["headers"] == ["Authorization"]
    assert counts(doc) == (3, 2, 4, 1)
    # the fixture records a digest of the value it received on every request
    digest = "<redacted sha256:" + hashlib.sha256(BEARER.encode()).hexdigest()[:12] + ">"
    reqs = server.requests()
    assert len(reqs) == 5
    assert all(r["headers"]["authorization"] == digest for r in reqs)


def test_missing_header_is_http_401(tmp_path: Path) -> None:
    with http_server(tmp_path, "--require-header", f"Authorization: {BEARER}") as server:
        line, _ = snapshot_fails(tmp_path, *FAST, "--url", server.url)
    assert line == f"server at {server.url}, server/discover: HTTP 401; body: 401 Unauthorized"


@pytest.mark.parametrize(("era", "stdio_protocol"), [("legacy", "legacy"), ("modern", "auto")])
@pytest.mark.parametrize("answer", ["json", "sse"])
def test_stdio_and_http_capture_the_same_catalog(
    tmp_path: Path, era: str, stdio_protocol: str, answer: str
) -> None:
    catalog = ("--tools", "7", "--resources", "6", "--page-size", "3", "--priority-lexemes")
    stdio, _ = snapshot_ok(
        tmp_path, "--protocol", stdio_protocol, "--", *raw(*catalog), name="stdio.json"
    )
    with http_server(tmp_path, *catalog, "--era", era, "--answer", answer) as server:
        http, _ = snapshot_ok(tmp_path, "--url", server.url, name="http.json")
    assert stdio["capture"]["protocol"]["era"] == http["capture"]["protocol"]["era"] == era
    assert counts(http) == (7, 2, 6, 1)
    assert http["hashes"] == stdio["hashes"]
    for name in ("tools", "prompts", "resources", "resourceTemplates"):
        assert http["listings"][name] == stdio["listings"][name]
    assert http["wire"]["pages"] == stdio["wire"]["pages"]
