"""The gemini-cli driver against the real Gemini CLI (tests/package.json pins 0.61.0): one
headless session over the four served snapshots of this module, its model request read from the
loopback stand-in.

Observations are asserted, not predictions: this checks the driver (kept tools from the
request, kept resources from its `list_mcp_resources` call, a failed list from `--debug`), and
the oracle suite checks the profile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import npm_bin
from helpers.oracle_common import observed, snapshot_of, verify_json

from catalogaudit.verify.drivers.gemini_cli import qualified

GOOD = {"name": "get weather", "inputSchema": {"type": "object"}}


def _snapshot(
    tmp_path: Path,
    name: str,
    tools: list[dict[str, object]],
    resources: list[dict[str, object]] | None = None,
) -> Path:
    results: dict[str, object] = {"tools": {"tools": tools}}
    if resources is not None:
        results["resources"] = {"resources": resources}
    return snapshot_of(tmp_path, name, results)


def test_qualified_names_follow_gemini_cli() -> None:
    assert qualified("c0", "get weather") == "mcp_c0_get_weather"
    long = qualified("c0", "x" * 40 + "y" * 40)
    assert long == "mcp_c0_" + "x" * 23 + "..." + "y" * 30
    assert len(long) == 63


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], dict[str, Any]]:
    """The catalogs of both tests below (by role) and Gemini CLI's verify report over all of
    them: one headless session, the servers independent of one another."""
    client = str(Path(npm_bin("gemini")).parents[1])
    names, resources = tmp_path_factory.mktemp("names"), tmp_path_factory.mktemp("resources")
    ok = {"uri": "file:///a", "name": "a"}
    paths = {
        "good": _snapshot(
            names, "good", [GOOD, {"name": "b.c", "inputSchema": {"type": "object"}}]
        ),
        "nameless": _snapshot(names, "bad", [GOOD, {"inputSchema": {"type": "object"}}]),
        "kept": _snapshot(resources, "kept", [GOOD], [ok, {"uri": "", "name": "empty"}]),
        "refused": _snapshot(resources, "bad", [GOOD], [ok, {"uri": "file:///b", "name": 3}]),
    }
    _, doc = verify_json("gemini-cli", list(paths.values()), client_path=client, timeout=300)
    return paths, doc


def test_gemini_cli_keeps_good_tools_and_fails_a_nameless_one(
    session: tuple[dict[str, Path], dict[str, Any]],
) -> None:
    paths, doc = session
    good, bad = paths["good"], paths["nameless"]
    assert doc["client"] == {"id": "gemini-cli", "version": "0.61.0"}
    verdicts = {
        path.stem: [(o["index"], o["verdict"]) for o in observed(doc, path)] for path in (good, bad)
    }
    assert verdicts == {
        "good": [(None, "kept"), (0, "kept"), (1, "kept")],
        "bad": [(None, "failed"), (0, "dropped"), (1, "dropped")],
    }
    (failed,) = (o for o in observed(doc, bad) if o["index"] is None)
    assert failed["message"].startswith("tools: ")
    assert '"path":["tools",1,"name"]' in failed["message"]


def test_gemini_cli_lists_its_resources_through_its_own_tool(
    session: tuple[dict[str, Path], dict[str, Any]],
) -> None:
    """The resources Gemini CLI registered, read back through `list_mcp_resources`: an empty
    URI passes the SDK's schema but is never registered; a resource list the SDK refuses
    loses the server's tools as well."""
    paths, doc = session
    kept, bad = paths["kept"], paths["refused"]
    verdicts = {
        path.stem: [(o["listing"], o["index"], o["verdict"]) for o in observed(doc, path)]
        for path in (kept, bad)
    }
    assert verdicts == {
        "kept": [
            ("tools", None, "kept"),
            ("tools", 0, "kept"),
            ("resources", None, "kept"),
            ("resources", 0, "kept"),
            ("resources", 1, "dropped"),
        ],
        "bad": [
            ("tools", None, "failed"),
            ("tools", 0, "dropped"),
            ("resources", None, "failed"),
            ("resources", 0, "dropped"),
            ("resources", 1, "dropped"),
        ],
    }
