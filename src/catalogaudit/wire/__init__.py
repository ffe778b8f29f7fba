"""The live client: our own MCP client, faithful to the byte.

- `transport`: limits, replies, the transport protocol; `stdio`, `http`: the transports;
- `handshake`: `server/discover` or `initialize`, era detection, the legacy probe;
- `listing`: pagination with its guards; `capture`: one whole capture, always cleaned up.
"""

__all__ = ["capture", "handshake", "http", "listing", "stdio", "transport"]
