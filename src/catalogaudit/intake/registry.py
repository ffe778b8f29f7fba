"""MCP registry `server.json` entries as fleet servers: each package becomes the command its
runtime starts it with, each remote a URL.

The registry documents a package by `registryType`, `identifier`, `version`, `runtimeHint`,
`runtimeArguments`, `packageArguments`, `environmentVariables` and `transport`, and a remote by
`type` (`streamable-http` or `sse`), `url` and `headers`
(https://modelcontextprotocol.io/registry/package-types,
https://modelcontextprotocol.io/registry/remote-servers). A `server.json` carries no command
line: the client builds one, here as the runtimes the registry names do (`npx -y ID@VERSION`,
`uvx ID==VERSION`, `docker run -i --rm IMAGE`, `dnx ID@VERSION --yes`). Values a variable must
supply come from our environment; a required one that is not set fails that server's row.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any

from catalogaudit.errors import InputError
from catalogaudit.model import Fleet, Server

#: registryType -> the runtime that starts a package of it, and how the package is named.
_RUNTIMES = {
    "npm": ("npx", lambda i, v: ["-y", f"{i}@{v}" if v else i]),
    "pypi": ("uvx", lambda i, v: [f"{i}=={v}" if v else i]),
    "oci": ("docker", lambda i, v: [f"{i}:{v}" if v and ":" not in i.rsplit("/", 1)[-1] else i]),
    "nuget": ("dnx", lambda i, v: [f"{i}@{v}" if v else i, "--yes"]),
}


def is_registry(doc: Any) -> bool:
    """A `server.json`, a list of them, or a registry API answer (`servers: [{server: ...}]`)."""
    if isinstance(doc, list):
        return bool(doc) and all(is_registry(d) for d in doc)
    if not isinstance(doc, dict):
        return False
    if isinstance(doc.get("servers"), list):
        return True
    schema = doc.get("$schema")
    if isinstance(schema, str) and "server.schema.json" in schema:
        return True
    return isinstance(doc.get("name"), str) and ("packages" in doc or "remotes" in doc)


def entries(doc: Any) -> list[tuple[dict[str, Any], str]]:
    """Each server.json in `doc` with its JSON Pointer."""
    if isinstance(doc, list):
        return [(d, f"/{i}") for i, d in enumerate(doc) if isinstance(d, dict)]
    if isinstance(doc.get("servers"), list):
        out = []
        for i, d in enumerate(doc["servers"]):
            inner = d.get("server") if isinstance(d, dict) else None
            if isinstance(inner, dict):
                out.append((inner, f"/servers/{i}/server"))
            elif isinstance(d, dict):
                out.append((d, f"/servers/{i}"))
        return out
    return [(doc, "")]


def fleet(spec: str, doc: Any) -> Fleet:
    """Every package and remote of the server.json entries in `doc`, one server each."""
    servers: list[Server] = []
    for entry, where in entries(doc):
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise InputError(f"{spec}: {where or '/'}: a server.json without a name")
        options: list[tuple[str, Server]] = []
        for key, build in (("packages", _package), ("remotes", _remote)):
            try:
                listed = _array(entry, key)
            except _Problem as exc:
                options.append((key, Server(name, problem=str(exc), where=where)))
                continue
            for i, item in enumerate(listed):
                options.append((_label(key, item), build(name, item, f"{where}/{key}/{i}")))
        if len(options) < 2:
            none = Server(name, problem="neither packages nor remotes", where=where)
            servers.append(options[0][1] if options else none)
            continue
        seen: dict[str, int] = {}
        for label, server in options:
            seen[label] = seen.get(label, 0) + 1
            suffix = label if seen[label] == 1 else f"{label}-{seen[label]}"
            servers.append(replace(server, name=f"{name}-{suffix}"))
    if not servers:
        raise InputError(f"{spec}: no server.json entries")
    return Fleet(spec, "registry", tuple(servers))


def _label(key: str, item: Any) -> str:
    """What a server of one entry is told apart by: `remote`, or a package's registryType."""
    kind = item.get("registryType") if key == "packages" and isinstance(item, dict) else None
    return kind if isinstance(kind, str) else "remote" if key == "remotes" else "package"


def _value(item: dict[str, Any], what: str) -> str | None:
    """An input's value: set by the publisher (`value`, `{var}` from `variables`), else our
    environment (for an environment variable), else `default`; None when optional and unset."""
    value = item.get("value")
    if isinstance(value, str):
        for var, spec in _object(item, "variables", what).items():
            if not isinstance(spec, dict | None):
                raise _Problem(f"{what} variable {var} is not an object")
            got = _value({**spec, "name": None}, f"{what} variable {var}") if spec else None
            if got is not None:
                value = value.replace("{" + var + "}", got)
        return value
    name = item.get("name")
    if what == "env" and isinstance(name, str) and name in os.environ:
        return os.environ[name]
    if isinstance(item.get("default"), str):
        return str(item["default"])
    if item.get("isRequired"):
        hint = f"set {name}" if what == "env" else "give it a value"
        raise _Problem(f"{what} {name or item.get('valueHint') or '?'} is required ({hint})")
    return None


class _Problem(Exception):
    """What makes one server unusable (a required value unset, a member of the wrong type):
    its row says so, and the fleet's other servers are captured."""


def _array(owner: dict[str, Any], key: str) -> list[Any]:
    """`owner[key]` as a list (absent or null: none)."""
    value = owner.get(key) or []
    if not isinstance(value, list):
        raise _Problem(f"{key} is not an array")
    return value


def _object(owner: dict[str, Any], key: str, what: str = "") -> dict[str, Any]:
    """`owner[key]` as a dict (absent or null: empty); `what`: whose member it is."""
    value = owner.get(key) or {}
    if not isinstance(value, dict):
        raise _Problem(f"{what} {key} is not an object".lstrip())
    return value


def _named(inputs: list[Any], what: str) -> dict[str, str]:
    """The values of named inputs (environment variables, headers) that have one, by name."""
    out: dict[str, str] = {}
    for item in inputs:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            got = _value(item, what)
            if got is not None:
                out[item["name"]] = got
    return out


def _arguments(args: list[Any]) -> list[str]:
    out: list[str] = []
    for arg in args:
        if not isinstance(arg, dict):
            continue
        value = _value(arg, "argument")
        if arg.get("type") == "named":
            flag = str(arg.get("name", ""))
            out.extend([flag] if value is None else [flag, value])
        elif value is not None:
            out.append(value)
    return out


def _package(name: str, pkg: Any, where: str) -> Server:
    if not isinstance(pkg, dict):
        return Server(name, problem=f"{where} is not an object", where=where)
    kind = pkg.get("registryType")
    try:
        transport = _object(pkg, "transport").get("type", "stdio")
    except _Problem as exc:
        return Server(name, problem=str(exc), where=where)
    if transport != "stdio":
        return Server(
            name,
            problem=f"a {transport} package serves on a URL once started; start it and "
            "configure its URL",
            where=where,
        )
    if not isinstance(kind, str) or kind not in _RUNTIMES:
        return Server(name, problem=f"registryType {kind!r} has no runtime here", where=where)
    runtime, reference = _RUNTIMES[kind]
    identifier, version = str(pkg.get("identifier", "")), pkg.get("version")
    if not identifier:
        return Server(name, problem="a package without an identifier", where=where)
    try:
        env = _named(_array(pkg, "environmentVariables"), "env")
        command = str(pkg.get("runtimeHint") or runtime)
        runtime_args = _arguments(_array(pkg, "runtimeArguments"))
        package_args = _arguments(_array(pkg, "packageArguments"))
        pinned = version if isinstance(version, str) else None
        if kind == "oci":
            # NOTE: a container sees only the variables passed into it by name.
            passed = [a for n in env for a in ("-e", n)]
            image = reference(identifier, pinned)[-1]
            argv = (command, "run", "-i", "--rm", *runtime_args, *passed, image, *package_args)
        else:
            argv = (command, *runtime_args, *reference(identifier, pinned), *package_args)
    except _Problem as exc:
        return Server(name, problem=str(exc), where=where)
    return Server(name, command=argv, env=env, where=where)


def _remote(name: str, remote: Any, where: str) -> Server:
    if not isinstance(remote, dict) or not isinstance(remote.get("url"), str):
        return Server(name, problem=f"{where} has no url", where=where)
    kind = remote.get("type")
    transport = "sse" if kind == "sse" else "streamable-http"
    try:
        url = remote["url"]
        for var, spec in _object(remote, "variables").items():
            got = _value(spec, f"url variable {var}") if isinstance(spec, dict) else None
            if got is not None:
                url = url.replace("{" + var + "}", got)
        left = re.search(r"\{([^}]+)\}", url)
        if left:
            raise _Problem(f"url variable {left[1]} has no value")
        headers = _named(_array(remote, "headers"), "header")
    except _Problem as exc:
        return Server(name, problem=str(exc), where=where)
    return Server(name, url=url, transport=transport, headers=headers, where=where)


__all__ = ["entries", "fleet", "is_registry"]
