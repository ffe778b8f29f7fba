"""`catalogaudit verify`: run a real client against `catalogaudit serve` and compare what it
kept, dropped or failed on with what the client's profile predicts (issue 6).

Drivers are found by profile id in `DRIVERS`; each is imported only when asked for, because
the Python SDK driver needs the `mcp` package and the TS SDK driver needs node.
"""

from __future__ import annotations

from catalogaudit._faces import lazy
from catalogaudit.errors import UsageError
from catalogaudit.model import DRIVER_IDS
from catalogaudit.verify.base import Driver

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.verify.base import targets
    from catalogaudit.verify.model_runs import observe as observe_model
    from catalogaudit.verify.predict import compare
    from catalogaudit.verify.predict import predict as predict_observations
    from catalogaudit.verify.predict_model import predict_views
    from catalogaudit.verify.prompts import (
        client_prompt,
        client_prompts,
        prompt_clients,
        prompts_of,
    )
    from catalogaudit.verify.transports import HTTP, STDIO, label, verify

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "base": "targets",
        "model_runs": "observe_model=observe",
        "predict": "compare predict_observations=predict",
        "predict_model": "predict_views",
        "prompts": "client_prompt client_prompts prompt_clients prompts_of",
        "transports": "HTTP STDIO label verify",
    },
)


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


__all__ = [
    "HTTP",
    "STDIO",
    "client_prompt",
    "client_prompts",
    "compare",
    "label",
    "prompt_clients",
    "observe_model",
    "predict_observations",
    "predict_views",
    "prompts_of",
    "targets",
    "verify",
]
