"""A stand-in for the Anthropic Messages API on loopback: no model, no key, no internet.

A client pointed at it (`ANTHROPIC_BASE_URL=http://127.0.0.1:PORT`) sends it exactly what it
would send the model; every request is recorded byte for byte (method, path, headers without
credentials, raw body). `POST /v1/messages` plays a script, streamed as server-sent events
(`message_start`, `content_block_start/delta/stop`, `message_delta`, `message_stop`) or as one
JSON message, as the request asks:

- a request whose `tools` hold tools of the plan that no earlier turn called gets one
  `tool_use` block per such tool, all in one turn, with arguments made from the `input_schema`
  the client sent (`serve.instances`), so a well-behaved server accepts them; with `search`,
  a request that only names them as deferred first gets a `ToolSearch` call that loads them;
- any other request (the turn after the `tool_result`s, the client's side requests) gets a
  short text and `end_turn`.

`POST /v1/messages/count_tokens` answers a token count; anything else is recorded and answered
`{}`. The recording and its bounds are `verify.standin`'s.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from catalogaudit.verify.standin import Answer, Limits, Recorded, Script, StandIn, json_answer, sse
from catalogaudit.verify.standin import running as serve

__all__ = ["FINAL_TEXT", "SEARCH", "TOOL_USE_ID", "Recorded", "Script", "running"]

FINAL_TEXT = "Done."
#: The prefix of the ids of the `tool_use` blocks the stand-in writes.
TOOL_USE_ID = "toolu_catalogaudit_"
#: Claude Code's tool that loads deferred tools.
SEARCH = "ToolSearch"
#: The most names one `ToolSearch` call of the stand-in selects.
SELECT = 50


def reply(script: Script, body: Any) -> tuple[list[dict[str, Any]], str]:
    """The content blocks and stop reason for one /v1/messages request body: with `search`,
    a `ToolSearch` call that loads the wanted deferred tools (`select:<name>,...`) first; then
    one `tool_use` block per tool to call; else a short text."""
    tools = body.get("tools") if isinstance(body, dict) else None
    called = _called(body)
    if script.search and SEARCH not in called:
        names = [n for n in sorted(deferred_names(body)) if script.wanted(n)]
        offered = any(isinstance(t, dict) and t.get("name") == SEARCH for t in tools or [])
        if names and offered:
            # One ToolSearch call per SELECT names: one call of 101 or more names left
            # some unloaded (measured over the lattice's tools.count shapes, 2.1.328).
            blocks = []
            for n in range(0, len(names), SELECT):
                part = names[n : n + SELECT]
                query = {"query": "select:" + ",".join(part), "max_results": len(part)}
                use = {"type": "tool_use", "id": f"{TOOL_USE_ID}search{n // SELECT or ''}"}
                blocks.append({**use, "name": SEARCH, "input": query})
            return blocks, "tool_use"
    offered_tools = [
        (t["name"], t.get("input_schema", {}))
        for t in tools or []
        if isinstance(t, dict) and isinstance(t.get("name"), str) and t["name"] != SEARCH
    ]
    todo = script.calls(offered_tools, called, TOOL_USE_ID)
    if not todo:
        return [{"type": "text", "text": FINAL_TEXT}], "end_turn"
    blocks = [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in todo]
    return blocks, "tool_use"


def deferred_names(body: Any) -> set[str]:
    """Names a request lists by themselves on a line of its messages or system text: Claude
    Code's list of deferred tools (`The following deferred tools are now available via
    ToolSearch`), MCP tools only."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            out.update(line.strip() for line in node.splitlines() if line.startswith("mcp__"))
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)

    if isinstance(body, dict):
        walk(body.get("messages"))
        walk(body.get("system"))
    return out


def _called(body: Any) -> set[str]:
    """Tool names some earlier assistant turn of this conversation already asked for."""
    out: set[str] = set()
    messages = body.get("messages") if isinstance(body, dict) else None
    for msg in messages or []:
        if isinstance(msg, dict) and msg.get("role") == "assistant":
            content = msg.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    out.add(str(block.get("name")))
    return out


def is_model(route: str) -> bool:
    """`POST /v1/messages` (not count_tokens)."""
    return route.endswith("/v1/messages")


def respond(script: Script) -> Callable[[Recorded], Answer]:
    """The Messages API answers for `script`."""
    count = itertools.count(1)

    def answer(rec: Recorded) -> Answer:
        if rec.method != "POST" or not rec.route.endswith(("/v1/messages", "/count_tokens")):
            return json_answer({})
        if rec.route.endswith("/count_tokens"):
            return json_answer({"input_tokens": 1})
        body = rec.json()
        if body is None:
            return json_answer(
                {
                    "type": "error",
                    "error": {"type": "invalid_request_error", "message": "not JSON"},
                },
                400,
            )
        blocks, stop = reply(script, body)
        model = str(body.get("model", "stand-in")) if isinstance(body, dict) else "stand-in"
        n = next(count)
        if isinstance(body, dict) and body.get("stream") is True:
            return 200, _events(n, model, blocks, stop), "text/event-stream"
        return json_answer(_message(n, model, blocks, stop))

    return answer


@contextmanager
def running(script: Script, limits: Limits | None = None) -> Iterator[StandIn]:
    """Serve the Messages API stand-in for `script` for the `with` block."""
    with serve(respond(script), is_model, limits) as stand:
        yield stand


def _usage() -> dict[str, int]:
    return {
        "input_tokens": 1,
        "output_tokens": 1,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def _message(n: int, model: str, blocks: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": f"msg_catalogaudit_{n}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": _usage(),
    }


def _events(n: int, model: str, blocks: list[dict[str, Any]], stop: str) -> bytes:
    """The message as the streamed event sequence."""
    start = {**_message(n, model, [], stop), "stop_reason": None}
    out: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    for i, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening: dict[str, Any] = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": i, "content_block": opening},
            )
        )
        out.append(
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta})
        )
        out.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
    )
    out.append(("message_stop", {"type": "message_stop"}))
    return sse(list(out))
