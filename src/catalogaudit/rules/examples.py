"""Each rule's failing and passing example (`catalogaudit rule ID`), as package data.

`examples.json` holds, per rule id, the smallest failing and passing case of the rule's own
fixtures (`fixtures/rules/<ID>/`), copied in by `scripts/rule_examples.py` because fixtures
are not installed; a test runs the audit engine on every example to prove it fails (or
passes) its rule. Rules found while capturing, by the rewrite or by the user's contract have
no catalog that shows them; `why_none` says where they come from instead.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def examples() -> dict[str, dict[str, Any]]:
    """Rule id -> {"failing": example | None, "passing": example | None}."""
    text = resources.files("catalogaudit.rules").joinpath("examples.json").read_text("utf-8")
    data: dict[str, dict[str, Any]] = json.loads(text)
    return data


def of(rule_id: str) -> dict[str, Any]:
    """The rule's two examples (each None when the rule has none)."""
    return examples().get(rule_id, {"failing": None, "passing": None})


def why_none(rule_id: str) -> str:
    """Why a rule has no catalog example: where its findings come from."""
    if rule_id.startswith("CA5"):
        return (
            "found while capturing or reading the wire (snapshot, the intake of JSON-RPC "
            "captures), not by a check over catalog content: no catalog file shows it"
        )
    if rule_id == "CA901":
        return "the rewrite's refusal (rewrite, audit --substitutions): it needs substitutions"
    if rule_id.startswith("CA91"):
        return "a contract assertion: it fails or passes on the options you give (--expect-tool)"
    if rule_id == "CA920":
        return "--strict-baseline: it fails on a baseline entry that matches no finding"
    if rule_id.startswith("CA93"):
        return (
            "a fleet rule: it judges every server of a configuration together (audit DIR, "
            "from snapshot --servers), never one catalog"
        )
    if rule_id.startswith("CA94"):
        return "a server.json lint (audit server.json): it judges a registry entry, not a catalog"
    if rule_id == "PROFILE-VER-001":
        return "a note on the version asked for (--profile ID@VERSION), not on the catalog"
    return "no fixture holds an example of this rule"


__all__ = ["examples", "of", "why_none"]
