"""Peer of a live `catalogaudit snapshot`: a client written with the official MCP Python SDK
(`mcp`) that follows the lifecycle: `initialize`, `notifications/initialized`, the four lists
(every page), close. Usage: sdk_client.py COMMAND [ARG...]

It prints the catalog as one JSON object, as a snapshot writes one.
`ClientSession.initialize` sends `notifications/initialized`; leaving `stdio_client` closes
the server's stdin and waits for it to exit (then terminates it), as the spec's stdio
shutdown says."""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import PaginatedRequestParams


async def listing(session: ClientSession, method: str, attr: str) -> list[object]:
    items: list[object] = []
    cursor: str | None = None
    while True:
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await getattr(session, method)(params=params)
        dumped = (
            x.model_dump(mode="json", by_alias=True, exclude_none=True) for x in getattr(page, attr)
        )
        items.extend(dumped)
        cursor = page.next_cursor
        if not cursor:
            return items


async def main() -> None:
    server = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    catalog: dict[str, object] = {}
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        caps = init.capabilities
        wanted = (
            ("tools", caps.tools, "list_tools", "tools"),
            ("prompts", caps.prompts, "list_prompts", "prompts"),
            ("resources", caps.resources, "list_resources", "resources"),
            ("resourceTemplates", caps.resources, "list_resource_templates", "resource_templates"),
        )
        for name, advertised, method, key in wanted:
            if advertised is not None:
                catalog[name] = await listing(session, method, key)
    sys.stdout.write(json.dumps(catalog) + "\n")


anyio.run(main)
