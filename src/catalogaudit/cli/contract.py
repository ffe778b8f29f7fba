"""The contract options `snapshot`, `audit` and `diff` share (`--expect-tool NAME`,
`--forbid-tool GLOB`, `--min-tools N`, and the same for prompts, resources and templates),
declared once; `verbs.contract` turns them (and the configuration keys) into assertions."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

PANEL = "Contract (a failed assertion is an error finding, exit 1)"
#: Each listing's word in the option names, and what `--expect-WORD` names.
_WORDS = (
    ("tool", "tool (name)"),
    ("prompt", "prompt (name)"),
    ("resource", "resource (URI)"),
    ("template", "resource template (uriTemplate)"),
)


def _parameter(name: str, kind: Any, text: str, **more: Any) -> inspect.Parameter:
    option = typer.Option("--" + name.replace("_", "-"), help=text, rich_help_panel=PANEL, **more)
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[kind, option]
    )


PARAMETERS = tuple(
    parameter
    for word, what in _WORDS
    for parameter in (
        _parameter(f"expect_{word}", list[str] | None, f"This {what} must be listed. Repeatable."),
        _parameter(
            f"forbid_{word}",
            list[str] | None,
            f"No {word} may match this glob (fnmatch, case-sensitive). Repeatable.",
        ),
        _parameter(f"min_{word}s", int | None, f"At least N {word}s must be listed.", min=0),
    )
)

F = TypeVar("F", bound=Callable[..., Any])


def with_contract(command: F) -> F:
    """`command` with the twelve contract options after its own, which its `**contract`
    receives (typer reads the options from the signature)."""
    own = inspect.signature(command, eval_str=True).parameters.values()
    kept = [p for p in own if p.kind is not inspect.Parameter.VAR_KEYWORD]
    command.__signature__ = inspect.Signature([*kept, *PARAMETERS])  # type: ignore[attr-defined]
    return command
