"""What the oracle test modules share: the opt-in gate, scenario snapshots, mismatch lines."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from helpers import FIXTURES, cli

#: The model clients `verify --model` drives -> (pinned version, executable under
#: tests/node_modules/.bin).
MODEL_CLIENTS = {
    "claude-code": ("2.1.328", "claude"),
    "codex": ("0.169.0", "codex"),
    "gemini-cli": ("0.61.0", "gemini"),
    "opencode": ("1.18.33", "opencode"),
}


@pytest.fixture(scope="module", autouse=True)
def asked_for(request: pytest.FixtureRequest) -> None:
    """Skip unless a -m expression selected these tests or CATALOGAUDIT_ORACLE=1."""
    if not request.config.getoption("markexpr") and os.environ.get("CATALOGAUDIT_ORACLE") != "1":
        pytest.skip("oracle tests run with `pytest -m oracle` (or CATALOGAUDIT_ORACLE=1)")


def scenario_snapshots(
    base: Path, names: Iterable[str], *, empty_tools: bool = False, under: str = "oracle"
) -> dict[str, Path]:
    """One snapshot per scenario of fixtures/<under>/, made by `snapshot --from`; with
    `empty_tools`, a scenario without tools.json also serves an empty tool list."""
    filler = base / "empty-tools.txt"
    filler.write_text('{"tools": []}\n', encoding="utf-8")
    out: dict[str, Path] = {}
    for name in names:
        inputs = sorted((FIXTURES / under / name).glob("*.json"))
        if empty_tools and not any(p.name == "tools.json" for p in inputs):
            inputs.append(filler)
        args = [a for f in inputs for a in ("--from", str(f))]
        path = base / f"{name}.json"
        result = cli("snapshot", *args, "-o", str(path))
        assert result.code == 0, str(result)
        out[name] = path
    return out


def mismatches(rows: Iterable[dict[str, Any]]) -> list[str]:
    """One line per observation whose verdict differs from the profile's prediction."""
    return [
        f"{r['listing']}[{r['index']}] {r['identity']!r}: predicted {r['predicted']} "
        f"({r['predictedBecause']}), observed {r['verdict']} ({r['message']})"
        for r in rows
        if not r["matches"]
    ]


def not_installed(what: str) -> None:
    """A client that is not installed: a failure under CI (`.ci/run` installs every client);
    elsewhere the caller leaves it out and its tests skip."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed: .ci/run must install it")


def verify_json(
    spec: str,
    paths: Iterable[Path | str],
    client_path: str | None = None,
    timeout: float = 600,
    extra: Iterable[str] = (),
) -> tuple[int, dict[str, Any]]:
    """One `catalogaudit verify --format json` run (one client process for every catalog),
    with `extra` options (`--transport http`); its exit code must say match (0) or mismatch
    (1), never an error."""
    args = [*(["--client-path", client_path] if client_path else []), *extra]
    result = cli(
        "verify", "--client", spec, *args, "--format", "json", *map(str, paths), timeout=timeout
    )
    assert result.code in (0, 1), str(result)
    return result.code, result.json()


def observed(doc: dict[str, Any], snapshot: Path | str) -> list[dict[str, Any]]:
    """The rows of one catalog in a verify JSON report."""
    return [o for o in doc["observations"] if o["catalog"] == str(snapshot)]


def predicted_rows(doc: dict[str, Any], snapshot: Path | str, who: str) -> list[dict[str, Any]]:
    """One catalog's rows, asserted non-empty and equal to the profile's prediction (a
    mismatch is fixed in the profile data, never here)."""
    rows = observed(doc, snapshot)
    assert rows, f"{who} observed nothing for {Path(snapshot).stem}"
    wrong = mismatches(rows)
    assert not wrong, f"profile data disagrees with {who}:\n" + "\n".join(wrong)
    return rows


def snapshot_of(tmp_path: Path, name: str, results: dict[str, Any]) -> Path:
    """A static snapshot `<name>.json` of raw list results (listing -> its result), made by
    `snapshot --from` as a user would."""
    args: list[str] = []
    for kind, result in results.items():
        raw = tmp_path / f"{name}-{kind}.txt"
        raw.write_text(json.dumps(result), encoding="utf-8")
        args += ["--from", str(raw)]
    out = tmp_path / f"{name}.json"
    assert cli("snapshot", *args, "-o", str(out)).code == 0
    return out
