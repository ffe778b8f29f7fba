"""Differential oracle (issue 6): the context-forge profile against six ContextForge PyPI releases.

Each release runs its own discovery and validation code (`register_gateway`, the pydantic
validators, the SQLite models and their insert listeners) from a cached venv made by
`python -m catalogaudit.verify.drivers.context_forge_install` (`.ci/run` installs them).
Every scenario of fixtures/oracle-cf/ becomes a snapshot, all of them go through one
`catalogaudit verify` run per release (one interpreter for the batch, two releases at a time),
and the profile's prediction must equal the observation for every list and item. The verdicts
measured on the releases are asserted too (`MEASURED`), so a profile and a driver wrong the same
way still fail. The seeded random catalogs reach the same releases through test_random_oracle.py.
A mismatch is fixed in the profile data, never here.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1. A release that
is not installed skips its tests locally and fails them under CI.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from helpers import cli
from helpers.cf_measured import (
    ITEM_QUOTES,
    MEASURED,
    QUOTES,
    RELEASES,
    SCENARIOS,
    Verdict,
    inputs,
    measured,
)
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    not_installed,
    observed,
    predicted_rows,
    verify_json,
)

from catalogaudit.verify.drivers.context_forge_install import cache_root, installed

pytestmark = pytest.mark.oracle

CASES = [(r, s) for r in RELEASES for s in SCENARIOS]


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One snapshot per scenario, made by `snapshot --from` from its raw list results."""
    base = tmp_path_factory.mktemp("oracle-cf")
    out: dict[str, Path] = {}
    for name in SCENARIOS:
        found = inputs(name, base)
        path = base / f"{name}.json"
        made = cli("snapshot", *[a for f in found for a in ("--from", str(f))], "-o", str(path))
        assert made.code == 0, str(made)
        out[name] = path
    return out


@pytest.fixture(scope="module")
def verdicts(snapshots: dict[str, Path]) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each installed release's `verify --format json` over every scenario (one release
    process for all of them), two releases at a time."""
    root = cache_root()
    missing = [r for r in RELEASES if not installed(root, r)]
    if missing:
        not_installed(f"ContextForge {', '.join(missing)} (under {root})")
    paths = [snapshots[n] for n in SCENARIOS]

    def run(release: str) -> tuple[int, dict[str, Any]]:
        return verify_json(f"context-forge@{release}", paths, timeout=900)

    wanted = [r for r in RELEASES if r not in missing]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(wanted, pool.map(run, wanted), strict=True))


@pytest.mark.parametrize(("release", "scenario"), CASES)
def test_profile_predicts_the_release(
    release: str,
    scenario: str,
    snapshots: dict[str, Path],
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """Per list and item: context-forge@RELEASE predicts what the release did, and that is
    what was measured."""
    if release not in verdicts:
        pytest.skip(
            f"install it: python -m catalogaudit.verify.drivers.context_forge_install {release}"
        )
    _, doc = verdicts[release]
    assert doc["client"] == {"id": "context-forge", "version": release}
    rows = predicted_rows(doc, snapshots[scenario], f"context-forge {release}")
    seen: dict[str, Verdict] = {}
    for r in rows:
        if r["index"] is None:
            seen[r["listing"]] = "failed" if r["verdict"] == "failed" else ()
            if r["verdict"] == "failed":
                assert r["message"], "a failed list must quote the release's own message"
        elif r["verdict"] == "dropped" and seen[r["listing"]] != "failed":
            seen[r["listing"]] = (*seen[r["listing"]], r["identity"])
    assert seen == measured(scenario, release)
    quote = QUOTES.get((scenario, release))
    if quote is not None:
        assert any(quote in r["message"] for r in rows if r["index"] is None), rows
    for r in rows:
        said = ITEM_QUOTES.get((scenario, release, r["identity"] or ""))
        if said is not None:
            assert r["verdict"] == "dropped" and said in r["message"], r


def test_every_scenario_is_measured_on_every_release() -> None:
    """The measured matrix is never shrunk: each scenario has a verdict for each release."""
    assert set(MEASURED) == set(SCENARIOS)
    for scenario in SCENARIOS:
        for release in RELEASES:
            measured(scenario, release)


def test_exit_code_says_whether_everything_matched(
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """`verify` exits 0 exactly when every observation matched its prediction."""
    for code, doc in verdicts.values():
        assert code == (0 if doc["matches"] else 1)
