"""Differential oracle (issue 6): the context-forge profile against seven ContextForge releases.

Each release runs its own discovery and validation code (`register_gateway`, the pydantic
validators, the SQLite models and their insert listeners) from a cached venv made by
`python -m catalogaudit.verify.drivers.context_forge_install` (`.ci/run` installs them).
Every scenario of fixtures/oracle-cf/ becomes a snapshot, all of them go through one
`catalogaudit verify` run per release (one interpreter for the batch, two releases at a time),
and the profile's prediction must equal the observation for every list and item. The verdicts
measured on the releases are asserted too (`MEASURED`), so a profile and a driver wrong the same
way still fail. The seeded random catalogs of test_random_oracle.py (helpers/random_catalogs.py)
go through the same run of each release in `RANDOM` (one start of the release for both), and
are checked as test_random_oracle.py checks every other client.
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
    mismatches,
    not_installed,
    observed,
    predicted_rows,
    verify_json,
)
from helpers.random_catalogs import snapshots as random_snapshots

from catalogaudit.verify.drivers.context_forge_install import cache_root, installed

#: The releases' `verify` runs (two at a time, each bounded at 900 s) happen in the first
#: test's setup, which pytest's default 300 s would cut short on a loaded machine.
pytestmark = [pytest.mark.oracle, pytest.mark.timeout(900)]

CASES = [(r, s) for r in RELEASES for s in SCENARIOS]
#: The releases that also get the seeded random catalogs.
RANDOM = ("0.6.0", "0.9.0", "1.0.0b2", "1.0.0rc1", "1.0.0", "1.0.7")


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
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The seeded random catalogs, as snapshots named `random-<seed>.json`."""
    return random_snapshots(tmp_path_factory.mktemp("random-cf"))


def given(release: str, snapshots: dict[str, Path], catalogs: list[Path]) -> list[Path]:
    """What one release's verify run is given: every scenario, then the random catalogs."""
    return [snapshots[n] for n in SCENARIOS] + (catalogs if release in RANDOM else [])


@pytest.fixture(scope="module")
def verdicts(
    snapshots: dict[str, Path], catalogs: list[Path]
) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each installed release's `verify --format json` over every scenario and, for the
    releases in RANDOM, the random catalogs (one release process for all of them), two
    releases at a time."""
    root = cache_root()
    missing = [r for r in RELEASES if not installed(root, r)]
    if missing:
        not_installed(f"ContextForge {', '.join(missing)} (under {root})")

    def run(release: str) -> tuple[int, dict[str, Any]]:
        paths = given(release, snapshots, catalogs)
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


@pytest.mark.parametrize("release", RANDOM)
def test_profile_predicts_the_release_on_random_catalogs(
    release: str,
    snapshots: dict[str, Path],
    catalogs: list[Path],
    verdicts: dict[str, tuple[int, dict[str, Any]]],
) -> None:
    """test_random_oracle.py's check, on the random catalogs of this release's run."""
    if release not in verdicts:
        pytest.skip(f"ContextForge {release} is not installed")
    _, doc = verdicts[release]
    seen = {o["catalog"] for o in doc["observations"]}
    wanted = {str(c) for c in given(release, snapshots, catalogs)}
    assert seen == wanted, "the client observed fewer catalogs than given"
    wrong = {Path(c).stem: mismatches(observed(doc, c)) for c in sorted(map(str, catalogs))}
    wrong = {k: v for k, v in wrong.items() if v}
    assert not wrong, (
        "profile data disagrees with the client (replay with the seed):\n"
        + "\n".join(f"{name}: {line}" for name, lines in wrong.items() for line in lines)
    )


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
