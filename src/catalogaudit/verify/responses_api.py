"""A stand-in for the OpenAI Responses API (`POST .../responses`, streamed as server-sent
events) on loopback, for Codex through a custom model provider (`wire_api = "responses"`,
the only wire API Codex 0.169.0 accepts). Recording and bounds: `verify.standin`.

A request whose `tools` hold wanted tools no earlier turn called gets one `function_call`
output item per such tool, in one response; any other request gets a short assistant message.
Codex 0.169.0 sends a server's MCP tools inside one `{"type": "namespace", "name":
"mcp__<server>", "tools": [...]}` entry; a tool in a namespace is named `<namespace>/<tool>`
here, and its call carries the `namespace` member.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from catalogaudit.verify.standin import (
    Answer,
    Limits,
    Offered,
    Recorded,
    Script,
    StandIn,
    body_text,
    items,
    json_answer,
    member,
    sse,
    text_of,
)
from catalogaudit.verify.standin import running as serve

FINAL_TEXT = "Done."
CALL_ID = "call_catalogaudit_"


def is_model(route: str) -> bool:
    """`POST .../responses`."""
    return route.endswith("/responses")


def offered(rec: Recorded) -> list[Offered]:
    """Every function tool of the request, namespaced ones as `<namespace>/<name>`."""
    out: list[Offered] = []
    for text in items(member(body_text(rec), "tools")):
        value = json.loads(text)
        if not isinstance(value, dict):
            continue
        if value.get("type") == "namespace":
            space = str(value.get("name"))
            for inner in items(member(text, "tools")):
                tool = json.loads(inner)
                if isinstance(tool, dict):
                    out.append(Offered(f"{space}/{tool.get('name')}", inner))
        elif value.get("type") == "function":
            out.append(Offered(str(value.get("name")), text))
    return out


def _schemas(body: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for tool in body.get("tools") or [] if isinstance(body, dict) else []:
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "namespace":
            out += [
                (f"{tool.get('name')}/{t.get('name')}", t.get("parameters"))
                for t in tool.get("tools") or []
                if isinstance(t, dict)
            ]
        elif tool.get("type") == "function":
            out.append((str(tool.get("name")), tool.get("parameters")))
    return out


def _items(body: Any, kind: str) -> list[dict[str, Any]]:
    found = body.get("input") if isinstance(body, dict) else None
    return [i for i in found or [] if isinstance(i, dict) and i.get("type") == kind]


def _called(body: Any) -> set[str]:
    out = set()
    for item in _items(body, "function_call"):
        space = item.get("namespace")
        out.add(f"{space}/{item.get('name')}" if space else str(item.get("name")))
    return out


def outcomes(requests: list[Recorded]) -> dict[str, tuple[bool, str]]:
    """Call id -> (is_error, text) of each `function_call_output` the client sent back (the
    Responses API has no error flag: False)."""
    out: dict[str, tuple[bool, str]] = {}
    for rec in requests:
        for item in _items(rec.json(), "function_call_output"):
            out[str(item.get("call_id"))] = (False, text_of(item.get("output")))
    return out


def _call(cid: str, name: str, args: Any) -> dict[str, Any]:
    space, _, bare = name.rpartition("/")
    item = {"type": "function_call", "id": f"fc_{cid}", "call_id": cid, "name": bare or name}
    if space:
        item["namespace"] = space
    return {**item, "arguments": json.dumps(args), "status": "completed"}


def respond(script: Script) -> Callable[[Recorded], Answer]:
    """The Responses API answers for `script`."""
    count = itertools.count(1)

    def answer(rec: Recorded) -> Answer:
        if rec.method != "POST" or not is_model(rec.route):
            return json_answer({})
        body = rec.json()
        if not isinstance(body, dict):
            return json_answer({"error": {"message": "body is not a JSON object"}}, 400)
        n = next(count)
        todo = script.calls(_schemas(body), _called(body), CALL_ID)
        if todo:
            output = [_call(cid, name, args) for cid, name, args in todo]
        else:
            text = {"type": "output_text", "text": FINAL_TEXT, "annotations": []}
            output = [{"type": "message", "id": f"msg_{n}", "role": "assistant", "content": [text]}]
        response = {
            "id": f"resp_catalogaudit_{n}",
            "object": "response",
            "model": str(body.get("model", "stand-in")),
            "status": "completed",
            "output": output,
            "usage": {
                "input_tokens": 1,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": 1,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": 2,
            },
        }
        started = {**response, "status": "in_progress", "output": []}
        events: list[tuple[str | None, Any]] = [
            ("response.created", {"type": "response.created", "response": started})
        ]
        for i, item in enumerate(output):
            events.append(
                (
                    "response.output_item.done",
                    {"type": "response.output_item.done", "output_index": i, "item": item},
                )
            )
        events.append(("response.completed", {"type": "response.completed", "response": response}))
        if body.get("stream") is True:
            return 200, sse(events), "text/event-stream"
        return json_answer(response)

    return answer


@contextmanager
def running(script: Script, limits: Limits | None = None) -> Iterator[StandIn]:
    """Serve the Responses API stand-in for `script` for the `with` block."""
    with serve(respond(script), is_model, limits) as stand:
        yield stand
