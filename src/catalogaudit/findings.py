"""Findings as data: severity, rule id, subject, pointer and message; no formatting here."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

#: Exit codes shared by every verb (documented in the README).
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


class Severity(str, enum.Enum):
    """How bad a finding is; ordered error > warning > info."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    """One observation about a catalog, with where it is and why it matters."""

    rule_id: str
    severity: Severity
    message: str
    #: `listing` (tools, prompts, ...) or `capture` for the session as a whole.
    kind: str = "capture"
    #: Identity of the item (name, uri, uriTemplate) when the finding is about one item.
    identity: str | None = None
    #: JSON Pointer inside the item, or inside the page result for page-level findings.
    pointer: str = ""
    #: Page index (0-based) where the finding was seen at capture, when it is about a page.
    page: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Plain form for the snapshot file (deterministic: no timings, no paths)."""
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
