"""Start-up: each command imports what it needs (typer parses every command line, without
pydantic; rich, httpx and jsonschema only where a command uses them), and `main` as a program
ends without the interpreter's last garbage collection."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PYTHON, SERVERS, fixture

from catalogaudit.cli import main

TOOLS = str(fixture("bench", "tools100.json"))
SNAP = str(fixture("captures", "example-server.snapshot.json"))
#: (pydantic: typer 0.29 imported it to coerce every parameter, about 0.1 s of every command)
HEAVY = ("rich", "httpx", "jsonschema", "pydantic")


def _loaded(args: list[str], modules: tuple[str, ...]) -> tuple[str, list[str]]:
    """Run `main(args)` in a fresh interpreter: its exit code and which `modules` it loaded."""
    code = (
        "import sys\n"
        "from catalogaudit.cli import main\n"
        "try:\n"
        f"    code = main({args!r})\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        f"print('LOADED', code, sorted(m for m in {modules!r} if m in sys.modules))\n"
    )
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, check=False)
    last = (proc.stdout.splitlines() or [""])[-1]
    return last, [proc.stdout[-2000:], proc.stderr[-2000:]]


@pytest.mark.parametrize(
    "args",
    [
        ["hash", TOOLS],
        ["diff", SNAP, SNAP],
        ["snapshot", "--from", TOOLS, "-o", "/dev/null"],
        ["snapshot", "-o", "/dev/null", "--", PYTHON, str(SERVERS / "example_server.py"), "stdio"],
    ],
    ids=["hash", "diff", "snapshot-from", "snapshot-stdio"],
)
def test_the_hot_verbs_load_no_terminal_network_or_schema_library(args: list[str]) -> None:
    line, output = _loaded(args, HEAVY)
    assert line == "LOADED 0 []", output


def test_canonicalize_jcs_loads_only_what_it_writes_with(tmp_path: Path) -> None:
    """`--jcs` is one read and one encoding: the findings vocabulary, protocols, snapshot
    building and the report formatters are not on its path."""
    out = tmp_path / "out.json"
    unwanted = (
        *HEAVY,
        "catalogaudit.model.findings",
        "catalogaudit.model.protocol",
        "catalogaudit.snapshots.build",
        "catalogaudit.formatters.hashes",
    )
    line, output = _loaded(["canonicalize", "--jcs", TOOLS, "-o", str(out)], unwanted)
    assert line == "LOADED 0 []", output
    assert out.read_bytes()


def test_audit_of_a_snapshot_loads_no_fleet_or_server_json_machinery() -> None:
    """The pre-commit hook's path: whether an input is a fleet directory or a server.json is
    asked of its name before their verbs are imported."""
    unwanted = (
        "catalogaudit.verbs.fleet_audit",
        "catalogaudit.verbs.fleet",
        "catalogaudit.verbs.serverjson",
        "catalogaudit.auditing.fleet",
    )
    line, output = _loaded(["audit", "--fail-on", "error", SNAP], unwanted)
    assert line == "LOADED 0 []", output


def test_main_in_process_puts_back_what_it_changed() -> None:
    """`main(argv)` is how tests and embedding programs run a command: the signal handlers
    and the integer-digit limit it sets for the run are the caller's again afterwards."""
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    digits = sys.get_int_max_str_digits()
    assert main(["hash", TOOLS]) == 0
    assert {s: signal.getsignal(s) for s in handlers} == handlers
    assert sys.get_int_max_str_digits() == digits


def test_the_console_script_skips_the_last_collection_and_still_writes(tmp_path: Path) -> None:
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


def test_the_in_process_helper_leaves_nothing_behind(tmp_path: Path) -> None:
    """`helpers.cli` runs `main` in the test process: what it applies for one run (the
    environment, the directory, the three streams) is the test's again afterwards."""
    from helpers import cli

    before = (dict(os.environ), os.getcwd(), sys.stdin, sys.stdout, sys.stderr)
    (tmp_path / "t.json").write_text('{"tools": []}', encoding="utf-8")
    got = cli("hash", "t.json", env={"CATALOGAUDIT_PROBE": "1"}, cwd=tmp_path)
    assert got.code == 0 and got.stdout, got
    assert (dict(os.environ), os.getcwd(), sys.stdin, sys.stdout, sys.stderr) == before
