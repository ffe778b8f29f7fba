"""`catalogaudit proxy`: the proven fixes applied live, per client, in front of a server.

- `session`: one client connection: who the client is, its list calls, their answers rewritten
  by `rewriting.rewrite_result` (the code `rewrite` uses); `Policy`: which fixes for whom;
- `stdio`: our stdio to a spawned stdio server (`wire.RelayTransport`, `serve.each_line`);
- `http`: Streamable HTTP in front of a Streamable HTTP server (`serve.conns`, httpx);
- `bridge`: a stdio client in front of a Streamable HTTP server.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.proxy.bridge import run_bridge
    from catalogaudit.proxy.http import run_http
    from catalogaudit.proxy.session import Client, Policy, Session
    from catalogaudit.proxy.stdio import run_stdio, say

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "bridge": "run_bridge",
        "http": "run_http",
        "session": "Client Policy Session",
        "stdio": "run_stdio say",
    },
)


__all__ = ["Client", "Policy", "Session", "run_bridge", "run_http", "run_stdio", "say"]
