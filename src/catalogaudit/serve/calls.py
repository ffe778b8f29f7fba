"""`tools/call` on a replayed snapshot: a result the tool's own schemas accept.

A snapshot records listings, not behaviour, so a call gets a made-up but well-formed answer:
text content naming the tool and, when the tool declares an `outputSchema`, `structuredContent`
generated from it (`serve.instances`; P:2025-06-18/server/tools "Structured Content": a tool
with an outputSchema must return structured results that conform to it) with its JSON as the
text, as the spec recommends for backwards compatibility; an outputSchema whose value would
exceed the generator's size bounds gets a tool error result saying so instead. Arguments are
checked against the tool's `inputSchema`; arguments it refuses get a tool error result
(`isError: true`), the way an SDK server answers them. An unknown tool is a JSON-RPC error -32602
(P:2025-11-25/server/tools "Error Handling"). Every call is reported to `on_call`, so whoever
drives a client (`verify --model`) knows the call reached the server.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from catalogaudit.model import NOT_PLAIN, plain, validator
from catalogaudit.serve.instances import generate

#: One call record: the tool name, its arguments, and what the answer was.
CallHook = Callable[[dict[str, Any]], None]

#: Largest arguments (characters of their JSON) checked against an inputSchema; larger ones
#: are refused with a tool error rather than held in a validator.
MAX_ARGUMENTS = 4 * 1024 * 1024


def tool_result(tool: dict[str, Any], arguments: Any) -> tuple[dict[str, Any], str]:
    """The CallToolResult for `tool` called with `arguments`, and `ok` or why it is an error."""
    problem = _invalid(tool.get("inputSchema"), arguments)
    name = str(tool.get("name"))
    if problem:
        text = f"catalogaudit serve: invalid arguments for {name}: {problem}"
        return {"content": [{"type": "text", "text": text}], "isError": True}, problem
    schema = tool.get("outputSchema")
    if isinstance(schema, dict):
        structured, cut = generate(schema)
        if cut:
            why = f"outputSchema asks for more than serve generates ({cut})"
            text = f"catalogaudit serve: {name}: {why}"
            return {"content": [{"type": "text", "text": text}], "isError": True}, why
        text = json.dumps(structured, ensure_ascii=False)
        return {"content": [{"type": "text", "text": text}], "structuredContent": structured}, "ok"
    text = f"catalogaudit serve: {name} called (a replayed snapshot; no tool behind it)"
    return {"content": [{"type": "text", "text": text}]}, "ok"


def _invalid(schema: Any, arguments: Any) -> str:
    """The first reason `arguments` do not satisfy `schema` ("" when they do or it cannot say).

    jsonschema-rs with its linear-time regex engine checks them: `pattern` is ECMA-262
    (JSON Schema 2020-12 Validation 6.3.3), and a backtracking engine lets one argument
    against a pattern like `^(a+)+$` hold the server for minutes; its `uniqueItems` is not
    quadratic either. Arguments over `MAX_ARGUMENTS` are refused; those it cannot read exactly
    (`model.validation.plain`: nesting over 256, integers beyond 64 bits) are not checked."""
    if not isinstance(schema, dict):
        return ""
    try:
        size = len(json.dumps(arguments, ensure_ascii=False))
    except (TypeError, ValueError):
        return ""
    if size > MAX_ARGUMENTS:
        return f"(root): arguments of {size} characters; serve checks at most {MAX_ARGUMENTS}"
    value = plain(arguments)
    if value is NOT_PLAIN:
        return ""  # nested deeper than MAX_DEPTH, or numbers no machine type holds
    try:
        error = next(validator(schema).iter_errors(value), None)
    except Exception:  # noqa: BLE001 - a schema the validator cannot use is not the caller's fault
        return ""
    if error is None:
        return ""
    where = "/".join(str(p) for p in error.instance_path) or "(root)"
    said = str(error.message)  # NOTE: it quotes the value whole; its reason comes last
    return f"{where}: {said if len(said) <= 400 else said[:200] + ' ... ' + said[-200:]}"
