"""The `context-forge` verify driver: a ContextForge PyPI release's own discovery and validation.

Each release lives in a cached virtual environment (`context_forge_install`, Python 3.11,
dependencies as of its upload date). One child interpreter of that release registers every
catalog in turn through `GatewayService.register_gateway` (`context_forge_client.py`): Streamable
HTTP discovery against `catalogaudit serve --http 0` on 127.0.0.1 (HTTP+SSE against `--transport
sse` for a release whose `GatewayCreate` has no `transport` field: 0.1.x), the pydantic `*Create`
validators, and the database models with their insert listeners on a throwaway SQLite file.
There is no gateway server, no Redis and no network: every other address goes to a closed
loopback proxy (checked with `strace -f -e trace=connect`: only 127.0.0.1 and nscd).

Validation settings are the release's defaults (inherited VALIDATION_* and similar variables
are dropped). What running it at all needs is set: a JWT secret and passwords (1.0.x refuses
placeholders), SSRF protection allowing loopback (1.0.x blocks it, and the catalog is served
there), an in-process cache, UI, admin API, plugins and OpenTelemetry off, and a gateway named
`g` (a one-character name is what the profile assumes when `GATEWAY_NAME` is not given).
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

from packaging.version import InvalidVersion, Version

from catalogaudit.errors import CatalogauditError
from catalogaudit.model import CAPABILITY_OF
from catalogaudit.verify.base import OFFLINE_ENV, ClientNotFound, ListOutcome, Target
from catalogaudit.verify.drivers.context_forge_install import (
    MARKER,
    PACKAGE,
    cache_root,
    install_command,
)

#: A release directory's name (the cache also holds `.tools` and `.uv-cache`).
VERSION_NAME = re.compile(r"^\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?$")
SCRIPT = Path(__file__).with_name("context_forge_client.py")
#: The gateway name registrations use (see the module docstring).
GATEWAY = "g"
#: Environment the release runs with, on top of OFFLINE_ENV (values are not secrets: the
#: gateway never serves, it only validates and stores).
SETTINGS: dict[str, str] = {
    "CACHE_TYPE": "memory",
    "SSRF_ALLOW_LOCALHOST": "true",
    "MCPGATEWAY_UI_ENABLED": "false",
    "MCPGATEWAY_ADMIN_API_ENABLED": "false",
    "PLUGINS_ENABLED": "false",
    "OTEL_ENABLE_OBSERVABILITY": "false",
    "JWT_SECRET_KEY": "catalogaudit-verify-" + "0123456789abcdef" * 2,
    "AUTH_ENCRYPTION_SECRET": "catalogaudit-verify-" + "fedcba9876543210" * 2,
    "BASIC_AUTH_PASSWORD": "Catalogaudit-verify-1",
    "PLATFORM_ADMIN_PASSWORD": "Catalogaudit-verify-1",
    # 1.0.11 and later refuse the default user's placeholder too (under 12 characters).
    "DEFAULT_USER_PASSWORD": "Catalogaudit-verify-1",
    "LOG_LEVEL": "ERROR",
    # The catalog is served on loopback; nothing else may bypass the closed proxy.
    "NO_PROXY": "127.0.0.1,localhost",
    "no_proxy": "127.0.0.1,localhost",
}
#: Inherited variables kept (everything else, e.g. VALIDATION_* settings, is dropped).
_KEEP = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")


def serve_argv(target: Target, max_seconds: float) -> list[str]:
    """`catalogaudit serve --http 0` for one catalog.

    A static snapshot has no server capabilities; its listings are declared with
    `{"listChanged": false}`, because ContextForge skips a capability that is an empty
    object (CF-CAP-001), and a snapshot that did not capture one must not trip it.
    """
    argv = target.serve_argv(max_seconds)
    # The release runs in a temporary working directory.
    argv[argv.index(str(target.path))] = str(target.path.resolve())
    if "--capabilities" in argv:
        at = argv.index("--capabilities")
        del argv[at : at + 2]
        caps = {CAPABILITY_OF[n]: {"listChanged": False} for n in target.listings}
        caps.setdefault("tools", {"listChanged": False})
        argv += ["--capabilities", json.dumps(caps)]
    return [*argv, "--http", "0"]


class ContextForgeDriver:
    """Drives one release's interpreter for every catalog."""

    id = "context-forge"

    def __init__(self, venv: Path, timeout: float = 60) -> None:
        self.venv = venv
        self.python = venv / "bin" / "python"
        self.timeout = timeout

    def version(self) -> str:
        """The release installed in the venv (its own package metadata)."""
        if not self.python.exists():
            raise ClientNotFound(f"context-forge: no Python at {self.python}")
        code = f"import importlib.metadata as m; print(m.version({PACKAGE!r}))"
        proc = subprocess.run(
            [str(self.python), "-c", code], capture_output=True, text=True, timeout=60
        )
        if proc.returncode != 0:
            raise ClientNotFound(f"context-forge: {PACKAGE} is not installed in {self.venv}")
        return proc.stdout.strip()

    def env(self, home: Path) -> dict[str, str]:
        """The client's environment: ours without what could reach a real account or
        configuration, its home in `home` (the model-view sessions start it the same way)."""
        env = {k: v for k, v in os.environ.items() if k in _KEEP}
        env.update(OFFLINE_ENV)
        env.update(SETTINGS)
        env.update(HOME=str(home), DATABASE_URL=f"sqlite:///{home / 'gateway.db'}")
        return env

    def run(
        self, targets: Sequence[Target], urls: Sequence[str | None] = ()
    ) -> list[list[ListOutcome]]:
        """Register every catalog with the release and read back what it stored. `urls[i]`,
        when given, is a server already serving target i over the transport the release
        registers (Streamable HTTP from 0.2.0; a server behind `catalogaudit proxy --listen`,
        say): it is registered instead of `serve --http`."""
        given = [*urls, *[None] * (len(targets) - len(urls))]
        job = {
            "timeout": self.timeout,
            "gateway": GATEWAY,
            "targets": [
                {"url": u, "listings": t.listings}
                if u
                else {"argv": serve_argv(t, self.timeout * 2), "listings": t.listings}
                for t, u in zip(targets, given, strict=True)
            ],
        }
        with tempfile.TemporaryDirectory(prefix="catalogaudit-cf-") as tmp:
            try:
                proc = subprocess.run(
                    [str(self.python), str(SCRIPT)],
                    input=json.dumps(job),
                    capture_output=True,
                    text=True,
                    env=self.env(Path(tmp)),
                    cwd=tmp,
                    timeout=self.timeout * (len(targets) + 2),
                )
            except subprocess.TimeoutExpired:
                raise CatalogauditError("context-forge driver got no answer in time") from None
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise CatalogauditError(f"context-forge driver failed (exit {proc.returncode}): {tail}")
        answers = json.loads(proc.stdout)
        return [outcomes(t, a) for t, a in zip(targets, answers, strict=True)]


def outcomes(target: Target, answer: list[dict[str, Any]]) -> list[ListOutcome]:
    """The script's per-listing answer as list outcomes: kept positions become the served
    items themselves (the SDK rewrites some URIs, so stored values are not matched here), with
    the release's reason for each left-out one; a listing the release never reads is left out,
    as unobserved."""
    out: list[ListOutcome] = []
    for one in answer:
        name = one["listing"]
        if one.get("unread"):
            continue
        if "error" in one:
            out.append(ListOutcome(name, None, one["error"]))
            continue
        served = sorted(target.catalog.items(name), key=lambda i: i.served_index)
        why = {served[int(k)].served_index: text for k, text in one.get("reasons", {}).items()}
        out.append(ListOutcome(name, [served[k].value for k in one["kept"]], reasons=why))
    return out


def locate(client_path: str | None, version: str | None) -> Path:
    """The release venv: `--client-path` (a venv, its python, or a cache root holding
    `<version>/`), else `<cache root>/<version>`, else the newest release installed there."""
    root = cache_root()
    if client_path:
        path = Path(client_path).expanduser()
        if path.is_file():
            return path.parent.parent
        if version and (path / version / "bin" / "python").exists():
            return path / version
        if (path / "bin" / "python").exists() or version is None:
            return path
        root = path
    if version:
        return root / version
    found = sorted(_installed(root), key=lambda p: p[0])
    if not found:
        raise ClientNotFound(
            f"context-forge: no release installed under {root}; install one with: "
            f"{install_command(['VERSION'])}"
        )
    return found[-1][1]


def _installed(root: Path) -> list[tuple[Version, Path]]:
    out: list[tuple[Version, Path]] = []
    for marker in root.glob(f"*/{MARKER}"):
        name = marker.parent.name
        if VERSION_NAME.match(name):
            out.append((Version(name), marker.parent))
    return out


def driver_at(client_path: str | None, version: str | None) -> ContextForgeDriver:
    """The driver for a release (`--client context-forge@VERSION`); ClientNotFound, naming the
    install command, when its venv is missing."""
    if version:
        try:
            version = str(Version(version))  # 1.0.0-beta.2 names the 1.0.0b2 directory
        except InvalidVersion:
            raise ClientNotFound(f"context-forge@{version}: not a PEP 440 version") from None
    venv = locate(client_path, version)
    if not (venv / "bin" / "python").exists():
        wanted = version or venv.name
        raise ClientNotFound(
            f"context-forge {wanted}: no release venv at {venv}; install it with: "
            f"{install_command([wanted])}"
        )
    return ContextForgeDriver(venv)


def driver(client_path: str | None) -> ContextForgeDriver:
    """The driver without a version: the venv at `client_path`, or the newest cached."""
    return driver_at(client_path, None)
