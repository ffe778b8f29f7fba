"""The hot verbs (`hash`, `canonicalize`, `audit`, `diff`, `snapshot`) parsed without typer.

Why: importing typer, and the pydantic it loads to run a command, took longer than hashing a
100-tool catalog. A command line is parsed here only when it is plain: every token a known
option of the verb (`--name value`, `--name=value`, `-o value`, flags), its positionals in
number, every value one that typer would accept unchanged. Anything else (help, `--`, an
unknown or malformed option, a missing argument, a value typer would reject) returns None
and `cli.app` parses it with typer, so options, messages and exit codes stay typer's.
The tables below mirror the typer declarations; tests/cli/test_fast_cli.py compares them
with typer's own parameters, and the bodies below are the ones the typer commands call.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from catalogaudit.cli.choices import FailOn, Unknown
from catalogaudit.formatters.formats import DiffFormat, HashFormat, OutputFormat

#: What an option takes: a flag, one string, a repeatable string, a float, an int (at least
#: `Opt.minimum`), or an enum's value.
Kind = str | type[enum.Enum]
#: The kind of an option the table declares but leaves to typer (it validates more).
TYPER = "typer"


@dataclass(frozen=True)
class Opt:
    names: tuple[str, ...]
    dest: str
    kind: Kind
    default: Any = None
    #: The `int` kind's bound (typer's `min=`): a smaller value is left to typer's message.
    minimum: int | None = None


@dataclass(frozen=True)
class Verb:
    arg: str
    #: 1: exactly one positional; -1: any number (at least one when `required`).
    nargs: int
    required: bool
    options: tuple[Opt, ...]
    body: Callable[..., int]
    #: `--` ends the options; every token after it is a positional (the server command).
    dashdash: bool = False
    #: Positionals after `arg`, each like it (`diff OLD NEW`: at most one token each).
    more: tuple[str, ...] = ()


def run_canonicalize(
    files: list[str], check: bool, in_place: bool, output: str | None, jcs: bool, protocol: str
) -> int:
    """The `canonicalize` command's body."""
    from catalogaudit.verbs import canonicalize

    return canonicalize.run(canonicalize.options(files, check, in_place, output, jcs, protocol))


def run_hash(file: str, fmt: HashFormat, protocol: str) -> int:
    """The `hash` command's body."""
    from catalogaudit.verbs import canonicalize

    return canonicalize.run_hash(file, fmt, protocol)


#: The contract options of `audit` (verbs.contract.KEYS), by parameter name; spelled out
#: here so the table needs no import.
CONTRACT_OPTIONS = tuple(
    f"{verb}_{kind}"
    for kind in ("tool", "prompt", "resource", "template")
    for verb in ("expect", "forbid")
) + ("min_tools", "min_prompts", "min_resources", "min_templates")


def run_audit(
    args: list[str] | None, live: bool, output_format: OutputFormat | None, **given: Any
) -> int:
    """The `audit` command's body: every option by its parameter name."""
    from catalogaudit.verbs import audit as run
    from catalogaudit.verbs.live import SnapshotOptions

    words = tuple(args or ())
    many = ("header", "env", "profile", "profile_setting", "select", "ignore")
    o: dict[str, Any] = {k: tuple(v or ()) if k in many else v for k, v in given.items()}
    snapshot = SnapshotOptions(
        command=words if live else (),
        url=o["url"],
        headers=o["header"],
        cwd=o["cwd"],
        env=o["env"],
        protocol=o["protocol"],
        client_capabilities=o["client_capabilities"],
        timeout=o["timeout"],
        secrets=tuple(o.get("secret") or ()),
        inherit_env=bool(o.get("inherit_env")),
    )
    from catalogaudit.verbs.contract import from_parameters

    contract = from_parameters(o)
    options = run.AuditRunOptions(
        inputs=() if live else words,
        live=live,
        snapshot=snapshot,
        profiles=o["profile"],
        profile_settings=o["profile_setting"],
        server_name=o["server_name"],
        gateway_name=o["gateway_name"],
        revision=o["revision"],
        output_format=output_format.value if output_format else None,
        output=o["output"],
        fail_on=o["fail_on"],
        select=o["select"],
        ignore=o["ignore"],
        baseline=o["baseline"],
        write_baseline=o["write_baseline"],
        show_matrix=o["show_matrix"],
        config=o["config"],
        color=o["color"],
        substitutions=o["substitutions"],
        substitutions_from_env=o["substitutions_from_env"],
        suggest=o["suggest"],
        contract=contract,
        strict_baseline=bool(o.get("strict_baseline")),
        expand=bool(o.get("expand")),
        max_chars=o.get("max_chars"),
        jobs=o.get("jobs") or 0,
    )
    return run.run(options)


def run_snapshot(command: list[str] | None, **given: Any) -> int:
    """The `snapshot` command's body: every option by its parameter name."""
    from catalogaudit.verbs import live
    from catalogaudit.verbs import snapshot as run
    from catalogaudit.verbs.contract import from_parameters

    o = given
    options = live.SnapshotOptions(
        command=tuple(command or ()),
        url=o["url"],
        transport=o["transport"],
        headers=tuple(o["header"] or ()),
        cwd=o["cwd"],
        env=tuple(o["env"] or ()),
        protocol=o["protocol"],
        client_capabilities=o["client_capabilities"],
        runs=o["runs"],
        jobs=o["jobs"],
        timeout=o["timeout"],
        startup_timeout=o["startup_timeout"],
        request_timeout=o["request_timeout"],
        max_pages=o["max_pages"],
        max_message_size=o["max_message_size"],
        max_total_bytes=o["max_total_bytes"],
        wire=not o["no_wire"],
        legacy_probe=o["legacy_probe"],
        static_inputs=tuple(o["from_"] or ()),
        output=o["output"],
        contract=from_parameters(o),
        secrets=tuple(o["secret"] or ()),
        inherit_env=o["inherit_env"],
    )
    return run.snapshot(options)


def run_diff(old: str | None, new: str | None, **given: Any) -> int:
    """The `diff` command's body: every option by its parameter name."""
    from catalogaudit.verbs import diff

    return diff.run_diff(diff.options_of(old, new, given))


def _o(
    name: str, kind: Kind = "text", default: Any = None, dest: str = "", minimum: int | None = None
) -> Opt:
    names = tuple(name.split("|"))
    return Opt(names, dest or names[-1].lstrip("-").replace("-", "_"), kind, default, minimum)


VERBS: dict[str, Verb] = {
    "hash": Verb(
        "file",
        1,
        True,
        (_o("--format", HashFormat, HashFormat.TEXT, "fmt"), _o("--protocol", default="auto")),
        run_hash,
    ),
    "canonicalize": Verb(
        "files",
        -1,
        True,
        (
            _o("--check", "flag", False),
            _o("--in-place", "flag", False),
            _o("-o|--output"),
            _o("--jcs", "flag", False),
            _o("--protocol", default="auto"),
        ),
        run_canonicalize,
    ),
    "audit": Verb(
        "args",
        -1,
        False,
        (
            _o("--live", "flag", False),
            _o("--url"),
            _o("--header", "many"),
            _o("--cwd"),
            _o("--env", "many"),
            _o("--protocol", default="auto"),
            _o("--client-capabilities", default="none"),
            _o("--timeout", "float", 300.0),
            _o("--profile", "many"),
            _o("--profile-setting", "many"),
            _o("--server-name"),
            _o("--gateway-name"),
            _o("--revision"),
            _o("--format", OutputFormat, None, "output_format"),
            _o("-o|--output", default="-"),
            _o("--fail-on"),
            _o("--select", "many"),
            _o("--ignore", "many"),
            _o("--baseline"),
            _o("--write-baseline"),
            _o("--matrix", "flag", False, "show_matrix"),
            _o("--config"),
            _o("--color", default="auto"),
            _o("--substitutions"),
            _o("--substitutions-from-env", "flag", False),
            _o("--suggest", "flag", False),
            _o("--inherit-env", "flag", False),
            _o("--secret", "many"),
            _o("--strict-baseline", "flag", False),
            _o("--expand", "flag", False),
            _o("--max-chars", TYPER),  # typer checks the bound (min=200)
            _o("--jobs", "int", 0, minimum=0),
            *(_o("--" + name.replace("_", "-"), "many") for name in CONTRACT_OPTIONS[:8]),
            # NOTE: typer checks the bound (min=0); a line with one of these goes to typer.
            *(_o("--" + name.replace("_", "-"), TYPER) for name in CONTRACT_OPTIONS[8:]),
        ),
        run_audit,
    ),
    "diff": Verb(
        "old",
        1,
        False,
        (
            _o("--fail-on", FailOn, FailOn.BREAKING),
            _o("--unknown", Unknown, Unknown.FAIL),
            _o("--format", DiffFormat, DiffFormat.TEXT, "fmt"),
            _o("-o|--output", default="-"),
            _o("--max-chars", TYPER),
            _o("--live", "flag", False),
            _o("--config"),
            _o("--schema-only", "flag", False),
            _o("--prose-only", "flag", False),
            _o("--allowlist"),
            _o("--summary", "flag", False),
            _o("--expand", "flag", False),
            *(_o("--" + name.replace("_", "-"), "many") for name in CONTRACT_OPTIONS[:8]),
            *(_o("--" + name.replace("_", "-"), TYPER) for name in CONTRACT_OPTIONS[8:]),
        ),
        run_diff,
        more=("new",),
    ),
    "snapshot": Verb(
        "command",
        -1,
        False,
        (
            _o("--url"),
            _o("--transport", default="auto"),
            _o("--header", "many"),
            _o("--cwd"),
            _o("--env", "many"),
            _o("--inherit-env", "flag", False),
            _o("--secret", "many"),
            _o("--protocol", default="auto"),
            _o("--client-capabilities", default="none"),
            # NOTE: `--runs 4 --jobs 2` parsed here too: typer's start-up would delay the servers.
            _o("--runs", "int", 1, minimum=1),
            _o("--jobs", "int", 1, minimum=1),
            _o("--timeout", "float", 300.0),
            _o("--startup-timeout", "float", 30.0),
            _o("--request-timeout", "float", 30.0),
            _o("--max-pages", "int", 1000, minimum=1),
            _o("--max-message-size", "int", 64 * 1024 * 1024, minimum=1024),
            _o("--max-total-bytes", "int", 256 * 1024 * 1024, minimum=1024),
            _o("--no-wire", "flag", False),
            _o("--legacy-probe", "flag", False),
            _o("--from", "many", None, "from_"),
            _o("-o|--output", default="-"),
            *(_o("--" + name.replace("_", "-"), "many") for name in CONTRACT_OPTIONS[:8]),
            *(_o("--" + name.replace("_", "-"), TYPER) for name in CONTRACT_OPTIONS[8:]),
        ),
        run_snapshot,
        dashdash=True,
    ),
}


def parse(args: list[str]) -> Callable[[], int] | None:
    """The verb's body bound to its parsed options, or None: typer must parse this line."""
    if os.environ.get("_CATALOGAUDIT_COMPLETE"):
        return None  # shell completion is typer's
    at = 0
    while at < len(args) and args[at] == "--traceback":
        at += 1
    verb = VERBS.get(args[at]) if at < len(args) else None
    if verb is None:
        return None
    got = _parse_verb(verb, args[at + 1 :])
    if got is None:
        return None
    return lambda: verb.body(**got)


def _parse_verb(verb: Verb, tokens: list[str]) -> dict[str, Any] | None:
    by_name = {name: opt for opt in verb.options for name in opt.names}
    values: dict[str, Any] = {opt.dest: opt.default for opt in verb.options}
    positional: list[str] = []
    rest = iter(tokens)
    for token in rest:
        if token == "--" and verb.dashdash:
            positional.extend(rest)
            break
        if token == "-" or not token.startswith("-"):
            positional.append(token)
            continue
        name, eq, inline = token.partition("=") if token.startswith("--") else (token, "", "")
        opt = by_name.get(name)
        if opt is None or opt.kind == TYPER:
            return None
        if opt.kind == "flag":
            if eq:
                return None
            values[opt.dest] = True
            continue
        raw = inline if eq else next(rest, None)
        if raw is None or (not eq and raw.startswith("-") and raw != "-"):
            return None
        value = _value(opt, raw)
        if value is None:
            return None
        if opt.kind == "many":
            values[opt.dest] = [*(values[opt.dest] or ()), value]
        else:
            values[opt.dest] = value
    if verb.more:
        if len(positional) > 1 + len(verb.more):
            return None
        names = (verb.arg, *verb.more)
        values.update(zip(names, [*positional, *[None] * len(names)], strict=False))
    elif verb.nargs == 1:
        if len(positional) != 1:
            return None
        values[verb.arg] = positional[0]
    else:
        if verb.required and not positional:
            return None
        values[verb.arg] = positional or None
    return values


def _value(opt: Opt, raw: str) -> Any:
    """The value typer would pass for `raw`, or None when typer must judge it."""
    kind = opt.kind
    if kind in ("text", "many"):
        return raw
    if kind == "int":
        # NOTE: plain ASCII digits only (typer also takes signs, spaces, `_`): the rest is its.
        if not (raw.isascii() and raw.isdigit()):
            return None
        number = int(raw)
        return None if opt.minimum is not None and number < opt.minimum else number
    if kind == "float":
        try:
            return float(raw)
        except ValueError:
            return None
    assert isinstance(kind, type)
    return next((member for member in kind if member.value == raw), None)


__all__ = [
    "VERBS",
    "parse",
    "run_audit",
    "run_canonicalize",
    "run_diff",
    "run_hash",
    "run_snapshot",
]
