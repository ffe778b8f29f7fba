"""Entry points behind the CLI verbs: validated options in, exit code out."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.model.findings import EXIT_FINDINGS, EXIT_OK
from catalogaudit.model.names import LISTINGS
from catalogaudit.model.protocol import ProtocolChoice, client_capabilities, parse_protocol
from catalogaudit.snapshot import build as snap
from catalogaudit.wire.capture import Target, capture
from catalogaudit.wire.transport import Limits


@dataclass(frozen=True)
class SnapshotOptions:
    """Everything `catalogaudit snapshot` was asked to do."""

    command: tuple[str, ...] = ()
    url: str | None = None
    headers: tuple[str, ...] = ()
    cwd: str | None = None
    env: tuple[str, ...] = ()
    protocol: str = "auto"
    client_capabilities: str = "none"
    runs: int = 1
    jobs: int = 1
    timeout: float = 300.0
    startup_timeout: float = 30.0
    request_timeout: float = 30.0
    max_pages: int = 1000
    max_message_size: int = 64 * 1024 * 1024
    wire: bool = True
    #: After a modern capture, ask a fresh session whether legacy `initialize` is answered.
    legacy_probe: bool = False
    static_inputs: tuple[str, ...] = ()
    output: str = "-"


def parse_headers(values: Sequence[str], environ: dict[str, str]) -> dict[str, str]:
    """`Name: value` pairs; `env:VAR` values come from the environment (kept out of history)."""
    out: dict[str, str] = {}
    for raw in values:
        name, sep, value = raw.partition(":")
        name, value = name.strip(), value.strip()
        if not sep or not name or any(c in name for c in " \t\r\n"):
            raise UsageError(f"--header must look like 'Name: value', got a value for {name!r}")
        if value.startswith("env:"):
            var = value[4:]
            if var not in environ:
                raise UsageError(f"--header {name}: environment variable {var} is not set")
            value = environ[var]
        if any(c in value for c in "\r\n"):
            raise UsageError(f"--header {name}: the value contains a line break")
        out[name] = value
    return out


def parse_env(values: Sequence[str]) -> dict[str, str]:
    """`KEY=VALUE` pairs for the server's environment."""
    from catalogaudit.verbs.config import parse_pairs

    return parse_pairs(values, "--env")


def _limits(o: SnapshotOptions) -> Limits:
    for name in ("timeout", "startup_timeout", "request_timeout"):
        if getattr(o, name) <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive")
    return Limits(
        startup_timeout=min(o.startup_timeout, o.timeout),
        request_timeout=min(o.request_timeout, o.timeout),
        total_timeout=o.timeout,
        max_message=o.max_message_size,
        max_pages=o.max_pages,
    )


def snapshot(o: SnapshotOptions) -> int:
    """Capture (or merge static inputs), validate against the published schema, write."""
    choice = parse_protocol(o.protocol)
    caps = client_capabilities(o.client_capabilities)
    if o.static_inputs:
        if o.command or o.url:
            raise UsageError("--from reads files; do not also give a server command or --url")
        doc, notes = _static(o, choice)
        code = EXIT_OK
    else:
        target = _target(o)
        limits = _limits(o)
        if o.runs == 1:
            doc = snap.build(
                capture(target, choice, caps, limits, legacy_probe=o.legacy_probe), wire=o.wire
            )
        else:
            docs = _runs(o, target, choice, caps, limits)
            doc = snap.merge_runs(docs, restarts=target.url is None, wire=o.wire)
        code = EXIT_OK if doc["capture"].get("runs", {}).get("stable", True) else EXIT_FINDINGS
    problems = snap.validate(doc)
    if problems:
        raise CatalogauditError(
            f"internal error: the snapshot does not match its schema: {problems[0]}"
        )
    snap.emit(o.output, snap.render(doc))
    if o.static_inputs:
        sys.stderr.write("".join(f"{note}\n" for note in notes))
    _summary(doc, o.output)
    return code


def _target(o: SnapshotOptions) -> Target:
    if o.url and o.command:
        raise UsageError("give either a server command after -- or --url, not both")
    if not o.url and not o.command:
        raise UsageError("give a server command after -- (or --url URL, or --from FILE)")
    if o.url and (o.env or o.cwd):
        raise UsageError("--env and --cwd apply to stdio servers only")
    if o.command and o.headers:
        raise UsageError("--header applies to --url only")
    return Target(
        argv=o.command,
        cwd=o.cwd,
        env=parse_env(o.env),
        url=o.url,
        headers=parse_headers(o.headers, dict(os.environ)),
    )


def _runs(
    o: SnapshotOptions,
    target: Target,
    choice: ProtocolChoice,
    caps: dict[str, Any],
    limits: Limits,
) -> list[dict[str, Any]]:
    from rich.progress import Progress  # lazy: only runs need a progress bar

    label = "sessions" if target.url else "restarts"
    results: list[dict[str, Any] | None] = [None] * o.runs
    with Progress(transient=True, console=_stderr_console()) as progress:
        task = progress.add_task(f"capturing {o.runs} {label}", total=o.runs)

        def one(i: int) -> None:
            results[i] = snap.build(
                capture(target, choice, caps, limits, legacy_probe=o.legacy_probe), wire=o.wire
            )
            progress.advance(task)

        _parallel(one, o.runs, o.jobs)
    return [r for r in results if r is not None]


def _parallel(fn: Callable[[int], None], count: int, jobs: int) -> None:
    if jobs == 1:
        for i in range(count):
            fn(i)
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(fn, i) for i in range(count)]
        errors = [f.exception() for f in futures]
    for err in errors:
        if err is not None:
            raise err


def _static(o: SnapshotOptions, choice: ProtocolChoice) -> tuple[dict[str, Any], list[str]]:
    from catalogaudit.intake import loader, static

    if sum(1 for s in o.static_inputs if s == "-") > 1:
        raise UsageError("--from - (stdin) can be given once")
    loaded = [(spec, loader.load(spec)) for spec in o.static_inputs]
    doc = snap.build(static.merge(loaded, choice), wire=o.wire)
    return doc, [f"{item.name}: {note}" for _, item in loaded for note in item.inferred]


def _summary(doc: dict[str, Any], output: str) -> None:
    cap = doc["capture"]
    counts = []
    for name in LISTINGS:
        rec = doc["listings"][name]
        counts.append(f"{name} {len(rec['items'])}" if "items" in rec else f"{name} absent")
    proto = cap["protocol"]
    where = cap.get("transport", "static")
    line = f"{', '.join(counts)} ({proto['negotiated']}, {proto['era']}, {where})"
    runs = cap.get("runs")
    if runs:
        verdict = "stable" if runs["stable"] else "UNSTABLE"
        what = "restarts" if runs["restarts"] else "sessions (restarts not tested)"
        line += f"; {runs['count']} {what}: {verdict}"
    dest = "stdout" if output == "-" else output
    console = _stderr_console()
    console.print(f"wrote {dest}: {line}", highlight=False, markup=False)
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    if errors:
        console.print(
            f"{len(errors)} capture finding(s) of severity error; first: {errors[0]['message']}",
            highlight=False,
            markup=False,
        )


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True)
