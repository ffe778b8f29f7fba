"""The Messages API stand-in (issue 17): records each request byte for byte (credentials left
out), plays tool_use with schema-valid arguments, then a final text; streamed or not."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import jsonschema

from catalogaudit.serve.instances import MAX_LENGTH
from catalogaudit.verify.messages_api import FINAL_TEXT, Script, running

TOOLS = [
    {
        "name": "mcp__s__pick",
        "description": "d",
        "input_schema": {
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 3, "maximum": 9},
                "mode": {"enum": ["fast", "slow"]},
                "id": {"type": "string", "pattern": "^[a-z]{2}-\\d{3}$"},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            },
            "required": ["n", "mode", "id", "tags"],
        },
    },
    {"name": "Bash", "description": "x", "input_schema": {"type": "object"}},
]


def _post(url: str, body: dict[str, Any]) -> tuple[str, bytes]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    req = urllib.request.Request(
        url + "/v1/messages?beta=true",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-api-key": "secret"},
    )
    with opener.open(req, timeout=10) as resp:
        return resp.headers["Content-Type"], resp.read()


def _events(raw: bytes) -> list[dict[str, Any]]:
    return [json.loads(line[6:]) for line in raw.decode().splitlines() if line.startswith("data: ")]


def test_streamed_tool_use_then_text() -> None:
    with running(Script(lambda n: n.startswith("mcp__"))) as stand:
        body = {
            "model": "m",
            "stream": True,
            "tools": TOOLS,
            "messages": [{"role": "user", "content": "go"}],
        }
        kind, raw = _post(stand.url, body)
        assert kind == "text/event-stream"
        events = _events(raw)
        assert [e["type"] for e in events] == [
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
        ]
        start = events[1]["content_block"]
        assert start["type"] == "tool_use" and start["name"] == "mcp__s__pick"
        args = json.loads(events[2]["delta"]["partial_json"])
        jsonschema.validate(args, TOOLS[0]["input_schema"])
        assert events[4]["delta"]["stop_reason"] == "tool_use"
        follow = {
            **body,
            "messages": [
                *body["messages"],
                {"role": "assistant", "content": [{**start, "input": args}]},
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": start["id"], "content": "ok"}
                    ],
                },
            ],
        }
        events = _events(_post(stand.url, follow)[1])
        assert events[2]["delta"] == {"type": "text_delta", "text": FINAL_TEXT}
        assert events[4]["delta"]["stop_reason"] == "end_turn"
        sent = stand.model_requests()
        assert [r.body for r in sent] == [json.dumps(body).encode(), json.dumps(follow).encode()]
        assert "x-api-key" not in sent[0].headers
        assert sent[0].path == "/v1/messages?beta=true"


def test_plain_json_and_other_routes() -> None:
    with running(Script(lambda n: False)) as stand:
        kind, raw = _post(stand.url, {"model": "m", "tools": TOOLS, "messages": []})
        assert kind == "application/json"
        message = json.loads(raw)
        assert message["content"] == [{"type": "text", "text": FINAL_TEXT}]
        assert message["stop_reason"] == "end_turn"
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        req = urllib.request.Request(stand.url + "/v1/messages/count_tokens", data=b"{}")
        with opener.open(req, timeout=10) as resp:
            assert json.loads(resp.read()) == {"input_tokens": 1}
        assert len(stand.requests) == 2 and len(stand.model_requests()) == 1


def test_arguments_from_huge_schemas_stay_small() -> None:
    """Arguments for `minLength: 3e8`, `minItems: 1e8` and sizes multiplied through nesting
    come from the bounded generator (`serve.instances`): the grid made a 10 MB body before.
    (Written as integers, the two others made gigabytes; as `3e8` and `1e8` they were not read
    as sizes at all.)"""
    grid: dict[str, Any] = {"type": "string", "minLength": 1000}
    for _ in range(2):
        grid = {"type": "array", "minItems": 100, "items": grid}
    props = {
        "grid": grid,
        "text": {"type": "string", "minLength": 3e8},
        "list": {"type": "array", "minItems": 1e8},
    }
    tools = [
        {
            "name": f"mcp__s__{name}",
            "description": "d",
            "input_schema": {"type": "object", "properties": {name: schema}, "required": [name]},
        }
        for name, schema in props.items()
    ]
    with running(Script(lambda n: n.startswith("mcp__"))) as stand:
        kind, raw = _post(stand.url, {"model": "m", "tools": tools, "messages": []})
    assert kind == "application/json" and len(raw) < 2_000_000
    blocks = json.loads(raw)["content"]
    assert [b["name"] for b in blocks] == [t["name"] for t in tools]
    assert len(blocks[1]["input"]["text"]) == MAX_LENGTH  # 3e8 read as a size, then bounded


def test_many_deferred_tools_are_loaded_in_several_searches() -> None:
    """One ToolSearch `select:` of 101 or more names left some unloaded (2.1.328, the lattice's
    tools.count shapes); the stand-in asks for every wanted name across calls of 50."""
    from catalogaudit.verify.messages_api import SEARCH, reply

    names = [f"mcp__s__t{n:03}" for n in range(120)]
    body = {
        "tools": [{"name": SEARCH, "input_schema": {"type": "object"}}],
        "system": [{"type": "text", "text": "deferred tools:\n" + "\n".join(names)}],
        "messages": [{"role": "user", "content": "hi"}],
    }
    blocks, stop = reply(Script(lambda n: n != "mcp__s__t007", search=True), body)
    assert stop == "tool_use"
    assert {b["name"] for b in blocks} == {SEARCH}
    assert len({b["id"] for b in blocks}) == len(blocks) == 3
    picked = [n for b in blocks for n in b["input"]["query"].removeprefix("select:").split(",")]
    assert sorted(picked) == [n for n in names if n != "mcp__s__t007"]
    assert all(b["input"]["max_results"] <= 50 for b in blocks)
