"""`catalogaudit verify` reports: text, JSON, Markdown, JUnit XML and GitHub annotations.

The input is the run's rows (each observation with the profile's prediction for it); nothing
here does I/O. Client messages and item names come from the client and the server, so every
format makes them inert the same way the audit formats do (`visible`, Markdown escaping, the
workflow-command escaping), and a line of server text can never forge a line of the report.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from catalogaudit.formatters import verify_model
from catalogaudit.formatters.base import plural, visible
from catalogaudit.formatters.formats import VerifyFormat
from catalogaudit.formatters.github import capped, command, title
from catalogaudit.formatters.md import (
    DEFAULT_MAX_CHARS,
    FULL_REPORT,
    Section,
    code,
    escape_text,
    fit,
    words,
)
from catalogaudit.model import FAILED, KEPT, Observation, VerifyRun
from catalogaudit.model import with_envelope as envelope


def _subject(o: Observation) -> str:
    if o.index is None:
        return f"{o.listing} list"
    name = "" if o.identity is None else " " + json.dumps(o.identity, ensure_ascii=False)
    return f"{o.listing}[{o.index}]{name}"


def _failed_lists(run: VerifyRun) -> set[tuple[str, str]]:
    """(catalog, listing) pairs whose list call failed: their items carry the same message."""
    return {
        (r.observed.catalog, r.observed.listing)
        for r in run.rows
        if r.observed.index is None and r.observed.verdict == FAILED
    }


def _with_list(o: Observation, failed: set[tuple[str, str]]) -> bool:
    """An item lost because its whole list failed (said once, on the list's line)."""
    return o.index is not None and (o.catalog, o.listing) in failed


def _summary(run: VerifyRun) -> str:
    views = f", {plural(len(run.views), 'model view')}" if run.views else ""
    return (
        f"{plural(len(run.rows), 'observation')}{views}, "
        f"{run.mismatches} mismatch{'es' if run.mismatches != 1 else ''} with the profile"
    )


def verify_document(run: VerifyRun) -> dict[str, Any]:
    """The JSON report as data (its shape is what scripts/refresh_verification.py reads)."""
    return envelope(
        "verify",
        {
            "client": {"id": run.client, "version": run.version},
            "profile": run.profile,
            "transport": run.transport,
            "matches": run.mismatches == 0,
            "observations": [
                {
                    **r.observed.as_dict(),
                    "predicted": r.predicted.verdict if r.predicted else None,
                    "predictedBecause": r.predicted.message if r.predicted else "",
                    "matches": r.matches,
                }
                for r in run.rows
            ],
            **(verify_model.document(run) if run.views or run.prompt else {}),
        },
    )


def as_json(run: VerifyRun) -> str:
    """The JSON report."""
    return json.dumps(verify_document(run), indent=2, ensure_ascii=False) + "\n"


def as_text(run: VerifyRun) -> str:
    """Per catalog, every list and item: observed, predicted, ok or MISMATCH, the client's words."""
    over = f", over {run.transport}" if run.transport != "stdio" else ""
    lines = [f"{run.client} {run.version} (profile {run.profile}{over})"]
    catalog = None
    for r in run.rows:
        o = r.observed
        if o.catalog != catalog:
            catalog = o.catalog
            lines.append(f"{visible(catalog, keep='')}:")
        subject = _subject(o) if o.index is None else "  " + _subject(o)
        mark = "ok" if r.matches else "MISMATCH"
        predicted = r.predicted.verdict if r.predicted else "no prediction"
        line = f"  {visible(subject, keep='')}: {o.verdict} (predicted {predicted}) {mark}"
        if o.index is None and o.message:
            line += f"\n      client: {visible(o.message, keep='')}"
        if not r.matches and r.predicted and r.predicted.message:
            line += f"\n      profile: {visible(r.predicted.message, keep='')}"
        lines.append(line)
    lines.extend(verify_model.text_lines(run))
    lines.append(_summary(run))
    return "\n".join(lines) + "\n"


def as_markdown(
    run: VerifyRun, *, max_chars: int = DEFAULT_MAX_CHARS, where: str = FULL_REPORT
) -> str:
    """A table of what the client lost and every mismatch (mismatches kept first when cut to
    `max_chars`), for a PR comment or a job summary."""
    head = [
        f"## {words(run.client)} {words(run.version, lead=False)}: what the real client did",
        "",
        words(_summary(run)) + ".",
        "",
    ]
    shown = [r for r in run.rows if r.observed.verdict != KEPT or not r.matches]
    if not shown:
        if run.rows:
            head.append("The client kept every list and item, as the profile predicted.")
        return fit(
            head + verify_model.markdown_head(run),
            [verify_model.markdown_section(run)],
            max_chars=max_chars,
            where=where,
        )
    table = Section(
        header=[
            "| catalog | list / item | observed | predicted | client said |",
            "| --- | --- | --- | --- | --- |",
        ]
    )
    failed = _failed_lists(run)
    for r in shown:
        o = r.observed
        said = "with the list" if _with_list(o, failed) else escape_text(o.message[:300]) or "-"
        predicted = words(r.predicted.verdict if r.predicted else "none")
        if not r.matches:
            predicted = f"**{predicted} (mismatch)**"
        table.rows.append(
            f"| {code(o.catalog, in_table=True)} | {code(_subject(o), in_table=True)} "
            f"| {words(o.verdict)} | {predicted} | {said} |"
        )
        table.ranks.append(0 if r.matches else 1)
    return fit(
        head + verify_model.markdown_head(run),
        [table, verify_model.markdown_section(run)],
        max_chars=max_chars,
        where=where,
    )


def as_junit(run: VerifyRun) -> str:
    """A suite per catalog, a case per list and item; a mismatch is a `<failure>`."""
    root = ET.Element("testsuites", name=f"catalogaudit verify {run.profile}")
    suites: dict[str, ET.Element] = {}
    for r in run.rows:
        o = r.observed
        suite = suites.get(o.catalog)
        if suite is None:
            suite = ET.SubElement(root, "testsuite", name=visible(o.catalog, keep=""))
            suites[o.catalog] = suite
        case = ET.SubElement(
            suite,
            "testcase",
            classname=run.profile,
            name=visible(f"{_subject(o)}: {o.verdict}", keep=""),
        )
        if not r.matches:
            predicted = r.predicted.verdict if r.predicted else "no prediction"
            failure = ET.SubElement(
                case, "failure", message=f"observed {o.verdict}, predicted {predicted}"
            )
            failure.text = visible(
                f"client: {o.message}\nprofile: {r.predicted.message if r.predicted else ''}"
            )
    for suite in suites.values():
        cases = list(suite)
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
    model_failures = verify_model.junit_cases(root, run)
    prompt_case = 1 if run.prompt is not None else 0
    root.set("tests", str(len(run.rows) + len(run.views) + prompt_case))
    root.set("failures", str(sum(not r.matches for r in run.rows) + model_failures))
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def as_github(run: VerifyRun) -> str:
    """One workflow command per loss the client showed (a warning) or mismatch (an error),
    then the run's summary as a notice, capped per level (`github.capped`)."""
    lines: list[tuple[str, str]] = []
    failed = _failed_lists(run)
    for r in run.rows:
        o = r.observed
        if r.matches and (o.verdict == KEPT or _with_list(o, failed)):
            continue
        name = "warning" if r.matches else "error"
        predicted = r.predicted.verdict if r.predicted else "no prediction"
        message = visible(
            f"{run.client} {run.version}: {_subject(o)} {o.verdict} (predicted {predicted})"
            + (f": {o.message}" if o.message else ""),
            keep="",
        )
        what = "mismatch" if not r.matches else o.verdict
        props = {
            "file": visible(o.catalog, keep=""),
            "title": title(run.profile, _subject(o), f"{what} in {run.client}"),
        }
        lines.append((name, command(name, props, message)))
    lines.extend(verify_model.github_lines(run))
    lines.append(("notice", command("notice", {}, visible(f"{run.profile}: {_summary(run)}"))))
    return capped(lines)


def format_verify(
    run: VerifyRun,
    fmt: VerifyFormat | str,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    width: int = 100,
) -> str:
    """Render in one of the `VerifyFormat`s (`max_chars` bounds the Markdown, `width` the
    text)."""
    if VerifyFormat(fmt) is VerifyFormat.MARKDOWN:
        return as_markdown(run, max_chars=max_chars)
    if VerifyFormat(fmt) is VerifyFormat.TEXT:
        from catalogaudit.formatters.console import reflow

        return reflow(as_text(run), width=width)
    render = {
        VerifyFormat.TEXT: as_text,
        VerifyFormat.JSON: as_json,
        VerifyFormat.MARKDOWN: as_markdown,
        VerifyFormat.JUNIT: as_junit,
        VerifyFormat.GITHUB: as_github,
    }[VerifyFormat(fmt)]
    return render(run)
