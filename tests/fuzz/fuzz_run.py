"""Run every verb that reads catalogs over mutated snapshots, in one process (fast), and
collect every `internal error`, traceback and crashed rule. Shared by the bounded test and the
long script."""

from __future__ import annotations

import contextlib
import io
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from fuzz_mutate import SEEDS, mutants

OTHER = str(SEEDS[0])
#: What a crash writes to stderr: a bug's one line or traceback, or a rule that raised (its
#: findings missing; `audit` and `audit --matrix` say so and exit 2).
CRASHED = ("internal error", "Traceback", "rule(s) crashed", " crashed under ")


def verbs(path: str, scratch: str) -> list[list[str]]:
    """Every verb that reads catalogs, over one input (`--matrix`: every profile's rules)."""
    return [
        ["audit", path],
        ["audit", path, "--format", "sarif"],
        ["audit", path, "--suggest"],
        ["audit", path, "--matrix"],
        ["hash", path],
        ["canonicalize", path, "-o", f"{scratch}/c.json"],
        ["diff", OTHER, path, "--format", "json"],
        ["stability", OTHER, path],
        ["rewrite", path, "--substitutions", "a=b", "-o", f"{scratch}/r.json"],
        ["rewrite", path, "--fix", "codex-app", "--fix", "cache-hints", "-o", f"{scratch}/f.json"],
        ["snapshot", "--from", path, "-o", f"{scratch}/s.json"],
    ]


@dataclass
class Outcome:
    runs: int = 0
    codes: dict[int, int] = field(default_factory=dict)
    crashes: list[str] = field(default_factory=list)


def run_one(args: list[str]) -> tuple[int, str]:
    from catalogaudit.cli.entry import main

    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(args)
            except SystemExit as exc:
                code = int(exc.code or 0)
    except BaseException:  # noqa: BLE001 - a crash is the finding
        return -1, traceback.format_exc()
    return code, err.getvalue()


def fuzz(seed: int, count: int) -> Outcome:
    """Mutate `count` snapshots and run every verb on each; crashes name seed and index."""
    got = Outcome()
    with tempfile.TemporaryDirectory(prefix="catalogaudit-fuzz-") as scratch:
        for index, data in mutants(seed, count):
            path = Path(scratch) / "mutant.json"
            path.write_bytes(data)
            for args in verbs(str(path), scratch):
                code, err = run_one(args)
                got.runs += 1
                got.codes[code] = got.codes.get(code, 0) + 1
                bad = code not in (0, 1, 2) or any(sign in err for sign in CRASHED)
                if bad:
                    got.crashes.append(f"seed {seed} #{index} {args[0]}: {err.strip()[-300:]}")
    return got
