"""The `codex` verify driver: the Codex CLI (npm `@openai/codex`, rmcp client; measured on
0.169.0), driven through `codex app-server` with no key and no model call.

Every catalog becomes `[mcp_servers.cN]` in a temporary `$CODEX_HOME/config.toml` whose model
provider is a loopback URL nothing answers (no model call is made). One `codex app-server`
process starts them all; over its JSON-RPC stdio we send `initialize` (with `clientInfo`), the
`initialized` notification and `mcpServerStatus/list`, whose entries carry per server `tools`
(by name, with schemas), `toolsError`, `resources` and `resourceTemplates`. With `verify
--transport http` a server is configured by its `url` (Codex's Streamable HTTP client).

Verdicts: a `toolsError` is Codex failing the server, so every listing it reads is failed with
that message. A failed resources/list or resources/templates/list does not show in the reply
(Codex returns an empty list); its warning on stderr (`Failed to list resources for MCP server
'cN': ...`) is what marks the list failed. Codex never reads prompts, so prompts are not
observed.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.verify.base import (
    ClientNotFound,
    ListOutcome,
    Target,
    executable,
    home_env,
    server_argv,
)

#: Listings Codex reads (never prompts).
READS = ("tools", "resources", "resourceTemplates")
_LIST_FAILED = re.compile(
    r"Failed to list (resources|resource templates) for MCP server '([^']+)': (.*?)\s*$",
    re.MULTILINE,
)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: Variables that would point Codex at a real account, endpoint or configuration.
_DROP = ("OPENAI_", "CODEX_", "RUST_LOG", "AZURE_OPENAI_")


def _toml(value: Any) -> str:
    """A TOML value for strings and lists of strings (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=True)


class CodexDriver:
    """Drives one `codex app-server` over stdio for every catalog."""

    id = "codex"
    #: `verify --transport http` configures each server by `url` instead of `command`.
    transports = ("stdio", "http")

    def __init__(self, codex: str | None = None, timeout: float = 60) -> None:
        self.codex = executable("codex", codex)
        self.timeout = timeout

    def env(self, home: Path) -> dict[str, str]:
        """The client's environment: ours without what could reach a real account or
        configuration, its home in `home` (the model-view sessions start it the same way)."""
        inherited = {k: v for k, v in os.environ.items() if not k.startswith(_DROP)}
        return home_env(
            inherited,
            home,
            CODEX_HOME=str(home / "codex"),
            # Resource-list failures are only logged, at warn level.
            RUST_LOG="warn",
            NO_COLOR="1",
        )

    def version(self) -> str:
        """`codex --version` prints `codex-cli 0.169.0`."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-codex-") as tmp:
            try:
                proc = subprocess.run(
                    [self.codex, "--version"],
                    capture_output=True,
                    text=True,
                    env=self.env(Path(tmp)),
                    timeout=60,
                    stdin=subprocess.DEVNULL,
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise ClientNotFound(f"codex: cannot run {self.codex}: {exc}") from None
        found = re.search(r"(\d+\.\d+\.\d+\S*)\s*$", proc.stdout.strip())
        if proc.returncode != 0 or found is None:
            raise ClientNotFound(f"codex: {self.codex} --version printed {proc.stdout[:80]!r}")
        return found.group(1)

    def _config(self, targets: Sequence[Target]) -> str:
        lines = [
            'model = "catalogaudit-none"',
            'model_provider = "loopback"',
            "",
            "[model_providers.loopback]",
            'name = "loopback"',
            # Nothing listens there: no model call is made, and none could leave the machine.
            'base_url = "http://127.0.0.1:9/v1"',
            'wire_api = "responses"',
        ]
        for n, target in enumerate(targets):
            lines += ["", f"[mcp_servers.c{n}]"]
            if target.url:
                # Codex's Streamable HTTP client (rmcp) for a `url` server.
                lines.append(f"url = {_toml(target.url)}")
            else:
                argv = server_argv(target, self.timeout * 2)
                lines += [f"command = {_toml(argv[0])}", f"args = {_toml(argv[1:])}"]
            lines.append(f"startup_timeout_sec = {int(self.timeout)}")
        return "\n".join(lines) + "\n"

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """Start every catalog in one app-server and read its per-server status."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-codex-") as tmp:
            home = Path(tmp)
            (home / "codex").mkdir()
            (home / "codex" / "config.toml").write_text(self._config(targets), encoding="utf-8")
            statuses, stderr = self._statuses(home)
        failed = {
            (
                m.group(2),
                "resources" if m.group(1) == "resources" else "resourceTemplates",
            ): m.group(3)
            for m in _LIST_FAILED.finditer(_ANSI.sub("", stderr))
        }
        results: list[list[ListOutcome]] = []
        for n, target in enumerate(targets):
            name = f"c{n}"
            status = statuses.get(name)
            if status is None:
                raise CatalogauditError(f"codex: mcpServerStatus/list did not list server {name}")
            results.append(self._outcomes(target, name, status, failed))
        return results

    @staticmethod
    def _outcomes(
        target: Target, name: str, status: dict[str, Any], failed: dict[tuple[str, str], str]
    ) -> list[ListOutcome]:
        out: list[ListOutcome] = []
        error = status.get("toolsError")
        for listing in (n for n in target.listings if n in READS):
            if error:
                out.append(ListOutcome(listing, None, str(error)))
            elif (name, listing) in failed:
                out.append(ListOutcome(listing, None, failed[(name, listing)]))
            elif listing == "tools":
                tools = status.get("tools") or {}
                out.append(ListOutcome(listing, list(tools.values())))
            else:
                out.append(ListOutcome(listing, list(status.get(listing) or [])))
        return out

    def _statuses(self, home: Path) -> tuple[dict[str, dict[str, Any]], str]:
        """Run the app-server handshake and `mcpServerStatus/list` (every page)."""
        errlog = home / "stderr.log"
        with errlog.open("w", encoding="utf-8") as err:
            try:
                proc = subprocess.Popen(
                    [self.codex, "app-server"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    text=True,
                    env=self.env(home),
                    cwd=home,
                    start_new_session=True,
                )
            except OSError as exc:
                raise ClientNotFound(f"codex: cannot run {self.codex}: {exc.strerror}") from None
            assert proc.stdin is not None and proc.stdout is not None
            lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
            try:
                rpc = _Rpc(proc.stdin, lines, time.monotonic() + self.timeout * 3)
                rpc.call(
                    "initialize",
                    {"clientInfo": {"name": "catalogaudit", "title": None, "version": "0"}},
                )
                rpc.notify("initialized")
                statuses: dict[str, dict[str, Any]] = {}
                cursor: str | None = None
                while True:
                    params = {"cursor": cursor} if cursor else {}
                    page = rpc.call("mcpServerStatus/list", params)
                    for entry in page.get("data") or []:
                        statuses[str(entry.get("name"))] = entry
                    cursor = page.get("nextCursor")
                    if not cursor:
                        break
                proc.stdin.close()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    pass
            finally:
                if proc.poll() is None:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    proc.wait()
        return statuses, errlog.read_text(encoding="utf-8", errors="replace")


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


class _Rpc:
    """Newline-delimited JSON-RPC requests to the app-server, with one overall deadline."""

    def __init__(self, stdin: IO[str], lines: queue.Queue[str | None], deadline: float) -> None:
        self.stdin, self.lines, self.deadline, self.next_id = stdin, lines, deadline, 1

    def notify(self, method: str) -> None:
        self.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.stdin.flush()

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        rid, self.next_id = self.next_id, self.next_id + 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        self.stdin.write(json.dumps(msg) + "\n")
        self.stdin.flush()
        while True:
            left = self.deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise CatalogauditError(f"codex app-server: no answer to {method}") from None
            if line is None:
                raise CatalogauditError(f"codex app-server exited before answering {method}")
            try:
                reply = json.loads(line)
            except ValueError:
                continue
            if not isinstance(reply, dict) or reply.get("id") != rid:
                continue
            if "error" in reply:
                raise CatalogauditError(f"codex app-server: {method}: {reply['error']}")
            result = reply.get("result")
            return result if isinstance(result, dict) else {}


def driver(client_path: str | None) -> CodexDriver:
    """The driver; `client_path` is the `codex` executable or a node_modules directory."""
    return CodexDriver(client_path)
