"""pytest hooks and the hypothesis profile only; shared helpers live in the `helpers` package
(tests/helpers)."""

from __future__ import annotations

import compileall
import os
from pathlib import Path

import pytest

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the Python 3.10 smoke run installs no hypothesis
    pass
else:
    # NOTE: CI and shared development machines are loaded; generation that is slow there is
    # not a failure of the code under test (a property still fails on any falsifying example).
    settings.register_profile(
        "catalogaudit", suppress_health_check=[HealthCheck.too_slow], deadline=None
    )
    settings.load_profile("catalogaudit")


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--update-expected` rewrites expected-output files under fixtures/ (never in CI)."""
    parser.addoption(
        "--update-expected",
        action="store_true",
        default=False,
        help="rewrite expected-output files (fixtures/diff/<case>/expected.json, ...)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Compile `src/` once (into the ignored `__pycache__/`): under PYTHONDONTWRITEBYTECODE=1,
    set on the development machines, every process a test starts would otherwise compile
    each module it imports again. Once, in the controller: xdist's workers find it done.

    `COLUMNS` and `LINES` go: text output follows them, and xdist's workers are started with
    `COLUMNS=80`; a test that wants a width sets it."""
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)
    if hasattr(config, "workerinput"):
        return
    src = Path(__file__).resolve().parents[1] / "src"
    compileall.compile_dir(src, quiet=2, workers=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`slow_install` tests (pip, pipx, pre-commit environments, wheel builds) run in CI's own
    phase (`pytest -m slow_install`, or CATALOGAUDIT_SLOW_INSTALL=1), skipped otherwise."""
    if "slow_install" in (config.getoption("markexpr") or ""):
        return
    if os.environ.get("CATALOGAUDIT_SLOW_INSTALL") == "1":
        return
    skip = pytest.mark.skip(reason="installs packages: run with `pytest -m slow_install`")
    for item in items:
        if "slow_install" in item.keywords:
            item.add_marker(skip)
