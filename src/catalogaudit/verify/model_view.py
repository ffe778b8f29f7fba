"""`verify --client claude-code --model`: what Claude Code sends the model, and whether a call
of each tool gets through.

One `claude -p` process per mode, with every catalog as a stdio MCP server (`serve SNAPSHOT
--call-log`, or a real server behind `verify.tap`) and `ANTHROPIC_BASE_URL` on the loopback
Messages API stand-in (`verify.messages_api`): no key, no model, and every other destination on
the closed proxy (`verify.base.OFFLINE_ENV`; loopback goes direct). The stand-in records each
request byte for byte and answers the first with one `tool_use` block per tool to call, all in
one turn, so one process calls every tool. Claude Code 2.1.328 runs them and sends the
`tool_result`s in the next request; the call log says which calls reached the server.

Modes: `tool-search-off` (`ENABLE_TOOL_SEARCH=false`: MCP tools are in the request's `tools`)
and `default` (as installed: 2.1.328 lists MCP tools by name only, deferred behind its
`ToolSearch` tool). In the default mode the stand-in first calls `ToolSearch` with
`select:<names>`; the next request carries the loaded tools (2.1.328: with `defer_loading:
true`), which are that mode's model view, and the stand-in then calls them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.model import (
    DEFERRED,
    INLINE,
    NOT_CALLED,
    NOT_OFFERED,
    REACHED,
    REFUSED,
    SEARCH_OFF,
    ToolView,
    array_items,
    members,
)
from catalogaudit.verify.base import Target, server_argv
from catalogaudit.verify.drivers.claude_code import ClaudeCodeDriver
from catalogaudit.verify.messages_api import (
    TOOL_USE_ID,
    Recorded,
    Script,
    deferred_names,
    running,
)

#: The directory our package is imported from (put first on the servers' PYTHONPATH).
_SOURCE = Path(__file__).resolve().parents[2]
PROMPT = "Call the tools you are given, then stop."
_INVALID = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class Served:
    """One catalog as an MCP server of the session: its name, its command, its call log."""

    name: str
    target: Target
    argv: list[str]
    log: Path
    #: Served tool names to call in the tool-search-off session.
    calls: frozenset[str]


@dataclass(frozen=True)
class Session:
    """One `claude -p` run: the mode, the stand-in's record, and the script it played."""

    mode: str
    requests: list[Recorded]
    script: Script
    output: str


def server_names(targets: Sequence[Target]) -> list[str]:
    """A distinct, already-valid MCP server name per catalog (its serverInfo name, cut to 24
    characters), so `mcp__<server>__` needs no renaming of ours."""
    out: list[str] = []
    for n, t in enumerate(targets):
        info = t.catalog.capture.get("serverInfo")
        raw = info.get("name") if isinstance(info, dict) else None
        base = _INVALID.sub("_", raw)[:24].strip("_") if isinstance(raw, str) else ""
        name = base or f"catalog{n}"
        while name in out:
            name = f"{base or 'catalog'}{n}"
        out.append(name)
    return out


def to_call(target: Target, calls: Sequence[str], real: bool) -> frozenset[str]:
    """The served tool names `--calls` picks: `all` (against a real server, all but the tools
    that declare `destructiveHint: true`), `none`, or names."""
    names = [str(i.value.get("name")) for i in target.catalog.items("tools") if i.value]
    if list(calls) == ["none"]:
        return frozenset()
    if list(calls) == ["all"]:
        return frozenset(
            str(i.value.get("name"))
            for i in target.catalog.items("tools")
            if isinstance(i.value, dict) and not (real and _destructive(i.value))
        )
    return frozenset(n for n in names if n in calls)


def _destructive(tool: dict[str, Any]) -> bool:
    ann = tool.get("annotations")
    return isinstance(ann, dict) and ann.get("destructiveHint") is True


def servers(
    targets: Sequence[Target],
    workdir: Path,
    calls: Sequence[str],
    command: Sequence[str] = (),
    max_seconds: float = 300,
) -> list[Served]:
    """The servers of a session: `serve` per snapshot, or the real `command` behind the tap."""
    out = []
    for n, (t, name) in enumerate(zip(targets, server_names(targets), strict=True)):
        log = workdir / f"calls-{n}.jsonl"
        if command:
            argv = [sys.executable, "-m", "catalogaudit.verify.tap", str(log), "--", *command]
        else:
            argv = [*server_argv(t, max_seconds), "--call-log", str(log)]
        out.append(Served(name, t, argv, log, to_call(t, calls, bool(command))))
    return out


def session(
    claude: ClaudeCodeDriver, served: Sequence[Served], mode: str, workdir: Path
) -> Session:
    """Run `claude -p` once in `mode` against the stand-in; the servers run in `workdir`."""
    prefixes = {f"mcp__{s.name}__": s for s in served}
    for s in served:
        s.log.unlink(missing_ok=True)
        Path(f"{s.log}.tools").unlink(missing_ok=True)

    def wanted(sent: str) -> bool:
        for prefix, s in prefixes.items():
            if sent.startswith(prefix):
                return _served_name(s, sent[len(prefix) :]) in s.calls
        return False

    script = Script(wanted, search=mode != SEARCH_OFF)
    home = workdir / f"home-{mode}"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    config = {
        "mcpServers": {
            s.name: {"type": "stdio", "command": s.argv[0], "args": s.argv[1:]} for s in served
        }
    }
    (home / "mcp.json").write_text(json.dumps(config), encoding="utf-8")
    with running(script) as stand:
        env = claude.env(home)
        env.pop("ENABLE_TOOL_SEARCH", None)
        env.update(ANTHROPIC_BASE_URL=stand.url, ANTHROPIC_API_KEY="catalogaudit-stand-in")
        env["MCP_TOOL_TIMEOUT"] = str(int(claude.timeout * 1000))
        if mode == SEARCH_OFF:
            env["ENABLE_TOOL_SEARCH"] = "false"
        # `serve` and the tap must be this very package, whatever the working directory.
        env["PYTHONPATH"] = os.pathsep.join(
            [str(_SOURCE), *(p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
        )
        argv = [claude.claude, "-p", PROMPT, "--mcp-config", str(home / "mcp.json")]
        argv += ["--output-format", "json"]
        argv += ["--allowedTools", ",".join(f"mcp__{s.name}__*" for s in served)]
        try:
            proc = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                env=env,
                cwd=home,
                timeout=claude.timeout * 2 + 60,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            raise CatalogauditError(
                f"claude-code: `claude -p` ({mode}) gave no answer in "
                f"{claude.timeout * 2 + 60:.0f} s"
            ) from None
        requests = list(stand.requests)
    return Session(mode, requests, script, proc.stdout + proc.stderr)


def _served_name(s: Served, suffix: str) -> str:
    """The served tool a sent name stands for: the same name, else the one that renames to it."""
    names = [str(i.value.get("name")) for i in s.target.catalog.items("tools") if i.value]
    if suffix in names:
        return suffix
    return next((n for n in names if _INVALID.sub("_", n) == suffix), suffix)


def main_request(requests: Sequence[Recorded]) -> Recorded | None:
    """The first model request that carries the session's tools (ours or ToolSearch)."""
    for r in requests:
        body = r.json() if r.method == "POST" and "/v1/messages" in r.path else None
        tools = body.get("tools") if isinstance(body, dict) else None
        if isinstance(tools, list) and any(
            isinstance(t, dict) and str(t.get("name", "")).startswith(("mcp__", "ToolSearch"))
            for t in tools
        ):
            return r
    return None


def tools_text(request: Recorded) -> str:
    """The exact text of the request's `tools` member."""
    text = request.body.decode("utf-8", "surrogateescape")
    return dict(members(text)).get("tools", "[]")


def sent_tools(request: Recorded) -> list[tuple[str, str]]:
    """(name, exact object text) of each tool in the request, in sent order."""
    out = []
    for text in array_items(tools_text(request)):
        value = json.loads(text)
        out.append((str(value.get("name")) if isinstance(value, dict) else "", text))
    return out


def _results(requests: Sequence[Recorded]) -> dict[str, tuple[bool, str]]:
    """tool_use id -> (is_error, text) of the tool_result the client sent back."""
    out: dict[str, tuple[bool, str]] = {}
    for r in requests:
        body = r.json()
        for msg in body.get("messages", []) if isinstance(body, dict) else []:
            content = msg.get("content") if isinstance(msg, dict) else None
            for block in content if isinstance(content, list) else []:
                if not isinstance(block, dict) or block.get("type") != "tool_result":
                    continue
                tid = str(block.get("tool_use_id", ""))
                if tid.startswith(TOOL_USE_ID):
                    out[tid] = (block.get("is_error") is True, _text(block.get("content")))
    return out


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(c.get("text", "")) for c in content if isinstance(c, dict))
    return ""


def logged(s: Served) -> set[str]:
    """The served tool names whose calls reached the server (its call log)."""
    if not s.log.exists():
        return set()
    return {
        str(json.loads(line).get("name"))
        for line in s.log.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }


def views(run: Session, served: Sequence[Served]) -> list[ToolView]:
    """Every served tool of every server as this session showed it to the model."""
    main = main_request(run.requests)
    deferred = deferred_names(main.json()) if main is not None else set()
    # a deferred tool's object is in the first request that carries it (after ToolSearch)
    sent: list[tuple[str, str]] = []
    for r in run.requests:
        if main_request([r]) is not None:
            sent += [(n, t) for n, t in sent_tools(r) if n not in {m for m, _ in sent}]
    results = _results(run.requests)
    by_name = {name: tid for tid, name in run.script.ids.items()}
    out: list[ToolView] = []
    for s in served:
        prefix = f"mcp__{s.name}__"
        # every served tool of a sent name is seen as the one object sent under it, and a
        # call of that name as reaching the server if it reached any of them
        mine = dict(sent)
        arrived = {prefix + _INVALID.sub("_", n) for n in logged(s)}
        for item in s.target.catalog.items("tools"):
            name = str(item.value.get("name")) if isinstance(item.value, dict) else ""
            base = (s.target.label, run.mode, item.served_index, name)
            qualified = prefix + _INVALID.sub("_", name)
            if qualified in mine:
                text = mine[qualified]
                digest = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
                call, message = _call(qualified, arrived, results, by_name)
                how = DEFERRED if qualified in deferred else INLINE
                out.append(ToolView(*base, how, qualified, text, digest, call, message))
            elif qualified in deferred:
                out.append(ToolView(*base, DEFERRED, qualified, message="never loaded"))
            else:
                why = "not in the model request" if main else "no model request carried tools"
                out.append(ToolView(*base, NOT_OFFERED, call=NOT_OFFERED, message=why))
    return out


def _call(
    qualified: str,
    logged: set[str],
    results: dict[str, tuple[bool, str]],
    by_name: dict[str, str],
) -> tuple[str, str]:
    tid = by_name.get(qualified)
    if tid is None:
        return NOT_CALLED, ""
    error, text = results.get(tid, (True, "no tool_result came back"))
    if qualified in logged:
        return REACHED, text[:300]
    return (REFUSED, text[:300]) if error else (REFUSED, f"not at the server: {text[:280]}")
