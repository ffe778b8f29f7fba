"""Differential oracle (issue 6): the opencode and inspector profiles against the real clients.

opencode 1.18.33 (its `opencode-linux-x64` binary package, run through the tests/opencode-bin
shim as node_modules/.bin/opencode) and MCP Inspector 2.12.0 come from tests/package.json
(`npm ci --prefix tests`). Each is driven with no key and no model call
(`opencode serve` and its /mcp, /experimental/resource and /command routes; `mcp-inspector
--cli` per listing, on Node 22) against `catalogaudit serve`, over scenarios B-F of
fixtures/oracle/, in one `catalogaudit verify` run per client. The profile's prediction must
equal the observation for every list and item, and the list verdicts must equal the "Measured
with real clients" table, so a profile and a driver wrong the same way still fail.

The item-shape scenarios of fixtures/oracle-npm/ (S1-S6: items the MCP SDK's list-item
schemas reject, a non-object outputSchema, prompt names that collide as opencode commands,
duplicate resource uris) were
found with these drivers after the table; their verdicts are asserted the same way.

Two more catalogs check what the table says in words: "B+" is scenario B's tools with scenario
C's resources and two prompts (opencode fails the whole server, "its resources too"; 1.18.33
reads prompts as commands, so they go as well), and "C+" is scenario C with the same prompts
(kept by both).

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, ROOT, cli
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    observed,
    predicted_rows,
    scenario_snapshots,
    verify_json,
)

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
SCENARIOS = sorted(p.name for p in (FIXTURES / "oracle").iterdir() if p.is_dir())
SHAPES = sorted(p.name for p in (FIXTURES / "oracle-npm").iterdir() if p.is_dir())
PROMPTS = '{"prompts": [{"name": "ask", "description": "A prompt."}, {"name": "plain"}]}\n'
#: Extra catalogs: name -> the fixtures/oracle/ files they are made of (plus PROMPTS).
EXTRA = {
    "B+": ("B-array-input-schema/tools.json", "C-priority-lexemes/resources.json"),
    "C+": ("C-priority-lexemes/resources.json",),
}
#: client -> (`--client` spec, what must exist under tests/node_modules, measured list verdicts).
CLIENTS: dict[str, tuple[str, str, dict[str, dict[str, str]]]] = {
    "opencode": (
        "opencode@1.18.33",
        ".bin/opencode",
        {
            "B-array-input-schema": {"tools": "failed"},
            "C-priority-lexemes": {"resources": "kept"},
            "D-no-input-schema": {"tools": "failed"},
            # "resources empty (warning)": the resources/list call failed validation and
            # opencode shows none of them; the list is failed, with opencode's warning.
            "E-priority-2": {"resources": "failed"},
            "F-resource-without-uri": {"resources": "failed"},
            "B+": {"tools": "failed", "resources": "failed", "prompts": "failed"},
            "C+": {"resources": "kept", "prompts": "kept"},
            "S1-tool-shapes": {"tools": "failed"},
            # opencode re-requests tools/list without outputSchema validation.
            "S2-output-schema-array": {"tools": "kept"},
            "S3-resource-shapes": {"resources": "failed"},
            "S4-prompt-shapes": {"prompts": "failed"},
            "S5-prompt-names": {"prompts": "kept"},
            # S6: opencode lists templates but no route shows them, so nothing is observed.
            "S7-duplicate-uris": {"resources": "kept"},
        },
    ),
    "inspector": (
        "inspector@2.12.0",
        ".bin/mcp-inspector",
        {
            "B-array-input-schema": {"tools": "kept"},
            "C-priority-lexemes": {"resources": "kept"},
            "D-no-input-schema": {"tools": "kept"},
            "E-priority-2": {"resources": "kept"},
            "F-resource-without-uri": {"resources": "kept"},
            "B+": {"tools": "kept", "resources": "kept", "prompts": "kept"},
            "C+": {"resources": "kept", "prompts": "kept"},
            "S1-tool-shapes": {"tools": "kept"},
            "S2-output-schema-array": {"tools": "kept"},
            "S3-resource-shapes": {"resources": "kept"},
            "S4-prompt-shapes": {"prompts": "kept"},
            "S5-prompt-names": {"prompts": "kept"},
            "S6-template-shapes": {"resourceTemplates": "kept"},
            "S7-duplicate-uris": {"resources": "kept"},
        },
    ),
}
#: What each client's failed list message must quote (its own words, not ours).
QUOTES = {
    ("opencode", "B-array-input-schema", "tools"): "Failed to get tools",
    ("opencode", "D-no-input-schema", "tools"): "Failed to get tools",
    ("opencode", "E-priority-2", "resources"): "Too big: expected number to be <=1",
    ("opencode", "F-resource-without-uri", "resources"): "expected string, received undefined",
    ("opencode", "B+", "tools"): "Failed to get tools",
    ("opencode", "B+", "resources"): "Failed to get tools",
    ("opencode", "B+", "prompts"): "Failed to get tools",
    ("opencode", "S1-tool-shapes", "tools"): "Failed to get tools",
    ("opencode", "S3-resource-shapes", "resources"): "failed to get resources",
    ("opencode", "S4-prompt-shapes", "prompts"): "failed to get prompts",
}
#: Items missing from a list that was kept: (scenario, listing, served index). Inspector drops
#: invalid items one by one, silently; opencode makes one command of colliding prompt names
#: and one entry of resources with the same uri.
DROPS = {
    "inspector": {
        ("B-array-input-schema", "tools", 1),
        ("D-no-input-schema", "tools", 1),
        ("E-priority-2", "resources", 1),
        ("F-resource-without-uri", "resources", 1),
        ("B+", "tools", 1),
        *(("S1-tool-shapes", "tools", i) for i in (1, 2, 3, 4)),
        ("S2-output-schema-array", "tools", 1),
        *(("S3-resource-shapes", "resources", i) for i in (1, 2, 3, 4)),
        *(("S4-prompt-shapes", "prompts", i) for i in (1, 2, 3)),
        *(("S6-template-shapes", "resourceTemplates", i) for i in (1, 2)),
    },
    "opencode": {
        ("S5-prompt-names", "prompts", 1),
        ("S5-prompt-names", "prompts", 3),
        ("S7-duplicate-uris", "resources", 1),
    },
}
CASES = [(c, s) for c, (_, _, measured) in CLIENTS.items() for s in sorted(measured)]


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One snapshot per scenario of fixtures/oracle/ and fixtures/oracle-npm/, and the two
    extra catalogs."""
    base = tmp_path_factory.mktemp("npm-oracle")
    out = scenario_snapshots(base, SCENARIOS)
    for name in SHAPES:
        inputs = sorted((FIXTURES / "oracle-npm" / name).glob("*.json"))
        path = base / f"{name}.json"
        result = cli("snapshot", *[a for f in inputs for a in ("--from", str(f))], "-o", str(path))
        assert result.code == 0, str(result)
        out[name] = path
    prompts = base / "prompts.txt"
    prompts.write_text(PROMPTS, encoding="utf-8")
    for name, files in EXTRA.items():
        inputs = [str(FIXTURES / "oracle" / f) for f in files] + [str(prompts)]
        path = base / f"{name}.json"
        result = cli("snapshot", *[a for f in inputs for a in ("--from", f)], "-o", str(path))
        assert result.code == 0, str(result)
        out[name] = path
    return out


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each installed client's `verify --format json` over its catalogs in one run."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for cid, (spec, needed, measured) in CLIENTS.items():
        if not (MODULES / needed).is_file():
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
    """Per list and item: the profile's predicted verdict equals what the client did, and the
    list verdicts are the measured ones."""
    if client not in verdicts:
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    _, doc = verdicts[client]
    rows = predicted_rows(doc, snapshots[scenario], client)
    lists = {r["listing"]: r["verdict"] for r in rows if r["index"] is None}
    assert lists == CLIENTS[client][2][scenario], lists
    for r in rows:
        if r["index"] is None and r["verdict"] == "failed":
            assert QUOTES[(client, scenario, r["listing"])] in r["message"], r["message"]
            items = [o for o in rows if o["listing"] == r["listing"] and o["index"] is not None]
            assert items and all(o["verdict"] == "dropped" for o in items)
    dropped = {
        (scenario, r["listing"], r["index"])
        for r in rows
        if r["index"] is not None and r["verdict"] == "dropped" and lists[r["listing"]] == "kept"
    }
    assert dropped == {d for d in DROPS[client] if d[0] == scenario}


def test_every_oracle_scenario_is_run() -> None:
    """The measured matrix is never shrunk: every fixtures/oracle/ scenario runs per client."""
    for cid, (_, _, measured) in CLIENTS.items():
        assert set(SCENARIOS) <= set(measured)
        # opencode exposes no resource templates, so S6 is Inspector's only.
        assert set(SHAPES) - set(measured) <= (
            {"S6-template-shapes"} if cid == "opencode" else set()
        )


def test_exit_code_says_whether_everything_matched(
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """`verify` exits 0 exactly when every observation matched its prediction."""
    for code, doc in verdicts.values():
        assert code == (0 if doc["matches"] else 1)
