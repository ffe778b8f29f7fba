"""`verify.predict.Reuse`: a bill predicts every client's listing-time drops on both inputs of
`diff`, which share most items, so a rule whose checks are per item (`rules.PER_ITEM`) and
found nothing on the first input runs on the second only over the items it adds. Its verdicts
must be those of the whole audit, and a check declared per item must find on a catalog
exactly what it finds on each of its items alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT

from catalogaudit import intake
from catalogaudit.model import LISTINGS, Catalog
from catalogaudit.profiles import applicable, load_all, resolve_profile
from catalogaudit.rules import CHECKS, PER_ITEM, Context
from catalogaudit.verify import predict as module
from catalogaudit.verify import reuse as shared
from catalogaudit.verify.base import Target
from catalogaudit.verify.lattice import shapes
from catalogaudit.verify.observatory import target
from catalogaudit.verify.prompts import prompt_clients

CATALOGS = sorted((ROOT / "fixtures" / "real-servers").glob("*.snapshot.json"))


def _files() -> list[Target]:
    return [Target(p.name, Path(""), Catalog(intake.read_catalog(str(p)).doc)) for p in CATALOGS]


#: Every seventh lattice shape: each defect kind a rule reads, most of them more than once.
STRIDE = 7


@pytest.mark.parametrize("profile", prompt_clients())
def test_verdicts_after_an_earlier_catalog_are_the_whole_audits(
    profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lattice shapes (one defect on a base catalog) after their base, the base after them,
    and each real server after another."""
    lattice = [target(s, None) for s in shapes()]
    bases: dict[str, Target] = {}
    pairs = []
    for t in lattice[::STRIDE]:
        base = bases.setdefault(str(t.catalog.capture.get("protocol")), t)
        if t is not base:
            pairs += [(base, t), (t, base)]
    files = _files()
    pairs += list(zip(files, files[1:], strict=False))
    narrowed = []
    original = shared.Reuse.rules

    def rules(self: shared.Reuse, *args: Any) -> frozenset[str] | None:
        got = original(self, *args)
        narrowed.append(got != args[-1])
        return got

    monkeypatch.setattr(shared.Reuse, "rules", rules)
    whole = {t.label: module._losses(t, profile) for pair in pairs for t in pair}
    for first, later in pairs:
        reuse = shared.Reuse()
        assert module._losses(first, profile, reuse) == whole[first.label]
        assert module._losses(later, profile, reuse) == whole[later.label], later.label
    assert any(narrowed), "no later catalog skipped a rule: the test shows nothing"


def _hits(check: str, params: dict[str, Any], catalog: Catalog) -> list[tuple[Any, ...]]:
    """What the check finds, each hit as its item's listing and value, pointer and text (the
    item named alike: one without an identity is named by its position)."""
    return [
        (
            h.item and h.item.listing,
            h.item and repr(h.item.value),
            h.pointer,
            h.message.replace(h.item.label, "<item>") if h.item else h.message,
            h.note,
        )
        for h in CHECKS[check](catalog, params, Context())
    ]


def _alone(catalog: Catalog, listing: str, value: Any) -> Catalog:
    return Catalog({"capture": catalog.capture, "listings": {listing: {"items": [value]}}})


def test_a_per_item_check_finds_on_a_catalog_what_it_finds_on_each_item() -> None:
    """Every clause of a per-item check type in any profile, on lattice shapes and the real
    servers: its hits are those on one-item catalogs."""
    clauses = {
        (clause.type, json.dumps(clause.params, sort_keys=True))
        for pid in sorted(load_all())
        for _, clause, _ in applicable(resolve_profile(pid, {}))
        if clause.type in PER_ITEM
    }
    assert {kind for kind, _ in clauses} == PER_ITEM
    lattice = [target(s, None).catalog for s in shapes()[::STRIDE]]
    found = 0
    for catalog in lattice + [t.catalog for t in _files()]:
        alone = [
            _alone(catalog, name, item.value) for name in LISTINGS for item in catalog.items(name)
        ]
        for kind, text in sorted(clauses):
            params = json.loads(text)
            whole = _hits(kind, params, catalog)
            each = [hit for one in alone for hit in _hits(kind, params, one)]
            assert sorted(whole, key=repr) == sorted(each, key=repr), (kind, params)
            found += len(whole)
    assert found, "no per-item check found anything: the test shows nothing"
