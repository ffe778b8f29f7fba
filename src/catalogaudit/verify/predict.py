"""A profile's predicted verdict per list and per item, in the shape drivers observe.

The profile is run through the ordinary audit engine (`audit.audit` with that one profile), so
the prediction is exactly what `catalogaudit audit --profile` says. Only error findings predict
a loss. How much one finding costs is the rule's `scope` in the profile data, which may vary by
version range and listing (ContextForge up to 0.8.0 fails the whole gateway for one bad tool,
later skips it):

* `item`: the item is dropped;
* `item-and-later`: the item and every later item of its listing are dropped (an import loop
  that aborts);
* `list`: the listing fails (for a catalog-level finding on a server capability, the listings
  of that capability);
* `server`: every listing the client reads fails (the profile's `reads` at that version: a
  ContextForge release before 0.6.0 reads tools only, so its failed registration is a failed
  tool list, as its driver observes);
* `request`: nothing at listing time (the model API refuses the request later);
* `none`: the item is kept, changed (ContextForge retries a bad resource as a minimal object).

A profile's `all_dropped` entries say what happens when every item of a listing is dropped
(ContextForge from 0.9.0 refuses a server whose every tool fails validation). A rule without
`scope` falls back to reading its `effect` text with the regexes below, so a rule added
without one still predicts something; the profile data tests require the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from catalogaudit.auditing import AuditOptions, audit
from catalogaudit.model import (
    CAPABILITY_OF,
    DROPPED,
    FAILED,
    KEPT,
    LISTINGS,
    Catalog,
    Finding,
    Observation,
    Severity,
)
from catalogaudit.profiles import contains, load_all, raw_files
from catalogaudit.verify.base import Target

#: Fallback for rules without `scope`: effects that cost every list the client reads.
SERVER_WIDE = re.compile(
    r"whole server|fails the server|every list call|every tool and resource|"
    r"tools of every configured server",
    re.IGNORECASE,
)
#: Fallback: effects that cost the listing the item is in.
LIST_WIDE = re.compile(
    r"\bat all\b|whole (?:\w+ )?list|fails the (?:whole )?list|no (?:tools|resources|prompts)\b|"
    r"lose all of it|shows no resources",
    re.IGNORECASE,
)
#: Fallback: effects that happen when a model request is built or sent; the client still
#: lists the item, so a list call shows no loss.
REQUEST_TIME = re.compile(
    r"refuses the (?:whole )?request|conversation fails|turn fails|every (?:chat|prompt) fails|"
    r"chat dies",
    re.IGNORECASE,
)
_ITEM_POINTER = re.compile(r"^/listings/([A-Za-z]+)/items/(\d+)(?:/|$)")
_CAPABILITY_POINTER = re.compile(r"^/capture/serverCapabilities/([^/]+)$")


def scope(effect: str) -> str:
    """The fallback reading of an `effect` text: `request`, `server`, `list` or `item`."""
    if REQUEST_TIME.search(effect):
        return "request"
    if SERVER_WIDE.search(effect):
        return "server"
    if LIST_WIDE.search(effect):
        return "list"
    return "item"


@dataclass(frozen=True)
class Reach:
    """One `scope` entry: at these versions, for these listings (None: all), this scope."""

    versions: SpecifierSet
    listings: frozenset[str] | None
    scope: str

    def applies(self, version: Version | None, listing: str | None) -> bool:
        """Whether the entry covers a finding at this version on this listing."""
        if self.listings is not None and listing not in self.listings:
            return False
        return contains(self.versions, version)


def entries(raw: Any) -> tuple[Reach, ...]:
    """A `scope` (or `all_dropped`) value as entries: a bare scope name or a list of
    `{versions, listings, scope}` objects, first match wins."""
    if isinstance(raw, str):
        return (Reach(SpecifierSet(""), None, raw),)
    return tuple(
        Reach(
            SpecifierSet(e.get("versions", "")),
            frozenset(e["listings"]) if "listings" in e else None,
            e["scope"],
        )
        for e in raw
    )


@cache
def _data() -> tuple[dict[str, tuple[Reach, ...]], dict[str, tuple[Reach, ...]]]:
    """Rule id -> scope entries, and profile id -> all_dropped entries."""
    rules: dict[str, tuple[Reach, ...]] = {}
    dropped: dict[str, tuple[Reach, ...]] = {}
    for doc in raw_files().values():
        for rule in doc["rules"]:
            if "scope" in rule:
                rules[rule["id"]] = entries(rule["scope"])
        if "all_dropped" in doc:
            dropped[doc["id"]] = entries(doc["all_dropped"])
    return rules, dropped


def reach(rule_id: str, version: Version | None, listing: str | None, effect: str) -> str:
    """How much one error finding of this rule costs at this version on this listing."""
    for entry in _data()[0].get(rule_id, ()):
        if entry.applies(version, listing):
            return entry.scope
    return scope(effect)


def _versions(profile: str) -> tuple[Version | None, dict[str, Version | None]]:
    """The profile's effective version, and the version each of its rules runs at (an
    included rule runs at its owner's version, as `profiles.applicable` does)."""
    from catalogaudit.profiles import resolve_profile as resolve

    pid = profile.partition("@")[0]
    if pid not in load_all():
        return None, {}
    resolved = resolve(profile, {})
    at: dict[str, Version | None] = {r.id: resolved.effective for r in resolved.profile.rules}
    for inc in resolved.profile.includes:
        owner = load_all()[inc.rule.owner]
        if inc.version == "same":
            at[inc.rule.id] = resolved.effective
        elif inc.version == "newest":
            at[inc.rule.id] = owner.newest.version if owner.newest is not None else None
        else:
            at[inc.rule.id] = Version(inc.version)
    return resolved.effective, at


def as_served(catalog: Catalog) -> Catalog:
    """The catalog as `catalogaudit serve` presents it to the client, which is what a
    prediction is about: a 2026-07-28 snapshot whose server is not recorded answering a legacy
    `initialize` with its pages (a static one, or one taken without `--legacy-probe`) is served
    2026-07-28 only, its `initialize` refused, so the handshake rules see that refusal."""
    proto = catalog.capture.get("protocol")
    if not isinstance(proto, dict) or proto.get("era") != "modern":
        return catalog
    legacy = proto.get("legacy")
    wire = catalog.doc.get("wire")
    pages = not isinstance(wire, dict) or isinstance(wire.get("legacy"), dict)
    if isinstance(legacy, dict) and legacy.get("answered") is True and pages:
        return catalog
    refused = {
        "answered": False,
        "reason": "a refusal (catalogaudit serve answers this snapshot in 2026-07-28 only)",
    }
    capture = {**catalog.capture, "protocol": {**proto, "legacy": refused}}
    return replace(catalog, doc={**catalog.doc, "capture": capture})


def _effect(finding: Finding) -> str:
    """The rule effect the finding's message ends with (profiles append it after `; `)."""
    return finding.message.rsplit("; ", 1)[-1]


def predict(target: Target, profile: str) -> list[Observation]:
    """The profile's verdicts on every listing the driver lists, and every item in them."""
    return list(_verdicts(target, *_losses(target, profile)))


def lost_items(target: Target, profile: str, listing: str) -> dict[int, str]:
    """Served index -> why the profile loses that item of `listing` (dropped, or its listing
    failed): `predict`'s verdicts other than kept on the items of `listing`, without one
    `Observation` per kept item (a bill asks this of every client for both inputs)."""
    listed, failed, dropped = _losses(target, profile)
    if listing not in listed:
        return {}
    why = failed.get(listing)
    out = {}
    for item in target.catalog.items(listing):
        reason = why or dropped.get((listing, item.served_index))
        if reason:
            out[item.served_index] = reason
    return out


def _losses(
    target: Target, profile: str
) -> tuple[list[str], dict[str, str], dict[tuple[str, int], str]]:
    """The listings the profile reads, why each failed listing fails, and why each dropped
    item (listing, served index) is dropped."""
    catalog = as_served(target.catalog)
    report = audit(catalog, AuditOptions(profiles=(profile,), only=_listing_rules(profile)))
    errors = [f for f in report.findings if f.severity is Severity.ERROR]
    effective, at = _versions(profile)
    listed = [n for n in target.listings if n in _reads(profile, effective)]
    by_index: dict[str, dict[int, Any]] = {}  # filled for a listing on its first item finding
    failed: dict[str, str] = {}
    dropped: dict[tuple[str, int], str] = {}
    for finding in errors:
        why = f"{finding.rule_id}: {finding.message}"
        pointer = finding.location.pointer if finding.location else ""
        where = _ITEM_POINTER.match(pointer)
        listing = where.group(1) if where else finding.kind
        cost = reach(
            finding.rule_id,
            at.get(finding.rule_id, effective),
            listing if listing in LISTINGS else None,
            _effect(finding),
        )
        if cost in ("request", "none"):
            continue
        if listing not in LISTINGS:
            cap = _CAPABILITY_POINTER.match(pointer)
            names = [n for n in listed if cap is None or cost != "list" or _of(n, cap.group(1))]
            for name in names:
                failed.setdefault(name, why)
        elif cost == "server":
            for name in listed:
                failed.setdefault(name, why)
        elif cost == "list" or (cost == "item-and-later" and where is None):
            failed.setdefault(listing, why)
        elif where is not None:
            if listing not in by_index:
                by_index[listing] = {i.index: i for i in catalog.items(listing)}
            item = by_index[listing].get(int(where.group(2)))
            if item is None:
                continue
            after = item.served_index
            later = (
                [i.served_index for i in catalog.items(listing) if i.served_index > after]
                if cost == "item-and-later"
                else []
            )
            for served in (item.served_index, *later):
                dropped.setdefault((listing, served), why)
    _all_dropped(target, listed, profile, effective, failed, dropped)
    return listed, failed, dropped


@cache
def _listing_rules(profile: str) -> frozenset[str] | None:
    """The profile's rules whose errors can cost a listing (None: not a known profile). Each
    finding's cost is `reach` of its rule, version, listing and effect (its clause's, which
    ends the message), and `predict` skips errors of cost `request` or `none`: rules with no
    other can go unrun."""
    from catalogaudit.profiles import applicable
    from catalogaudit.profiles import resolve_profile as resolve

    if profile.partition("@")[0] not in load_all():
        return None
    effective, at = _versions(profile)
    return frozenset(
        rule.id
        for rule, clause, severity in applicable(resolve(profile, {}))
        if severity is Severity.ERROR
        and any(
            reach(
                rule.id,
                at.get(rule.id, effective),
                listing,
                f"; {clause.effect}".rsplit("; ", 1)[-1],
            )
            not in ("request", "none")
            for listing in (*LISTINGS, None)
        )
    )


def _of(listing: str, capability: str) -> bool:
    return CAPABILITY_OF[listing] == capability


def _reads(profile: str, version: Version | None) -> frozenset[str]:
    """The listings the enforcer reads at `version` (all of them for an unknown profile)."""
    known = load_all().get(profile.partition("@")[0])
    return known.listings_read(version) if known is not None else frozenset(LISTINGS)


def _all_dropped(
    target: Target,
    listed: list[str],
    profile: str,
    version: Version | None,
    failed: dict[str, str],
    dropped: Mapping[tuple[str, int], str],
) -> None:
    """Apply the profile's `all_dropped` entries: a listing whose every item is dropped."""
    rules = _data()[1].get(profile.partition("@")[0], ())
    for name in listed:
        items = target.catalog.items(name)
        if name in failed or not items:
            continue
        reasons = [dropped.get((name, i.served_index)) for i in items]
        if not all(reasons):
            continue
        for entry in rules:
            if entry.applies(version, name):
                why = f"every item of {name} is dropped ({reasons[0]})"
                hit = listed if entry.scope == "server" else [name]
                for other in hit:
                    failed.setdefault(other, why)
                break


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
