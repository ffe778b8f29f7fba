"""Findings as data: rule id, severity, subject, item pointer, location, fingerprint; no output."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

#: Exit codes shared by every verb (their home is `errors`).
from catalogaudit.errors import EXIT_ERROR as EXIT_ERROR
from catalogaudit.errors import EXIT_FINDINGS as EXIT_FINDINGS
from catalogaudit.errors import EXIT_OK as EXIT_OK


class Severity(str, enum.Enum):
    """How bad a finding is; ordered error > warning > info."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """2 for error, 1 for warning, 0 for info (for `--fail-on` thresholds and sorting)."""
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True, slots=True)
class Location:
    """Where in a file a finding points: the file, a JSON Pointer into it, and line/column."""

    file: str
    pointer: str
    line: int | None = None
    column: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """Plain form for reports."""
        out: dict[str, Any] = {"file": self.file, "pointer": self.pointer}
        if self.line is not None:
            out["line"] = self.line
        if self.column is not None:
            out["column"] = self.column
        return out


def normalize_excerpt(text: str) -> str:
    """Whitespace-collapsed excerpt, so fingerprints survive reformatting."""
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Finding:
    """One observation about a catalog, with where it is, why it matters and how to fix it."""

    rule_id: str
    severity: Severity
    message: str
    #: The subject's kind: a listing (`tools`, `prompts`, `resources`, `resourceTemplates`),
    #: `catalog` for the whole catalog, or `capture` for the session.
    kind: str = "capture"
    #: Identity of the item (name, uri, uriTemplate) when the finding is about one item.
    identity: str | None = None
    #: JSON Pointer inside the item (or inside the page result for page-level findings).
    pointer: str = ""
    #: Page index (0-based) where the finding was seen at capture, when it is about a page.
    page: int | None = None
    #: The offending text, quoted in the message and part of the fingerprint.
    excerpt: str = ""
    #: What a rewrite's before/after pairing compares when the excerpt is not the offending
    #: text itself (None: the excerpt is). Not written anywhere.
    offending: str | None = None
    hint: str = ""
    source: str = ""
    #: The profile (`context-forge@1.0.0b2`) or `spec` that produced the finding.
    profile: str = ""
    location: Location | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: The identities a finding about one cause on several items names (GEM-SCHEMA-001 per
    #: keyword), so the text format can fold it to one line. Not written anywhere.
    items: tuple[str, ...] = ()

    @property
    def subject(self) -> str:
        """`tools/add`, or the bare kind (`tools`, `catalog`) when there is no identity."""
        return self.kind if self.identity is None else f"{self.kind}/{self.identity}"

    @property
    def fingerprint(self) -> str:
        """SHA-256 of (rule id, kind, identity, item pointer, normalized excerpt).

        Independent of item order, line numbers and unrelated edits, so baselines stay valid.
        """
        parts = [
            self.rule_id,
            self.kind,
            self.identity or "",
            self.pointer,
            normalize_excerpt(self.excerpt),
        ]
        import hashlib  # NOTE: lazy (OpenSSL's load): a live snapshot imports us before its spawn

        return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()

    def sort_key(self) -> tuple[str, str, str, str, str]:
        """Stable order for reports: rule id, kind, identity, pointer, message."""
        return (self.rule_id, self.kind, self.identity or "", self.pointer, self.message)

    def as_dict(self) -> dict[str, Any]:
        """Plain form for the snapshot file and JSON reports (deterministic)."""
        out: dict[str, Any] = {
            "ruleId": self.rule_id,
            "severity": self.severity.value,
            "kind": self.kind,
            "message": self.message,
        }
        if self.identity is not None:
            out["identity"] = self.identity
        if self.pointer:
            out["pointer"] = self.pointer
        if self.page is not None:
            out["page"] = self.page
        if self.extra:
            out["extra"] = self.extra
        return out

    def report_dict(self) -> dict[str, Any]:
        """Full form for reports: everything, plus the fingerprint; the listing is `listing`,
        as in every report (`kind` is the report's own kind, `model.envelope`; the snapshot
        file keeps `kind`, `as_dict`)."""
        out = self.as_dict()
        out = {("listing" if k == "kind" else k): v for k, v in out.items()}
        out.pop("extra", None)
        out["fingerprint"] = self.fingerprint
        for key, value in (
            ("excerpt", self.excerpt),
            ("hint", self.hint),
            ("source", self.source),
            ("profile", self.profile),
        ):
            if value:
                out[key] = value
        if self.location is not None:
            out["location"] = self.location.as_dict()
        if self.extra:
            out["extra"] = self.extra
        return out


@dataclass(frozen=True)
class RuleEvidence:
    """How one profile rule is known at one profile version (profiles/evidence.py)."""

    rule_id: str
    phase: str  # listing | call
    verified: bool  # a recorded verify run observed it at listing time
    text: str  # "verified at listing time against X V on DATE" or "... from sources (URL)"

    def as_dict(self) -> dict[str, Any]:
        """Plain form for JSON reports."""
        return {
            "id": self.rule_id,
            "phase": self.phase,
            "verified": self.verified,
            "evidence": self.text,
        }


@dataclass(frozen=True)
class RuleMeta:
    """What reports say about a rule (SARIF `rules`, `catalogaudit rules`, docs/rules.md)."""

    id: str
    name: str
    severity: Severity
    summary: str
    description: str = ""
    hint: str = ""
    source: str = ""
    #: `spec` or the profile id (`context-forge`), and for profiles the enforcer's version range.
    origin: str = "spec"
    versions: str = ""
    confidence: str = ""
    #: Profile rules: when the enforcer acts on it and how that is known (`RuleEvidence.text`).
    phase: str = ""
    evidence: str = ""


@dataclass(frozen=True)
class MatrixBreak:
    """One error-level finding of a matrix row: what breaks, as data (`text` is the table's)."""

    rule_id: str
    listing: str
    identity: str | None
    pointer: str
    message: str
    #: `, verified at listing time`, `, call time, from sources`, `, from sources` or ``.
    how: str = ""

    @property
    def text(self) -> str:
        """The table's short statement, e.g. `tools x (CF-DESC-001, from sources)`."""
        return f"{self.listing} {self.identity or ''} ({self.rule_id}{self.how})".replace("  ", " ")

    def as_dict(self) -> dict[str, Any]:
        """Plain form for the matrix JSON."""
        return {
            "ruleId": self.rule_id,
            "listing": self.listing,
            "identity": self.identity,
            "pointer": self.pointer,
            "message": self.message,
            "evidence": self.how.removeprefix(", ") or None,
        }


@dataclass(frozen=True)
class MatrixRow:
    """One profile's verdict on a catalog, for `audit --matrix`."""

    profile: str  # as resolved, e.g. `context-forge@1.0.0b2`
    verified: str  # "verified at listing time against X ... for N of M rules", or why not
    errors: int
    warnings: int
    infos: int
    #: Every error-level finding, in report order (tables show the first few).
    breaks: tuple[MatrixBreak, ...] = ()
    #: How each rule that applies at this version is known, rule by rule.
    evidence: tuple[RuleEvidence, ...] = ()
    #: The rules that raised under this profile (its counts lack their findings).
    rule_errors: tuple[RuleError, ...] = ()

    @property
    def passed(self) -> bool:
        """No error-level findings."""
        return self.errors == 0


@dataclass(frozen=True)
class RuleError:
    """A rule that raised: reported, the run finishes, and the exit code is 2."""

    rule_id: str
    error: str


@dataclass
class Report:
    """The outcome of one audit: findings plus what was run and assumed."""

    findings: list[Finding] = field(default_factory=list)
    rule_errors: list[RuleError] = field(default_factory=list)
    #: Profiles run, as resolved (`context-forge@1.0.0b2`), with notes such as "newest verified".
    profiles: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    revision: str = ""
    revision_assumed: bool = False
    suppressed: int = 0
    #: Metadata of every rule that ran (or produced a finding), by rule id.
    rules: dict[str, RuleMeta] = field(default_factory=dict)
    #: With `--substitutions`: the report is of the catalog as if rewritten.
    rewritten: bool = False
    #: Baseline fingerprints that matched a finding of this run (for `--strict-baseline`).
    baseline_matched: set[str] = field(default_factory=set)

    def sorted_findings(self) -> list[Finding]:
        """Findings in report order."""
        return sorted(self.findings, key=Finding.sort_key)

    def counts(self) -> dict[str, int]:
        """Findings per severity."""
        out = {s.value: 0 for s in Severity}
        for f in self.findings:
            out[f.severity.value] += 1
        return out

    def exit_code(self, fail_on: str) -> int:
        """0 clean, 1 findings at or above `fail_on` (error|warning|info|never), 2 rule errors."""
        if self.rule_errors:
            return EXIT_ERROR
        if fail_on == "never":
            return EXIT_OK
        threshold = Severity(fail_on).rank
        failing = any(f.severity.rank >= threshold for f in self.findings)
        return EXIT_FINDINGS if failing else EXIT_OK
