"""Plain `--help`: choices and click-style metavars (`TEXT`, `INTEGER`, `FILE...`) instead of
the type names typer prints (`<str>`, `<int range>`), an argument by its upper-case name and
no type after it or after a flag, paragraphs that the terminal wraps (not the docstring's line
breaks), a long choice list in the help text (`One of: text, json, ...`, which wraps between
words) behind a short metavar (`FORMAT`), and a command's many options grouped into panels by
what they are for.

Why here: typer's rich help takes an option's column from `make_metavar` and an argument's
from its type; the one fix is to give every parameter of the built command a subclass (and an
argument a type without a metavar) that renders it as a user reads it. `plain(command)` does
that once, before parsing.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from typer.core import TyperArgument, TyperOption

#: The metavar of a value type (click's names), by the type's name.
_NAMES = {
    "str": "TEXT",
    "int": "INTEGER",
    "int range": "INTEGER",
    "float": "NUMBER",
    "float range": "NUMBER",
}
#: Choices longer than this go into the help text: the metavar column would cut them.
_CHOICES = 18
#: A command with more options than this shows them in panels (`PANELS`).
_GROUPED = 10
#: The panel of an option, by its long name, wherever it appears (one meaning, one panel).
PANELS = {
    **dict.fromkeys(
        "--live --url --transport --header --cwd --env --inherit-env --secret --protocol "
        "--client-capabilities --timeout --startup-timeout --request-timeout --max-pages "
        "--max-message-size --max-total-bytes --no-wire --legacy-probe --runs --from".split(),
        "Server and capture",
    ),
    **dict.fromkeys(
        "--profile --profile-setting --server-name --gateway-name --revision --select "
        "--ignore --matrix --substitutions --substitutions-from-env --suggest --schema-only "
        "--prose-only".split(),
        "What is checked",
    ),
    **dict.fromkeys("--format --output --color --expand --max-chars --summary".split(), "Output"),
    **dict.fromkeys(
        "--fail-on --unknown --baseline --write-baseline --strict-baseline --allowlist "
        "--accepted --accept --expires".split(),
        "Exit code and accepted findings",
    ),
}


def metavar(param: TyperOption | TyperArgument) -> str:
    """What the help shows for the parameter's value: `text|json`, `TEXT`, `INTEGER`."""
    choices = getattr(param.type, "choices", None)
    if choices:
        return "|".join(str(c) for c in choices)
    return _NAMES.get(param.type.name, "VALUE")


class PlainOption(TyperOption):
    """An option whose help column is its choices or a plain metavar; nothing for a flag."""

    def make_metavar(self, ctx: Any) -> str:
        if self.metavar is not None:
            return self.metavar
        return "" if self.is_flag else metavar(self)


class PlainArgument(TyperArgument):
    """An argument shown by its name (`FILE...`), without a Python type, in click's usage form:
    `FILE...` when required, `[FILE]...` when not."""

    def make_metavar(self, ctx: Any, *, usage: bool = False) -> str:
        name = (self.metavar or "").removesuffix("...")
        if usage and not self.required:
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")


def reflow(text: str) -> str:
    """A docstring's paragraphs as one line each (the terminal wraps them; typer's rich help
    keeps the docstring's own line breaks, which a narrower terminal then breaks again);
    `Exit codes:` always starts a paragraph of its own."""
    text = text.replace("\nExit codes:", "\n\nExit codes:")
    paragraphs = (" ".join(line.strip() for line in p.splitlines()) for p in text.split("\n\n"))
    return "\n\n".join(p for p in paragraphs if p)


def _long_choices(param: TyperOption) -> None:
    """`--format FORMAT ... One of: text, json, ...` for a choice list too long for its column."""
    choices = metavar(param)
    if param.metavar is not None or "|" not in choices or len(choices) <= _CHOICES:
        return
    name = max(param.opts, key=len).lstrip("-")
    # NOTE: short, so the help column keeps its room: `--fail-on LEVEL`, `--cache-hints HINTS`
    param.metavar = "LEVEL" if name.endswith("fail-on") else name.split("-")[-1].upper()
    values = choices.split("|")
    if all(v in (param.help or "") for v in values):
        return  # the help names every choice already
    param.help = f"{param.help or ''} One of: {', '.join(values)}.".strip()


def plain(command: Any) -> Any:
    """Give every parameter of `command` and its subcommands the plain help form (the help
    option too: click builds it once per command, and caches it, on first use)."""
    if getattr(command, "help", None):
        command.help = reflow(command.help)
    # NOTE: `get_help_option` reads only the context's help option names.
    help_option = command.get_help_option(SimpleNamespace(help_option_names=("-h", "--help")))
    params = getattr(command, "params", ())
    grouped = sum(1 for p in params if isinstance(p, TyperOption)) > _GROUPED
    for param in (*params, help_option):
        if type(param) is TyperOption:
            param.__class__ = PlainOption
            _long_choices(param)
            if grouped and param.rich_help_panel is None:
                param.rich_help_panel = PANELS.get(max(param.opts, key=len))
        elif type(param) is TyperArgument:
            param.__class__ = PlainArgument
            param.show_default = False  # NOTE: an optional argument's default is None or empty
            if param.metavar is None:
                param.metavar = (param.name or "").upper() + ("..." if param.nargs != 1 else "")
            param.type = copy.copy(param.type)  # NOTE: click's types are shared instances
            # NOTE: no type metavar, so that the help's type column stays empty
            param.type.get_metavar = lambda param, ctx: ""  # type: ignore[method-assign]
    for sub in getattr(command, "commands", {}).values():
        plain(sub)
    return command
