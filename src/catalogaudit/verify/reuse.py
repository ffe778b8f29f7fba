"""Listing-time verdicts of catalogs that share most of their items, each item-local rule run
once per distinct item: a bill predicts every client's drops on both inputs of `diff`, which
differ in a few items (`verify.predict.lost_items`, `verify.prompts`)."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from catalogaudit.auditing import AuditOptions, audit
from catalogaudit.model import LISTINGS, Catalog, Report
from catalogaudit.rules import PER_ITEM


def value_digest(value: Any) -> bytes:
    """SHA-256 of a JSON value's `repr`, which writes its keys in order, its types and its
    floats exactly: equal digests, equal values (to a client's view, to a check)."""
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).digest()


class Reuse:
    """The listing-time verdicts of catalogs that share most of their items (a bill's inputs),
    one profile at a time, each item-local rule run once per distinct item.

    The first catalog a profile is asked about is audited whole. On a later one with the same
    capture (less the file's bookkeeping), a rule whose every check is per item
    (`rules.PER_ITEM`: its findings on a catalog are those on its items) and which found
    nothing on the first is run on the items the first did not have, and on the whole
    catalog only when it finds something there; every other rule runs on the whole catalog.
    So the findings are a whole audit's. A catalog that adds as many items as it shares
    runs every rule whole (auditing what it adds would cost as much)."""

    def __init__(self) -> None:
        #: profile -> how the first catalog was captured, its label, the catalog, and the
        #: per-item rules that found nothing on it (no finding, no error)
        self._first: dict[str, tuple[dict[str, Any], str, Catalog, frozenset[str]]] = {}
        #: label -> each listing's item digests (taken when a later catalog is asked about)
        self._digests: dict[str, dict[str, list[bytes]]] = {}
        self._sets: dict[str, dict[str, set[bytes]]] = {}

    def _of(self, label: str, catalog: Catalog) -> dict[str, list[bytes]]:
        """Each listing's item digests, in served order (once per catalog, by label)."""
        if label not in self._digests:
            self._digests[label] = {
                name: [value_digest(i.value) for i in catalog.items(name)] for name in LISTINGS
            }
        return self._digests[label]

    def rules(
        self, label: str, catalog: Catalog, profile: str, rules: frozenset[str] | None
    ) -> frozenset[str] | None:
        """The rules to run on the whole of `catalog` (labelled `label`)."""
        first = self._first.get(profile)
        if rules is None or first is None or first[0] != _how(catalog) or first[1] == label:
            return rules
        _, was, before, quiet = first
        total = sum(len(catalog.items(name)) for name in LISTINGS)
        if 2 * _unequal(before, catalog) >= total:
            return rules  # NOTE: auditing the added items would cost about a whole run
        if was not in self._sets:
            self._sets[was] = {n: set(d) for n, d in self._of(was, before).items()}
        seen = self._sets[was]
        digests = self._of(label, catalog)
        fresh: dict[str, list[Any]] = {}
        for name in LISTINGS:
            pairs = zip(catalog.items(name), digests[name], strict=True)
            fresh[name] = [i.value for i, d in pairs if d not in seen[name]]
        added = sum(map(len, fresh.values()))
        if 2 * added >= total:
            return rules
        if quiet and added:
            listings = {name: {"items": values} for name, values in fresh.items() if values}
            new = Catalog(
                {"capture": catalog.capture, "listings": listings},
                revision_override=catalog.revision_override,
            )
            quiet -= _found(audit(new, AuditOptions(profiles=(profile,), only=quiet)))
        return rules - quiet

    def ran(
        self,
        label: str,
        catalog: Catalog,
        profile: str,
        rules: frozenset[str] | None,
        report: Report,
    ) -> None:
        """Keep what the whole audit of the first catalog a profile is asked about found."""
        if rules is None or profile in self._first:
            return
        quiet = (rules & _per_item_rules(profile)) - _found(report)
        self._first[profile] = (_how(catalog), label, catalog, quiet)


def _unequal(before: Catalog, catalog: Catalog) -> int:
    """How many items of `catalog` differ from the item of their identity in `before` even
    by `==` (which takes 1 and 1.0, or keys in another order, as equal): at most as many as
    differ exactly, counted without a digest."""
    count = 0
    for name in LISTINGS:
        old = {i.identity: i.value for i in before.items(name)}
        count += sum(1 for i in catalog.items(name) if old.get(i.identity, _ABSENT) != i.value)
    return count


_ABSENT = object()


def _how(catalog: Catalog) -> dict[str, Any]:
    """How the catalog was captured: its capture block less the file's bookkeeping."""
    from catalogaudit.diffing import CAPTURE_IGNORED

    return {k: v for k, v in catalog.capture.items() if k not in CAPTURE_IGNORED}


def _found(report: Report) -> frozenset[str]:
    """The rules that found something, or raised."""
    return frozenset(f.rule_id for f in report.findings) | {e.rule_id for e in report.rule_errors}


@cache
def _per_item_rules(profile: str) -> frozenset[str]:
    """The profile's rules whose every check that applies is per item (`rules.PER_ITEM`)."""
    from catalogaudit.profiles import applicable
    from catalogaudit.profiles import resolve_profile as resolve

    types: dict[str, set[str]] = {}
    for rule, clause, _ in applicable(resolve(profile, {})):
        types.setdefault(rule.id, set()).add(clause.type)
    return frozenset(rule for rule, kinds in types.items() if kinds <= PER_ITEM)
