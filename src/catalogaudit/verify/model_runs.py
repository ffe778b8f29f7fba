"""`verify --model` end to end: the sessions to run, the views they showed, and with `--runs N`
whether the `tools` part of the model request kept its bytes across N starts of the server.

For Claude Code, start 1 runs both modes (tool search off, with the calls `--calls` picks;
then the default); starts 2..N run with tool search off and call nothing: only the request
bytes matter there. Codex, opencode and Gemini CLI have one mode (`default`), whose session
makes the calls (`verify.model_clients`). Against snapshots, start k serves the k-th snapshot
under the first one's server name; against a real server (`-- COMMAND`), every start is a new
server process, run by the client itself in a temporary directory.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.model import DEFAULT, SEARCH_OFF, Drift, PromptBytes, ToolView
from catalogaudit.verify import model_clients as clients
from catalogaudit.verify.base import Target
from catalogaudit.verify.drivers.claude_code import ClaudeCodeDriver
from catalogaudit.verify.model_view import (
    Served,
    Session,
    main_request,
    sent_tools,
    servers,
    session,
    tools_text,
    views,
)


@dataclass(frozen=True)
class ModelRun:
    """What the sessions showed: each tool's views (start 1), and the bytes across starts."""

    #: Mode -> the servers as that mode's session met them (a real server's catalog is what
    #: that start served).
    served: dict[str, list[Served]]
    views: list[ToolView]
    prompt: PromptBytes | None
    #: Catalog label -> `sha256:` of its server's part of start 1's `tools` (`prompt_parts`).
    prompts: dict[str, str]


def observe(
    drv: Any,
    targets: Sequence[Target],
    workdir: Path,
    calls: Sequence[str],
    command: Sequence[str] = (),
    runs: int = 1,
) -> ModelRun:
    """Run the sessions and read them back: Claude Code in its two modes, the other clients
    (`verify.model_clients`) in their one."""
    first = list(targets) if runs == 1 or command else [targets[0]]
    served = servers(first, workdir, calls, command)
    found: list[ToolView] = []
    texts: list[str] = []
    by_mode: dict[str, list[Served]] = {}
    claude = isinstance(drv, ClaudeCodeDriver)
    for mode in (SEARCH_OFF, DEFAULT) if claude else (DEFAULT,):
        run = (
            session(drv, served, mode, workdir) if claude else clients.session(drv, served, workdir)
        )
        met = [_as_served(s, workdir) for s in served] if command else served
        by_mode[mode] = met
        if mode == SEARCH_OFF:
            texts.append(_tools(run))
        elif not claude:
            texts.append(clients.tools_text(drv.id, run))
        found.extend(views(run, met) if claude else clients.views(drv.id, run, met))
    parts = prompt_parts(drv.id, texts[0], served)
    if runs == 1:
        return ModelRun(by_mode, found, None, parts)
    quiet = [replace(s, calls=frozenset()) for s in served]
    for start in range(1, runs):
        if command:
            these = quiet
        else:
            again = servers([targets[start]], workdir, ["none"])
            these = [replace(again[0], name=served[0].name)]
        if claude:
            texts.append(_tools(session(drv, these, SEARCH_OFF, workdir)))
        else:
            texts.append(clients.tools_text(drv.id, clients.session(drv, these, workdir)))
    bytes_ = compare(texts, None if claude else clients.split(drv.id))
    return ModelRun(by_mode, found, bytes_, parts)


def prompt_parts(client: str, text: str, served: Sequence[Served]) -> dict[str, str]:
    """Per catalog label, `sha256:` of its server's part of a request's `tools` text, which
    `hash --client` predicts: the elements holding the server's tools (Codex: its namespace
    entry; Gemini CLI: its declarations), each as sent, in sent order, comma-joined in
    brackets ("[]" when none)."""
    from catalogaudit.verify.standin import items, member

    found = items(text)
    if client == "gemini-cli":
        found = [d for entry in found for d in items(member(entry, "functionDeclarations"))]
    named = []
    for element in found:
        value = json.loads(element)
        if client == "opencode" and isinstance(value, dict):
            value = value.get("function")
        named.append((str(value.get("name")) if isinstance(value, dict) else "", element))
    out: dict[str, str] = {}
    for s in served:
        tools = [str(i.value.get("name")) for i in s.target.catalog.items("tools") if i.value]
        if client == "claude-code":
            mine = [e for n, e in named if n.startswith(f"mcp__{s.name}__")]
        else:
            sent = {clients.sent_name(client, s.name, tool) for tool in tools}
            if client == "codex":
                sent = {n.partition("/")[0] for n in sent}
            mine = [e for n, e in named if n in sent]
        part = "[" + ",".join(mine) + "]"
        out[s.target.label] = (
            "sha256:" + hashlib.sha256(part.encode("utf-8", "surrogateescape")).hexdigest()
        )
    return out


def _as_served(s: Served, workdir: Path) -> Served:
    """A real server's catalog as this start served it (the tap's copy of its tools/list
    answers), so the prediction is of what the client was given, not of an earlier start."""
    from catalogaudit.intake import read_catalog
    from catalogaudit.verify.base import targets

    path = Path(f"{s.log}.tools")
    if not path.exists():
        return s
    doc = read_catalog(str(path)).doc
    (target,) = targets([doc], workdir)
    return replace(s, target=replace(target, label=s.target.label))


def _tools(run: Session) -> str:
    main = main_request(run.requests)
    if main is None:
        raise CatalogauditError(
            f"claude-code: no model request carried the MCP tools ({run.mode}); "
            f"claude said: {run.output.strip()[-300:]}"
        )
    return tools_text(main)


def compare(
    texts: Sequence[str], split: Callable[[str], dict[str, str]] | None = None
) -> PromptBytes:
    """Each start's `tools` text against start 1's: per tool (`split`: a text's tools by
    name, Claude Code's by default), what changed."""
    digests = [hashlib.sha256(t.encode("utf-8", "surrogateescape")).hexdigest() for t in texts]
    drifts: list[Drift] = []
    split = split or _items
    base = split(texts[0])
    for start, text in enumerate(texts[1:], start=2):
        other = split(text)
        for name in base:
            if name not in other:
                drifts.append(Drift(start, name, "removed"))
            elif base[name] != other[name]:
                drifts.append(Drift(start, name, _how(base[name], other[name])))
        drifts.extend(Drift(start, n, "added") for n in other if n not in base)
        same = [n for n in base if n in other]
        if not drifts and [n for n in other if n in base] != same:
            drifts.append(Drift(start, "(tools array)", "item order"))
    return PromptBytes(tuple(digests), tuple(drifts))


def _items(text: str) -> dict[str, str]:
    from catalogaudit.verify.messages_api import Recorded

    fake = Recorded("POST", "/v1/messages", {}, ('{"tools":' + text + "}").encode())
    return dict(sent_tools(fake))


def _how(a: str, b: str) -> str:
    """`key order` (same members, other order), `item order` (same once arrays are sorted),
    or `content`."""
    left, right = json.loads(a), json.loads(b)
    if left == right:
        return "key order"
    if _sorted(left) == _sorted(right):
        return "item order"
    return "content"


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((_sorted(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value
