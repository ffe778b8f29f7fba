"""`snapshot --from` a snapshot file that is not valid (mutated real captures): one `error:`
line, exit 2, no file written; as every other verb that reads one (issue 33, hostile run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import cli, fixture

SEED = fixture("real-servers", "mcp-server-time.snapshot.json")


def _set(doc: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


MUTATIONS = {
    "listings-a-string": (("listings",), "{{x}}"),
    "listing-a-list": (("listings", "tools"), []),
    "items-a-string": (("listings", "tools", "items"), "x"),
    "wire-pages-a-string": (("wire", "pages"), "x"),
    "wire-page-not-a-string": (("wire", "pages", "tools"), [7]),
    "capture-a-list": (("capture",), []),
    "protocol-a-number": (("capture", "protocol"), 1),
    "served-positions-wrong": (("listings", "tools", "servedPositions"), ["a"]),
}


@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_snapshot_from_an_invalid_snapshot_is_one_error_line(case: str, tmp_path: Path) -> None:
    path, value = MUTATIONS[case]
    doc = _set(json.loads(SEED.read_text()), path, value)
    (tmp_path / "in.json").write_text(json.dumps(doc))
    result = cli("snapshot", "--from", "in.json", "-o", "out.json", cwd=tmp_path)
    assert result.code == 2, str(result)
    assert result.stderr.startswith("error: in.json: not a valid catalogaudit snapshot: ")
    assert result.stderr.count("\n") == 1 and "internal error" not in result.stderr
    assert not (tmp_path / "out.json").exists()
