"""The live client: our own MCP client, faithful to the byte.

- `transport`: limits, replies, the transport protocol; `stdio`, `http`: the transports;
- `handshake`: `server/discover` or `initialize`, era detection, the legacy probe;
- `listing`: pagination with its guards; `capture`: one whole capture, always cleaned up.
"""

from __future__ import annotations

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.wire.capture import ENV_VALUE_ALLOW, ENV_VALUE_PREFIX, Target
    from catalogaudit.wire.capture import capture as capture_server
    from catalogaudit.wire.transport import Budget, Limits

#: What other packages use, by the module that defines it (`face=name` where the names
#: differ), loaded on first use (PEP 562): importing the face costs nothing more.
_FROM = {
    "capture": "ENV_VALUE_ALLOW ENV_VALUE_PREFIX Target capture_server=capture",
    "transport": "Budget Limits",
}


def __getattr__(name: str) -> object:
    for module, names in _FROM.items():
        for entry in names.split():
            face, _, attr = entry.partition("=")
            if face == name:
                from importlib import import_module

                value = getattr(import_module(f"{__name__}.{module}"), attr or name)
                globals()[name] = value
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Budget",
    "ENV_VALUE_ALLOW",
    "ENV_VALUE_PREFIX",
    "Limits",
    "Target",
    "capture_server",
]
