"""Cross-check: the items we capture equal what the `mcp` SDK's `Client` sees, apart from its
documented repairs (notes/mcp-spec-notes.md section 7: unknown keys dropped, `1` read as `1.0`).

The SDK is the reference reader most clients are built on; if our capture disagreed with it on
anything but those repairs, our snapshot would not be what clients see.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import PYTHON, cli, fixture, npm_bin

from catalogaudit.model import jsonwire, jsonwrite

METHODS = {
    "tools": "list_tools",
    "prompts": "list_prompts",
    "resources": "list_resources",
    "resourceTemplates": "list_resource_templates",
}


async def sdk_catalog(command: str, args: list[str], mode: str) -> dict[str, list[Any]]:
    from mcp import Client, StdioServerParameters

    out: dict[str, list[Any]] = {}
    params = StdioServerParameters(command=command, args=args)
    async with Client(params, mode=mode, cache=None) as client:  # type: ignore[arg-type]
        caps = client.server_capabilities
        for name, method in METHODS.items():
            cap = "tools" if name == "tools" else "prompts" if name == "prompts" else "resources"
            if getattr(caps, cap, None) is None:
                continue
            items: list[Any] = []
            cursor = None
            while True:
                page = await getattr(client, method)(cursor=cursor)
                models = getattr(
                    page, "resource_templates" if name == "resourceTemplates" else name
                )
                items.extend(
                    m.model_dump(by_alias=True, exclude_unset=True, mode="json") for m in models
                )
                cursor = page.next_cursor
                if cursor is None:
                    break
            out[name] = items
    return out


def repaired(ours: Any, sdk: Any, path: str, dropped: list[str]) -> None:
    """Assert equality up to the SDK's repairs; collect keys the SDK dropped."""
    if isinstance(ours, dict) and isinstance(sdk, dict):
        for key in ours:
            if key not in sdk:
                dropped.append(f"{path}/{key}")
                continue
            repaired(ours[key], sdk[key], f"{path}/{key}", dropped)
        assert set(sdk) <= set(ours), f"{path}: SDK invented {set(sdk) - set(ours)}"
    elif isinstance(ours, list) and isinstance(sdk, list):
        assert len(ours) == len(sdk), path
        for i, (a, b) in enumerate(zip(ours, sdk, strict=True)):
            repaired(a, b, f"{path}/{i}", dropped)
    else:
        assert ours == sdk, f"{path}: ours {ours!r} vs SDK {sdk!r}"


SERVERS = [
    pytest.param(
        lambda: (PYTHON, [str(fixture("servers", "example_server.py")), "stdio"]),
        "auto",
        id="example-mcp-2026",
    ),
    pytest.param(
        lambda: (PYTHON, [str(fixture("servers", "example_server.py")), "stdio"]),
        "legacy",
        id="example-mcp-legacy",
    ),
    pytest.param(
        lambda: (PYTHON, [str(fixture("servers", "fastmcp_server.py")), "stdio"]),
        "auto",
        id="fastmcp",
    ),
    pytest.param(
        lambda: (
            PYTHON,
            [
                str(fixture("servers", "raw_server.py")),
                "--tools",
                "12",
                "--page-size",
                "5",
                "--priority-lexemes",
            ],
        ),
        "auto",
        id="raw-paginated",
    ),
    pytest.param(
        lambda: (str(Path(sys.executable).parent / "mcp-server-time"), []),
        "auto",
        id="mcp-server-time",
    ),
    pytest.param(
        lambda: (npm_bin("mcp-server-everything"), ["stdio"]), "auto", id="server-everything"
    ),
]


@pytest.mark.parametrize(("server", "mode"), SERVERS)
def test_capture_equals_sdk_view(tmp_path: Path, server: Any, mode: str) -> None:
    command, args = server()
    protocol = "legacy" if mode == "legacy" else "auto"
    out = tmp_path / "s.json"
    result = cli("snapshot", "--protocol", protocol, "-o", str(out), "--", command, *args)
    assert result.code == 0, str(result)
    doc = json.loads(out.read_text())
    sdk = anyio.run(sdk_catalog, command, args, mode)
    assert sdk, "the SDK saw no listing at all"
    for name, sdk_items in sdk.items():
        rec = doc["listings"][name]
        served = [None] * len(rec["items"])
        for item, pos in zip(rec["items"], rec["servedPositions"], strict=True):
            served[pos] = item
        ours = json.loads(jsonwrite.compact(jsonwire.loads(json.dumps(served))))
        dropped: list[str] = []
        repaired(ours, sdk_items, f"/{name}", dropped)
        # The SDK keeps every key the spec defines for the negotiated era; what it drops must be
        # keys outside the schema (vendor keys) or keys of another era.
        allowed = {"execution", "text", "blob"}
        assert {d.rsplit("/", 1)[1] for d in dropped} <= allowed, dropped
