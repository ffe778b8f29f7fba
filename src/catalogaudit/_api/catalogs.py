"""The public API's catalogs: read one (`load`), capture one (`snapshot`), and what a catalog
gives without judging it (`canonicalize`, `hashes`, `rewrite`).

Every function goes through the same single homes as the command line (`intake`, `verbs.live`,
`snapshots.rehash`), so a catalog loaded here is the document `catalogaudit audit FILE` audits.
Nothing here prints, reads configuration or writes a file: what the CLI says on stderr is on
the `Snapshot` (`warnings`, `notes`).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from catalogaudit import intake
from catalogaudit.errors import CatalogauditError, InputError, UsageError
from catalogaudit.model import LISTINGS, Catalog
from catalogaudit.snapshots import hash_document, merge_runs, rehash_snapshot, render, validate

#: A catalog input as the CLI takes it: a path, `-` (stdin) or `git:REF:PATH`.
Source = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One catalog as a snapshot document (`snapshot.schema.json`), and where it came from.

    `doc` is the document itself: for a snapshot file whose readable items disagree with its
    `wire` section, the wire copy (as every verb reads it, and `warnings` says so).
    """

    doc: dict[str, Any]
    #: The input's name in reports and messages (no absolute paths), or `<live>`.
    name: str
    #: snapshot | list-result | jsonrpc-response | jsonl | merged | live | derived
    form: str
    #: The file's text, when it was a snapshot file (findings then carry line and column).
    text: str | None = field(default=None, repr=False)
    #: What the CLI prints on stderr for this input: `warning: ...` lines, then notes.
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def catalog_hashes(self) -> dict[str, str]:
        """The catalog's served, prompt and canonical hashes, as recorded in the document."""
        return dict(self.doc.get("hashes") or {})

    def items(self, listing: str) -> list[Any]:
        """The readable items of one listing (`tools`, `prompts`, `resources`,
        `resourceTemplates`); `[]` when the listing is absent."""
        if listing not in LISTINGS:
            raise UsageError(f"listing must be one of {', '.join(LISTINGS)}, not {listing!r}")
        rec = (self.doc.get("listings") or {}).get(listing) or {}
        return list(rec.get("items") or [])

    def dumps(self) -> str:
        """The one written form (what `catalogaudit snapshot` writes), of the document as is;
        `canonicalize(snapshot)` recomputes the hashes first."""
        return render(self.doc)

    def catalog(self, revision: str | None = None) -> Catalog:
        """The catalog under audit over this document (internal vocabulary; not re-exported)."""
        return Catalog(self.doc, source=self.name, text=self.text, revision_override=revision)


def _spec(source: Source) -> str:
    spec = os.fspath(source)
    if not isinstance(spec, str):
        raise UsageError(f"a catalog input is a path or a string, not {type(spec).__name__}")
    return spec


def load(source: Source | Sequence[Source], *, protocol: str = "auto") -> Snapshot:
    """Read any catalog input the CLI takes: a snapshot file, a raw list result
    (`{"tools": [...]}`), a JSON-RPC response line, a JSON-Lines capture, `-` (stdin) or
    `git:REF:PATH`. A list of inputs (one per listing) is merged into one static snapshot, as
    `snapshot --from A --from B` does. `protocol` is the revision of inputs that do not say it.
    """
    if isinstance(source, (str, os.PathLike)):
        spec = _spec(source)
        (got,) = intake.read_catalogs([spec], protocol=protocol)
        name = intake.display_names([spec])[0] if got.is_snapshot else got.name
        return Snapshot(got.doc, name, got.form, got.text, got.warnings, got.said)
    specs = [_spec(s) for s in source]
    if not specs:
        raise UsageError("load needs at least one input")
    if len(specs) == 1:
        return load(specs[0], protocol=protocol)
    got = intake.read_merged(specs, protocol=protocol)
    return Snapshot(got.doc, got.name, got.form, None, got.warnings, got.said)


def as_snapshot(value: Snapshot | Source) -> Snapshot:
    """A `Snapshot` as is, or any input `load` reads."""
    return value if isinstance(value, Snapshot) else load(value)


def snapshot(
    command: Sequence[str] | str | None = None,
    url: str | None = None,
    *,
    transport: str = "auto",
    headers: Mapping[str, str] | Sequence[str] = (),
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    protocol: str = "auto",
    client_capabilities: str = "none",
    runs: int = 1,
    jobs: int = 1,
    timeout: float = 300.0,
    startup_timeout: float = 30.0,
    request_timeout: float = 30.0,
    max_pages: int = 1000,
    max_message_size: int = 64 * 1024 * 1024,
    wire: bool = True,
    legacy_probe: bool = False,
) -> Snapshot:
    """Capture a live server, as `catalogaudit snapshot -- COMMAND` (stdio) or `--url URL`
    (Streamable HTTP, or HTTP+SSE: `transport`) does; the keywords are that verb's options. A
    header value `env:VAR` is read from the environment; header and `env` values never reach
    the document.

    With `runs > 1` the server is started `runs` times (`jobs` at once) and the document
    records whether the catalog was identical (`doc["capture"]["runs"]["stable"]`).
    """
    from catalogaudit.model import client_capabilities as parse_caps
    from catalogaudit.model import parse_protocol
    from catalogaudit.verbs import SnapshotOptions, capture, limits_of, target_of

    argv = tuple(shlex.split(command) if isinstance(command, str) else command or ())
    if isinstance(headers, Mapping):
        headers = [f"{k}: {v}" for k, v in headers.items()]
    options = SnapshotOptions(
        command=argv,
        url=url,
        transport=transport,
        headers=tuple(headers),
        cwd=cwd,
        env=tuple(f"{k}={v}" for k, v in (env or {}).items()),
        protocol=protocol,
        client_capabilities=client_capabilities,
        runs=runs,
        jobs=jobs,
        timeout=timeout,
        startup_timeout=startup_timeout,
        request_timeout=request_timeout,
        max_pages=max_pages,
        max_message_size=max_message_size,
        wire=wire,
        legacy_probe=legacy_probe,
    )
    parse_protocol(protocol)  # option errors before any server starts
    parse_caps(client_capabilities)
    target_of(options)
    limits_of(options)
    if runs < 1 or jobs < 1:
        raise UsageError("runs and jobs must be at least 1")
    if runs == 1:
        doc = capture(options)
    else:
        doc = merge_runs(_runs(options), restarts=url is None, wire=wire)
    problems = validate(doc)
    if problems:  # pragma: no cover - the builder writes the schema it publishes
        raise CatalogauditError(
            f"internal error: the snapshot does not match its schema: {problems[0]}"
        )
    return Snapshot(doc, "<live>", "live")


def _runs(options: Any) -> list[dict[str, Any]]:
    from concurrent.futures import ThreadPoolExecutor

    from catalogaudit.verbs import capture

    if options.jobs == 1:
        return [capture(options) for _ in range(options.runs)]
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = [pool.submit(capture, options) for _ in range(options.runs)]
        return [f.result() for f in futures]


def _rehashed(s: Snapshot) -> dict[str, Any]:
    """The document with every listing rebuilt and every hash recomputed, as `canonicalize`
    and `hash` compute it (inputs that were not snapshot files are built fresh already)."""
    if s.form not in ("snapshot", "derived"):
        return s.doc
    return rehash_snapshot(s.doc, s.name).doc


def canonicalize(value: Snapshot | Source) -> str:
    """The written form with every hash recomputed: what `catalogaudit canonicalize FILE`
    prints, byte for byte."""
    s = as_snapshot(value)
    doc = _rehashed(s)
    problems = validate(doc)
    if problems:
        raise InputError(f"{s.name}: not a valid catalogaudit snapshot: {problems[0]}")
    return render(doc)


def hashes(value: Snapshot | Source) -> dict[str, Any]:
    """The served, prompt and canonical hashes of the catalog, each listing and each item,
    recomputed: the document `catalogaudit hash FILE --format json` prints."""
    s = as_snapshot(value)
    return hash_document(s.name, _rehashed(s))


def rewrite(
    value: Snapshot | Source,
    substitutions: str | None = None,
    *,
    fixes: Sequence[str] = (),
) -> Snapshot:
    """The derived catalog `catalogaudit rewrite --substitutions TEXT --fix NAME` writes:
    prose substitutions (the `GITLAB_MCP_DESCRIPTION_SUBSTITUTIONS` grammar), then the named
    profile fixes (`codex-app`, `cache-hints`). Audit the result to see what it cleared."""
    from catalogaudit.rewriting import check_fixes, derive_catalog, parse

    s = as_snapshot(value)
    subs = parse(substitutions, "substitutions") if substitutions is not None else None
    checked = check_fixes(fixes)
    if subs is None and not checked:
        raise UsageError("nothing to rewrite: give substitutions or fixes")
    derived = derive_catalog(s.catalog(), subs, checked)
    problems = validate(derived.doc)
    if problems:  # pragma: no cover - the rewrite keeps the schema
        raise CatalogauditError(f"internal error: the rewritten snapshot is invalid: {problems[0]}")
    return Snapshot(derived.doc, s.name, "derived")
