"""Drive real clients over the lattice and keep what they did (issue 32).

    python scripts/observatory.py run --client codex [--client-path DIR] [--jobs 2]
    python scripts/observatory.py table          # write docs/compatibility.md from the ledger
    python scripts/observatory.py table --check  # exit 1 when docs/compatibility.md is stale

`run` drives one client (its verify driver, against `catalogaudit serve`) over every shape of
the lattice it can observe, and stores one verdict per shape in `fixtures/lattice/ledger.json`
under that client and version, saved after every batch (a whole rerun of the same version
replaces its entry; `--only`, `--redo` and `--missing` merge into it). The oracle
suite (`tests/oracle/test_lattice_oracle.py`) replays the ledger against the profiles.

    python scripts/observatory.py run --client claude-code --model [--client-path DIR]

`run --model` drives `verify --client C --model` (C: claude-code, codex, opencode or
gemini-cli, against its loopback model API stand-in, every tool called) over the tool shapes
the client observes, one session per batch (Claude Code: a pair of `claude` starts, tool
search off, then the default), and stores under the ledger's `model_runs` (kept apart from
`runs`, whose verdicts are listing verdicts) one entry per client and version:
`{"client", "version", "date", "driver", "observations"}`, each observation
`{"server": S, MODE: O, ...}` for the shape's subject tool (Claude Code's modes
`tool-search-off` and `default`, the others' `default`), where O is
`{"offered": inline|deferred|not-offered, "call": reached|refused|not-offered, "view": the
first 16 hex digits of the SHA-256 of the object sent, keys sorted, or null}`
(`catalogaudit.verify.observatory_model`). S is the server name the session gave the shape,
part of the sent name (`mcp__S__tool`, `mcp__S/tool`, `S_tool`, `mcp_S_tool`). The oracle
suite replays these against the profile's `model_view` prediction too, and `table` shows them
in a section of their own.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from lattice_table import DOC, render  # noqa: E402

from catalogaudit.verify.lattice import shapes  # noqa: E402
from catalogaudit.verify.observatory import applicable, observe_all  # noqa: E402

LEDGER = ROOT / "fixtures" / "lattice" / "ledger.json"


def load() -> dict[str, Any]:
    """The ledger (an empty one when there is none yet)."""
    if LEDGER.is_file():
        return dict(json.loads(LEDGER.read_text(encoding="utf-8")))
    return {
        "about": "Written by scripts/observatory.py run; one entry per client version.",
        "runs": [],
    }


def save(ledger: dict[str, Any]) -> None:
    """One line per shape, so a rerun's diff shows the verdicts that changed."""
    lines = ["{", f'  "about": {json.dumps(ledger["about"])},']
    keys = ["runs"] + (["model_runs"] if ledger.get("model_runs") else [])
    for k, key in enumerate(keys):
        lines.append(f'  "{key}": [')
        for n, run in enumerate(ledger[key]):
            head = {k: v for k, v in run.items() if k != "observations"}
            lines.append("    {" + json.dumps(head)[1:-1] + ', "observations": {')
            obs = list(run["observations"].items())
            for m, (sid, v) in enumerate(obs):
                comma = "," if m < len(obs) - 1 else ""
                lines.append(f"      {json.dumps(sid)}: {json.dumps(v, ensure_ascii=False)}{comma}")
            lines.append("    }}" + ("," if n < len(ledger[key]) - 1 else ""))
        lines.append("  ]" + ("," if k < len(keys) - 1 else ""))
    lines.append("}")
    LEDGER.parent.mkdir(parents=True, exist_ok=True)
    # Beside it, then renamed over it: an interrupted write never leaves half a ledger.
    part = LEDGER.with_name(LEDGER.name + ".part")
    part.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(part, LEDGER)


def order(run: dict[str, Any]) -> tuple[str, Version]:
    """Runs by client, then by release (1.0.7 before 1.0.11)."""
    return run["client"], Version(run["version"])


def record(client: str, version: str, got: dict[str, Any], *, replace: bool = False) -> None:
    """Merge verdicts into the client version's entry and save; `replace` drops the shapes
    the entry held that `got` lacks (a whole run's end)."""
    ledger = load()
    old = next(
        (r for r in ledger["runs"] if (r["client"], r["version"]) == (client, version)), None
    )
    observations = {} if replace or old is None else dict(old["observations"])
    for sid, v in got.items():
        observations[sid] = {
            "verdict": v.verdict,
            **({"message": v.message[:300]} if v.message else {}),
        }
    runs = [r for r in ledger["runs"] if (r["client"], r["version"]) != (client, version)]
    runs.append(
        {
            "client": client,
            "version": version,
            "date": datetime.date.today().isoformat(),
            "driver": f"catalogaudit verify driver {client}",
            "observations": observations,
        }
    )
    ledger["runs"] = sorted(runs, key=order)
    save(ledger)


def record_model(client: str, version: str, got: dict[str, Any]) -> None:
    """Merge model-view observations into the client's `model_runs` entry and save."""
    ledger = load()
    runs = ledger.get("model_runs", [])
    mine = (client, version)
    old = next((r for r in runs if (r["client"], r["version"]) == mine), None)
    observations = {**(old["observations"] if old else {}), **got}
    order_ = [s.id for s in shapes() if s.id in observations]
    entry = {
        "client": client,
        "version": version,
        "date": datetime.date.today().isoformat(),
        "driver": f"catalogaudit verify --client {client} --model",
        "observations": {sid: observations[sid] for sid in order_},
    }
    ledger["model_runs"] = sorted(
        [r for r in runs if (r["client"], r["version"]) != mine] + [entry],
        key=lambda r: (r["client"], Version(r["version"])),
    )
    save(ledger)


def run_model(client: str, client_path: str | None, jobs: int, batch: int, only: str | None) -> int:
    from catalogaudit.verify import driver
    from catalogaudit.verify.observatory_model import model_shapes, observe_models

    drv = driver(client, client_path)
    version = drv.version()
    todo = [s for s in model_shapes(client, version) if only is None or re.search(only, s.id)]
    start = time.monotonic()
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        print(
            f"{client} {version} --model: {done[0]}/{len(todo)} in "
            f"{time.monotonic() - start:.0f} s",
            file=sys.stderr,
        )

    observe_models(
        drv,
        todo,
        batch=batch,
        jobs=jobs,
        progress=progress,
        keep=lambda part: record_model(client, version, part),
    )
    return 0


def run(
    client: str,
    client_path: str | None,
    jobs: int,
    batch: int,
    only: str | None,
    redo: str | None,
    missing: bool = False,
    timeout: float | None = None,
) -> int:
    module = importlib.import_module(f"catalogaudit.verify.drivers.{client.replace('-', '_')}")
    driver = module.driver(client_path)
    if timeout is not None:
        driver.timeout = timeout
    version = driver.version()
    chosen = [s for s in shapes() if only is None or re.search(only, s.id)]
    todo = [s for s in chosen if applicable(client, s, version)]
    if redo is not None:
        # Shapes whose recorded message holds `redo` (a run slowed into a timeout, say).
        entry = next(
            (r for r in load()["runs"] if (r["client"], r["version"]) == (client, version)), None
        )
        seen = entry["observations"] if entry else {}
        todo = [s for s in todo if redo in seen.get(s.id, {}).get("message", "")]
        only = redo
    if missing:
        entry = next(
            (r for r in load()["runs"] if (r["client"], r["version"]) == (client, version)), None
        )
        todo = [s for s in todo if s.id not in (entry["observations"] if entry else {})]
        only = only or "(missing)"
    done = [0]
    start = time.monotonic()

    def progress(n: int) -> None:
        done[0] += n
        print(
            f"{client} {version}: {done[0]}/{len(todo)} in {time.monotonic() - start:.0f} s",
            file=sys.stderr,
        )

    # Each batch is saved as it ends, so an interrupted run keeps what it observed; a whole
    # run (no --only, --redo or --missing) then drops what its entry held from before.
    got = observe_all(
        driver,
        todo,
        batch=batch,
        jobs=jobs,
        progress=progress,
        keep=lambda part: record(client, version, part),
    )
    record(client, version, got, replace=only is None)
    print(
        f"{client} {version}: {len(got)} shapes in {time.monotonic() - start:.0f} s",
        file=sys.stderr,
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--client", required=True)
    r.add_argument("--client-path")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--batch", type=int, default=40)
    r.add_argument(
        "--model", action="store_true", help="the client's model view (`verify --model`)"
    )
    r.add_argument("--only", help="only shapes whose id matches this regex (merged into the entry)")
    r.add_argument("--redo", help="only shapes whose recorded message contains this")
    r.add_argument(
        "--missing", action="store_true", help="only shapes this version has no verdict for"
    )
    r.add_argument(
        "--ledger", type=Path, help="record into this file instead (observations to keep apart)"
    )
    r.add_argument(
        "--timeout",
        type=float,
        help="seconds the client waits for each answer (default the driver's): a shape whose "
        "answer the client drops costs this much",
    )
    t = sub.add_parser("table")
    t.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.cmd == "run":
        if args.ledger is not None:
            global LEDGER
            LEDGER = args.ledger.resolve()
        if args.model:
            return run_model(args.client, args.client_path, args.jobs, args.batch, args.only)
        return run(
            args.client,
            args.client_path,
            args.jobs,
            args.batch,
            args.only,
            args.redo,
            args.missing,
            args.timeout,
        )
    text = render(load())
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
        if current != text:
            print(
                "docs/compatibility.md is stale: python scripts/observatory.py table",
                file=sys.stderr,
            )
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
