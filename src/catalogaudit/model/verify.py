"""What `verify` observed and predicted (records only, so the core and the formatters need no
edge): verdicts, observations, rows and runs; with `--model`, per tool, what the client sent
the model and what became of a call of it, and over several starts whether the `tools` part of
the model request kept its bytes; and the profile ids that have a verify driver."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: How a tool was offered to the model in one mode.
INLINE, DEFERRED, NOT_OFFERED = "inline", "deferred", "not-offered"
#: What became of a call: it arrived at the server, the client refused it (its message),
#: the tool was not offered, or we did not ask for it (`--calls`, or a deferred tool).
REACHED, REFUSED, NOT_CALLED = "reached", "refused", "not-called"
#: The modes a run covers: Claude Code with `ENABLE_TOOL_SEARCH=false`, and as installed.
SEARCH_OFF, DEFAULT = "tool-search-off", "default"


@dataclass(frozen=True)
class ToolView:
    """One served tool in one mode: how it was offered, the exact object the client sent the
    model (`view`, its text as sent, and the SHA-256 of those bytes), and the call outcome."""

    catalog: str
    mode: str
    index: int
    identity: str
    offered: str
    #: The name the model saw (`mcp__server__tool`), None when not offered.
    name: str | None = None
    view: str | None = None
    sha256: str | None = None
    call: str = NOT_CALLED
    #: The client's own words: its refusal, or the start of the tool_result it sent the model.
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        """Plain form for JSON reports; `modelView` is the object as sent (parsed)."""
        return {
            "catalog": self.catalog,
            "mode": self.mode,
            "index": self.index,
            "identity": self.identity,
            "offered": self.offered,
            "name": self.name,
            "modelView": None if self.view is None else json.loads(self.view),
            "modelViewSha256": self.sha256,
            "call": self.call,
            "message": self.message,
        }


@dataclass(frozen=True)
class ViewRow:
    """One tool view with the profile's prediction for it."""

    observed: ToolView
    offered: str | None
    call: str | None
    #: The predicted model view (parsed; compared without regard to key order), None: none.
    view: Any = None
    because: str = ""

    @property
    def view_matches(self) -> bool:
        """The object sent equals the predicted one (key order aside)."""
        if self.view is None or self.observed.view is None:
            return True
        return bool(json.loads(self.observed.view) == self.view)

    @property
    def matches(self) -> bool:
        """Offered, call and view all as predicted."""
        return (
            self.offered == self.observed.offered
            and self.call == self.observed.call
            and self.view_matches
        )


@dataclass(frozen=True)
class Drift:
    """One tool whose bytes in the `tools` part differ between start 1 and a later start."""

    start: int
    tool: str
    #: `key order`, `item order`, `content`, `added` or `removed`.
    how: str


@dataclass(frozen=True)
class PromptBytes:
    """The `tools` part of the first model request of each start, compared with the first."""

    #: SHA-256 of each start's `tools` text, in start order.
    sha256: Sequence[str]
    drifts: Sequence[Drift]

    @property
    def stable(self) -> bool:
        """Every start sent the same bytes."""
        return len(set(self.sha256)) <= 1

    def as_dict(self) -> dict[str, Any]:
        """Plain form for JSON reports."""
        return {
            "starts": len(self.sha256),
            "stable": self.stable,
            "sha256": list(self.sha256),
            "changes": [{"start": d.start, "tool": d.tool, "how": d.how} for d in self.drifts],
        }


#: Profile ids with a `catalogaudit verify` driver (`catalogaudit.verify.drivers`); only these
#: can be verified, and profiles say so without importing the drivers.
DRIVER_IDS: tuple[str, ...] = (
    "python-sdk",
    "ts-sdk",
    "ts-sdk-v2",
    "claude-code",
    "codex",
    "context-forge",
    "opencode",
    "inspector",
    "gemini-cli",
)
#: Verdicts. A list is `kept` (the call succeeded) or `failed`; an item is `kept` or `dropped`.
KEPT, DROPPED, FAILED = "kept", "dropped", "failed"


@dataclass(frozen=True)
class Observation:
    """One verdict about one list or one item of one catalog.

    `index` is the item's served position (None for the list itself), so items without an
    identity (a resource with no uri) can still be told apart.
    """

    catalog: str
    listing: str
    index: int | None
    identity: str | None
    verdict: str
    message: str = ""

    @property
    def key(self) -> tuple[str, str, int | None]:
        """What a prediction and an observation are matched on."""
        return (self.catalog, self.listing, self.index)

    def as_dict(self) -> dict[str, Any]:
        """Plain form for JSON reports: the fields, in their order."""
        return asdict(self)


@dataclass(frozen=True)
class Row:
    """One observation, the prediction for it, and whether they agree."""

    observed: Observation
    predicted: Observation | None

    @property
    def matches(self) -> bool:
        """Predicted and observed verdicts are equal (messages differ by nature)."""
        return self.predicted is not None and self.predicted.verdict == self.observed.verdict


@dataclass(frozen=True)
class VerifyRun:
    """What one `verify` run found: the client, the profile it checked, and every row."""

    client: str
    version: str
    rows: Sequence[Row]
    #: How the client met the servers: `stdio`, `http` (JSON answers) or `http+sse`.
    transport: str = "stdio"
    #: `verify --model`: each tool's model view and call, per mode, with the prediction.
    views: Sequence[ViewRow] = ()
    #: `verify --model --runs N`: the `tools` part of the model request across starts.
    prompt: PromptBytes | None = None
    #: `verify --model`: (catalog label, `sha256:` of its server's part of the `tools` of the
    #: first model request), which `hash --client` predicts.
    prompts: Sequence[tuple[str, str]] = ()

    @property
    def profile(self) -> str:
        """The profile the prediction used (the client's id at the installed version)."""
        return f"{self.client}@{self.version}"

    @property
    def mismatches(self) -> int:
        """Rows and model views whose observation is not the predicted one."""
        return sum(not r.matches for r in self.rows) + sum(not v.matches for v in self.views)
