"""Options several verbs share, declared once so their help, bounds and meaning agree."""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer

if TYPE_CHECKING:
    from catalogaudit.verbs import SnapshotOptions

#: `--max-chars` of every verb that writes Markdown (None: `formatters.md.DEFAULT_MAX_CHARS`).
MaxChars = Annotated[
    int | None,
    typer.Option(
        "--max-chars",
        min=200,
        help="Markdown: at most this many characters (default 60000, under GitHub's comment "
        "limit); what is cut is counted in the last line.",
    ),
]


def _completer(name: str, what: str) -> Callable[[str], list[str]]:
    def complete(incomplete: str) -> list[str]:
        import catalogaudit.verbs

        found: list[str] = getattr(catalogaudit.verbs, name)(incomplete)
        return found

    complete.__doc__ = f"Shell completion of {what}."
    return complete


complete_profiles = _completer("profile_ids", "`--profile` and `profiles ID`: the profile ids")
complete_clients = _completer("client_ids", "`verify --client`: the clients a driver exists for")
complete_rules = _completer("rule_ids", "`rule ID`: every rule id (spec, profiles, diff)")
complete_selectors = _completer("selectors", "`--select`, `--ignore`: rule and profile ids")


#: `audit --fail-on`, `ci --audit-fail-on`: a finding of this severity or worse exits 1.
AuditFailOn = Literal["error", "warning", "info", "never"]


ColorOpt = Annotated[
    Literal["auto", "always", "never"],
    typer.Option(
        "--color",
        help="Text output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces), always "
        "or never.",
    ),
]


#: `--prices FILE` of every verb that prices a prompt-cache miss (None: the built-in data).
PricesOpt = Annotated[
    str | None,
    typer.Option(
        "--prices",
        metavar="FILE",
        help="Price data (JSON, the shape of the built-in prices.json) for the prompt-cache "
        "bill; default: the built-in data, dated.",
    ),
]


T = TypeVar("T")
#: `--format` of a verb that prints a listing or document, and of one that writes a report.
FormatOpt = Annotated[T, typer.Option("--format", help="Output format.")]
ReportFormatOpt = Annotated[T, typer.Option("--format", help="Report format.")]

List = list[str] | None
CwdOpt = Annotated[str | None, typer.Option(help="Working directory of the server.")]
TimeoutOpt = Annotated[float, typer.Option(help="Seconds for the whole capture.")]
ConfigOpt = Annotated[str | None, typer.Option(help="Configuration file.")]
ProfileOpt = Annotated[
    List,
    typer.Option(
        "--profile",
        help="ID or ID@VERSION; repeatable (default: the configured profiles).",
        autocompletion=complete_profiles,
    ),
]
AcceptedOpt = Annotated[
    str | None,
    typer.Option(
        help="Accepted-changes file (default: config accepted, else "
        "catalogaudit.accepted.toml when it exists)."
    ),
]


def option(name: str, kind: Any, default: Any = None, *decls: str, **info: Any) -> Any:
    """The parameter `name: Annotated[kind, typer.Option(*decls, **info)] = default` of a
    `Group` (`kind` alone when it is annotated already)."""
    annotation = Annotated[kind, typer.Option(*decls, **info)] if decls or info else kind
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Parameter(name, keyword, default=default, annotation=annotation)


class Group:
    """Options several commands declare at the same place: a command's parameter whose
    default is a `Group` stands for them (`grouped`)."""

    def __init__(self, *params: inspect.Parameter) -> None:
        self.params = params


F = TypeVar("F", bound=Callable[..., Any])


def grouped(command: F) -> F:
    """`command` with each `Group` parameter replaced by the group's options, in place; its
    `**rest` receives them (typer reads the options from the signature)."""
    params: list[inspect.Parameter] = []
    for p in inspect.signature(command, eval_str=True).parameters.values():
        if isinstance(p.default, Group):
            params.extend(p.default.params)
        elif p.kind is not inspect.Parameter.VAR_KEYWORD:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return command


#: How `snapshot`, `audit --live` and `ci` reach a server.
REACH = Group(
    option("url", str | None, help="Streamable HTTP endpoint."),
    option(
        "transport",
        Literal["auto", "streamable-http", "sse"],  # `verbs.live.TRANSPORTS`
        "auto",
        help="With --url: auto (Streamable HTTP, else HTTP+SSE), streamable-http or sse.",
    ),
    option(
        "headers", List, None, "--header", help="'Name: value' (value may be env:VAR). Repeatable."
    ),
    option("cwd", CwdOpt),
    option("env", List, None, "--env", help="KEY=VALUE for the server. Repeatable."),
)
#: How `snapshot` and `audit --live` start a server and greet it.
START = Group(
    option(
        "inherit_env",
        bool,
        False,
        "--inherit-env",
        help="Pass the stdio server our whole environment (default: HOME, LOGNAME, PATH, "
        "SHELL, TERM, USER, LANG, LC_*, TZ, plus --env).",
    ),
    option(
        "secrets",
        List,
        None,
        "--secret",
        help="A value to mask wherever server text is written (env:VAR reads it). Repeatable.",
    ),
    option(
        "protocol",
        str,
        "auto",
        "--protocol",
        help="auto (2026-07-28 discover, else initialize), legacy, modern, or a revision "
        "such as 2025-06-18.",
    ),
    option(
        "client_capabilities",
        str,
        "none",
        help="none, or full (roots, sampling, elicitation).",
    ),
)
#: What `audit` and `rewrite` check.
CHECKED = Group(
    option("profiles", ProfileOpt),
    option("profile_settings", List, None, "--profile-setting", help="Enforcer setting KEY=VALUE."),
    option("server_name", str | None, help="Server name for qualified-name checks."),
    option("gateway_name", str | None, help="Gateway name (ContextForge)."),
    option("revision", str | None, help="Protocol revision to audit as."),
)
#: The contract `snapshot`, `audit` and `diff` share (`--expect-tool NAME`, `--forbid-tool GLOB`,
#: `--min-tools N`, the same for prompts, resources and templates): `verbs.contract` turns them
#: (and the configuration keys) into assertions.
CONTRACT_PANEL = "Contract (a failed assertion is an error finding, exit 1)"
CONTRACT = Group(
    *(
        option(name, kind, None, help=text, rich_help_panel=CONTRACT_PANEL, **more)
        for word, what in (  # each listing's word in the option names, what `--expect-WORD` names
            ("tool", "tool (name)"),
            ("prompt", "prompt (name)"),
            ("resource", "resource (URI)"),
            ("template", "resource template (uriTemplate)"),
        )
        for name, kind, text, more in (
            (f"expect_{word}", List, f"This {what} must be listed. Repeatable.", {}),
            (
                f"forbid_{word}",
                List,
                f"No {word} may match this glob (fnmatch, case-sensitive). Repeatable.",
                {},
            ),
            (f"min_{word}s", int | None, f"At least N {word}s must be listed.", {"min": 0}),
        )
    )
)


def filled(cls: type[T], o: Mapping[str, Any], skip: Sequence[str] = (), **more: Any) -> T:
    """The options dataclass `cls` of a command's parameters `o`: each field (but those in
    `skip`, which mean something else there) is the parameter of its name, a list as a tuple
    and a choice as its value where the field's default is a plain value; a parameter left
    unset (None) keeps the field's default. `more` sets the fields the command fills otherwise."""
    from dataclasses import fields

    given: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        value = o.get(f.name)
        if f.name in skip or f.name in more or value is None:
            continue
        if isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, enum.Enum) and not isinstance(f.default, enum.Enum):
            value = value.value
        given[f.name] = value
    return cls(**given, **more)


def server_options(
    o: Mapping[str, Any], command: Sequence[str], skip: Sequence[str] = (), **more: Any
) -> SnapshotOptions:
    """The one `SnapshotOptions` of a command's parameters `o` for the server `command`
    (`filled`; the contract, if any, is among `more`)."""
    from catalogaudit.verbs import SnapshotOptions

    return filled(SnapshotOptions, o, (*skip, "contract"), command=tuple(command), **more)
