"""`catalogaudit serve`: replay a snapshot as an MCP server, byte for byte.

- `replay`: the transport-free core (`Replay.answer`), both protocol eras;
- `pages`: re-paging and cache-hint edits of captured page texts;
- `stdio`, `http`: the two transports; `lifecycle`: clean stops (SIGTERM, `--max-seconds`);
- `calls`, `instances`: `tools/call` answers from the tool's schemas.
"""

__all__ = ["calls", "http", "instances", "lifecycle", "pages", "replay", "stdio"]
