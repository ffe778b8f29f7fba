"""`catalogaudit serve`: read the snapshot (the one intake), build the replay, and serve it over
stdio or HTTP until EOF, SIGTERM or `--max-seconds`."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from catalogaudit import intake
from catalogaudit.errors import InputError, UsageError
from catalogaudit.model import WireDecodeError
from catalogaudit.serve import CACHE_HINTS, NO_WIRE_WARNING, PROTOCOLS, Replay, ServeOptions
from catalogaudit.snapshots import validate
from catalogaudit.verbs import output
from catalogaudit.verbs.live import check_seconds


def load(options: ServeOptions) -> Replay:
    """Read and check the snapshot, warn when it has no wire section, build the replay."""
    for name, value, choices in (
        ("--protocol", options.protocol, PROTOCOLS),
        ("--cache-hints", options.cache_hints, CACHE_HINTS),
    ):
        if value not in choices:
            raise UsageError(f"{name} {value!r} is not one of: {', '.join(choices)}")
    if options.transport not in ("streamable-http", "sse"):
        raise UsageError(f"--transport must be streamable-http or sse, not {options.transport!r}")
    if options.transport == "sse" and (options.http_port is None or options.sse):
        raise UsageError("--transport sse needs --http PORT (and answers on its stream, not --sse)")
    if options.page_size is not None and options.page_size < 1:
        raise UsageError("--page-size must be at least 1")
    if options.max_seconds is not None:
        check_seconds("--max-seconds", options.max_seconds)
    if options.initialize_version is not None and not options.initialize_version.strip():
        raise UsageError("--initialize-version must name a version such as 2026-07-28")
    got = intake.read_catalog(options.snapshot)
    if not got.is_snapshot:
        raise InputError(f"{got.name}: not a catalogaudit snapshot (serve replays snapshots)")
    doc = got.doc
    problems = validate(doc)
    if problems:
        raise InputError(f"{got.name}: not a valid snapshot: {problems[0]}")
    output.say(got.warnings)
    if not isinstance(doc.get("wire"), dict):
        output.say([NO_WIRE_WARNING.format(name=got.name)])
    try:
        replay = Replay(doc, options)
    except WireDecodeError as exc:
        raise InputError(f"{got.name}: a wire page is not a JSON object ({exc})") from None
    output.say(replay.notes)
    if options.call_log is not None:
        replay.on_call = _call_logger(options.call_log)
    return replay


def _call_logger(path: str) -> Callable[[dict[str, Any]], None]:
    """`--call-log FILE`: one JSON line per tools/call, each a single O_APPEND write (a client
    may start the server more than once; their lines do not interleave)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
    except OSError as exc:
        raise InputError(f"--call-log {path}: {exc.strerror}") from None

    def log(record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False) + "\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8", "surrogatepass"))
        finally:
            os.close(fd)

    return log


def run(options: ServeOptions) -> int:
    """Serve until stdin EOF (stdio), SIGTERM or `--max-seconds`; 0 on a clean end."""
    check_seconds("--idle-timeout", options.idle_timeout)
    replay = load(options)
    if options.http_port is not None:
        from catalogaudit.serve import serve_http

        return serve_http(replay, options)
    from catalogaudit.serve import serve_stdio

    return serve_stdio(replay, options)


__all__ = ["ServeOptions", "load", "run"]
