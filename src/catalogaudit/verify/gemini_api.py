"""A stand-in for the Gemini API's `generateContent` and `streamGenerateContent` (`?alt=sse`)
on loopback, for Gemini CLI (`GOOGLE_GEMINI_BASE_URL`, a dummy `GEMINI_API_KEY`). Recording
and bounds: `verify.standin`; the `gemini-cli` listing driver uses it too.

A request whose `functionDeclarations` hold wanted tools no earlier turn called gets one
`functionCall` part per such tool (with an `id`), in one candidate; any other request gets a
short text. A tool's model view is its function declaration.
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
)
from catalogaudit.verify.standin import running as serve

FINAL_TEXT = "ok"
CALL_ID = "catalogaudit_"


def is_model(route: str) -> bool:
    """`POST .../models/<model>:generateContent` or `:streamGenerateContent`."""
    return route.endswith((":generateContent", ":streamGenerateContent"))


def offered(rec: Recorded) -> list[Offered]:
    """Every function declaration of the request."""
    out: list[Offered] = []
    for tool in items(member(body_text(rec), "tools")):
        for text in items(member(tool, "functionDeclarations")):
            value = json.loads(text)
            if isinstance(value, dict):
                out.append(Offered(str(value.get("name")), text))
    return out


def _parts(body: Any, role: str | None, kind: str) -> list[dict[str, Any]]:
    found = body.get("contents") if isinstance(body, dict) else None
    return [
        p[kind]
        for c in found or []
        if isinstance(c, dict) and (role is None or c.get("role") == role)
        for p in c.get("parts") or []
        if isinstance(p, dict) and isinstance(p.get(kind), dict)
    ]


def outcomes(requests: list[Recorded]) -> dict[str, tuple[bool, str]]:
    """Call id (the name when no id came back) -> (is_error, text) of each `functionResponse`
    part; an `error` member in its response marks an error."""
    out: dict[str, tuple[bool, str]] = {}
    for rec in requests:
        for part in _parts(rec.json(), None, "functionResponse"):
            response = part.get("response")
            error = isinstance(response, dict) and "error" in response
            key = str(part.get("id") or part.get("name"))
            out[key] = (error, json.dumps(response, ensure_ascii=False))
    return out


def respond(script: Script) -> Callable[[Recorded], Answer]:
    """The Gemini API answers for `script` (every other route: 404)."""
    count = itertools.count(1)

    def answer(rec: Recorded) -> Answer:
        if rec.method != "POST" or not is_model(rec.route):
            return json_answer({"error": {"code": 404, "message": "not found"}}, 404)
        body = rec.json()
        if not isinstance(body, dict):
            return json_answer({"error": {"code": 400, "message": "body is not JSON"}}, 400)
        next(count)
        schemas = [
            (str(d.get("name")), d.get("parametersJsonSchema", d.get("parameters")))
            for tool in body.get("tools") or []
            if isinstance(tool, dict)
            for d in tool.get("functionDeclarations") or []
            if isinstance(d, dict)
        ]
        called = {str(p.get("name")) for p in _parts(body, "model", "functionCall")}
        todo = script.calls(schemas, called, CALL_ID)
        parts: list[dict[str, Any]] = [
            {"functionCall": {"id": cid, "name": name, "args": args}} for cid, name, args in todo
        ] or [{"text": FINAL_TEXT}]
        answer_ = {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 1,
                "candidatesTokenCount": 1,
                "totalTokenCount": 2,
            },
        }
        if "alt=sse" in rec.path:
            return 200, sse([(None, answer_)]), "text/event-stream"
        return json_answer(answer_)

    return answer


@contextmanager
def running(script: Script, limits: Limits | None = None) -> Iterator[StandIn]:
    """Serve the Gemini API stand-in for `script` for the `with` block."""
    with serve(respond(script), is_model, limits) as stand:
        yield stand
