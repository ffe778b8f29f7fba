"""The contract options `snapshot`, `audit` and `diff` share (`--expect-tool NAME`,
`--forbid-tool GLOB`, `--min-tools N`, and the same for prompts, resources and templates),
declared once; `verbs.contract` turns them (and the configuration keys) into assertions."""

from __future__ import annotations

from typing import Annotated, Any

import typer

Names = list[str] | None
PANEL = "Contract (a failed assertion is an error finding, exit 1)"


def _option(flag: str, text: str, **more: Any) -> Any:
    return typer.Option(flag, help=text, rich_help_panel=PANEL, **more)


def _expect(what: str) -> str:
    return f"This {what} must be listed. Repeatable."


def _forbid(what: str) -> str:
    return f"No {what} may match this glob (fnmatch, case-sensitive). Repeatable."


ExpectTool = Annotated[Names, _option("--expect-tool", _expect("tool (name)"))]
ForbidTool = Annotated[Names, _option("--forbid-tool", _forbid("tool"))]
MinTools = Annotated[int | None, _option("--min-tools", "At least N tools must be listed.", min=0)]

ExpectPrompt = Annotated[Names, _option("--expect-prompt", _expect("prompt (name)"))]
ForbidPrompt = Annotated[Names, _option("--forbid-prompt", _forbid("prompt"))]
MinPrompts = Annotated[
    int | None, _option("--min-prompts", "At least N prompts must be listed.", min=0)
]

ExpectResource = Annotated[Names, _option("--expect-resource", _expect("resource (URI)"))]
ForbidResource = Annotated[Names, _option("--forbid-resource", _forbid("resource"))]
MinResources = Annotated[
    int | None, _option("--min-resources", "At least N resources must be listed.", min=0)
]

ExpectTemplate = Annotated[
    Names, _option("--expect-template", _expect("resource template (uriTemplate)"))
]
ForbidTemplate = Annotated[Names, _option("--forbid-template", _forbid("template"))]
MinTemplates = Annotated[
    int | None, _option("--min-templates", "At least N templates must be listed.", min=0)
]
