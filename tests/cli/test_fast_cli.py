"""`cli.fast`: the hot offline verbs parsed without typer, exactly as typer parses them."""

from __future__ import annotations

import enum
import inspect
import subprocess
import types
import typing
from typing import Any

import pytest
from helpers import PYTHON, SERVERS, fixture

from catalogaudit.cli import app as typer_app
from catalogaudit.cli import entry, fast

TOOLS = str(fixture("bench", "tools100.json"))


def _typer_params(verb: str) -> dict[str, Any]:
    import typer

    group = typer.main.get_command(typer_app.app)
    return {p.name: p for p in group.commands[verb].params}  # type: ignore[attr-defined]


@pytest.mark.parametrize("verb", sorted(fast.VERBS))
def test_the_tables_declare_what_typer_declares(verb: str) -> None:
    spec = fast.VERBS[verb]
    params = _typer_params(verb)
    options = {o.dest: o for o in spec.options}
    assert set(params) == {*options, spec.arg, *spec.more}
    for name in (spec.arg, *spec.more):
        arg = params[name]
        assert (arg.nargs, arg.required) == (spec.nargs, spec.required), name
    assert [p.name for p in params.values() if p.param_type_name == "argument"] == [
        spec.arg,
        *spec.more,
    ]
    for dest, opt in options.items():
        p = params[dest]
        assert tuple(p.opts) == opt.names and not p.secondary_opts, dest
        if opt.kind == fast.TYPER:
            continue  # declared, parsed by typer only
        assert p.is_flag == (opt.kind == "flag"), dest
        assert p.multiple == (opt.kind == "many"), dest
        default = p.default.value if isinstance(p.default, enum.Enum) else p.default
        want = opt.default.value if isinstance(opt.default, enum.Enum) else opt.default
        assert default == want, dest
        bound = (getattr(p, "min", None), getattr(p, "max", None))
        assert (p.envvar, *bound, p.callback) == (None, opt.minimum, None, None), dest
        assert _kind(p.type_descriptor.annotation) == opt.kind, dest


def _kind(annotation: Any) -> Any:
    """The table's kind for a typer annotation (`X | None` and `Optional[X]` as X)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,):
        return "many"
    return {bool: "flag", str: "text", float: "float", int: "int"}.get(annotation, annotation)


def _norm(kwargs: dict[str, Any]) -> dict[str, Any]:
    # NOTE: the bodies read every list as `tuple(x or ())`, so None, [] and () are one value.
    def one(v: Any) -> Any:
        if v is None or isinstance(v, list | tuple):
            return tuple(v or ())
        return v.value if isinstance(v, enum.Enum) else v

    return {k: one(v) for k, v in kwargs.items()}


BODIES = {
    "hash": "run_hash",
    "canonicalize": "run_canonicalize",
    "audit": "run_audit",
    "snapshot": "run_snapshot",
    "diff": "run_diff",
}
SNAP = str(fixture("captures", "example-server.snapshot.json"))

PLAIN = [
    ["hash", TOOLS],
    ["--traceback", "hash", TOOLS],
    ["hash", "--format", "json", TOOLS],
    ["hash", TOOLS, "--format=json", "--protocol", "legacy"],
    ["canonicalize", "--jcs", TOOLS],
    ["canonicalize", "-o", "-", TOOLS, "-", "--check", "--in-place", "--protocol=modern"],
    ["audit", TOOLS],
    ["audit", "--fail-on", "error", TOOLS, "--format", "sarif", "-o", "x.sarif"],
    ["audit", "--profile", "a", "--profile=b", "--timeout", "1e1", "--matrix", TOOLS, TOOLS],
    ["audit", "--select", "CA1", "--ignore", "CA2", "--ignore=x", "--suggest", "--color=never"],
    ["audit", "--live", "--url", "http://h/mcp", "--header", "A: b", "--env", "K=V"],
    ["audit", "--substitutions-from-env", "--config", "c.toml", "--baseline", "b", TOOLS],
    ["diff", SNAP, SNAP],
    ["diff", SNAP],
    ["diff"],
    ["diff", "--live"],
    ["diff", "-", SNAP, "--format", "sarif", "-o", "x", "--fail-on=model-visible"],
    ["diff", "--unknown", "ignore", SNAP, "--schema-only", "--prose-only", SNAP, "--summary"],
    ["diff", "--allowlist", "a.txt", "--config=c.toml", "--expand", "--expect-tool", "a", SNAP],
    ["diff", "--forbid-tool=b", "--expect-prompt", "p", "--forbid-template", "t", SNAP, SNAP],
    ["snapshot", "--from", TOOLS],
    ["snapshot", "--from", TOOLS, "--from=b.json", "-o", "x.json", "--no-wire", "--expect-tool=a"],
    ["snapshot", "-o", "/dev/null", "--", "server", "stdio", "--port", "-", "--"],
    ["snapshot", "--env", "K=V", "--secret", "s", "--inherit-env", "--legacy-probe", "--", "s"],
    ["snapshot", "--timeout", "5", "--startup-timeout=1", "--request-timeout", "2", "--", "s"],
    ["snapshot", "--url", "http://h/mcp", "--header", "A: b", "--protocol", "legacy"],
    ["snapshot", "--runs", "4", "--jobs=2", "--max-pages", "01", "--", "s"],
    ["snapshot", "--runs=1", "--max-message-size", "1024", "--max-total-bytes=2048", "--", "s"],
]


@pytest.mark.parametrize("args", PLAIN, ids=lambda a: " ".join(a[:4]))
def test_a_plain_command_line_gives_the_body_what_typer_gives_it(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    verb = next(a for a in args if not a.startswith("-"))
    original = getattr(fast, BODIES[verb])
    seen: list[dict[str, Any]] = []

    def record(*a: Any, **kw: Any) -> int:
        seen.append(dict(inspect.signature(original).bind(*a, **kw).arguments))
        return 0

    monkeypatch.setattr(fast, BODIES[verb], record)
    assert typer_app.run_typer(list(args), False) == 0
    by_typer = seen.pop()
    at = args.index(verb)
    ours = fast._parse_verb(fast.VERBS[verb], args[at + 1 :])
    assert ours is not None
    flat = {**ours}
    flat.update(flat.pop("given", {}))
    by_typer.update(by_typer.pop("given", {}))
    assert _norm(flat) == _norm(by_typer)


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--version"],
        ["--help"],
        ["hash"],
        ["hash", TOOLS, TOOLS],
        ["hash", "--help"],
        ["hash", "-h", TOOLS],
        ["hash", "--format", "xml", TOOLS],
        ["hash", "--format", "JSON", TOOLS],
        ["hash", "--format"],
        ["hash", "--", TOOLS],
        ["hash", "--traceback", TOOLS],
        ["hash", "--form", "json", TOOLS],
        ["canonicalize"],
        ["canonicalize", "--jcs=1", TOOLS],
        ["canonicalize", "-o-", TOOLS],
        ["canonicalize", "-o", "--jcs", TOOLS],
        ["audit", "--timeout", "soon", TOOLS],
        ["audit", "--timeout=", TOOLS],
        ["audit", "--live", "--", "server"],
        ["diff", TOOLS, TOOLS, TOOLS],
        ["diff", "--fail-on", "error", TOOLS, TOOLS],
        ["diff", "--format", "Text", TOOLS, TOOLS],
        ["diff", "--max-chars", "300", TOOLS, TOOLS],
        ["diff", "--min-tools", "1", TOOLS, TOOLS],
        ["diff", "--help"],
        ["diff", "--", TOOLS, TOOLS],
        ["stability", TOOLS, TOOLS],
        ["snapshot", "--runs", "0", "--", "server"],
        ["snapshot", "--runs", "+4", "--", "server"],
        ["snapshot", "--runs", "-1", "--", "server"],
        ["snapshot", "--jobs", " 2", "--", "server"],
        ["snapshot", "--runs=", "--", "server"],
        ["snapshot", "--runs", "\u0664", "--", "server"],
        ["snapshot", "--max-pages", "0", "--", "server"],
        ["snapshot", "--max-message-size", "1023", "--", "server"],
        ["snapshot", "--min-tools", "1", "--from", TOOLS],
        ["snapshot", "--help"],
        ["snapshot", "--timeout", "soon", "--", "server"],
    ],
    ids=lambda a: " ".join(a[:4]) or "none",
)
def test_anything_else_is_left_to_typer(args: list[str]) -> None:
    assert fast.parse(list(args)) is None


def test_the_fast_path_prints_what_the_typer_path_prints(
    capfd: pytest.CaptureFixture[str],
) -> None:
    for args in (
        ["hash", "--format", "json", TOOLS],
        ["audit", TOOLS],
        ["hash", "missing.json"],
        ["snapshot", "--from", TOOLS],
        ["snapshot", "--", PYTHON, str(SERVERS / "example_server.py")],
        ["diff", SNAP, TOOLS, "--format", "json"],
        ["diff", SNAP, "missing.json"],
        ["diff", SNAP],
        ["diff", "--schema-only", "--prose-only", SNAP, SNAP],
    ):
        got = []
        for run in (entry.main, lambda a: typer_app.run_typer(a, False)):
            try:
                code = run(list(args))
            except SystemExit as exc:
                code = int(exc.code or 0)
            out, err = capfd.readouterr()
            got.append((code, out, err))
        assert got[0] == got[1], args


@pytest.mark.parametrize("args", [["hash", TOOLS], ["diff", SNAP, SNAP]], ids=["hash", "diff"])
def test_hash_runs_without_loading_typer_or_pydantic(args: list[str]) -> None:
    """Start-up: typer and the pydantic it loads cost more than hashing 100 tools (and 18 MB
    of the peak RSS of `diff` of two 10 MB snapshots). NOTE: a diff with changes loads
    deepdiff, which loads pydantic; two equal snapshots do not."""
    code = (
        "import sys\n"
        "from catalogaudit.cli import main\n"
        f"main({args!r})\n"
        "print('LOADED', sorted(m for m in ('typer', 'pydantic', 'rich', 'httpx')"
        " if m in sys.modules))\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.splitlines()[-1] == "LOADED []", proc.stdout[-2000:] + proc.stderr


def test_canonicalize_jcs_loads_only_what_it_writes_with(tmp_path: Any) -> None:
    """Start-up: `--jcs` is one read and one encoding (issue 14 measured it against a script
    that imports rfc8785 alone); the findings vocabulary, protocols, snapshot building and the
    report formatters are not on its path."""
    out = tmp_path / "out.json"
    unwanted = (
        "typer",
        "rich",
        "catalogaudit.model.findings",
        "catalogaudit.model.protocol",
        "catalogaudit.snapshot.build",
        "catalogaudit.canonical.quick",
        "catalogaudit.formatters.hashes",
    )
    code = (
        "import sys\n"
        "from catalogaudit.cli import main\n"
        f"code = main(['canonicalize', '--jcs', {TOOLS!r}, '-o', {str(out)!r}])\n"
        f"print('LOADED', code, sorted(m for m in {unwanted!r} if m in sys.modules))\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.splitlines()[-1] == "LOADED 0 []", proc.stdout[-2000:] + proc.stderr
    assert out.read_bytes()


def test_a_live_snapshot_runs_without_loading_typer() -> None:
    """Start-up: typer's import and parse were a third of a live snapshot of server-everything
    (1.08 s against the server's own 0.40 s start-to-exit)."""
    server = str(SERVERS / "example_server.py")
    code = (
        "import sys\n"
        "from catalogaudit.cli import main\n"
        "try:\n"
        f"    main(['snapshot', '-o', '-', '--', {PYTHON!r}, {server!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('LOADED', sorted(m for m in ('typer', 'click') if m in sys.modules))\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    assert proc.stdout.splitlines()[-1] == "LOADED []", proc.stdout[-2000:] + proc.stderr


def test_the_console_script_skips_the_last_collection_and_still_writes(tmp_path: Any) -> None:
    """`main()` as the program (no argv) freezes the heap as it ends: the interpreter's last
    garbage collection took 10-15 ms after a live snapshot's server had exited."""
    out = tmp_path / "out.json"
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('FROZEN', gc.get_freeze_count() > 0))\n"
        "from catalogaudit.cli import main\n"
        f"sys.argv = ['catalogaudit', 'canonicalize', '-o', {str(out)!r}, {TOOLS!r}]\n"
        "raise SystemExit(main())\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    assert (proc.returncode, proc.stdout.strip()) == (0, "FROZEN True"), proc.stderr
    to_stdout = subprocess.run(
        [PYTHON, "-m", "catalogaudit", "canonicalize", TOOLS], capture_output=True, check=True
    )
    assert out.read_bytes() == to_stdout.stdout
