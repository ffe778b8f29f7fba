"""The audit engine: run spec rules and profiles over a catalog, select, suppress, report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from catalogaudit import walker
from catalogaudit.auditing import contract as contracts
from catalogaudit.auditing.contract import ruled
from catalogaudit.auditing.selection import selected
from catalogaudit.canonical import gc_paused
from catalogaudit.model import Catalog, Finding, Location, Report, RuleError, RuleMeta, Severity
from catalogaudit.rules import (
    CAPTURE_RULES,
    CONTRACT_RULES,
    SPEC_RULES,
    Context,
    Hit,
    Rule,
    spec_meta,
)


@dataclass(frozen=True)
class AuditOptions:
    """What to check and what to leave out."""

    profiles: tuple[str, ...] = ()
    settings: Mapping[str, str] = field(default_factory=dict)
    server_name: str | None = None
    gateway_name: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    baseline: frozenset[str] = frozenset()
    #: `--expect-tool`, `--forbid-tool`, `--min-tools`, ...: the user's assertions (CA910-912).
    contract: contracts.Contract = field(default_factory=contracts.Contract)
    #: Run only these rules of the profiles (None: all); `verify.predict` needs only the
    #: rules whose errors change what a client lists.
    only: frozenset[str] | None = None


def hit_finding(rule: RuleMeta, hit: Hit, catalog: Catalog, profile: str) -> Finding:
    """Turn a check's hit into a finding with the rule's metadata and a location."""
    if hit.item is not None:
        kind, ident = hit.item.listing, hit.item.identity
        location = catalog.location(hit.item, hit.pointer)
    else:
        kind, ident = hit.listing or "catalog", None
        base = f"/listings/{hit.listing}/pages/{hit.page}/fields" if hit.page is not None else ""
        location = Location(catalog.source, base + hit.pointer)
    return ruled(
        rule,
        location,
        message=hit.message,
        kind=kind,
        identity=ident,
        pointer=hit.pointer,
        page=hit.page,
        excerpt=hit.excerpt,
        offending=hit.offending,
        profile=profile,
        items=hit.items,
    )


def run_rules(
    catalog: Catalog, rules: Sequence[Rule], ctx: Context
) -> tuple[list[Finding], list[RuleError]]:
    """Run code rules in order; a rule that raises is reported and the others still run."""
    found: list[Finding] = []
    errors: list[RuleError] = []
    metas = spec_meta()
    for rule in rules:
        try:
            hits = list(rule.check(catalog, ctx))
        except Exception as exc:  # a rule bug must not hide the other rules' findings
            errors.append(RuleError(rule.id, f"{type(exc).__name__}: {exc}"))
            continue
        found.extend(hit_finding(metas[rule.id], h, catalog, "spec") for h in hits)
    return found, errors


def capture_findings(catalog: Catalog) -> list[Finding]:
    """Findings recorded at capture (CA5xx), as audit findings pointing into the file."""
    out: list[Finding] = []
    for i, raw in enumerate(catalog.capture_findings):
        rule_id = str(raw.get("ruleId", ""))
        try:
            severity = Severity(raw.get("severity", "info"))
        except ValueError:
            severity = Severity.INFO
        extra = raw.get("extra")
        lines = extra.get("lines") if isinstance(extra, dict) else None
        out.append(
            Finding(
                rule_id=rule_id,
                severity=severity,
                message=str(raw.get("message", "")),
                kind=str(raw.get("kind", "capture")),
                identity=raw.get("identity") if isinstance(raw.get("identity"), str) else None,
                pointer=str(raw.get("pointer", "")),
                page=raw.get("page") if isinstance(raw.get("page"), int) else None,
                excerpt=str(lines[0]) if isinstance(lines, list) and lines else "",
                hint=CAPTURE_RULES[rule_id][2] if rule_id in CAPTURE_RULES else "",
                profile="spec",
                location=catalog.location(None, f"/findings/{i}"),
            )
        )
    return out


def audit(catalog: Catalog, options: AuditOptions) -> Report:
    """Audit one catalog with the selected profiles (default: spec)."""
    try:
        # NOTE: the rules make no cycles worth collecting, and each full collection walked
        # every object of the catalog.
        with gc_paused():
            return _audit(catalog, options)
    finally:
        walker.forget()  # the rules' kept walks hold this catalog's items


def _audit(catalog: Catalog, options: AuditOptions) -> Report:
    report = Report(inputs=[catalog.source], revision=catalog.revision)
    report.revision_assumed = catalog.revision_assumed
    report.notes.extend(catalog.notes)
    if report.revision_assumed:
        report.notes.append(
            f"the input does not say its protocol revision; audited as {catalog.revision} "
            "(use --revision to say it)"
        )
    # NOTE: a profile's run puts its own label, version and settings in the context.
    ctx = Context(server_name=options.server_name, gateway_name=options.gateway_name)
    found: list[Finding] = []
    for spec in options.profiles or ("spec",):
        if spec == "spec":
            got, errors = run_rules(catalog, SPEC_RULES, ctx)
            got += capture_findings(catalog)
            label, metas = "spec", spec_meta()
        else:
            from catalogaudit.profiles import resolve_profile, rule_meta, run_profile

            resolved = resolve_profile(spec, options.settings)
            if options.only is not None:  # NOTE: whole rules: a check that raises skips the
                # same clauses of its rule as in a full run
                resolved = replace(resolved, profile=resolved.profile.only(options.only))
            report.notes.extend(resolved.notes)  # and, next, what its checks could not tell
            got, errors = run_profile(catalog, resolved, ctx, report.notes)
            label, metas = resolved.label, {m.id: m for m in rule_meta(resolved.id)}
        found.extend(got)
        report.rule_errors.extend(errors)
        report.profiles.append(label)
        report.rules.update(metas)
    if options.contract:
        found.extend(contracts.check(catalog, options.contract))
        report.rules.update({k: v for k, v in CONTRACT_RULES.items() if k != "CA920"})
    # NOTE: a baseline entry is in use when its finding is still found, selected or not
    # (`--strict-baseline` must not call an entry stale because `--select` hid its finding).
    if options.baseline:  # NOTE: a fingerprint is a hash per finding, asked only of one
        report.baseline_matched = {f.fingerprint for f in found} & options.baseline
    kept = [f for f in found if selected(f, report.rules, options.select, options.ignore)]
    report.findings = (
        [f for f in kept if f.fingerprint not in options.baseline] if options.baseline else kept
    )
    report.suppressed = len(kept) - len(report.findings)
    return report
