"""What `verify` observed and predicted: verdicts, observations, rows and runs (records only),
and the profile ids that have a verify driver, so the core and the formatters need no edge."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from catalogaudit.model.modelview import PromptBytes, ViewRow

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
