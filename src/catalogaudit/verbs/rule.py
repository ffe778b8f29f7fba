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


#: What a diff class means and the level it counts at for `diff --fail-on` (docs/diff-rules.md).
DIFF_CLASSES = {
    "breaking": (
        "a client that worked against the old catalog can fail against the new one",
        "counts at the breaking level: fails `diff` at the default --fail-on breaking",
    ),
    "unknown": (
        "composition or a keyword that cannot be compared makes the verdict undecidable, so "
        "it is said instead of guessed",
        "counts as breaking (model-visible with --unknown ignore)",
    ),
    "model-visible": (
        "what clients forward to the model changed, so prompt caches miss and the model may "
        "behave differently",
        "counts at the model-visible level (--fail-on model-visible)",
    ),
    "additive": (
        "something new that breaks no client",
        "counts as model-visible when it lies in what the model reads, else cosmetic",
    ),
    "compatible": (
        "a contract change that breaks no client",
        "counts as model-visible when it lies in what the model reads, else cosmetic",
    ),
    "cosmetic": (
        "served bytes only, outside what clients forward to the model",
        "counts at the cosmetic level (--fail-on cosmetic)",
    ),
}
DIFF_DOCS = "https://github.com/catalogaudit/catalogaudit/blob/main/docs/diff-rules.md"


def _diff_rule(key: str) -> dict[str, Any] | None:
    """A `diff` rule (CA8xx) explained from its row in `diffing.RULES`, or None."""
    from catalogaudit.diffing import RULES

    rule_id = next((i for i, row in RULES.items() if key in (i, row[1].upper())), None)
    if rule_id is None:
        return None
    cls, name, summary = RULES[rule_id]
    meaning, level = DIFF_CLASSES[cls]
    return {
        "id": rule_id,
        "name": name,
        "severity": cls,
        "summary": summary,
        "profiles": ["diff"],
        "owner": "diff",
        "checks": f"{summary}: `catalogaudit diff OLD NEW` reports this change.",
        "why": f"{cls}: {meaning}; {level}.",
        "fix": "",
        "sources": [f"{DIFF_DOCS}#{rule_id.lower()}"],
        "versions": "",
        "confidence": "",
        "phase": "listing",
        "evidence": "a change between two catalogs, classified by `diff` (docs/diff-rules.md)",
        "failing": None,
        "passing": None,
        "noExample": "a diff rule compares two catalogs; `catalogaudit diff OLD NEW` shows it",
    }


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
    from catalogaudit.diffing import RULES

    ids = sorted({m.id for m in metas} | set(RULES))
    close = [i for i in ids if i.startswith(key)][:1] or difflib.get_close_matches(
        key, ids, n=1, cutoff=0.0
    )
    hint = f"; did you mean {close[0]}?" if close else ""
    raise UsageError(f"unknown rule {raw!r}{hint} (`catalogaudit rules` lists them)")


def explain(raw: str) -> dict[str, Any]:
    """The rule as plain data (the `rule` document's body)."""
    from catalogaudit.rules import of, why_none

    diff_rule = _diff_rule(raw.strip().upper())
    if diff_rule is not None:
        return diff_rule
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

    color = terminal.color("auto", "-")
    text = format_rule(explain(rule_id), fmt, color=color, width=terminal.width("-"))
    output.emit("-", text, styled=color)
    return EXIT_OK


__all__ = ["explain", "find", "run"]
