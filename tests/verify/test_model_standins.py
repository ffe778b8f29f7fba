"""The OpenAI Responses, Chat Completions and Gemini stand-ins (issue 35) and the bounds they
share with the Messages API one (`verify.standin`): each request recorded byte for byte with
its credentials left out, calls of the wanted tools with schema-valid arguments, then a text;
a body, request count or time over the bounds refused."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import jsonschema
import pytest

from catalogaudit.verify import chat_api, gemini_api, responses_api
from catalogaudit.verify.standin import Limits, Script

SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer", "minimum": 3}, "id": {"pattern": "^[a-z]{2}$"}},
    "required": ["n", "id"],
}


def _post(url: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    req = urllib.request.Request(
        url, data=body, headers={"content-type": "application/json", **(headers or {})}
    )
    try:
        with opener.open(req, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def _data(raw: bytes) -> list[Any]:
    return [
        json.loads(line[6:])
        for line in raw.decode().splitlines()
        if line.startswith("data: ") and line != "data: [DONE]"
    ]


def test_responses_calls_namespaced_tools_then_text() -> None:
    script = Script(lambda n: n.startswith("mcp__"))
    tools = [
        {"type": "function", "name": "exec_command", "parameters": {"type": "object"}},
        {
            "type": "namespace",
            "name": "mcp__s",
            "tools": [{"type": "function", "name": "pick", "strict": False, "parameters": SCHEMA}],
        },
    ]
    body = {"model": "m", "stream": True, "input": [], "tools": tools}
    raw = json.dumps(body, indent=1).encode()
    with responses_api.running(script) as stand:
        status, got = _post(stand.url + "/v1/responses", raw, {"authorization": "Bearer s"})
        (rec,) = stand.model_requests()
    assert status == 200 and rec.body == raw and "authorization" not in rec.headers
    assert [o.name for o in responses_api.offered(rec)] == ["exec_command", "mcp__s/pick"]
    assert json.loads(responses_api.offered(rec)[1].text)["parameters"] == SCHEMA
    events = _data(got)
    assert [e["type"] for e in events] == [
        "response.created",
        "response.output_item.done",
        "response.completed",
    ]
    call = events[1]["item"]
    assert (call["type"], call["namespace"], call["name"]) == ("function_call", "mcp__s", "pick")
    jsonschema.validate(json.loads(call["arguments"]), SCHEMA)
    follow = {
        **body,
        "input": [
            call,
            {"type": "function_call_output", "call_id": call["call_id"], "output": "fine"},
        ],
    }
    with responses_api.running(script) as stand:
        _, got = _post(stand.url + "/v1/responses", json.dumps(follow).encode())
        assert responses_api.outcomes(stand.model_requests()) == {call["call_id"]: (False, "fine")}
    assert _data(got)[1]["item"]["type"] == "message"


def test_chat_completions_streams_tool_calls_then_text() -> None:
    script = Script(lambda n: n.startswith("c0_"))
    tools = [
        {"type": "function", "function": {"name": "c0_pick", "parameters": SCHEMA}},
        {"type": "function", "function": {"name": "bash", "parameters": {}}},
    ]
    body = {
        "model": "m",
        "stream": True,
        "messages": [{"role": "user", "content": "go"}],
        "tools": tools,
    }
    with chat_api.running(script) as stand:
        _, got = _post(stand.url + "/v1/chat/completions", json.dumps(body).encode())
        (rec,) = stand.model_requests()
        assert [o.name for o in chat_api.offered(rec)] == ["c0_pick", "bash"]
        assert got.decode().rstrip().endswith("data: [DONE]")
        (call,) = _data(got)[0]["choices"][0]["delta"]["tool_calls"]
        jsonschema.validate(json.loads(call["function"]["arguments"]), SCHEMA)
        assert _data(got)[1]["choices"][0]["finish_reason"] == "tool_calls"
        after = {
            **body,
            "messages": [
                *body["messages"],
                {"role": "assistant", "tool_calls": [call]},
                {"role": "tool", "tool_call_id": call["id"], "content": "ok"},
            ],
        }
        _, got = _post(stand.url + "/v1/chat/completions", json.dumps(after).encode())
        assert chat_api.outcomes(stand.model_requests()) == {call["id"]: (False, "ok")}
    assert _data(got)[0]["choices"][0]["delta"]["content"] == chat_api.FINAL_TEXT


def test_gemini_function_calls_and_key_left_out() -> None:
    script = Script(lambda n: n.startswith("mcp_"))
    decl = {"name": "mcp_c0_pick", "description": "d", "parametersJsonSchema": SCHEMA}
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "tools": [{"functionDeclarations": [decl]}],
    }
    path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=secret"
    with gemini_api.running(script) as stand:
        _, got = _post(stand.url + path, json.dumps(body).encode(), {"x-goog-api-key": "k"})
        (rec,) = stand.model_requests()
    assert "secret" not in rec.path and "x-goog-api-key" not in rec.headers
    assert [o.value() for o in gemini_api.offered(rec)] == [decl]
    (part,) = _data(got)[0]["candidates"][0]["content"]["parts"]
    jsonschema.validate(part["functionCall"]["args"], SCHEMA)


@pytest.mark.parametrize("api", [responses_api, chat_api, gemini_api])
def test_bounds(api: Any) -> None:
    route = {
        responses_api: "/v1/responses",
        chat_api: "/v1/chat/completions",
        gemini_api: "/v1beta/models/m:generateContent",
    }[api]
    with api.running(Script(lambda _: False), Limits(body=100, count=2)) as stand:
        assert _post(stand.url + route, b"{" + b" " * 200 + b"}")[0] == 413
        assert _post(stand.url + route, b"{}")[0] == 200
        assert _post(stand.url + route, b"{}")[0] == 429
        assert len(stand.requests) == 2 and stand.requests[0].body == b""
    with api.running(Script(lambda _: False), Limits(seconds=0)) as stand:
        assert _post(stand.url + route, b"{}")[0] == 503 and not stand.requests
