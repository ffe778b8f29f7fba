"""`catalogaudit verify`: run a real client against `catalogaudit serve` and compare what it
kept, dropped or failed on with what the client's profile predicts (issue 6).

Drivers are found by profile id in `DRIVERS`; each is imported only when asked for, because
the Python SDK driver needs the `mcp` package and the TS SDK driver needs node.
"""

from __future__ import annotations

from catalogaudit.errors import UsageError
from catalogaudit.model.verify import DRIVER_IDS
from catalogaudit.verify.base import Driver

#: Profile id -> module under `catalogaudit.verify.drivers` with a `driver(client_path)` factory.
DRIVERS: dict[str, str] = {pid: pid.replace("-", "_") for pid in DRIVER_IDS}


def driver(client_id: str, client_path: str | None, version: str | None = None) -> Driver:
    """The driver for a profile id; a usage error names the ids that have one. A driver
    module with a `driver_at(client_path, version)` factory installs releases side by side
    (context-forge) and is handed the version asked for."""
    from importlib import import_module

    if client_id not in DRIVERS:
        raise UsageError(
            f"--client {client_id}: no verify driver; drivers exist for {', '.join(DRIVERS)}"
        )
    module = import_module(f"catalogaudit.verify.drivers.{DRIVERS[client_id]}")
    if version and hasattr(module, "driver_at"):
        at: Driver = module.driver_at(client_path, version)
        return at
    made: Driver = module.driver(client_path)
    return made
