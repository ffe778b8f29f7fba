"""The public API's judgements: `audit` (findings), `diff` (classified changes) and
`stability` (whether captures agree), each the result the CLI formats, before formatting.

Configuration files are not read: every option is an argument, so a library call means the
same wherever it runs. Selectors are checked as the CLI checks them (a typo is a `UsageError`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from catalogaudit._api.catalogs import Snapshot, Source, as_snapshot
from catalogaudit.diffing import DiffResult
from catalogaudit.errors import UsageError
from catalogaudit.model import Report

StabilityReport = dict[str, Any]


def _strings(value: str | Iterable[str], what: str) -> tuple[str, ...]:
    items = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(v, str) for v in items):
        raise UsageError(f"{what} must be strings")
    return tuple(p.strip() for v in items for p in v.split(",") if p.strip())


def audit(
    value: Snapshot | Source,
    profiles: str | Iterable[str] = (),
    *,
    settings: Mapping[str, str] | None = None,
    server_name: str | None = None,
    gateway_name: str | None = None,
    select: str | Iterable[str] = (),
    ignore: str | Iterable[str] = (),
    baseline: Source | None = None,
    revision: str | None = None,
    substitutions: str | None = None,
) -> Report:
    """Audit one catalog with the spec rules and the named profiles (default `spec`), as
    `catalogaudit audit FILE --profile ID ...` does: `.findings` are the findings it reports,
    `.exit_code(fail_on)` its exit code. The keywords are that verb's options
    (`--profile-setting`, `--server-name`, `--gateway-name`, `--select`, `--ignore`,
    `--baseline FILE`, `--revision`, `--substitutions`).
    """
    from catalogaudit.auditing import AuditOptions, read_baseline
    from catalogaudit.auditing import audit as run_audit

    s = as_snapshot(value)
    fingerprints: frozenset[str] = frozenset()
    if baseline is not None:
        path = os.fspath(baseline)
        try:
            with open(path, encoding="utf-8") as f:
                fingerprints = read_baseline(f.read(), str(path))
        except FileNotFoundError:
            raise UsageError(f"baseline {path}: no such file") from None
    if revision is not None:
        from catalogaudit.model import parse_protocol

        parse_protocol(revision)  # validates the name
    options = AuditOptions(
        profiles=(profiles,) if isinstance(profiles, str) else tuple(profiles),
        settings={str(k): str(v) for k, v in (settings or {}).items()},
        server_name=server_name,
        gateway_name=gateway_name,
        select=_selectors(_strings(select, "select"), "select"),
        ignore=_selectors(_strings(ignore, "ignore"), "ignore"),
        baseline=fingerprints,
    )
    catalog = s.catalog(revision)
    if substitutions is None:
        return run_audit(catalog, options)
    from catalogaudit.rewriting import audit_rewritten, parse

    report = audit_rewritten(catalog, parse(substitutions, "substitutions"), options)
    report.rewritten = True
    return report


def _selectors(patterns: tuple[str, ...], key: str) -> tuple[str, ...]:
    """As the CLI checks `--select`/`--ignore`: each pattern must name a rule or profile."""
    if not patterns:
        return ()
    from catalogaudit.auditing import checked_selectors
    from catalogaudit.profiles import rule_meta, valid_ids
    from catalogaudit.rules import spec_meta

    rules = {**spec_meta(), **{m.id: m for m in rule_meta()}}
    return checked_selectors(patterns, key, rules, valid_ids())


def _sides(values: Sequence[Snapshot | Source]) -> tuple[list[list[Any]], list[str]]:
    """Each input's sides (several for a `snapshot --runs N` file), labelled as the CLI labels
    them, and the notes it prints."""
    from catalogaudit.diffing import sides_of

    groups: list[list[Any]] = []
    notes: list[str] = []
    seen: dict[str, int] = {}
    for value in values:
        s = as_snapshot(value)
        seen[s.name] = seen.get(s.name, 0) + 1
        label = s.name if seen[s.name] == 1 else f"{s.name} ({seen[s.name]})"
        sides, more = sides_of(label, s.doc)
        groups.append(sides)
        # what the input held (`input: a tools/list result`), under the label the CLI uses
        notes.extend(label + n.removeprefix(s.name) for n in s.notes)
        notes.extend(more)
    return groups, notes


def diff(old: Snapshot | Source, new: Snapshot | Source) -> DiffResult:
    """Classify every change from `old` to `new`, as `catalogaudit diff OLD NEW` does: a
    `DiffReport` whose `.changes` carry a rule id (`CA8xx`) and a class (breaking, unknown,
    model-visible, additive, compatible, cosmetic), and `.exit_code(fail_on, unknown)`."""
    from catalogaudit.diffing import diff as run_diff

    (olds, news), notes = _sides([old, new])
    if len(olds) > 1 or len(news) > 1:
        notes.append("an input holds several runs of snapshot --runs; diff compares run 1")
    result = run_diff(olds[0], news[0])
    result.notes.extend(notes)
    from catalogaudit.verbs import bill_of

    result.prompt_cache = bill_of([olds[0], news[0]], None, changed_only=True)
    return result


def stability(*values: Snapshot | Source) -> StabilityReport:
    """Whether captures of one server agree, per listing and item (stable, bytes-only with the
    cause, or content), with the prompt-cache cost: the document
    `catalogaudit stability FILE... --format json` prints. One snapshot taken with `runs >= 2`,
    or several snapshots."""
    from catalogaudit.diffing import stability_report as report
    from catalogaudit.verify import client_prompts

    groups, notes = _sides(values)
    sides = [side for group in groups for side in group]
    if not sides or (len(sides) < 2 and not sides[0].lost_runs):
        raise UsageError(
            "stability needs two or more captures: several snapshots, or one taken with runs >= 2"
        )
    return report(sides, notes, client_prompts(sides))
