"""Render a `DiffResult` as text, JSON, Markdown (pull-request comments) or SARIF 2.1.0.

Formatters return strings: no I/O, no exit logic. JSON and SARIF always emit a full document,
even when nothing changed, with sorted keys so expected-output files stay stable.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

from catalogaudit._version import __version__
from catalogaudit.formatters.formats import DiffFormat
from catalogaudit.model.envelope import envelope

if TYPE_CHECKING:  # the CLI imports this module for the enum; the core loads only when used
    from catalogaudit.diff.items import Change, DiffResult

LEVEL_NAMES = {1: "cosmetic", 2: "model-visible", 3: "breaking"}
SARIF_LEVEL = {"breaking": "error", "unknown": "error", "model-visible": "warning"}
INFO_URI = "https://github.com/catalogaudit/catalogaudit/blob/main/docs/diff-rules.md"


def render(
    result: DiffResult,
    fmt: DiffFormat,
    fail_on: str,
    unknown: str,
    line_of: Callable[[Change], int] | None = None,
    *,
    brief: bool = False,
    expand: bool = False,
) -> str:
    """The report in one format; `line_of` gives SARIF the line of a change in the new file;
    `brief` (`--summary`) and `expand` only change the text format."""
    if fmt is DiffFormat.TEXT:
        return (
            by_rule(result, fail_on, unknown) if brief else text(result, fail_on, unknown, expand)
        )
    if fmt is DiffFormat.JSON:
        return _dumps(as_json(result, fail_on, unknown))
    if fmt is DiffFormat.MARKDOWN:
        return markdown(result, fail_on, unknown)
    if fmt is DiffFormat.SARIF:
        return _dumps(sarif(result, unknown, line_of))
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


def summary(result: DiffResult, fail_on: str, unknown: str) -> str:
    """One line: counts per class and the verdict of the threshold."""
    counts = result.counts()
    total = len(result.changes)
    if not total:
        return f"no changes between {result.old} and {result.new}"
    parts = ", ".join(f"{n} {cls}" for cls, n in counts.items() if n)
    failing = len(result.failing(fail_on, unknown))
    verdict = (
        f"{failing} at or above --fail-on {fail_on}" if fail_on != "never" else "--fail-on never"
    )
    return f"{total} change{'s' if total != 1 else ''} ({parts}); {verdict}{_asserted(result)}"


def _asserted(result: DiffResult) -> str:
    n = len(result.assertions)
    return f"; {n} failed assertion{'s' if n != 1 else ''}" if n else ""


def _assertion_lines(result: DiffResult) -> list[str]:
    return [f"  error {f.rule_id} {f.message}" for f in result.assertions]


def by_rule(result: DiffResult, fail_on: str, unknown: str) -> str:
    """`diff --summary`: one line per class and rule with its count and name."""
    from catalogaudit.diff.rules import RULES

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
        lines.append(f"  {c.cls:<13} {c.rule_id}  {c.subject:<{width}}{where}  {c.message}")
        if expand:
            for f in c.folded:
                subject = f"{c.subject.split()[0].rstrip('s')} {_name(f.identity)}"
                lines.append(f"      {subject} {f.pointer}  {f.message}")
    if not result.changes:
        lines.append("  no changes")
    lines.extend(_assertion_lines(result))
    lines.extend(f"warning: {w['message']}" for w in result.warnings)
    lines.extend(f"note: {n}" for n in result.notes)
    return "\n".join(lines) + "\n"


def _name(identity: str | None) -> str:
    return json.dumps(identity, ensure_ascii=False) if identity is not None else "#?"


def _cell(value: str) -> str:
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def markdown(result: DiffResult, fail_on: str, unknown: str) -> str:
    """A pull-request comment: verdict, warnings, one table row per change, changed paths."""
    failing = result.exit_code(fail_on, unknown)
    mark = ":x:" if failing else ":white_check_mark:"
    out = [f"### catalogaudit diff: `{result.old}` → `{result.new}`", ""]
    out.append(f"{mark} {_cell(summary(result, fail_on, unknown))}")
    out.append("")
    for w in result.warnings:
        out += ["> [!WARNING]", f"> {_cell(w['message'])}", ""]
    if result.changes:
        out += ["| class | rule | item | where | change |", "|---|---|---|---|---|"]
        for c in result.changes:
            cls = f"**{c.cls}**" if c.level(unknown) == 3 else c.cls
            where = f"`{_cell(c.pointer)}`" if c.pointer else ""
            out.append(
                f"| {cls} | {c.rule_id} | {_cell(c.subject)} | {where} | {_cell(c.message)} |"
            )
        out.append("")
    paths = [i for i in result.items if i["paths"]]
    if paths:
        out += ["<details><summary>Changed JSON paths</summary>", ""]
        for item in paths:
            ident = _cell(str(item["identity"]))
            joined = ", ".join(f"`{_cell(p)}`" for p in item["paths"][:50])
            more = f" and {len(item['paths']) - 50} more" if len(item["paths"]) > 50 else ""
            out.append(f"- {item['listing']} `{ident}`: {joined}{more}")
        out += ["", "</details>", ""]
    if result.assertions:
        out += ["Failed assertions:", ""]
        out += [f"- **{f.rule_id}** {_cell(f.message)}" for f in result.assertions]
        out.append("")
    if result.notes:
        out += ["Notes:", "", *(f"- {_cell(n)}" for n in result.notes)]
    return "\n".join(out).rstrip("\n") + "\n"


def _uri(label: str) -> str:
    if label.startswith("git:"):
        return label.split(":", 2)[-1]
    return "stdin" if label == "<stdin>" else label


def sarif(
    result: DiffResult, unknown: str, line_of: Callable[[Change], int] | None = None
) -> dict[str, Any]:
    """A minimal, self-contained SARIF 2.1.0 log: one result per change."""
    from catalogaudit.diff.rules import RULES

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
                        "physicalLocation": {
                            "artifactLocation": {"uri": _uri(result.new)},
                            "region": {"startLine": line_of(c) if line_of else 1},
                        },
                        "logicalLocations": [{"fullyQualifiedName": name, "kind": "member"}],
                    }
                ],
                "partialFingerprints": {"catalogauditChange/v1": c.fingerprint},
                "properties": {"class": c.cls, "level": LEVEL_NAMES[c.level(unknown)]},
            }
        )
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
