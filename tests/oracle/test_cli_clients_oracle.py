"""Differential oracle (issue 6): the claude-code and codex profiles against the real CLIs.

Claude Code 2.1.328 and Codex 0.169.0 come from tests/package.json (`npm ci --prefix tests`).
Each is driven with no key and no model call (`claude mcp add` + `claude mcp get`; `codex
app-server` + `mcpServerStatus/list`) against `catalogaudit serve`, over the scenarios of
fixtures/oracle/ it is measured on, in one `catalogaudit verify` run per client. The profile's
prediction must equal the observation for every list and item, and the list verdicts must equal
the "Measured with real clients" table, so a profile and a driver wrong the same way still fail.

Claude Code's prompts and resources are read from one `claude -p` session over every catalog
that lists them (its stream-json init line's slash commands, its ListMcpResourcesTool result):
scenarios C, E and F, the prompt and resource shapes S3, S4, S5 and S7 of
fixtures/oracle-npm/, and those shapes' defects one per catalog (ONE_DEFECT: in S3 and S4 the
first defect hides the others). A failed prompt or resource list has no words of Claude Code's
own (the server connects and shows none of them), so the driver's are quoted.

Codex lists tools even from a server that declares no tools capability, and fails the whole
server when tools/list is not found, so resource and prompt scenarios are served with an empty
tool list too (as in the measured runs).

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, ROOT
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    observed,
    predicted_rows,
    scenario_snapshots,
    snapshot_of,
    verify_json,
)

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
#: Scenarios of fixtures/oracle-npm/ (the rest are fixtures/oracle/'s).
SHAPES = sorted(p.name for p in (FIXTURES / "oracle-npm").iterdir() if p.is_dir())
#: One prompt or resource defect each, beside a valid item: listing -> its items.
ONE_DEFECT: dict[str, dict[str, list[object]]] = {
    "P-arguments-object": {"prompts": [{"name": "fine"}, {"name": "o", "arguments": {"a": 1}}]},
    "P-argument-without-name": {
        "prompts": [{"name": "fine"}, {"name": "m", "arguments": [{"name": "a"}, {}]}]
    },
    "R-mime-number": {
        "resources": [
            {"uri": "file:///ok", "name": "ok"},
            {"uri": "file:///m", "name": "m", "mimeType": 3},
        ]
    },
    "R-audience-string": {
        "resources": [
            {"uri": "file:///ok", "name": "ok"},
            {"uri": "file:///a", "name": "a", "annotations": {"audience": "user"}},
        ]
    },
    "R-audience-unknown-role": {
        "resources": [
            {"uri": "file:///ok", "name": "ok"},
            {"uri": "file:///a", "name": "a", "annotations": {"audience": ["robot"]}},
        ]
    },
}
#: client -> (`--client` spec, executable under tests/node_modules/.bin, measured list verdicts).
CLIENTS: dict[str, tuple[str, str, dict[str, dict[str, str]]]] = {
    "claude-code": (
        "claude-code@2.1.328",
        "claude",
        {
            "B-array-input-schema": {"tools": "failed"},
            "C-priority-lexemes": {"tools": "kept", "resources": "kept"},
            "D-no-input-schema": {"tools": "failed"},
            "E-priority-2": {"tools": "kept", "resources": "failed"},
            "F-resource-without-uri": {"tools": "kept", "resources": "failed"},
            "S3-resource-shapes": {"tools": "kept", "resources": "failed"},
            "S4-prompt-shapes": {"tools": "kept", "prompts": "failed"},
            "S5-prompt-names": {"tools": "kept", "prompts": "kept"},
            "S7-duplicate-uris": {"tools": "kept", "resources": "kept"},
            "P-arguments-object": {"tools": "kept", "prompts": "failed"},
            "P-argument-without-name": {"tools": "kept", "prompts": "failed"},
            "R-mime-number": {"tools": "kept", "resources": "failed"},
            "R-audience-string": {"tools": "kept", "resources": "failed"},
            "R-audience-unknown-role": {"tools": "kept", "resources": "failed"},
        },
    ),
    "codex": (
        "codex@0.169.0",
        "codex",
        {
            "B-array-input-schema": {"tools": "kept"},
            "C-priority-lexemes": {"tools": "kept", "resources": "kept"},
            "D-no-input-schema": {"tools": "failed"},
            "E-priority-2": {"tools": "kept", "resources": "kept"},
            "F-resource-without-uri": {"tools": "kept", "resources": "failed"},
        },
    ),
}
#: What each client's failed list message must quote (its own words where it has any).
QUOTES = {
    ("claude-code", "B-array-input-schema"): "Invalid result for tools/list: tools.1.inputSchema",
    ("claude-code", "D-no-input-schema"): "Invalid result for tools/list: tools.1.inputSchema",
    ("claude-code", "E-priority-2"): "none of the server's in ListMcpResourcesTool",
    ("claude-code", "F-resource-without-uri"): "none of the server's in ListMcpResourcesTool",
    ("claude-code", "S3-resource-shapes"): "none of the server's in ListMcpResourcesTool",
    ("claude-code", "S4-prompt-shapes"): "none of the server's in slash_commands",
    ("claude-code", "P-arguments-object"): "none of the server's in slash_commands",
    ("claude-code", "P-argument-without-name"): "none of the server's in slash_commands",
    ("claude-code", "R-mime-number"): "none of the server's in ListMcpResourcesTool",
    ("claude-code", "R-audience-string"): "none of the server's in ListMcpResourcesTool",
    ("claude-code", "R-audience-unknown-role"): "none of the server's in ListMcpResourcesTool",
    ("codex", "D-no-input-schema"): "MCP startup failed: Unexpected response type",
    ("codex", "F-resource-without-uri"): "Unexpected response type",
}
#: Items missing from a list that was kept: (scenario, listing, served index). Claude Code
#: makes one slash command of two prompts named alike (the second `dup`).
DROPS = {("claude-code", "S5-prompt-names", "prompts", 3)}
CASES = [(c, s) for c, (_, _, measured) in CLIENTS.items() for s in sorted(measured)]


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One snapshot per scenario; scenarios without tools get an empty tool list as well."""
    base = tmp_path_factory.mktemp("cli-oracle")
    names = {s for _, s in CASES} - set(ONE_DEFECT)
    out = scenario_snapshots(base, sorted(names - set(SHAPES)), empty_tools=True)
    out |= scenario_snapshots(
        base, sorted(names & set(SHAPES)), empty_tools=True, under="oracle-npm"
    )
    for name, lists in ONE_DEFECT.items():
        results = {"tools": {"tools": []}} | {k: {k: v} for k, v in lists.items()}
        out[name] = snapshot_of(base, name, results)
    return out


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each installed client's `verify --format json` over its scenarios in one run."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for cid, (spec, exe, measured) in CLIENTS.items():
        if not (MODULES / ".bin" / exe).is_file():
            not_installed(f"{cid} (npm ci --prefix tests)")
            continue
        out[cid] = verify_json(spec, [snapshots[n] for n in sorted(measured)], str(MODULES))
    return out


@pytest.mark.parametrize(("client", "scenario"), CASES)
def test_profile_predicts_the_client(
    client: str,
    scenario: str,
    snapshots: dict[str, Path],
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """Per list and item: the profile's predicted verdict equals what the client did."""
    if client not in verdicts:
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    _, doc = verdicts[client]
    rows = predicted_rows(doc, snapshots[scenario], client)
    lists = {r["listing"]: r["verdict"] for r in rows if r["index"] is None}
    assert lists == CLIENTS[client][2][scenario], lists
    for r in rows:
        if r["index"] is None and r["verdict"] == "failed":
            assert QUOTES[(client, scenario)] in r["message"], r["message"]
            items = [o for o in rows if o["listing"] == r["listing"] and o["index"] is not None]
            assert items and all(o["verdict"] == "dropped" for o in items)
    dropped = {
        (client, scenario, r["listing"], r["index"])
        for r in rows
        if r["index"] is not None and r["verdict"] == "dropped" and lists[r["listing"]] == "kept"
    }
    assert dropped == {d for d in DROPS if d[:2] == (client, scenario)}


def test_claude_code_drops_the_whole_tool_list_where_codex_keeps_both(
    snapshots: dict[str, Path],
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """Issue 6's done-when: one {"type":"array"} inputSchema costs Claude Code every tool,
    quoting Claude Code's own message, while Codex keeps both tools."""
    if set(verdicts) != set(CLIENTS):
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    b = str(snapshots["B-array-input-schema"])
    claude = observed(verdicts["claude-code"][1], b)
    codex = observed(verdicts["codex"][1], b)
    tools = [(o["identity"], o["verdict"]) for o in claude if o["index"] is not None]
    assert tools == [("good", "dropped"), ("listish", "dropped")]
    (lst,) = [o for o in claude if o["index"] is None]
    assert 'expected "object"' in lst["message"], lst["message"]
    assert [(o["identity"], o["verdict"]) for o in codex if o["index"] is not None] == [
        ("good", "kept"),
        ("listish", "kept"),
    ]


def test_exit_code_says_whether_everything_matched(
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """`verify` exits 0 exactly when every observation matched its prediction."""
    for code, doc in verdicts.values():
        assert code == (0 if doc["matches"] else 1)
