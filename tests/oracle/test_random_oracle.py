"""Differential oracle over seeded random catalogs (issue 6): every client that has a verify
driver gets the same random catalogs in one `catalogaudit verify` run, and its profile's
predicted verdict must equal the observed one for every list and item.

`CATALOGAUDIT_ORACLE_RANDOM` sets how many catalogs (default 8; the refresh script may ask for
more), `CATALOGAUDIT_ORACLE_SEED` the first seed (default fixed, so CI is repeatable; a
failure names the seed so it can be replayed). A mismatch is fixed in the profile data and, if
the defect was not in the scenario matrix yet, added there as a named scenario.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ROOT, cli
from helpers.oracle_common import (  # noqa: F401 - asked_for is a fixture
    asked_for,
    mismatches,
    not_installed,
    observed,
    verify_json,
)
from helpers.random_catalogs import DEFAULT_SEED, write

from catalogaudit.verify import DRIVERS

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
COUNT = int(os.environ.get("CATALOGAUDIT_ORACLE_RANDOM", "8"))
SEED = int(os.environ.get("CATALOGAUDIT_ORACLE_SEED", str(DEFAULT_SEED)))


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


def _context_forge(version: str) -> Callable[[], bool]:
    def installed() -> bool:
        from catalogaudit.verify.drivers.context_forge_install import cache_root
        from catalogaudit.verify.drivers.context_forge_install import installed as done

        return done(cache_root(), version)

    return installed


#: ContextForge: every release line the suite measures, from its cached venv.
CLIENTS.update(
    {
        f"context-forge@{v}": (f"context-forge@{v}", None, _context_forge(v))
        for v in ("0.6.0", "0.9.0", "1.0.0b2", "1.0.0rc1", "1.0.0", "1.0.7")
    }
)
CASES = [c for c in CLIENTS if c.partition("@")[0] in DRIVERS]


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """COUNT random catalogs as snapshots named `random-<seed>.json`."""
    base = tmp_path_factory.mktemp("random-oracle")
    out = []
    for seed in range(SEED, SEED + COUNT):
        inputs = write(seed, base / f"random-{seed}")
        path = base / f"random-{seed}.json"
        made = cli("snapshot", *[a for f in inputs for a in ("--from", str(f))], "-o", str(path))
        assert made.code == 0, str(made)
        out.append(path)
    return out


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
