"""Baselines: the fingerprints of accepted findings (`--baseline`, `--write-baseline`), which
survive reordering of the catalog."""

from __future__ import annotations

from typing import Any

from catalogaudit.errors import UsageError
from catalogaudit.model.findings import (
    Report,
)


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
    doc = {
        "fingerprints": [fp for fp, _ in entries],
        "findings": [
            {
                "fingerprint": fp,
                "ruleId": f.rule_id,
                "kind": f.kind,
                "identity": f.identity,
                "pointer": f.pointer,
            }
            for fp, f in entries
        ],
    }
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"
