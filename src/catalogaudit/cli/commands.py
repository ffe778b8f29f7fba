"""CLI verb groups beyond `snapshot`; each module registers its typer commands on the app."""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Modules under `catalogaudit.cli`, each with `register(app)`.
MODULES: tuple[str, ...] = (
    "audit",
    "diff",
    "rewrite",
    "profiles",
    "canonical",
    "serve",
    "proxy",
    "verify",
    "ci",
)


def register_all(app: Any) -> None:
    """Register every verb group (typer imports are cheap; work is imported lazily per verb)."""
    for name in MODULES:
        import_module(f"catalogaudit.cli.{name}").register(app)
