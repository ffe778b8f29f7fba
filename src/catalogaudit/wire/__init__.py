"""The live client: our own MCP client, faithful to the byte.

- `transport`: limits, replies, the transport protocol; `stdio`, `http`: the transports;
- `handshake`: `server/discover` or `initialize`, era detection, the legacy probe;
- `listing`: pagination with its guards; `capture`: one whole capture, always cleaned up.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.wire.capture import ENV_VALUE_ALLOW, ENV_VALUE_PREFIX, Target
    from catalogaudit.wire.capture import capture as capture_server
    from catalogaudit.wire.encoding import ACCEPT_ENCODING, codings, decoded
    from catalogaudit.wire.relay import RelayTransport
    from catalogaudit.wire.sockets import Clock, DeadlineBackend
    from catalogaudit.wire.transport import Budget, Limits

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "sockets": "Clock DeadlineBackend",
        "encoding": "ACCEPT_ENCODING codings decoded",
        "capture": "ENV_VALUE_ALLOW ENV_VALUE_PREFIX Target capture_server=capture",
        "relay": "RelayTransport",
        "transport": "Budget Limits",
    },
)


__all__ = [
    "ACCEPT_ENCODING",
    "Budget",
    "Clock",
    "DeadlineBackend",
    "ENV_VALUE_ALLOW",
    "ENV_VALUE_PREFIX",
    "Limits",
    "RelayTransport",
    "Target",
    "capture_server",
    "codings",
    "decoded",
]
