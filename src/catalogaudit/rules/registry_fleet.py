"""The fleet rules (CA930-CA932): what only the whole set of servers a client runs shows, judged
by `auditing.fleet` over `audit DIR` (a directory `snapshot --servers` wrote). A fleet's tool
count is judged by each client's own count rule (`WSF-COUNT-001`, `VSC-COUNT-001`, ...) over
the fleet's total, so it has no id of its own."""

from __future__ import annotations

from catalogaudit.model import RuleMeta, Severity

FLEET_RULES: dict[str, RuleMeta] = {
    meta.id: meta
    for meta in (
        RuleMeta(
            "CA930",
            "fleet.capture-failed",
            Severity.ERROR,
            "Every server of the fleet was captured",
            "A server the configuration names could not be captured (it did not start, did not "
            "answer, or its configuration needs a value that is not set): the clients that run "
            "this configuration meet the same failure, and the fleet rules judge the fleet "
            "without its tools.",
            "Read the server's error in the message (its stderr tail, or the missing "
            "variable), fix the server or its entry, and snapshot the fleet again.",
            "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle",
        ),
        RuleMeta(
            "CA931",
            "fleet.qualified-name-collision",
            Severity.ERROR,
            "No two servers' tools share a name once a client qualifies and sanitizes them",
            "Clients put every configured server's tools in one list, named as the client "
            "qualifies them (Claude Code and opencode mcp__server__tool with characters outside "
            "[A-Za-z0-9_-] as '_', Codex the same with [A-Za-z0-9_], Gemini CLI "
            "mcp_server_tool, Cursor server+tool; the Docker MCP gateway not at all). Two "
            "tools that come out equal cannot both reach the model: the Docker MCP gateway "
            "refuses to load the set (docker/mcp-gateway#567, a 283-tool fleet aborted on one "
            "`search`), others keep one of them.",
            "Rename one of the servers in the configuration (the name clients qualify with), "
            "or one of the tools.",
            "https://github.com/docker/mcp-gateway/issues/567",
        ),
        RuleMeta(
            "CA932",
            "fleet.tool-tokens",
            Severity.INFO,
            "What the fleet's tools cost each client's prompt, estimated",
            "Every request a client makes carries every tool of every configured server: name, "
            "description and input schema. The count is the o200k tokens of those three fields per "
            "tool, under the name the client gives it (an estimate for clients whose model uses "
            "another tokenizer, and clients add their own framing); it says which servers cost "
            "most.",
            "Drop servers the work does not need, or tools a server can disable; shorten "
            "descriptions and schemas (`catalogaudit rewrite`).",
            "https://modelcontextprotocol.io/specification/2025-11-25/server/tools",
        ),
    )
}
