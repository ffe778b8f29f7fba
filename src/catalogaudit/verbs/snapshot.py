"""`catalogaudit snapshot`: capture a live server (once, or `--runs N` times) or merge static
inputs, check the document against the published schema, write it, summarize on stderr.

Start-up: a live snapshot waits for its server to start, so what is imported before the
server is spawned delays the whole command. The document's modules (build, schema,
`Catalog`) are imported in `_prepare`, while the server starts, never at the top here.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any

from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.model import EXIT_FINDINGS, EXIT_OK, LISTINGS, client_capabilities, parse_protocol
from catalogaudit.verbs import config as cfg
from catalogaudit.verbs import contract, live, output
from catalogaudit.verbs.live import SnapshotOptions


def snapshot(o: SnapshotOptions) -> int:
    """Capture (or merge static inputs), validate against the published schema, write; 1 when
    the runs disagree or a contract assertion fails (the snapshot is written either way)."""
    parse_protocol(o.protocol)  # option errors before any server starts
    client_capabilities(o.client_capabilities)
    conf, _ = cfg.load(None)
    assertions = contract.resolve(o.contract, conf)
    notes: tuple[str, ...] = ()
    if o.static_inputs:
        if o.command or o.url:
            raise UsageError("--from reads files; do not also give a server command or --url")
        if sum(1 for s in o.static_inputs if s == "-") > 1:
            raise UsageError("--from - (stdin) can be given once")
        from catalogaudit import intake

        got = intake.read_merged(o.static_inputs, protocol=o.protocol, wire=o.wire)
        doc, notes = got.doc, got.said
        code = EXIT_OK
    else:
        live.target_of(o)  # option errors before any server starts
        if o.runs > 1:
            from catalogaudit.verbs.bill import load_prices

            load_prices(o.prices)  # NOTE: a bad --prices file is refused before any start
        limits = live.limits_of(o)  # NOTE: the --timeout starts here and covers every run
        if o.runs == 1:
            doc = live.capture(o, limits=limits, meanwhile=_prepare)
        else:
            runs = _runs(o, limits)
            from catalogaudit.snapshots import merge_runs

            doc = merge_runs(runs, restarts=o.url is None, wire=o.wire)
        code = EXIT_OK if doc["capture"].get("runs", {}).get("stable", True) else EXIT_FINDINGS
    from catalogaudit.snapshots import validate, write

    problems = validate(doc)
    if problems:
        raise CatalogauditError(
            f"internal error: the snapshot does not match its schema: {problems[0]}"
        )
    output.emit_document(o.output, lambda fh: write(doc, fh), check_readable_size)
    output.say(notes)
    _summary(doc, o.output)
    output.say(_bill(doc, o))
    from catalogaudit.model import Catalog

    failed = contract.findings(Catalog(doc, source=_source(o)), assertions)
    output.say(f"error {f.rule_id}: {f.message}" for f in failed)
    return EXIT_FINDINGS if failed else code


def _prepare() -> None:
    """While the server starts: import what writing the snapshot needs, read its schema."""
    from catalogaudit.model import Catalog  # noqa: F401 - the contract checks one
    from catalogaudit.snapshots import snapshot_schema

    snapshot_schema()


def _source(o: SnapshotOptions) -> str:
    return o.output if o.output != "-" else "<stdout>"


def check_readable_size(size: int) -> None:
    """Refuse to write a snapshot no command could read back (the intake's input cap)."""
    from catalogaudit.model import MAX_INPUT

    if size > MAX_INPUT:
        raise CatalogauditError(
            f"the snapshot would be {size:,} bytes, over the {MAX_INPUT:,} that every command "
            "reads; nothing written (--no-wire drops the page texts, a smaller --max-pages "
            "stops early)"
        )


def _runs(o: SnapshotOptions, limits: Any) -> list[dict[str, Any]]:
    label = "sessions" if o.url else "restarts"
    results: list[dict[str, Any] | None] = [None] * o.runs
    if not _maybe_terminal():
        # NOTE: no bar could show, so rich is not loaded: its import would delay the first
        # servers.
        def quiet(i: int) -> None:
            results[i] = live.capture(o, limits=limits, meanwhile=_prepare)

        parallel(quiet, o.runs, o.jobs)
        return [r for r in results if r is not None]
    from rich.progress import Progress  # lazy: only runs on a terminal show a progress bar

    console = _stderr_console()
    # NOTE: off a terminal the bar would leave an empty line beside the one `error:` line.
    with Progress(transient=True, console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"capturing {o.runs} {label}", total=o.runs)

        def one(i: int) -> None:
            results[i] = live.capture(o, limits=limits, meanwhile=_prepare)
            progress.advance(task)

        parallel(one, o.runs, o.jobs)
    return [r for r in results if r is not None]


def parallel(fn: Callable[[int], None], count: int, jobs: int) -> None:
    """Run `fn(0..count-1)`, `jobs` at a time; the first error (or a signal) ends them all.

    The workers are daemon threads and nobody waits for them after a failure: `live.abort`
    kills their servers and refuses new ones, so a signal ends the command at once instead
    of waiting for every run still queued (a thread pool's exit joins them all)."""
    if jobs == 1:
        for i in range(count):
            fn(i)
        return
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for i in range(count):
        todo.put(i)
    done: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()

    def worker() -> None:
        while True:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            try:
                fn(i)
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                done.put(exc)
                return
            done.put(None)

    for _ in range(min(jobs, count)):
        threading.Thread(target=worker, name="catalogaudit-run", daemon=True).start()
    try:
        finished = 0
        while finished < count:
            try:
                err = done.get(timeout=0.25)  # NOTE: a bounded wait lets signals in promptly
            except queue.Empty:
                continue
            if err is not None:
                raise err
            finished += 1
    except BaseException:
        live.abort()
        raise


def _summary(doc: dict[str, Any], dest: str) -> None:
    cap = doc["capture"]
    counts = [f"{name} {_count(doc['listings'][name])}" for name in LISTINGS]
    proto = cap["protocol"]
    where = cap.get("transport", "static")
    line = f"{', '.join(counts)} ({proto['negotiated']}, {proto['era']}, {where})"
    runs = cap.get("runs")
    if runs:
        verdict = "stable" if runs["stable"] else "UNSTABLE"
        what = "restarts" if runs["restarts"] else "sessions (restarts not tested)"
        line += f"; {runs['count']} {what}: {verdict}"
    dest = "stdout" if dest == "-" else dest
    lines = [f"wrote {dest}: {line}"]
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    if errors:
        first = errors[0]["message"]
        lines.append(f"{len(errors)} capture finding(s) of severity error; first: {first}")
    output.say(lines)


def _bill(doc: dict[str, Any], o: SnapshotOptions) -> list[str]:
    """What the runs that differ cost prompt caches (`stability`'s bill), on stderr."""
    runs = doc["capture"].get("runs")
    if not runs or runs["stable"]:
        return []
    from catalogaudit.diffing import sides_of
    from catalogaudit.formatters import bill_lines
    from catalogaudit.verbs.bill import bill_of

    sides, _ = sides_of(_source(o), doc)
    cache = bill_of(sides, o.prices, changed_only=True) if len(sides) > 1 else None
    return bill_lines(cache) if cache is not None else []


def _count(rec: dict[str, Any]) -> str:
    """A listing in the summary line: a count only for what was listed in full."""
    status = rec.get("status")
    if status == "error" or "items" not in rec:
        return "absent" if status == "absent" else "error (the list call failed)"
    n = len(rec["items"])
    return f"{n} (partial: stopped early)" if status == "partial" else str(n)


def _maybe_terminal() -> bool:
    """False when rich would surely find stderr no terminal: not a tty, and none of the
    variables that make rich treat it as one (`TTY_COMPATIBLE`, `FORCE_COLOR`) is set."""
    if "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed: rich says no terminal
        return False


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True)
