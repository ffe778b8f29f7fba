"""The `verify --model` part of each verify format: per tool and mode the model view (name,
SHA-256 of the bytes sent), how it was offered, the call, and the prediction; and with
`--runs` whether the `tools` bytes held across starts. `formatters.verify` calls these, so
each format shows the new fields beside the listing rows. Names and client messages are
server or client text: they go through the same escaping as the rest of the report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from catalogaudit.formatters.base import visible
from catalogaudit.formatters.github import command, title
from catalogaudit.formatters.md import Section, code, escape_text
from catalogaudit.model import PromptBytes, VerifyRun, ViewRow


def _subject(r: ViewRow) -> str:
    o = r.observed
    return f"tools[{o.index}] {json.dumps(o.identity, ensure_ascii=False)} ({o.mode})"


def _observed(r: ViewRow) -> str:
    return f"{r.observed.offered}, call {r.observed.call}"


def _predicted(r: ViewRow) -> str:
    if r.offered is None:
        return "no prediction"
    view = "" if r.view_matches else ", another model view"
    return f"{r.offered}, call {r.call}{view}"


def document(run: VerifyRun) -> dict[str, Any]:
    """The JSON members `verify --model` adds."""
    out: dict[str, Any] = {
        "modelViews": [
            {
                **r.observed.as_dict(),
                "predicted": {"offered": r.offered, "call": r.call, "modelView": r.view},
                "predictedBecause": r.because,
                "matches": r.matches,
            }
            for r in run.views
        ]
    }
    if run.prompt is not None:
        out["promptBytes"] = run.prompt.as_dict()
    if run.prompts:
        out["prompts"] = dict(run.prompts)
    return out


def _prompts_lines(run: VerifyRun) -> list[str]:
    """Per catalog, the prompt hash observed (`hash --client` predicts it)."""
    return [
        f"prompt of {visible(label, keep='')}: {digest} (its tools' part of the model request; "
        "hash --client predicts it)"
        for label, digest in run.prompts
    ]


def _prompt_line(p: PromptBytes) -> str:
    if p.stable:
        return f"model request tools: stable over {len(p.sha256)} starts ({p.sha256[0][:12]})"
    changed = ", ".join(f"{d.tool} ({d.how}, start {d.start})" for d in p.drifts) or "?"
    return f"model request tools: UNSTABLE over {len(p.sha256)} starts: {changed}"


def text_lines(run: VerifyRun) -> list[str]:
    """Text report lines: one per tool and mode."""
    lines = []
    catalog = None
    for r in run.views:
        o = r.observed
        if o.catalog != catalog:
            catalog = o.catalog
            lines.append(f"{visible(catalog, keep='')} (model view):")
        mark = "ok" if r.matches else "MISMATCH"
        line = (
            f"  {visible(_subject(r), keep='')}: {_observed(r)} (predicted {_predicted(r)}) {mark}"
        )
        if o.name is not None:
            digest = f" sha256 {o.sha256[:16]}" if o.sha256 else ""
            line += f"\n      as {visible(o.name, keep='')}{digest}"
        if o.message and (o.call != "reached" or not r.matches):
            line += f"\n      client: {visible(o.message[:200], keep='')}"
        if not r.matches and r.because:
            line += f"\n      profile: {visible(r.because, keep='')}"
        lines.append(line)
    if run.prompt is not None:
        lines.append(visible(_prompt_line(run.prompt), keep=""))
    return lines + _prompts_lines(run)


def markdown_section(run: VerifyRun) -> Section:
    """The model views as a table (every tool: the view is the point of the run; mismatches
    survive a `max_chars` cut first), with the request-bytes verdict after it."""
    table = Section(
        header=[
            "",
            "| catalog | tool (mode) | sent as | offered, call | predicted |",
            "| --- | --- | --- | --- | --- |",
        ]
    )
    for r in run.views:
        o = r.observed
        predicted = _predicted(r) if r.matches else f"**{_predicted(r)} (mismatch)**"
        sent = code(o.name, in_table=True) if o.name else "-"
        table.rows.append(
            f"| {code(o.catalog, in_table=True)} | {code(_subject(r), in_table=True)} | {sent} "
            f"| {_observed(r)} | {escape_text(predicted)} |"
        )
        table.ranks.append(0 if r.matches else 1)
    return table


def markdown_head(run: VerifyRun) -> list[str]:
    """The `--runs` verdict on the request's `tools` bytes (kept whatever the budget)."""
    head = [] if run.prompt is None else [escape_text(_prompt_line(run.prompt)) + ".", ""]
    prompts = [escape_text(line) + "." for line in _prompts_lines(run)]
    return head + (prompts + [""] if prompts else [])


def junit_cases(root: ET.Element, run: VerifyRun) -> int:
    """A suite of model-view cases (and one for the request bytes); the failures added."""
    if not run.views and run.prompt is None:
        return 0
    suite = ET.SubElement(root, "testsuite", name=f"model view {run.profile}")
    failures = 0
    for r in run.views:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=run.profile,
            name=visible(f"{_subject(r)}: {_observed(r)}", keep=""),
        )
        if not r.matches:
            failures += 1
            failure = ET.SubElement(case, "failure", message=f"predicted {_predicted(r)}")
            failure.text = visible(f"client: {r.observed.message}\nprofile: {r.because}")
    if run.prompt is not None:
        case = ET.SubElement(suite, "testcase", classname=run.profile, name="model request tools")
        if not run.prompt.stable:
            failures += 1
            ET.SubElement(case, "failure", message=visible(_prompt_line(run.prompt), keep=""))
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(failures))
    return failures


def github_lines(run: VerifyRun) -> list[tuple[str, str]]:
    """(level, annotation): an error per model-view mismatch, a warning per refused call, one
    error for unstable bytes; `formatters.github.capped` bounds them with the rest."""
    lines = []
    for r in run.views:
        o = r.observed
        if r.matches and o.call != "refused":
            continue
        name = "error" if not r.matches else "warning"
        message = visible(
            f"{run.client} {run.version}: {_subject(r)} {_observed(r)} (predicted {_predicted(r)})"
            + (f": {o.message[:200]}" if o.message else ""),
            keep="",
        )
        what = "model-view mismatch" if not r.matches else "call refused"
        props = {
            "file": visible(o.catalog, keep=""),
            "title": title(run.profile, _subject(r), f"{what} in {run.client}"),
        }
        lines.append((name, command(name, props, message)))
    if run.prompt is not None and not run.prompt.stable:
        props = {"title": title(run.profile, "model request tools", "unstable across starts")}
        lines.append(("error", command("error", props, visible(_prompt_line(run.prompt), keep=""))))
    return lines
