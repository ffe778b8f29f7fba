"""Each client's prompt for a catalog's tools, predicted from its profile's `model_view` data
(`predict_model.sent_view`, the step `verify --model`'s prediction takes per tool), from tools
in served key order.

The order of the tools array is the entry's `order`: "by name..." sorts by the name the model
sees (Claude Code), anything else keeps served order. A client whose `deferral` defers every
tool in its `default` mode is priced in the first mode that sends them inline, and says so.
A tool the client drops at listing time (`verify.predict`) is not left out here: that needs
the whole snapshot, and the runs of `snapshot --runs` hold only their pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from catalogaudit.canonical import ClientPrompt, SentTool, sent_text
from catalogaudit.diffing import Side
from catalogaudit.model import DEFAULT, DEFERRED, INLINE, NOT_OFFERED, Catalog
from catalogaudit.verify.base import Target
from catalogaudit.verify.model_view import server_names
from catalogaudit.verify.predict import _versions
from catalogaudit.verify.predict_model import _entries, _first, sent_view


def prompt_clients() -> list[str]:
    """The profiles that carry `model_view` data, sorted."""
    return sorted(_entries()[0])


def client_prompt(client: str, server: str, tools: Sequence[Any]) -> ClientPrompt:
    """`client`'s tools array for `tools` (served order, served key order) of `server`.

    `client` is a profile id, optionally `@version` (default: the profile's newest)."""
    pid = client.partition("@")[0]
    effective, _ = _versions(client)
    entry = _first(_entries()[0].get(pid, []), effective)
    version = None if effective is None else str(effective)
    if entry is None:
        return ClientPrompt(pid, version, DEFAULT, (), missing=f"{pid}: no model_view data")
    deferral: dict[str, str] = entry.get("deferral", {})
    mode, note = DEFAULT, ""
    if deferral.get(DEFAULT, INLINE) == DEFERRED:
        inline = [m for m, how in deferral.items() if how == INLINE]
        if inline:
            mode = inline[0]
            note = (
                f"{pid} defers MCP tools by default (their objects are outside the cached "
                f"prefix, loaded on demand); figures for mode {mode}, where they are inline"
            )
    sent = [_tool(entry, server, t, deferral.get(mode, INLINE)) for t in tools]
    if str(entry.get("order", "")).startswith("by name"):
        sent.sort(key=lambda t: t.name or "")
    return ClientPrompt(pid, version, mode, tuple(sent), note=note)


def _tool(entry: dict[str, Any], server: str, tool: Any, offered: str) -> SentTool:
    tool = tool if isinstance(tool, dict) else {}
    ident = str(tool.get("name"))
    view, skipped, _ = sent_view(entry, server, tool, offered)
    if view is None:
        return SentTool(ident, NOT_OFFERED, because=f"left out of the request: {skipped}")
    return SentTool(ident, offered, str(view.get("name", ident)), sent_text(view))


def prompts_of(
    sides: Sequence[Side], clients: Sequence[str] | None = None
) -> dict[str, dict[str, ClientPrompt]]:
    """Per input (side) label, each client's prompt for its tools (`clients`: these profile
    ids, default every one with `model_view` data). Every side is named after the first
    one's server (`verify --model`'s name for it), so only the tools can differ."""
    if not sides:
        return {}
    (server,) = server_names([Target("", Path(""), Catalog({"capture": sides[0].capture}))])
    out: dict[str, dict[str, ClientPrompt]] = {}
    for side in sides:
        items = side.wire_items("tools")
        tools = items if items is not None else side.served("tools")
        out[side.label] = {
            c.partition("@")[0]: client_prompt(c, server, tools)
            for c in (prompt_clients() if clients is None else clients)
        }
    return out
