"""The `diff` and `stability` verbs: parse options, load inputs, call the core, print, exit.

Exit codes: `diff` 0 nothing at or above `--fail-on`, 1 something is; `stability` 0 stable,
1 not stable; both 2 for usage or input errors (one `error:` line, printed by `cli.main`).
"""

from __future__ import annotations

import enum
import gc
from collections.abc import Callable
from typing import Annotated, Any

import typer

from catalogaudit.errors import UsageError
from catalogaudit.formatters.diff import DiffFormat
from catalogaudit.formatters.stability import StabilityFormat


class FailOn(str, enum.Enum):
    """`--fail-on` threshold: cosmetic < model-visible < breaking."""

    NEVER = "never"
    COSMETIC = "cosmetic"
    MODEL_VISIBLE = "model-visible"
    BREAKING = "breaking"


class Unknown(str, enum.Enum):
    """What an undecidable (`unknown`) change counts as."""

    FAIL = "fail"
    IGNORE = "ignore"


OutputOpt = Annotated[
    str, typer.Option("-o", "--output", help="Write the report here ('-' for stdout).")
]


def load_inputs(specs: list[str]) -> tuple[list[list[Any]], list[str]]:
    """Read inputs through the shared loader (non-snapshots become static snapshots); each
    input gives its sides (several for a `snapshot --runs N` file) and notes on what it held."""
    if sum(1 for s in specs if s == "-") > 1:
        raise UsageError("- (stdin) can be given once")
    groups: list[list[Any]] = []
    notes: list[str] = []
    seen: dict[str, int] = {}
    # NOTE: parsing allocates a container per JSON object and frees none, so the cyclic GC
    # runs over and over for nothing on big catalogs; parsed JSON holds no cycles.
    paused = gc.isenabled()
    gc.disable()
    try:
        for spec in specs:
            _load_one(spec, seen, groups, notes)
    finally:
        if paused:
            gc.enable()
    return groups, notes


def _load_one(spec: str, seen: dict[str, int], groups: list[list[Any]], notes: list[str]) -> None:
    from catalogaudit.diff import sides as compare
    from catalogaudit.intake import loader, static
    from catalogaudit.model.protocol import parse_protocol
    from catalogaudit.snapshot import build as snapshot

    loaded = loader.load(spec)
    label = spec if spec != "-" else "<stdin>"
    seen[label] = seen.get(label, 0) + 1
    if seen[label] > 1:
        label = f"{label} ({seen[label]})"
    if loaded.snapshot is not None:
        doc = loaded.snapshot
    else:
        doc = snapshot.build(static.merge([(spec, loaded)], parse_protocol("auto")))
        notes.extend(f"{label}: {note}" for note in loaded.inferred)
    sides, more = compare.sides_of(label, doc)
    groups.append(sides)
    notes.extend(more)


def _emit(output: str, text: str) -> None:
    from catalogaudit.snapshot.build import emit

    emit(output, text)


def _line_of(spec: str, side: Any) -> Callable[[Any], int] | None:
    """For SARIF: the line of a change in NEW, when NEW is a snapshot file in the written form
    (as `snapshot` and `canonicalize` write it); else every result points at line 1."""
    from catalogaudit.intake import loader
    from catalogaudit.model import jsonwire
    from catalogaudit.model.catalog import written_positions

    if spec == "-" or side.doc is None:
        return None
    text, _ = jsonwire.decode_utf8(loader.read_bytes(spec))
    if jsonwire.written(side.doc) != text:
        return None
    lines = {pointer: line for pointer, (line, _) in written_positions(side.doc).items()}

    def line_of(change: Any) -> int:
        where = f"/listings/{change.listing}"
        if change.position is not None:
            positions = side.record(change.listing).get("servedPositions") or []
            index = positions.index(change.position) if change.position in positions else None
            where += f"/items/{index}{change.pointer}" if index is not None else ""
        while where and where not in lines:  # a removed key: point at its nearest parent
            where = where.rsplit("/", 1)[0]
        return lines.get(where, 1)

    return line_of


def _stderr(lines: list[str]) -> None:
    from rich.console import Console

    console = Console(stderr=True, soft_wrap=True)
    for line in lines:
        console.print(line, highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    """Add `diff` and `stability` to the app."""

    @app.command("diff")
    def diff_cmd(
        old: Annotated[
            str | None,
            typer.Argument(
                help="Old catalog: file, -, or git:REF:PATH (--live: default the configured "
                "snapshot).",
                show_default=False,
            ),
        ] = None,
        new: Annotated[
            str | None,
            typer.Argument(help="New catalog: file, -, or git:REF:PATH.", show_default=False),
        ] = None,
        fail_on: Annotated[
            FailOn, typer.Option("--fail-on", help="Exit 1 at or above this level.")
        ] = FailOn.BREAKING,
        unknown: Annotated[
            Unknown,
            typer.Option(
                help="fail: undecidable changes count as breaking; ignore: as model-visible."
            ),
        ] = Unknown.FAIL,
        fmt: Annotated[DiffFormat, typer.Option("--format", help="Report format.")] = (
            DiffFormat.TEXT
        ),
        output: OutputOpt = "-",
        live: Annotated[
            bool,
            typer.Option(
                "--live",
                help="Snapshot the configured server now, with the committed snapshot's capture "
                "settings, and diff the committed snapshot against it.",
            ),
        ] = False,
        config: Annotated[str | None, typer.Option(help="Configuration file (for --live).")] = None,
    ) -> None:
        """Classify what changed between two catalogs (breaking, unknown, model-visible,
        additive, compatible, cosmetic).

        Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 errors.
        """
        from catalogaudit.diff import items as core
        from catalogaudit.formatters import diff as fmt_diff

        if live:
            (olds, news), notes = live_inputs(old, new, config)
        elif old is None or new is None:
            raise UsageError("give the OLD and NEW catalogs (or --live)")
        else:
            (olds, news), notes = load_inputs([old, new])
        if len(olds) > 1 or len(news) > 1:
            notes.append("an input holds several runs of snapshot --runs; diff compares run 1")
        result = core.diff(olds[0], news[0])
        result.notes.extend(notes)
        line_of = _line_of(new, news[0]) if fmt is DiffFormat.SARIF and new else None
        _emit(output, fmt_diff.render(result, fmt, fail_on.value, unknown.value, line_of))
        shown = fmt is DiffFormat.TEXT and output == "-"
        _stderr([] if shown else [f"warning: {w['message']}" for w in result.warnings])
        _stderr([fmt_diff.summary(result, fail_on.value, unknown.value)])
        raise typer.Exit(result.exit_code(fail_on.value, unknown.value))

    @app.command("stability")
    def stability_cmd(
        files: Annotated[
            list[str],
            typer.Argument(
                help="Snapshots or captures of one server; one `snapshot --runs N` file is enough."
            ),
        ],
        fmt: Annotated[
            StabilityFormat, typer.Option("--format", help="Report format.")
        ] = StabilityFormat.TEXT,
        output: OutputOpt = "-",
    ) -> None:
        """Say per listing and item whether captures agree: stable, bytes-only (the cause
        named) or content, with the JSON paths that changed and the prompt-cache cost.

        Exit codes: 0 stable, 1 not stable, 2 errors.
        """
        from catalogaudit.diff import stability as core
        from catalogaudit.formatters import stability as fmt_stab

        groups, notes = load_inputs(files)
        sides = [side for group in groups for side in group]
        if len(sides) < 2 and not sides[0].lost_runs:
            raise UsageError(
                "stability needs two or more captures: several files, or one snapshot "
                "written with --runs N (N >= 2)"
            )
        report = core.report(sides, notes)
        _emit(output, fmt_stab.render(report, fmt))
        shown = fmt is StabilityFormat.TEXT and output == "-"
        _stderr([] if shown else [f"warning: {w['message']}" for w in report["warnings"]])
        _stderr([fmt_stab.summary(report)])
        raise typer.Exit(0 if report["stable"] else 1)


def live_inputs(
    old: str | None, new: str | None, config: str | None
) -> tuple[list[list[Any]], list[str]]:
    """`diff --live` (the manual-stage pre-commit hook): the committed snapshot against the
    configured server captured now with the committed capture settings (protocol requested,
    client capabilities, TZ/LANG/LC_*), so "the server changed" is not "captured differently"."""
    from catalogaudit.diff import sides as compare
    from catalogaudit.intake import loader
    from catalogaudit.model.protocol import parse_protocol
    from catalogaudit.snapshot import build as snap
    from catalogaudit.verbs import config as cfg
    from catalogaudit.verbs.snapshot import SnapshotOptions, _limits, _target
    from catalogaudit.wire.capture import capture

    if new is not None:
        raise UsageError("--live diffs one committed snapshot against the live server")
    conf, where = cfg.load(config)
    path = old or conf.get("snapshot")
    if not path:
        raise UsageError("--live needs the committed snapshot: give it, or set snapshot in config")
    loaded = loader.load(str(path))
    if loaded.snapshot is None:
        raise UsageError(f"{path}: --live needs a catalogaudit snapshot, not a {loaded.form}")
    committed = loaded.snapshot
    server = conf.get("server") or {}
    if not server.get("command") and not server.get("url"):
        raise UsageError(
            f"--live needs the server in configuration ({where or 'pyproject.toml'}): "
            "[tool.catalogaudit] server = {command = [...]} or {url = ...}"
        )
    captured: dict[str, Any] = committed.get("capture") or {}
    proto: dict[str, Any] = captured.get("protocol") or {}
    command = server.get("command") or ()
    if isinstance(command, str):
        import shlex

        command = shlex.split(command)
    headers = server.get("headers") or ()
    if isinstance(headers, dict):
        headers = [f"{k}: {v}" for k, v in headers.items()]
    recorded: dict[str, Any] = (captured.get("server") or {}).get("environment") or {}
    _recorded_environment(recorded.get("values") or {})
    options = SnapshotOptions(
        command=tuple(str(c) for c in command),
        url=server.get("url"),
        headers=tuple(str(h) for h in headers),
        cwd=server.get("cwd"),
        protocol=server.get("protocol") or proto.get("requested") or "auto",
    )
    caps = captured.get("clientCapabilities")
    if server.get("client-capabilities"):
        from catalogaudit.model.protocol import client_capabilities

        caps = client_capabilities(server["client-capabilities"])
    doc = snap.build(
        capture(_target(options), parse_protocol(options.protocol), caps or {}, _limits(options)),
        wire="wire" in committed,
    )
    label = loader.display_name(str(path))
    olds, notes = compare.sides_of(label, committed)
    news, more = compare.sides_of("<live>", doc)
    return [olds, news], [*notes, *more]


def _recorded_environment(values: dict[str, Any]) -> None:
    """Give the server the TZ, LANG and LC_* the committed capture recorded (and unset those
    it did not have): real catalogs embed them. Set in our own environment rather than with
    --env, so the capture block records them the same way the committed one did."""
    import os

    from catalogaudit.wire.capture import ENV_VALUE_ALLOW, ENV_VALUE_PREFIX

    for key in list(os.environ):
        if (key in ENV_VALUE_ALLOW or key.startswith(ENV_VALUE_PREFIX)) and key not in values:
            del os.environ[key]
    os.environ.update({str(k): str(v) for k, v in values.items()})
