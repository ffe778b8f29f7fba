"""The `opencode` verify driver: the opencode CLI (npm `opencode-ai`, whose platform binary is
`opencode-linux-x64`; measured on 1.18.33), driven through `opencode serve` with no key and no
model call.

Every catalog becomes `mcp.cN = {type: "local", command: [...]}` in a temporary
`$XDG_CONFIG_HOME/opencode/opencode.json` whose only model provider is a loopback URL nothing
answers. One `opencode serve` on a loopback port (random, password-protected) starts them all;
then its HTTP API is read:

* `GET /mcp`: status per server. opencode lists tools when it connects, so a failed server
  (`"Failed to get tools"`, opencode's own text) is every listing it reads failed.
* `GET /experimental/resource`: the resources it kept, keyed `cN:uri`, per server.
* `GET /command`: MCP prompts become commands named `cN:prompt` (source `mcp`; the prompt
  name with `[^a-zA-Z0-9_-]` replaced by `_`, one command per name), so 1.18.33 reads prompts
  too (the reference table says tools and resources only).

A failed resources/list or prompts/list does not show in those replies (the server is simply
missing from them); opencode's warning on stderr (`message="failed to get resources"
clientName=cN error="..."`) is what marks that list failed, with the validation error quoted.

opencode's HTTP API does not show the MCP tool definitions it kept (`/experimental/tool` lists
built-in tools only). It keeps or fails the whole tool list at connect time (the SDK validates
the whole result at once, and `MCP.tools()` exposes every cached definition of a connected
server), so a connected server is taken to have kept every served tool. Resource templates are
listed by opencode but not exposed by any route, so they are not observed.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import re
import secrets
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.verify.base import ClientNotFound, ListOutcome, Target, home_env, server_argv
from catalogaudit.verify.base import executable as find_executable

#: Listings opencode 1.18.33 reads and exposes (templates are read but never exposed).
READS = ("tools", "resources", "prompts")
#: The only inherited variables: no provider key, no OPENCODE_* setting of the caller's.
_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT")
_LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")
_FAILED = re.compile(
    r'message="failed to get (resources|prompts)" clientName=(\S+) error="((?:[^"\\]|\\.)*)"'
)
_USER = "catalogaudit"
_SANITIZE = re.compile(r"[^a-zA-Z0-9_-]")


def executable(path: str | None) -> str:
    """The opencode binary: `path` itself; in a node_modules directory `.bin/opencode` (from
    `opencode-ai`, or tests/opencode-bin's shim) or a platform package's
    `opencode-*/bin/opencode`; else on PATH."""
    return find_executable("opencode", path, also=("opencode-*/bin/opencode",))


class OpencodeDriver:
    """Drives one `opencode serve` in a throwaway HOME for every catalog."""

    id = "opencode"

    def __init__(self, opencode: str | None = None, timeout: float = 60) -> None:
        self.opencode = executable(opencode)
        self.timeout = timeout
        self.password = secrets.token_urlsafe(16)

    def env(self, home: Path) -> dict[str, str]:
        """The client's environment: ours without what could reach a real account or
        configuration, its home in `home` (the model-view sessions start it the same way)."""
        return home_env(
            {k: v for k, v in os.environ.items() if k in _KEEP},
            home,
            OPENCODE_DISABLE_MODELS_FETCH="1",
            OPENCODE_DISABLE_AUTOUPDATE="1",
            OPENCODE_DISABLE_SHARE="1",
            OPENCODE_DISABLE_LSP_DOWNLOAD="1",
            OPENCODE_DISABLE_DEFAULT_PLUGINS="1",
            OPENCODE_DISABLE_CLAUDE_CODE="1",
            OPENCODE_DISABLE_EXTERNAL_SKILLS="1",
            OPENCODE_DISABLE_PROJECT_CONFIG="1",
            OPENCODE_SERVER_USERNAME=_USER,
            OPENCODE_SERVER_PASSWORD=self.password,
            NO_COLOR="1",
        )

    def version(self) -> str:
        """`opencode --version` prints `1.18.33`."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-opencode-") as tmp:
            try:
                proc = subprocess.run(
                    [self.opencode, "--version"],
                    capture_output=True,
                    text=True,
                    env=self.env(Path(tmp)),
                    cwd=tmp,
                    timeout=60,
                    stdin=subprocess.DEVNULL,
                )
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise ClientNotFound(f"opencode: cannot run {self.opencode}: {exc}") from None
        found = re.search(r"(\d+\.\d+\.\d+\S*)\s*$", proc.stdout.strip())
        if proc.returncode != 0 or found is None:
            raise ClientNotFound(
                f"opencode: {self.opencode} --version printed {proc.stdout[:80]!r}"
            )
        return found.group(1)

    def _config(self, targets: Sequence[Target]) -> dict[str, Any]:
        mcp = {
            f"c{n}": {
                "type": "local",
                "command": server_argv(t, self.timeout * 3),
                "enabled": True,
                "timeout": int(self.timeout * 1000),
            }
            for n, t in enumerate(targets)
        }
        return {
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": False,
            "share": "disabled",
            "lsp": False,
            "formatter": False,
            # Nothing listens there: no model call is made, and none could leave the machine.
            "enabled_providers": ["loopback"],
            "model": "loopback/none",
            "provider": {
                "loopback": {
                    "name": "loopback",
                    "npm": "@ai-sdk/openai-compatible",
                    "options": {"baseURL": "http://127.0.0.1:9/v1", "apiKey": "none"},
                    "models": {"none": {"name": "none"}},
                }
            },
            "mcp": mcp,
        }

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """Start every catalog in one `opencode serve` and read what it kept per server."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-opencode-") as tmp:
            home = Path(tmp)
            (home / ".config" / "opencode").mkdir(parents=True)
            (home / "work").mkdir()
            config = home / ".config" / "opencode" / "opencode.json"
            config.write_text(json.dumps(self._config(targets), indent=2), encoding="utf-8")
            _seed_plugin_dependency(config.parent)
            replies, stderr = self._serve(home)
        status, resources, commands = replies
        failed = {
            (m.group(2), m.group(1)): f"failed to get {m.group(1)}: {_unquote(m.group(3))}"
            for m in _FAILED.finditer(stderr)
        }
        results: list[list[ListOutcome]] = []
        for n, target in enumerate(targets):
            name = f"c{n}"
            entry = status.get(name)
            if not isinstance(entry, dict):
                raise CatalogauditError(f"opencode: GET /mcp did not list server {name}")
            results.append(_outcomes(target, name, entry, resources, commands, failed))
        return results

    def _serve(self, home: Path) -> tuple[tuple[dict[str, Any], dict[str, Any], list[Any]], str]:
        """Run `opencode serve`, wait for its URL, GET the three routes, stop it."""
        errlog = home / "stderr.log"
        argv = [self.opencode, "serve", "--hostname", "127.0.0.1", "--port", "0"]
        argv += ["--pure", "--print-logs", "--log-level", "WARN"]
        with errlog.open("w", encoding="utf-8") as err:
            try:
                proc = subprocess.Popen(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    text=True,
                    env=self.env(home),
                    cwd=home / "work",
                    start_new_session=True,
                )
            except OSError as exc:
                raise ClientNotFound(
                    f"opencode: cannot run {self.opencode}: {exc.strerror}"
                ) from None
            assert proc.stdout is not None
            lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
            try:
                base = _wait_for_url(lines, time.monotonic() + self.timeout)
                status = self._get(base, "/mcp")
                resources = self._get(base, "/experimental/resource")
                commands = self._get(base, "/command")
            finally:
                _stop(proc)
        if not isinstance(status, dict) or not isinstance(resources, dict):
            raise CatalogauditError("opencode: /mcp or /experimental/resource is not an object")
        if not isinstance(commands, list):
            raise CatalogauditError("opencode: /command is not a list")
        return (status, resources, commands), errlog.read_text(encoding="utf-8", errors="replace")

    def _get(self, base: str, route: str) -> Any:
        token = base64.b64encode(f"{_USER}:{self.password}".encode()).decode()
        request = urllib.request.Request(base + route, headers={"Authorization": f"Basic {token}"})
        # The opencode server is on loopback: bypass the proxies that OFFLINE_ENV points at a
        # closed port (urllib reads them from our own environment, not the client's).
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=self.timeout * 2) as reply:
                return json.loads(reply.read().decode("utf-8"))
        except (OSError, ValueError) as exc:
            raise CatalogauditError(f"opencode: GET {route} failed: {exc}") from None


def _outcomes(
    target: Target,
    name: str,
    entry: dict[str, Any],
    resources: dict[str, Any],
    commands: list[Any],
    failed: dict[tuple[str, str], str],
) -> list[ListOutcome]:
    out: list[ListOutcome] = []
    error = "" if entry.get("status") == "connected" else str(entry.get("error") or entry)
    prefix = f"{name}:"
    for listing in (n for n in target.listings if n in READS):
        if error:
            out.append(ListOutcome(listing, None, error))
        elif (name, listing) in failed:
            out.append(ListOutcome(listing, None, failed[(name, listing)]))
        elif listing == "tools":
            out.append(ListOutcome(listing, [i.value for i in target.catalog.items("tools")]))
        elif listing == "resources":
            kept = [
                r for r in resources.values() if isinstance(r, dict) and r.get("client") == name
            ]
            out.append(ListOutcome(listing, kept))
        else:
            named = {
                str(c.get("name"))[len(prefix) :]
                for c in commands
                if isinstance(c, dict)
                and c.get("source") == "mcp"
                and str(c.get("name", "")).startswith(prefix)
            }
            out.append(ListOutcome(listing, _prompts_kept(target, named)))
    return out


def _prompts_kept(target: Target, commands: set[str]) -> list[Any]:
    """The served prompts behind opencode's command names (`cN:` stripped).

    opencode names a prompt's command with `[^a-zA-Z0-9_-]` replaced by `_` and keeps one
    command per name, so prompts that collide after that become one command. The first served
    prompt with that name counts as kept and the others as dropped (the convention of the
    `name-collision` check, which reports every item after the first).
    """
    kept: list[Any] = []
    for item in target.catalog.items("prompts"):
        name = item.value.get("name") if isinstance(item.value, dict) else None
        if isinstance(name, str) and _SANITIZE.sub("_", name) in commands:
            commands.discard(_SANITIZE.sub("_", name))
            kept.append(item.value)
    return kept


def _seed_plugin_dependency(config_dir: Path) -> None:
    """Make opencode believe its config directory's `@opencode-ai/plugin` is installed.

    NOTE: on startup opencode runs `npm install @opencode-ai/plugin` in every config directory
    (in the background; strace showed a CONNECT to registry.npmjs.org through the proxy). Its
    `Npm.install` skips a directory whose `node_modules` exists and whose package-lock.json
    root already lists every wanted package, so an empty `node_modules` and that lock entry
    keep it from trying. `--pure` loads no plugin, so nothing is missing.
    """
    (config_dir / "node_modules").mkdir(exist_ok=True)
    lock = {"lockfileVersion": 3, "packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}
    (config_dir / "package-lock.json").write_text(json.dumps(lock), encoding="utf-8")


def _unquote(text: str) -> str:
    """A logfmt quoted value (JSON-style escapes) as one line; a JSON value (opencode logs
    zod issues as indented JSON) is made compact."""
    try:
        value = str(json.loads(f'"{text}"'))
    except ValueError:
        value = text
    try:
        return json.dumps(json.loads(value), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        return " ".join(value.split())


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _wait_for_url(lines: queue.Queue[str | None], deadline: float) -> str:
    seen: list[str] = []
    while True:
        try:
            line = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            raise CatalogauditError("opencode serve did not start listening in time") from None
        if line is None:
            tail = " ".join(seen[-3:]).strip() or "no output"
            raise CatalogauditError(f"opencode serve exited before listening: {tail}")
        seen.append(line.strip())
        found = _LISTENING.search(line)
        if found:
            return found.group(1)


def _stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM the server's process group (it and the MCP servers it spawned), then SIGKILL."""
    for sig, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, None)):
        if proc.poll() is not None:
            break
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    if proc.poll() is None:
        proc.wait()


def driver(client_path: str | None) -> OpencodeDriver:
    """The driver; `client_path` is the `opencode` executable or a node_modules directory."""
    return OpencodeDriver(client_path)
