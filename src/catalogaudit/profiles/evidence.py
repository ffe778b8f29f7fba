"""How each profile rule is known, rule by rule: verified at listing time, or from sources.

A verify driver runs the real client up to its list calls and compares what it kept with the
profile's prediction, so a recorded clean run (`verified/verified.json`) vouches only for the
rules the client acts on at listing time that a driver measured (`confidence: measured`, the
profile's own rules). A rule the client acts on when a tool is called or the model request is
sent (`phase: call`), or one known from issues, docs or code, is said to be from its sources,
whatever the profile's runs say: no surface may call it verified.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from packaging.version import Version

from catalogaudit.model import RuleEvidence
from catalogaudit.profiles.load import Rule, VerifiedRun, contains, load_verified

LISTING = "listing"
CALL = "call"
PHASE_WORDS = {LISTING: "listing time", CALL: "call time"}


def run_at(
    pid: str, version: Version | None, runs: Mapping[str, Sequence[VerifiedRun]] | None = None
) -> VerifiedRun | None:
    """The recorded clean verify run of profile `pid` at exactly `version`, if any."""
    record = load_verified() if runs is None else runs
    if version is None:
        return None
    return next((r for r in reversed(record.get(pid, ())) if r.version == version), None)


def rule_evidence(
    rule: Rule,
    pid: str,
    version: Version | None,
    runs: Mapping[str, Sequence[VerifiedRun]] | None = None,
) -> RuleEvidence:
    """How `rule` is known when profile `pid` runs it at `version`."""
    run = run_at(pid, version, runs)
    sources = ", ".join(rule.sources)
    when = PHASE_WORDS[rule.phase]
    measured = rule.confidence == "measured" and rule.owner == pid and rule.phase == LISTING
    if measured and run is not None and contains(rule.range, version):
        text = f"verified at listing time against {run.enforcer} {run.version} on {run.date}"
        return RuleEvidence(rule.id, rule.phase, True, text)
    if measured:
        at = f" at {version}" if version is not None else ""
        text = (
            f"measured at listing time per the profile data (no verify run recorded{at}); "
            f"sources ({sources})"
        )
        return RuleEvidence(rule.id, rule.phase, False, text)
    return RuleEvidence(rule.id, rule.phase, False, f"{when}, from sources ({sources})")


def label(evidence: Sequence[RuleEvidence], run: VerifiedRun | None) -> str:
    """One line for a profile version: how many of its rules a run verified at listing
    time, and that the others are from sources."""
    verified = sum(1 for e in evidence if e.verified)
    rest = len(evidence) - verified
    if run is None or not verified:
        return f"all {len(evidence)} rules from sources (none verified by a driver)"
    tail = f"; the other {rest} from sources" if rest else ""
    return (
        f"verified at listing time against {run.enforcer} {run.version} on {run.date} "
        f"for {verified} of {len(evidence)} rules{tail}"
    )
