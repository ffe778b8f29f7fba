"""A `DiffResult` for CI: Markdown (PR comment), GitHub annotations and JUnit XML.

The conventions are audit's: server text through `formatters.md` (Markdown) or `visible`
(annotations, XML); Markdown within `max_chars`; annotations capped per level; JUnit failures
only at or above `--fail-on`, the rest skipped with the reason; `file`/`line` where known.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from catalogaudit.formatters.base import visible
from catalogaudit.formatters.github import capped, command, title
from catalogaudit.formatters.md import (
    DEFAULT_MAX_CHARS,
    FULL_REPORT,
    Section,
    code,
    escape_text,
    words,
)
from catalogaudit.formatters.md import fit as fit_markdown

if TYPE_CHECKING:
    from catalogaudit.diffing import Change, DiffResult

LEVEL_NAMES = {1: "cosmetic", 2: "model-visible", 3: "breaking"}
LineOf = Callable[["Change"], "int | None"] | None
#: Annotation level per threshold level (breaking 3, model-visible 2, cosmetic 1).
ANNOTATION = {3: "error", 2: "warning", 1: "notice"}
#: Paths listed per item in the Markdown's `<details>`.
PATHS_SHOWN = 50


def markdown(
    result: DiffResult,
    fail_on: str,
    unknown: str,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    where: str = FULL_REPORT,
) -> str:
    """A pull-request comment: verdict, warnings, failed assertions, one table row per change
    (breaking first when cut), changed paths; at most `max_chars` characters."""
    failing = result.exit_code(fail_on, unknown)
    mark = ":x:" if failing else ":white_check_mark:"
    head = [f"### catalogaudit diff: {code(result.old)} → {code(result.new)}", ""]
    head += [f"{mark} {words(summary(result, fail_on, unknown))}", ""]
    for w in result.warnings:
        head += ["> [!WARNING]", f"> {escape_text(w['message'])}", ""]
    if result.assertions:
        head += ["Failed assertions:", ""]
        head += [f"- **{words(f.rule_id)}** {escape_text(f.message)}" for f in result.assertions]
        head.append("")
    table = Section(header=["| class | rule | item | where | change |", "|---|---|---|---|---|"])
    for c in result.changes:
        level = c.level(unknown)
        cls = f"**{c.cls}**" if level == 3 and c.accepted is None else c.cls
        cls += ", accepted" if c.accepted is not None else ""
        where_ = code(c.pointer, in_table=True) if c.pointer else ""
        table.rows.append(
            f"| {cls} | {words(c.rule_id)} | {code(c.subject, in_table=True)} "
            f"| {where_} | {escape_text(c.message)} |"
        )
        table.ranks.append(level)
    table.footer = [""]
    accepted = [c for c in result.changes if c.accepted is not None]
    if accepted:
        table.footer += ["Accepted on purpose (catalogaudit.accepted.toml):", ""]
        table.footer += [
            f"- {words(c.rule_id)} {code(c.subject)}"
            + (f" {code(c.pointer)}" if c.pointer else "")
            + f": {escape_text(str(c.accepted))}"
            for c in accepted
        ]
        table.footer.append("")
    paths = Section(header=["<details><summary>Changed JSON paths</summary>", ""])
    for item in result.items:
        if not item["paths"]:
            continue
        ident = code(str(item["identity"]))
        joined = ", ".join(code(p) for p in item["paths"][:PATHS_SHOWN])
        extra = len(item["paths"]) - PATHS_SHOWN
        more = f" and {extra} more" if extra > 0 else ""
        paths.rows.append(f"- {words(item['listing'])} {ident}: {joined}{more}")
    paths.footer = ["", "</details>", ""]
    bill = Section(rows=_bill(result))
    notes = Section(header=["Notes:", ""], rows=[f"- {words(n)}" for n in result.notes])
    text = fit_markdown(head, [table, paths, bill, notes], max_chars=max_chars, where=where)
    return text.rstrip("\n") + "\n"


def _bill(result: DiffResult) -> list[str]:
    """The prompt-cache bill table when the change re-bills a cache."""
    from catalogaudit.formatters.stability import bill_markdown

    cache = result.prompt_cache
    if not cache or not any(r["rebills"] for r in cache["providers"]):
        return []
    return ["\n".join(bill_markdown(cache))]


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
    taken = sum(1 for c in result.changes if c.accepted is not None)
    verdict += f" ({taken} more accepted)" if taken else ""
    return f"{total} change{'s' if total != 1 else ''} ({parts}); {verdict}{_asserted(result)}"


def _asserted(result: DiffResult) -> str:
    n = len(result.assertions)
    return f"; {n} failed assertion{'s' if n != 1 else ''}" if n else ""


def _subject(c: Change) -> str:
    return "/".join(p for p in (c.listing, c.identity or "") if p) + c.pointer


def github(
    result: DiffResult, fail_on: str, unknown: str, line_of: LineOf, file: str | None
) -> str:
    """One annotation per change (breaking an error, model-visible a warning, the rest notices)
    and per failed assertion, capped per level, then nothing else: the summary is on stderr."""
    from catalogaudit.diffing import RULES

    lines: list[tuple[str, str]] = []
    for f in result.assertions:
        why = {"title": title(f.rule_id, "catalog", "failed assertion")}
        lines.append(("error", command("error", why, visible(f.message))))
    ordered = sorted(result.changes, key=lambda c: -c.level(unknown))
    for c in ordered:
        level = ANNOTATION[c.level(unknown)] if c.accepted is None else "notice"
        props: dict[str, str] = {}
        line = line_of(c) if line_of else None
        if file:
            props["file"] = visible(file, keep="")
            if line is not None:
                props["line"] = str(line)
        name = RULES[c.rule_id][1] if c.rule_id in RULES else c.cls
        props["title"] = title(c.rule_id, _subject(c), name)
        message = f"{c.cls}: {c.subject}: {c.message}"
        if c.accepted is not None:
            message += f" (accepted: {c.accepted})"
        lines.append((level, command(level, props, visible(message))))
    return capped(lines)


def junit(result: DiffResult, fail_on: str, unknown: str, line_of: LineOf, file: str | None) -> str:
    """A suite of one case per change: a `<failure>` at or above `--fail-on`, else `<skipped>`
    with the reason; a failed assertion is a failure; no changes is one passing case."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", {"name": "catalogaudit diff"})
    suite = ET.SubElement(root, "testsuite", {"name": visible(f"{result.old} -> {result.new}")})
    failing = {id(c) for c in result.failing(fail_on, unknown)}
    for c in result.changes:
        attrs = {
            "classname": f"catalogaudit.diff.{c.listing}",
            "name": visible(f"{c.rule_id} {_subject(c)}", keep=""),
        }
        line = line_of(c) if line_of else None
        if file:
            attrs["file"] = visible(file, keep="")
            if line is not None:
                attrs["line"] = str(line)
        case = ET.SubElement(suite, "testcase", attrs)
        level = LEVEL_NAMES[c.level(unknown)]
        text = visible(f"{c.cls} ({level}): {c.subject}: {c.message}")
        if id(c) in failing:
            child = ET.SubElement(case, "failure", {"message": text, "type": c.cls})
        elif c.accepted is not None:
            reason = visible(f"accepted ({c.accepted}): {text}")
        else:
            reason = f"below --fail-on {fail_on}: {text}"
            child = ET.SubElement(case, "skipped", {"message": reason})
        child.text = text
    for f in result.assertions:
        case = ET.SubElement(
            suite, "testcase", {"classname": "catalogaudit.diff.contract", "name": f.rule_id}
        )
        if fail_on == "never":
            ET.SubElement(case, "skipped", {"message": visible(f"--fail-on never: {f.message}")})
        else:
            failure = ET.SubElement(case, "failure", {"message": visible(f.message)})
            failure.text = visible(f.message)
    if not len(suite):
        ET.SubElement(suite, "testcase", {"classname": "catalogaudit.diff", "name": "no changes"})
    cases = suite.findall("testcase")
    for el in (suite, root):
        el.set("tests", str(len(cases)))
        el.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        el.set("errors", "0")
        el.set("skipped", str(sum(1 for c in cases if c.find("skipped") is not None)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
