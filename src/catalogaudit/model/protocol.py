"""MCP protocol vocabulary: the revisions of each era, what `--protocol` and
`--client-capabilities` ask for, and the session a handshake establishes (a record, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from catalogaudit._version import __version__
from catalogaudit.errors import UsageError
from catalogaudit.model.findings import Finding

MODERN_VERSIONS: tuple[str, ...] = ("2026-07-28",)
LEGACY_VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_LEGACY = "2025-11-25"
CLIENT_INFO = {"name": "catalogaudit", "version": __version__}
#: `--client-capabilities full`: what real servers gate extra tools on (server-everything).
FULL_CAPABILITIES: dict[str, Any] = {
    "roots": {"listChanged": True},
    "sampling": {},
    "elicitation": {"form": {}, "url": {}},
}
CAPABILITY_OF = {
    "tools": "tools",
    "prompts": "prompts",
    "resources": "resources",
    "resourceTemplates": "resources",
}


@dataclass(frozen=True)
class ProtocolChoice:
    """What `--protocol` asked for."""

    requested: str
    mode: str  # auto | legacy | modern
    offer: str  # the version offered first


def parse_protocol(value: str) -> ProtocolChoice:
    """Parse `--protocol auto|legacy|modern|<revision>`."""
    first = {"auto": MODERN_VERSIONS[0], "legacy": LATEST_LEGACY, "modern": MODERN_VERSIONS[0]}
    if value in first:
        return ProtocolChoice(value, value, first[value])
    if value in MODERN_VERSIONS or value in LEGACY_VERSIONS:
        return ProtocolChoice(value, "modern" if value in MODERN_VERSIONS else "legacy", value)
    known = ", ".join(("auto", "legacy", "modern", *LEGACY_VERSIONS, *MODERN_VERSIONS))
    raise UsageError(f"--protocol {value!r} is not one of: {known}")


def client_capabilities(value: str) -> dict[str, Any]:
    """Parse `--client-capabilities none|full`."""
    if value == "none":
        return {}
    if value == "full":
        return {k: dict(v) for k, v in FULL_CAPABILITIES.items()}
    raise UsageError(f"--client-capabilities must be none or full, not {value!r}")


@dataclass
class Session:
    """What negotiation established, and how."""

    era: str  # modern | legacy
    version: str
    choice: ProtocolChoice
    offered: list[str]
    capabilities_declared: dict[str, Any]
    server_info: Any = None
    server_capabilities: Any = None
    instructions: Any = None
    handshake_method: str = ""
    handshake_text: str | None = None
    supported_versions: Any = None
    findings: list[Finding] = field(default_factory=list)
    #: What a legacy `initialize` got from a modern server in a fresh session (`legacy_probe`).
    legacy: dict[str, Any] | None = None

    def meta(self) -> dict[str, Any]:
        """The per-request `_meta` of 2026-07-28 (P:2026-07-28/basic/index "_meta")."""
        return {
            "io.modelcontextprotocol/protocolVersion": self.version,
            "io.modelcontextprotocol/clientCapabilities": self.capabilities_declared,
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        }

    def advertised(self, listing: str) -> bool:
        """Whether the server's capabilities advertise the listing's capability."""
        caps = self.server_capabilities
        return isinstance(caps, dict) and CAPABILITY_OF[listing] in caps
