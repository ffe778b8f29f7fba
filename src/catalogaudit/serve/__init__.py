"""`catalogaudit serve`: replay a snapshot as an MCP server, byte for byte.

- `replay`: the transport-free core (`Replay.answer`), both protocol eras;
- `pages`: re-paging and cache-hint edits of captured page texts;
- `stdio`, `http`: the two transports; `lifecycle`: clean stops (SIGTERM, `--max-seconds`);
- `calls`, `instances`: `tools/call` answers from the tool's schemas.
"""

from __future__ import annotations

from catalogaudit._faces import lazy

TYPE_CHECKING = False  # NOTE: not `typing`'s: the face stays as cheap as its modules
if TYPE_CHECKING:
    from catalogaudit.serve.conns import Connections
    from catalogaudit.serve.http import serve_http
    from catalogaudit.serve.instances import instance
    from catalogaudit.serve.lifecycle import Stopped, install_sigterm, stopped
    from catalogaudit.serve.replay import (
        CACHE_HINTS,
        NO_WIRE_WARNING,
        PROTOCOLS,
        Replay,
        ServeOptions,
        error_text,
    )
    from catalogaudit.serve.stdio import each_line, serve_stdio

#: What other packages use, by the module that defines it (`catalogaudit._faces.lazy`).
__getattr__ = lazy(
    globals(),
    {
        "conns": "Connections",
        "http": "serve_http",
        "instances": "instance",
        "lifecycle": "Stopped install_sigterm stopped",
        "replay": "CACHE_HINTS NO_WIRE_WARNING PROTOCOLS Replay ServeOptions error_text",
        "stdio": "each_line serve_stdio",
    },
)


__all__ = [
    "CACHE_HINTS",
    "Connections",
    "NO_WIRE_WARNING",
    "PROTOCOLS",
    "Replay",
    "ServeOptions",
    "Stopped",
    "each_line",
    "error_text",
    "install_sigterm",
    "instance",
    "serve_http",
    "serve_stdio",
    "stopped",
]
