"""`audit server.json`: lint MCP registry `server.json` files (`rules.serverjson`): the
registry's published schema and its own requirements, with line and column of each finding.

A file is read as a server.json when it is named `server.json` or `NAME.server.json`; a list
of them or a registry API answer (`servers: [{server: ...}]`) is linted entry by entry.
"""

from __future__ import annotations

import json

from catalogaudit import intake
from catalogaudit.auditing import AuditOptions, selected
from catalogaudit.errors import InputError
from catalogaudit.model import Finder, Finding, Location, Report, loads
from catalogaudit.rules import SERVER_JSON_RULES, lint_server_json


def audit(inputs: tuple[str, ...], options: AuditOptions) -> list[Report]:
    """One report per file, its findings located in its text."""
    return [_one(spec, options) for spec in inputs]


def _one(spec: str, options: AuditOptions) -> Report:
    data = intake.read_bytes(spec)
    try:
        text = data.decode("utf-8-sig")
        doc = json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"{spec}: not a JSON server.json ({exc})") from None
    finder, wire = Finder(text), loads(text)
    found: list[Finding] = []
    for entry, base in (
        intake.server_json_entries(doc) if isinstance(doc, (dict, list)) else [(doc, "")]
    ):
        name = entry.get("name") if isinstance(entry, dict) else None
        for problem in lint_server_json(entry):
            rule = SERVER_JSON_RULES[problem.rule_id]
            pointer = base + problem.pointer
            at = finder.position(wire, pointer) or finder.position(wire, base)
            found.append(
                Finding(
                    rule_id=rule.id,
                    severity=rule.severity,
                    message=problem.message,
                    kind="server.json",
                    identity=name if isinstance(name, str) else None,
                    pointer=problem.pointer,
                    excerpt=problem.excerpt,
                    hint=rule.hint,
                    source=rule.source,
                    profile="spec",
                    location=Location(spec, pointer, *(at or (None, None))),
                )
            )
    report = Report(inputs=[spec], rules=dict(SERVER_JSON_RULES), profiles=["spec"])
    report.baseline_matched = {f.fingerprint for f in found} & options.baseline
    kept = [f for f in found if selected(f, report.rules, options.select, options.ignore)]
    report.findings = [f for f in kept if f.fingerprint not in options.baseline]
    report.suppressed = len(kept) - len(report.findings)
    return report


__all__ = ["audit"]
