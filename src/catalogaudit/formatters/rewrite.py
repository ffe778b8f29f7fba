"""`catalogaudit rewrite` reports: every change with before/after excerpts and the re-audit
verdict (text), or the report document (JSON). Server text is made inert (`visible`)."""

from __future__ import annotations

import json
from typing import Any

from catalogaudit.formatters.base import assert_never, visible
from catalogaudit.formatters.console import reflow
from catalogaudit.formatters.formats import RewriteFormat
from catalogaudit.model import dump_string
from catalogaudit.model import with_envelope as envelope


def format_rewrite(doc: dict[str, Any], fmt: RewriteFormat, *, width: int = 100) -> str:
    """The rewrite report document in `fmt` (text wrapped at `width`)."""
    if fmt is RewriteFormat.JSON:
        return json.dumps(envelope("rewrite", doc), indent=2, sort_keys=True) + "\n"
    if fmt is RewriteFormat.TEXT:
        return reflow(report_text(doc), width=width)
    assert_never(fmt)


def report_text(doc: dict[str, Any]) -> str:
    """The human report: changes with before/after excerpts, then the re-audit verdict."""
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
        where = c["listing"] + (f"/{c['identity']}" if c["identity"] is not None else "")
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
            subject = f["listing"] + (f"/{f['identity']}" if "identity" in f else "")
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
