"""The audit report formats: one enum (the `--format` choices of `audit` and `rewrite`) and one
function that renders a report in any of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from catalogaudit.formatters.base import assert_never
from catalogaudit.formatters.formats import OutputFormat
from catalogaudit.model import Report

if TYPE_CHECKING:
    from catalogaudit.formatters.paths import Repository


def format_report(
    report: Report,
    fmt: OutputFormat,
    *,
    color: bool = False,
    width: int = 100,
    expand: bool = False,
    fail_on: str = "error",
    max_chars: int = 60_000,
    repo: Repository | None = None,
) -> str:
    """Render `report` in `fmt`. `color`, `width` and `expand` (no folding) only matter to the
    text format; `fail_on` to JUnit (failures at or above it), `max_chars` to Markdown,
    `repo` (the repository the paths are relative to; None: paths as given) to SARIF,
    GitHub annotations and JUnit.

    Formatter modules are imported lazily: the pre-commit hook runs on every commit and most
    runs need one format only (and only `text` pulls in rich).
    """
    if fmt is OutputFormat.TEXT:
        from catalogaudit.formatters.text import format_text

        return format_text(report, color=color, width=width, expand=expand)
    if fmt is OutputFormat.JSON:
        from catalogaudit.formatters.json import format_json

        return format_json(report)
    if fmt is OutputFormat.SARIF:
        from catalogaudit.formatters.sarif import format_sarif

        return format_sarif(report, repo=repo)
    if fmt is OutputFormat.JUNIT:
        from catalogaudit.formatters.junit import format_junit

        return format_junit(report, fail_on=fail_on, repo=repo)
    if fmt is OutputFormat.GITHUB:
        from catalogaudit.formatters.github import format_github

        return format_github(report, repo=repo)
    if fmt is OutputFormat.MARKDOWN:
        from catalogaudit.formatters.markdown import format_markdown

        return format_markdown(report, max_chars=max_chars)
    if fmt is OutputFormat.GITLAB:
        from catalogaudit.formatters.gitlab import format_gitlab

        return format_gitlab(report, repo=repo)
    assert_never(fmt)
