"""GitHub Actions workflow commands (`::error file=...::message`) that annotate the snapshot.

Escaping follows `@actions/core` (`toolkit/packages/core/src/command.ts`): in the message `%`,
CR and LF become `%25`, `%0D`, `%0A`; in properties `:` and `,` become `%3A` and `%2C` as well.
Server text therefore can never end the command line early and start a command of its own
(`::add-mask::`, `::stop-commands::`); control characters are made visible before that, so no
escape sequence reaches the log viewer either.

GitHub shows at most 10 annotations of each level (error, warning, notice) per step and 50 per
job (docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands): `capped`
keeps the first 10 of each level and ends with one `::notice` that counts the rest and says
where the full list is. Titles name what broke: the rule id and the subject.
"""

from __future__ import annotations

from catalogaudit.formatters.base import subject_path, visible
from catalogaudit.formatters.paths import Repository, report_path
from catalogaudit.model import Finding, Report, Severity

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


#: Annotations GitHub shows per level and step.
PER_LEVEL = 10
#: Where the full list is, unless the caller knows better.
FULL_LIST = "rerun with --format json (or sarif) for the full list"


def title(rule_id: str, subject: str, summary: str = "") -> str:
    """`CA201 tools/search_files: summary`: one line, invisible characters made visible."""
    text = f"{rule_id} {subject}" + (f": {summary}" if summary else "")
    if len(text) > 200:
        text = text[:199] + "…"
    return visible(text, keep="")


def capped(annotations: list[tuple[str, str]], where: str = FULL_LIST) -> str:
    """`annotations` as (level, command line), at most `PER_LEVEL` of each level in order;
    when some are left out, one last `::notice` counts them (it takes a notice slot itself,
    so that it is shown)."""
    total = dict.fromkeys(("error", "warning", "notice"), 0)
    for name, _ in annotations:
        total[name] = total.get(name, 0) + 1
    over = any(n > PER_LEVEL for n in total.values())
    room = dict.fromkeys(total, PER_LEVEL)
    if over:
        room["notice"] = PER_LEVEL - 1
    kept: list[str] = []
    left: dict[str, int] = {}
    for name, line in annotations:
        if room.get(name, 0) > 0:
            room[name] -= 1
            kept.append(line)
        else:
            left[name] = left.get(name, 0) + 1
    if left:
        counted = ", ".join(f"{n} {name}{'s' if n != 1 else ''}" for name, n in left.items())
        n = sum(left.values())
        message = (
            f"{n} more annotation{'s' if n != 1 else ''} left out ({counted}): GitHub shows "
            f"{PER_LEVEL} per level; {where}"
        )
        kept.append(command("notice", {"title": "catalogaudit: annotations capped"}, message))
    return "".join(line + "\n" for line in kept)


def _annotation(f: Finding, summary: str = "", repo: Repository | None = None) -> str:
    props: dict[str, str] = {}
    if f.location is not None and f.location.file:
        props["file"] = visible(report_path(f.location.file, repo), keep="")
        if f.location.line is not None:
            props["line"] = str(f.location.line)
            if f.location.column is not None:
                props["col"] = str(f.location.column)
    props["title"] = title(f.rule_id, subject_path(f.kind, f.identity), summary)
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


def format_github(report: Report, *, where: str = FULL_LIST, repo: Repository | None = None) -> str:
    """One annotation per finding in report order, then one per rule error, capped per level
    (`capped`); empty when there is nothing to say."""
    lines = [
        (COMMAND[f.severity], _annotation(f, f.message, repo)) for f in report.sorted_findings()
    ]
    for e in sorted(report.rule_errors, key=lambda e: (e.rule_id, e.error)):
        message = visible(f"rule {e.rule_id} raised: {e.error}")
        lines.append(("error", command("error", {"title": f"{e.rule_id} rule error"}, message)))
    return capped(lines, where)
