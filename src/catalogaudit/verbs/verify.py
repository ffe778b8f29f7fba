"""Run a verify: drive the client, predict with its profile, compare, render, pick the exit code.

Exit codes: 0 when every observation equals the profile's prediction, 1 on any mismatch
(the profile data is wrong for this client version, or the client changed), 2 on errors.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from catalogaudit import intake
from catalogaudit.errors import CatalogauditError, UsageError
from catalogaudit.formatters import DEFAULT_MAX_CHARS, VerifyFormat, format_verify, verify_document
from catalogaudit.model import Row, VerifyRun
from catalogaudit.verbs import output, terminal
from catalogaudit.verify import HTTP, STDIO, compare, label, verify
from catalogaudit.verify import driver as make_driver
from catalogaudit.verify import predict_observations as predict

#: When set, every run appends its JSON report as one line to this file: the input of
#: scripts/refresh_verification.py, which runs the differential suite with it set.
LOG_ENV = "CATALOGAUDIT_VERIFICATION_LOG"


def run(
    client: str,
    catalogs: Sequence[str],
    client_path: str | None,
    fmt: VerifyFormat,
    path: str = "-",
    transport: str = STDIO,
    sse: bool = False,
    max_chars: int | None = None,
    model: ModelOptions | None = None,
) -> int:
    """Verify, write the report (`-o`, atomically, or stdout), and return the exit code."""
    if model is not None:
        if transport != STDIO or sse:
            raise UsageError("--model runs the servers over stdio (no --transport http, --sse)")
        text, code = model_report(
            client, catalogs, client_path, fmt, model, max_chars, terminal.width(path)
        )
    else:
        text, code = report(
            client, catalogs, client_path, fmt, transport, sse, max_chars, terminal.width(path)
        )
    output.emit(path, text)
    return code


@dataclass(frozen=True)
class ModelOptions:
    """`--model`: which tools to call, how many starts, and the real server's command."""

    calls: tuple[str, ...] = ("all",)
    runs: int = 1
    command: tuple[str, ...] = ()


def model_report(
    client: str,
    catalogs: Sequence[str],
    client_path: str | None,
    fmt: VerifyFormat,
    model: ModelOptions,
    max_chars: int | None = None,
    width: int = 100,
) -> tuple[str, int]:
    """The `verify --model` report and exit code (1 on a mismatch or unstable bytes)."""
    from catalogaudit.verbs import verify_model

    result = verify_model.observe(
        client, catalogs, client_path, model.calls, model.runs, model.command
    )
    log = os.environ.get(LOG_ENV)
    if log:
        _append(log, verify_document(result))
    unstable = result.prompt is not None and not result.prompt.stable
    text = format_verify(result, fmt, max_chars=max_chars or DEFAULT_MAX_CHARS, width=width)
    return text, 0 if result.mismatches == 0 and not unstable else 1


def report(
    client: str,
    catalogs: Sequence[str],
    client_path: str | None,
    fmt: VerifyFormat,
    transport: str = STDIO,
    sse: bool = False,
    max_chars: int | None = None,
    width: int = 100,
) -> tuple[str, int]:
    """The report text and the exit code of `catalogaudit verify`.

    The snapshots are read (and their wire copies checked) before any client starts.
    """
    if not catalogs:
        raise UsageError("give snapshot files to verify")
    if sse and transport != HTTP:
        raise UsageError("--sse needs --transport http")
    cid, at, asked = client.partition("@")
    drv = make_driver(cid, client_path, asked or None)
    read = [intake.read_catalog(c) for c in catalogs]
    for got in read:
        if not got.is_snapshot:
            raise CatalogauditError(
                f"{got.spec}: verify needs a snapshot (make one with `snapshot --from`)"
            )
    output.say(w for got in read for w in got.warnings)
    found = drv.version()
    if at and not _same_version(asked, found):
        raise UsageError(f"--client {client}: {cid} {found} is installed, not {asked}")
    profile = f"{cid}@{found}"
    rows: list[Row] = []
    for target, observed in verify(drv, read, transport, sse):
        rows.extend(Row(o, p) for o, p in compare(predict(target, profile), observed))
    result = VerifyRun(cid, found, tuple(rows), label(transport, sse))
    log = os.environ.get(LOG_ENV)
    if log:
        _append(log, verify_document(result))
    text = format_verify(result, fmt, max_chars=max_chars or DEFAULT_MAX_CHARS, width=width)
    return text, 0 if result.mismatches == 0 else 1


def _append(path: str, report: dict[str, Any]) -> None:
    """One JSON line per run; a single O_APPEND write, so concurrent runs do not interleave."""
    today = datetime.now(timezone.utc).date().isoformat()
    line = json.dumps({"date": today, **report}, ensure_ascii=False) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def _same_version(asked: str, found: str) -> bool:
    """PEP 440 equality where both parse (`1.0.0-beta.2` is `1.0.0b2`), else the text."""
    from packaging.version import InvalidVersion, Version

    try:
        return Version(asked) == Version(found)
    except InvalidVersion:
        return asked == found
