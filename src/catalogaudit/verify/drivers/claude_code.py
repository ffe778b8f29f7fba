"""The `claude-code` verify driver: the Claude Code CLI (npm `@anthropic-ai/claude-code`,
measured on 2.1.328), driven with no key and no model call.

Each catalog is a user-scope stdio server (`python -m catalogaudit serve SNAPSHOT`, written into
the throwaway `.claude.json` as `claude mcp add -s user` writes it), then `claude mcp get NAME`
health-checks it (discover probe, initialize if needed, tools/list) and prints `Status:` and
`Issue:` lines. Its exit code is 0 whatever happened, so the text is what we read. HOME and
CLAUDE_CONFIG_DIR are a temporary folder, so the user's own configuration is neither read nor
changed, and nonessential traffic and telemetry are off.

Only the tool list is observed: `mcp get` reports whether tools/list succeeded, not which tools
it returned. Claude Code validates the whole result at once (zod), so a connected server with no
issue is taken to have kept every served tool; a failed fetch drops all of them, with Claude
Code's `Issue:` text as the message.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from catalogaudit.errors import CatalogauditError
from catalogaudit.verify.base import (
    ClientNotFound,
    ListOutcome,
    Target,
    executable,
    home_env,
    server_argv,
    tools_only,
)

#: `Status: ✔ Connected` is the one healthy status; anything else failed the tool list.
_STATUS = re.compile(r"^\s*Status:\s*(.*?)\s*$", re.MULTILINE)
_ISSUE = re.compile(r"^\s*Issue:\s*(.*?)\s*$", re.MULTILINE)
_HEALTHY = re.compile(r"^\W*Connected$")
#: Variables that would point Claude Code at a real account, endpoint or configuration.
_DROP = ("ANTHROPIC_", "CLAUDE_", "AWS_BEARER_TOKEN_BEDROCK")


class ClaudeCodeDriver:
    """Drives `claude mcp get` over user-scope servers in a throwaway HOME."""

    id = "claude-code"

    def __init__(self, claude: str | None = None, timeout: float = 60) -> None:
        self.claude = executable("claude", claude)
        self.timeout = timeout

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
        """Configure every catalog as a server, health-check each, read its tool list verdict."""
        tools_only(targets, "claude-code")
        results: list[list[ListOutcome]] = []
        with tempfile.TemporaryDirectory(prefix="catalogaudit-claude-") as tmp:
            home = Path(tmp)
            (home / ".claude").mkdir()
            env = self.env(home)
            # The user-scope servers, written as `claude mcp add -s user` writes them (one
            # file instead of one `claude` process per catalog).
            servers = {
                f"catalog-{n}": {"type": "stdio", "command": argv[0], "args": argv[1:], "env": {}}
                for n, argv in enumerate(server_argv(t, self.timeout * 2) for t in targets)
            }
            config = home / ".claude" / ".claude.json"
            config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
            for n, target in enumerate(targets):
                text = self._claude(["mcp", "get", f"catalog-{n}"], env, home)
                results.append([self._tools(target, text)])
        return results

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


def driver(client_path: str | None) -> ClaudeCodeDriver:
    """The driver; `client_path` is the `claude` executable or a node_modules directory."""
    return ClaudeCodeDriver(client_path)
