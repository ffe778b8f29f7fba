"""The `handshake` check over hand-made capture blocks: every branch of who reaches whom."""

from __future__ import annotations

from typing import Any

import pytest

from catalogaudit.model.catalog import Catalog
from catalogaudit.rules.base import Context
from catalogaudit.rules.checks import CHECKS

LEGACY4 = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
INITIALIZE_ONLY = {"discover": False, "initialize_versions": LEGACY4}
DISCOVERS = {"discover": True, "initialize_versions": LEGACY4}


def catalog(**protocol: Any) -> Catalog:
    capture: dict[str, Any] = {"protocol": {"era": "legacy", "handshake": "initialize", **protocol}}
    if "supported" in protocol:
        capture["supportedVersions"] = capture["protocol"].pop("supported")
    return Catalog({"capture": capture, "listings": {}}, source="t.json")


def hits(cat: Catalog, params: dict[str, Any]) -> list[tuple[str, bool]]:
    """(pointer, is a note): an unrecorded legacy probe is a note, not a finding (the gate
    issue, item 3: before, an info hit under an error rule)."""
    return [(h.pointer, h.note) for h in CHECKS["handshake"](cat, params, Context())]


MODERN = {"era": "modern", "handshake": "server/discover", "negotiated": "2026-07-28"}


@pytest.mark.parametrize(
    ("proto", "params", "expected"),
    [
        # a legacy server: the answered version decides
        ({"negotiated": "2025-06-18"}, INITIALIZE_ONLY, []),
        ({"negotiated": "2026-07-28"}, INITIALIZE_ONLY, [("/capture/protocol/negotiated", False)]),
        ({"negotiated": "2026-07-28"}, {"discover": False}, []),  # any version accepted
        # a modern server met through discover
        (MODERN, DISCOVERS, []),
        (
            {**MODERN, "supported": ["2027-01-01"]},
            DISCOVERS,
            [("/capture/protocol", True)],
        ),
        # a modern server met through initialize: the probe decides
        (MODERN, INITIALIZE_ONLY, [("/capture/protocol", True)]),
        (
            {
                **MODERN,
                "legacy": {"answered": True, "offered": "2025-11-25", "version": "2025-11-25"},
            },
            INITIALIZE_ONLY,
            [],
        ),
        (
            {
                **MODERN,
                "legacy": {"answered": True, "offered": "2025-11-25", "version": "2099-01-01"},
            },
            INITIALIZE_ONLY,
            [("/capture/protocol/legacy/version", False)],
        ),
        (
            {**MODERN, "legacy": {"answered": False, "offered": "2025-11-25", "reason": "silence"}},
            INITIALIZE_ONLY,
            [("/capture/protocol/legacy", False)],
        ),
        # static snapshots have no handshake to judge
        ({"handshake": "static", "negotiated": "2026-07-28"}, INITIALIZE_ONLY, []),
    ],
)
def test_handshake(proto: dict[str, Any], params: dict[str, Any], expected: list[Any]) -> None:
    assert hits(catalog(**proto), params) == expected


def test_the_refusal_is_quoted() -> None:
    legacy = {
        "answered": False,
        "offered": "2025-11-25",
        "error": {"code": -32022, "message": "Nope"},
    }
    (hit,) = CHECKS["handshake"](catalog(**MODERN, legacy=legacy), INITIALIZE_ONLY, Context())
    assert "-32022 Nope" in hit.message and "never sends server/discover" in hit.message
