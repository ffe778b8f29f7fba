"""`verify --transport http [--sse]`: each snapshot served by `serve --http` on loopback, the
client given its URL; the Python SDK client here (the npm clients are in
tests/oracle/test_http_oracle.py), the served capture the prediction reads, and the refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import FIXTURES, cli

from catalogaudit.auditing.engine import AuditOptions, audit
from catalogaudit.verify import base, transports

SNAP = FIXTURES / "captures" / "server-filesystem-2026.8.31.snapshot.json"


@pytest.mark.parametrize("sse", [False, True])
def test_python_sdk_over_http(sse: bool) -> None:
    args = ["--transport", "http", *(["--sse"] if sse else [])]
    result = cli("verify", "--client", "python-sdk", *args, "--format", "json", str(SNAP))
    assert result.code == 0, str(result)
    doc = result.json()
    assert doc["transport"] == ("http+sse" if sse else "http")
    rows = doc["observations"]
    assert len(rows) == 15 and all(r["verdict"] == "kept" and r["matches"] for r in rows)


def test_served_capture_says_how_serve_answers(tmp_path: Path) -> None:
    (target,) = base.targets([str(SNAP)], tmp_path)
    served = transports.as_served(target, "http://127.0.0.1:1/mcp", sse=True)
    cap = served.catalog.capture
    assert cap["transport"] == "streamable-http" and served.url == "http://127.0.0.1:1/mcp"
    assert cap["http"]["answers"] == {
        "initialize": "text/event-stream",
        "server/discover": "text/event-stream",
        "tools/list": "text/event-stream",
    }
    assert "http" not in target.catalog.capture  # the snapshot itself is left alone
    found = audit(served.catalog, AuditOptions(profiles=("codex@0.137.0",))).findings
    assert {f.rule_id for f in found} >= {"CDX-XPORT-001"}
    plain = transports.as_served(target, "http://127.0.0.1:1/mcp", sse=False)
    found = audit(plain.catalog, AuditOptions(profiles=("codex@0.137.0",))).findings
    assert "CDX-XPORT-001" not in {f.rule_id for f in found}


def test_loopback_bypasses_the_offline_proxy() -> None:
    for key in ("NO_PROXY", "no_proxy"):
        assert set(base.OFFLINE_ENV[key].split(",")) == {"127.0.0.1", "localhost", "::1"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--client", "python-sdk", "--sse"], "--sse needs --transport http"),
        (["--client", "claude-code", "--transport", "http"], "the claude-code driver runs"),
    ],
)
def test_refusals_are_one_error_line(args: list[str], words: str, tmp_path: Path) -> None:
    fake = tmp_path / "claude"
    fake.write_text("#!/bin/sh\necho '2.1.328 (Claude Code)'\n", encoding="utf-8")
    fake.chmod(0o755)
    result = cli("verify", *args, "--client-path", str(fake), str(SNAP))
    assert result.code == 2 and result.stderr.count("\n") == 1, str(result)
    assert words in result.stderr
