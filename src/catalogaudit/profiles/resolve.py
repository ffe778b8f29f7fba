"""Client, gateway, SDK and LLM-API profiles: resolve `ID[@VERSION]`, run the data rules.

A profile names an enforcer and, optionally, its published package version (PEP 440, so
`context-forge@1.0.0b2` and `context-forge@1.0.0-beta.2` are one version). Without a version
the newest verified version is used and named; a version newer than any verified one is
audited with the newest verified version's rules and an info finding says so. The built-in
`spec` profile is code (the audit engine's), not data, and is not resolved here.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from packaging.version import InvalidVersion, Version

from catalogaudit.errors import UsageError
from catalogaudit.model import (
    DRIVER_IDS,
    Catalog,
    Finding,
    RuleError,
    RuleEvidence,
    RuleMeta,
    Severity,
)
from catalogaudit.profiles import evidence as how
from catalogaudit.profiles.load import (
    Clause,
    Profile,
    Rule,
    VerifiedRun,
    contains,
    load_all,
    load_verified,
)
from catalogaudit.rules import Context, Hit

#: Profile ids that exist but are not data (the engine's own rules).
BUILTIN: tuple[str, ...] = ("spec",)
#: The info finding that says a version newer than any verified one was asked for.
NEWER_RULE = "PROFILE-VER-001"
NEWER_SOURCE = "https://peps.python.org/pep-0440/"


@dataclass(frozen=True)
class ResolvedProfile:
    """A profile at a version, with the user's settings parsed."""

    id: str
    label: str  # `context-forge@1.0.0b2`, or the bare id when unversioned
    profile: Profile
    version: Version | None  # as asked for (or the newest verified), normalized
    effective: Version | None  # the version whose rules apply
    settings: Mapping[str, Any] = field(default_factory=dict)  # the user's, typed
    notes: tuple[str, ...] = ()
    newer_than_verified: bool = False

    @property
    def values(self) -> dict[str, Any]:
        """Every setting's effective value (defaults plus the user's)."""
        out = {name: s.default for name, s in self.profile.settings.items()}
        out.update(self.settings)
        return out

    @property
    def basis(self) -> str:
        """How the rules at this version are known (measured, code read, reported, docs)."""
        p = self.profile
        prefix = f"unverified at {self.version}; rules " if self.newer_than_verified else ""
        for known in p.versions:
            if self.effective is not None and known.version == self.effective:
                word = {"code": "code read", "issue": "reported"}.get(known.basis, known.basis)
                suffix = "" if known.basis in ("measured", "code") else ", unverified here"
                return f"{prefix}{word} on {known.version} ({known.date}{suffix})"
        if p.versions:
            return "unverified (no verified version matches)"
        dates = sorted(r.last_verified for r in p.rules)
        return f"unversioned; sources last checked {dates[-1]}" if dates else "unversioned"

    @property
    def verified(self) -> str:
        """What real `verify` runs say about this version, rule by rule (a run vouches for the
        listing-time rules a driver measured only), then how the rules are known."""
        status = run_status(self.id, self.version)
        if status.startswith("verified"):
            run = how.run_at(self.id, self.version, load_verified())
            return how.label(rule_evidence(self), run)
        return f"{status}; rules {self.basis}"


def rule_evidence(
    resolved: ResolvedProfile, runs: Mapping[str, Sequence[VerifiedRun]] | None = None
) -> tuple[RuleEvidence, ...]:
    """How each rule that applies at the resolved version is known, once per rule (`runs`:
    another verification record than the committed one, for the refresh script)."""
    seen: dict[str, RuleEvidence] = {}
    for rule, _, _ in applicable(resolved):
        if rule.id not in seen:
            record = load_verified() if runs is None else runs
            seen[rule.id] = how.rule_evidence(rule, resolved.id, resolved.version, record)
    return tuple(seen.values())


def driver_ids() -> frozenset[str]:
    """Profile ids that have a `catalogaudit verify` driver (the others cannot be verified)."""
    return frozenset(DRIVER_IDS)


def run_status(pid: str, version: Version | None) -> str:
    """`verified against ENFORCER VERSION on DATE`, or why the version is unverified."""
    if pid not in driver_ids():
        return "unverified (no verify driver)"
    runs = load_verified().get(pid, ())
    for run in reversed(runs):
        if version is not None and run.version == version:
            return f"verified against {run.enforcer} {run.version} on {run.date}"
    if runs:
        seen = ", ".join(str(r.version) for r in runs)
        return f"unverified at {version} (verify runs passed on {seen})"
    return "unverified (no verify run recorded)"


def valid_ids() -> list[str]:
    """Every profile id a user may name, built-ins first."""
    return [*BUILTIN, *load_all()]


def resolve(spec: str, settings: Mapping[str, str]) -> ResolvedProfile:
    """Parse `ID[@VERSION]` and the `KEY=VALUE` enforcer settings.

    Settings are shared by every `--profile` of a run, so a key that another profile declares
    is ignored here; a key no profile declares is a usage error (a typo).
    """
    pid, at, raw = spec.strip().partition("@")
    profiles = load_all()
    if pid in BUILTIN:
        raise UsageError(f"profile {pid!r} is built in (code rules); it has no data to resolve")
    if pid not in profiles:
        close = difflib.get_close_matches(pid, valid_ids(), n=1, cutoff=0.0)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise UsageError(f"unknown profile {pid!r}{hint} (`catalogaudit profiles` lists them)")
    profile = profiles[pid]
    notes: list[str] = []
    newest = profile.newest
    if at:
        if not profile.versions:
            raise UsageError(f"profile {pid!r} is not versioned; use --profile {pid}")
        try:
            version: Version | None = Version(raw)
        except InvalidVersion:
            raise UsageError(
                f"--profile {spec}: {raw!r} is not a PEP 440 version (e.g. 1.0.0b2 or 1.0.0-beta.2)"
            ) from None
    else:
        version = newest.version if newest is not None else None
        if newest is not None:
            notes.append(
                f"{pid}: no version given; using {newest.version}, the newest version its "
                f"rules cover ({newest.basis}, {newest.date})"
            )
    effective, newer = version, False
    if version is not None and newest is not None and version > newest.version:
        effective, newer = newest.version, True
        notes.append(
            f"{pid}@{version} is newer than any verified version; the rules of "
            f"{newest.version} (the nearest lower verified version) apply"
        )
    elif version is not None and version < (oldest := profile.versions[0].version):
        notes.append(f"{pid}@{version} is older than any verified version ({oldest})")
    typed = _settings(profile, effective, settings, notes, profiles)
    label = f"{pid}@{version}" if version is not None else pid
    return ResolvedProfile(pid, label, profile, version, effective, typed, tuple(notes), newer)


def _settings(
    profile: Profile,
    version: Version | None,
    raw: Mapping[str, str],
    notes: list[str],
    profiles: Mapping[str, Profile],
) -> dict[str, Any]:
    known = sorted({k for p in profiles.values() for k in p.settings})
    out: dict[str, Any] = {}
    for key, value in raw.items():
        setting = profile.settings.get(key)
        if setting is None:
            if key not in known:
                raise UsageError(
                    f"unknown profile setting {key!r}; known settings: {', '.join(known)}"
                )
            continue
        try:
            typed = setting.parse(value)
        except ValueError as exc:
            raise UsageError(f"profile setting {key}={value!r}: {exc}") from None
        if not contains(setting.versions, version) and str(setting.versions):
            notes.append(
                f"{profile.id}: setting {key} has no effect at {version} "
                f"(it exists for {setting.versions})"
            )
            continue
        out[key] = typed
    return out


def applicable(resolved: ResolvedProfile) -> Iterator[tuple[Rule, Clause, Severity]]:
    """Every (rule, check, severity) that applies at the resolved version, own rules first,
    then included rules evaluated at their owner's version."""
    values = resolved.values
    profiles = load_all()
    own: list[tuple[Rule, Version | None, Severity | None, tuple[int, ...] | None]] = [
        (r, resolved.effective, None, None) for r in resolved.profile.rules
    ]
    for inc in resolved.profile.includes:
        owner = profiles[inc.rule.owner]
        if inc.version == "same":
            at = resolved.effective
        elif inc.version == "newest":
            at = owner.newest.version if owner.newest is not None else None
        else:
            at = Version(inc.version)
        own.append((inc.rule, at, inc.severity, inc.checks))
    for rule, version, severity, picked in own:
        if not contains(rule.range, version):
            continue
        for index, clause in enumerate(rule.checks):
            if picked is not None and index not in picked:
                continue
            if not contains(clause.versions, version):
                continue
            if any(values.get(k) == v for k, v in clause.skip_if.items()):
                continue
            yield rule, clause, severity or clause.severity


def bound_params(clause: Clause, resolved: ResolvedProfile) -> dict[str, Any]:
    """A check's params with the user's settings bound in (`bind` in the data)."""
    params = dict(clause.params)
    for name, setting in clause.bind.items():
        if setting in resolved.settings:
            params[name] = resolved.settings[setting]
    return params


def run_profile(
    catalog: Catalog, resolved: ResolvedProfile, ctx: Context, notes: list[str] | None = None
) -> tuple[list[Finding], list[RuleError]]:
    """Run every applicable check; a check that raises is a `RuleError` and the run goes on.
    A hit that is a note (what the snapshot cannot tell) goes to `notes`, not to the findings."""
    from catalogaudit.rules import CHECKS

    version = str(resolved.effective) if resolved.effective is not None else None
    cctx = replace(ctx, profile=resolved.label, version=version, settings=resolved.values)
    found: list[Finding] = []
    errors: list[RuleError] = []
    if resolved.newer_than_verified:
        found.append(_newer_finding(catalog, resolved))
    reads = resolved.profile.listings_read(resolved.effective)
    failed: set[str] = set()
    for rule, clause, severity in applicable(resolved):
        if rule.id in failed:
            continue
        try:
            hits = list(CHECKS[clause.type](catalog, bound_params(clause, resolved), cctx))
        except Exception as exc:  # a broken check must not hide the other rules' findings
            errors.append(RuleError(rule.id, f"{clause.type}: {type(exc).__name__}: {exc}"))
            failed.add(rule.id)
            continue
        for hit in hits:
            listing = hit.item.listing if hit.item is not None else hit.listing
            if listing is not None and listing not in reads:
                continue
            if hit.note:
                if notes is not None:
                    notes.append(f"{resolved.label}: {rule.id}: {hit.message}; {clause.effect}")
                continue
            found.append(_finding(catalog, resolved, rule, clause, severity, hit))
    return found, errors


def _finding(
    catalog: Catalog,
    resolved: ResolvedProfile,
    rule: Rule,
    clause: Clause,
    severity: Severity,
    hit: Hit,
) -> Finding:
    if hit.item is not None:
        kind, location = hit.item.listing, catalog.location(hit.item, hit.pointer)
    elif hit.page is not None:
        kind = hit.listing or "catalog"
        location = catalog.location(None, f"/listings/{kind}/pages/{hit.page}/fields{hit.pointer}")
    elif hit.listing is not None:
        kind, location = hit.listing, catalog.location(None, f"/listings/{hit.listing}")
    else:
        kind, location = "catalog", catalog.location(None, hit.pointer)
    return Finding(
        rule_id=rule.id,
        severity=severity,
        message=f"{hit.message}; {clause.effect}",
        kind=kind,
        identity=hit.item.identity if hit.item is not None else None,
        pointer=hit.pointer,
        page=hit.page,
        excerpt=hit.excerpt,
        offending=hit.offending,
        hint=rule.workaround,
        source=rule.sources[0],
        profile=resolved.label,
        location=location,
        items=hit.items,
    )


def _newer_finding(catalog: Catalog, resolved: ResolvedProfile) -> Finding:
    newest = resolved.profile.newest
    return Finding(
        rule_id=NEWER_RULE,
        severity=Severity.INFO,
        message=f"{resolved.label} is newer than any version the {resolved.id} rules were "
        f"verified on; audited with the rules of {newest.version if newest else '?'}",
        kind="catalog",
        excerpt=str(resolved.version),
        hint=f"re-verify the rules against {resolved.label}, or name a verified version",
        source=NEWER_SOURCE,
        profile=resolved.label,
        location=catalog.location(None, ""),
    )


def rule_meta(origin: str | None = None) -> list[RuleMeta]:
    """Metadata of every profile rule, once per profile that runs it (origin = that profile),
    plus the version note each versioned profile can emit; with `origin`, that profile's only
    (an audit needs its own profile's, and each rule's evidence text costs a lookup)."""
    out: list[RuleMeta] = []
    for profile in load_all().values() if origin is None else (load_all()[origin],):
        out.extend(
            _meta(r, profile.id, r.versions, r.severity, _other_severities(r))
            for r in profile.rules
        )
        for inc in profile.includes:
            versions = inc.rule.versions if inc.version == "same" else ""
            sev = inc.severity or inc.rule.severity
            out.append(_meta(inc.rule, profile.id, versions, sev, f" (from {inc.rule.owner})"))
        if profile.versions:
            out.append(
                RuleMeta(
                    id=NEWER_RULE,
                    name="profile.version.newer-than-verified",
                    severity=Severity.INFO,
                    summary="The profile version asked for is newer than any verified version",
                    hint="re-verify the rules, or name a verified version",
                    source=NEWER_SOURCE,
                    origin=profile.id,
                )
            )
    return out


def _other_severities(rule: Rule) -> str:
    """` (warning for max-length >=0.7.0)` when a check clause of the rule (a version range,
    another check) declares another severity than the rule's, so the listing names every
    severity the rule emits."""
    other = [
        f"{c.severity.value} for {c.type}" + (f" {c.versions_text}" if c.versions_text else "")
        for c in rule.checks
        if c.severity is not rule.severity
    ]
    return f" ({'; '.join(other)})" if other else ""


def _meta(rule: Rule, origin: str, versions: str, severity: Severity, note: str) -> RuleMeta:
    newest = load_all()[origin].newest
    at = newest.version if newest is not None else None
    said = how.rule_evidence(rule, origin, at, load_verified())
    return RuleMeta(
        id=rule.id,
        name=rule.name,
        severity=severity,
        summary=rule.summary + note,
        description=f"{rule.symptom} Reads: {rule.reads}",
        hint=rule.workaround,
        source=rule.sources[0],
        origin=origin,
        versions=versions,
        confidence=rule.confidence,
        phase=rule.phase,
        evidence=said.text,
    )


def verified_text(spec: str) -> tuple[str, tuple[RuleEvidence, ...]]:
    """How a profile's verdict is known, for `audit --matrix`: the one-line label and how
    each applicable rule is known."""
    resolved = resolve(spec, {})
    return resolved.verified, rule_evidence(resolved)
