"""The lattice ledger against the profiles (issue 32).

`fixtures/lattice/ledger.json` holds, per client version, the verdict the real client gave on
each shape of the lattice (`scripts/observatory.py run`). Replaying it needs no client: every
recorded verdict must equal the profile's prediction for that shape, so a profile change that
contradicts a measurement fails here. A small live sample per client, driven for real, must
still give the recorded verdicts, so the ledger cannot silently drift from the clients. The
ledger's `model_runs` (each model client's view of each tool shape, `run --model`) are replayed
against the profile's `model_view` prediction the same way, with a live sample of their own.

Run with `pytest -m oracle` (any -m that selects them) or CATALOGAUDIT_ORACLE=1.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from helpers import FIXTURES, ROOT
from helpers.oracle_common import asked_for, not_installed  # noqa: F401 - a fixture

from catalogaudit.verify.base import Driver
from catalogaudit.verify.drivers.context_forge import driver_at
from catalogaudit.verify.drivers.context_forge_install import LATTICE_LIVE, cache_root, installed
from catalogaudit.verify.lattice import Shape, shapes
from catalogaudit.verify.observatory import OBSERVES, VERDICTS, Verdict, observe_all, predict_all
from catalogaudit.verify.observatory_model import differences, predict_models

pytestmark = pytest.mark.oracle

LEDGER = json.loads((FIXTURES / "lattice" / "ledger.json").read_text(encoding="utf-8"))
RUNS = {f"{r['client']}@{r['version']}": r for r in LEDGER["runs"]}
BY_ID = {s.id: s for s in shapes()}
MODULES = ROOT / "tests" / "node_modules"
#: Pinned clients driven live on a sample: run id -> the executable under node_modules/.bin.
LIVE = {
    "codex@0.169.0": "codex",
    "claude-code@2.1.328": "claude",
    "opencode@1.18.33": "opencode",
    "inspector@2.12.0": "mcp-inspector",
    "gemini-cli@0.61.0": "gemini",
}


@functools.cache
def _predicted(run_id: str) -> dict[str, Verdict]:
    """The profile's verdict on every shape run `run_id` observed, computed once for this
    module's tests and the table (each shape is predicted on its own)."""
    run = RUNS[run_id]
    observed = [BY_ID[i] for i in run["observations"] if i in BY_ID]
    return predict_all(run_id, observed, OBSERVES.get(run["client"]))


@functools.cache
def _model_predicted(run_id: str) -> dict[str, dict[str, Any]]:
    """The profile's model view of every shape model run `run_id` observed, computed once."""
    obs = MODEL_RUNS[run_id]["observations"]
    servers = {sid: o["server"] for sid, o in obs.items()}
    return predict_models(run_id, [BY_ID[i] for i in obs if i in BY_ID], servers)


def _mismatches(run: dict[str, Any], ids: list[str]) -> list[str]:
    got = _predicted(f"{run['client']}@{run['version']}")
    return [
        f"{sid}: observed {run['observations'][sid]['verdict']} "
        f"({run['observations'][sid].get('message', '')[:120]}), predicted {got[sid].verdict} "
        f"({got[sid].message[:120]})"
        for sid in ids
        if got[sid].verdict != run["observations"][sid]["verdict"]
    ]


@pytest.mark.parametrize("run_id", sorted(RUNS))
def test_every_recorded_verdict_is_predicted(run_id: str) -> None:
    run = RUNS[run_id]
    unknown = [sid for sid in run["observations"] if sid not in BY_ID]
    assert not unknown, f"ledger shapes the lattice no longer makes: {unknown[:5]}"
    assert {o["verdict"] for o in run["observations"].values()} <= set(VERDICTS)
    wrong = _mismatches(run, sorted(run["observations"]))
    assert not wrong, f"{len(wrong)} mismatches for {run_id}:\n" + "\n".join(wrong)


def _sample(run: dict[str, Any]) -> list[str]:
    """A few shapes per recorded verdict (the first ones in lattice order), so every kind of
    loss the client showed is seen again."""
    out: list[str] = []
    for verdict in VERDICTS:
        ids = [
            s.id for s in shapes() if run["observations"].get(s.id, {}).get("verdict") == verdict
        ]
        out += ids[:3]
    return out


@pytest.mark.parametrize("run_id", sorted(LIVE))
def test_a_live_sample_still_gives_the_recorded_verdicts(run_id: str) -> None:
    if run_id not in RUNS:
        pytest.fail(f"{run_id} has no run in the ledger")
    exe = MODULES / ".bin" / LIVE[run_id]
    if not exe.is_file():
        not_installed(f"{run_id} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    run = RUNS[run_id]
    module = importlib.import_module(
        f"catalogaudit.verify.drivers.{run['client'].replace('-', '_')}"
    )
    _no_drift(run, module.driver(str(MODULES)))


@pytest.mark.parametrize("release", LATTICE_LIVE)
def test_a_live_contextforge_sample_still_gives_the_recorded_verdicts(release: str) -> None:
    """The same for the ContextForge releases installed for it (0.1.0: over HTTP+SSE)."""
    run_id = f"context-forge@{release}"
    if run_id not in RUNS:
        pytest.fail(f"{run_id} has no run in the ledger")
    if not installed(cache_root(), release):
        not_installed(f"ContextForge {release} (under {cache_root()})")
        pytest.skip(f"ContextForge {release} is not installed")
    _no_drift(RUNS[run_id], driver_at(None, release))


def _no_drift(run: dict[str, Any], driver: Driver) -> None:
    assert driver.version() == run["version"]
    ids = _sample(run)
    got = observe_all(driver, [BY_ID[i] for i in ids], batch=len(ids), jobs=1)
    drift = {
        sid: (run["observations"][sid]["verdict"], got[sid].verdict)
        for sid in ids
        if got[sid].verdict != run["observations"][sid]["verdict"]
    }
    assert not drift, f"recorded -> now: {drift}"


def test_the_compatibility_table_is_current() -> None:
    """docs/compatibility.md is what `scripts/observatory.py table` writes from the ledger and
    the profiles as they are now (in this process, from the predictions the tests above made;
    each is asked for the shapes the table asks for, so a shape missing from them fails)."""
    spec = importlib.util.spec_from_file_location(
        "lattice_table", ROOT / "scripts" / "lattice_table.py"
    )
    assert spec and spec.loader
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)

    def predict(
        profile: str, given: Iterable[Shape], listings: Sequence[str] | None
    ) -> dict[str, Any]:
        assert listings == OBSERVES.get(RUNS[profile]["client"])
        return {s.id: _predicted(profile)[s.id] for s in given}

    def predict_model(
        profile: str, given: Iterable[Shape], servers: dict[str, str]
    ) -> dict[str, dict[str, Any]]:
        assert servers == {i: o["server"] for i, o in MODEL_RUNS[profile]["observations"].items()}
        return {s.id: _model_predicted(profile)[s.id] for s in given}

    text = table.render(LEDGER, predict, predict_model)
    assert text == table.DOC.read_text(encoding="utf-8"), (
        "docs/compatibility.md is stale: python scripts/observatory.py table"
    )


MODEL_RUNS = {f"{r['client']}@{r['version']}": r for r in LEDGER.get("model_runs", [])}


@pytest.mark.parametrize("run_id", sorted(MODEL_RUNS))
def test_every_recorded_model_view_is_predicted(run_id: str) -> None:
    """A model client's view of each tool shape (`run --model`): offered, call and the object
    sent, as the profile's `model_view` data predicts them."""
    run = MODEL_RUNS[run_id]
    obs = run["observations"]
    assert set(obs) <= set(BY_ID), "ledger shapes the lattice no longer makes"
    got = _model_predicted(run_id)
    wrong = [
        f"{sid}: {', '.join(d)}: observed {obs[sid]}, predicted {got[sid]}"
        for sid in obs
        if (d := differences(obs[sid], got[sid]))
    ]
    assert not wrong, f"{len(wrong)} mismatches for {run_id} --model:\n" + "\n".join(wrong)


#: Shapes whose model view the profile learned from the lattice run, driven live again.
MODEL_LIVE = (
    "base",
    "tool.name/length-127",
    "tool.name/qualified-catalog-0-112",
    "tool.name/duplicate",
    "tool.description/length-8191",
    "tools.pages/two-cursor-empty",
    "tools.page.nextCursor/empty@modern",
    "tools.pages/two-cursor-empty@modern",
    "tool.inputSchema/root-anyOf",
)


@pytest.mark.parametrize("run_id", sorted(MODEL_RUNS))
def test_a_live_model_sample_still_gives_the_recorded_views(run_id: str) -> None:
    """A few of the recorded model views, driven again: offered and call as recorded, and the
    object sent as predicted (the server names differ from the run's, so the hashes do)."""
    from catalogaudit.verify import driver
    from catalogaudit.verify.observatory_model import FIELDS, MODES, observe_models

    if not (MODULES / ".bin" / LIVE[run_id]).is_file():
        not_installed(f"{run_id} (npm ci --prefix tests)")
        pytest.skip("npm packages not installed: run `npm ci --prefix tests`")
    run = MODEL_RUNS[run_id]
    drv = driver(run["client"], str(MODULES))
    assert f"{run['client']}@{drv.version()}" == run_id
    ids = [i for i in MODEL_LIVE if i in run["observations"]]
    got = observe_models(drv, [BY_ID[i] for i in ids], batch=len(ids))
    predicted = predict_models(run_id, [BY_ID[i] for i in ids], {i: got[i]["server"] for i in ids})
    drift = {
        sid: (run["observations"][sid], got[sid])
        for sid in ids
        if any(
            got[sid][m][f] != run["observations"][sid][m][f]
            for m in MODES
            if m in got[sid]
            for f in FIELDS[:2]
        )
        or differences(got[sid], predicted[sid])
    }
    assert not drift, f"recorded -> now: {drift}"
