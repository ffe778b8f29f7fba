"""The contract options `snapshot`, `audit` and `diff` share (`--expect-tool NAME`,
`--forbid-tool GLOB`, `--min-tools N`, and the same for prompts, resources and templates);
`verbs.contract` turns them (and the configuration keys) into assertions."""

from __future__ import annotations

from typing import Any

from catalogaudit.cli.options import Group, List, option

PANEL = "Contract (a failed assertion is an error finding, exit 1)"
#: Each listing's word in the option names, and what `--expect-WORD` names.
_WORDS = (
    ("tool", "tool (name)"),
    ("prompt", "prompt (name)"),
    ("resource", "resource (URI)"),
    ("template", "resource template (uriTemplate)"),
)


def _option(name: str, kind: Any, text: str, **more: Any) -> Any:
    return option(name, kind, None, help=text, rich_help_panel=PANEL, **more)


CONTRACT = Group(
    *(
        parameter
        for word, what in _WORDS
        for parameter in (
            _option(f"expect_{word}", List, f"This {what} must be listed. Repeatable."),
            _option(
                f"forbid_{word}",
                List,
                f"No {word} may match this glob (fnmatch, case-sensitive). Repeatable.",
            ),
            _option(f"min_{word}s", int | None, f"At least N {word}s must be listed.", min=0),
        )
    )
)
