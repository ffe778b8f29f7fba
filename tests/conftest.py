"""pytest hooks and the hypothesis profile only; shared helpers live in the `helpers` package
(tests/helpers)."""

from __future__ import annotations

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
