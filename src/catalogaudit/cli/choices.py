"""Choices of `diff` options, without typer: `cli.diff` (typer) and `cli.fast` share them."""

from __future__ import annotations

import enum


class FailOn(str, enum.Enum):
    """`--fail-on` threshold: cosmetic < model-visible < breaking."""

    NEVER = "never"
    COSMETIC = "cosmetic"
    MODEL_VISIBLE = "model-visible"
    BREAKING = "breaking"


class Unknown(str, enum.Enum):
    """What an undecidable (`unknown`) change counts as."""

    FAIL = "fail"
    IGNORE = "ignore"


__all__ = ["FailOn", "Unknown"]
