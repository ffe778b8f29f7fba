"""The `ts-sdk-v2` verify driver: the npm `@modelcontextprotocol/client` `Client`, the TS SDK v2
(measured on 2.4.0), with `versionNegotiation: {mode: "auto"}`: `server/discover` first, then
the legacy `initialize` when the server is not a 2026-07-28 one.

As for `ts-sdk`, a node script shipped with the package (`ts_sdk_v2_driver.mjs`) imports the
client from the node_modules directory given by `--client-path`, so the verdict is that
installed release's zod validation; a rejected list call is the whole list failed.
"""

from __future__ import annotations

from pathlib import Path

from catalogaudit.verify.drivers.ts_sdk import TsSdkDriver


class TsSdkV2Driver(TsSdkDriver):
    """Drives the v2 `Client` + `StdioClientTransport` (or Streamable HTTP) in one node process."""

    id = "ts-sdk-v2"
    package = "@modelcontextprotocol/client"
    script = Path(__file__).with_name("ts_sdk_v2_driver.mjs")


def driver(client_path: str | None) -> TsSdkV2Driver:
    """The driver; `client_path` is a node_modules directory holding the client."""
    return TsSdkV2Driver(client_path)
