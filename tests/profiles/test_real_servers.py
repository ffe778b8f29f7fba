"""The real-server fixture set (issue 13): each committed capture of a published server, audited
with every profile through the real CLI, gives exactly the findings its `.expected.json` lists,
so a profile change that moves a verdict on a real server is seen in review.

One `catalogaudit audit` process covers every capture and every profile (the JSON report names
each finding's file and profile). Regenerate on purpose with
`python scripts/refresh_real_servers.py --write`."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from typing import Any

import pytest
from helpers import FIXTURES, ROOT, cli, validate_snapshot


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "refresh_real_servers", ROOT / "scripts" / "refresh_real_servers.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


refresh = _script()
SET = FIXTURES / "real-servers"
NAMES = refresh.captures()


@pytest.fixture(scope="module")
def produced() -> dict[str, dict[str, Any]]:
    """Every capture's expected document as the current profile data makes it."""
    profiles = refresh.profile_ids()
    result = cli(*refresh.audit_args(NAMES, profiles), cwd=ROOT, env={"TZ": "UTC"})
    assert result.code == 0, str(result)
    docs: dict[str, dict[str, Any]] = refresh.expected_docs(result.json(), NAMES, profiles)
    return docs


def test_the_set_has_eight_servers_or_more_each_with_its_expected_file() -> None:
    docs = [json.loads((SET / f"{n}.snapshot.json").read_text()) for n in NAMES]
    servers = {doc["capture"]["serverInfo"]["name"] for doc in docs}
    assert len(servers) >= 8, servers
    expected = sorted(p.name.removesuffix(".expected.json") for p in SET.glob("*.expected.json"))
    assert expected == NAMES, f"captures and expected files differ; run: {refresh.REGENERATE}"


@pytest.mark.parametrize("name", NAMES)
def test_real_server_findings_per_profile(produced: dict[str, dict[str, Any]], name: str) -> None:
    path = SET / f"{name}.expected.json"
    want = json.loads(path.read_text(encoding="utf-8"))
    got = produced[name]
    if want != got:
        pytest.fail(refresh.changes(name, want, got), pytrace=False)
    assert path.read_text(encoding="utf-8") == refresh.render(got), (
        f"{path.name} is not in the layout the script writes; run: {refresh.REGENERATE}"
    )


@pytest.mark.parametrize("name", NAMES)
def test_capture_is_portable_and_documented(name: str) -> None:
    """Schema-valid, wire section kept, no absolute paths of this machine, listed in README."""
    text = (SET / f"{name}.snapshot.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    validate_snapshot(doc)
    assert doc["capture"]["wire"] == "kept"
    assert not re.search(r'"(/tmp|/work|/home|/root|/usr)/', text)
    env = doc["capture"]["server"].get("environment", {}).get("values", {})
    assert env.get("TZ", "UTC") == "UTC", "capture with TZ=UTC (see capture.sh)"
    readme = (SET / "README.md").read_text(encoding="utf-8")
    assert f"`{name}.snapshot.json`" in readme, f"README.md does not list {name}"
