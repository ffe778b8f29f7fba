"""Each client's prompt for a catalog's tools, predicted from its profile's `model_view` data
(`predict_model.sent_view`, the step `verify --model`'s prediction takes per tool), from tools
in served key order.

The layout is the entry's `request`: the tools sorted (served order, by their names' bytes
(Codex), or by name in Unicode root collation (Claude Code, opencode: JavaScript's
localeCompare)), each wrapped (`item`) and the server's tools wrapped in one entry (`group`,
Codex's namespace). A client whose `deferral` defers every tool in its `default` mode is
priced in the first mode that sends them inline, and says so. A tool the client drops at
listing time, or every tool of a tools list it fails (`verify.predict`, the profile's listing
verdicts), is not in the request: it is left out here, as `verify --model` finds it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogaudit.canonical import ClientPrompt, SentTool, sent_text
from catalogaudit.diffing import Side
from catalogaudit.model import DEFAULT, DEFERRED, INLINE, NOT_OFFERED, Catalog
from catalogaudit.rules import TRANSFORMS
from catalogaudit.verify.base import Target
from catalogaudit.verify.model_view import server_names
from catalogaudit.verify.predict import _versions, lost_items
from catalogaudit.verify.predict_model import _entries, _first, _paged_out, hashed, sent_view

#: Primary weights of the characters a sent name can hold ([A-Za-z0-9_-], the transforms'
#: alphabet) in the Unicode root collation (CLDR root, as ICU and so `localeCompare` sort):
#: punctuation first, `_` before `-`, then digits, then letters whatever their case.
_PRIMARY = {c: n for n, c in enumerate("_-0123456789abcdefghijklmnopqrstuvwxyz")}
#: The same weights as a byte table, uppercase letters weighed as lowercase: a name of
#: those characters alone gets its primary weights in one `bytes.translate`.
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")
_WEIGHTS = bytes.maketrans(
    "".join(_PRIMARY).encode() + "".join(_PRIMARY).upper().encode(), bytes([*_PRIMARY.values()] * 2)
)
#: Stands for the tools inside a `request` wrapper while it is written.
_SLOT = "\u0000catalogaudit-slot\u0000"


def prompt_clients() -> list[str]:
    """The profiles that carry `model_view` data, sorted."""
    return sorted(_entries()[0])


def client_prompt(
    client: str,
    server: str,
    tools: Sequence[Any],
    instructions: Any = None,
    left_out: dict[int, str] | None = None,
    seen: dict[tuple[str, bytes], SentTool] | None = None,
    digests: Sequence[bytes] | None = None,
) -> ClientPrompt:
    """`client`'s tools array for `tools` (served order, served key order) of `server`, whose
    `initialize` answer gave `instructions`; `left_out`: served index -> why the client drops
    that tool at listing time; `seen`: the tools already sent by this client for this server,
    by `digests` of `tools` (`value_digest`), filled in.

    `client` is a profile id, optionally `@version` (default: the profile's newest)."""
    pid = client.partition("@")[0]
    effective, _ = _versions(client)
    entry = _first(_entries()[0].get(pid, []), effective)
    version = None if effective is None else str(effective)
    if entry is None:
        return ClientPrompt(pid, version, DEFAULT, (), missing=f"{pid}: no model_view data")
    deferral: dict[str, str] = entry.get("deferral", {})
    mode, note = DEFAULT, ""
    if deferral.get(DEFAULT, INLINE) == DEFERRED:
        inline = [m for m, how in deferral.items() if how == INLINE]
        if inline:
            mode = inline[0]
            note = (
                f"{pid} defers MCP tools by default (their objects are outside the cached "
                f"prefix, loaded on demand); figures for mode {mode}, where they are inline"
            )
    dropped = left_out or {}
    offered = deferral.get(mode, INLINE)
    known = {} if seen is None else seen
    keys = [value_digest(t) for t in tools] if digests is None else digests
    renamed = hashed(entry, server, tools)
    sent = [
        SentTool(str(t.get("name") if isinstance(t, dict) else None), NOT_OFFERED, because=why)
        if (why := dropped.get(n))
        else _sent(entry, server, t, offered, known, keys[n], renamed)
        for n, t in enumerate(tools)
    ]
    if entry.get("duplicates") in ("first", "last"):
        sent = _one_per_name(sent, last=entry["duplicates"] == "last")
    request: dict[str, Any] = entry.get("request", {})
    if request.get("sort") == "bytes":
        sent.sort(key=lambda t: (t.name or "").encode("utf-8", "surrogatepass"))
    elif request.get("sort") == "collation":
        sent.sort(key=lambda t: collation_key(t.name or ""))
    fix = TRANSFORMS[entry.get("transform", "none")]
    given = instructions.strip() if isinstance(instructions, str) else ""
    else_ = str(request.get("instructions_else", "")).replace("{server}", fix(server))
    fill = {"{server}": fix(server), "{instructions}": given or else_}
    return ClientPrompt(
        pid,
        version,
        mode,
        tuple(sent),
        note=note,
        item=_around(request.get("item"), fill),
        group=_around(request.get("group"), fill),
        covers=str(request.get("covers", "")),
    )


def _one_per_name(sent: list[SentTool], last: bool) -> list[SentTool]:
    """One object per sent name (`duplicates`, as `predict_model` predicts it): the first
    tool of a name is sent, or the last in the first one's place (measured: Gemini CLI keeps
    a name where it first came, as a map keeps a key); the others are not offered."""
    at: dict[str, int] = {}
    out = list(sent)
    for n, tool in enumerate(sent):
        if tool.name is None:
            continue
        if tool.name not in at:
            at[tool.name] = n
            continue
        k = at[tool.name]
        if last:
            out[k], tool = tool, out[k]
        which = "a later" if last else "an earlier"
        why = f"sent as {tool.name}, {which} tool's name: only that one is sent"
        out[n] = SentTool(tool.identity, NOT_OFFERED, because=why)
    return out


def collation_key(name: str) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """`name`'s sort key in the Unicode root collation, for names of [A-Za-z0-9_-]: letters
    compared without case first, then lowercase before uppercase (tertiary level); any other
    character after them, by code point."""
    if _ALPHABET.fullmatch(name):
        return tuple(name.encode().translate(_WEIGHTS)), tuple(map(str.isupper, name))
    return tuple(_PRIMARY.get(c.lower(), 64 + ord(c)) for c in name), tuple(
        c.isupper() for c in name
    )


def _around(wrapper: Any, fill: dict[str, str]) -> tuple[str, str]:
    """The text a `request` wrapper puts before and after what it holds (its member whose
    value is "{tool}", or "{tools}" for an array of them); ("", "") for none."""
    if not isinstance(wrapper, dict):
        return "", ""
    filled: dict[str, Any] = {}
    array = False
    for key, value in wrapper.items():
        if value in ("{tool}", "{tools}"):
            filled[key], array = _SLOT, value == "{tools}"
        elif isinstance(value, str):
            for mark, text in fill.items():
                value = value.replace(mark, text)
            filled[key] = value
        else:
            filled[key] = value
    before, _, after = sent_text(filled).partition(sent_text(_SLOT))
    return (before + "[", "]" + after) if array else (before, after)


def value_digest(value: Any) -> bytes:
    """SHA-256 of a JSON value's `repr`, which writes its keys in order, its types and its
    floats exactly: equal digests, equal values to a client's view."""
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).digest()


def _sent(
    entry: dict[str, Any],
    server: str,
    tool: Any,
    offered: str,
    seen: dict[tuple[str, bytes], SentTool],
    digest: bytes,
    renamed: dict[str, str],
) -> SentTool:
    """`_tool`, once per distinct tool: the view is a function of the tool's value, unless
    the client renamed it (`hashed`)."""
    name = renamed.get(str(tool.get("name"))) if renamed and isinstance(tool, dict) else None
    if name is not None:
        return _tool(entry, server, tool, offered, name)
    sent = seen.get((offered, digest))
    if sent is None:
        sent = seen[offered, digest] = _tool(entry, server, tool, offered)
    return sent


def _tool(
    entry: dict[str, Any], server: str, tool: Any, offered: str, name: str | None = None
) -> SentTool:
    tool = tool if isinstance(tool, dict) else {}
    ident = str(tool.get("name"))
    view, skipped, _ = sent_view(entry, server, tool, offered, name)
    if view is None:
        return SentTool(ident, NOT_OFFERED, because=f"left out of the request: {skipped}")
    return SentTool(ident, offered, str(view.get("name", ident)), sent_text(view))


def prompts_of(
    sides: Sequence[Side], clients: Sequence[str] | None = None
) -> dict[str, dict[str, ClientPrompt]]:
    """Per input (side) label, each client's prompt for its tools (`clients`: these profile
    ids, default every one with `model_view` data). Every side is named after the first
    one's server (`verify --model`'s name for it), so only the tools can differ; a run of
    `snapshot --runs`, whose capture block was not kept, has the first one's."""
    if not sides:
        return {}
    return _prompts(_inputs(sides), prompt_clients() if clients is None else clients)


@dataclass(frozen=True)
class _Input:
    """What every client's prompt of one side is predicted from, taken once per side."""

    label: str
    server: str
    tools: list[Any]
    #: `value_digest` of each tool: the key of a tool's view, shared by both inputs.
    digests: list[bytes]
    instructions: Any
    #: The side as a snapshot, for the listing-time verdicts (`dropped`).
    target: Target


def _inputs(sides: Sequence[Side]) -> list[_Input]:
    first = sides[0].capture
    (server,) = server_names([Target("", Path(""), Catalog({"capture": first}))])
    out = []
    for side in sides:
        tools = _tools(side)
        capture = side.capture if side.capture_known else first
        doc = side.doc or {"capture": capture, "listings": side.listings}
        target = Target(side.label, Path(""), Catalog(doc))
        digests = [value_digest(t) for t in tools]
        out.append(_Input(side.label, server, tools, digests, capture.get("instructions"), target))
    return out


def _prompts(inputs: Sequence[_Input], asked: Sequence[str]) -> dict[str, dict[str, ClientPrompt]]:
    """`prompts_of` of the inputs taken (`_inputs`)."""
    seen: dict[str, dict[tuple[str, bytes], SentTool]] = {c: {} for c in asked}
    return {
        i.label: {
            c.partition("@")[0]: client_prompt(
                c,
                i.server,
                i.tools,
                i.instructions,
                dropped(i.target, c),
                seen[c],
                i.digests,
            )
            for c in asked
        }
        for i in inputs
    }


def client_prompts(sides: Sequence[Side]) -> Callable[[str], dict[str, ClientPrompt]]:
    """`client` -> per input label, its prompt: `prompts_of` one client at a time (a bill
    holds one client's prompts at once); {} for a client without `model_view` data."""
    known = set(prompt_clients())
    inputs: list[_Input] = []

    def of(client: str) -> dict[str, ClientPrompt]:
        pid = client.partition("@")[0]
        if pid not in known:
            return {}
        if not inputs:
            inputs.extend(_inputs(sides))
        return {label: by[pid] for label, by in _prompts(inputs, [client]).items()}

    return of


def _tools(side: Side) -> list[Any]:
    items = side.wire_items("tools")
    return items if items is not None else side.served("tools")


def dropped(target: Target, client: str) -> dict[int, str]:
    """Served index -> why `client` drops that tool at listing time, or fails the tools list
    (the profile's listing verdicts on the side as a snapshot), or never asks for its page
    (its `model_view`'s `empty_cursor`, as `verify --model` predicts it)."""
    effective, _ = _versions(client)
    paged_out = _paged_out(
        _first(_entries()[0].get(client.partition("@")[0], []), effective), target
    )
    return paged_out | lost_items(target, client, "tools")
