"""The servers of a client configuration, each under the name the configuration gives it.

Formats, as each client documents them:

- `mcpServers` (Claude Desktop `claude_desktop_config.json`, Claude Code `.mcp.json` and
  `~/.claude.json`, Cursor `.cursor/mcp.json`, Gemini CLI `settings.json`): `command`, `args`,
  `env`, `cwd`, or `url` with `headers` (`type` `http`/`sse` for Claude Code; Gemini CLI's
  `httpUrl` is Streamable HTTP, its `url` SSE; its `timeout` is milliseconds per request).
  `~/.claude.json` holds the user scope at its top and the local scope under
  `projects.<directory>`, which wins for the current directory (Claude Code's precedence:
  local, project, user).
- `servers` (VS Code `.vscode/mcp.json`): `type` `stdio`/`http`/`sse`, `command`, `args`,
  `env`, `cwd`, `url`, `headers`; comments allowed.
- `mcp` (opencode `opencode.json`): `type` `local` (`command` as a list, `environment`) or
  `remote` (`url`, `headers`), `enabled`, `timeout` (ms); its v2 nests them in `mcp.servers`
  with `disabled`.
- `[mcp_servers.NAME]` (Codex `config.toml`): `command`, `args`, `env`, `env_vars`, `cwd`,
  `url`, `bearer_token_env_var`, `http_headers`, `env_http_headers`, `enabled`,
  `startup_timeout_sec`, `tool_timeout_sec`.
- a registry `server.json` (`intake.registry`).

Variables are expanded as the client expands them (`${env:X}` in VS Code and Cursor, `${X}`
and `${X:-default}` in Claude Code, `$X` and `${X}` in Gemini CLI, `{env:X}` in opencode; none
in Claude Desktop). A variable that is not set fails that server's row, not the fleet.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from catalogaudit.errors import InputError
from catalogaudit.model import Fleet, Server

_ENV = re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}")
_BRACED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_BARE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_OPENCODE = re.compile(r"\{env:([A-Za-z_][A-Za-z0-9_]*)\}")
_INPUT = re.compile(r"\$\{input:([^}]*)\}")


class Unresolved(Exception):
    """A value names what we cannot supply (an unset variable, a VS Code input prompt)."""


def _env(name: str, default: str | None = None) -> str:
    """An environment variable's value, else `default`; unset without one: `Unresolved`."""
    if name in os.environ:
        return os.environ[name]
    if default is not None:
        return default
    raise Unresolved(f"environment variable {name} is not set")


def _expander(client: str, root: Path) -> Callable[[str], str]:
    """How `client` expands variables in its configuration's strings."""

    def expand(text: str) -> str:
        if client == "claude-desktop" or not isinstance(text, str):
            return text
        if client in ("vscode", "cursor"):
            m = _INPUT.search(text)
            if m:
                raise Unresolved(f"${{input:{m[1]}}} is asked of the user by VS Code")
            text = _ENV.sub(lambda m: _env(m[1]), text).replace("${workspaceFolder}", str(root))
            return text.replace("${userHome}", str(Path.home()))
        if client == "opencode":
            return _OPENCODE.sub(lambda m: _env(m[1]), text)
        text = _BRACED.sub(lambda m: _env(m[1], m[2]), text)
        if client == "gemini-cli":
            text = _BARE.sub(lambda m: _env(m[1]), text)
        return text

    return expand


#: JSON with comments and trailing commas (VS Code's and opencode's JSONC) as JSON: a string
#: (kept as it is, to the end of the text when unterminated), a comment, or a comma before a
#: closing bracket (both dropped).
_JSONC = re.compile(
    r'("(?:\\.|[^"\\])*(?:"|\\?\Z))|//[^\n]*|/\*.*?(?:\*/|\Z)'
    r"|,(?=(?:\s|//[^\n]*\n|/\*(?:[^*]|\*(?!/))*\*/)*[}\]])",
    re.DOTALL,
)


def _client_of(path: Path, doc: Mapping[str, Any]) -> str:
    name, parent = path.name, path.parent.name
    if "mcpServers" in doc:
        if name == "claude_desktop_config.json":
            return "claude-desktop"
        if name in (".mcp.json", ".claude.json"):
            return "claude-code"
        if parent == ".cursor":
            return "cursor"
        if parent == ".gemini" or name == "settings.json":
            return "gemini-cli"
        return "mcp-servers"
    if isinstance(doc.get("servers"), dict):
        return "vscode"
    if isinstance(doc.get("mcp"), dict):
        return "opencode"
    raise InputError(
        f"{path}: no servers found (expected mcpServers, servers, mcp, mcp_servers, or a "
        "registry server.json)"
    )


def read_fleet(spec: str) -> Fleet:
    """The servers of the configuration at `spec`, in its order; bad input is an InputError."""
    from catalogaudit.intake.loader import read_bytes

    path = Path(spec)
    raw = read_bytes(spec)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{spec}: not UTF-8") from None
    if path.suffix == ".toml":
        client, doc = "codex", _toml(text, spec)
    else:
        try:
            doc = json.loads(_JSONC.sub(lambda m: m[1] or "", text))
        except json.JSONDecodeError as exc:
            raise InputError(f"{spec}: not JSON: {exc.msg} (line {exc.lineno})") from None
        from catalogaudit.intake import registry

        if registry.is_registry(doc):
            return registry.fleet(spec, doc)
        if not isinstance(doc, dict):
            raise InputError(f"{spec}: expected a JSON object")
        client = _client_of(path, doc)
    root = path.resolve().parent
    if root.name in (".vscode", ".cursor", ".gemini"):
        root = root.parent
    expand = _expander(client, root)
    notes: list[str] = []
    if client == "codex":
        servers = _codex(spec, doc, notes)
    elif client == "opencode":
        servers = _opencode(doc["mcp"], expand, notes)
    else:
        key = "servers" if client == "vscode" else "mcpServers"
        entries = _table(doc[key], f"/{key}", spec)
        if path.name == ".claude.json":
            projects = doc.get("projects", {})
            project = projects.get(os.getcwd(), {}) if isinstance(projects, dict) else None
            if not isinstance(project, dict):
                raise InputError(f"{spec}: /projects must map each directory to an object")
            local = project.get("mcpServers")
            if isinstance(local, dict):
                notes.append(f"{spec}: the local scope of {os.getcwd()} overrides the user scope")
                entries.update(_table(local, f"/projects/{os.getcwd()}/mcpServers", spec))
        if client == "gemini-cli":
            entries = _gemini_lists(doc.get("mcp"), entries, notes)
        servers = _json_servers(entries, client, expand, notes)
    if not servers:
        raise InputError(f"{spec}: the configuration names no enabled server")
    return Fleet(spec, client, tuple(servers), tuple(notes))


def _gemini_lists(
    mcp: Any, entries: dict[str, tuple[Any, str]], notes: list[str]
) -> dict[str, tuple[Any, str]]:
    """Gemini CLI's `mcp.allowed` (only these connect) and `mcp.excluded` (these do not)."""
    allowed, excluded = (
        (mcp.get("allowed"), mcp.get("excluded")) if isinstance(mcp, dict) else ((), ())
    )
    out = {}
    for name, entry in entries.items():
        if (isinstance(allowed, list) and name not in allowed) or (
            isinstance(excluded, list) and name in excluded
        ):
            notes.append(f"{name}: not allowed by mcp.allowed / mcp.excluded; skipped")
        else:
            out[name] = entry
    return out


def _table(table: Any, where: str, spec: str) -> dict[str, tuple[Any, str]]:
    if not isinstance(table, dict):
        raise InputError(f"{spec}: {where} must be an object of servers by name")
    return {str(k): (v, f"{where}/{k}") for k, v in table.items()}


def _strings(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Unresolved(f"{what} must be a list of strings")
    return list(value)


def _pairs(value: Any, what: str, expand: Callable[[str], str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Unresolved(f"{what} must be an object")
    return {str(k): expand(str(v)) for k, v in value.items()}


def _each(
    entries: Mapping[str, tuple[Any, str]],
    notes: list[str],
    build: Callable[[str, dict[str, Any], str], Server],
    codex: bool = False,
) -> list[Server]:
    """One server per entry by `build(name, entry, where)`: an entry that is not an object, or
    names what we cannot supply (`Unresolved`), is that server's problem; a disabled one is
    skipped with a note (Codex knows only `enabled = false`)."""
    out: list[Server] = []
    for name, (entry, where) in entries.items():
        if not isinstance(entry, dict):
            out.append(Server(name, problem=f"{where} is not {('an object', 'a table')[codex]}"))
        elif entry.get("enabled") is False or (not codex and entry.get("disabled") is True):
            said = "enabled = false" if codex else "disabled in the configuration"
            notes.append(f"{name}: {said}; skipped")
            continue
        else:
            try:
                out.append(build(name, entry, where))
            except Unresolved as exc:
                out.append(Server(name, problem=str(exc)))
        out[-1] = replace(out[-1], where=where)
    return out


def _timeout_ms(entry: dict[str, Any]) -> float | None:
    """A `timeout` in milliseconds (Gemini CLI, opencode) as seconds; None when unset or 0."""
    timeout = entry.get("timeout")
    return float(timeout) / 1000 if isinstance(timeout, (int, float)) and timeout else None


def _json_servers(
    entries: Mapping[str, tuple[Any, str]],
    client: str,
    expand: Callable[[str], str],
    notes: list[str],
) -> list[Server]:
    """`mcpServers`/`servers` entries (Claude Desktop, Claude Code, Cursor, Gemini, VS Code)."""

    def build(name: str, entry: dict[str, Any], where: str) -> Server:
        kind = str(entry.get("type", "")).lower()
        url = entry.get("httpUrl") or entry.get("url") or entry.get("serverUrl")
        request = _timeout_ms(entry)
        if url:
            if client == "gemini-cli":
                transport = "streamable-http" if entry.get("httpUrl") else "sse"
            else:
                transport = "sse" if kind == "sse" else "auto"
            headers = _pairs(entry.get("headers"), f"{where}/headers", expand)
            return Server(
                name,
                url=expand(str(url)),
                transport=transport,
                headers=headers,
                request_timeout=request,
            )
        command = entry.get("command")
        if not isinstance(command, str) or not command:
            raise Unresolved("neither a command nor a url")
        args = [expand(a) for a in _strings(entry.get("args"), f"{where}/args")]
        if "envFile" in entry:
            notes.append(f"{name}: envFile is not read; only env is passed")
        return Server(
            name,
            command=(expand(command), *args),
            cwd=expand(str(entry["cwd"])) if entry.get("cwd") else None,
            env=_pairs(entry.get("env"), f"{where}/env", expand),
            request_timeout=request,
        )

    return _each(entries, notes, build)


def _opencode(mcp: dict[str, Any], expand: Callable[[str], str], notes: list[str]) -> list[Server]:
    v2 = isinstance(mcp.get("servers"), dict) and "type" not in mcp["servers"]
    table = mcp["servers"] if v2 else mcp
    base = "/mcp/servers" if v2 else "/mcp"

    def build(name: str, entry: dict[str, Any], where: str) -> Server:
        if entry.get("type") == "remote":
            headers = _pairs(entry.get("headers"), f"{where}/headers", expand)
            url = expand(str(entry.get("url", "")))
            if not url:
                return Server(name, problem="a remote server without a url")
            return Server(name, url=url, transport="auto", headers=headers)
        argv = [expand(a) for a in _strings(entry.get("command"), f"{where}/command")]
        if not argv:
            raise Unresolved("a local server without a command")
        env = _pairs(entry.get("environment"), f"{where}/environment", expand)
        return Server(name, command=tuple(argv), env=env, request_timeout=_timeout_ms(entry))

    return _each({n: (e, f"{base}/{n}") for n, e in table.items()}, notes, build)


def _toml(text: str, spec: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{spec}: not TOML: {exc}") from None
    return data


def _codex(spec: str, doc: dict[str, Any], notes: list[str]) -> list[Server]:
    table = doc.get("mcp_servers")
    if not isinstance(table, dict) or not table:
        raise InputError(f"{spec}: no [mcp_servers.NAME] table")

    def build(name: str, entry: dict[str, Any], where: str) -> Server:
        startup = entry.get("startup_timeout_sec")
        if startup is None and isinstance(entry.get("startup_timeout_ms"), (int, float)):
            startup = entry["startup_timeout_ms"] / 1000
        request = entry.get("tool_timeout_sec")
        timing = Server(
            name,
            startup_timeout=float(startup) if isinstance(startup, (int, float)) else None,
            request_timeout=float(request) if isinstance(request, (int, float)) else None,
        )
        if entry.get("url"):
            headers = _pairs(entry.get("http_headers"), f"{where}/http_headers", str)
            headers.update(_pairs(entry.get("env_http_headers"), f"{where}/env_http_headers", _env))
            token = entry.get("bearer_token_env_var")
            if token:
                headers["Authorization"] = f"Bearer {_env(token)}"
            url = str(entry["url"])
            return replace(timing, url=url, transport="streamable-http", headers=headers)
        command = entry.get("command")
        if not isinstance(command, str) or not command:
            raise Unresolved("neither a command nor a url")
        env = _pairs(entry.get("env"), f"{where}/env", str)
        for var in _strings(entry.get("env_vars"), f"{where}/env_vars"):
            if var in os.environ:
                env.setdefault(var, os.environ[var])
        args = _strings(entry.get("args"), f"{where}/args")
        cwd = str(entry["cwd"]) if entry.get("cwd") else None
        return replace(timing, command=(command, *args), cwd=cwd, env=env)

    entries = {n: (e, f"/mcp_servers/{n}") for n, e in table.items()}
    return _each(entries, notes, build, codex=True)


__all__ = ["read_fleet"]
