"""One missing cache field, one finding (the gate issue, item 3).

Before, a 2026-07-28 page without its cache fields gave CA610 (the official schema's
`required`) and CA611 for each field: 24 errors for 12 missing fields; and CA611 also reported
cache fields on legacy pages, with a hint ("Return resultType, ttlMs and cacheScope on every
page") that said the opposite of its message. The server is the example server's capture
replayed over real stdio by `catalogaudit serve`, with the cache hints taken out or moved to
a legacy session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import PYTHON, cli, fixture

CAPTURE = fixture("captures", "example-server.snapshot.json")
LISTINGS = ["prompts", "resourceTemplates", "resources", "tools"]


def replayed(tmp_path: Path, *serve_args: str, protocol: str = "auto") -> list[dict[str, Any]]:
    snap = tmp_path / "replayed.json"
    server = [PYTHON, "-m", "catalogaudit", "serve", str(CAPTURE), *serve_args]
    result = cli("snapshot", "--protocol", protocol, "-o", str(snap), "--", *server)
    assert result.code == 0, str(result)
    audit = cli("audit", str(snap), "--format", "json", "--fail-on", "never")
    found: list[dict[str, Any]] = audit.json()["findings"]
    return found


def test_a_missing_cache_field_is_one_ca611_error(tmp_path: Path) -> None:
    found = replayed(tmp_path, "--cache-hints", "absent")
    assert {f["ruleId"] for f in found} == {"CA611"}, found
    got = sorted((f["listing"], f["pointer"]) for f in found)
    assert got == sorted(
        (listing, f"/{field}")
        for listing in LISTINGS
        for field in ("cacheScope", "resultType", "ttlMs")
    )
    assert all(f["severity"] == "error" for f in found)


def test_cache_fields_on_legacy_pages_are_ca612_with_its_own_hint(tmp_path: Path) -> None:
    found = replayed(
        tmp_path, "--protocol", "legacy", "--cache-hints", "present", protocol="legacy"
    )
    assert sorted((f["ruleId"], f["listing"]) for f in found) == [("CA612", k) for k in LISTINGS]
    for f in found:
        assert f["severity"] == "info"
        assert f["hint"].startswith("Omit resultType, ttlMs and cacheScope"), f["hint"]
