"""`catalogaudit audit`, `rules` and `rule ID`: typer options in, the verbs do the rest."""

from typing import Annotated, Any

import typer

from catalogaudit.cli.options import (
    CHECKED,
    CONTRACT,
    REACH,
    START,
    AuditFailOn,
    ColorOpt,
    ConfigOpt,
    FormatOpt,
    Group,
    List,
    MaxChars,
    TimeoutOpt,
    complete_rules,
    complete_selectors,
    filled,
    grouped,
    server_options,
)
from catalogaudit.cli.root import app
from catalogaudit.formatters import OutputFormat, RuleFormat, RulesFormat


def _selector(flag: str) -> Any:
    return typer.Option(
        flag, help="Rule id, prefix, name or profile.", autocompletion=complete_selectors
    )


@app.command()
@grouped
def audit(
    args: Annotated[
        List, typer.Argument(help="Files to audit, or with --live the server command after --.")
    ] = None,
    live: Annotated[
        bool, typer.Option("--live", help="Snapshot the server after -- first.")
    ] = False,
    _reach: Group = REACH,
    _start: Group = START,
    timeout: TimeoutOpt = 300.0,
    _checked: Group = CHECKED,
    output_format: Annotated[
        OutputFormat | None,
        typer.Option("--format", help="Report format (default: config's format, else text)."),
    ] = None,
    output: Annotated[str, typer.Option("-o", "--output", help="Report file ('-' stdout).")] = "-",
    fail_on: Annotated[
        AuditFailOn | None,
        typer.Option(help="Exit 1 at or above this severity (default: config, else error)."),
    ] = None,
    select: Annotated[List, _selector("--select")] = None,
    ignore: Annotated[List, _selector("--ignore")] = None,
    baseline: Annotated[str | None, typer.Option(help="Fingerprints to suppress.")] = None,
    write_baseline: Annotated[
        str | None, typer.Option(help="Write the findings' fingerprints.")
    ] = None,
    show_matrix: Annotated[bool, typer.Option("--matrix", help="Every profile's verdict.")] = False,
    config: ConfigOpt = None,
    color: ColorOpt = "auto",
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
        int,
        typer.Option(min=0, help="Processes auditing many snapshot files at once (0: per CPU)."),
    ] = 0,
    _contract: Group = CONTRACT,
    **given: Any,
) -> None:
    """Audit catalogs against the MCP spec and client, gateway and LLM profiles.

    Exit codes: 0 clean, 1 findings at or above --fail-on, 2 errors (including a rule that
    crashed).
    """
    from catalogaudit.verbs import AuditRunOptions, from_parameters, run_audit

    o = {**locals(), **given}
    words = tuple(args or ())
    snapshot = server_options(o, words if live else (), skip=("jobs", "output"))
    contract = from_parameters(o)
    options = filled(
        AuditRunOptions, o, inputs=() if live else words, snapshot=snapshot, contract=contract
    )
    raise typer.Exit(run_audit(options))


@app.command()
def rules(
    output_format: FormatOpt[RulesFormat] = RulesFormat.TEXT,
) -> None:
    """List every rule (spec and profiles) with its origin, severity, summary and source."""
    from catalogaudit.verbs import rules_listing

    raise typer.Exit(rules_listing(output_format))


@app.command()
def rule(
    rule_id: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="A rule id (CA101, CC-SCHEMA-001, CA801) or rule name.",
            autocompletion=complete_rules,
        ),
    ],
    output_format: FormatOpt[RuleFormat] = RuleFormat.TEXT,
) -> None:
    """Explain one rule: what it checks, why, its severity and evidence, its sources, and a
    failing and a passing example from its fixtures."""
    from catalogaudit.verbs import run_rule

    raise typer.Exit(run_rule(rule_id, output_format))
