"""The contract options `snapshot`, `audit` and `diff` share (`--expect-tool NAME`,
`--forbid-tool GLOB`, `--min-tools N`, and the same for prompts, resources and templates),
declared once; `verbs.contract` turns them (and the configuration keys) into assertions."""

from __future__ import annotations

from typing import Annotated

import typer

Names = list[str] | None
PANEL = "Contract (a failed assertion is an error finding, exit 1)"

ExpectTool = Annotated[
    Names,
    typer.Option(
        "--expect-tool", help="This tool (name) must be listed. Repeatable.", rich_help_panel=PANEL
    ),
]
ForbidTool = Annotated[
    Names,
    typer.Option(
        "--forbid-tool",
        help="No tool may match this glob (fnmatch, case-sensitive). Repeatable.",
        rich_help_panel=PANEL,
    ),
]
MinTools = Annotated[
    int | None,
    typer.Option(
        "--min-tools", min=0, help="At least N tools must be listed.", rich_help_panel=PANEL
    ),
]

ExpectPrompt = Annotated[
    Names,
    typer.Option(
        "--expect-prompt",
        help="This prompt (name) must be listed. Repeatable.",
        rich_help_panel=PANEL,
    ),
]
ForbidPrompt = Annotated[
    Names,
    typer.Option(
        "--forbid-prompt",
        help="No prompt may match this glob (fnmatch, case-sensitive). Repeatable.",
        rich_help_panel=PANEL,
    ),
]
MinPrompts = Annotated[
    int | None,
    typer.Option(
        "--min-prompts", min=0, help="At least N prompts must be listed.", rich_help_panel=PANEL
    ),
]

ExpectResource = Annotated[
    Names,
    typer.Option(
        "--expect-resource",
        help="This resource (URI) must be listed. Repeatable.",
        rich_help_panel=PANEL,
    ),
]
ForbidResource = Annotated[
    Names,
    typer.Option(
        "--forbid-resource",
        help="No resource may match this glob (fnmatch, case-sensitive). Repeatable.",
        rich_help_panel=PANEL,
    ),
]
MinResources = Annotated[
    int | None,
    typer.Option(
        "--min-resources", min=0, help="At least N resources must be listed.", rich_help_panel=PANEL
    ),
]

ExpectTemplate = Annotated[
    Names,
    typer.Option(
        "--expect-template",
        help="This resource template (uriTemplate) must be listed. Repeatable.",
        rich_help_panel=PANEL,
    ),
]
ForbidTemplate = Annotated[
    Names,
    typer.Option(
        "--forbid-template",
        help="No template may match this glob (fnmatch, case-sensitive). Repeatable.",
        rich_help_panel=PANEL,
    ),
]
MinTemplates = Annotated[
    int | None,
    typer.Option(
        "--min-templates", min=0, help="At least N templates must be listed.", rich_help_panel=PANEL
    ),
]
