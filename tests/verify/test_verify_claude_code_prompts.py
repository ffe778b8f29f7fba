"""The claude-code driver's prompt and resource routes against the real Claude Code
(tests/package.json pins 2.1.328): one `claude -p` session over two served snapshots, prompts
read from its init line's slash commands, resources from its ListMcpResourcesTool call.

Observations are asserted, not predictions: this checks the driver, and the oracle suite
checks the profile."""

from __future__ import annotations

from pathlib import Path

from helpers import npm_bin
from helpers.oracle_common import observed, snapshot_of, verify_json

GOOD = {"name": "get_weather", "inputSchema": {"type": "object"}}
OK_PROMPT = {"name": "summarize"}
OK_RESOURCE = {"uri": "file:///a", "name": "a"}


def _snapshot(tmp_path: Path, name: str, prompts: list[object], resources: list[object]) -> Path:
    results = {"tools": [GOOD], "prompts": prompts, "resources": resources}
    return snapshot_of(tmp_path, name, {k: {k: v} for k, v in results.items()})


def test_claude_code_shows_its_prompts_and_resources(tmp_path: Path) -> None:
    """A prompt without a string name loses the prompt list and a resource with a numeric
    name the resource list (the TS SDK's zod schemas); the tool list is untouched."""
    npm_bin("claude")
    good = _snapshot(tmp_path, "good", [OK_PROMPT, {"name": "b"}], [OK_RESOURCE])
    bad = _snapshot(
        tmp_path, "bad", [OK_PROMPT, {"name": 3}], [OK_RESOURCE, {"uri": "file:///b", "name": 3}]
    )
    client = str(Path(npm_bin("claude")).parents[1])
    _, doc = verify_json("claude-code", [good, bad], client_path=client, timeout=300)
    verdicts = {
        path.stem: [(o["listing"], o["index"], o["verdict"]) for o in observed(doc, path)]
        for path in (good, bad)
    }
    assert verdicts == {
        "good": [
            ("tools", None, "kept"),
            ("tools", 0, "kept"),
            ("prompts", None, "kept"),
            ("prompts", 0, "kept"),
            ("prompts", 1, "kept"),
            ("resources", None, "kept"),
            ("resources", 0, "kept"),
        ],
        "bad": [
            ("tools", None, "kept"),
            ("tools", 0, "kept"),
            ("prompts", None, "failed"),
            ("prompts", 0, "dropped"),
            ("prompts", 1, "dropped"),
            ("resources", None, "failed"),
            ("resources", 0, "dropped"),
            ("resources", 1, "dropped"),
        ],
    }
