"""`tools/call` on a replayed snapshot: a result the tool's own schemas accept.

A snapshot records listings, not behaviour, so a call gets a made-up but well-formed answer:
text content naming the tool and, when the tool declares an `outputSchema`, `structuredContent`
generated from it (`serve.instances`; P:2025-06-18/server/tools "Structured Content": a tool
with an outputSchema must return structured results that conform to it) with its JSON as the
text, as the spec recommends for backwards compatibility. Arguments are checked against the
tool's `inputSchema`; arguments it refuses get a tool error result (`isError: true`), the way
an SDK server answers them. An unknown tool is a JSON-RPC error -32602
(P:2025-11-25/server/tools "Error Handling"). Every call is reported to `on_call`, so whoever
drives a client (`verify --model`) knows the call reached the server.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from catalogaudit.serve.instances import instance

#: One call record: the tool name, its arguments, and what the answer was.
CallHook = Callable[[dict[str, Any]], None]


def tool_result(tool: dict[str, Any], arguments: Any) -> tuple[dict[str, Any], str]:
    """The CallToolResult for `tool` called with `arguments`, and `ok` or why it is an error."""
    problem = _invalid(tool.get("inputSchema"), arguments)
    name = str(tool.get("name"))
    if problem:
        text = f"catalogaudit serve: invalid arguments for {name}: {problem}"
        return {"content": [{"type": "text", "text": text}], "isError": True}, problem
    schema = tool.get("outputSchema")
    if isinstance(schema, dict):
        structured = instance(schema)
        text = json.dumps(structured, ensure_ascii=False)
        return {"content": [{"type": "text", "text": text}], "structuredContent": structured}, "ok"
    text = f"catalogaudit serve: {name} called (a replayed snapshot; no tool behind it)"
    return {"content": [{"type": "text", "text": text}]}, "ok"


def _invalid(schema: Any, arguments: Any) -> str:
    """The first reason `arguments` do not satisfy `schema` ("" when they do or it cannot say)."""
    if not isinstance(schema, dict):
        return ""
    import jsonschema

    try:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        error = jsonschema.exceptions.best_match(cls(schema).iter_errors(arguments))
    except Exception:  # noqa: BLE001 - a schema the validator cannot use is not the caller's fault
        return ""
    if error is None:
        return ""
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where or '(root)'}: {error.message}"[:500]
