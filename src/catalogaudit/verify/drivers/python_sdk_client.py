"""Child-process script: the Python SDK (`mcp`) `Client` lists every catalog it is given.

Run as `PYTHON python_sdk_client.py` with a JSON job on stdin:
`{"timeout": S, "targets": [{"argv": [...] or "url": URL, "listings": [...]}, ...]}`; prints
one JSON array (per target, per listing: `{"listing", "items"}` or `{"listing", "error"}`).

It imports nothing from catalogaudit, so it runs under any interpreter that has `mcp` installed
(another venv with another `mcp` release), and the SDK's own logging stays out of our process.
The client runs in mode auto with cache=None, as an application using the SDK would.
"""

from __future__ import annotations

import json
import sys
from typing import Any

METHODS = {
    "tools": ("list_tools", "tools"),
    "prompts": ("list_prompts", "prompts"),
    "resources": ("list_resources", "resources"),
    "resourceTemplates": ("list_resource_templates", "resource_templates"),
}


def message(exc: BaseException) -> str:
    """The client's own message, without pydantic's documentation links."""
    inner = getattr(exc, "exceptions", None)  # an ExceptionGroup from the SDK's task group
    if isinstance(inner, (list, tuple)) and inner:
        return message(inner[0])
    lines = [ln for ln in str(exc).splitlines() if "errors.pydantic.dev" not in ln]
    text = " / ".join(ln.strip() for ln in lines if ln.strip())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def one(target: dict[str, Any], timeout: float) -> list[dict[str, Any]]:
    """Every listing of one catalog, each page through the SDK's own list call."""
    import anyio
    from mcp import Client, StdioServerParameters

    if target.get("url"):
        params: Any = target["url"]  # a URL string: the SDK's Streamable HTTP client
    else:
        argv = target["argv"]
        params = StdioServerParameters(command=argv[0], args=argv[1:])
    out: list[dict[str, Any]] = []
    try:
        with anyio.fail_after(timeout):
            async with Client(params, mode="auto", cache=None) as client:
                for name in target["listings"]:
                    method, attr = METHODS[name]
                    items: list[Any] = []
                    cursor = None
                    try:
                        while True:
                            page = await getattr(client, method)(cursor=cursor)
                            items.extend(
                                m.model_dump(by_alias=True, exclude_unset=True, mode="json")
                                for m in getattr(page, attr)
                            )
                            cursor = page.next_cursor
                            if cursor is None:
                                break
                    except Exception as exc:  # the verdict we are here to observe
                        out.append({"listing": name, "error": message(exc)})
                        continue
                    out.append({"listing": name, "items": items})
    except BaseException as exc:  # connection or handshake failure: every list failed
        if isinstance(exc, KeyboardInterrupt):
            raise
        done = {o["listing"] for o in out}
        why = message(exc)
        out.extend({"listing": n, "error": why} for n in target["listings"] if n not in done)
    return out


def main() -> int:
    """Read the job, list every target in turn (one interpreter for the whole batch)."""
    import anyio

    try:
        import mcp  # noqa: F401
    except ImportError:
        print(json.dumps({"missing": "mcp"}))
        return 3
    job = json.load(sys.stdin)
    timeout = float(job.get("timeout", 60))

    async def run() -> list[list[dict[str, Any]]]:
        return [await one(t, timeout) for t in job["targets"]]

    print(json.dumps(anyio.run(run)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
