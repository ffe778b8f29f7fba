"""A profile's predicted verdict per list and per item, in the shape drivers observe.

The profile is run through the ordinary audit engine (`audit.audit` with that one profile), so
the prediction is exactly what `catalogaudit audit --profile` says. Only error findings predict
a loss. Whether one bad item costs the item or the whole list is read from the rule data: the
`effect` text each profile rule carries (and which every finding message ends with). An effect
that says the list, every list or the whole server is lost fails lists; any other error effect
drops only the item the finding is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from catalogaudit.audit import AuditOptions, audit
from catalogaudit.findings import Finding, Severity
from catalogaudit.hashes import LISTINGS
from catalogaudit.verify.base import DROPPED, FAILED, KEPT, Observation, Target

#: Effects that cost every list the client reads (the server fails, or every call fails).
SERVER_WIDE = re.compile(
    r"whole server|fails the server|every list call|every tool and resource|"
    r"tools of every configured server",
    re.IGNORECASE,
)
#: Effects that cost the listing the item is in.
LIST_WIDE = re.compile(
    r"\bat all\b|whole (?:\w+ )?list|fails the (?:whole )?list|no (?:tools|resources|prompts)\b|"
    r"lose all of it|shows no resources",
    re.IGNORECASE,
)
#: Effects that happen later, when a model request is built or sent (the API refuses it, the
#: conversation fails): the client still lists the item, so a list call shows no loss.
REQUEST_TIME = re.compile(
    r"refuses the (?:whole )?request|conversation fails|turn fails|every (?:chat|prompt) fails|"
    r"chat dies",
    re.IGNORECASE,
)
_ITEM_POINTER = re.compile(r"^/listings/([A-Za-z]+)/items/(\d+)(?:/|$)")


def scope(effect: str) -> str:
    """`server`, `list`, `item` or `request` (nothing a list call can show): how much one
    error finding with this effect costs at listing time."""
    if REQUEST_TIME.search(effect):
        return "request"
    if SERVER_WIDE.search(effect):
        return "server"
    if LIST_WIDE.search(effect):
        return "list"
    return "item"


def _effect(finding: Finding) -> str:
    """The rule effect the finding's message ends with (profiles append it after `; `)."""
    return finding.message.rsplit("; ", 1)[-1]


def predict(target: Target, profile: str) -> list[Observation]:
    """The profile's verdicts on every listing the driver lists, and every item in them."""
    catalog = target.catalog
    report = audit(catalog, AuditOptions(profiles=(profile,)))
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    listed = target.listings
    by_index = {name: {i.index: i for i in catalog.items(name)} for name in LISTINGS}
    failed: dict[str, str] = {}
    dropped: dict[tuple[str, int], str] = {}
    for finding in errors:
        why = f"{finding.rule_id}: {finding.message}"
        where = _ITEM_POINTER.match(finding.location.pointer if finding.location else "")
        listing = where.group(1) if where else finding.kind
        reach = scope(_effect(finding))
        if reach == "request":
            continue
        if reach == "server" or listing not in LISTINGS:
            for name in listed:
                failed.setdefault(name, why)
        elif reach == "list":
            failed.setdefault(listing, why)
        elif where is not None:
            item = by_index[listing].get(int(where.group(2)))
            if item is not None:
                dropped.setdefault((listing, item.served_index), why)
    return list(_verdicts(target, listed, failed, dropped))


def _verdicts(
    target: Target,
    listed: Iterable[str],
    failed: dict[str, str],
    dropped: dict[tuple[str, int], str],
) -> Iterable[Observation]:
    for name in listed:
        why = failed.get(name)
        yield Observation(target.label, name, None, None, FAILED if why else KEPT, why or "")
        for item in target.catalog.items(name):
            reason = why or dropped.get((name, item.served_index), "")
            verdict = DROPPED if reason else KEPT
            yield Observation(target.label, name, item.served_index, item.identity, verdict, reason)


def compare(
    predicted: list[Observation], observed: list[Observation]
) -> list[tuple[Observation, Observation | None]]:
    """Every observation paired with the prediction for the same list or item (None: none)."""
    wanted = {p.key: p for p in predicted}
    return [(o, wanted.get(o.key)) for o in observed]
