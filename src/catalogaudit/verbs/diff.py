"""`catalogaudit diff` and `catalogaudit stability`: read the catalogs (the one intake, or the
one live capture for `diff --live`), classify, render, and return the exit code.

Exit codes: `diff` 0 nothing at or above `--fail-on`, 1 something is; `stability` 0 stable,
1 not stable; both 2 for usage or input errors.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catalogaudit import intake
from catalogaudit.diffing import DiffReport, diff, sides_of, stability_report
from catalogaudit.errors import UsageError
from catalogaudit.formatters import (
    DEFAULT_MAX_CHARS,
    DiffFormat,
    StabilityFormat,
    diff_summary,
    render_diff,
    render_stability,
    stability_summary,
)
from catalogaudit.model import (
    Catalog,
    Finder,
    client_capabilities,
    decode_utf8,
    identity,
    written,
)
from catalogaudit.verbs import config as cfg
from catalogaudit.verbs import contract, live, output, terminal
from catalogaudit.verbs.live import SnapshotOptions
from catalogaudit.wire import ENV_VALUE_ALLOW, ENV_VALUE_PREFIX


@dataclass(frozen=True)
class DiffOptions:
    """What `catalogaudit diff` was asked to do."""

    old: str | None = None
    new: str | None = None
    fail_on: str = "breaking"
    unknown: str = "fail"
    fmt: DiffFormat = DiffFormat.TEXT
    output: str = "-"
    live: bool = False
    config: str | None = None
    #: `--schema-only` (schema) or `--prose-only` (prose); all: everything.
    mode: str = "all"
    #: `--allowlist FILE`: names or globs whose removal or rename is breaking (CA805).
    allowlist: str | None = None
    #: `--summary`: one line per class and rule; `--expand`: a folded change lists its parts.
    summary: bool = False
    expand: bool = False
    #: `--expect-tool`, `--forbid-tool`, `--min-tools`, ... on the new catalog.
    contract: dict[str, Any] = field(default_factory=dict)
    #: `--max-chars`: the Markdown's budget (None: `formatters.md.DEFAULT_MAX_CHARS`).
    max_chars: int | None = None
    #: `--accepted FILE` (None: config `accepted`, else catalogaudit.accepted.toml if present);
    #: `--accept REASON` writes an entry there for each failing change, `--expires DATE` theirs.
    accepted: str | None = None
    accept: str | None = None
    expires: str | None = None
    #: `--color auto|always|never` of the text report (`verbs.terminal.color`).
    color: str = "auto"
    #: `--prices FILE`: price data for the prompt-cache bill (None: the built-in data).
    prices: str | None = None


@dataclass(frozen=True)
class StabilityOptions:
    """What `catalogaudit stability` was asked to do."""

    files: tuple[str, ...]
    fmt: StabilityFormat = StabilityFormat.TEXT
    output: str = "-"
    max_chars: int | None = None
    color: str = "auto"
    prices: str | None = None


#: The formats that point at a change's line in the file (the bytes read are kept for them).
_LINED = (DiffFormat.SARIF, DiffFormat.GITHUB, DiffFormat.JUNIT, DiffFormat.GITLAB)


def run_diff(o: DiffOptions) -> int:
    """Classify what changed between two catalogs; 1 when a change reaches `--fail-on`."""
    if o.mode not in ("all", "schema", "prose"):
        raise UsageError("--schema-only and --prose-only exclude each other")
    from catalogaudit.verbs.bill import bill_of, load_prices

    load_prices(o.prices)  # NOTE: a bad --prices file is refused before any input is read
    old_bytes = new_bytes = b""
    if o.live:
        (olds, news), notes = live_inputs(o.old, o.new, o.config)
    elif o.old is None or o.new is None:
        raise UsageError("give the OLD and NEW catalogs (or --live)")
    else:
        lines = o.fmt in _LINED
        (olds, news), notes, (old_bytes, new_bytes) = _read_inputs([o.old, o.new], keep=lines)
    if len(olds) > 1 or len(news) > 1:
        notes.append("an input holds several runs of snapshot --runs; diff compares run 1")
    conf, _ = cfg.load(o.config)
    assertions = contract.resolve(o.contract, conf)
    result = diff(olds[0], news[0], o.mode, _allowlist(o.allowlist))
    result.notes.extend(notes)
    result.prompt_cache = bill_of([olds[0], news[0]], o.prices, changed_only=True)
    if assertions and news[0].doc is not None:
        new_catalog = Catalog(news[0].doc, source=news[0].label)
        result.assertions = contract.findings(new_catalog, assertions)
    _accepted(o, conf, result)
    file: str | None = None
    line_of: Callable[[Any], int | None] | None = None
    if o.fmt in _LINED:
        file, line_of = _pointed_at(o, (olds[0], old_bytes), (news[0], new_bytes))
    color = o.fmt is DiffFormat.TEXT and terminal.color(o.color, o.output)
    text = render_diff(
        result,
        o.fmt,
        o.fail_on,
        o.unknown,
        line_of,
        brief=o.summary,
        expand=o.expand,
        max_chars=o.max_chars or DEFAULT_MAX_CHARS,
        file=file,
        color=color,
        width=terminal.width(o.output),
    )
    output.emit(o.output, text, styled=color)
    shown = o.fmt is DiffFormat.TEXT and o.output == "-"
    _stderr([] if shown else [f"warning: {w['message']}" for w in result.warnings])
    _stderr([diff_summary(result, o.fail_on, o.unknown)])
    return result.exit_code(o.fail_on, o.unknown)


def _accepted(o: DiffOptions, conf: dict[str, Any], result: DiffReport) -> None:
    """Apply the accepted-changes file; with `--accept REASON`, first add what still fails."""
    from catalogaudit.verbs import accepted

    path = accepted.path_of(o.accepted, conf, writing=o.accept is not None)
    accepted.apply(result, path)
    if o.accept is not None and path is not None:
        n = accepted.write(path, result, o.fail_on, o.unknown, o.accept, o.expires)
        _stderr([f"accepted: {n} change{'s' if n != 1 else ''} written to {path}"])
    elif o.expires is not None:
        raise UsageError("--expires goes with --accept REASON")


def _allowlist(path: str | None) -> list[Any]:
    """`--allowlist FILE`: names or globs, one a line (`#` comments)."""
    if path is None:
        return []
    from pathlib import Path

    from catalogaudit.diffing import read_allowlist

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--allowlist {path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise UsageError(f"--allowlist {path}: not UTF-8 text") from None
    entries = read_allowlist(text, path)
    if not entries:
        raise UsageError(f"--allowlist {path}: no names in the file")
    return entries


def run_stability(o: StabilityOptions) -> int:
    """Say per listing and item whether captures agree; 1 when they do not."""
    from catalogaudit.verbs.bill import load_prices
    from catalogaudit.verify import client_prompts

    prices = load_prices(o.prices)
    groups, notes = load_inputs(list(o.files))
    sides = [side for group in groups for side in group]
    if len(sides) < 2 and not sides[0].lost_runs:
        raise UsageError(
            "stability needs two or more captures: several files, or one snapshot "
            "written with --runs N (N >= 2)"
        )
    report = stability_report(sides, notes, client_prompts(sides), prices)
    color = o.fmt is StabilityFormat.TEXT and terminal.color(o.color, o.output)
    text = render_stability(
        report,
        o.fmt,
        max_chars=o.max_chars or DEFAULT_MAX_CHARS,
        color=color,
        width=terminal.width(o.output),
    )
    output.emit(o.output, text, styled=color)
    shown = o.fmt is StabilityFormat.TEXT and o.output == "-"
    _stderr([] if shown else [f"warning: {w['message']}" for w in report["warnings"]])
    _stderr([stability_summary(report)])
    return 0 if report["stable"] else 1


def load_inputs(specs: list[str]) -> tuple[list[list[Any]], list[str]]:
    """Read inputs through the intake (non-snapshots become static snapshots); each input gives
    its sides (several for a `snapshot --runs N` file) and notes on what it held."""
    groups, notes, _ = _read_inputs(specs)
    return groups, notes


def _read_inputs(
    specs: list[str], *, keep: bool = False
) -> tuple[list[list[Any]], list[str], list[bytes]]:
    """`load_inputs`, and the bytes each input held (read once: SARIF line numbers need them;
    empty unless `keep`). Each input's intake (its bytes and decoded text, several times the
    file) is let go before the next is read."""
    if sum(1 for s in specs if s == "-") > 1:
        raise UsageError("- (stdin) can be given once")
    groups: list[list[Any]] = []
    notes: list[str] = []
    data: list[bytes] = []
    seen: dict[str, int] = {}
    for spec in specs:
        got = intake.read_catalog(spec, lean=not keep)
        data.append(got.data)
        output.say(got.warnings)
        label = got.name
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            label = f"{label} ({seen[label]})"
        notes.extend(f"{label}: {note}" for _, note in got.inferred)
        sides, more = sides_of(label, got.doc, packed=not keep)
        del got  # NOTE: else it lives on while the next input is read and parsed
        groups.append(sides)
        notes.extend(more)
    # NOTE: the sides live until the command ends and hold no cycles (parsed JSON), yet every
    # full collection of the classification and the bill walked all of them (as `files.settled`)
    gc.freeze()
    return groups, notes, data


def _pointed_at(
    o: DiffOptions, old: tuple[Any, bytes], new: tuple[Any, bytes]
) -> tuple[str | None, Callable[[Any], int | None] | None]:
    return pointed_at(o.old, o.new, old, new)


def pointed_at(
    old_spec: str | None, new_spec: str | None, old: tuple[Any, bytes], new: tuple[Any, bytes]
) -> tuple[str | None, Callable[[Any], int | None] | None]:
    """The repository path SARIF, annotations and JUnit point at, and the line of a change in
    it: NEW when it is in the repository (committed, or a tracked file), else the committed
    OLD snapshot (the release recipe's `new.json` is a scratch file nobody can open in the
    PR), else NEW as named."""
    from catalogaudit.formatters import repository_path
    from catalogaudit.verbs.repository import in_repository, repository

    repo = repository()
    chosen = None
    for spec, (side, data), is_new in ((new_spec, new, True), (old_spec, old, False)):
        if spec is not None and in_repository(spec, repo):
            chosen = (spec, side, data, is_new)
            break
    if chosen is None:
        if new_spec is None or new_spec == "-":
            return None, None
        path, outside = repository_path(new_spec, repo)
        return (path if outside is None else f"{outside}/{path}"), _line_of(new[0], new[1])
    spec, side, data, is_new = chosen
    return repository_path(spec, repo)[0], _line_of(side, data, new_side=is_new)


def _line_of(
    side: Any, data: bytes, *, new_side: bool = True
) -> Callable[[Any], int | None] | None:
    """The line of a change in a side (`data`, the bytes read), when it is a snapshot file in
    the written form (as `snapshot` and `canonicalize` write it); else None: no line is made
    up. In NEW an item is found by its served position, in OLD by its (old) identity."""
    if side.doc is None:
        return None
    text, _ = decode_utf8(data)
    if written(side.doc) != text:
        return None
    finder = Finder(text)

    def index_of(change: Any) -> int | None:
        if new_side:
            positions = side.record(change.listing).get("servedPositions") or []
            at = change.position
            return positions.index(at) if at is not None and at in positions else None
        wanted = change.old_identity if change.old_identity is not None else change.identity
        items = side.record(change.listing).get("items") or []
        found = (i for i, item in enumerate(items) if identity(change.listing, item) == wanted)
        return next(found, None) if wanted is not None else None

    def line_of(change: Any) -> int | None:
        where = f"/listings/{change.listing}"
        index = index_of(change) if change.listing != "catalog" else None
        if index is not None:
            where += f"/items/{index}{change.pointer}"
        found = finder.position(side.doc, where)
        while found is None and where:  # a removed key: point at its nearest parent
            where = where.rsplit("/", 1)[0]
            found = finder.position(side.doc, where)
        return None if found is None else found[0]

    return line_of


def _stderr(lines: list[str]) -> None:
    output.say(lines)


def live_inputs(
    old: str | None, new: str | None, config: str | None
) -> tuple[list[list[Any]], list[str]]:
    """`diff --live` (the manual-stage pre-commit hook): the committed snapshot against the
    configured server captured now with the committed capture settings (protocol requested,
    client capabilities, TZ/LANG/LC_*), so "the server changed" is not "captured differently"."""
    if new is not None:
        raise UsageError("--live diffs one committed snapshot against the live server")
    conf, where = cfg.load(config)
    path = old or conf.get("snapshot")
    if not path:
        raise UsageError("--live needs the committed snapshot: give it, or set snapshot in config")
    got = intake.read_catalog(str(path))
    if not got.is_snapshot:
        raise UsageError(f"{path}: --live needs a catalogaudit snapshot, not a {got.form}")
    output.say(got.warnings)
    committed = got.doc
    server = conf.get("server") or {}
    if not server.get("command") and not server.get("url"):
        raise UsageError(
            f"--live needs the server in configuration ({where or 'pyproject.toml'}): "
            "[tool.catalogaudit] server = {command = [...]} or {url = ...}"
        )
    captured: dict[str, Any] = committed.get("capture") or {}
    proto: dict[str, Any] = captured.get("protocol") or {}
    command = cfg.server_command(server)
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
        caps = client_capabilities(server["client-capabilities"])
    doc = live.capture(options, caps=caps or {}, wire="wire" in committed)
    label = intake.display_name(str(path))
    olds, notes = sides_of(label, committed)
    news, more = sides_of("<live>", doc)
    return [olds, news], [*notes, *more]


def _recorded_environment(values: dict[str, Any]) -> None:
    """Give the server the TZ, LANG and LC_* the committed capture recorded (and unset those
    it did not have): real catalogs embed them. Set in our own environment rather than with
    --env, so the capture block records them the same way the committed one did."""
    for key in list(os.environ):
        if (key in ENV_VALUE_ALLOW or key.startswith(ENV_VALUE_PREFIX)) and key not in values:
            del os.environ[key]
    os.environ.update({str(k): str(v) for k, v in values.items()})
