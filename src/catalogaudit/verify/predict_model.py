"""A profile's prediction of what `verify --model` observes: per tool and mode, how it is
offered, the object the client sends the model for it, and what a call of it comes to.

The data is the profile's `model_view` entries (first whose `versions` match): the name the
model sees (`name` format and `transform`), which fields are forwarded (`fields`: sent key ->
served key, `""` when the served tool has none), whether a description is cut (`description`
`max` and `suffix`, only for the offers listed in its `offered` when it has one), the longest
name the client sends (`name_max`, the qualified name: a longer one is left out), whether a
which of several tools with one sent name reaches the model (`duplicates`: `first`, `last`, or
`first-of-name` when only equal served names meet; verify observes every tool of a sent name
as the one object sent under it, so each is predicted as that one),
how each mode offers MCP tools (`deferral`), and what a deferred tool's
object carries once loaded (`deferred_fields`), and what the client does to the input schema
first (`schema_normalize`, `schema_skip`: `verify.flatten`; `schema_first`: the root keys
an unrewritten schema starts with). A tool the listing-time
prediction drops is not offered. A call is predicted `reached` unless a finding on the tool
comes from a rule whose `call` entries say `refused` at this version (the draft-07
`outputSchema` reports, CC-SCHEMA-002).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from catalogaudit.auditing import AuditOptions, audit
from catalogaudit.model import DEFERRED, INLINE, KEPT, NOT_CALLED, NOT_OFFERED, REACHED, REFUSED
from catalogaudit.profiles import contains, raw_files
from catalogaudit.rules import TRANSFORMS
from catalogaudit.serve import instance
from catalogaudit.verify.base import Target
from catalogaudit.verify.flatten import as_sent
from catalogaudit.verify.model_schema import rewrite
from catalogaudit.verify.predict import _versions, predict

_ITEM = re.compile(r"^/listings/tools/items/(\d+)(?:/|$)")


@dataclass(frozen=True)
class Predicted:
    """The prediction for one tool in one mode."""

    offered: str | None
    call: str | None
    view: Any = None
    because: str = ""


@cache
def _entries() -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """Profile id -> model_view entries; rule id -> call entries."""
    views: dict[str, list[dict[str, Any]]] = {}
    calls: dict[str, list[dict[str, Any]]] = {}
    for doc in raw_files().values():
        if "model_view" in doc:
            views[doc["id"]] = doc["model_view"]
        for rule in doc["rules"]:
            if "call" in rule:
                calls[rule["id"]] = rule["call"]
    return views, calls


def _first(entries: list[dict[str, Any]], version: Version | None) -> dict[str, Any] | None:
    return next(
        (e for e in entries if contains(SpecifierSet(e.get("versions", "")), version)), None
    )


def qualified(entry: dict[str, Any], server: str, tool: str) -> str:
    """The name the model sees for `tool` of `server`: the `name` format with both parts
    renamed by `transform`, then cut in the middle (`name_cut`) when too long."""
    fix = TRANSFORMS[entry.get("transform", "none")]
    name = str(entry.get("name", "{tool}")).replace("{server}", fix(server))
    name = name.replace("{tool}", fix(tool))
    cut = entry.get("name_cut")
    if isinstance(cut, dict) and len(name) > int(cut["max"]):
        head, tail = int(cut["head"]), int(cut["tail"])
        name = name[:head] + str(cut["join"]) + name[len(name) - tail :]
    return name


def hashed_names(transform: str, server: str, names: Iterable[str], most: int) -> dict[str, str]:
    """Served name -> the tool part of the name Codex sends for it, where that is not the
    name renamed by `transform`: names that differ but meet once renamed each get `_` and the
    first 12 hex digits of the SHA-1 of the tool's raw identity (server, namespace, connector,
    callable name and name, NUL-separated; here the namespace is the server's name and there
    is no connector), and a tool part longer than `most` bytes less `mcp__<server>__` is cut
    to fit with that suffix (codex-rs mcp_tool_names.rs; measured with `verify --model`,
    2026-12-07: `a.b` beside `a_b`, and the lattice's long names)."""
    fix = TRANSFORMS[transform]
    met: dict[str, set[str]] = {}
    for name in names:
        met.setdefault(fix(name), set()).add(name)
    room = most - len(f"mcp__{fix(server)}__")
    out: dict[str, str] = {}
    for renamed, group in met.items():
        for name in group:
            raw = f"{server}\0{server}\0\0{name}\0{name}".encode("utf-8", "surrogatepass")
            suffix = "_" + hashlib.sha1(raw).hexdigest()[:12]
            part = renamed + suffix if len(group) > 1 else renamed
            if len(part) > room:
                part = part[: max(room - len(suffix), 0)] + suffix
            if part != renamed:
                out[name] = part
    return out


def hashed(entry: dict[str, Any] | None, server: str, tools: Iterable[Any]) -> dict[str, str]:
    """`hashed_names` of the tools' names when the entry says the client renames so
    (`name_hash`: the longest sent name)."""
    if entry is None or "name_hash" not in entry:
        return {}
    names = (str(t.get("name")) for t in tools if isinstance(t, dict))
    return hashed_names(entry.get("transform", "none"), server, names, int(entry["name_hash"]))


def view_of(
    entry: dict[str, Any],
    server: str,
    tool: dict[str, Any],
    offered: str | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """The object the client is predicted to send the model for `tool` (offered `offered`;
    `name`: the tool's name as the client renamed it first, `hashed_names`)."""
    out: dict[str, Any] = {}
    for sent, served in entry.get("fields", {}).items():
        if sent == "name":
            out[sent] = qualified(entry, server, name or str(tool.get("name")))
        elif sent in entry.get("constants", {}):
            out[sent] = entry["constants"][sent]
        elif served in tool and not (
            served in entry.get("strings", ()) and not _text(tool, served)
        ):
            out[sent] = tool[served]
        elif served == "description" or sent == "description":
            out[sent] = ""
    cut = entry.get("description")
    text = out.get("description")
    if (
        isinstance(cut, dict)
        and isinstance(text, str)
        and len(text) > int(cut["max"])
        and offered in cut.get("offered", [offered])
    ):
        out["description"] = text[: int(cut["max"])] + str(cut.get("suffix", ""))
    return out


def sent_view(
    entry: dict[str, Any], server: str, tool: dict[str, Any], offered: str, name: str | None = None
) -> tuple[dict[str, Any] | None, str, Any]:
    """The object the client sends for `tool` offered `offered` (its schema rewritten first,
    `verify.flatten`), or None and why the client leaves the tool out of the request."""
    most = entry.get("name_max")
    name = name or str(tool.get("name"))
    if most is not None and len(qualified(entry, server, name)) > int(most):
        return None, f"its qualified name is over {most} characters", None
    got = as_sent(tool, entry)
    if got.skipped:
        return None, got.skipped, None
    schema = got.schema
    if schema is tool.get("inputSchema") and isinstance(schema, dict):  # sent unrewritten
        first = [k for k in entry.get("schema_first", []) if k in schema]
        schema = {**{k: schema[k] for k in first}, **schema}
    spec = entry.get("schema_rewrite")
    if isinstance(spec, dict):
        schema, left = rewrite(schema, spec)
        if schema is None:
            return None, left, None
    shown = {**tool, "inputSchema": schema} if "inputSchema" in tool or spec else dict(tool)
    if got.description is not None:
        shown["description"] = got.description
    view = view_of(entry, server, shown, offered, name)
    if offered == DEFERRED:
        view = {**view, **entry.get("deferred_fields", {})}
    return view, "", schema


def _text(tool: dict[str, Any], key: str) -> bool:
    return isinstance(tool.get(key), str)


def predict_views(
    target: Target, server: str, profile: str, mode: str, calls: frozenset[str]
) -> dict[int, Predicted]:
    """Served index -> the prediction for each tool of `target` in `mode`."""
    pid = profile.partition("@")[0]
    effective, at = _versions(profile)
    entry = _first(_entries()[0].get(pid, []), effective)
    listed = {
        o.index: o for o in predict(target, profile) if o.listing == "tools" and o.index is not None
    }
    refusals = _refusals(target, profile, effective, at)
    out: dict[int, Predicted] = {}
    paged_out = _paged_out(entry, target)
    how = entry.get("duplicates") if entry is not None else None
    groups: dict[str, list[int]] = {}
    renamed = hashed(entry, server, (i.value for i in target.catalog.items("tools")))
    for item in target.catalog.items("tools"):
        tool = item.value if isinstance(item.value, dict) else {}
        name = str(tool.get("name"))
        sent_as = qualified(entry, server, renamed.get(name, name)) if entry is not None else name
        groups.setdefault(name if how == "first-of-name" else sent_as, []).append(item.served_index)
        kept = listed.get(item.served_index)
        if item.served_index in paged_out:
            out[item.served_index] = Predicted(
                NOT_OFFERED, NOT_OFFERED, None, paged_out[item.served_index]
            )
            continue
        if kept is not None and kept.verdict != KEPT:
            out[item.served_index] = Predicted(NOT_OFFERED, NOT_OFFERED, None, kept.message)
            continue
        if entry is None:
            out[item.served_index] = Predicted(None, None, None, f"{pid}: no model_view data")
            continue
        offered = str(entry.get("deferral", {}).get(mode, INLINE))
        view, skipped, schema = sent_view(entry, server, tool, offered, renamed.get(name))
        if view is None:
            left = f"{pid}: tool left out of the request: {skipped}"
            out[item.served_index] = Predicted(NOT_OFFERED, NOT_OFFERED, None, left)
            continue
        if name not in calls:
            out[item.served_index] = Predicted(offered, NOT_CALLED, view)
            continue
        why = refusals.get(item.served_index) or _refused(entry, tool) or _checked(entry, schema)
        out[item.served_index] = Predicted(offered, REFUSED if why else REACHED, view, why or "")
    if how in ("first", "last", "first-of-name"):
        # One object per sent name reaches the model, the first tool's or the last's, and a
        # call of the name goes to the server as that tool; verify sees every tool of the name
        # as it (measured: tool.name/duplicate; `get.user` beside `get_user`, `a b` beside
        # `a_b`). Codex gives names that meet only after renaming hash suffixes instead.
        for group in groups.values():
            out.update(dict.fromkeys(group, out[group[-1 if how == "last" else 0]]))
    return out


def _paged_out(entry: dict[str, Any] | None, target: Target) -> dict[int, str]:
    """Served index -> why the tool never reaches the model for a `nextCursor` of "" on a
    tools page (`empty_cursor`, per era: `stop` ends the listing there, so later pages are
    never asked; `follow` asks for the next page with "", so an empty cursor on the last page
    loses the whole list)."""
    how = (entry or {}).get("empty_cursor")
    listing = target.catalog.doc.get("listings", {}).get("tools", {})
    pages = listing.get("pages") if isinstance(listing, dict) else None
    if not isinstance(how, dict) or not isinstance(pages, list):
        return {}
    protocol = target.catalog.capture.get("protocol", {})
    rule = how.get(protocol.get("era", "legacy") if isinstance(protocol, dict) else "legacy")
    total = sum(int(p.get("items", 0)) for p in pages)
    seen = 0
    for n, page in enumerate(pages):
        seen += int(page.get("items", 0))
        if page.get("fields", {}).get("nextCursor") != "":
            continue
        if rule == "stop" and n < len(pages) - 1:
            why = 'tools/list stopped at a nextCursor of ""; later pages never asked'
            return dict.fromkeys(range(seen, total), why)
        if rule == "follow" and n == len(pages) - 1:
            why = 'tools/list asked past the last page (a nextCursor of ""); the list lost'
            return dict.fromkeys(range(total), why)
    return {}


def _refused(entry: dict[str, Any], tool: dict[str, Any]) -> str:
    """Why the client refuses to call the tool at all (`refuse_calls`: a served member, by
    JSON pointer, with the value given)."""
    for cond in entry.get("refuse_calls", []):
        value: Any = tool
        for part in str(cond["pointer"]).split("/")[1:]:
            value = value.get(part) if isinstance(value, dict) else None
        if value == cond["value"]:
            return str(cond.get("why", f"{cond['pointer']} is {cond['value']!r}"))
    return ""


def _checked(entry: dict[str, Any], schema: Any) -> str:
    """Why the client refuses the stand-in's call (`call_check: arguments`: the arguments
    `serve.instances` makes from the schema sent, checked against it as the client does)."""
    if entry.get("call_check") != "arguments" or not isinstance(schema, dict):
        return ""
    from jsonschema import Draft7Validator, validators

    made = instance(schema)
    args = made if isinstance(made, dict) else {}
    try:
        # Gemini CLI 0.61.0 checks nothing when the schema does not compile (measured on
        # the lattice: unknown types, bad patterns, unresolvable $refs, an empty anyOf); a
        # `$schema` that is no string names no dialect (jsonschema's lookup raises on it)
        kind = validators.validator_for(schema, default=Draft7Validator)
        kind.check_schema(schema)
        error = next(iter(kind(schema).iter_errors(args)), None)
    except Exception:  # noqa: BLE001 - any schema the validator cannot compile or apply
        return ""
    return f"the client checked the arguments: {error.message}"[:300] if error else ""


def _refusals(
    target: Target, profile: str, effective: Version | None, at: dict[str, Version | None]
) -> dict[int, str]:
    """Served index -> why a call is predicted refused (a finding of a rule whose `call`
    entry at this version says `refused`)."""
    calls = _entries()[1]
    report = audit(target.catalog, AuditOptions(profiles=(profile,)))
    out: dict[int, str] = {}
    for finding in report.findings:
        entries = calls.get(finding.rule_id)
        where = _ITEM.match(finding.location.pointer if finding.location else "")
        if not entries or where is None:
            continue
        entry = _first(entries, at.get(finding.rule_id, effective))
        if entry is not None and entry.get("outcome") == REFUSED:
            item = target.catalog.items("tools")
            index = int(where.group(1))
            served = next((i.served_index for i in item if i.index == index), index)
            out.setdefault(served, f"{finding.rule_id}: {finding.message}")
    return out
