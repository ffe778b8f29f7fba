"""One profile as plain data (`catalogaudit profiles ID[@VERSION]`): its versions, evidence,
settings and rules, narrowed to what applies at a version when one is given."""

from __future__ import annotations

from typing import Any

from catalogaudit.profiles import evidence as known
from catalogaudit.profiles import resolve as core
from catalogaudit.profiles import summary
from catalogaudit.profiles.load import load_all, load_verified


def describe(spec: str) -> dict[str, Any]:
    """One profile as plain data; with `@VERSION` only what applies at that version."""
    pid = spec.partition("@")[0]
    if pid not in load_all():
        core.resolve(spec, {})  # raises the one-line usage error listing valid ids
    p = load_all()[pid]
    out: dict[str, Any] = {
        "id": p.id,
        "enforcer": p.enforcer,
        "summary": p.summary,
        "package": dict(p.package) if p.package else None,
        "versions": [
            {"version": str(v.version), "basis": v.basis, "date": v.date, "note": v.note}
            for v in p.versions
        ],
        "newest": str(p.newest.version) if p.newest else None,
        "driver": p.id in core.driver_ids(),
        "verified": [summary.verified_dict(r) for r in load_verified().get(p.id, ())],
        "reads": [{"versions": str(s) or "*", "listings": list(n)} for s, n in p.reads],
        "settings": {
            k: {
                "type": s.type,
                "default": s.default,
                "versions": str(s.versions) or "*",
                "description": s.description,
            }
            for k, s in p.settings.items()
        },
    }
    picked: dict[str, list[int]] | None = None
    resolved = core.resolve(spec, {}) if "@" in spec or p.versions else None
    at = resolved.version if resolved is not None else None
    if "@" in spec and resolved is not None:
        out["resolved"] = {
            "label": resolved.label,
            "notes": list(resolved.notes),
            "verified": resolved.verified,
        }
        picked = {}
        for rule, clause, _ in core.applicable(resolved):
            picked.setdefault(rule.id, []).append(
                next(i for i, c in enumerate(rule.checks) if c is clause)
            )
    rules = [(r, None) for r in p.rules] + [(i.rule, i) for i in p.includes]
    out["rules"] = [
        {
            **_rule(r, inc, None if picked is None else picked.get(r.id, [])),
            "phase": r.phase,
            "evidence": known.rule_evidence(r, pid, at, core.load_verified()).text,
        }
        for r, inc in rules
        if picked is None or r.id in picked
    ]
    out["evidenceAt"] = str(at) if at is not None else None
    return out


def _rule(rule: Any, inc: Any, only: list[int] | None) -> dict[str, Any]:
    checks = [
        {
            "type": c.type,
            "versions": c.versions_text or "*",
            "severity": c.severity.value,
            "effect": c.effect,
            "params": dict(c.params),
        }
        for i, c in enumerate(rule.checks)
        if (only is None or i in only) and (inc is None or inc.checks is None or i in inc.checks)
    ]
    out = {
        "id": rule.id,
        "name": rule.name,
        "owner": rule.owner,
        "summary": rule.summary,
        "versions": rule.versions or "*",
        "severity": rule.severity.value,
        "confidence": rule.confidence,
        "lastVerified": rule.last_verified,
        "reads": rule.reads,
        "symptom": rule.symptom,
        "workaround": rule.workaround,
        "sources": list(rule.sources),
        "checks": checks,
    }
    if inc is not None:
        out["includedBecause"] = inc.why
        if inc.severity is not None:
            out["severity"] = inc.severity.value
    return out
