"""The accepted-changes file on disk (`diff.accept` is what it means): found as the
configuration says, read, applied to a diff, and appended to by `diff --accept REASON`, which
writes one entry per change that fails the diff, so nobody types an identity by hand."""

from __future__ import annotations

import datetime
from pathlib import Path

from catalogaudit.diffing import (
    Accepted,
    DiffResult,
    apply_accepted,
    entries_for,
    parse_accepted,
)
from catalogaudit.errors import UsageError
from catalogaudit.verbs import config as cfg
from catalogaudit.verbs import output

#: The file looked for in the current directory when neither an option nor `accepted` names one.
DEFAULT = "catalogaudit.accepted.toml"
HEADER = (
    "# Changes accepted on purpose: `catalogaudit diff`, `diff --live` and `ci` report them and\n"
    "# let them pass. Each entry names one change (rule, item, at) and says why; `expires` is\n"
    "# optional. Written by `catalogaudit diff OLD NEW --accept REASON`; review it like code.\n\n"
)


def path_of(explicit: str | None, conf: dict[str, object], writing: bool = False) -> str | None:
    """`--accepted FILE`, else the configuration's `accepted`, else `DEFAULT` when it exists
    (or when entries are about to be written)."""
    named = explicit or conf.get("accepted")
    if isinstance(named, str) and named:
        return named
    return DEFAULT if writing or Path(DEFAULT).is_file() else None


def read(path: str) -> list[Accepted]:
    """The entries of `path` (none when it does not exist yet)."""
    file = Path(path)
    if not file.exists():
        return []
    return parse_accepted(cfg.read_toml(file), path)


def apply(result: DiffResult, path: str | None, today: datetime.date | None = None) -> None:
    """Mark the changes `path` accepts; warn of its stale and expired entries."""
    if path is not None:
        apply_accepted(result, read(path), today or datetime.date.today())


def write(
    path: str,
    result: DiffResult,
    fail_on: str,
    unknown: str,
    reason: str,
    expires: str | None = None,
) -> int:
    """Append an entry for each change still failing `result` at `fail_on`, mark them accepted;
    the number written."""
    if not reason.strip():
        raise UsageError("--accept needs the reason the changes are accepted (not empty)")
    until = None
    if expires:
        try:
            until = datetime.date.fromisoformat(expires)
        except ValueError:
            raise UsageError(f"--expires must be a date (2027-01-31), not {expires!r}") from None
    changes = result.failing(fail_on if fail_on != "never" else "cosmetic", unknown)
    if not changes:
        return 0
    file = Path(path)
    try:
        before = file.read_text(encoding="utf-8") if file.exists() else HEADER
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read it ({exc})") from None
    text = before.rstrip("\n") + "\n\n" + entries_for(changes, reason, until)
    entries = parse_accepted(cfg.toml_text(text, path), path)  # what we wrote reads back
    output.write_atomic(path, text)
    apply_accepted(result, entries[-len(changes) :], datetime.date.min)
    return len(changes)
