"""`catalogaudit rewrite`: write a derived catalog (substitutions, profile fixes) and re-audit it.

Operators who cannot change a server still need its catalog to pass their gateway: this shows,
before deploying a substitution list, every string it changes and which findings it clears.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer

List = list[str] | None


def register(app: typer.Typer) -> None:
    """Add the verb to the app."""
    app.command(name="rewrite")(rewrite_command)


def rewrite_command(
    snapshot: Annotated[str, typer.Argument(help="Snapshot (or any catalog input) to rewrite.")],
    substitutions: Annotated[
        str | None,
        typer.Option(
            help="Ordered old=new pairs, comma-separated (\\, \\= \\\\ escape). "
            "Default: $CATALOGAUDIT_SUBSTITUTIONS."
        ),
    ] = None,
    fix: Annotated[
        List, typer.Option("--fix", help="codex-app or cache-hints; repeatable.")
    ] = None,
    output: Annotated[
        str, typer.Option("-o", "--output", help="Rewritten snapshot ('-' stdout).")
    ] = "-",
    report: Annotated[
        str | None,
        typer.Option(help="Report file (default: stdout, or stderr when -o is stdout)."),
    ] = None,
    output_format: Annotated[str, typer.Option("--format", help="Report: text or json.")] = "text",
    profile: Annotated[
        List, typer.Option("--profile", help="Re-audit with ID or ID@VERSION; repeatable.")
    ] = None,
    profile_setting: Annotated[
        List, typer.Option("--profile-setting", help="Enforcer setting KEY=VALUE.")
    ] = None,
    server_name: Annotated[str | None, typer.Option(help="Server name for name checks.")] = None,
    gateway_name: Annotated[str | None, typer.Option(help="Gateway name (ContextForge).")] = None,
    revision: Annotated[str | None, typer.Option(help="Protocol revision to audit as.")] = None,
    fail_on: Annotated[
        str | None, typer.Option(help="error (default), warning, info, never.")
    ] = None,
    config: Annotated[str | None, typer.Option(help="Configuration file.")] = None,
) -> None:
    """Rewrite prose with ordered substitutions and apply profile fixes, without the server.

    Writes the derived catalog (hashes recomputed, a `derived` block, no `wire` section),
    reports every change, and re-audits: which findings the rewrite cleared, which remain.
    Exit codes: 0 written and the re-audit passes --fail-on, 1 written but findings remain,
    2 errors (nothing written).
    """
    options = RewriteOptions(
        snapshot=snapshot,
        substitutions=substitutions,
        fixes=tuple(fix or ()),
        output=output,
        report=report,
        output_format=output_format,
        profiles=tuple(profile or ()),
        profile_settings=tuple(profile_setting or ()),
        server_name=server_name,
        gateway_name=gateway_name,
        revision=revision,
        fail_on=fail_on,
        config=config,
    )
    raise typer.Exit(run(options))


@dataclass(frozen=True)
class RewriteOptions:
    """Everything `catalogaudit rewrite` was asked to do (None: from configuration)."""

    snapshot: str
    substitutions: str | None = None
    fixes: tuple[str, ...] = ()
    output: str = "-"
    report: str | None = None
    output_format: str = "text"
    profiles: tuple[str, ...] = ()
    profile_settings: tuple[str, ...] = ()
    server_name: str | None = None
    gateway_name: str | None = None
    revision: str | None = None
    fail_on: str | None = None
    config: str | None = None


def run(o: RewriteOptions) -> int:
    """Rewrite, validate, write, re-audit, report; return the exit code."""
    from catalogaudit.audit.engine import AuditOptions, audit
    from catalogaudit.errors import CatalogauditError, UsageError
    from catalogaudit.rewrite import derive as rewrite
    from catalogaudit.rewrite.substitutions import resolve
    from catalogaudit.snapshot.build import render, validate
    from catalogaudit.verbs import audit as run_audit
    from catalogaudit.verbs import config as cfg
    from catalogaudit.verbs.config import parse_settings

    if o.output_format not in ("text", "json"):
        raise UsageError(f"--format must be text or json, not {o.output_format!r}")
    conf, _ = cfg.load(o.config)
    fail_on = o.fail_on or conf.get("fail-on", "error")
    if fail_on not in run_audit.FAIL_ON:
        raise UsageError(f"--fail-on must be one of {', '.join(run_audit.FAIL_ON)}")
    subs = resolve(o.substitutions, os.environ)
    fixes = rewrite.check_fixes(o.fixes)
    if subs is None and not fixes:
        raise UsageError(
            "nothing to rewrite: give --substitutions (or CATALOGAUDIT_SUBSTITUTIONS) or --fix"
        )
    settings = {str(k): str(v) for k, v in (conf.get("profile-settings") or {}).items()}
    settings.update(parse_settings(o.profile_settings))
    options = AuditOptions(
        profiles=o.profiles or tuple(cfg.configured_profiles(conf)),
        settings=settings,
        server_name=o.server_name or conf.get("server-name"),
        gateway_name=o.gateway_name or conf.get("gateway-name"),
    )
    if o.revision is not None:
        from catalogaudit.model.protocol import parse_protocol

        parse_protocol(o.revision)  # validates the name
    inputs = run_audit.catalogs(run_audit.AuditRunOptions(inputs=(o.snapshot,)), o.revision)
    if len(inputs) != 1:  # pragma: no cover - one input gives one catalog
        raise UsageError("rewrite takes one catalog")
    source = inputs[0]
    derived = rewrite.derive(source, subs, fixes)
    problems = validate(derived.doc)
    if problems:
        raise CatalogauditError(f"internal error: the rewritten snapshot is invalid: {problems[0]}")
    from catalogaudit.model.catalog import Catalog

    name = "<stdout>" if o.output == "-" else o.output
    after_view = Catalog(derived.doc, source=name, revision_override=o.revision)
    before = audit(source, options)
    after = audit(after_view, options)
    # Refusals are in the derived file's findings (a spec audit shows them); every profile
    # gets them here, once.
    after.findings = [f for f in after.findings if f.rule_id != rewrite.GROWTH_RULE.id]
    rewrite.add_refusals(after, derived.refused)
    outcome = rewrite.compare(before.findings, after.findings)
    run_audit._emit(o.output, render(derived.doc))
    doc = report_document(source.source, name, derived, before, after, outcome)
    if o.output_format == "json":
        text = json.dumps(doc, indent=2, sort_keys=True) + "\n"
    else:
        text = report_text(doc)
    if o.report:
        run_audit._emit(o.report, text)
    elif o.output == "-":
        sys.stderr.write(text)
    else:
        sys.stdout.write(text)
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


def report_text(doc: dict[str, Any]) -> str:
    """The human report: changes with before/after excerpts, then the re-audit verdict."""
    from catalogaudit.formatters.base import visible

    lines: list[str] = []
    changes = doc["changes"]
    by_cause: dict[str, int] = {}
    for c in changes:
        by_cause[c["cause"]] = by_cause.get(c["cause"], 0) + 1
    causes = ", ".join(f"{k} {v}" for k, v in sorted(by_cause.items())) or "none"
    lines.append(
        f"rewrote {visible(doc['input'], keep='')} -> {visible(doc['output'], keep='')}: "
        f"{len(changes)} change(s) ({causes}); {len(doc['refused'])} string(s) left as written "
        "by the growth bound"
    )
    for c in changes:
        where = c["kind"] + (f"/{c['identity']}" if c["identity"] is not None else "")
        lines.append(f"  {visible(where, keep='')} {visible(c['pointer'], keep='')} [{c['cause']}]")
        before, after = _excerpts(
            c.get("beforeText", c["before"]), c.get("afterText", c["after"]), "beforeText" in c
        )
        lines.append(f"    before: {before}")
        lines.append(f"    after:  {after}")
    lines.extend(f"  refused: {visible(f['message'], keep='')}" for f in doc["refused"])
    lines.append(f"re-audit with {', '.join(doc['profiles'])}:")
    for title, key in (("cleared", "cleared"), ("remaining", "remaining"), ("new", "introduced")):
        found = doc[key]
        lines.append(f"  {title}: {len(found)}")
        for f in found:
            subject = f["kind"] + (f"/{f['identity']}" if "identity" in f else "")
            subject += f" {f['pointer']}" if f.get("pointer") else ""
            lines.append(
                f"    {f['severity']} {f['ruleId']} {visible(subject, keep='')}: "
                f"{visible(f['message'], keep='')}"
            )
    lines.extend(f"note: {visible(note, keep='')}" for note in doc["notes"])
    lines.extend(
        f"rule error: {e['ruleId']}: {visible(e['error'], keep='')}" for e in doc["ruleErrors"]
    )
    b, a = doc["before"], doc["after"]
    lines.append(
        f"before: {b['error']} error(s), {b['warning']} warning(s), {b['info']} info; "
        f"after: {a['error']} error(s), {a['warning']} warning(s), {a['info']} info"
    )
    return "\n".join(lines) + "\n"


def _excerpts(before: str, after: str, raw: bool, context: int = 30) -> tuple[str, str]:
    """The changed region of two strings with a little context; `raw` values are JSON texts
    (numbers, null) shown whole."""
    from catalogaudit.formatters.base import visible
    from catalogaudit.model.jsonwire import dump_string

    if raw:
        return visible(before, keep=""), visible(after, keep="")
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    limit = min(len(before), len(after)) - start
    while end < limit and before[-1 - end] == after[-1 - end]:
        end += 1
    lo = max(0, start - context)

    def cut(text: str) -> str:
        hi = min(len(text), len(text) - end + context)
        body = dump_string(text[lo:hi])
        return visible(("..." if lo else "") + body + ("..." if hi < len(text) else ""), keep="")

    return cut(before), cut(after)
