"""The `gemini-cli` verify driver: Gemini CLI (npm `@google/gemini-cli`, measured on 0.61.0),
driven headless against a loopback stand-in of the Gemini API, with a dummy key.

`gemini mcp list` only connects and lists nothing (docs/verification.md, Gemini CLI), so the
driver starts one headless session instead: every catalog is a trusted stdio server `cN` in a
throwaway `$HOME/.gemini/settings.json` (a server not marked `trust` has its tools left out in
non-interactive mode), the folder is trusted through `GEMINI_CLI_TRUST_WORKSPACE`, and
`gemini -m gemini-2.5-flash -p hi --debug` discovers every server and sends one
`streamGenerateContent` request to `GOOGLE_GEMINI_BASE_URL`, the loopback Gemini API
stand-in (`verify.gemini_api`), which records it and answers with one streamed
`ok`. `-m` skips the model router, whose classifier request would come first.

Verdicts: the tools kept are the request's `functionDeclarations` named `mcp_cN_<tool>` (the
tool name with characters outside [A-Za-z0-9_.:-] as `_`, cut in the middle to 63 characters).
A `[MCP error] Error discovering tools|resources|prompts from cN: ...` line on stderr, or
`Error during discovery for MCP server 'cN'`, fails the tool list when no `mcp_cN_` tool was
sent (a failed resources/list takes the server's tools with it). Only the tool list is observed:
prompts and resources reach no request.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.rules import TRANSFORMS
from catalogaudit.verify import gemini_api
from catalogaudit.verify.base import (
    ClientNotFound,
    ListOutcome,
    Target,
    executable,
    home_env,
    server_argv,
    tools_only,
)
from catalogaudit.verify.standin import Script

#: Gemini CLI's limit on a qualified tool name; longer ones are cut in the middle.
_MAX_NAME = 63
_DISCOVERY = re.compile(
    r"Error discovering (tools|resources|prompts) from (c\d+): "
    r"|Error during discovery for MCP server '(c\d+)': "
)
#: Where a logged message ends: its error object printed again, a stack frame, or the next
#: log line (zod's issue list continues on indented lines and closing brackets).
_MESSAGE_END = re.compile(r" \$?\w*Error: |\n\s+at |\n(?![\s\]\}])")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: Variables that would point Gemini CLI at a real account, project or configuration.
_DROP = ("GEMINI_", "GOOGLE_", "CLOUDSDK_", "VERTEX")
#: `-m` skips the model router, whose classifier request would come first.
MODEL = "gemini-2.5-flash"


def qualified(server: str, tool: str) -> str:
    """The declared name of a served tool: `mcp_<server>_<tool>`, sanitized, then cut in the
    middle (first 30 + '...' + last 30) when over 63 characters."""
    name = TRANSFORMS["gemini-cli"](f"mcp_{server}_{tool}")
    return name if len(name) <= _MAX_NAME else f"{name[:30]}...{name[-30:]}"


class GeminiCliDriver:
    """Drives one headless `gemini -p` session over every catalog."""

    id = "gemini-cli"

    def __init__(self, gemini: str | None = None, timeout: float = 60) -> None:
        self.gemini = executable("gemini", gemini)
        self.timeout = timeout

    def _env(self, home: Path, base_url: str) -> dict[str, str]:
        inherited = {k: v for k, v in os.environ.items() if not k.startswith(_DROP)}
        empty = str(home / "none.json")
        return home_env(
            inherited,
            home,
            GEMINI_API_KEY="catalogaudit-dummy",
            GOOGLE_GEMINI_BASE_URL=base_url,
            GEMINI_CLI_TRUST_WORKSPACE="true",
            # System-wide settings and trusted folders would otherwise be read from /etc.
            GEMINI_CLI_SYSTEM_SETTINGS_PATH=empty,
            GEMINI_CLI_SYSTEM_DEFAULTS_PATH=empty,
            GEMINI_CLI_TRUSTED_FOLDERS_PATH=str(home / "trusted.json"),
            NO_COLOR="1",
        )

    def _settings(self, targets: Sequence[Target]) -> dict[str, Any]:
        servers = {}
        for n, target in enumerate(targets):
            argv = server_argv(target, self.timeout * 2)
            servers[f"c{n}"] = {
                "command": argv[0],
                "args": argv[1:],
                "trust": True,
                "timeout": int(self.timeout * 1000),
            }
        return {
            "mcpServers": servers,
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "telemetry": {"enabled": False},
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        }

    def _gemini(
        self, args: list[str], home: Path, base_url: str, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """Run gemini in its own process group, killed with every server it started."""
        try:
            proc = subprocess.Popen(
                [self.gemini, *args],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=self._env(home, base_url),
                cwd=home,
                start_new_session=True,
            )
        except OSError as exc:
            raise ClientNotFound(f"gemini-cli: cannot run {self.gemini}: {exc.strerror}") from None
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CatalogauditError(
                f"gemini-cli: `gemini {' '.join(args[:2])}` gave no answer in {timeout:.0f} s"
            ) from None
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def version(self) -> str:
        """`gemini --version` prints `0.61.0`."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-gemini-") as tmp:
            proc = self._gemini(["--version"], Path(tmp), "http://127.0.0.1:9", 60)
        found = re.match(r"(\d+\.\d+\.\d+\S*)", proc.stdout.strip())
        if proc.returncode != 0 or found is None:
            raise ClientNotFound(
                f"gemini-cli: {self.gemini} --version printed {proc.stdout[:80]!r}"
            )
        return found.group(1)

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """Start every catalog in one headless session and read the model request it sends."""
        tools_only(targets, "gemini-cli")
        with (
            gemini_api.running(Script(lambda _: False)) as api,
            tempfile.TemporaryDirectory(prefix="catalogaudit-gemini-") as tmp,
        ):
            home = Path(tmp)
            (home / ".gemini").mkdir()
            settings = json.dumps(self._settings(targets))
            (home / ".gemini" / "settings.json").write_text(settings, encoding="utf-8")
            args = ["-m", MODEL, "-p", "hi", "--debug"]
            proc = self._gemini(args, home, api.url, self.timeout * 3)
            bodies = [r.body for r in api.model_requests()]
        declared = _declared(bodies)
        if declared is None:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise CatalogauditError(
                f"gemini-cli sent no model request (exit {proc.returncode}): {tail[:200]}"
            )
        failures = _failures(_ANSI.sub("", proc.stderr))
        return [
            [_tools(target, f"c{n}", declared, failures.get(f"c{n}", ""))]
            for n, target in enumerate(targets)
        ]


def _declared(bodies: Sequence[bytes]) -> set[str] | None:
    """Every function declaration's name in the first model request (None: none was sent)."""
    for body in bodies:
        try:
            request = json.loads(body)
        except ValueError:
            continue
        if not isinstance(request, dict) or "contents" not in request:
            continue
        return {
            str(d.get("name"))
            for tool in request.get("tools") or []
            if isinstance(tool, dict)
            for d in tool.get("functionDeclarations") or []
            if isinstance(d, dict)
        }
    return None


def _failures(stderr: str) -> dict[str, str]:
    """Server -> its first discovery error, as one line (`resources: [{...zod issue...}]`)."""
    out: dict[str, str] = {}
    for m in _DISCOVERY.finditer(stderr):
        rest = stderr[m.end() :]
        end = _MESSAGE_END.search(rest)
        text = rest[: end.start() if end else len(rest)].strip()
        try:
            text = json.dumps(json.loads(text), separators=(",", ":"))
        except ValueError:
            text = " ".join(text.split())
        server = m.group(2) or m.group(3)
        out.setdefault(server, f"{m.group(1)}: {text[:500]}" if m.group(1) else text[:500])
    return out


def _tools(target: Target, server: str, declared: set[str], failure: str) -> ListOutcome:
    """The served tools whose qualified name was declared; a failed list when none was and
    Gemini CLI reported a discovery error for the server."""
    items = target.catalog.items("tools")
    kept = [
        i.value
        for i in items
        if isinstance(i.identity, str) and qualified(server, i.identity) in declared
    ]
    if items and not kept and failure:
        return ListOutcome("tools", None, failure)
    reasons = {i.served_index: "not declared to the model" for i in items if i.value not in kept}
    return ListOutcome("tools", kept, reasons=reasons)


def driver(client_path: str | None) -> GeminiCliDriver:
    """The driver; `client_path` is the `gemini` executable or a node_modules directory."""
    return GeminiCliDriver(client_path)
