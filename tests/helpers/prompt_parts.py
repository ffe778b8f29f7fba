"""One server's part of a recorded model request's `tools` text, cut out by each API's own
shape with none of the project's code (`hash --client`'s prompt hash is compared with it):
Codex's `mcp__<server>` namespace entry; Claude Code's, opencode's and Gemini CLI's elements
(or declarations) named after the server. Each element's text is kept exactly as sent."""

from __future__ import annotations

import json
from typing import Any


def elements(text: str) -> list[str]:
    """The exact text of each element of the JSON array `text`."""
    decoder = json.JSONDecoder()
    out: list[str] = []
    at = text.index("[") + 1
    while True:
        while text[at] in " \t\r\n,":
            at += 1
        if text[at] == "]":
            return out
        _, end = decoder.raw_decode(text, at)
        out.append(text[at:end])
        at = end


def member(text: str, key: str) -> str:
    """The exact text of member `key` of the JSON object `text`."""
    decoder = json.JSONDecoder()
    at = 1
    while True:
        while text[at] in " \t\r\n,":
            at += 1
        name, at = decoder.raw_decode(text, at)
        at = text.index(":", at) + 1
        while text[at] in " \t\r\n":
            at += 1
        _, end = decoder.raw_decode(text, at)
        if name == key:
            return text[at:end]
        at = end


def mcp_part(client: str, tools: str, server: str) -> str:
    """The elements of the `tools` text that belong to `server` (as named in the request), as
    sent, in sent order, comma-joined in brackets ("[]" for none)."""
    if client == "gemini-cli":
        (entry,) = elements(tools)
        found = elements(member(entry, "functionDeclarations"))
    else:
        found = elements(tools)

    def name(element: str) -> str:
        value: dict[str, Any] = json.loads(element)
        return str(value["function"]["name"] if client == "opencode" else value.get("name"))

    if client == "codex":
        mine = [e for e in found if name(e) == f"mcp__{server}"]
    else:
        prefix = {"claude-code": f"mcp__{server}__", "opencode": f"{server}_"}.get(
            client, f"mcp_{server}_"
        )
        mine = [e for e in found if name(e).startswith(prefix)]
    return "[" + ",".join(mine) + "]"


def server_name(client: str, source: str) -> str:
    """The server name a recorded session gave catalog `source` in the client's request (the
    first catalog has no serverInfo name: `catalog0`; server-everything's is renamed)."""
    if source.startswith("model/"):
        return "catalog0"
    return "mcp_servers_everything" if client == "codex" else "mcp-servers_everything"
