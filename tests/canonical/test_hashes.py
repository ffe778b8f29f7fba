"""The three hashes against hand-written vectors (tests/vectors/hashes.json)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from catalogaudit.canonical import hashes
from catalogaudit.model import jsonwire, jsonwrite

VECTORS = json.loads((Path(__file__).parent.parent / "vectors" / "hashes.json").read_text())


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("case", VECTORS["items"], ids=lambda c: c["wire"][:30])
def test_item_hashes_match_hand_written_texts(case: dict[str, Any]) -> None:
    item = jsonwire.loads(case["wire"])
    got = hashes.item_hashes(case["listing"], item)
    assert jsonwrite.compact(item) == case["served"]
    assert jsonwrite.compact(hashes.prompt_projection(case["listing"], item)) == case["prompt"]
    assert jsonwrite.canonical(item) == case["canonical"]
    for kind in ("served", "prompt", "canonical"):
        assert sha(case[kind]) == case[kind + "Hash"], "vector file edited by hand?"
        assert getattr(got, kind) == case[kind + "Hash"]


def test_priority_1_point_0_and_1_differ_when_served_but_not_canonically() -> None:
    a, b = (
        hashes.item_hashes("resources", jsonwire.loads(c["wire"])) for c in VECTORS["items"][1:3]
    )
    assert a.served != b.served
    assert a.canonical == b.canonical
    assert a.prompt == b.prompt  # priority is not forwarded to the model


def test_listing_hashes() -> None:
    case = VECTORS["listing"]
    items = [jsonwire.loads(t) for t in case["wire"]]
    per_item = [hashes.item_hashes(case["listing"], item) for item in items]
    got = hashes.listing_hashes(case["listing"], items, per_item)
    assert got == {k: case[k] for k in ("served", "prompt", "canonical")}
    swapped = hashes.listing_hashes(case["listing"], items[::-1], per_item[::-1])
    assert swapped["canonical"] == got["canonical"]
    assert swapped["served"] != got["served"]


def test_catalog_hash() -> None:
    case = VECTORS["catalog"]
    assert hashes.catalog_hash(case["listings"], case["instructions"]) == case["catalog"]
    assert hashes.catalog_hash(case["listings"], None) != case["catalog"]
    assert hashes.combine([]) == VECTORS["emptyListing"]
