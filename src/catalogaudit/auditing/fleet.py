"""The fleet rules: what one client makes of every server of a configuration together.

A client sends the model one list of tools, every configured server's, under the names it
qualifies them with. So its tool-count limits hold for the fleet's total (judged by the
client's own count rule: `item-count` and `catalog-budget` clauses of its profile), names that
differ per server can collide once qualified and sanitized (CA931), and every tool costs
prompt tokens on every request (CA932). A server that could not be captured is CA930.

Each client's qualification is its profile's: the `format` and `transform` of its
`qualified-name-length` clause (`mcp__{prefix}__{tool}` and `codex` for Codex, ...). The Docker
MCP gateway does not qualify (its `tool_names.go` refuses duplicates across all servers).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from catalogaudit.auditing.contract import ruled
from catalogaudit.canonical import count_tokens
from catalogaudit.model import Catalog, Finding, Location, RuleMeta, Severity
from catalogaudit.rules import FLEET_RULES, TRANSFORMS

#: Profiles whose clients do not qualify tool names with the server's (tools keep their own
#: names across every server), and the rule that says so.
UNQUALIFIED = {"docker-mcp-gateway": "DMG-COLL-001"}


@dataclass(frozen=True)
class Member:
    """One server of a fleet: its configured name and the tools it lists (what the fleet
    rules read of its catalog), or why it has none."""

    name: str
    tools: tuple[dict[str, Any], ...] | None
    error: str | None = None
    #: Where its row is in the manifest (`/rows/3`).
    pointer: str = ""


def tools_of(catalog: Catalog) -> tuple[dict[str, Any], ...]:
    """What the fleet rules read of a catalog: its tools' name, description and input
    schema (small, so a worker process can hand them back)."""
    return tuple(
        {k: item.value[k] for k in ("name", "description", "inputSchema") if k in item.value}
        for item in catalog.items("tools")
        if isinstance(item.value, dict) and isinstance(item.value.get("name"), str)
    )


@dataclass(frozen=True)
class Limit:
    """A tool-count limit of one client, from one clause of its profile."""

    rule_id: str
    severity: Severity
    max: int
    #: What a `catalog-budget` clause keeps for the client's own tools (0 for `item-count`).
    reserved: int


@dataclass(frozen=True)
class Client:
    """What the fleet rules need of one client's profile at its resolved version."""

    label: str
    #: (`format` with `{prefix}` and `{tool}`, transform name), or None when unknown.
    naming: tuple[str, str] | None
    limits: tuple[Limit, ...]
    metas: Mapping[str, RuleMeta]


def client(spec: str, settings: Mapping[str, str]) -> Client | None:
    """The fleet facts of profile `spec` (`codex`, `windsurf@...`), None when it has none."""
    from catalogaudit.profiles import applicable, bound_params, resolve_profile, rule_meta

    resolved = resolve_profile(spec, settings)
    naming: tuple[str, str] | None = None
    limits: list[Limit] = []
    for rule, clause, severity in applicable(resolved):
        params = bound_params(clause, resolved)
        if clause.type == "qualified-name-length" and naming is None:
            if params.get("prefix", "server") == "server" and "unknown_upto" not in params:
                naming = (str(params["format"]), str(params.get("transform", "none")))
        elif clause.type == "item-count" and params.get("listing") == "tools" and "max" in params:
            limits.append(Limit(rule.id, severity, int(params["max"]), 0))
        elif clause.type == "catalog-budget" and list(params.get("listings") or ["tools"]) == [
            "tools"
        ]:
            reserved = int(params.get("reserved", 0))
            limits.append(Limit(rule.id, severity, int(params["max"]), reserved))
    if resolved.id in UNQUALIFIED and naming is None:
        naming = ("{tool}", "none")
    if naming is None and not limits:
        return None
    ids = {lim.rule_id for lim in limits}
    metas = {m.id: m for m in rule_meta(resolved.id) if m.id in ids}
    return Client(resolved.label, naming, tuple(limits), metas)


def qualified(naming: tuple[str, str], server: str, tool: str) -> str:
    """The name the client gives `tool` of `server`."""
    fmt, transform = naming
    fn = TRANSFORMS[transform]
    return fmt.replace("{prefix}", fn(server)).replace("{tool}", fn(tool))


def findings(
    members: Sequence[Member], clients: Sequence[Client], manifest: str
) -> tuple[list[Finding], dict[str, RuleMeta]]:
    """The fleet's findings and the metadata of the rules behind them."""
    metas: dict[str, RuleMeta] = dict(FLEET_RULES)
    out = [
        ruled(
            FLEET_RULES["CA930"],
            Location(manifest, m.pointer),
            message=f"server {m.name!r}: {m.error}",
            kind="fleet",
            identity=m.name,
            profile="spec",
        )
        for m in members
        if m.tools is None
    ]
    tools = [(m.name, tool) for m in members for tool in m.tools or ()]
    servers = sum(1 for m in members if m.tools is not None)
    for c in clients:
        metas.update(c.metas)
        n = len(tools)
        out.extend(
            _over(c, lim, n, servers, manifest) for lim in c.limits if n > lim.max - lim.reserved
        )
        if c.naming is not None:
            out.extend(_collisions(c, c.naming, tools, manifest))
        out.append(_tokens(c, tools, manifest))
    return out, metas


def _finding(rule: RuleMeta, c: Client, message: str, manifest: str, **fields: Any) -> Finding:
    """A finding about the fleet as client `c` sees it."""
    where = Location(manifest, "")
    return ruled(
        rule, where, message=message, kind="fleet", identity=c.label, profile=c.label, **fields
    )


def _over(c: Client, lim: Limit, n: int, servers: int, manifest: str) -> Finding:
    """The finding of `n` tools over the client's limit."""
    share = f" ({lim.max} minus {lim.reserved} the client holds itself)" if lim.reserved else ""
    return _finding(
        c.metas.get(lim.rule_id) or FLEET_RULES[lim.rule_id],
        c,
        f"{c.label}: the fleet's {servers} server(s) serve {n} tools, over the client's "
        f"limit of {lim.max - lim.reserved}{share}",
        manifest,
        severity=lim.severity,
        excerpt=str(n),
    )


def _collisions(
    c: Client, naming: tuple[str, str], tools: Sequence[tuple[str, dict[str, Any]]], manifest: str
) -> list[Finding]:
    seen: dict[str, list[tuple[str, str]]] = {}
    for server, tool in tools:
        seen.setdefault(qualified(naming, server, tool["name"]), []).append((server, tool["name"]))
    out = []
    for name, owners in sorted(seen.items()):
        if len({s for s, _ in owners}) < 2:
            continue  # duplicates within one server are that server's own findings
        who = ", ".join(f"{t!r} of {s!r}" for s, t in owners)
        out.append(
            _finding(
                FLEET_RULES["CA931"],
                c,
                f"{c.label}: {len(owners)} tools are named {name!r} once qualified: {who}",
                manifest,
                excerpt=name,
            )
        )
    return out


def _tokens(c: Client, tools: Sequence[tuple[str, dict[str, Any]]], manifest: str) -> Finding:
    per: dict[str, int] = {}
    for server, tool in tools:
        name = qualified(c.naming, server, tool["name"]) if c.naming else tool["name"]
        sent = {
            "name": name,
            "description": tool.get("description", ""),
            "input_schema": tool.get("inputSchema", {}),
        }
        size = count_tokens(json.dumps(sent, ensure_ascii=False, separators=(",", ":")))
        per[server] = per.get(server, 0) + size
    total = sum(per.values())
    top = sorted(per.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
    most = ", ".join(f"{s} {n}" for s, n in top)
    message = f"{c.label}: {len(tools)} tools, {total} o200k tokens on every request"
    return _finding(
        FLEET_RULES["CA932"], c, message + (f" (most: {most})" if most else ""), manifest
    )
