"""pytest hooks only; shared helpers live in the `helpers` package (tests/helpers)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--update-expected` rewrites expected-output files under fixtures/ (never in CI)."""
    parser.addoption(
        "--update-expected",
        action="store_true",
        default=False,
        help="rewrite expected-output files (fixtures/diff/<case>/expected.json, ...)",
    )
