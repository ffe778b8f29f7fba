"""Rules without a check of their own: the capture and wire findings (CA5xx) that the wire
client and the intake write, the rewrite's refusal (CA901), and the user's contract and strict
baseline (CA910-CA920). Their metadata lives here so
`rules`, SARIF and the audit engine describe them like every checked rule."""

from __future__ import annotations

from catalogaudit.model import RuleMeta, Severity

E, W, INF = Severity.ERROR, Severity.WARNING, Severity.INFO


#: Capture and wire findings (CA5xx), emitted by the wire client and the intake, not by a check:
#: id -> (severity, name, summary). The severity is the one the capture writes (a test holds
#: every emitted capture finding to it).
CAPTURE_RULES: dict[str, tuple[Severity, str, str]] = {
    "CA510": (
        W,
        "capture.stdout-hygiene",
        "The server MUST NOT write anything but MCP messages to stdout.",
    ),
    "CA511": (INF, "capture.list-changed", "list_changed notifications arrived during capture."),
    "CA512": (INF, "capture.server-requests", "The server sent requests to the client."),
    "CA513": (W, "capture.stdin-eof", "Servers SHOULD exit when stdin closes."),
    "CA520": (INF, "capture.era-fallback", "Not a 2026-07-28 server; fell back to initialize."),
    "CA521": (E, "capture.handshake-malformed", "The handshake result is malformed."),
    "CA522": (INF, "capture.counter-offer", "The server counter-offered another revision."),
    "CA523": (W, "capture.non-handshake-revision", "initialize answered a non-handshake revision."),
    "CA524": (INF, "capture.revision-assumed", "The input did not say its revision."),
    "CA530": (E, "capture.listing-failed", "A list method failed although advertised."),
    "CA531": (E, "capture.page-failed", "A later page failed."),
    "CA532": (E, "capture.cursor-type", "nextCursor is not a string."),
    "CA533": (E, "capture.cursor-loop", "nextCursor repeats an earlier cursor."),
    "CA534": (W, "capture.duplicate-across-pages", "An item was served again on a later page."),
    "CA535": (W, "capture.empty-cursor-legacy", 'nextCursor is "" in a legacy session.'),
    "CA536": (INF, "capture.unadvertised-listing", "A listing answered though not advertised."),
    "CA537": (E, "capture.result-not-object", "A list result is not an object."),
    "CA538": (E, "capture.result-no-array", "A list result has no item array."),
    "CA540": (E, "wire.duplicate-key", "Duplicate object key."),
    "CA541": (E, "wire.non-finite-number", "NaN or Infinity is not JSON."),
    "CA542": (E, "wire.lone-surrogate", "Lone surrogate in a string."),
    "CA543": (E, "wire.invalid-utf8", "Invalid UTF-8."),
    "CA544": (W, "wire.unsafe-integer", "Integer beyond +-(2^53-1)."),
}


#: The rewrite's own refusal (CA901), reported by `rewrite` and `audit --substitutions`.
GROWTH_RULE = RuleMeta(
    "CA901",
    "rewrite.growth-bound",
    Severity.WARNING,
    "A substitution would grow a string past its ceiling; the string was left as written",
    "A rewritten string may not exceed max(2 x input, input + 64) UTF-8 bytes, so one rule "
    "cannot multiply a catalog that clients put in front of every LLM request. The string that "
    "would have crossed keeps its served text, so whatever the rewrite was for is not fixed there.",
    "Give the pair a shorter replacement, or split the job into pairs that match less often.",
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools",
)


_LISTING = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#listing-tools"

#: The user's own contract (`--expect-tool`, `--forbid-tool`, `--min-tools`, ... and
#: `--strict-baseline`), checked by `auditing.contract` and `auditing.baseline`: error findings,
#: because the user asserted them; the evidence is the listing itself.
CONTRACT_RULES: dict[str, RuleMeta] = {
    meta.id: meta
    for meta in (
        RuleMeta(
            "CA910",
            "contract.expected-listed",
            Severity.ERROR,
            "An item the contract expects (--expect-tool, --expect-prompt, ...) is listed",
            "The run was told that this tool, prompt, resource or template must be listed, and "
            "the listing does not hold it: it was renamed or removed, or the server registered "
            "it under another name (allowlists that name it stop matching).",
            "Restore the item, or update the assertion (and every allowlist that names it).",
            _LISTING,
        ),
        RuleMeta(
            "CA911",
            "contract.forbidden-absent",
            Severity.ERROR,
            "No listed item matches a --forbid-tool (--forbid-prompt, ...) glob",
            "The run was told that nothing matching this glob may be listed (a destructive tool "
            "in a read-only deployment, a debug tool in production), and an item matches.",
            "Remove or disable the item, or narrow the glob.",
            _LISTING,
        ),
        RuleMeta(
            "CA912",
            "contract.minimum-count",
            Severity.ERROR,
            "A listing holds at least --min-tools (--min-prompts, ...) items",
            "A server can start, answer every list call and register nothing (a failed plugin "
            "load, a missing credential); the spec allows an empty listing, so only the "
            "asserted minimum catches it.",
            "Find why the server registered fewer items (its stderr), or lower the minimum.",
            _LISTING,
        ),
        RuleMeta(
            "CA920",
            "baseline.stale-entry",
            Severity.ERROR,
            "Every baseline entry still matches a finding (--strict-baseline)",
            "A baseline entry that matches nothing is a silenced check nobody watches: when the "
            "finding comes back it is suppressed again. The MCP conformance runner fails on "
            "stale expected-failures entries for the same reason.",
            "Remove the entry from the baseline (or rewrite it with --write-baseline).",
            "https://github.com/modelcontextprotocol/typescript-sdk/pull/2279",
        ),
    )
}
