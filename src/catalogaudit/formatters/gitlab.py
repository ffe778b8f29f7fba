"""GitLab code-quality reports (`--format gitlab` for `audit` and `diff`): the JSON array that
`artifacts:reports:codequality` shows in merge requests.

Shape per GitLab's "Code Quality" documentation (the CodeClimate subset GitLab reads,
https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format): each issue has
`description`, `check_name`, `fingerprint` (unique per issue: GitLab compares reports by it),
`severity` (`info`, `minor`, `major`, `critical`, `blocker`), `location.path` (relative to the
repository root) and `location.lines.begin`. An empty run is `[]`, still a full document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from catalogaudit.formatters.base import subject_path, visible
from catalogaudit.formatters.paths import Repository, report_path
from catalogaudit.model import Finding, Report, Severity

if TYPE_CHECKING:
    from catalogaudit.diffing import Change, DiffResult

SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}
#: Diff levels (3 breaking, 2 model-visible, 1 cosmetic) to GitLab severities; an undecidable
#: change counted as breaking (`--unknown fail`) is `major`, a proven break `critical`.
DIFF_SEVERITY = {3: "critical", 2: "minor", 1: "info"}


def _dumps(issues: list[dict[str, Any]]) -> str:
    """The document; a repeated fingerprint (two findings of one cause) gets a counted suffix
    hashed in, since GitLab treats issues with one fingerprint as one issue."""
    seen: dict[str, int] = {}
    for issue in issues:
        fp = issue["fingerprint"]
        seen[fp] = seen.get(fp, 0) + 1
        if seen[fp] > 1:
            issue["fingerprint"] = _digest(f"{fp}:{seen[fp]}")
    return json.dumps(issues, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _path(file: str, repo: Repository | None = None) -> str:
    """A repository-relative path (`paths.report_path` with `repo`); without one, `git:REF:PATH`
    names PATH and `./` is dropped."""
    if repo is not None:
        return visible(report_path(file, repo), keep="") or "catalog"
    if file.startswith("git:"):
        file = file.split(":", 2)[-1]
    return visible(file.removeprefix("./"), keep="") or "catalog"


def _issue(finding: Finding, repo: Repository | None) -> dict[str, Any]:
    where = subject_path(finding.kind, finding.identity) + finding.pointer
    loc = finding.location
    text = f"{finding.rule_id}: {finding.message} [{where}]"
    return {
        "type": "issue",
        "check_name": finding.rule_id,
        "description": visible(text),
        "categories": ["Compatibility"],
        "fingerprint": finding.fingerprint,
        "severity": SEVERITY[finding.severity],
        "location": {
            "path": _path(loc.file if loc is not None and loc.file else finding.kind, repo),
            "lines": {"begin": loc.line if loc is not None and loc.line else 1},
        },
    }


def format_gitlab(report: Report, *, repo: Repository | None = None) -> str:
    """One issue per finding (report order); rule errors become `blocker` issues; paths are
    repository paths with `repo`."""
    issues = [_issue(f, repo) for f in report.sorted_findings()]
    path = _path(report.inputs[0], repo) if report.inputs else "catalog"
    for rule_id, error in sorted((e.rule_id, e.error) for e in report.rule_errors):
        issues.append(
            {
                "type": "issue",
                "check_name": f"{rule_id}-rule-error",
                "description": visible(f"rule {rule_id} raised: {error}"),
                "categories": ["Bug Risk"],
                "fingerprint": _digest(f"rule-error:{rule_id}:{error}"),
                "severity": "blocker",
                "location": {"path": path, "lines": {"begin": 1}},
            }
        )
    return _dumps(issues)


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def format_gitlab_diff(
    result: DiffResult,
    unknown: str,
    line_of: Callable[[Change], int | None] | None = None,
    file: str | None = None,
) -> str:
    """One issue per change, located in `file` (the repository path `verbs.diff` chose, as for
    SARIF; else the new catalog's label) at `line_of`'s line (GitLab requires one: line 1 when
    the file's lines are not known)."""
    issues = []
    for c in result.changes:
        level = c.level(unknown)
        severity = "major" if c.cls == "unknown" and level == 3 else DIFF_SEVERITY[level]
        severity = "info" if c.accepted is not None else severity
        issues.append(
            {
                "type": "issue",
                "check_name": c.rule_id,
                "description": visible(f"{c.rule_id} ({c.cls}): {c.subject}: {c.message}"),
                "categories": ["Compatibility"],
                "fingerprint": c.fingerprint,
                "severity": severity,
                "location": {
                    "path": visible(file, keep="") if file else _path(result.new),
                    "lines": {"begin": (line_of(c) if line_of else None) or 1},
                },
            }
        )
    return _dumps(issues)
