"""The published JSON Schema of the configuration (docs/catalogaudit.schema.json, for editors'
completion) names exactly the keys the loader accepts, and agrees with it on what is valid: every
TOML example in the docs passes both, and a wrong type or an unknown key fails both."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jsonschema
import pytest
from helpers import ROOT

from catalogaudit.errors import UsageError
from catalogaudit.verbs import config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SCHEMA = json.loads((ROOT / "docs" / "catalogaudit.schema.json").read_text(encoding="utf-8"))


def _valid(table: dict[str, object]) -> bool:
    return not list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(table))


def _loads(table: dict[str, object], tmp_path: Path) -> bool:
    try:
        config._checked(table, tmp_path / "catalogaudit.toml", tmp_path)
    except UsageError:
        return False
    return True


def test_the_schema_names_the_loaders_keys() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert set(SCHEMA["properties"]) == set(config.KEYS)
    assert set(SCHEMA["properties"]["server"]["properties"]) == set(config.SERVER_KEYS)
    assert SCHEMA["$id"].endswith("/docs/catalogaudit.schema.json")


def _doc_tables() -> list[tuple[str, dict[str, object]]]:
    out = []
    for page in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for block in re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            doc = tomllib.loads(block)
            table = doc.get("tool", {}).get("catalogaudit", doc)
            if table and "accept" not in table:
                out.append((page.name, table))
    return out


@pytest.mark.parametrize(("page", "table"), _doc_tables())
def test_the_docs_examples_pass_both(page: str, table: dict[str, object], tmp_path: Path) -> None:
    assert _valid(table), page
    assert _loads(dict(table), tmp_path), page


@pytest.mark.parametrize(
    "table",
    [
        {"fail_on": "error"},
        {"profiles": 3},
        {"min-tools": -1},
        {"strict-baseline": "yes"},
        {"server": {"command": "x", "url": "http://h"}},
        {"server": {"cmd": "x"}},
    ],
)
def test_wrong_tables_fail_both(table: dict[str, object], tmp_path: Path) -> None:
    assert not _valid(table)
    assert not _loads(table, tmp_path)
