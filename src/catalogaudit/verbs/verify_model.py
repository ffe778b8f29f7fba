"""`verify --client claude-code --model`: Claude Code against `serve` (or a real server) and
the loopback Messages API stand-in; per tool the model view and the call, with the profile's
prediction; with `--runs N`, the `tools` bytes across N starts.

Exit codes: 0 every view and call as predicted (and, with --runs, the bytes stable); 1 a
mismatch or bytes that changed between starts; 2 errors.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from catalogaudit import intake
from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.model import VerifyRun, ViewRow

#: The clients whose model view `verify --model` observes.
MODEL_CLIENTS = ("claude-code", "codex", "opencode", "gemini-cli")


def observe(
    client: str,
    catalogs: Sequence[str],
    client_path: str | None,
    calls: Sequence[str],
    runs: int,
    command: Sequence[str],
) -> VerifyRun:
    """Run the sessions, predict, pair."""
    from catalogaudit.verify import driver as make_driver
    from catalogaudit.verify import observe_model, predict_views, targets

    cid, at, asked = client.partition("@")
    if cid not in MODEL_CLIENTS:
        raise UsageError(f"--model: model-view drivers exist for {', '.join(MODEL_CLIENTS)}")
    if runs < 1:
        raise UsageError("--runs must be at least 1")
    if command and catalogs:
        raise UsageError("give snapshot files or `-- COMMAND`, not both")
    if not command and not catalogs:
        raise UsageError("give snapshot files to verify, or `-- COMMAND`")
    if not command and runs > 1 and len(catalogs) != runs:
        raise UsageError(f"--runs {runs} with snapshots needs {runs} snapshot files (one a start)")
    calls = _calls(calls)
    drv = make_driver(cid, client_path, asked or None)
    read: list[Any] = []
    if not command:
        read = [intake.read_catalog(c) for c in catalogs]
        for got in read:
            if not got.is_snapshot:
                raise CatalogauditError(
                    f"{got.spec}: verify needs a snapshot (make one with `snapshot --from`)"
                )
    found = drv.version()
    if at and found != asked:
        raise UsageError(f"--client {client}: {cid} {found} is installed, not {asked}")
    profile = f"{cid}@{found}"
    with tempfile.TemporaryDirectory(prefix="catalogaudit-model-") as tmp:
        work = Path(tmp)
        if command:
            read = [_capture(command, work)]
        found_targets = targets(read, work)
        if command:
            label = " ".join(command)
            found_targets = [replace(t, label=label) for t in found_targets]
        seen = observe_model(drv, found_targets, work, calls, command, runs)
        rows = []
        predictions = {
            (s.target.label, mode): predict_views(s.target, s.name, profile, mode, s.calls)
            for mode, met in seen.served.items()
            for s in met
        }
        for view in seen.views:
            p = predictions.get((view.catalog, view.mode), {}).get(view.index)
            if p is None:
                rows.append(ViewRow(view, None, None))
            else:
                rows.append(ViewRow(view, p.offered, p.call, p.view, p.because))
    prompts = tuple(seen.prompts.items())
    return VerifyRun(cid, found, (), "stdio", tuple(rows), seen.prompt, prompts)


def _calls(calls: Sequence[str]) -> list[str]:
    out = [c.strip() for given in calls for c in given.split(",") if c.strip()]
    out = out or ["all"]
    if len(out) > 1 and ({"all", "none"} & set(out)):
        raise UsageError("--calls: all or none stand alone")
    return out


def _capture(command: Sequence[str], work: Path) -> dict[str, Any]:
    """The real server's snapshot, taken in a temporary directory (the prediction's input)."""
    from catalogaudit.verbs import live

    where = work / "server-cwd"
    where.mkdir()
    return live.capture(live.SnapshotOptions(command=tuple(command), cwd=str(where)))
