"""Every spec rule against its pass and fail fixtures, asserting the exact finding set."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalogaudit.auditing.engine import run_rules
from catalogaudit.intake import read_catalog
from catalogaudit.model.catalog import Catalog
from catalogaudit.rules.base import Context
from catalogaudit.rules.registry import SPEC_RULES

RULES_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "rules"
BY_ID = {r.id: r for r in SPEC_RULES}


def load_case(path: Path) -> Catalog:
    config_file = path.parent / "_config.json"
    config: dict[str, Any] = json.loads(config_file.read_text()) if config_file.exists() else {}
    doc = read_catalog(str(path), protocol=config.get("revision", "2025-11-25")).doc
    return Catalog(doc, source=str(path))


def cases() -> list[Any]:
    out = []
    for rule_dir in sorted(RULES_DIR.glob("CA*")):
        for path in sorted(rule_dir.glob("*/*.json")):
            if path.name.endswith(".expected.json") or path.name.startswith("_"):
                continue
            out.append(
                pytest.param(
                    rule_dir.name, path, id=f"{rule_dir.name}-{path.parent.name}-{path.stem}"
                )
            )
    return out


@pytest.mark.parametrize(("rule_id", "path"), cases())
def test_rule_case(rule_id: str, path: Path) -> None:
    catalog = load_case(path)
    found, errors = run_rules(catalog, [BY_ID[rule_id]], Context())
    assert not errors
    got = sorted(
        ([f.rule_id, f.kind, f.identity, f.pointer] for f in found),
        key=lambda r: [str(x) for x in r],
    )
    if path.parent.name == "pass":
        assert got == []
    else:
        expected_file = path.with_name(path.stem + ".expected.json")
        expected = json.loads(expected_file.read_text())
        assert got == sorted(expected, key=lambda r: [str(x) for x in r])
        for f in found:
            assert f.message and f.location is not None and f.source.startswith("https://")


def test_every_spec_rule_has_pass_and_fail_cases_and_metadata() -> None:
    ids = [r.id for r in SPEC_RULES]
    assert len(ids) == len(set(ids))
    for rule in SPEC_RULES:
        assert rule.id[:2] == "CA" and rule.id[2:].isdigit() and len(rule.id) == 5
        assert rule.summary and rule.description and rule.hint and rule.source
        for kind in ("pass", "fail"):
            assert list((RULES_DIR / rule.id / kind).glob("*.json")), f"{rule.id} lacks {kind}"


@pytest.mark.parametrize("number", ["2", "9" * 400, "-" + "9" * 400, "0.5", "1e400"])
def test_a_priority_is_judged_whatever_its_size(number: str, tmp_path: Path) -> None:
    """CA301 read the priority as a double: an integer of 400 digits raised OverflowError,
    so the rule crashed. Out of [0, 1] it is a finding, as any number there."""
    page = '{"resources": [{"uri": "file:///a", "name": "a", "annotations": {"priority": %s}}]}'
    path = tmp_path / "page.json"
    path.write_text(page % number)
    found, errors = run_rules(load_case(path), [BY_ID["CA301"]], Context())
    assert errors == []
    assert len(found) == (number != "0.5"), found
