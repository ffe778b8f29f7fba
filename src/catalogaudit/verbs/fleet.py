"""`snapshot --servers FILE -o DIR`: every server of a client configuration (or registry
`server.json`), each captured on its own, into DIR with a manifest (`fleet.json`); and the
reading of such directories (one, or the shards of one fleet) for `audit DIR`.

Why one capture per server with its own clock and limits: a fleet holds servers that hang,
crash or need a credential that is not set, and each must fail only its own row. The captures
run in threads (`--jobs`): each is a child process or a socket, waited on, not computed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from catalogaudit.errors import CatalogauditError, InputError, UsageError
from catalogaudit.model import (
    EXIT_FINDINGS,
    EXIT_OK,
    MANIFEST,
    Server,
    file_names,
    fleet_id,
    parse_shard,
    shard_of,
    with_envelope,
)
from catalogaudit.verbs import live, output
from catalogaudit.verbs.live import SnapshotOptions

#: The manifest's `kind` (`model.envelope`; schema `formatters/schemas/fleet.schema.json`).
KIND = "fleet"


def snapshot_fleet(o: SnapshotOptions, servers: str, shard: str | None) -> int:
    """Capture every server `servers` names (or shard I/N of them) into the directory
    `o.output`; 0 when every server was captured, 1 when some row is an error (the others
    are written), 2 (raised) when the configuration cannot be read or DIR cannot be written."""
    from catalogaudit import intake

    if o.command or o.url or o.static_inputs:
        raise UsageError("--servers reads the servers from FILE; give no command, --url or --from")
    if o.output in ("", "-"):
        raise UsageError("--servers writes a directory: give -o DIR")
    if o.runs != 1:
        raise UsageError("--servers captures each server once; --runs is per server only")
    if o.contract:
        raise UsageError(
            "--expect-tool, --min-tools, ... assert one server's catalog: give them to "
            "`audit FILE` of that server's snapshot"
        )
    index, count = _shard(shard)
    fleet = intake.read_fleet(servers)
    names = [s.name for s in fleet.servers]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"{servers}: server names must be unique: {', '.join(twice)}")
    files = file_names(names)
    mine = set(shard_of(names, index, count))
    chosen = [s for s in fleet.servers if s.name in mine]
    out = Path(o.output)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"-o {o.output}: {exc.strerror}") from None
    output.say(fleet.notes)
    rows: list[dict[str, Any] | None] = [None] * len(chosen)

    def one(i: int) -> None:
        server = chosen[i]
        row = server.row()
        try:
            summary = _capture(o, server, str(out / files[server.name]))
            row |= {"file": files[server.name], "tools": summary}
            output.say([f"{server.name}: wrote {out / files[server.name]} ({summary} tools)"])
        except CatalogauditError as exc:
            row["error"] = str(exc)
            output.say([f"{server.name}: error: {exc}"])
        rows[i] = row

    from catalogaudit.verbs.snapshot import parallel

    parallel(one, len(chosen), o.jobs)
    kept = [r for r in rows if r is not None]
    manifest = with_envelope(
        KIND,
        {
            "source": os.path.basename(servers),
            "client": fleet.client,
            "fleet": fleet_id(names),
            "servers": len(names),
            "shard": f"{index}/{count}",
            "rows": sorted(kept, key=lambda r: r["name"]),
        },
    )
    output.write_atomic(str(out / MANIFEST), json.dumps(manifest, indent=2) + "\n")
    failed = [r["name"] for r in kept if "error" in r]
    shard_note = f" (shard {index}/{count} of {len(names)})" if count > 1 else ""
    output.say(
        [
            f"fleet: {len(kept) - len(failed)} of {len(kept)} server(s) captured{shard_note}; "
            f"wrote {out / MANIFEST}"
        ]
    )
    return EXIT_FINDINGS if failed else EXIT_OK


def _shard(shard: str | None) -> tuple[int, int]:
    if shard is None:
        return 1, 1
    try:
        return parse_shard(shard)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _capture(o: SnapshotOptions, server: Server, path: str) -> int:
    """One server, with its own deadline and byte budget; the number of tools written."""
    if server.problem:
        raise InputError(f"{server.where or server.name}: {server.problem}")
    mine = replace(
        o,
        command=server.command,
        url=server.url,
        transport="auto" if server.url is None or server.transport == "stdio" else server.transport,
        headers=tuple(f"{k}: {v}" for k, v in server.headers.items()),
        env=tuple(f"{k}={v}" for k, v in server.env.items()),
        cwd=server.cwd,
        startup_timeout=server.startup_timeout or o.startup_timeout,
        request_timeout=server.request_timeout or o.request_timeout,
        output=path,
    )
    from catalogaudit.snapshots import validate, write
    from catalogaudit.verbs.snapshot import check_readable_size

    doc = live.capture(mine, limits=live.limits_of(mine))
    problems = validate(doc)
    if problems:
        raise CatalogauditError(
            f"internal error: the snapshot does not match its schema: {problems[0]}"
        )
    output.emit_document(path, lambda fh: write(doc, fh), check_readable_size)
    tools = doc["listings"].get("tools", {})
    return len(tools.get("items", []))


@dataclass(frozen=True)
class Row:
    """One server of a fleet read back: its snapshot file (under its fleet directory) or error."""

    name: str
    file: str | None
    path: str | None
    error: str | None
    pointer: str


@dataclass(frozen=True)
class Read:
    """The fleet of one or more directories (the shards of one fleet, joined)."""

    rows: tuple[Row, ...]
    client: str
    notes: tuple[str, ...]


def read_fleet_dirs(dirs: tuple[str, ...]) -> Read:
    """Join the manifests of `dirs`: one fleet, whole or as every shard of it exactly once."""
    manifests = [(d, _manifest(d)) for d in dirs]
    ids = {m["fleet"] for _, m in manifests}
    if len(ids) > 1:
        raise UsageError(
            "these directories hold different fleets (their servers differ): "
            + ", ".join(d for d, _ in manifests)
        )
    shards = [str(m.get("shard", "1/1")) for _, m in manifests]
    count = int(shards[0].split("/")[1])
    notes: list[str] = []
    if len(dirs) > 1 or count > 1:
        want = {f"{i}/{count}" for i in range(1, count + 1)}
        if sorted(shards) != sorted(want) and len(dirs) > 1:
            raise UsageError(
                f"the shards given are {', '.join(sorted(shards))}; a fleet of {count} shard(s) "
                "is joined from each shard exactly once"
            )
        if len(dirs) == 1:
            notes.append(
                f"{dirs[0]} is shard {shards[0]} of its fleet: the fleet rules judge its servers "
                "alone (give every shard's directory to judge the whole fleet)"
            )
    rows: list[Row] = []
    seen: set[str] = set()
    for d, m in manifests:
        for i, raw in enumerate(m["rows"]):
            name = str(raw["name"])
            if name in seen:
                raise UsageError(f"server {name!r} is in more than one shard")
            seen.add(name)
            file = raw.get("file")
            path = os.path.join(d, file) if isinstance(file, str) else None
            error = None if path else str(raw.get("error", "not captured"))
            rows.append(Row(name, file if path else None, path, error, f"/rows/{i}"))
    rows.sort(key=lambda r: r.name)
    # NOTE: pointers are into the joined manifest, in name order, the same for any split.
    rows = [replace(r, pointer=f"/rows/{i}") for i, r in enumerate(rows)]
    return Read(tuple(rows), str(manifests[0][1].get("client", "")), tuple(notes))


def _manifest(d: str) -> dict[str, Any]:
    path = os.path.join(d, MANIFEST)
    try:
        with open(path, "rb") as fh:
            doc = json.loads(fh.read(16 * 1024 * 1024))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot be read as a fleet manifest ({exc})") from None
    if (
        not isinstance(doc, dict)
        or doc.get("kind") != KIND
        or not isinstance(doc.get("rows"), list)
        or not all(isinstance(r, dict) and isinstance(r.get("name"), str) for r in doc["rows"])
    ):
        raise InputError(f"{path}: not a fleet manifest (snapshot --servers writes one)")
    return doc


__all__ = ["Read", "Row", "read_fleet_dirs", "snapshot_fleet"]
