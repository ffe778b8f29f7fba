"""The profile table (`catalogaudit profiles`): one summary per data profile, with the real
`verify` runs that matched every prediction. Driver ids and the verification record are read
through `resolve`, so a test that stands in for them there is seen here too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from catalogaudit.profiles import evidence as known
from catalogaudit.profiles import resolve
from catalogaudit.profiles.load import VerifiedRun, load_all


@dataclass(frozen=True)
class ProfileSummary:
    """One line of `catalogaudit profiles`."""

    id: str
    enforcer: str
    summary: str
    versions: tuple[str, ...]
    newest: str | None
    rules: int
    confidence: Mapping[str, int]
    driver: bool  # a `verify` driver exists for this enforcer
    verified: tuple[VerifiedRun, ...]  # real runs that matched every prediction
    #: Rules the newest verified run vouches for (listing time, measured), of all its rules.
    listing_verified: int = 0

    @property
    def verified_text(self) -> str:
        """`0.169.0 (DATE), listing time: 3 of 8 rules`, `6 versions 0.6.0 .. 1.0.7 (DATE),
        ...` or `unverified`: a run vouches for listing-time rules only, so the count says how
        many of the rules it covers; the others are from sources."""
        runs = self.verified
        if not runs:
            return "unverified" if self.driver else "unverified (no driver)"
        dates = sorted({r.date for r in runs})
        when = dates[-1] if len(dates) == 1 else f"{dates[0]} .. {dates[-1]}"
        share = f", listing time: {self.listing_verified} of {self.rules} rules"
        if len(runs) == 1:
            return f"{runs[0].version} ({when}){share}"
        return f"{len(runs)} versions {runs[0].version} .. {runs[-1].version} ({when}){share}"

    def as_dict(self) -> dict[str, Any]:
        """Plain form for `--format json`."""
        return {
            "id": self.id,
            "enforcer": self.enforcer,
            "summary": self.summary,
            "versions": list(self.versions),
            "newest": self.newest,
            "rules": self.rules,
            "confidence": dict(sorted(self.confidence.items())),
            "driver": self.driver,
            "verified": [verified_dict(r) for r in self.verified],
            "listingVerifiedRules": self.listing_verified,
        }


def verified_dict(run: VerifiedRun) -> dict[str, Any]:
    """A verified run as `{enforcer, version, date, scenarios, observations}`."""
    return {
        "enforcer": run.enforcer,
        "version": str(run.version),
        "date": run.date,
        "scenarios": run.scenarios,
        "observations": run.observations,
    }


def profile_summaries() -> list[ProfileSummary]:
    """Every data profile, sorted by id."""
    out: list[ProfileSummary] = []
    for p in load_all().values():
        rules = [*p.rules, *(i.rule for i in p.includes)]
        mix: dict[str, int] = {}
        for r in rules:
            mix[r.confidence] = mix.get(r.confidence, 0) + 1
        versions = tuple(str(v.version) for v in p.versions)
        newest = str(p.newest.version) if p.newest else None
        runs = resolve.load_verified().get(p.id, ())
        at = runs[-1].version if runs else None
        record = resolve.load_verified()
        vouched = sum(known.rule_evidence(r, p.id, at, record).verified for r in rules)
        out.append(
            ProfileSummary(
                p.id,
                p.enforcer,
                p.summary,
                versions,
                newest,
                len(rules),
                mix,
                p.id in resolve.driver_ids(),
                runs,
                vouched,
            )
        )
    return out
