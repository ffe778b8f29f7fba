"""The `claude-code` verify driver: the Claude Code CLI (npm `@anthropic-ai/claude-code`,
measured on 2.1.328), driven with no key and no model call.

Each catalog is a user-scope stdio server (`python -m catalogaudit serve SNAPSHOT`, written into
the throwaway `.claude.json` as `claude mcp add -s user` writes it), then `claude mcp get NAME`
health-checks it (discover probe, initialize if needed, tools/list) and prints `Status:` and
`Issue:` lines. Its exit code is 0 whatever happened, so the text is what we read. HOME and
CLAUDE_CONFIG_DIR are a temporary folder, so the user's own configuration is neither read nor
changed, and nonessential traffic and telemetry are off.

The tool list comes from `mcp get`: it reports whether tools/list succeeded, not which tools
it returned. Claude Code validates the whole result at once (zod), so a connected server with no
issue is taken to have kept every served tool; a failed fetch drops all of them, with Claude
Code's `Issue:` text as the message.

Prompts and resources come from one headless session over the catalogs that list them (`claude
-p hi --output-format stream-json --verbose`, `ANTHROPIC_BASE_URL` on the loopback Messages API
stand-in, `verify.messages_api`): the init line's `mcp_servers` gives each server's status and
its `slash_commands` one `mcp__cN__<prompt>` per prompt kept; the stand-in answers the first
request with a call of the built-in `ListMcpResourcesTool`, whose result (a JSON array of the
resources kept, each with its `server`) comes back in the next request. A connected server with
none of its served prompts (resources) there failed that list. A server still `pending` when
the init line is written gives no verdict: the session sets `MCP_CONNECTION_NONBLOCKING=false`,
so the line waits for every server (a list call that never resolves costs `MCP_TIMEOUT`, then
that list is missing), and any still pending are run again, alone with each other.
Templates show on neither route and are not observed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.verify import messages_api
from catalogaudit.verify.base import (
    ClientNotFound,
    ListOutcome,
    Target,
    executable,
    home_env,
    run_group,
    server_argv,
    tools_only,
)
from catalogaudit.verify.standin import Recorded, Script, text_of

#: `Status: ✔ Connected` is the one healthy status; anything else failed the tool list.
_STATUS = re.compile(r"^\s*Status:\s*(.*?)\s*$", re.MULTILINE)
_ISSUE = re.compile(r"^\s*Issue:\s*(.*?)\s*$", re.MULTILINE)
_HEALTHY = re.compile(r"^\W*Connected$")
#: Variables that would point Claude Code at a real account, endpoint or configuration.
_DROP = ("ANTHROPIC_", "CLAUDE_", "AWS_BEARER_TOKEN_BEDROCK")
#: Claude Code's built-in tool that lists every connected server's resources.
_LIST_RESOURCES = "ListMcpResourcesTool"
#: Sessions a server may stay `pending` in before the run gives up on it.
_ATTEMPTS = 3
#: Listings the session observes.
_SESSION = ("prompts", "resources")


@dataclass(frozen=True)
class Seen:
    """One server in a session: its status, its prompt commands, the resources listed for it."""

    status: str
    commands: frozenset[str]
    resources: tuple[dict[str, Any], ...]


class ClaudeCodeDriver:
    """Drives `claude mcp get` over user-scope servers in a throwaway HOME."""

    id = "claude-code"

    def __init__(self, claude: str | None = None, timeout: float = 60) -> None:
        self.claude = executable("claude", claude)
        self.timeout = timeout
        #: What the last session said, for the error when a server never connects.
        self.last = ""

    def env(self, home: Path) -> dict[str, str]:
        """The client's environment: ours without what could reach a real account or
        configuration, its home in `home` (the model-view sessions start it the same way)."""
        inherited = {k: v for k, v in os.environ.items() if not k.startswith(_DROP)}
        return home_env(
            inherited,
            home,
            CLAUDE_CONFIG_DIR=str(home / ".claude"),
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_AUTOUPDATER="1",
            # Nothing listens there: no model call is made, and none could leave the machine.
            ANTHROPIC_BASE_URL="http://127.0.0.1:9",
            MCP_TIMEOUT=str(int(self.timeout * 1000)),
        )

    def _claude(self, args: list[str], env: dict[str, str], cwd: Path) -> str:
        try:
            proc = subprocess.run(
                [self.claude, *args],
                capture_output=True,
                text=True,
                env=env,
                cwd=cwd,
                timeout=self.timeout + 30,
                stdin=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise ClientNotFound(f"claude-code: cannot run {self.claude}: {exc.strerror}") from None
        except subprocess.TimeoutExpired:
            raise CatalogauditError(
                f"claude-code: `claude {' '.join(args[:3])}` gave no answer in "
                f"{self.timeout + 30:.0f} s"
            ) from None
        return proc.stdout + proc.stderr

    def version(self) -> str:
        """`claude --version` prints `2.1.328 (Claude Code)`."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-claude-") as tmp:
            out = self._claude(["--version"], self.env(Path(tmp)), Path(tmp)).strip()
        found = re.match(r"(\d+\.\d+\.\d+\S*)", out)
        if found is None:
            raise ClientNotFound(f"claude-code: {self.claude} --version printed {out[:80]!r}")
        return found.group(1)

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """Health-check every catalog's tool list; read prompts and resources from a session."""
        tools_only(targets, "claude-code")
        results: list[list[ListOutcome]] = []
        with tempfile.TemporaryDirectory(prefix="catalogaudit-claude-") as tmp:
            home = Path(tmp)
            (home / ".claude").mkdir()
            env = self.env(home)
            # The user-scope servers, written as `claude mcp add -s user` writes them (one
            # file instead of one `claude` process per catalog).
            config = home / ".claude" / ".claude.json"
            config.write_text(json.dumps({"mcpServers": self._servers(targets)}), "utf-8")
            for n, target in enumerate(targets):
                text = self._claude(["mcp", "get", f"catalog-{n}"], env, home)
                results.append([self._tools(target, text)])
        asked = [n for n, t in enumerate(targets) if set(_SESSION) & set(t.listings)]
        seen = self._sessions(targets, asked) if asked else {}
        for n in asked:
            tools = results[n][0]
            # A server that failed its health check fails every list with the client's words.
            why = tools.error if tools.items is None else ""
            for listing in (x for x in _SESSION if x in targets[n].listings):
                results[n].append(_outcome(targets[n], listing, seen[n], why))
        return results

    def _servers(self, targets: Sequence[Target], prefix: str = "catalog-") -> dict[str, Any]:
        return {
            f"{prefix}{n}": {"type": "stdio", "command": argv[0], "args": argv[1:], "env": {}}
            for n, argv in enumerate(server_argv(t, self.timeout * 2) for t in targets)
        }

    def _sessions(self, targets: Sequence[Target], asked: list[int]) -> dict[int, Seen]:
        """Each asked catalog as session server `cN`, run again while some are pending."""
        out: dict[int, Seen] = {}
        todo = asked
        for _ in range(_ATTEMPTS):
            got = self._session(targets, todo)
            out.update({n: v for n, v in got.items() if v.status != "pending"})
            todo = [n for n in todo if n not in out]
            if not todo:
                return out
        raise CatalogauditError(
            f"claude-code: {targets[todo[0]].label} still pending after {_ATTEMPTS} sessions"
            f" ({self.last})"
        )

    def _session(self, targets: Sequence[Target], chosen: list[int]) -> dict[int, Seen]:
        """One `claude -p` over the chosen catalogs; what its init line and
        ListMcpResourcesTool's result say of each."""
        every = self._servers(targets, "c")
        servers = {f"c{n}": every[f"c{n}"] for n in chosen}
        ask = any(targets[n].catalog.items("resources") for n in chosen)
        script = Script(lambda name: ask and name == _LIST_RESOURCES)
        with (
            messages_api.running(script) as api,
            tempfile.TemporaryDirectory(prefix="catalogaudit-claude-") as tmp,
        ):
            home = Path(tmp)
            (home / ".claude").mkdir()
            (home / "mcp.json").write_text(json.dumps({"mcpServers": servers}), "utf-8")
            env = self.env(home)
            env.update(ANTHROPIC_BASE_URL=api.url, ANTHROPIC_API_KEY="catalogaudit-stand-in")
            env["ENABLE_TOOL_SEARCH"] = "false"
            # The init line waits for every server (by default a slow one is left `pending`).
            env["MCP_CONNECTION_NONBLOCKING"] = "false"
            argv = [self.claude, "-p", "hi", "--output-format", "stream-json", "--verbose"]
            argv += ["--mcp-config", str(home / "mcp.json"), "--allowedTools", _LIST_RESOURCES]
            proc = run_group("claude-code", argv, env, home, self.timeout * 2 + 60)
            requests = api.model_requests()
        init = _init(proc.stdout)
        self.last = f"exit {proc.returncode}: {proc.stderr.strip()[-200:]}"
        if init is None:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise CatalogauditError(
                f"claude-code: no init line from `claude -p` (exit {proc.returncode}): {tail[:200]}"
            )
        if ask and _LIST_RESOURCES not in script.sent:
            # No request offered it (the session ended early, as under load): no verdict.
            self.last = f"{_LIST_RESOURCES} not offered in {len(requests)} requests"
            return {n: Seen("pending", frozenset(), ()) for n in chosen}
        listed = _listed(requests) if ask else []
        status = {
            str(s.get("name")): str(s.get("status"))
            for s in init.get("mcp_servers") or []
            if isinstance(s, dict)
        }
        commands = [str(c) for c in init.get("slash_commands") or []]
        out: dict[int, Seen] = {}
        for n in chosen:
            head = f"mcp__c{n}__"
            out[n] = Seen(
                status.get(f"c{n}", "pending"),
                frozenset(c[len(head) :] for c in commands if c.startswith(head)),
                tuple(r for r in listed if r.get("server") == f"c{n}"),
            )
        return out

    def _tools(self, target: Target, text: str) -> ListOutcome:
        status = _STATUS.search(text)
        if status is None:
            raise CatalogauditError(
                f"claude-code: no Status line from `claude mcp get`: {text[:200]}"
            )
        if _HEALTHY.match(status.group(1)):
            return ListOutcome("tools", [i.value for i in target.catalog.items("tools")])
        issue = _ISSUE.search(text)
        message = f"{status.group(1)}: {issue.group(1)}" if issue else status.group(1)
        return ListOutcome("tools", None, message)


def _init(stdout: str) -> dict[str, Any] | None:
    """The stream's `system`/`init` line."""
    for line in stdout.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("subtype") == "init":
            return value
    return None


def _listed(requests: Sequence[Recorded]) -> list[dict[str, Any]]:
    """The resources ListMcpResourcesTool's result listed, as Claude Code sent it back."""
    for rec in requests:
        body = rec.json()
        for msg in body.get("messages") or [] if isinstance(body, dict) else []:
            content = msg.get("content") if isinstance(msg, dict) else None
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    try:
                        found = json.loads(text_of(block.get("content")))
                    except ValueError:
                        found = []
                    return (
                        [r for r in found if isinstance(r, dict)] if isinstance(found, list) else []
                    )
    raise CatalogauditError(f"claude-code never sent back the result of {_LIST_RESOURCES}")


_SANITIZE = re.compile(r"[^A-Za-z0-9_-]")


def _outcome(target: Target, listing: str, seen: Seen, why: str = "") -> ListOutcome:
    """The served prompts (resources) the session showed for the server, matched in served
    order: a prompt by its command name (as sent, or sanitized), a resource by its URI; a
    failed list when the server did not connect (with `why`, the health check's message,
    where it failed too) or showed none of a non-empty list."""
    items = target.catalog.items(listing)
    if seen.status != "connected":
        return ListOutcome(listing, None, why or f"server {seen.status}")
    if listing == "prompts":
        left: list[Any] = list(seen.commands)
        key, where = "name", "slash_commands"
    else:
        left = [r.get("uri") for r in seen.resources]
        key, where = "uri", _LIST_RESOURCES
    kept: list[Any] = []
    reasons: dict[int, str] = {}
    for item in items:
        value = item.value.get(key) if isinstance(item.value, dict) else None
        names = (value, _SANITIZE.sub("_", value)) if isinstance(value, str) else ()
        hit = next((x for x in names if x in left), None)
        if hit is None:
            reasons[item.served_index] = f"not in {where}"
            continue
        left.remove(hit)
        kept.append(item.value)
    if items and not kept:
        return ListOutcome(listing, None, f"{listing}: none of the server's in {where}")
    return ListOutcome(listing, kept, reasons=reasons)


def driver(client_path: str | None) -> ClaudeCodeDriver:
    """The driver; `client_path` is the `claude` executable or a node_modules directory."""
    return ClaudeCodeDriver(client_path)
