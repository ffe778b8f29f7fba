"""Render a `DiffResult` as text, JSON, Markdown (pull-request comments) or SARIF 2.1.0.

Formatters return strings: no I/O, no exit logic. JSON and SARIF always emit a full document,
even when nothing changed, with sorted keys so expected-output files stay stable.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from catalogaudit._version import __version__
from catalogaudit.formatters.base import visible
from catalogaudit.formatters.diff_ci import LEVEL_NAMES, summary
from catalogaudit.formatters.formats import DiffFormat
from catalogaudit.formatters.md import DEFAULT_MAX_CHARS
from catalogaudit.model import with_envelope as envelope

if TYPE_CHECKING:  # the CLI imports this module for the enum; the core loads only when used
    from catalogaudit.diffing import Change, DiffResult

SARIF_LEVEL = {"breaking": "error", "unknown": "error", "model-visible": "warning"}
INFO_URI = "https://github.com/catalogaudit/catalogaudit/blob/main/docs/diff-rules.md"


def render(
    result: DiffResult,
    fmt: DiffFormat,
    fail_on: str,
    unknown: str,
    line_of: Callable[[Change], int | None] | None = None,
    *,
    brief: bool = False,
    expand: bool = False,
    max_chars: int = DEFAULT_MAX_CHARS,
    file: str | None = None,
) -> str:
    """The report in one format. `line_of` and `file` (the repository path the results point
    at: the new file, or the committed old one when the new one is not in the repository) are
    for SARIF, GitHub, JUnit and GitLab; `brief` (`--summary`) and `expand` only change the text
    format; `max_chars` bounds the Markdown."""
    if fmt is DiffFormat.TEXT:
        return (
            by_rule(result, fail_on, unknown) if brief else text(result, fail_on, unknown, expand)
        )
    if fmt is DiffFormat.JSON:
        return _dumps(as_json(result, fail_on, unknown))
    if fmt is DiffFormat.MARKDOWN:
        from catalogaudit.formatters.diff_ci import markdown

        return markdown(result, fail_on, unknown, max_chars=max_chars)
    if fmt is DiffFormat.SARIF:
        return _dumps(sarif(result, unknown, line_of, file))
    if fmt is DiffFormat.GITHUB:
        from catalogaudit.formatters.diff_ci import github

        return github(result, fail_on, unknown, line_of, file)
    if fmt is DiffFormat.JUNIT:
        from catalogaudit.formatters.diff_ci import junit

        return junit(result, fail_on, unknown, line_of, file)
    if fmt is DiffFormat.GITLAB:
        from catalogaudit.formatters.gitlab import format_gitlab_diff

        return format_gitlab_diff(result, unknown, line_of, file)
    _never(fmt)


def _never(value: NoReturn) -> NoReturn:
    raise AssertionError(f"unhandled format {value!r}")


def _dumps(doc: Any) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def change_json(c: Change, unknown: str) -> dict[str, Any]:
    """One change as plain data."""
    out: dict[str, Any] = {
        "ruleId": c.rule_id,
        "class": c.cls,
        "level": LEVEL_NAMES[c.level(unknown)],
        "listing": c.listing,
        "identity": c.identity,
        "pointer": c.pointer,
        "message": c.message,
        "promptVisible": c.prompt,
        "fingerprint": c.fingerprint,
    }
    if c.old_identity is not None:
        out["oldIdentity"] = c.old_identity
    if c.accepted is not None:
        out["accepted"] = c.accepted
    if c.folded:
        out["folded"] = [
            {"identity": f.identity, "pointer": f.pointer, "message": f.message} for f in c.folded
        ]
    return out


def as_json(result: DiffResult, fail_on: str, unknown: str) -> dict[str, Any]:
    """The JSON report (schema: `formatters/schemas/diff.schema.json`)."""
    extra: dict[str, Any] = {}
    if result.mode != "all":
        extra["mode"] = result.mode
    if result.assertions:
        extra["assertions"] = [f.report_dict() for f in result.assertions]
    if result.prompt_cache is not None:
        extra["promptCache"] = result.prompt_cache
    return envelope(
        "diff",
        {
            **extra,
            "old": result.old,
            "new": result.new,
            "failOn": fail_on,
            "unknown": unknown,
            "exitCode": result.exit_code(fail_on, unknown),
            "counts": result.counts(),
            "changes": [change_json(c, unknown) for c in result.changes],
            "items": result.items,
            "warnings": result.warnings,
            "notes": result.notes,
        },
    )


def _assertion_lines(result: DiffResult) -> list[str]:
    return [f"  error {f.rule_id} {f.message}" for f in result.assertions]


def by_rule(result: DiffResult, fail_on: str, unknown: str) -> str:
    """`diff --summary`: one line per class and rule with its count and name."""
    from catalogaudit.diffing import RULES

    lines = [f"diff {result.old} -> {result.new}"]
    counted: dict[tuple[str, str], int] = {}
    for c in result.changes:
        counted[(c.cls, c.rule_id)] = counted.get((c.cls, c.rule_id), 0) + 1
    for (cls, rule), n in counted.items():  # changes are in class order already
        lines.append(f"  {cls:<13} {rule}  {n:>4}  {RULES[rule][1]}")
    if not result.changes:
        lines.append("  no changes")
    lines.extend(_assertion_lines(result))
    lines.extend(f"warning: {w['message']}" for w in result.warnings)
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines) + "\n"


def text(result: DiffResult, fail_on: str, unknown: str, expand: bool = False) -> str:
    """Plain text, one line per change, grouped by class (`expand`: a folded CA873 also lists
    each hint change it stands for)."""
    lines = [f"diff {result.old} -> {result.new}"]
    if result.mode != "all":
        lines[0] += f" ({'--schema-only' if result.mode == 'schema' else '--prose-only'})"
    width = max((len(c.subject) for c in result.changes), default=0)
    for c in result.changes:
        where = f" {c.pointer}" if c.pointer else ""
        why = f"  (accepted: {visible(c.accepted, keep='')})" if c.accepted is not None else ""
        lines.append(f"  {c.cls:<13} {c.rule_id}  {c.subject:<{width}}{where}  {c.message}{why}")
        if expand:
            for f in c.folded:
                subject = f"{c.subject.split()[0].rstrip('s')} {_name(f.identity)}"
                lines.append(f"      {subject} {f.pointer}  {f.message}")
    if not result.changes:
        lines.append("  no changes")
    lines.extend(_assertion_lines(result))
    lines.extend(_bill(result))
    lines.extend(f"warning: {w['message']}" for w in result.warnings)
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines) + "\n"


def _bill(result: DiffResult) -> list[str]:
    """The prompt-cache bill of a change that re-bills a cache (nothing when none does)."""
    from catalogaudit.formatters.stability import bill_lines

    cache = result.prompt_cache
    return bill_lines(cache) if cache and any(r["rebills"] for r in cache["providers"]) else []


def _name(identity: str | None) -> str:
    return json.dumps(identity, ensure_ascii=False) if identity is not None else "#?"


def _uri(label: str) -> str:
    if label.startswith("git:"):
        return label.split(":", 2)[-1]
    return "stdin" if label == "<stdin>" else label


def _physical(
    uri: str, line_of: Callable[[Change], int | None] | None, c: Change
) -> dict[str, Any]:
    out: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    line = line_of(c) if line_of else None
    if line is not None:  # no made-up line 1 when the file's lines are not known
        out["region"] = {"startLine": line}
    return out


def sarif(
    result: DiffResult,
    unknown: str,
    line_of: Callable[[Change], int | None] | None = None,
    file: str | None = None,
) -> dict[str, Any]:
    """A minimal, self-contained SARIF 2.1.0 log: one result per change, in `file` (a
    repository path; default: the new input's path) at `line_of` when it is known."""
    from catalogaudit.diffing import RULES

    used = sorted({c.rule_id for c in result.changes})
    index = {rule: i for i, rule in enumerate(used)}
    rules = [
        {
            "id": rule,
            "name": RULES[rule][1],
            "shortDescription": {"text": RULES[rule][2]},
            "helpUri": f"{INFO_URI}#{rule.lower()}",
            "defaultConfiguration": {"level": SARIF_LEVEL.get(RULES[rule][0], "note")},
            "properties": {"class": RULES[rule][0]},
        }
        for rule in used
    ]
    results = []
    for c in result.changes:
        name = "/".join(p for p in (c.listing, c.identity or "", c.pointer.lstrip("/")) if p)
        results.append(
            {
                "ruleId": c.rule_id,
                "ruleIndex": index[c.rule_id],
                "level": "error" if c.level(unknown) == 3 else SARIF_LEVEL.get(c.cls, "note"),
                "message": {"text": f"{c.subject}: {c.message}"},
                "locations": [
                    {
                        "physicalLocation": _physical(file or _uri(result.new), line_of, c),
                        "logicalLocations": [{"fullyQualifiedName": name, "kind": "member"}],
                    }
                ],
                "partialFingerprints": {"catalogauditChange/v1": c.fingerprint},
                "properties": {"class": c.cls, "level": LEVEL_NAMES[c.level(unknown)]},
            }
        )
        if c.accepted is not None:
            results[-1]["suppressions"] = [{"kind": "external", "justification": c.accepted}]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "catalogaudit",
                        "version": __version__,
                        "informationUri": INFO_URI,
                        "rules": rules,
                    }
                },
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }


__all__ = ["DiffFormat", "render", "summary"]
