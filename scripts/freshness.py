"""Are the pinned clients' verdicts still today's? Drive the newest release beside the pin.

    python scripts/freshness.py --client claude-code --client codex [--sample 0] [--jobs 2]

For each client: the newest release is asked of its registry (`npm view PKG version`, or
`pip index versions` for PyPI), installed into `~/.cache/catalogaudit/freshness/` (never into
tests/node_modules), and driven over the shapes the pinned version has in the lattice ledger
(`--sample N`: the first N of them per recorded verdict; 0, the default, means all). Its
verdicts are recorded in `fixtures/lattice/ledger.json` as a run of their own, whose head also
says which pinned version it was compared with and which verdicts changed (`"changed": []`
when none did), so the oracle suite replays the newest release too and `docs/compatibility.md`
shows both. A client whose newest release is the pinned one is reported and left alone.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import observatory  # noqa: E402

from catalogaudit.verify.lattice import shapes  # noqa: E402
from catalogaudit.verify.observatory import VERDICTS, Verdict, observe_all  # noqa: E402

#: Client -> (registry, package). The npm drivers take a node_modules directory; python-sdk
#: takes a Python that has `mcp`.
PACKAGES: dict[str, tuple[str, str]] = {
    "claude-code": ("npm", "@anthropic-ai/claude-code"),
    "codex": ("npm", "@openai/codex"),
    "opencode": ("npm", "opencode-ai"),
    "inspector": ("npm", "@modelcontextprotocol/inspector"),
    "ts-sdk": ("npm", "@modelcontextprotocol/sdk"),
    "ts-sdk-v2": ("npm", "@modelcontextprotocol/client"),
    "python-sdk": ("pypi", "mcp"),
}
PINS = ROOT / "tests" / "package.json"


def cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "catalogaudit" / "freshness"


def newest(registry: str, package: str) -> str:
    """The registry's newest release of the package."""
    if registry == "npm":
        argv = ["npm", "view", package, "version"]
        return _run(argv, timeout=120).strip()
    out = _run([sys.executable, "-m", "pip", "index", "versions", package], timeout=120)
    # `mcp (1.2.3)` on the first line.
    return out.split("(", 1)[1].split(")", 1)[0]


def pinned(client: str, ledger: dict[str, Any]) -> str:
    """The pinned version: tests/package.json's for npm clients, else the ledger's only run."""
    registry, package = PACKAGES[client]
    deps = json.loads(PINS.read_text(encoding="utf-8")).get("dependencies", {})
    if registry == "npm" and package in deps:
        return str(deps[package])
    versions = [r["version"] for r in ledger["runs"] if r["client"] == client]
    if len(versions) != 1:
        raise SystemExit(f"error: {client}: no single pinned run in the ledger ({versions})")
    return str(versions[0])


def install(client: str, version: str) -> str:
    """Install the release under the cache (once) and return the driver's client path."""
    registry, package = PACKAGES[client]
    where = cache() / f"{client}@{version}"
    done = where / ".installed"
    if registry == "npm":
        if not done.is_file():
            where.mkdir(parents=True, exist_ok=True)
            argv = ["npm", "install", "--prefix", str(where), "--no-save", "--no-audit"]
            _run([*argv, "--no-fund", f"{package}@{version}"], timeout=900)
            done.write_text(version, encoding="utf-8")
        return str(where / "node_modules")
    python = where / "bin" / "python"
    if not done.is_file():
        _run([sys.executable, "-m", "venv", str(where)], timeout=300)
        _run([str(python), "-m", "pip", "install", "-q", f"{package}=={version}"], timeout=900)
        done.write_text(version, encoding="utf-8")
    return str(python)


def _run(argv: list[str], timeout: float) -> str:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"error: {' '.join(argv[:4])}: {tail[0]}")
    return proc.stdout


def sample(observations: dict[str, Any], per_verdict: int) -> list[str]:
    """The shapes to drive: all recorded ones, or the first N per recorded verdict."""
    ids = [s.id for s in shapes() if s.id in observations]
    if per_verdict <= 0:
        return ids
    return [
        sid
        for verdict in VERDICTS
        for sid in [i for i in ids if observations[i]["verdict"] == verdict][:per_verdict]
    ]


def fresh(client: str, per_verdict: int, jobs: int, again: bool = False) -> str:
    """Compare the newest release with the pinned one; one line saying what was found.

    A shape whose verdict changed is driven again (twice at most, one shape per client
    process), so a client slowed into a timeout on a shared machine is not taken for a
    change; `again` re-drives only the changed shapes of the newest release's recorded run."""
    ledger = observatory.load()
    pin = pinned(client, ledger)
    latest = newest(*PACKAGES[client])
    if latest == pin:
        return f"{client}: the newest release is the pinned {pin}; nothing to compare"
    runs = {(r["client"], r["version"]): r for r in ledger["runs"]}
    base = runs.get((client, pin))
    if base is None:
        raise SystemExit(f"error: {client}@{pin} has no run in the ledger to compare with")
    module = __import__(
        f"catalogaudit.verify.drivers.{client.replace('-', '_')}", fromlist=["driver"]
    )
    driver = module.driver(install(client, latest))
    if driver.version() != latest:
        raise SystemExit(f"error: {client}: installed {driver.version()}, wanted {latest}")
    by_id = {s.id: s for s in shapes()}
    start = time.monotonic()
    old = runs.get((client, latest))
    if again and old is not None:
        got = {sid: Verdict(**v) for sid, v in old["observations"].items()}
        ids = list(got)
    else:
        ids = sample(base["observations"], per_verdict)
        # Each batch is recorded as it ends, so an interrupted run keeps what it observed.
        got = observe_all(
            driver,
            [by_id[i] for i in ids],
            jobs=jobs,
            keep=lambda part: observatory.record(client, latest, part),
        )

    def differs(sid: str) -> bool:
        return got[sid].verdict != base["observations"][sid]["verdict"]

    for _ in range(2):
        redo = [by_id[sid] for sid in ids if differs(sid)]
        if redo:
            got.update(observe_all(driver, redo, batch=1, jobs=jobs))
    changed = [
        {"shape": sid, pin: base["observations"][sid]["verdict"], latest: got[sid].verdict}
        for sid in ids
        if differs(sid)
    ]
    observatory.record(client, latest, got, replace=True)
    ledger = observatory.load()
    for run in ledger["runs"]:
        if (run["client"], run["version"]) == (client, latest):
            run["compared_with"] = pin
            run["changed"] = changed
    observatory.save(ledger)
    took = time.monotonic() - start
    what = "no verdict changed" if not changed else f"{len(changed)} verdicts changed"
    return (
        f"{client}: {latest} against the pinned {pin} over {len(ids)} shapes: {what} ({took:.0f} s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--client", action="append", choices=sorted(PACKAGES), required=True)
    parser.add_argument("--sample", type=int, default=0, help="shapes per recorded verdict")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--again", action="store_true", help="only re-drive the changed shapes of the last run"
    )
    args = parser.parse_args()
    for client in args.client:
        print(fresh(client, args.sample, args.jobs, args.again))
    return 0


if __name__ == "__main__":
    sys.exit(main())
