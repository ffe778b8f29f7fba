"""Many input files audited one at a time, and their snapshot files in worker processes.

Why here: `verbs.audit` decides whether a run can stream its inputs (a plain offline audit of
several files); this module reads, audits and drops them one by one, so 500 files hold one
file's document at a time, and with `--jobs` (`verbs.fanout`) the snapshot files are audited
in parallel with the same reports, in the same order.
"""

from __future__ import annotations

import gc

from catalogaudit import intake
from catalogaudit.auditing import AuditOptions, audit
from catalogaudit.model import Catalog, Report, decode_utf8
from catalogaudit.verbs import fanout, output


def catalog_of(
    got: intake.Intake, source: str, revision: str | None, raw_spec: str | None, regions: bool
) -> Catalog:
    """One input as a catalog: its spec (for repository paths) and, with `regions`, a raw
    list's text (for its findings' lines)."""
    return Catalog(
        got.doc,
        source=source,
        text=got.text,
        revision_override=revision,
        spec=got.spec if got.is_snapshot else raw_spec,
        raw=None if got.is_snapshot or not regions or not got.data else decode_utf8(got.data)[0],
    )


def audit_files(
    inputs: tuple[str, ...],
    revision: str | None,
    options: AuditOptions,
    regions: bool,
    jobs: int = 0,
) -> tuple[list[Report], dict[str, str]]:
    """The plain offline audit of several inputs, one file at a time (read, audit, drop):
    the reports in input order and each catalog's spec by source (for repository paths).
    Snapshot files are audited in `jobs` worker processes (`verbs.fanout`); raw inputs are
    merged into one catalog, last. Warnings are printed after the last file is read, as
    `verbs.audit.catalogs` prints them."""
    warnings: list[str] = []
    reports = []
    specs: dict[str, str] = {}
    snapshots: set[str] = set()
    rest = inputs
    jobs = fanout.workers(jobs, inputs)
    if jobs > 1:

        def work(spec: str) -> _Audited | None:
            return _audited(spec, revision, options, regions)

        rest = ()
        for spec, done in zip(inputs, fanout.fan_out(work, inputs, jobs), strict=True):
            if done is None:  # a raw input: merged with the others below, as in one process
                rest += (spec,)
                continue
            report, said, source, where = done
            snapshots.add(spec)
            warnings.extend(said)
            if where:
                specs[source] = where
            reports.append(report)
    read = intake.read_catalogs(rest, protocol=revision or "auto", hashed=False, raw=regions)
    for got in read:
        warnings.extend(got.warnings)
        source = intake.display_name(got.spec) if got.is_snapshot else got.name
        raw_spec = None
        if got.is_snapshot:
            snapshots.add(got.spec)
        else:  # the merged raw lists come last, after every snapshot has been seen
            raw = [spec for spec in inputs if spec not in snapshots]
            raw_spec = raw[0] if len(raw) == 1 else None
        catalog = catalog_of(got, source, revision, raw_spec, regions)
        del got
        settled()
        if catalog.spec:
            specs[catalog.source] = catalog.spec
        reports.append(audit(catalog, options))
        del catalog
    output.say(warnings)
    return reports, specs


#: One snapshot file audited by a worker: its report, warnings, source and spec.
_Audited = tuple[Report, tuple[str, ...], str, str | None]


def _audited(
    spec: str, revision: str | None, options: AuditOptions, regions: bool
) -> _Audited | None:
    """One input read and audited as the loop of `audit_files` does; None for a raw input
    (not a snapshot), which the process that asked merges with the other raw inputs."""
    got = intake.read_snapshot(spec, protocol=revision or "auto")
    if got is None:
        return None
    said = got.warnings
    catalog = catalog_of(got, intake.display_name(spec), revision, None, regions)
    del got
    settled()
    return audit(catalog, options), said, catalog.source, catalog.spec


def settled() -> None:
    """Exempt what is alive now (the catalogs just read) from the cyclic GC's collections.

    NOTE: parsed JSON holds no cycles, so only reference counting ever frees it, yet every
    full collection walked all of it, and the first ones after the paused parse walked it
    again. The process ends after the command
    (`cli.entry` freezes the heap then too); cycles made later are still collected."""
    gc.freeze()
