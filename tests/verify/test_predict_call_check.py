"""A call's predicted fate under `call_check: arguments` (Gemini CLI checks the arguments
against the schema it sent, and checks nothing when that schema does not compile) on schemas
no validator can even look up: a `$schema` that is no string made the prediction raise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import cli

from catalogaudit.intake import read_catalog
from catalogaudit.model import REFUSED
from catalogaudit.verify.base import targets
from catalogaudit.verify.model_view import server_names
from catalogaudit.verify.predict_model import predict_views

CLIENT = "gemini-cli"


def _views(tools: list[dict[str, Any]], where: Path) -> dict[str, Any]:
    source, snap = where / "tools.json", where / "s.snapshot.json"
    source.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    assert cli("snapshot", "--from", str(source), "-o", str(snap)).code == 0
    (target,) = targets([read_catalog(str(snap)).doc], where)
    (server,) = server_names([target])
    names = frozenset(t["name"] for t in tools)
    got = predict_views(target, server, CLIENT, "default", names)
    return {str(i.identity): got[i.served_index] for i in target.catalog.items("tools")}


@pytest.mark.parametrize("dialect", [True, 1.5, [], {"": {}}])
def test_a_schema_keyword_that_is_no_string_checks_nothing(dialect: Any, tmp_path: Path) -> None:
    schema = {"$schema": dialect, "type": "object", "required": ["q"], "minProperties": 9}
    got = _views([{"name": "odd", "description": "x", "inputSchema": schema}], tmp_path)
    assert got["odd"].call != REFUSED and got["odd"].because == ""


def test_a_schema_that_compiles_still_has_its_arguments_checked(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "minProperties": 9}
    got = _views([{"name": "strict", "description": "x", "inputSchema": schema}], tmp_path)
    assert got["strict"].call == REFUSED and "checked the arguments" in got["strict"].because
