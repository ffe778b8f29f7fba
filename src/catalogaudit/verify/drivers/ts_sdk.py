"""The `ts-sdk` verify driver: the npm `@modelcontextprotocol/sdk` `Client` (measured on 1.32.2).

A small node script shipped with the package (`ts_sdk_driver.mjs`) imports the SDK from the
node_modules directory given by `--client-path` (default: `./node_modules`), so the verdict is
that installed release's zod validation and no npm dependency is ours. One node process lists
every catalog; a rejected list call is the whole list failed, with the SDK's message.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from catalogaudit.verify.base import ClientNotFound, ListOutcome, Target, run_job

SCRIPT = Path(__file__).with_name("ts_sdk_driver.mjs")


class TsSdkDriver:
    """Drives the TS SDK `Client` + `StdioClientTransport` in one node process."""

    id = "ts-sdk"
    #: `verify --transport http`: the job names each server's URL instead of its argv.
    transports = ("stdio", "http")
    #: The npm package (under node_modules) and the node script that drives it.
    package = "@modelcontextprotocol/sdk"
    script = SCRIPT

    def __init__(self, modules: str | None = None, timeout: float = 60) -> None:
        self.modules = Path(modules or "node_modules").resolve()
        self.timeout = timeout
        node = shutil.which("node")
        if node is None:
            raise ClientNotFound(f"{self.id}: node is not on PATH")
        self.node = node

    def _check(self) -> Path:
        package = self.modules / self.package / "package.json"
        if not package.is_file():
            raise ClientNotFound(
                f"{self.id}: no {self.package} under {self.modules} "
                "(give the node_modules directory with --client-path)"
            )
        return package

    def version(self) -> str:
        """The SDK's version from its package.json."""
        return str(json.loads(self._check().read_text(encoding="utf-8"))["version"])

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """List every target's listings with the SDK and parse its per-listing outcomes."""
        self._check()
        argv = [self.node, str(self.script), str(self.modules)]
        return run_job(self.id, argv, targets, self.timeout)


def driver(client_path: str | None) -> TsSdkDriver:
    """The driver; `client_path` is a node_modules directory holding the SDK."""
    return TsSdkDriver(client_path)
