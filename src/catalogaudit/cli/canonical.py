"""The `canonicalize` and `hash` verbs: parse options, call `catalogaudit.canonicalize`, print.

Exit codes: `canonicalize` 0 written (or already in written form), 1 with `--check`/`--in-place`
when a file changed or would change; `hash` 0; both 2 for usage or input errors (one `error:`
line, printed by `cli.main`).
"""

from __future__ import annotations

import enum
import sys
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from catalogaudit.errors import UsageError

if TYPE_CHECKING:
    from catalogaudit.verbs.canonicalize import Options

#: `--protocol` for inputs that do not say their revision (not snapshots).
ProtocolOpt = Annotated[
    str,
    typer.Option(
        "--protocol",
        help="Revision of inputs that do not say it: auto, legacy, modern or a revision.",
    ),
]


class HashFormat(str, enum.Enum):
    """Output formats of `catalogaudit hash`."""

    TEXT = "text"
    JSON = "json"


def options(
    inputs: list[str],
    check: bool,
    in_place: bool,
    output: str | None,
    jcs: bool,
    protocol: str,
) -> Options:
    """Validated `canonicalize.Options`: which option combinations make sense."""
    from catalogaudit.verbs.canonicalize import Options

    if check and in_place:
        raise UsageError("give --check or --in-place, not both")
    if output is not None and (check or in_place):
        raise UsageError("-o writes one file; it cannot be combined with --check or --in-place")
    if jcs and (check or in_place):
        raise UsageError("--jcs cannot be combined with --check or --in-place")
    if len(inputs) > 1 and (jcs or output is not None or not (check or in_place)):
        what = "--jcs" if jcs else "-o" if output is not None else "writing to stdout"
        raise UsageError(
            f"{what} takes one input, got {len(inputs)} (use --check or --in-place for several)"
        )
    if inputs.count("-") > 1:
        raise UsageError("- (stdin) can be given once")
    for spec in inputs:
        if in_place and (spec == "-" or spec.startswith("git:")):
            raise UsageError(f"--in-place cannot rewrite {spec} (not a file)")
    return Options(tuple(inputs), check, in_place, output, jcs, protocol)


def hash_text(report: dict[str, Any]) -> str:
    """`<hash>  <kind>  <subject>` lines, as sha256sum: catalog, then each listing and item."""
    from catalogaudit.model import jsonwire, names

    rows = [(report["catalog"][k], k, "catalog") for k in names.HASH_KINDS]
    for lname, entry in report["listings"].items():
        if "hashes" not in entry:
            rows.append((entry["status"], "listing", lname))
            continue
        rows.extend((entry["hashes"][k], k, lname) for k in (*names.HASH_KINDS, "pageFields"))
        for item in entry["items"]:
            ident = item["identity"]
            if ident is None:
                ident = f"#{item['servedPosition']}"
            elif not ident or ident.startswith("#") or any(c.isspace() or c == '"' for c in ident):
                ident = jsonwire.dump_string(ident)  # so the subject stays one unambiguous word
            rows.extend((item[k], k, f"{lname} {ident}") for k in names.HASH_KINDS)
    return "".join(f"{value:<71}  {kind:<10}  {subject}\n" for value, kind, subject in rows)


def register(app: typer.Typer) -> None:
    """Add `canonicalize` and `hash` to the app."""

    @app.command("canonicalize")
    def canonicalize_cmd(
        files: Annotated[
            list[str],
            typer.Argument(
                help="Snapshot, list result, JSON-RPC line, JSON Lines, - or git:REF:PATH.",
                metavar="FILE",
                show_default=False,
            ),
        ],
        check: Annotated[
            bool, typer.Option("--check", help="Print a diff; exit 1 if any file would change.")
        ] = False,
        in_place: Annotated[
            bool, typer.Option("--in-place", help="Rewrite the files; exit 1 if any changed.")
        ] = False,
        output: Annotated[
            Optional[str],  # noqa: UP045 - typer needs Optional on 3.10
            typer.Option("-o", "--output", help="Output file ('-' for stdout, the default)."),
        ] = None,
        jcs: Annotated[
            bool,
            typer.Option(
                "--jcs", help="Print the RFC 8785 bytes of any JSON document (no newline)."
            ),
        ] = False,
        protocol: ProtocolOpt = "auto",
    ) -> None:
        """Write inputs in the one written form `snapshot` writes, hashes recomputed.

        A snapshot with a wire section is rebuilt from it: hand edits show as a diff.

        Exit codes: 0 done; 1 a file changed or would change (--check, --in-place); 2 error.
        """
        from catalogaudit.verbs import canonicalize

        opts = options(files, check, in_place, output, jcs, protocol)
        raise typer.Exit(canonicalize.run(opts))

    @app.command("hash")
    def hash_cmd(
        file: Annotated[
            str,
            typer.Argument(
                help="Snapshot, list result, JSON-RPC line, JSON Lines, - or git:REF:PATH.",
                metavar="FILE",
                show_default=False,
            ),
        ],
        fmt: Annotated[HashFormat, typer.Option("--format", help="Output format.")] = (
            HashFormat.TEXT
        ),
        protocol: ProtocolOpt = "auto",
    ) -> None:
        """Print the served, prompt and canonical hashes per item, per listing and for the catalog.

        Exit codes: 0 printed, 2 usage or input error.
        """
        from catalogaudit.formatters.base import assert_never
        from catalogaudit.model import jsonwire
        from catalogaudit.verbs import canonicalize

        report, notes = canonicalize.hashes_of(file, protocol)
        sys.stderr.write("".join(f"{note}\n" for note in notes))
        if fmt is HashFormat.JSON:
            sys.stdout.write(jsonwire.written(report))
        elif fmt is HashFormat.TEXT:
            sys.stdout.write(hash_text(report))
        else:
            assert_never(fmt)
        raise typer.Exit(0)
