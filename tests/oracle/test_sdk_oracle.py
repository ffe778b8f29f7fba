"""Differential oracle (issue 6): the python-sdk and ts-sdk profiles against the real SDK clients.

Every scenario of fixtures/oracle/ becomes a snapshot (`snapshot --from`), all of them go through
one `catalogaudit verify` run per client (one client process for the batch), and the profile's
predicted verdict must equal the observed one for every list and item. A mismatch is fixed in
the profile data, never here. The measured-table verdicts are asserted too, so a profile and
a driver that were wrong in the same way would still fail.

These tests start real clients, so they run only when asked: `pytest -m oracle` (any -m that
selects them) or CATALOGAUDIT_ORACLE=1; a plain `pytest` collects and skips them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, ROOT
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    predicted_rows,
    scenario_snapshots,
    verify_json,
)

pytestmark = pytest.mark.oracle

SCENARIOS = sorted(p.name for p in (FIXTURES / "oracle").iterdir() if p.is_dir())
#: The list verdicts measured on TS SDK 1.32.2 and Python mcp 2.3.0 ("Measured with real
#: clients", compat-rules.md): both SDKs validate the whole list result at once.
MEASURED: dict[str, dict[str, str]] = {
    "B-array-input-schema": {"tools": "failed"},
    "C-priority-lexemes": {"resources": "kept"},
    "D-no-input-schema": {"tools": "failed"},
    "E-priority-2": {"resources": "failed"},
    "F-resource-without-uri": {"resources": "failed"},
}
CLIENTS = {
    "python-sdk": ("python-sdk@2.3.0", None),
    "ts-sdk": ("ts-sdk@1.32.2", str(ROOT / "tests" / "node_modules")),
}


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One snapshot per scenario, made from its raw list results by `snapshot --from`."""
    return scenario_snapshots(tmp_path_factory.mktemp("oracle"), SCENARIOS)


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each client's `verify --format json` over every scenario in one run."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for cid, (spec, path) in CLIENTS.items():
        if cid == "ts-sdk" and not (Path(path or "") / "@modelcontextprotocol" / "sdk").is_dir():
            not_installed("the TS SDK (npm ci --prefix tests)")
            continue
        out[cid] = verify_json(spec, [snapshots[n] for n in SCENARIOS], path)
    return out


@pytest.mark.parametrize("client", sorted(CLIENTS))
@pytest.mark.parametrize("scenario", SCENARIOS)
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
    assert lists == MEASURED[scenario], lists
    for r in rows:
        if r["index"] is None and r["verdict"] == "failed":
            assert r["message"], "a failed list must quote the client's own message"


def test_every_measured_scenario_has_a_fixture() -> None:
    """The measured matrix is never shrunk: each scenario in MEASURED exists and vice versa."""
    assert set(SCENARIOS) == set(MEASURED)


def test_exit_code_says_whether_everything_matched(
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """`verify` exits 0 exactly when every observation matched its prediction."""
    for code, doc in verdicts.values():
        assert code == (0 if doc["matches"] else 1)
