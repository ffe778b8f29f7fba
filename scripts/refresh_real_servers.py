"""Compare (or rewrite) the expected findings of the real-server fixture set (issue 13).

Every capture `fixtures/real-servers/<name>.snapshot.json` has `<name>.expected.json` beside
it: for every profile `catalogaudit profiles` lists, and spec, the sorted findings as
`[ruleId, severity, kind, identity, pointer, excerpt]`, where pointer is the JSON Pointer
inside the item (or, for a finding about a whole listing or the capture, the pointer in the
snapshot file) and excerpt the offending text as the report quotes it from the served bytes.
One `catalogaudit audit` run over every capture with every profile makes them (the JSON
report names each finding's profile and file). A profile change that moves a verdict on a
real server therefore shows up in review as a change to these files.

    python scripts/refresh_real_servers.py            # --check: exit 1 and show what moved
    python scripts/refresh_real_servers.py --write    # rewrite the expected files on purpose

Run it with the project's package importable (an editable install, or PYTHONPATH=src).
tests/profiles/test_real_servers.py runs the same audit and asserts the committed files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "fixtures" / "real-servers"
SNAPSHOT = ".snapshot.json"
EXPECTED = ".expected.json"
ABOUT = (
    "Written by scripts/refresh_real_servers.py --write from an audit of the capture beside "
    "it with every profile; do not edit by hand. Findings: [ruleId, severity, kind, identity, "
    "pointer, excerpt]."
)
REGENERATE = "python scripts/refresh_real_servers.py --write"


def captures() -> list[str]:
    """The capture names, sorted: `<name>` of every `<name>.snapshot.json` in the set."""
    return sorted(p.name[: -len(SNAPSHOT)] for p in SET.glob("*" + SNAPSHOT))


def profile_ids() -> list[str]:
    """spec, then every profile id `catalogaudit profiles` lists (each at its newest version)."""
    from catalogaudit.profiles.load import load_all

    return ["spec", *sorted(load_all())]


def audit_args(names: Sequence[str], profiles: Sequence[str]) -> list[str]:
    """The one `catalogaudit audit` command line (run from the repository root)."""
    args = ["audit", "--format", "json", "--fail-on", "never"]
    for pid in profiles:
        args += ["--profile", pid]
    return args + [str((SET / (n + SNAPSHOT)).relative_to(ROOT)) for n in names]


def _row(finding: Mapping[str, Any]) -> list[Any]:
    pointer = finding.get("pointer") or finding.get("location", {}).get("pointer", "")
    return [
        finding["ruleId"],
        finding["severity"],
        finding["listing"],
        finding.get("identity"),
        pointer,
        finding.get("excerpt", ""),
    ]


def _key(row: Sequence[Any]) -> tuple[str, ...]:
    return tuple("" if v is None else str(v) for v in row)


def expected_docs(
    report: Mapping[str, Any], names: Sequence[str], profiles: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """Capture name -> its expected document, from the report of `audit_args`.

    Refuses a report with rule errors: a crashed rule must never be recorded as "no finding".
    """
    if report.get("ruleErrors"):
        raise SystemExit(f"rules crashed, nothing recorded: {report['ruleErrors']}")
    labels = {label.partition("@")[0]: label for label in report["profiles"]}
    missing = [p for p in profiles if p not in labels]
    if missing:
        raise SystemExit(f"the report does not name profiles {missing}")
    rows: dict[tuple[str, str], list[list[Any]]] = {}
    for finding in report["findings"]:
        name = Path(finding["location"]["file"]).name[: -len(SNAPSHOT)]
        pid = finding["profile"].partition("@")[0]
        rows.setdefault((name, pid), []).append(_row(finding))
    return {
        name: {
            "about": ABOUT,
            "snapshot": name + SNAPSHOT,
            "profiles": {
                pid: {
                    "label": labels[pid],
                    "findings": sorted(rows.get((name, pid), []), key=_key),
                }
                for pid in profiles
            },
        }
        for name in names
    }


def render(doc: Mapping[str, Any]) -> str:
    """The expected file's text: one finding per line, so a review diff is one line per move."""
    out = [
        "{",
        f'  "about": {json.dumps(doc["about"])},',
        f'  "snapshot": {json.dumps(doc["snapshot"])},',
        '  "profiles": {',
    ]
    items = list(doc["profiles"].items())
    for i, (pid, entry) in enumerate(items):
        found = entry["findings"]
        body = ",\n".join(f"        {json.dumps(row, ensure_ascii=False)}" for row in found)
        findings = f"[\n{body}\n      ]" if found else "[]"
        comma = "," if i < len(items) - 1 else ""
        out.append(f"    {json.dumps(pid)}: {{")
        out.append(f'      "label": {json.dumps(entry["label"])},')
        out.append(f'      "findings": {findings}')
        out.append(f"    }}{comma}")
    out += ["  }", "}"]
    return "\n".join(out) + "\n"


def changes(name: str, want: Mapping[str, Any] | None, got: Mapping[str, Any]) -> str:
    """What moved on one capture, profile by profile: `+` a new finding, `-` one gone."""
    if want is None:
        return f"{name}: no {name}{EXPECTED}; run: {REGENERATE}"
    lines: list[str] = []
    old, new = want.get("profiles", {}), got["profiles"]
    for pid in sorted(set(old) | set(new)):
        if pid not in new:
            lines.append(f"  {pid}: profile gone (no longer listed by `catalogaudit profiles`)")
            continue
        if pid not in old:
            lines.append(f"  {pid}: new profile, {len(new[pid]['findings'])} findings")
            continue
        if old[pid]["label"] != new[pid]["label"]:
            lines.append(f"  {pid}: now resolves to {new[pid]['label']} (was {old[pid]['label']})")
        before = [_key(r) for r in old[pid]["findings"]]
        after = [_key(r) for r in new[pid]["findings"]]
        lines += [f"  {pid}: - {list(r)}" for r in _minus(before, after)]
        lines += [f"  {pid}: + {list(r)}" for r in _minus(after, before)]
    if not lines and dict(want) != dict(got):
        lines.append("  the file's header differs")
    if not lines:
        return ""
    head = f"{name}: the findings on this real server moved ({len(lines)} changes)"
    tail = f"if the move is intended, run: {REGENERATE} and commit the diff"
    return "\n".join([head, *lines[:200], *(["  ..."] if len(lines) > 200 else []), tail])


def _minus(a: Iterable[tuple[str, ...]], b: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Multiset difference a - b, in a's order (a finding may repeat)."""
    left: dict[tuple[str, ...], int] = {}
    for row in b:
        left[row] = left.get(row, 0) + 1
    out = []
    for row in a:
        if left.get(row, 0):
            left[row] -= 1
        else:
            out.append(row)
    return out


def produce(names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Run the audit through the CLI and build every expected document."""
    profiles = profile_ids()
    proc = subprocess.run(
        [sys.executable, "-m", "catalogaudit", *audit_args(names, profiles)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TZ": "UTC", "LANG": "C.UTF-8"},
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"catalogaudit audit exited {proc.returncode}:\n{proc.stderr}")
    return expected_docs(json.loads(proc.stdout), names, profiles)


def _write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o644)  # mkstemp makes 0600; the expected files are ordinary repo files
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare only (the default)")
    mode.add_argument("--write", action="store_true", help="rewrite the expected files")
    args = ap.parse_args(argv)
    names = captures()
    docs = produce(names)
    stale = sorted(p for p in SET.glob("*" + EXPECTED) if p.name[: -len(EXPECTED)] not in docs)
    moved = 0
    for name, doc in docs.items():
        path = SET / (name + EXPECTED)
        text = render(doc)
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        moved += 1
        if args.write:
            _write(path, text)
            print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)
        else:
            want = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
            print(changes(name, want, doc) or f"{name}: {path.name} is not in the script's layout")
    for path in stale:
        if args.write:
            path.unlink()
            print(f"removed {path.relative_to(ROOT)} (its capture is gone)", file=sys.stderr)
        else:
            print(f"{path.name}: its capture is gone")
    if args.write:
        return 0
    if moved or stale:
        print(f"run: {REGENERATE}", file=sys.stderr)
        return 1
    print(f"{len(names)} captures, {len(profile_ids())} profiles: up to date", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
