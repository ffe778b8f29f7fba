"""GitHub Actions workflow commands (`::error file=...::message`) that annotate the snapshot.

Escaping follows `@actions/core` (`toolkit/packages/core/src/command.ts`): in the message `%`,
CR and LF become `%25`, `%0D`, `%0A`; in properties `:` and `,` become `%3A` and `%2C` as well.
Server text therefore can never end the command line early and start a command of its own
(`::add-mask::`, `::stop-commands::`); control characters are made visible before that, so no
escape sequence reaches the log viewer either.
"""

from __future__ import annotations

from catalogaudit.formatters.base import subject_path, visible
from catalogaudit.model.findings import Finding, Report, Severity

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """A command's message (`escapeData` in @actions/core)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command property value (`escapeProperty` in @actions/core)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, properties: dict[str, str], message: str) -> str:
    """One workflow command line: `::name k=v,k=v::message`."""
    props = ",".join(f"{k}={escape_property(v)}" for k, v in properties.items())
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def _annotation(f: Finding) -> str:
    props: dict[str, str] = {}
    if f.location is not None and f.location.file:
        props["file"] = visible(f.location.file, keep="")
        if f.location.line is not None:
            props["line"] = str(f.location.line)
            if f.location.column is not None:
                props["col"] = str(f.location.column)
    props["title"] = f.rule_id
    where = subject_path(f.kind, f.identity) + f.pointer
    lines = [f"{f.message} [{where}]"]
    if f.hint:
        lines.append(f"Fix: {f.hint}")
    if f.profile:
        lines.append(f"Profile: {f.profile}")
    if f.source:
        lines.append(f"Source: {f.source}")
    if (
        f.location is not None
        and f.location.file
        and f.location.line is None
        and f.location.pointer
    ):
        lines.append(f"In {f.location.file} at {f.location.pointer}")
    return command(COMMAND[f.severity], props, visible("\n".join(lines)))


def format_github(report: Report) -> str:
    """One annotation per finding, then one per rule error; empty when there is nothing to say."""
    lines = [_annotation(f) for f in report.sorted_findings()]
    for e in sorted(report.rule_errors, key=lambda e: (e.rule_id, e.error)):
        message = visible(f"rule {e.rule_id} raised: {e.error}")
        lines.append(command("error", {"title": f"{e.rule_id} rule error"}, message))
    return "".join(line + "\n" for line in lines)
