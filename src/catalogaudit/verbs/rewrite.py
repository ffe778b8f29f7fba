"""`catalogaudit rewrite`: write a derived catalog (substitutions, profile fixes) and re-audit it.

Operators who cannot change a server still need its catalog to pass their gateway: this shows,
before deploying a substitution list, every string it changes and which findings it clears.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from catalogaudit.auditing import AuditOptions, audit
from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.formatters import RewriteFormat, format_rewrite
from catalogaudit.model import Catalog, parse_protocol
from catalogaudit.rewriting import (
    GROWTH_RULE,
    PROFILE_FIXES,
    add_refusals,
    check_fixes,
    compare,
    derive_catalog,
    resolve,
)
from catalogaudit.snapshots import render, validate
from catalogaudit.verbs import audit as run_audit
from catalogaudit.verbs import config as cfg
from catalogaudit.verbs import output, terminal
from catalogaudit.verbs.config import parse_settings


@dataclass(frozen=True)
class RewriteOptions:
    """Everything `catalogaudit rewrite` was asked to do (None: from configuration)."""

    snapshot: str
    substitutions: str | None = None
    fixes: tuple[str, ...] = ()
    output: str = "-"
    report: str | None = None
    output_format: RewriteFormat = RewriteFormat.TEXT
    profiles: tuple[str, ...] = ()
    profile_settings: tuple[str, ...] = ()
    server_name: str | None = None
    gateway_name: str | None = None
    revision: str | None = None
    fail_on: str | None = None
    config: str | None = None


def run(o: RewriteOptions) -> int:
    """Rewrite, validate, write, re-audit, report; return the exit code."""
    conf, _ = cfg.load(o.config)
    fail_on = o.fail_on or conf.get("fail-on", "error")
    if fail_on not in run_audit.FAIL_ON:
        raise UsageError(f"--fail-on must be one of {', '.join(run_audit.FAIL_ON)}")
    subs = resolve(o.substitutions, os.environ)
    fixes = check_fixes(o.fixes)
    if subs is None and not fixes:
        raise UsageError(
            "nothing to rewrite: give --substitutions (or CATALOGAUDIT_SUBSTITUTIONS) or --fix"
        )
    settings = {str(k): str(v) for k, v in (conf.get("profile-settings") or {}).items()}
    settings.update(parse_settings(o.profile_settings))
    options = AuditOptions(
        # NOTE: a profile fix is proven against the profile it fixes for (`--fix codex-app`
        # re-audits with codex-app, not with spec alone).
        profiles=o.profiles
        or tuple(cfg.configured_profiles(conf))
        or tuple(f for f in fixes if f in PROFILE_FIXES),
        settings=settings,
        server_name=o.server_name or conf.get("server-name"),
        gateway_name=o.gateway_name or conf.get("gateway-name"),
    )
    if o.revision is not None:
        parse_protocol(o.revision)  # validates the name
    inputs = run_audit.catalogs(run_audit.AuditRunOptions(inputs=(o.snapshot,)), o.revision)
    if len(inputs) != 1:  # pragma: no cover - one input gives one catalog
        raise UsageError("rewrite takes one catalog")
    source = inputs[0]
    derived = derive_catalog(source, subs, fixes)
    problems = validate(derived.doc)
    if problems:
        raise CatalogauditError(f"internal error: the rewritten snapshot is invalid: {problems[0]}")
    name = "<stdout>" if o.output == "-" else o.output
    after_view = Catalog(derived.doc, source=name, revision_override=o.revision)
    before = audit(source, options)
    after = audit(after_view, options)
    # Refusals are in the derived file's findings (a spec audit shows them); every profile
    # gets them here, once.
    after.findings = [f for f in after.findings if f.rule_id != GROWTH_RULE.id]
    add_refusals(after, derived.refused)
    outcome = compare(before.findings, after.findings)
    output.emit(o.output, render(derived.doc), document=True)
    doc = report_document(source.source, name, derived, before, after, outcome)
    if o.report:
        width = terminal.width(o.report)
    elif o.output == "-":  # the report goes to stderr: its terminal's width
        width = terminal.stderr_width() or terminal.FIXED_WIDTH
    else:
        width = terminal.width("-")
    text = format_rewrite(doc, o.output_format, width=width)
    if o.report:
        output.emit(o.report, text)
    elif o.output == "-":
        output.say(text.splitlines())
    else:
        output.emit("-", text)
    return after.exit_code(fail_on)


def report_document(
    source: str, output: str, derived: Any, before: Any, after: Any, outcome: Any
) -> dict[str, Any]:
    """The rewrite report as plain data (the JSON format, and the basis of the text one)."""
    info = derived.doc["derived"]
    return {
        "input": source,
        "output": output,
        "substitutions": info.get("substitutions"),
        "fixes": info["fixes"],
        "changes": [c.as_dict() for c in derived.changes],
        "refused": [f.report_dict() for f in derived.refused],
        "profiles": list(after.profiles),
        "before": before.counts(),
        "after": after.counts(),
        "cleared": [f.report_dict() for f in outcome.cleared],
        "remaining": [f.report_dict() for f in outcome.remaining],
        "introduced": [f.report_dict() for f in outcome.introduced],
        "notes": [n for n in after.notes if n],
        "ruleErrors": [{"ruleId": e.rule_id, "error": e.error} for e in after.rule_errors],
    }
