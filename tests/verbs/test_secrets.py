"""Issue 15 item 5: a server that echoes a secret does not get it printed or stored, and a stdio
server gets an allow-listed environment (fixtures/servers/hostile_text_server.py, real stdio and
HTTP)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS, cli, free_port, wait_port

HOSTILE = str(SERVERS / "hostile_text_server.py")
KEY = "sk-proj-Zq81hostileEchoedKey"
ARGV_TOKEN = "tok-argv-3141592653"
FORMATS = ("text", "json", "sarif", "junit", "github", "markdown")


def test_echoed_env_value_is_masked_in_snapshot_and_every_report(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    server = [PYTHON, HOSTILE, "--mode", "banner-secret", "--token", ARGV_TOKEN]
    got = cli("snapshot", "--env", f"HOSTILE_SECRET={KEY}", "-o", str(out), "--", *server)
    assert got.code == 0, got
    text = out.read_text()
    assert KEY not in text and ARGV_TOKEN not in text
    doc = json.loads(text)
    ca510 = [f for f in doc["findings"] if f["ruleId"] == "CA510"]
    assert ca510 and "Using API key ***" in ca510[0]["message"], ca510
    assert doc["capture"]["server"]["command"][-1] == "***"
    for fmt in FORMATS:
        # NOTE: GitHub annotations stop at 10 per level; CA510 must be among those shown
        narrow = ["--select", "CA510"] if fmt == "github" else []
        got = cli("audit", str(out), "--format", fmt, *narrow)
        assert "Using API key ***" in got.stdout, (fmt, got)
        assert KEY not in got.stdout + got.stderr, fmt
    got = cli("audit", "--live", "--env", f"HOSTILE_SECRET={KEY}", "--", *server)
    assert "***" in got.stdout and KEY not in got.stdout + got.stderr, got


def test_stderr_tail_in_the_error_line_is_masked(tmp_path: Path) -> None:
    got = cli(
        "snapshot",
        "--env",
        f"HOSTILE_SECRET={KEY}",
        "-o",
        str(tmp_path / "s.json"),
        "--",
        PYTHON,
        HOSTILE,
        "--mode",
        "stderr-exit",
    )
    assert got.code == 2 and "invalid token '***'" in got.stderr, got
    assert KEY not in got.stderr


@pytest.mark.parametrize("via", ["header", "url", "secret-option", "secret-vars"])
def test_reflected_401_body_is_masked(via: str, tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([PYTHON, HOSTILE, "--http", str(port), "--mode", "unauthorized"])
    url = f"http://127.0.0.1:{port}/mcp"
    args = ["--header", f"Authorization: Bearer {KEY}"]
    env = {}
    if via == "url":
        url, args = f"http://agent:{KEY}@127.0.0.1:{port}/mcp", []
    elif via == "secret-option":
        args = ["--header", "Authorization: env:HOSTILE_AUTH", "--secret", "env:HOSTILE_AUTH"]
        env = {"HOSTILE_AUTH": "ab1"}  # too short to be masked unless marked
    elif via == "secret-vars":
        args = ["--header", "Authorization: env:HOSTILE_AUTH"]
        env = {"HOSTILE_AUTH": "ab2", "CATALOGAUDIT_SECRET_VARS": "HOSTILE_AUTH"}
    try:
        wait_port(port, proc)
        got = cli("snapshot", "--url", url, *args, "-o", str(tmp_path / "s.json"), env=env)
    finally:
        proc.kill()
        proc.wait()
    assert got.code == 2 and "HTTP 401" in got.stderr, got
    assert KEY not in got.stderr and "invalid token '" in got.stderr, got
    if via == "url":
        assert "'Basic ***'" in got.stderr, got  # the credentials the HTTP client sent
    elif via.startswith("secret"):
        assert "ab1" not in got.stderr and "ab2" not in got.stderr, got
    else:
        assert "'Bearer ***'" in got.stderr or "'***'" in got.stderr, got


def test_stdio_server_gets_the_allow_list_unless_inherit_env(tmp_path: Path) -> None:
    dump = tmp_path / "env.json"
    server = [PYTHON, HOSTILE, "--mode", "text", "--dump-env", str(dump)]
    env = {"CI_DEPLOY_TOKEN": "hunter2-ci-secret", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    out = str(tmp_path / "a.json")
    got = cli("snapshot", "--env", "ADDED=1", "-o", out, "--", *server, env=env)
    assert got.code == 0, got
    seen = json.loads(dump.read_text())
    assert "CI_DEPLOY_TOKEN" not in seen
    assert seen["ADDED"] == "1" and seen["LC_ALL"] == "C.UTF-8" and seen["TZ"] == "UTC"
    allowed = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TZ", "ADDED"}
    assert set(seen) <= allowed | {k for k in seen if k.startswith("LC_")}, sorted(seen)
    got = cli("snapshot", "--inherit-env", "-o", str(tmp_path / "b.json"), "--", *server, env=env)
    assert got.code == 0, got
    assert json.loads(dump.read_text())["CI_DEPLOY_TOKEN"] == "hunter2-ci-secret"


def test_argv_secret_detection() -> None:
    from catalogaudit.verbs.secrets import argv_secrets

    argv = ["srv", "--api-key", "k1k1k1", "--token=t2t2t2", "API_KEY=v3v3v3", "--port", "8080"]
    argv += ["ghp_" + "a" * 36, "/usr/lib/node_modules/some/long/path/to/a/server.js"]
    found = argv_secrets(argv)
    assert {"k1k1k1", "t2t2t2", "v3v3v3", "ghp_" + "a" * 36} <= set(found)
    assert "8080" not in found and not any(f.startswith("/") for f in found)


@pytest.mark.parametrize("via", ["env", "secret-option"])
def test_a_secret_echoed_in_instructions_and_server_info_is_masked(
    via: str, tmp_path: Path
) -> None:
    """Issue 33: `capture.instructions`, `serverInfo` and the handshake text in `wire` kept an
    echoed secret; the catalog hash covers the masked instructions (what a read-back sees)."""
    out = tmp_path / "s.json"
    server = [PYTHON, HOSTILE, "--mode", "echo-secret"]
    given = (
        ["--env", f"HOSTILE_SECRET={KEY}"] if via == "env" else ["--inherit-env", "--secret", KEY]
    )
    got = cli("snapshot", *given, "-o", str(out), "--", *server, env={"HOSTILE_SECRET": KEY})
    assert got.code == 0, got
    text = out.read_text()
    assert KEY not in text
    doc = json.loads(text)
    assert doc["capture"]["instructions"] == "Authenticated with ***."
    assert doc["capture"]["serverInfo"]["version"] == "1.0 (key ***)"
    again = cli("hash", str(out), "--format", "json")
    assert again.code == 0, again
    assert doc["hashes"]["canonical"] in again.stdout
