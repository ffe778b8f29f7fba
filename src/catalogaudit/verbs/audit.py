"""Entry points behind `catalogaudit audit` and `catalogaudit rules`: options in, exit code out."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from catalogaudit import intake
from catalogaudit.auditing import AuditOptions, audit, read_baseline
from catalogaudit.auditing import profile_matrix as matrix
from catalogaudit.canonical import gc_paused
from catalogaudit.errors import UsageError
from catalogaudit.formatters import DEFAULT_MAX_CHARS, RulesFormat, format_rules
from catalogaudit.model import EXIT_ERROR, EXIT_OK, Catalog, Report
from catalogaudit.verbs import config as cfg
from catalogaudit.verbs import contract, files, live, output, terminal
from catalogaudit.verbs.config import parse_settings
from catalogaudit.verbs.files import catalog_of
from catalogaudit.verbs.live import SnapshotOptions

FAIL_ON = ("error", "warning", "info", "never")


@dataclass(frozen=True)
class AuditRunOptions:
    """Everything `catalogaudit audit` was asked to do (None: take it from configuration)."""

    inputs: tuple[str, ...] = ()
    live: bool = False
    snapshot: SnapshotOptions = field(default_factory=SnapshotOptions)
    profiles: tuple[str, ...] = ()
    profile_settings: tuple[str, ...] = ()
    server_name: str | None = None
    gateway_name: str | None = None
    revision: str | None = None
    output_format: str | None = None
    output: str = "-"
    fail_on: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    baseline: str | None = None
    write_baseline: str | None = None
    show_matrix: bool = False
    config: str | None = None
    color: str = "auto"
    #: `--substitutions`: audit as if rewritten (issue 5); `--substitutions-from-env` reads
    #: CATALOGAUDIT_SUBSTITUTIONS instead; `--suggest` proposes a list and proves it.
    substitutions: str | None = None
    substitutions_from_env: bool = False
    suggest: bool = False
    #: `--expect-tool`, `--forbid-tool`, `--min-tools`, ...: keyed like `verbs.contract.KEYS`.
    contract: dict[str, Any] = field(default_factory=dict)
    #: `--strict-baseline`: a baseline entry that matches nothing fails the run (CA920).
    strict_baseline: bool = False
    #: `--expand`: one block per finding in the text format (no folding).
    expand: bool = False
    #: `--max-chars`: the Markdown's budget (None: `formatters.md.DEFAULT_MAX_CHARS`).
    max_chars: int | None = None
    #: `--jobs`: processes for many files or a big catalog's rules (0: one per CPU;
    #: `verbs.fanout`).
    jobs: int = 0


def catalogs(o: AuditRunOptions, revision: str | None, *, regions: bool = False) -> list[Catalog]:
    """Snapshot files audited one by one; other inputs merged into one catalog; or a live run.

    `regions`: one raw list input keeps its text, so findings get its lines and columns (the
    SARIF, GitHub, JUnit and GitLab formats; the scan is not worth it for the others)."""
    if o.live or o.snapshot.url:
        # NOTE: a live audit asks whether a 2026-07-28 server also answers a legacy
        # initialize, so initialize-only clients' profiles can say (`handshake`).
        doc = live.capture(replace(o.snapshot, legacy_probe=True), wire=True, legacy_pages=False)
        return [Catalog(doc, source="<live>", revision_override=revision)]
    if not o.inputs:
        raise UsageError("give snapshot files to audit, or --live -- CMD, or --url URL")
    # NOTE: a plain audit reads no hash; --matrix runs profiles, --suggest rewrites.
    plain = not (o.show_matrix or o.suggest or o.substitutions or o.substitutions_from_env)
    found = list(
        intake.read_catalogs(o.inputs, protocol=revision or "auto", hashed=not plain, raw=regions)
    )
    output.say(w for got in found for w in got.warnings)
    # NOTE: two snapshots outside the current directory may share a file name; their
    # findings must not merge under one heading.
    names = intake.display_names([got.spec for got in found if got.is_snapshot])
    sources = iter(names)
    snapshots = {got.spec for got in found if got.is_snapshot}
    raw = [spec for spec in o.inputs if spec not in snapshots]
    # NOTE: one raw list is named by its path; several merged ones have no single path.
    raw_spec = raw[0] if len(raw) == 1 else None
    return [
        catalog_of(got, next(sources) if got.is_snapshot else got.name, revision, raw_spec, regions)
        for got in found
    ]


def _streamed(
    o: AuditRunOptions, revision: str | None, options: AuditOptions, regions: bool
) -> tuple[list[Report], dict[str, str]] | None:
    """The plain offline audit of several inputs, one file at a time (`verbs.files`); or
    None where `catalogs` must hold them all (live, --matrix, --suggest, or two inputs whose
    display names clash: `display_names` then depends on which inputs are snapshots)."""
    if o.live or o.snapshot.url or o.show_matrix or o.suggest or len(o.inputs) < 2:
        return None
    names = [intake.display_name(s) for s in o.inputs]
    if intake.display_names(list(o.inputs)) != names:
        return None
    return files.audit_files(o.inputs, revision, options, regions, o.jobs)


@dataclass(frozen=True)
class Configured:
    """The audit the options and the configuration ask for (`audit` and `ci` alike)."""

    options: AuditOptions
    fail_on: str
    #: The baseline file, its text and `--strict-baseline` (CA920 for stale entries).
    baseline_file: str | None = None
    baseline_text: str = ""
    strict: bool = False

    def finish(self, report: Report) -> None:
        """What comes after the audit: CA920 for stale baseline entries when strict."""
        if self.strict and self.baseline_file:
            _strict_baseline(report, self.options.baseline, self.baseline_text, self.baseline_file)


def configured(o: AuditRunOptions, conf: dict[str, Any]) -> Configured:
    """The options win over the configuration table `conf`, key by key."""
    fail_on = o.fail_on or conf.get("fail-on", "error")
    if fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    settings = {str(k): str(v) for k, v in (conf.get("profile-settings") or {}).items()}
    settings.update(parse_settings(o.profile_settings))
    baseline_file = o.baseline or conf.get("baseline")
    baseline: frozenset[str] = frozenset()
    baseline_text = ""
    if baseline_file:
        try:
            baseline_text = Path(baseline_file).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise UsageError(f"--baseline {baseline_file}: no such file") from None
        baseline = read_baseline(baseline_text, baseline_file)
    strict = o.strict_baseline or conf.get("strict-baseline") is True
    if strict and not baseline_file:
        raise UsageError("--strict-baseline needs a baseline (--baseline FILE or config baseline)")
    options = AuditOptions(
        profiles=tuple(o.profiles) or tuple(cfg.configured_profiles(conf)),
        settings=settings,
        server_name=o.server_name or conf.get("server-name"),
        gateway_name=o.gateway_name or conf.get("gateway-name"),
        select=_selectors(_split(o.select), conf, "select"),
        ignore=_selectors(_split(o.ignore), conf, "ignore"),
        baseline=baseline,
        contract=contract.resolve(o.contract, conf),
    )
    return Configured(options, fail_on, baseline_file, baseline_text, strict)


def run(o: AuditRunOptions) -> int:
    """Audit, format, write, and return the exit code the report computes."""
    conf, _ = cfg.load(o.config)
    setup = configured(o, conf)
    options, fail_on = setup.options, setup.fail_on
    revision = o.revision or conf.get("revision")
    if revision is not None:
        from catalogaudit.model import parse_protocol

        parse_protocol(revision)  # validates the name
    fmt = o.output_format or conf.get("format", "text")
    color = terminal.color(o.color, o.output)
    width = terminal.width(o.output)
    from catalogaudit.formatters import OutputFormat, format_report
    from catalogaudit.verbs.repository import repository

    try:
        output_format = OutputFormat(fmt)
    except ValueError:
        names = ", ".join(m.value for m in OutputFormat)
        raise UsageError(f"--format must be one of {names}, not {fmt!r}") from None
    if not o.inputs and not o.live and not o.snapshot.url and conf.get("snapshot"):
        o = replace(o, inputs=(str(conf["snapshot"]),))  # the hook's committed snapshot
    subs = _substitutions(o)
    ci = output_format in (
        OutputFormat.SARIF,
        OutputFormat.GITHUB,
        OutputFormat.JUNIT,
        OutputFormat.GITLAB,
    )
    other = o.show_matrix or o.suggest or subs is not None
    live = o.live or bool(o.snapshot.url)
    fleet = None
    if any(intake.is_fleet(i) or intake.is_server_json(i) for i in o.inputs):
        from catalogaudit.verbs.fleet_audit import special  # NOTE: not on a catalog's path

        fleet = special(o.inputs, live, other, options, revision, ci, o.jobs)
    streamed = _streamed(o, revision, options, ci) if subs is None and fleet is None else None
    if fleet is not None:
        found: list[Catalog] = []
        specs: dict[str, str] = {}
        reports = fleet
    elif streamed is not None:
        found = []
        reports, specs = streamed
    else:
        with gc_paused():
            found = catalogs(o, revision, regions=ci)
        specs = {c.source: c.spec for c in found if c.spec}
    if o.show_matrix:
        return _matrix(
            found, options, output_format, o.output, color, width, o.max_chars or DEFAULT_MAX_CHARS
        )
    if o.suggest:
        return _suggest(found, options, output_format.value, o.output, fail_on)
    if subs is not None:
        from catalogaudit.rewriting import audit_rewritten

        reports = [audit_rewritten(c, subs, options) for c in found]
    elif streamed is None and fleet is None:
        with gc_paused():
            reports = [audit(c, options) for c in found]
    report = _merge(reports)
    report.rewritten = subs is not None
    setup.finish(report)
    with gc_paused():  # NOTE: a report's documents make a container per finding, no cycle
        text = format_report(
            report,
            output_format,
            color=color,
            width=width,
            expand=o.expand,
            fail_on=fail_on,
            max_chars=o.max_chars or DEFAULT_MAX_CHARS,
            repo=repository(specs) if ci else None,
        )
    _emit(o.output, text, styled=color)
    if o.write_baseline:
        from catalogaudit.auditing import write_baseline
        from catalogaudit.verbs.output import write_atomic

        write_atomic(o.write_baseline, write_baseline(report))
    if output_format is not OutputFormat.TEXT:
        _summary(report)
    return report.exit_code(fail_on)


def _strict_baseline(report: Report, baseline: frozenset[str], text: str, file: str) -> None:
    """`--strict-baseline`: a CA920 finding for each entry that no finding of any input
    matched (after the merge: an entry may belong to another input of the same run)."""
    from catalogaudit.auditing import stale_findings
    from catalogaudit.rules import CONTRACT_RULES

    ran = set(report.rules)
    stale, notes = stale_findings(text, baseline, report.baseline_matched, ran, file)
    report.findings.extend(stale)
    report.notes.extend(notes)
    report.rules["CA920"] = CONTRACT_RULES["CA920"]


def _substitutions(o: AuditRunOptions) -> Any:
    """Parsed `--substitutions` (or the environment with `--substitutions-from-env`)."""
    if o.substitutions is None and not o.substitutions_from_env:
        return None
    import os

    from catalogaudit.rewriting import resolve

    if o.suggest or o.show_matrix:
        raise UsageError("--substitutions cannot be combined with --suggest or --matrix")
    environ = os.environ if o.substitutions_from_env else None
    return resolve(o.substitutions, environ, env_flag="--substitutions-from-env")


def _suggest(
    found: list[Catalog], options: AuditOptions, fmt: str, output: str, fail_on: str
) -> int:
    """`--suggest`: one proven proposal per catalog; the exit code is the rewritten audit's."""
    import json

    from catalogaudit.formatters import documents, render_text
    from catalogaudit.rewriting import suggest_substitutions as suggest

    results = [suggest(c, options) for c in found]
    if fmt == "json":
        _emit(output, json.dumps(documents(results), indent=2, sort_keys=True))
    else:
        width = terminal.width(output)
        _emit(output, "".join(render_text(r, width=width) for r in results))
    return max(r.after.exit_code(fail_on) for r in results)


def _selectors(given: tuple[str, ...], conf: dict[str, Any], key: str) -> tuple[str, ...]:
    """`--select`/`--ignore` (else the configured list), every pattern checked against the rules
    and profiles that exist."""
    patterns = given or tuple(cfg.as_list(conf.get(key)))
    if not patterns:
        return ()
    from catalogaudit.auditing import checked_selectors
    from catalogaudit.profiles import rule_meta, valid_ids  # lazy: the hook's path needs none
    from catalogaudit.rules import spec_meta

    rules = {**spec_meta(), **{m.id: m for m in rule_meta()}}
    option = f"--{key}" if given else f"config {key}"
    return checked_selectors(patterns, option, rules, valid_ids())


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p.strip() for v in values for p in v.split(",") if p.strip())


def _merge(reports: list[Report]) -> Report:
    if len(reports) == 1:
        return reports[0]
    merged = Report()
    for r in reports:
        merged.findings.extend(r.findings)
        merged.rule_errors.extend(r.rule_errors)
        merged.notes.extend(n for n in r.notes if n not in merged.notes)
        merged.inputs.extend(r.inputs)
        merged.rules.update(r.rules)
        merged.suppressed += r.suppressed
        merged.baseline_matched |= r.baseline_matched
        merged.profiles.extend(p for p in r.profiles if p not in merged.profiles)
        merged.revision_assumed = merged.revision_assumed or r.revision_assumed
    merged.revision = ", ".join(sorted({r.revision for r in reports}))
    return merged


def _matrix(
    found: list[Catalog],
    options: AuditOptions,
    fmt: Any,
    output: str,
    color: bool,
    width: int,
    max_chars: int,
) -> int:
    from catalogaudit.formatters import MATRIX_FORMATS, format_matrix
    from catalogaudit.profiles import profile_summaries
    from catalogaudit.verbs.output import say  # NOTE: `output` here is the report's path

    if fmt not in MATRIX_FORMATS:
        names = ", ".join(f.value for f in MATRIX_FORMATS)
        raise UsageError(f"--matrix supports --format {names}")
    specs = options.profiles or ("spec", *(p.id for p in profile_summaries()))
    rows = [row for c in found for row in matrix(c, specs, options)]
    _emit(
        output,
        format_matrix(rows, fmt, color=color, width=width, max_chars=max_chars),
        styled=color,
    )
    # NOTE: a crashed rule's findings are missing from its row: said, and exit 2, as `audit`
    crashed = [
        f"{e.rule_id} crashed under {r.profile}: {e.error}" for r in rows for e in r.rule_errors
    ]
    if crashed:
        say(f"error: {line}" for line in crashed)
        return EXIT_ERROR
    return EXIT_OK if all(r.passed for r in rows) else 1


def _emit(path: str, text: str, *, styled: bool = False) -> None:
    output.emit(path, text if text.endswith("\n") else text + "\n", styled=styled)


def _summary(report: Report) -> None:
    c = report.counts()
    line = f"{c['error']} error(s), {c['warning']} warning(s), {c['info']} info"
    if report.suppressed:
        line += f", {report.suppressed} suppressed by the baseline"
    if report.rule_errors:
        line += f"; {len(report.rule_errors)} rule(s) crashed: " + ", ".join(
            e.rule_id for e in report.rule_errors
        )
    output.say([line])


def rules_listing(fmt: RulesFormat) -> int:
    """`catalogaudit rules`: print every rule with its origin, severity, summary and source."""
    from catalogaudit.profiles import rule_meta
    from catalogaudit.rules import spec_meta

    metas = [*spec_meta().values(), *rule_meta()]
    metas.sort(key=lambda m: (m.origin != "spec", m.origin, m.id))
    color = terminal.color("auto", "-")
    text = format_rules(metas, fmt, color=color, width=terminal.width("-"))
    output.emit("-", text, styled=color)
    return EXIT_OK if metas else EXIT_ERROR
