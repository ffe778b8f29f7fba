"""Markdown for pull-request comments: a summary table, then findings grouped by subject.

Server text is escaped for CommonMark/GFM: in prose every ASCII punctuation character is
backslash-escaped (CommonMark 2.4 guarantees that yields the literal character), so no emphasis,
link, HTML tag or table pipe can come from the server; `@` and `#` get a zero-width space so
server text cannot mention people or reference issues (the trick Renovate uses). Identifiers go in
code spans sized to outlast any backticks they contain.
"""

from __future__ import annotations

import re
import string

from catalogaudit.formatters.base import (
    by_subject,
    location_label,
    plural,
    sorted_rule_errors,
    visible,
)
from catalogaudit.model.findings import Finding, Report

_PUNCTUATION = frozenset(string.punctuation)
_ZWSP = "&#8203;"
_URL = re.compile(r"^https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$")


_NEWLINE = re.compile(r"\r\n|\r|\n")


def _one_line(text: str) -> str:
    # A newline could end a list item or a table row; everything else invisible is escaped.
    return visible(_NEWLINE.sub(" ", text), keep="")


def escape_text(text: str) -> str:
    """Untrusted text as inert Markdown prose (one line; safe in table cells too)."""
    out: list[str] = []
    for ch in _one_line(text):
        if ch in _PUNCTUATION:
            out.append("\\" + ch)
            if ch in "@#":
                out.append(_ZWSP)
        else:
            out.append(ch)
    return "".join(out)


def code(text: str, *, in_table: bool = False) -> str:
    """Untrusted text as a code span (CommonMark 6.1): literal, no mentions, no HTML."""
    body = _one_line(text)
    if not body:
        return '""'
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    if body[0] in "` " or body[-1] in "` ":
        body = f" {body} "
    if in_table:  # GFM splits cells on `|` before it parses code spans
        body = body.replace("|", "\\|")
    return f"{fence}{body}{fence}"


def link(url: str) -> str:
    """An autolink for a well-formed http(s) URL, else the URL as escaped text."""
    return f"<{url}>" if _URL.match(url) else escape_text(url)


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


def format_markdown(report: Report) -> str:
    """The PR-comment report; complete (with its summary table) even when clean."""
    counts = report.counts()
    title = ", ".join(plural(counts[k], k) for k in ("error", "warning", "info"))
    lines = [f"## catalogaudit: {title}", "", *_summary(report)]
    errors = sorted_rule_errors(report)
    if errors:
        lines += ["", "### Rule errors", ""]
        lines += [f"- {code(rule_id)}: {escape_text(error)}" for rule_id, error in errors]
    if report.notes:
        lines += ["", "### Notes", ""]
        lines += [f"- {escape_text(note)}" for note in report.notes]
    groups = by_subject(report.findings)
    if not groups:
        lines += ["", "No findings."]
    for (kind, identity), findings in groups:
        heading = f"### {escape_text(kind)}"
        if identity is not None:
            heading += f" {code(identity)}"
        lines += ["", heading, ""]
        for f in findings:
            lines += _finding(f)
    return "\n".join(lines) + "\n"
