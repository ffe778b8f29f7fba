"""Baselines: the fingerprints of accepted findings (`--baseline`, `--write-baseline`), which
survive reordering of the catalog."""

from __future__ import annotations

from typing import Any

from catalogaudit.errors import UsageError
from catalogaudit.model import LISTINGS, Finding, Location, Report, dump_string
from catalogaudit.model import with_envelope as envelope
from catalogaudit.rules import CONTRACT_RULES


def read_baseline(text: str, name: str) -> frozenset[str]:
    """A baseline file: a JSON object with `fingerprints`, or one fingerprint per line."""
    import json

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
    import json

    entries = sorted({f.fingerprint: f for f in report.findings}.items())
    doc = envelope(
        "baseline",
        {
            "fingerprints": [fp for fp, _ in entries],
            "findings": [
                {
                    "fingerprint": fp,
                    "ruleId": f.rule_id,
                    "listing": f.kind,
                    "identity": f.identity,
                    "pointer": f.pointer,
                }
                for fp, f in entries
            ],
        },
    )
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def baseline_entries(text: str) -> dict[str, dict[str, Any]]:
    """What a JSON baseline says each fingerprint is for (`findings`), by fingerprint; empty for
    a plain list of fingerprints. Only read after `read_baseline` accepted the text."""
    import json

    stripped = text.strip()
    if not stripped.startswith("{"):
        return {}
    described = json.loads(stripped).get("findings")
    if not isinstance(described, list):
        return {}
    return {
        str(e["fingerprint"]): e
        for e in described
        if isinstance(e, dict) and isinstance(e.get("fingerprint"), str)
    }


def stale_findings(
    baseline: frozenset[str],
    matched: set[str],
    entries: dict[str, dict[str, Any]],
    rules_run: set[str],
    file: str,
) -> tuple[list[Finding], list[str]]:
    """`--strict-baseline`: a CA920 finding for each entry that matched no finding of the run,
    and notes for entries that cannot be judged (their rule did not run this time)."""
    meta = CONTRACT_RULES["CA920"]
    found: list[Finding] = []
    unjudged = 0
    for fp in sorted(baseline):
        if fp in matched:
            continue
        entry = entries.get(fp, {})
        rule = entry.get("ruleId")
        if isinstance(rule, str) and rule not in rules_run:
            unjudged += 1
            continue
        # `listing` since the envelope; baselines written before it say `kind`.
        said = entry.get("listing", entry.get("kind"))
        kind = said if said in (*LISTINGS, "catalog", "capture") else None
        ident = entry.get("identity") if isinstance(entry.get("identity"), str) else None
        what = " ".join(
            p
            for p in (
                rule if isinstance(rule, str) else "",
                kind or "",
                dump_string(ident) if ident is not None else "",
                str(entry.get("pointer") or ""),
            )
            if p
        )
        found.append(
            Finding(
                rule_id="CA920",
                severity=meta.severity,
                message=f"baseline entry {fp[:12]}{f' ({what})' if what else ''} matches no "
                "finding of this run: it is stale",
                kind=kind or "catalog",
                identity=ident,
                excerpt=fp,
                hint=meta.hint,
                source=meta.source,
                profile="contract",
                location=Location(file, ""),
            )
        )
    notes = (
        [
            f"--strict-baseline: {unjudged} baseline entr{'y' if unjudged == 1 else 'ies'} "
            "belong to rules that did not run (another --profile?) and were not judged"
        ]
        if unjudged
        else []
    )
    return found, notes
