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
from catalogaudit.formatters.console import CLASS_STYLE, DIM, Page
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
    color: bool = False,
    width: int = 100,
) -> str:
    """The report in one format. `line_of` and `file` (the repository path the results point
    at: the new file, or the committed old one when the new one is not in the repository) are
    for SARIF, GitHub, JUnit and GitLab; `brief` (`--summary`) and `expand` only change the text
    format, as `color` and `width` do; `max_chars` bounds the Markdown."""
    if fmt is DiffFormat.TEXT:
        page = Page(color=color, width=width)
        if brief:
            by_rule(page, result)
        else:
            text(page, result, expand)
        return page.text()
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


#: Widest subject column: a longer name wraps the line rather than push every message right.
_SUBJECT = 36


def _head(page: Page, result: DiffResult) -> None:
    mode = ""
    if result.mode != "all":
        mode = f" ({'--schema-only' if result.mode == 'schema' else '--prose-only'})"
    old, new = visible(result.old, keep=""), visible(result.new, keep="")
    page.line(("diff", "bold"), f" {old} -> {new}{mode}", hang=4)


def _tail(page: Page, result: DiffResult, bill: bool = False) -> None:
    for f in result.assertions:
        page.line(("error", "bold red"), f" {f.rule_id} {visible(f.message)}", indent=2, hang=4)
    if bill:
        page.lines(_bill(result))
    for w in result.warnings:
        page.line(("warning:", "bold yellow"), f" {visible(w['message'])}", hang=2)
    for n in result.notes:
        page.line(("note:", DIM), f" {visible(n)}", hang=2)


def by_rule(page: Page, result: DiffResult) -> None:
    """`diff --summary`: one line per class and rule with its count and name."""
    from catalogaudit.diffing import RULES

    _head(page, result)
    counted: dict[tuple[str, str], int] = {}
    for c in result.changes:
        counted[(c.cls, c.rule_id)] = counted.get((c.cls, c.rule_id), 0) + 1
    for (cls, rule), n in counted.items():  # changes are in class order already
        page.line(
            (f"{cls:<13}", CLASS_STYLE.get(cls, "")),
            f" {rule}  {n:>4}  {RULES[rule][1]}",
            indent=2,
            hang=4,
        )
    if not result.changes:
        page.line("no changes", indent=2)
    _tail(page, result)


def text(page: Page, result: DiffResult, expand: bool = False) -> None:
    """One line per change, grouped by class, wrapped under itself (`expand`: a folded CA873
    also lists each hint change it stands for)."""
    _head(page, result)
    subjects = [visible(c.subject, keep="") for c in result.changes]
    width = min(max((len(s) for s in subjects), default=0), _SUBJECT)
    for c, subject in zip(result.changes, subjects, strict=True):
        where = f" {visible(c.pointer, keep='')}" if c.pointer else ""
        why = f"  (accepted: {visible(c.accepted, keep='')})" if c.accepted is not None else ""
        page.line(
            (f"{c.cls:<13}", CLASS_STYLE.get(c.cls, "")),
            (f" {c.rule_id}", "bold"),
            f"  {subject:<{width}}{where}  {visible(c.message)}",
            (why, DIM),
            indent=2,
            hang=4,
        )
        if expand:
            for f in c.folded:
                folded = f"{c.subject.split()[0].rstrip('s')} {_name(f.identity)}"
                page.line(
                    f"{visible(folded, keep='')} {visible(f.pointer, keep='')}  "
                    f"{visible(f.message)}",
                    indent=6,
                    hang=8,
                )
    if not result.changes:
        page.line("no changes", indent=2)
    _tail(page, result, bill=True)


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
