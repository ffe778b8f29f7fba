"""A stand-in for the OpenAI Chat Completions API (`POST .../chat/completions`, streamed as
server-sent `chat.completion.chunk`s or one JSON completion) on loopback, for opencode through
a custom OpenAI-compatible provider (`@ai-sdk/openai-compatible` with a loopback `baseURL`).
Recording and bounds: `verify.standin`.

A request whose `tools` hold wanted tools no earlier turn called gets one `tool_calls` entry
per such tool, in one answer; any other request (opencode's title request has no tools) gets
a short text. A tool's model view is its `function` object.
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
    """`POST .../chat/completions`."""
    return route.endswith("/chat/completions")


def offered(rec: Recorded) -> list[Offered]:
    """Every function tool of the request: its `function` object."""
    out: list[Offered] = []
    for text in items(member(body_text(rec), "tools")):
        inner = member(text, "function")
        value = json.loads(inner) if inner else None
        if isinstance(value, dict):
            out.append(Offered(str(value.get("name")), inner or ""))
    return out


def _messages(body: Any) -> list[dict[str, Any]]:
    found = body.get("messages") if isinstance(body, dict) else None
    return [m for m in found or [] if isinstance(m, dict)]


def _called(body: Any) -> set[str]:
    return {
        str(call.get("function", {}).get("name"))
        for m in _messages(body)
        if m.get("role") == "assistant"
        for call in m.get("tool_calls") or []
        if isinstance(call, dict)
    }


def outcomes(requests: list[Recorded]) -> dict[str, tuple[bool, str]]:
    """Call id -> (is_error, text) of each `tool` message the client sent back (no error
    flag in this API: False)."""
    out: dict[str, tuple[bool, str]] = {}
    for rec in requests:
        for m in _messages(rec.json()):
            if m.get("role") == "tool":
                out[str(m.get("tool_call_id"))] = (False, text_of(m.get("content")))
    return out


def respond(script: Script) -> Callable[[Recorded], Answer]:
    """The Chat Completions answers for `script`."""
    count = itertools.count(1)

    def answer(rec: Recorded) -> Answer:
        if rec.method != "POST" or not is_model(rec.route):
            return json_answer({"object": "list", "data": []})
        body = rec.json()
        if not isinstance(body, dict):
            return json_answer({"error": {"message": "body is not a JSON object"}}, 400)
        n = next(count)
        schemas = [
            (str(t["function"].get("name")), t["function"].get("parameters"))
            for t in body.get("tools") or []
            if isinstance(t, dict) and isinstance(t.get("function"), dict)
        ]
        todo = script.calls(schemas, _called(body), CALL_ID)
        calls = [
            {
                "index": i,
                "id": cid,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for i, (cid, name, args) in enumerate(todo)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": None if calls else FINAL_TEXT}
        if calls:
            message["tool_calls"] = calls
        finish = "tool_calls" if calls else "stop"
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        head = {"id": f"chatcmpl-catalogaudit-{n}", "created": 0, "model": body.get("model")}
        if body.get("stream") is not True:
            choice = {"index": 0, "message": message, "finish_reason": finish}
            return json_answer(
                {**head, "object": "chat.completion", "choices": [choice], "usage": usage}
            )
        chunk = {**head, "object": "chat.completion.chunk"}
        events: list[tuple[str | None, Any]] = [
            (None, {**chunk, "choices": [{"index": 0, "delta": message, "finish_reason": None}]}),
            (None, {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}),
            (None, {**chunk, "choices": [], "usage": usage}),
            (None, "[DONE]"),
        ]
        return 200, sse(events), "text/event-stream"

    return answer


@contextmanager
def running(script: Script, limits: Limits | None = None) -> Iterator[StandIn]:
    """Serve the Chat Completions stand-in for `script` for the `with` block."""
    with serve(respond(script), is_model, limits) as stand:
        yield stand
