"""`catalogaudit audit`, `rules` and `rule ID`: typer options in, the verbs do the rest."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from catalogaudit.cli import contract as c
from catalogaudit.cli.options import (
    AuditFailOn,
    Color,
    ColorOpt,
    MaxChars,
    Transport,
    TransportOpt,
    complete_profiles,
    complete_rules,
    complete_selectors,
    server_options,
)
from catalogaudit.formatters import OutputFormat, RuleFormat, RulesFormat

List = list[str] | None


def register(app: typer.Typer) -> None:
    """Add the verbs to the app."""
    app.command()(audit)
    app.command()(rules)
    app.command()(rule)


def audit(
    args: Annotated[
        List,
        typer.Argument(
            help="Files to audit, or with --live the server command after --.", show_default=False
        ),
    ] = None,
    live: Annotated[
        bool, typer.Option("--live", help="Snapshot the server after -- first.")
    ] = False,
    url: Annotated[str | None, typer.Option(help="Audit a live Streamable HTTP server.")] = None,
    transport: TransportOpt = Transport.AUTO,
    header: Annotated[List, typer.Option("--header", help="'Name: value' (env:VAR).")] = None,
    cwd: Annotated[str | None, typer.Option(help="Live server working directory.")] = None,
    env: Annotated[List, typer.Option("--env", help="KEY=VALUE for a live server.")] = None,
    inherit_env: Annotated[
        bool,
        typer.Option("--inherit-env", help="Pass a live server our whole environment."),
    ] = False,
    secret: Annotated[
        List, typer.Option("--secret", help="A value to mask in server text (env:VAR).")
    ] = None,
    protocol: Annotated[str, typer.Option(help="auto, legacy, modern or a revision.")] = "auto",
    client_capabilities: Annotated[str, typer.Option(help="none or full.")] = "none",
    timeout: Annotated[float, typer.Option(help="Seconds for the whole live capture.")] = 300.0,
    profile: Annotated[
        List,
        typer.Option(
            "--profile",
            help="ID or ID@VERSION; repeatable. Default: spec.",
            autocompletion=complete_profiles,
        ),
    ] = None,
    profile_setting: Annotated[
        List, typer.Option("--profile-setting", help="Enforcer setting KEY=VALUE.")
    ] = None,
    server_name: Annotated[
        str | None, typer.Option(help="Server name for qualified-name checks.")
    ] = None,
    gateway_name: Annotated[str | None, typer.Option(help="Gateway name (ContextForge).")] = None,
    revision: Annotated[str | None, typer.Option(help="Protocol revision to audit as.")] = None,
    output_format: Annotated[
        Optional[OutputFormat],  # noqa: UP045 - typer needs Optional on 3.10
        typer.Option("--format", help="Report format (default: config's format, else text)."),
    ] = None,
    output: Annotated[str, typer.Option("-o", "--output", help="Report file ('-' stdout).")] = "-",
    fail_on: Annotated[
        Optional[AuditFailOn],  # noqa: UP045 - typer needs Optional on 3.10
        typer.Option(help="Exit 1 at or above this severity (default: config, else error)."),
    ] = None,
    select: Annotated[
        List,
        typer.Option(
            "--select",
            help="Rule id, prefix, name or profile.",
            autocompletion=complete_selectors,
        ),
    ] = None,
    ignore: Annotated[
        List,
        typer.Option(
            "--ignore",
            help="Rule id, prefix, name or profile.",
            autocompletion=complete_selectors,
        ),
    ] = None,
    baseline: Annotated[str | None, typer.Option(help="Fingerprints to suppress.")] = None,
    write_baseline: Annotated[
        str | None, typer.Option(help="Write the findings' fingerprints.")
    ] = None,
    show_matrix: Annotated[bool, typer.Option("--matrix", help="Every profile's verdict.")] = False,
    config: Annotated[str | None, typer.Option(help="Configuration file.")] = None,
    color: ColorOpt = Color.AUTO,
    substitutions: Annotated[
        str | None,
        typer.Option(help="Audit as if prose were rewritten with these old=new pairs."),
    ] = None,
    substitutions_from_env: Annotated[
        bool,
        typer.Option(
            "--substitutions-from-env", help="Take --substitutions from CATALOGAUDIT_SUBSTITUTIONS."
        ),
    ] = False,
    suggest: Annotated[
        bool,
        typer.Option("--suggest", help="Propose substitutions that clear the prose findings."),
    ] = False,
    strict_baseline: Annotated[
        bool,
        typer.Option(
            "--strict-baseline", help="A baseline entry that matches nothing fails (CA920)."
        ),
    ] = False,
    expand: Annotated[
        bool, typer.Option("--expand", help="Text: one block per finding, nothing folded.")
    ] = False,
    max_chars: MaxChars = None,
    jobs: Annotated[
        int, typer.Option(min=0, help="Processes for many files or a big catalog (0: per CPU).")
    ] = 0,
    expect_tool: c.ExpectTool = None,
    forbid_tool: c.ForbidTool = None,
    min_tools: c.MinTools = None,
    expect_prompt: c.ExpectPrompt = None,
    forbid_prompt: c.ForbidPrompt = None,
    min_prompts: c.MinPrompts = None,
    expect_resource: c.ExpectResource = None,
    forbid_resource: c.ForbidResource = None,
    min_resources: c.MinResources = None,
    expect_template: c.ExpectTemplate = None,
    forbid_template: c.ForbidTemplate = None,
    min_templates: c.MinTemplates = None,
) -> None:
    """Audit catalogs against the MCP spec and client, gateway and LLM profiles.

    Exit codes: 0 clean, 1 findings at or above --fail-on, 2 errors (including a rule that
    crashed).
    """
    raise typer.Exit(_run(dict(locals())))


def _run(o: dict[str, Any]) -> int:
    """The `audit` command's body: every option by its parameter name."""
    from catalogaudit.verbs import AuditRunOptions, from_parameters, run_audit

    words = tuple(o["args"] or ())
    live = o["live"]
    snapshot = server_options(o, words if live else (), skip=("jobs", "output"))
    output_format = o["output_format"]
    options = AuditRunOptions(
        inputs=() if live else words,
        live=live,
        snapshot=snapshot,
        profiles=tuple(o["profile"] or ()),
        profile_settings=tuple(o["profile_setting"] or ()),
        server_name=o["server_name"],
        gateway_name=o["gateway_name"],
        revision=o["revision"],
        output_format=output_format.value if output_format else None,
        output=o["output"],
        fail_on=o["fail_on"].value if o["fail_on"] else None,
        select=tuple(o["select"] or ()),
        ignore=tuple(o["ignore"] or ()),
        baseline=o["baseline"],
        write_baseline=o["write_baseline"],
        show_matrix=o["show_matrix"],
        config=o["config"],
        color=o["color"].value,
        substitutions=o["substitutions"],
        substitutions_from_env=o["substitutions_from_env"],
        suggest=o["suggest"],
        contract=from_parameters(o),
        strict_baseline=o["strict_baseline"],
        expand=o["expand"],
        max_chars=o["max_chars"],
        jobs=o["jobs"],
    )
    return run_audit(options)


def rules(
    output_format: Annotated[
        RulesFormat, typer.Option("--format", help="Output format.")
    ] = RulesFormat.TEXT,
) -> None:
    """List every rule (spec and profiles) with its origin, severity, summary and source."""
    from catalogaudit.verbs import rules_listing

    raise typer.Exit(rules_listing(output_format))


def rule(
    rule_id: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="A rule id (CA101, CC-SCHEMA-001, CA801) or rule name.",
            show_default=False,
            autocompletion=complete_rules,
        ),
    ],
    output_format: Annotated[
        RuleFormat, typer.Option("--format", help="Output format.")
    ] = RuleFormat.TEXT,
) -> None:
    """Explain one rule: what it checks, why, its severity and evidence, its sources, and a
    failing and a passing example from its fixtures."""
    from catalogaudit.verbs import run_rule

    raise typer.Exit(run_rule(rule_id, output_format))


__all__: list[Any] = ["register"]
