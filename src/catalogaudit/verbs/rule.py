"""`catalogaudit rule ID`: one rule explained, as `ruff rule` does: what it checks, why, its
severity and the evidence behind it, its sources, and a failing and a passing example."""

from __future__ import annotations

import difflib
from typing import Any

from catalogaudit.errors import UsageError
from catalogaudit.formatters import RuleFormat
from catalogaudit.model import EXIT_OK, RuleMeta
from catalogaudit.verbs import output, terminal

#: Why a spec rule is believed: the specification it cites, not a client's behaviour.
SPEC_EVIDENCE = "from the MCP specification (the cited source); not a client's behaviour"


def _metas() -> list[RuleMeta]:
    from catalogaudit.profiles import rule_meta
    from catalogaudit.rules import spec_meta

    return [*spec_meta().values(), *rule_meta()]


def find(raw: str, metas: list[RuleMeta]) -> list[RuleMeta]:
    """The rows of one rule id or rule name (any case); a `UsageError` naming the closest."""
    key = raw.strip().upper()
    rows = [m for m in metas if m.id.upper() == key or m.name.upper() == key]
    if rows:
        return rows
    ids = sorted({m.id for m in metas})
    close = [i for i in ids if i.startswith(key)][:1] or difflib.get_close_matches(
        key, ids, n=1, cutoff=0.0
    )
    hint = f"; did you mean {close[0]}?" if close else ""
    raise UsageError(f"unknown rule {raw!r}{hint} (`catalogaudit rules` lists them)")


def explain(raw: str) -> dict[str, Any]:
    """The rule as plain data (the `rule` document's body)."""
    from catalogaudit.rules import of, why_none

    rows = find(raw, _metas())
    meta = next((m for m in rows if m.origin == "spec"), rows[0])
    out: dict[str, Any] = {
        "id": meta.id,
        "name": meta.name,
        "severity": meta.severity.value,
        "summary": meta.summary,
        "profiles": sorted({m.origin for m in rows}),
    }
    if meta.origin == "spec":
        out.update(
            owner="spec",
            checks=meta.description or meta.summary,
            why=meta.description or meta.summary,
            fix=meta.hint,
            sources=[meta.source] if meta.source else [],
            versions="",
            confidence="",
            phase="listing",
            evidence=SPEC_EVIDENCE,
        )
    else:
        out.update(_profile_rule(meta))
    found = of(meta.id)
    out["failing"] = found.get("failing")
    out["passing"] = found.get("passing")
    if out["failing"] is None and out["passing"] is None:
        out["noExample"] = why_none(meta.id)
    return out


def _profile_rule(meta: RuleMeta) -> dict[str, Any]:
    """What the owning profile's data says about the rule (`profiles ID`)."""
    from catalogaudit.profiles import describe_profile as describe

    owner = describe(meta.origin)
    rule = next((r for r in owner["rules"] if r["id"] == meta.id), None)
    if rule is None:  # PROFILE-VER-001: a note every versioned profile can emit
        return {
            "owner": "profiles",
            "checks": meta.summary,
            "why": meta.summary,
            "fix": meta.hint,
            "sources": [meta.source] if meta.source else [],
            "versions": "",
            "confidence": "",
            "phase": "listing",
            "evidence": "from sources (how PEP 440 orders versions)",
        }
    if rule["owner"] != meta.origin:
        rule = next(r for r in describe(rule["owner"])["rules"] if r["id"] == meta.id)
    return {
        "owner": rule["owner"],
        "checks": rule["reads"] or meta.summary,
        "why": rule["symptom"] or meta.summary,
        "fix": rule["workaround"],
        "sources": list(rule["sources"]),
        "versions": rule["versions"],
        "confidence": rule["confidence"],
        "phase": rule["phase"],
        "evidence": rule["evidence"],
    }


def run(rule_id: str, fmt: RuleFormat) -> int:
    """Print one rule's explanation; exit 0 (2, one line, for an unknown id)."""
    from catalogaudit.formatters import format_rule

    output.emit("-", format_rule(explain(rule_id), fmt, width=terminal.width("-")))
    return EXIT_OK


__all__ = ["explain", "find", "run"]
