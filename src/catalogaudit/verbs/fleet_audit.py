"""`audit DIR [DIR...]`: a fleet's report, per server and per client.

Each server's snapshot is audited as `audit FILE --server-name NAME` would (the name its
configuration gives it, which qualified-name rules need); then the fleet rules judge every
server together for each client (`auditing.fleet`). Rows and findings are in server-name order
and sources are named relative to the fleet directory (`memory.snapshot.json`, `fleet.json`), so
the shards of a fleet joined give the report the whole fleet gives.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from catalogaudit import intake
from catalogaudit.auditing import (
    AuditOptions,
    FleetClient,
    FleetMember,
    audit,
    fleet_client,
    fleet_findings,
    fleet_tools,
    selected,
)
from catalogaudit.errors import UsageError
from catalogaudit.model import MANIFEST, Report
from catalogaudit.verbs import fanout, output
from catalogaudit.verbs.files import catalog_of
from catalogaudit.verbs.fleet import Row, read_fleet_dirs


def special(
    inputs: tuple[str, ...],
    live: bool,
    other: bool,
    options: AuditOptions,
    revision: str | None,
    regions: bool,
    jobs: int = 0,
) -> list[Report] | None:
    """The reports of inputs that are no catalogs: fleet directories (`snapshot --servers`)
    or registry `server.json` files; None for catalogs. `live` and `other` (`--matrix`,
    `--suggest`, `--substitutions`) apply to catalogs only."""
    from catalogaudit.verbs import serverjson

    for test, run in (
        (intake.is_fleet, lambda: audit_fleet(inputs, options, revision, regions, jobs)),
        (intake.is_server_json, lambda: serverjson.audit(inputs, options)),
    ):
        hits = [i for i in inputs if test(i)]
        if not hits:
            continue
        if len(hits) != len(inputs) or live:
            raise UsageError(
                "fleet directories and server.json files are audited alone, not with "
                "catalogs or a live server"
            )
        if other:
            raise UsageError("--matrix, --suggest and --substitutions audit catalogs")
        return run()
    return None


#: The profile of a configuration's own client, where its id is not the client's.
_OWN_PROFILE = {"vscode": "vscode-copilot"}


def per_server(options: AuditOptions, client: str) -> tuple[AuditOptions, str | None]:
    """Without `--profile`, each server is judged by spec and the profile of the client whose
    configuration named it (the client that will run it), when one exists; else as asked."""
    from catalogaudit.profiles import load_all

    own = _OWN_PROFILE.get(client, client)
    if options.profiles or own not in load_all():
        return options, None
    return replace(options, profiles=("spec", own)), own


def clients(options: AuditOptions) -> list[FleetClient]:
    """The clients the fleet rules judge for: the `--profile`s that have fleet facts, else
    every profile that has some (naming or a tool-count limit)."""
    from catalogaudit.profiles import load_all

    asked = [p for p in options.profiles if p != "spec"]
    specs = asked or sorted(load_all())
    found = [fleet_client(s, options.settings) for s in specs]
    return [c for c in found if c is not None]


def audit_fleet(
    dirs: tuple[str, ...],
    options: AuditOptions,
    revision: str | None,
    regions: bool,
    jobs: int = 0,
) -> list[Report]:
    """Every server's report, in name order, then the fleet's (its findings, rules, notes).
    Servers are read and audited one at a time, in `jobs` worker processes (`verbs.fanout`);
    what the fleet rules need of each (its tools) is all that is kept."""
    read = read_fleet_dirs(dirs)
    options_each, own = per_server(options, read.client)
    captured = [r for r in read.rows if r.path is not None and r.file is not None]

    def work(row: Row) -> tuple[Report, tuple[dict[str, Any], ...], tuple[str, ...]]:
        assert row.path is not None and row.file is not None
        got = intake.read_catalog(row.path, protocol=revision or "auto")
        catalog = catalog_of(got, row.file, revision, None, regions)
        each = options_each
        named = each if each.server_name else replace(each, server_name=row.name)
        return audit(catalog, named), fleet_tools(catalog), got.warnings

    workers = fanout.workers(jobs, [r.file or "" for r in captured])
    done = fanout.fan_out(work, captured, workers) if workers > 1 else map(work, captured)
    by_name = {row.name: result for row, result in zip(captured, done, strict=True)}
    members: list[FleetMember] = []
    reports: list[Report] = []
    for row in read.rows:
        if row.name not in by_name:
            members.append(FleetMember(row.name, None, row.error, row.pointer))
            continue
        report, tools, warnings = by_name[row.name]
        output.say(warnings)
        reports.append(report)
        members.append(FleetMember(row.name, tools, None, row.pointer))
    judged = clients(options)
    found, metas = fleet_findings(members, judged, MANIFEST)
    fleet = Report(inputs=[MANIFEST], rules=metas, profiles=[c.label for c in judged])
    fleet.revision = reports[0].revision if reports else ""
    fleet.notes.extend(read.notes)
    if own:
        fleet.notes.append(
            f"fleet: each server judged by spec and {own}, the profile of the configuration's "
            "client (--profile to choose)"
        )
    fleet.notes.append(
        f"fleet: {len(read.rows)} server(s) from {read.client or 'a configuration'}; fleet rules "
        f"for {', '.join(c.label for c in judged) or 'no client'}"
    )
    fleet.baseline_matched = {f.fingerprint for f in found} & options.baseline
    kept = [f for f in found if selected(f, metas, options.select, options.ignore)]
    fleet.findings = [f for f in kept if f.fingerprint not in options.baseline]
    fleet.suppressed = len(kept) - len(fleet.findings)
    return [*reports, fleet]


__all__ = ["audit_fleet", "clients", "per_server"]
