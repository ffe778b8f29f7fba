"""Baselines: the fingerprints of accepted findings (`--baseline`, `--write-baseline`), which
survive reordering of the catalog."""

from __future__ import annotations

import json
from typing import Any

from catalogaudit.auditing.contract import ruled
from catalogaudit.auditing.selection import SUBJECT_KINDS
from catalogaudit.errors import UsageError
from catalogaudit.model import Finding, Location, Report, dump_string
from catalogaudit.model import with_envelope as envelope
from catalogaudit.rules import CONTRACT_RULES


def read_baseline(text: str, name: str) -> frozenset[str]:
    """A baseline file: a JSON object with `fingerprints`, or one fingerprint per line."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data: Any = json.loads(stripped)
        except ValueError:
            raise UsageError(f"{name}: not a baseline (invalid JSON)") from None
        prints = data.get("fingerprints") if isinstance(data, dict) else None
        if not isinstance(prints, list) or not all(isinstance(p, str) for p in prints):
            raise UsageError(f'{name}: a baseline needs a "fingerprints" list of strings')
        return frozenset(prints)
    return frozenset(line.strip() for line in stripped.splitlines() if line.strip())


def write_baseline(report: Report) -> str:
    """The baseline of a report: sorted fingerprints, with what each one is for people."""
    entries = sorted({f.fingerprint: f for f in report.findings}.items())
    described = [
        {
            "fingerprint": fp,
            "ruleId": f.rule_id,
            "listing": f.kind,
            "identity": f.identity,
            "pointer": f.pointer,
        }
        for fp, f in entries
    ]
    doc = envelope("baseline", {"fingerprints": [fp for fp, _ in entries], "findings": described})
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def stale_findings(
    text: str, baseline: frozenset[str], matched: set[str], rules_run: set[str], file: str
) -> tuple[list[Finding], list[str]]:
    """`--strict-baseline`: a CA920 finding for each entry of the baseline `text` (accepted by
    `read_baseline`) that matched no finding of the run, and a note for entries that cannot
    be judged (their rule did not run this time)."""
    described = json.loads(text).get("findings") if text.strip().startswith("{") else None
    entries = {
        e["fingerprint"]: e
        for e in (described if isinstance(described, list) else ())
        if isinstance(e, dict) and isinstance(e.get("fingerprint"), str)
    }
    found: list[Finding] = []
    unjudged = 0
    for fp in sorted(baseline - matched):
        entry = entries.get(fp, {})
        rule = entry.get("ruleId")
        if isinstance(rule, str) and rule not in rules_run:
            unjudged += 1
            continue
        # `listing` since the envelope; baselines written before it say `kind`.
        kind = entry.get("listing", entry.get("kind"))
        kind = kind if kind in SUBJECT_KINDS else None
        ident = entry.get("identity") if isinstance(entry.get("identity"), str) else None
        said = (
            rule if isinstance(rule, str) else "",
            kind or "",
            dump_string(ident) if ident is not None else "",
            str(entry.get("pointer") or ""),
        )
        what = " ".join(p for p in said if p)
        message = f"baseline entry {fp[:12]}{f' ({what})' if what else ''} matches no finding"
        found.append(
            ruled(
                CONTRACT_RULES["CA920"],
                Location(file, ""),
                message=f"{message} of this run: it is stale",
                kind=kind or "catalog",
                identity=ident,
                excerpt=fp,
                profile="contract",
            )
        )
    if not unjudged:
        return found, []
    return found, [
        f"--strict-baseline: {unjudged} baseline entr{'y' if unjudged == 1 else 'ies'} "
        "belong to rules that did not run (another --profile?) and were not judged"
    ]
