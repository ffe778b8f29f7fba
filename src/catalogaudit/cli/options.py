"""Options several verbs share, declared once so their help, bounds and meaning agree."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

if TYPE_CHECKING:
    from catalogaudit.verbs import SnapshotOptions

#: `--max-chars` of every verb that writes Markdown (None: `formatters.md.DEFAULT_MAX_CHARS`).
MaxChars = Annotated[
    Optional[int],  # noqa: UP045 - typer needs Optional on 3.10
    typer.Option(
        "--max-chars",
        min=200,
        help="Markdown: at most this many characters (default 60000, under GitHub's comment "
        "limit); what is cut is counted in the last line.",
    ),
]


def complete_profiles(incomplete: str) -> list[str]:
    """Shell completion of `--profile` and `profiles ID`: the profile ids."""
    from catalogaudit.verbs import profile_ids

    return profile_ids(incomplete)


def complete_clients(incomplete: str) -> list[str]:
    """Shell completion of `verify --client`: the clients a driver exists for."""
    from catalogaudit.verbs import client_ids

    return client_ids(incomplete)


def complete_rules(incomplete: str) -> list[str]:
    """Shell completion of `rule ID`: every rule id (spec, profiles, diff)."""
    from catalogaudit.verbs import rule_ids

    return rule_ids(incomplete)


def complete_selectors(incomplete: str) -> list[str]:
    """Shell completion of `--select` and `--ignore`: rule ids and profile ids."""
    from catalogaudit.verbs import selectors

    return selectors(incomplete)


class AuditFailOn(str, enum.Enum):
    """`audit --fail-on`, `ci --audit-fail-on`: a finding of this severity or worse exits 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    NEVER = "never"


class Color(str, enum.Enum):
    """`--color` of the human text (`verbs.terminal.color`: auto follows NO_COLOR, FORCE_COLOR
    and whether stdout is a terminal)."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


ColorOpt = Annotated[
    Color,
    typer.Option(
        "--color",
        help="Text output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces), always "
        "or never.",
        rich_help_panel="Output",
    ),
]


#: `--prices FILE` of every verb that prices a prompt-cache miss (None: the built-in data).
PricesOpt = Annotated[
    Optional[str],  # noqa: UP045 - typer needs Optional on 3.10
    typer.Option(
        "--prices",
        metavar="FILE",
        help="Price data (JSON, the shape of the built-in prices.json) for the prompt-cache "
        "bill; default: the built-in data, dated.",
    ),
]


class Transport(str, enum.Enum):
    """`--transport` of a live `--url` server (`verbs.live.TRANSPORTS`)."""

    AUTO = "auto"
    STREAMABLE_HTTP = "streamable-http"
    SSE = "sse"


TransportOpt = Annotated[
    Transport,
    typer.Option(help="With --url: auto (Streamable HTTP, else HTTP+SSE), streamable-http or sse."),
]

#: SnapshotOptions field <- the repeatable option's parameter name.
_REPEATED = {"headers": "header", "env": "env", "secrets": "secret"}


def server_options(
    o: dict[str, Any], command: Sequence[str], skip: Sequence[str] = (), **more: Any
) -> SnapshotOptions:
    """The one `SnapshotOptions` of a command's parameters `o` for the server `command`: each
    parameter named as a field (but those in `skip`, which mean something else there) is that
    field; `more` sets the fields the command fills otherwise."""
    from dataclasses import fields

    from catalogaudit.verbs import SnapshotOptions

    named = {f.name for f in fields(SnapshotOptions)} - {*_REPEATED, *skip}
    given: dict[str, Any] = {k: o[k] for k in named if k in o}
    given |= {field: tuple(o[k] or ()) for field, k in _REPEATED.items() if k in o}
    given["transport"] = Transport(o.get("transport", Transport.AUTO)).value
    return SnapshotOptions(**(given | {"command": tuple(command)} | more))
