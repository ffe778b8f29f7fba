"""`audit --suggest` reports: the proposed substitutions ready to paste, and the re-audit that
proves them (text), or the same as plain data (JSON). Server text is made inert (`visible`)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from catalogaudit.formatters.base import visible
from catalogaudit.formatters.console import reflow
from catalogaudit.model import dump_string
from catalogaudit.model import with_envelope as envelope
from catalogaudit.rewriting import ENV_VAR, Suggestion


def documents(results: Sequence[Suggestion]) -> dict[str, object]:
    """Every catalog's suggestion under one envelope (`--format json`)."""
    return envelope("suggest", {"suggestions": [document(s) for s in results]})


def document(s: Suggestion) -> dict[str, object]:
    """The suggestion as plain data (`--format json`)."""
    return {
        "substitutions": s.text or None,
        "pairs": [{"old": old, "new": new} for old, new in s.pairs],
        "clearsAll": s.clears_all,
        "profiles": list(s.after.profiles),
        "targeted": [f.report_dict() for f in s.targeted],
        "cleared": [f.report_dict() for f in s.outcome.cleared],
        "remaining": [f.report_dict() for f in s.outcome.remaining],
        "introduced": [f.report_dict() for f in s.outcome.introduced],
        "before": s.before.counts(),
        "after": s.after.counts(),
        "notes": list(s.notes),
    }


def render_text(s: Suggestion, *, width: int = 100) -> str:
    """What `audit --suggest` prints: the list ready to paste, and the re-audit that proves it."""
    profiles = ", ".join(s.after.profiles)
    lines: list[str] = []
    if not s.targeted:
        lines.append(f"no prose findings for {profiles}: nothing to substitute")
    elif not s.pairs:
        lines.append(f"no substitution clears the prose findings for {profiles}")
    else:
        quoted = shlex.quote(s.text)
        lines += [
            f"suggested substitutions for {profiles}:",
            f"  --substitutions {visible(quoted, keep='')}",
            f"  {ENV_VAR}={visible(quoted, keep='')}",
        ]
        lines += [
            f"  pair {i}: {visible(dump_string(old), keep='')} -> "
            f"{visible(dump_string(new), keep='')}"
            for i, (old, new) in enumerate(s.pairs, 1)
        ]
    n_cleared = len(s.outcome.cleared)
    lines.append(
        f"proof (re-audited as rewritten): {n_cleared} of {len(s.targeted)} prose finding(s) "
        f"cleared, {len(s.outcome.remaining)} remain, {len(s.outcome.introduced)} introduced"
    )
    for title, found in (
        ("cleared", s.outcome.cleared),
        ("remains", s.outcome.remaining),
        ("introduced", s.outcome.introduced),
    ):
        lines += [
            f"  {title}: {f.severity.value} {f.rule_id} "
            + visible(f"{f.kind}/{f.identity or ''} {f.pointer}".rstrip(), keep="")
            for f in found
        ]
    b, a = s.before.counts(), s.after.counts()
    lines.append(
        f"all findings: {b['error']} error(s), {b['warning']} warning(s) before; "
        f"{a['error']} error(s), {a['warning']} warning(s) after"
    )
    lines += [f"note: {visible(n, keep='')}" for n in s.notes]
    # NOTE: a rule that crashed makes the exit code 2; say which, as the audit report does.
    errors = {(e.rule_id, e.error) for r in (s.before, s.after) for e in r.rule_errors}
    lines += [f"rule error {rid}: {visible(err, keep='')}" for rid, err in sorted(errors)]
    return reflow("\n".join(lines) + "\n", width=width)
