"""Child-process script: a ContextForge release registers every catalog it is given.

Run as `RELEASE-VENV/bin/python context_forge_client.py` with a JSON job on stdin:
`{"timeout": S, "gateway": NAME, "targets": [{"argv": [...], "listings": [...]}, ...]}`,
where `argv` starts `catalogaudit serve SNAPSHOT --http 0` (or a target gives the `url` of a
server already listening, registered as it is and left running; it must speak the transport
below). Prints one JSON array (per
target, per listing: `{"listing", "kept": [served indexes], "reasons": {index: why}}` or
`{"listing", "error"}`).

Each catalog goes through the release's own `GatewayService.register_gateway` (Streamable
HTTP discovery, or HTTP+SSE for a release whose `GatewayCreate` has no `transport` field:
0.1.x registers SSE gateways only and is served `--transport sse`; ToolCreate/ResourceCreate/
PromptCreate validation, the database models and
their `before_insert` listeners) into the SQLite database `DATABASE_URL` names (a throwaway
file: 0.6.0's engine options do not fit SQLite's in-memory pool), emptied between catalogs.
What the release stored is what it kept; a registration that raised failed every listing it
reads; a list call the release's MCP SDK refused fails that listing. The SDK's list calls are
recorded so stored rows map back to served positions (the SDK normalises resource URIs). It
imports nothing from catalogaudit: it runs under the release's own interpreter and
dependencies. `CATALOGAUDIT_CF_LOG=1` lets the release's own logging through to stderr.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import time
from typing import Any

#: The SDK list call -> (listing, attribute of its result). The mcp 2.x SDK (ContextForge
#: 1.0.8 and later) names the templates' attributes in snake case: `_field` reads either.
CALLS = {
    "list_tools": ("tools", "tools"),
    "list_prompts": ("prompts", "prompts"),
    "list_resources": ("resources", "resources"),
    "list_resource_templates": ("resourceTemplates", "resourceTemplates"),
}


def _field(value: Any, camel: str) -> Any:
    """An attribute of an SDK model by its wire name, or by the mcp 2.x snake-case name."""
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in camel)
    return getattr(value, camel, None) if hasattr(value, camel) else getattr(value, snake, None)


#: Servers started before the registration that needs them (each takes longer to start than a
#: registration takes once the TLS contexts are shared), so they start while it runs.
AHEAD = 2
#: Servers launched, reaped before exit.
STOPPED: list[subprocess.Popen[str]] = []
#: Also wrapped, to learn the capabilities the release saw.
_INITIALIZE = "initialize"
_DISCOVER = "connect_to_streamablehttp_server"


def _module(name: str) -> Any:
    """A module of the release (imported by name: catalogaudit's own tools never see it)."""
    import importlib

    return importlib.import_module(name)


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and its causes, outermost first; an exception group stands for its
    first member (the SDK's task groups and `except*` re-raises wrap everything in one)."""
    out: list[BaseException] = []
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        members = getattr(at, "exceptions", None)
        if isinstance(members, tuple) and members:
            at = members[0]
            continue
        out.append(at)
        at = at.__cause__ or at.__context__
    return out


def _text(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if "errors.pydantic.dev" not in ln]
    return " / ".join(ln for ln in lines if ln) or type(exc).__name__


def message(exc: BaseException, raised: BaseException | None = None) -> str:
    """The outermost message, then the innermost cause (ContextForge's own words), found
    through the exception chain or else through what discovery raised."""
    chain = _chain(exc) or [exc]
    if len(chain) == 1 and raised is not None and raised is not exc:
        chain += _chain(raised)
    outer, inner = _text(chain[0]), _text(chain[-1])
    return outer if inner in outer else f"{outer}: {inner}"


class Recorder:
    """Wraps the SDK's `ClientSession` list calls and keeps what each returned, in order."""

    def __init__(self) -> None:
        self.seen: dict[str, list[Any]] = {}
        self.capabilities: dict[str, Any] = {}
        #: Listing -> why the SDK's list call raised (the release logs it and goes on).
        self.failed: dict[str, str] = {}
        #: What the discovery function raised: a release may re-raise a bare
        #: GatewayConnectionError whose chain no longer holds the cause.
        self.raised: BaseException | None = None

    def install(self) -> None:
        from mcp import ClientSession

        for method, (listing, attr) in CALLS.items():
            original = getattr(ClientSession, method, None)
            if original is not None:
                setattr(ClientSession, method, self._wrap(original, listing, attr))
        initialize = ClientSession.initialize

        async def recorded(session: Any, *args: Any, **kwargs: Any) -> Any:
            result = await initialize(session, *args, **kwargs)
            caps = result.capabilities.model_dump(by_alias=True, exclude_none=True)
            self.capabilities = caps
            return result

        setattr(ClientSession, _INITIALIZE, recorded)
        service = _module("mcpgateway.services.gateway_service").GatewayService
        discover = getattr(service, _DISCOVER, None)
        if discover is None:  # up to 0.5.0 a local function of `_initialize_gateway`
            return

        async def discovered(gateway: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return await discover(gateway, *args, **kwargs)
            except BaseException as exc:
                self.raised = exc
                raise

        setattr(service, _DISCOVER, discovered)

    def _wrap(self, original: Any, listing: str, attr: str) -> Any:
        async def recorded(session: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                result = await original(session, *args, **kwargs)
            except Exception as exc:  # the SDK refused the list result: the list is lost
                self.failed[listing] = message(exc)
                raise
            self.seen.setdefault(listing, []).extend(_field(result, attr) or [])
            return result

        return recorded


def share_tls_contexts() -> None:
    """One TLS context per set of arguments for all of the release's HTTP clients.

    httpx builds one for every transport (the client's and one per proxy variable; two clients
    a registration), loading the whole CA bundle each time: a third of a batch's CPU. Every
    connection here is plain HTTP on loopback or to the closed proxy, so no context is ever
    used for a handshake, and sharing one changes nothing the release validates or stores."""
    default = _module("httpx._transports.default")
    build = default.create_ssl_context
    made: dict[Any, Any] = {}

    def shared(verify: Any = True, cert: Any = None, trust_env: bool = True) -> Any:
        key = (verify, cert, trust_env)
        try:
            hash(key)
        except TypeError:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        if key not in made:
            made[key] = build(verify=verify, cert=cert, trust_env=trust_env)
        return made[key]

    default.create_ssl_context = shared


def reads() -> set[str]:
    """The listings this release's discovery code asks for at all (its own source says):
    a direct `session.list_tools(` call, or (1.0.7.post20260921, which follows `nextCursor`)
    `get_list_paginated(session, MCPListMethod.TOOLS)`, which calls the same SDK method."""
    import inspect

    source = inspect.getsource(_module("mcpgateway.services.gateway_service"))
    return {
        listing
        for method, (listing, _) in CALLS.items()
        if f".{method}(" in source or f"MCPListMethod.{method[5:].upper()})" in source
    }


def _key(listing: str, item: Any) -> str:
    """How the release stores an item: the stripped name, URI or URI template."""
    if listing == "tools" or listing == "prompts":
        value = item.name
    elif listing == "resources":
        value = item.uri
    else:
        value = _field(item, "uriTemplate")
    return str(value).strip()


def _stored(db: Any) -> dict[str, list[str]]:
    """Every stored tool name, prompt name and resource URI (templates are resources)."""
    models = _module("mcpgateway.db")
    Prompt, Resource, Tool = models.Prompt, models.Resource, models.Tool  # noqa: N806

    def names(model: Any) -> list[str]:
        col = getattr(model, "original_name", None) or model.name
        return [str(v) for (v,) in db.query(col).all()]

    uris = [str(v) for (v,) in db.query(Resource.uri).all()]
    templates = list(uris)  # 0.9.0 stores a template as a resource whose uri is the template
    if hasattr(Resource, "uri_template"):
        templates += [str(v) for (v,) in db.query(Resource.uri_template).all() if v]
    return {
        "tools": names(Tool),
        "prompts": names(Prompt),
        "resources": uris,
        "resourceTemplates": templates,
    }


def _kept(listing: str, served: list[Any], stored: list[str]) -> list[int]:
    left = list(stored)
    out: list[int] = []
    for n, item in enumerate(served):
        key = _key(listing, item)
        if key in left:
            left.remove(key)
            out.append(n)
    return out


def transport() -> str | None:
    """The transport registrations ask for: Streamable HTTP where the release's
    `GatewayCreate` takes a `transport` (0.2.0 and later), else None (SSE, all it speaks)."""
    create = _module("mcpgateway.schemas").GatewayCreate
    return "STREAMABLEHTTP" if "transport" in create.model_fields else None


def _launch(target: dict[str, Any], sse: bool) -> subprocess.Popen[str] | None:
    """Start `catalogaudit serve --http 0` for a target (None: it gives a `url`)."""
    if target.get("url"):
        return None
    pipe = subprocess.PIPE
    argv = [*target["argv"], *(["--transport", "sse"] if sse else [])]
    proc = subprocess.Popen(argv, stdin=pipe, stderr=pipe, text=True)
    STOPPED.append(proc)  # reaped at the end, whatever becomes of its target
    return proc


def _ready(proc: subprocess.Popen[str]) -> str:
    """The URL a launched server listens on (its first stderr line)."""
    assert proc.stderr is not None
    line = proc.stderr.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise RuntimeError(f"catalogaudit serve did not start: {line.strip()!r}")
    return line.split("listening on ", 1)[1].strip()


def _why(listing: str, item: Any) -> str:
    """Why the release left a served item out, in its own words: the item run through the
    release's own create model again (its verdict came from the database, not from this)."""
    schemas = _module("mcpgateway.schemas")
    data = item.model_dump(by_alias=True, exclude_none=True)
    if listing == "tools":
        model = schemas.ToolCreate
    elif listing == "prompts":
        model, data["template"] = schemas.PromptCreate, data.get("template", "")
    else:
        model, data["content"] = schemas.ResourceCreate, ""
        data["uri"] = str(data.get("uri") or data.get("uriTemplate"))
        if listing == "resourceTemplates":
            data["uri_template"] = data["uri"]
    try:
        model.model_validate(data)
    except Exception as exc:  # the message is what we are after
        return f"{model.__name__}: {message(exc)}"
    if listing == "tools":
        return "not stored by ContextForge"
    return "not stored: ContextForge stopped importing this listing at an earlier item"


def _listing(name: str, recorder: Recorder, stored: dict[str, list[str]]) -> dict[str, Any]:
    if name in recorder.failed:
        return {"listing": name, "error": recorder.failed[name]}
    if name not in recorder.seen:
        cap = "prompts" if name == "prompts" else "tools" if name == "tools" else "resources"
        value = json.dumps(recorder.capabilities.get(cap))
        why = f"ContextForge never requested it (server capabilities.{cap} = {value})"
        return {"listing": name, "error": why}
    served = recorder.seen[name]
    kept = _kept(name, served, stored[name])
    reasons = {str(n): _why(name, item) for n, item in enumerate(served) if n not in kept}
    return {"listing": name, "kept": kept, "reasons": reasons}


def _reset(models: Any) -> None:
    """An empty database: the tables once, then every row deleted between catalogs (the
    schema DDL costs more than a registration)."""
    meta = models.Base.metadata
    if not getattr(_reset, "done", False):
        meta.create_all(bind=models.engine)
        _reset.done = True  # type: ignore[attr-defined]
        return
    with models.engine.begin() as conn:
        for table in reversed(meta.sorted_tables):
            conn.execute(table.delete())


async def one(
    target: dict[str, Any],
    job: dict[str, Any],
    recorder: Recorder,
    read: set[str],
    server: subprocess.Popen[str] | None,
) -> list[Any]:
    """Register one catalog and report, per listing, what the release kept."""
    models = _module("mcpgateway.db")
    create = _module("mcpgateway.schemas").GatewayCreate
    service = _module("mcpgateway.services.gateway_service").GatewayService
    _reset(models)
    recorder.seen.clear()
    recorder.capabilities = {}
    recorder.raised = None
    recorder.failed = {}
    url = target["url"] if server is None else _ready(server)
    db = models.SessionLocal()
    listings = [n for n in target["listings"] if n in read]
    unread = [{"listing": n, "unread": True} for n in target["listings"] if n not in read]
    try:
        how = {"transport": job["transport"]} if job["transport"] else {}
        gateway = create(name=job["gateway"], url=url, **how)
        await asyncio.wait_for(service().register_gateway(db, gateway), job["timeout"])
    except BaseException as exc:  # the verdict we are here to observe
        if isinstance(exc, KeyboardInterrupt):
            raise
        why = message(exc, recorder.raised)
        return [{"listing": name, "error": why} for name in listings] + unread
    else:
        stored = _stored(db)
        return [_listing(n, recorder, stored) for n in listings] + unread
    finally:
        db.close()
        if server is not None:
            server.kill()  # reaped at the end: waiting here costs more than the registration


def main() -> int:
    """Read the job, register every target in turn (one interpreter for the whole batch)."""
    job = json.load(sys.stdin)
    job.setdefault("timeout", 60)
    job.setdefault("gateway", "g")
    out = sys.stdout
    # ContextForge logs (and 0.6.0 prints) on stdout: keep it for the JSON answer only.
    sys.stdout = sys.stderr
    if os.environ.get("CATALOGAUDIT_CF_LOG") != "1":
        logging.disable(logging.CRITICAL)
    try:
        _module("mcpgateway")
    except ImportError:
        print(json.dumps({"missing": "mcpgateway"}), file=out)
        return 3
    recorder = Recorder()
    recorder.install()
    share_tls_contexts()
    read = reads()
    job["transport"] = transport()
    sse = job["transport"] is None
    start = time.monotonic()

    async def run() -> list[list[Any]]:
        targets = job["targets"]
        out: list[list[Any]] = []
        ahead = [_launch(t, sse) for t in targets[:AHEAD]]
        for n, target in enumerate(targets):
            if n + AHEAD < len(targets):
                ahead.append(_launch(targets[n + AHEAD], sse))
            out.append(await one(target, job, recorder, read, ahead.pop(0)))
        return out

    try:
        results = asyncio.run(run())
    finally:
        for server in STOPPED:
            server.kill()
            server.wait()
    print(f"context-forge: {len(results)} catalogs in {time.monotonic() - start:.1f}s", flush=True)
    print(json.dumps(results), file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
