"""SARIF 2.1.0 for code-scanning uploads: rules with help, stable fingerprints, file locations.

Shape per the OASIS SARIF 2.1.0 standard (Errata 01): one run; `tool.driver.rules` carries
every rule's metadata; each result names its rule by id and index, points into the snapshot
file (`physicalLocation`) and at the catalog item (`logicalLocations`), and carries the
finding's fingerprint as `partialFingerprints["catalogaudit/v1"]` so that code-scanning
alerts survive reordering and unrelated edits (SARIF 3.27.17).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from catalogaudit._version import __version__
from catalogaudit.formatters.base import subject_path, visible
from catalogaudit.formatters.json import dumps
from catalogaudit.formatters.paths import Repository, repository_path
from catalogaudit.model import Finding, Report, RuleMeta, Severity

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://pypi.org/project/catalogaudit/"
#: Key of `partialFingerprints`; bump the suffix if `Finding.fingerprint` ever changes meaning.
FINGERPRINT_KEY = "catalogaudit/v1"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}

_WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:[\\/]")
_ABSOLUTE_URL = re.compile(r"^https?://\S+$")


def artifact_uri(path: str) -> str:
    """A file path as a SARIF `uri` (RFC 3986 URI reference, SARIF 3.4.3).

    Relative paths stay relative (code scanning resolves them against the repository root);
    absolute paths become `file:` URIs. Pure: the path is never resolved against the disk.
    """
    if _WINDOWS_ABSOLUTE.match(path):
        return PureWindowsPath(path).as_uri()
    if path.startswith("/"):
        return PurePosixPath(path).as_uri()
    return quote(path, safe="/-._~!$&'()*+,;=@")


class _Bases:
    """`uriBaseId`s for the directories outside the repository, in order of first use."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}

    def artifact(self, label: str, repo: Repository | None) -> dict[str, Any]:
        if repo is None or label in ("-", "<stdin>", "<live>"):
            return {"uri": artifact_uri(label)}
        path, outside = repository_path(repo.specs.get(label, label), repo)
        if outside is None:
            return {"uri": artifact_uri(path)}
        base = self.ids.setdefault(outside, f"OUTSIDE{len(self.ids) + 1}")
        return {"uri": artifact_uri(path), "uriBaseId": base}

    def original(self) -> dict[str, Any]:
        return {
            base: {"uri": PurePosixPath(d).as_uri().rstrip("/") + "/"}
            for d, base in self.ids.items()
        }


def _help_text(meta: RuleMeta) -> str:
    parts = [meta.description or meta.summary or meta.id]
    if meta.hint:
        parts.append(f"Fix: {meta.hint}")
    if meta.versions:
        parts.append(f"Applies to {meta.origin} {meta.versions}.")
    if meta.evidence:
        parts.append(f"Evidence ({meta.phase} time): {meta.evidence}")
    if meta.source:
        parts.append(f"Source: {meta.source}")
    return "\n\n".join(parts)


def _descriptor(meta: RuleMeta) -> dict[str, Any]:
    optional = {
        "origin": meta.origin,
        "versions": meta.versions,
        "confidence": meta.confidence,
        "phase": meta.phase,
        "evidence": meta.evidence,
    }
    props: dict[str, Any] = {k: v for k, v in optional.items() if v}
    props["tags"] = sorted({"catalogaudit", meta.origin or "spec"})
    out: dict[str, Any] = {
        "id": meta.id,
        "name": meta.name or meta.id,
        "shortDescription": {"text": meta.summary or meta.id},
        "fullDescription": {"text": meta.description or meta.summary or meta.id},
        "help": {"text": _help_text(meta)},
        "defaultConfiguration": {"level": LEVEL[meta.severity]},
        "properties": props,
    }
    if _ABSOLUTE_URL.match(meta.source):
        out["helpUri"] = meta.source
    return out


def _rules(report: Report) -> dict[str, RuleMeta]:
    """`report.rules`, plus a minimal entry for any rule that produced a finding without one."""
    rules = dict(report.rules)
    for f in report.findings:
        if f.rule_id not in rules:
            rules[f.rule_id] = RuleMeta(
                id=f.rule_id,
                name=f.rule_id,
                severity=f.severity,
                summary=f.rule_id,
                hint=f.hint,
                source=f.source,
                origin=(f.profile.split("@", 1)[0] if f.profile else "spec"),
            )
    return dict(sorted(rules.items()))


def _location(f: Finding, bases: _Bases, repo: Repository | None) -> dict[str, Any]:
    subject = subject_path(f.kind, f.identity)
    logical: list[dict[str, Any]] = [
        {
            "name": f.identity if f.identity is not None else f.kind,
            "kind": f.kind,
            "fullyQualifiedName": subject,
        },
    ]
    if f.pointer:
        logical.append(
            {"name": f.pointer, "kind": "value", "fullyQualifiedName": subject + f.pointer}
        )
    out: dict[str, Any] = {"logicalLocations": logical}
    if f.location is not None and f.location.file:
        physical: dict[str, Any] = {"artifactLocation": bases.artifact(f.location.file, repo)}
        if f.location.line is not None:
            region: dict[str, Any] = {"startLine": f.location.line}
            if f.location.column is not None:
                region["startColumn"] = f.location.column
            physical["region"] = region
        out["physicalLocation"] = physical
    return out


def _result(f: Finding, index: int, bases: _Bases, repo: Repository | None) -> dict[str, Any]:
    optional: dict[str, Any] = {
        "identity": f.identity,
        "excerpt": f.excerpt or None,
        "hint": f.hint or None,
        "source": f.source or None,
        "page": f.page,
        "documentPointer": f.location.pointer if f.location is not None else None,
    }
    props = {k: v for k, v in optional.items() if v is not None}
    props.update(kind=f.kind, pointer=f.pointer, profile=f.profile)
    return {
        "ruleId": f.rule_id,
        "ruleIndex": index,
        "level": LEVEL[f.severity],
        # Viewers show the message to people: hidden characters are shown as escapes there
        # (the raw excerpt stays in `properties`).
        "message": {"text": visible(f.message)},
        "locations": [_location(f, bases, repo)],
        "partialFingerprints": {FINGERPRINT_KEY: f.fingerprint},
        "properties": props,
    }


def sarif_log(report: Report, repo: Repository | None = None) -> dict[str, Any]:
    """The SARIF log as plain data (one run; always complete, also when clean); with `repo`,
    artifact URIs are repository paths (`repository_path`)."""
    rules = _rules(report)
    index = {rule_id: i for i, rule_id in enumerate(rules)}
    notifications = [
        {
            "level": "error",
            "message": {"text": f"rule {e.rule_id} raised: {e.error}"},
            "associatedRule": {
                "id": e.rule_id,
                **({"index": index[e.rule_id]} if e.rule_id in index else {}),
            },
        }
        for e in sorted(report.rule_errors, key=lambda e: (e.rule_id, e.error))
    ]
    invocation: dict[str, Any] = {"executionSuccessful": not report.rule_errors}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    bases = _Bases()
    results = [_result(f, index[f.rule_id], bases, repo) for f in report.sorted_findings()]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "catalogaudit",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_descriptor(meta) for meta in rules.values()],
            }
        },
        "columnKind": "unicodeCodePoints",
        "invocations": [invocation],
        "results": results,
        "properties": {
            "counts": report.counts(),
            "inputs": list(report.inputs),
            "notes": list(report.notes),
            "profiles": list(report.profiles),
            "revision": report.revision or None,
            "revisionAssumed": report.revision_assumed,
            "rewritten": report.rewritten,
            "suppressed": report.suppressed,
        },
    }
    if bases.ids:
        run["originalUriBaseIds"] = bases.original()
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def format_sarif(report: Report, *, repo: Repository | None = None) -> str:
    """The SARIF 2.1.0 log as deterministic JSON (`repo`: see `sarif_log`)."""
    return dumps(sarif_log(report, repo))
