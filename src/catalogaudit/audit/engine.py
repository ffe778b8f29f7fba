"""The audit engine: run spec rules and profiles over a catalog, select, suppress, report."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from catalogaudit.errors import UsageError
from catalogaudit.model import jsonwire
from catalogaudit.model.catalog import Catalog
from catalogaudit.model.findings import (
    Finding,
    Location,
    MatrixRow,
    Report,
    RuleError,
    RuleMeta,
    Severity,
)
from catalogaudit.rules.base import Context, Hit, Rule
from catalogaudit.rules.registry import CAPTURE_RULES, SPEC_RULES, spec_meta


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


def hit_finding(rule: RuleMeta, hit: Hit, catalog: Catalog, profile: str) -> Finding:
    """Turn a check's hit into a finding with the rule's metadata and a location."""
    if hit.item is not None:
        kind, ident = hit.item.listing, hit.item.identity
        location = catalog.location(hit.item, hit.pointer)
    else:
        kind, ident = hit.listing or "catalog", None
        base = f"/listings/{hit.listing}/pages/{hit.page}/fields" if hit.page is not None else ""
        location = Location(catalog.source, base + hit.pointer if base else hit.pointer)
    return Finding(
        rule_id=rule.id,
        severity=hit.severity or rule.severity,
        message=hit.message,
        kind=kind,
        identity=ident,
        pointer=hit.pointer,
        page=hit.page,
        excerpt=hit.excerpt,
        hint=rule.hint,
        source=rule.source,
        profile=profile,
        location=location,
    )


def run_rules(
    catalog: Catalog, rules: Sequence[Rule], ctx: Context
) -> tuple[list[Finding], list[RuleError]]:
    """Run code rules; a rule that raises is reported and the others still run."""
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
        extra = raw.get("extra") if isinstance(raw.get("extra"), dict) else {}
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
                hint=CAPTURE_RULES.get(rule_id, ("", ""))[1],
                profile="spec",
                location=catalog.location(None, f"/findings/{i}"),
            )
        )
    return out


def audit(catalog: Catalog, options: AuditOptions) -> Report:
    """Audit one catalog with the selected profiles (default: spec)."""
    report = Report(inputs=[catalog.source], revision=catalog.revision)
    report.revision_assumed = catalog.revision_assumed
    report.notes.extend(catalog.notes)
    if report.revision_assumed:
        report.notes.append(
            f"the input does not say its protocol revision; audited as {catalog.revision} "
            "(use --revision to say it)"
        )
    wanted = options.profiles or ("spec",)
    found: list[Finding] = []
    for spec in wanted:
        if spec == "spec":
            ctx = Context(server_name=options.server_name, gateway_name=options.gateway_name)
            got, errors = run_rules(catalog, SPEC_RULES, ctx)
            found.extend(got)
            found.extend(capture_findings(catalog))
            report.rule_errors.extend(errors)
            report.profiles.append("spec")
            report.rules.update(spec_meta())
            continue
        got, errors, label, notes, metas = _run_profile(catalog, spec, options)
        found.extend(got)
        report.rule_errors.extend(errors)
        report.profiles.append(label)
        report.notes.extend(notes)
        report.rules.update(metas)
    kept = [f for f in found if selected(f, report.rules, options.select, options.ignore)]
    report.findings = [f for f in kept if f.fingerprint not in options.baseline]
    report.suppressed = len(kept) - len(report.findings)
    return report


def _run_profile(
    catalog: Catalog, spec: str, options: AuditOptions
) -> tuple[list[Finding], list[RuleError], str, list[str], dict[str, RuleMeta]]:
    from catalogaudit.profiles import (
        resolve as profiles,  # lazy: profile data is only read when asked for
    )

    resolved = profiles.resolve(spec, options.settings)
    ctx = Context(
        profile=resolved.label,
        version=str(resolved.version) if resolved.version is not None else None,
        settings=options.settings,
        server_name=options.server_name,
        gateway_name=options.gateway_name,
    )
    got, errors = profiles.run_profile(catalog, resolved, ctx)
    metas = {m.id: m for m in profiles.rule_meta() if m.origin == resolved.id}
    return got, errors, resolved.label, list(resolved.notes), metas


def _matches(pattern: str, finding: Finding, meta: RuleMeta | None) -> int:
    """How specifically `pattern` names the finding (0: not at all; longer wins)."""
    rule = finding.rule_id
    if pattern == rule:
        return 1000
    if pattern.startswith("/"):
        # A subject pointer: /<kind>/<identity, RFC 6901 escaped><item pointer>.
        ident = jsonwire.escape_pointer(finding.identity or "")
        subject = f"/{finding.kind}/{ident}{finding.pointer}"
        if subject == pattern or subject.startswith(pattern.rstrip("/") + "/"):
            return len(pattern)
        return 0
    best = 0
    if rule.startswith(pattern):
        best = len(pattern)
    if meta is not None and (meta.name == pattern or meta.name.startswith(pattern + ".")):
        best = max(best, len(pattern))
    profile = finding.profile.split("@", 1)[0]
    if pattern in (finding.profile, profile):
        best = max(best, 1)
    return best


def selected(
    finding: Finding, metas: Mapping[str, RuleMeta], select: Iterable[str], ignore: Iterable[str]
) -> bool:
    """`--select`/`--ignore` by rule id, id prefix, rule name, profile or subject pointer
    (`/tools/add/inputSchema`); the longest match wins, and ignore wins a tie (flake8's
    decision rule)."""
    meta = metas.get(finding.rule_id)
    sel = max((_matches(p, finding, meta) for p in select), default=None)
    ign = max((_matches(p, finding, meta) for p in ignore), default=0)
    if sel is None:
        return ign == 0
    return sel > ign


def matrix(
    catalog: Catalog, profile_specs: Sequence[str], options: AuditOptions
) -> list[MatrixRow]:
    """Every named profile's verdict on one catalog."""
    from catalogaudit.profiles import resolve as profiles

    rows: list[MatrixRow] = []
    for spec in profile_specs:
        report = audit(catalog, AuditOptions(**{**options.__dict__, "profiles": (spec,)}))
        counts = report.counts()
        verified = "spec" if spec == "spec" else profiles.verified_text(spec)
        breaks = tuple(
            f"{f.kind} {f.identity or ''} ({f.rule_id})".replace("  ", " ")
            for f in report.sorted_findings()
            if f.severity is Severity.ERROR
        )[:5]
        rows.append(
            MatrixRow(
                report.profiles[0],
                verified,
                counts["error"],
                counts["warning"],
                counts["info"],
                breaks,
            )
        )
    return rows


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
