"""A fleet: the servers one client configuration (or registry `server.json`) names, each under
the name the configuration gives it, which is the name clients qualify its tools with.

Why a record of its own: environment values and header values in configurations are
credentials. A `Server` carries them to the capture and nowhere else: its `repr` and every
written form (`row`) hold their names only.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The manifest `snapshot --servers` writes beside the snapshots, which `audit DIR` reads.
MANIFEST = "fleet.json"


@dataclass(frozen=True)
class Server:
    """One configured server: a stdio command or a URL, and what the capture needs."""

    name: str
    command: tuple[str, ...] = ()
    url: str | None = None
    #: `auto`, `streamable-http` or `sse` (a URL); `stdio` for a command.
    transport: str = "stdio"
    cwd: str | None = None
    #: Values are secrets: never written, never in `repr`.
    env: dict[str, str] = field(default_factory=dict, repr=False)
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    #: Seconds the configuration gives this server (None: the command's own options).
    startup_timeout: float | None = None
    request_timeout: float | None = None
    #: Why the server cannot be captured as configured (a variable not set, no command):
    #: its row is an error, the other servers are captured.
    problem: str | None = None
    #: Where in the configuration it is (`/mcpServers/memory`), for messages.
    where: str = ""

    def row(self) -> dict[str, Any]:
        """The written form: names of variables and headers, never their values."""
        out: dict[str, Any] = {"name": self.name, "transport": self.transport}
        if self.env:
            out["env"] = sorted(self.env)
        if self.headers:
            out["headers"] = sorted(self.headers)
        return out


@dataclass(frozen=True)
class Fleet:
    """The servers of one configuration, in the order it lists them."""

    source: str
    #: The client whose configuration this is (`claude-desktop`, `codex`, `registry`, ...).
    client: str
    servers: tuple[Server, ...]
    notes: tuple[str, ...] = ()


def fleet_id(names: Sequence[str]) -> str:
    """What identifies a fleet across its shards: a hash of its servers' names."""
    text = "\n".join(sorted(names))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` (1 <= I <= N) as a pair; ValueError otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise ValueError(f"--shard must be I/N with 1 <= I <= N, not {text!r}")
    return int(m[1]), int(m[2])


def shard_of(names: Sequence[str], index: int, count: int) -> list[str]:
    """The names shard `index` of `count` takes: round robin over the sorted names, so every
    name is in exactly one shard, shards differ in size by at most one, and the split does
    not depend on the order the configuration lists them."""
    ordered = sorted(names)
    return [n for i, n in enumerate(ordered) if i % count == index - 1]


def file_names(names: Sequence[str]) -> dict[str, str]:
    """Each server's snapshot file name: its name with characters outside [A-Za-z0-9._-]
    as `_`, and a `-2`, `-3`... where two names come out the same. Computed over the whole
    fleet before any shard, so a server has one file name whichever shard takes it."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(names):
        stem = re.sub(r"[^A-Za-z0-9._-]", "_", name).strip(".") or "server"
        candidate, n = stem, 1
        while candidate.casefold() in taken:
            n += 1
            candidate = f"{stem}-{n}"
        taken.add(candidate.casefold())
        out[name] = f"{candidate}.snapshot.json"
    return out
