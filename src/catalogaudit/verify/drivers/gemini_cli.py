"""The `gemini-cli` verify driver: Gemini CLI (npm `@google/gemini-cli`, measured on 0.61.0),
driven headless against a loopback stand-in of the Gemini API, with a dummy key.

`gemini mcp list` only connects and lists nothing (docs/verification.md, Gemini CLI), so the
driver starts one headless session instead: every catalog is a trusted stdio server `cN` in a
throwaway `$HOME/.gemini/settings.json` (a server not marked `trust` has its tools left out in
non-interactive mode), the folder is trusted through `GEMINI_CLI_TRUST_WORKSPACE`, and
`gemini -m gemini-2.5-flash -p hi --debug` discovers every server and sends a
`streamGenerateContent` request to `GOOGLE_GEMINI_BASE_URL`, the loopback Gemini API stand-in
(`verify.gemini_api`), which records each request. `-m` skips the model router, whose
classifier request would come first. When a catalog holds resources, the stand-in answers the
first request with a call of Gemini CLI's built-in `list_mcp_resources` tool, whose result
(`- cN:URI | name | description` per resource it registered) comes back in the second request
(Gemini CLI declares the tool only when some resource was registered: undeclared, none was);
every other request gets one streamed `ok`, which ends the session.

Verdicts: the tools kept are the request's `functionDeclarations` named `mcp_cN_<tool>` (the
tool name with characters outside [A-Za-z0-9_.:-] as `_`, cut in the middle to 63 characters);
the resources kept are the listed URIs of `cN`, matched to served resources in served order. A
`[MCP error] Error discovering tools|resources|prompts from cN: ...` line on stderr, or
`Error during discovery for MCP server 'cN'`, fails every observed list of `cN` when none of
its tools or resources was registered (discovery reads prompts, tools, then resources, and
registers nothing of a server when one of them fails). Prompts are not observed: no request
or built-in tool shows which were registered.
"""

from __future__ import annotations

import json
import os
import re
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
    run_group,
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


#: Gemini CLI's built-in tool that lists every registered MCP resource.
_LIST_RESOURCES = "list_mcp_resources"


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

    def env(self, home: Path, base_url: str) -> dict[str, str]:
        """The client's environment: ours without what could reach a real account or
        configuration, its home in `home` (the model-view sessions start it the same way)."""
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

    def settings(self, targets: Sequence[Target]) -> dict[str, Any]:
        """`~/.gemini/settings.json`: each catalog a trusted stdio server `cN`, nothing sent
        home, no update checks."""
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
        env = self.env(home, base_url)
        return run_group("gemini-cli", [self.gemini, *args], env, home, timeout)

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
        ask = any(t.catalog.items("resources") for t in targets if "resources" in t.listings)
        script = Script(lambda name: ask and name == _LIST_RESOURCES)
        with (
            gemini_api.running(script) as api,
            tempfile.TemporaryDirectory(prefix="catalogaudit-gemini-") as tmp,
        ):
            home = Path(tmp)
            (home / ".gemini").mkdir()
            settings = json.dumps(self.settings(targets))
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
        # Gemini CLI hides list_mcp_resources while no server registered a resource.
        listed = _listed(bodies) if _LIST_RESOURCES in script.sent else []
        out: list[list[ListOutcome]] = []
        for n, target in enumerate(targets):
            server = f"c{n}"
            got = [_tools(target, server, declared, failures.get(server, ""))]
            if "resources" in target.listings:
                got.append(_resources(target, server, listed, failures.get(server, "")))
            out.append(got)
        return out


def _listed(bodies: Sequence[bytes]) -> list[str]:
    """The lines of `list_mcp_resources`' result, as Gemini CLI sent it back."""
    for body in bodies:
        try:
            request = json.loads(body)
        except ValueError:
            continue
        contents = request.get("contents") if isinstance(request, dict) else None
        for content in contents if isinstance(contents, list) else []:
            parts = content.get("parts") if isinstance(content, dict) else None
            for part in parts if isinstance(parts, list) else []:
                answer = part.get("functionResponse") if isinstance(part, dict) else None
                if isinstance(answer, dict) and answer.get("name") == _LIST_RESOURCES:
                    return [line for text in _strings(answer) for line in text.splitlines()]
    raise CatalogauditError(f"gemini-cli never sent back the result of {_LIST_RESOURCES}")


def _strings(value: Any) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for v in value for s in _strings(v)] if isinstance(value, list) else []


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


def _resources(target: Target, server: str, listed: list[str], failure: str) -> ListOutcome:
    """The served resources whose URI `list_mcp_resources` listed for the server, matched in
    served order (one listed line per kept URI: the registry keys resources by URI); a failed
    list when none was listed and Gemini CLI reported a discovery error for the server."""
    items = target.catalog.items("resources")
    lines = list(listed)
    kept: list[Any] = []
    reasons: dict[int, str] = {}
    for item in items:
        uri = item.value.get("uri") if isinstance(item.value, dict) else None
        head = f"- {server}:{uri}"
        line = next(
            (x for x in lines if isinstance(uri, str) and (x == head or x.startswith(head + " |"))),
            None,
        )
        if line is None:
            reasons[item.served_index] = "not listed by list_mcp_resources"
            continue
        lines.remove(line)
        kept.append(item.value)
    if items and not kept and failure:
        return ListOutcome("resources", None, failure)
    return ListOutcome("resources", kept, reasons=reasons)


def driver(client_path: str | None) -> GeminiCliDriver:
    """The driver; `client_path` is the `gemini` executable or a node_modules directory."""
    return GeminiCliDriver(client_path)
