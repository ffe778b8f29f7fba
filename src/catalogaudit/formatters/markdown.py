"""Markdown for pull-request comments: a summary table, then findings grouped by subject.

Server text is escaped by `formatters.md` (the one Markdown home: HTML, mentions, fences,
pipes, bidi), and the report fits `max_chars` (`md.fit`: errors kept before warnings and info).
"""

from __future__ import annotations

from catalogaudit.formatters.base import (
    by_subject,
    location_label,
    plural,
    sorted_rule_errors,
)
from catalogaudit.formatters.md import (
    DEFAULT_MAX_CHARS,
    FULL_REPORT,
    Section,
    code,
    escape_text,
    fit,
    link,
)
from catalogaudit.model import Finding, Report

__all__ = ["code", "escape_text", "format_markdown", "link"]


def _finding(f: Finding) -> list[str]:
    head = f"- **{f.severity.value}** {code(f.rule_id)}"
    if f.pointer:
        head += f" at {code(f.pointer)}"
    if f.page is not None:
        head += f" (page {f.page})"
    head += f": {escape_text(f.message)}"
    lines = [head]
    details: list[str] = []
    if f.excerpt:
        details.append(f"Excerpt: {code(f.excerpt)}")
    where = location_label(f)
    if where:
        details.append(f"File: {code(where)}")
    if f.profile:
        details.append(f"Profile: {code(f.profile)}")
    if details:
        lines.append("  - " + " · ".join(details))
    if f.hint:
        lines.append(f"  - Fix: {escape_text(f.hint)}")
    if f.source:
        lines.append(f"  - Source: {link(f.source)}")
    return lines


def _summary(report: Report) -> list[str]:
    counts = report.counts()
    lines = [
        "| Errors | Warnings | Info | Suppressed | Rule errors |",
        "| ---: | ---: | ---: | ---: | ---: |",
        f"| {counts['error']} | {counts['warning']} | {counts['info']} "
        f"| {report.suppressed} | {len(report.rule_errors)} |",
        "",
    ]
    facts = ["Profiles: " + (", ".join(code(p) for p in report.profiles) or "none")]
    if report.revision:
        assumed = " (assumed)" if report.revision_assumed else ""
        facts.append(f"Revision: {code(report.revision)}{assumed}")
    if report.inputs:
        facts.append("Inputs: " + ", ".join(code(i) for i in report.inputs))
    lines.append(" · ".join(facts))
    if report.rewritten:
        lines += ["", "> Audited as if rewritten: findings are about the catalog after rewriting."]
    return lines


def format_markdown(
    report: Report,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    where: str = FULL_REPORT,
    level: int = 2,
) -> str:
    """The PR-comment report; complete (with its summary table) even when clean, and at most
    `max_chars` characters (`md.fit`; `where` names the full report in the closing line). Its
    title is a heading of `level` and its sections one level below (`ci` nests it in a page)."""
    counts = report.counts()
    title = ", ".join(plural(counts[k], k) for k in ("error", "warning", "info"))
    top, sub = "#" * level, "#" * (level + 1)
    lines = [f"{top} catalogaudit: {title}", "", *_summary(report)]
    errors = sorted_rule_errors(report)
    rule_errors = Section(
        header=["", f"{sub} Rule errors", ""],
        rows=[f"- {code(rule_id)}: {escape_text(error)}" for rule_id, error in errors],
        ranks=[3] * len(errors),  # kept before any finding: the run did not finish
    )
    notes = Section(
        header=["", f"{sub} Notes", ""], rows=[f"- {escape_text(note)}" for note in report.notes]
    )
    groups = by_subject(report.findings)
    if not groups:
        notes.footer = ["", "No findings."] if report.notes else []
        if not report.notes:
            lines += ["", "No findings."]
    sections = [rule_errors, notes]
    for (kind, identity), findings in groups:
        heading = f"{sub} {escape_text(kind)}"
        if identity is not None:
            heading += f" {code(identity)}"
        sections.append(
            Section(
                header=["", heading, ""],
                rows=["\n".join(_finding(f)) for f in findings],
                ranks=[f.severity.rank for f in findings],
            )
        )
    return fit(lines, sections, max_chars=max_chars, where=where)
