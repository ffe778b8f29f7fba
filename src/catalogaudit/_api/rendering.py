"""`render`: a report of the API in any format the command line writes, byte for byte what the
verb prints for the same inputs from the same directory (so a script needs no subprocess for
SARIF, Markdown or JUnit). Rendering returns a string: nothing is printed or written."""

from __future__ import annotations

from typing import Any

from catalogaudit._api.catalogs import Snapshot, Source, as_snapshot
from catalogaudit.diffing import DiffResult
from catalogaudit.errors import UsageError
from catalogaudit.model import Report

#: Formats whose results point at a file and line (the CLI's repository-relative paths).
_LOCATED = ("sarif", "github", "junit", "gitlab")


def render(
    report: Report | DiffResult | dict[str, Any],
    format: str = "text",
    *,
    fail_on: str | None = None,
    unknown: str = "fail",
    expand: bool = False,
    summary: bool = False,
    width: int = 100,
    max_chars: int | None = None,
    old: Snapshot | Source | None = None,
    new: Snapshot | Source | None = None,
) -> str:
    """`report` (from `audit`, `diff` or `stability`) as `audit`/`diff`/`stability --format
    FORMAT` prints it. `fail_on` is the verb's (`error` for an audit, `breaking` for a diff);
    `expand`, `summary` (diff) and `width` shape the text; `max_chars` bounds the Markdown. For
    a diff in SARIF, GitHub, JUnit or GitLab, give the `old` and `new` that `diff` was given:
    the results then point at the same file and line as the command line's."""
    from catalogaudit.formatters import DEFAULT_MAX_CHARS

    budget = max_chars or DEFAULT_MAX_CHARS
    if isinstance(report, Report):
        return _audit(report, format, fail_on or "error", expand, width, budget)
    if isinstance(report, DiffResult):
        return _diff(
            report, format, fail_on or "breaking", unknown, expand, summary, budget, (old, new)
        )
    if isinstance(report, dict) and report.get("kind") == "stability":
        from catalogaudit.formatters import StabilityFormat, render_stability

        return render_stability(report, _choice(StabilityFormat, format), max_chars=budget)
    raise UsageError("render takes a Report, a DiffReport or a stability report")


def _choice(enum: Any, value: str) -> Any:
    try:
        return enum(value)
    except ValueError:
        names = ", ".join(m.value for m in enum)
        raise UsageError(f"format must be one of {names}, not {value!r}") from None


def _audit(report: Report, fmt: str, fail_on: str, expand: bool, width: int, budget: int) -> str:
    from catalogaudit.formatters import OutputFormat, format_report
    from catalogaudit.verbs import git_repository

    chosen = _choice(OutputFormat, fmt)
    repo = git_repository() if fmt in _LOCATED else None
    return format_report(
        report, chosen, width=width, expand=expand, fail_on=fail_on, max_chars=budget, repo=repo
    )


def _diff(
    result: DiffResult,
    fmt: str,
    fail_on: str,
    unknown: str,
    expand: bool,
    summary: bool,
    budget: int,
    sides: tuple[Snapshot | Source | None, Snapshot | Source | None],
) -> str:
    from catalogaudit.formatters import DiffFormat, render_diff

    chosen = _choice(DiffFormat, fmt)
    file, line_of = None, None
    if fmt in _LOCATED and sides[0] is not None and sides[1] is not None:
        file, line_of = _located(sides[0], sides[1])
    return render_diff(
        result,
        chosen,
        fail_on,
        unknown,
        line_of,
        brief=summary,
        expand=expand,
        max_chars=budget,
        file=file,
    )


def _located(old: Snapshot | Source, new: Snapshot | Source) -> tuple[Any, Any]:
    """What `verbs.diff` points SARIF and annotations at, from the inputs `diff` was given."""
    from catalogaudit.diffing import sides_of
    from catalogaudit.verbs import pointed_at

    pairs = []
    specs = []
    for value in (old, new):
        s = as_snapshot(value)
        specs.append(s.name if isinstance(value, Snapshot) else str(value))
        side = sides_of(s.name, s.doc)[0][0]
        pairs.append((side, (s.text or "").encode("utf-8", "surrogatepass")))
    return pointed_at(specs[0], specs[1], pairs[0], pairs[1])
