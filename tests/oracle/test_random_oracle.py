"""Differential oracle over seeded random catalogs (issue 6): every client that has a verify
driver gets the same random catalogs in one `catalogaudit verify` run, and its profile's
predicted verdict must equal the observed one for every list and item.

The ContextForge releases get them in test_context_forge_oracle.py, in the same run (and so the
same release start) as their scenario matrix. How many catalogs and from which seed:
helpers/random_catalogs.py (`CATALOGAUDIT_ORACLE_RANDOM`, `CATALOGAUDIT_ORACLE_SEED`). A
mismatch is fixed in the profile data and, if the defect was not in the scenario matrix yet,
added there as a named scenario.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    mismatches,
    not_installed,
    observed,
    verify_json,
)
from helpers.random_catalogs import snapshots

from catalogaudit.verify import DRIVERS

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"


def _bin(name: str) -> Callable[[], bool]:
    return lambda: (MODULES / ".bin" / name).is_file()


#: `--client` spec, `--client-path`, and how to tell the client is installed.
CLIENTS: dict[str, tuple[str, str | None, Callable[[], bool]]] = {
    "python-sdk": ("python-sdk@2.3.0", None, lambda: True),
    "ts-sdk": (
        "ts-sdk@1.32.2",
        str(MODULES),
        lambda: (MODULES / "@modelcontextprotocol" / "sdk").is_dir(),
    ),
    "ts-sdk-v2": (
        "ts-sdk-v2@2.4.0",
        str(MODULES),
        lambda: (MODULES / "@modelcontextprotocol" / "client").is_dir(),
    ),
    "codex": ("codex@0.169.0", str(MODULES), _bin("codex")),
    "claude-code": ("claude-code@2.1.328", str(MODULES), _bin("claude")),
    "opencode": ("opencode@1.18.33", str(MODULES), _bin("opencode")),
    "inspector": ("inspector@2.12.0", str(MODULES), _bin("mcp-inspector")),
}


CASES = [c for c in CLIENTS if c.partition("@")[0] in DRIVERS]


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The random catalogs as snapshots named `random-<seed>.json`."""
    return snapshots(tmp_path_factory.mktemp("random-oracle"))


@pytest.mark.parametrize("client", CASES)
def test_profile_predicts_the_client_on_random_catalogs(client: str, catalogs: list[Path]) -> None:
    spec, path, installed = CLIENTS[client]
    if not installed():
        not_installed(client)
        pytest.skip(f"{client} is not installed")
    _, doc = verify_json(spec, catalogs, path, timeout=900)
    seen = {o["catalog"] for o in doc["observations"]}
    assert seen == {str(c) for c in catalogs}, "the client observed fewer catalogs than given"
    wrong = {Path(c).stem: mismatches(observed(doc, c)) for c in sorted(seen)}
    wrong = {k: v for k, v in wrong.items() if v}
    assert not wrong, (
        "profile data disagrees with the client (replay with the seed):\n"
        + "\n".join(f"{name}: {line}" for name, lines in wrong.items() for line in lines)
    )
