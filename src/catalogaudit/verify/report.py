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

from catalogaudit.errors import UsageError
from catalogaudit.verify import driver as make_driver
from catalogaudit.verify.base import Observation, verify
from catalogaudit.verify.predict import compare, predict

FORMATS = ("text", "json")
#: When set, every run appends its JSON report as one line to this file: the input of
#: scripts/refresh_verification.py, which runs the differential suite with it set.
LOG_ENV = "CATALOGAUDIT_VERIFICATION_LOG"


@dataclass(frozen=True)
class Row:
    """One observation, the prediction for it, and whether they agree."""

    observed: Observation
    predicted: Observation | None

    @property
    def matches(self) -> bool:
        """Predicted and observed verdicts are equal (messages differ by nature)."""
        return self.predicted is not None and self.predicted.verdict == self.observed.verdict


def run(
    client: str, catalogs: Sequence[str], client_path: str | None, output_format: str
) -> tuple[str, int]:
    """The report text and the exit code of `catalogaudit verify`."""
    if output_format not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, not {output_format!r}")
    if not catalogs:
        raise UsageError("give snapshot files to verify")
    cid, at, asked = client.partition("@")
    drv = make_driver(cid, client_path, asked or None)
    found = drv.version()
    if at and not _same_version(asked, found):
        raise UsageError(f"--client {client}: {cid} {found} is installed, not {asked}")
    profile = f"{cid}@{found}"
    rows: list[Row] = []
    for target, observed in verify(drv, catalogs):
        rows.extend(Row(o, p) for o, p in compare(predict(target, profile), observed))
    code = 0 if all(r.matches for r in rows) else 1
    log = os.environ.get(LOG_ENV)
    if log:
        _append(log, _json(cid, found, profile, rows))
    if output_format == "json":
        return _json(cid, found, profile, rows), code
    return _text(cid, found, rows), code


def _append(path: str, report: str) -> None:
    """One JSON line per run; a single O_APPEND write, so concurrent runs do not interleave."""
    line = (
        json.dumps({"date": datetime.now(timezone.utc).date().isoformat(), **json.loads(report)})
        + "\n"
    )
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


def _json(cid: str, version: str, profile: str, rows: list[Row]) -> str:
    doc: dict[str, Any] = {
        "client": {"id": cid, "version": version},
        "profile": profile,
        "matches": all(r.matches for r in rows),
        "observations": [
            {
                **r.observed.as_dict(),
                "predicted": r.predicted.verdict if r.predicted else None,
                "predictedBecause": r.predicted.message if r.predicted else "",
                "matches": r.matches,
            }
            for r in rows
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _text(cid: str, version: str, rows: list[Row]) -> str:
    lines = [f"{cid} {version} (profile {cid}@{version})"]
    catalog = None
    for r in rows:
        o = r.observed
        if o.catalog != catalog:
            catalog = o.catalog
            lines.append(f"{catalog}:")
        subject = f"{o.listing} list" if o.index is None else f"  {o.listing}[{o.index}]"
        if o.index is not None and o.identity is not None:
            subject += f" {json.dumps(o.identity, ensure_ascii=False)}"
        mark = "ok" if r.matches else "MISMATCH"
        predicted = r.predicted.verdict if r.predicted else "no prediction"
        line = f"  {subject}: {o.verdict} (predicted {predicted}) {mark}"
        if o.index is None and o.message:
            line += f"\n      client: {o.message}"
        if not r.matches and r.predicted and r.predicted.message:
            line += f"\n      profile: {r.predicted.message}"
        lines.append(line)
    bad = sum(not r.matches for r in rows)
    lines.append(
        f"{len(rows)} observations, {bad} mismatch{'es' if bad != 1 else ''} with the profile"
    )
    return "\n".join(lines) + "\n"
