"""Shared test helpers: fixture paths, the CLI in-process (`cli`) or as a real process
(`cli_process`), npm server locations.

Tests import them from here (`from helpers import cli`), never from conftest."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SERVERS = FIXTURES / "servers"
NODE_BIN = ROOT / "tests" / "node_modules" / ".bin"
PYTHON = sys.executable


def fixture(*parts: str) -> Path:
    """Path of a file under fixtures/, which must exist."""
    path = FIXTURES.joinpath(*parts)
    assert path.exists(), f"missing fixture {path}"
    return path


def npm_bin(name: str) -> str:
    """A pinned npm server binary: fail in CI, skip locally when npm ci was not run."""
    path = NODE_BIN / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} missing: .ci/run must run `npm ci --prefix tests`")
        pytest.skip("npm servers not installed: run `npm ci --prefix tests`")
    return str(path)


@dataclass
class Result:
    """A finished CLI run."""

    code: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> Any:
        return json.loads(self.stdout)

    def __str__(self) -> str:
        out, err = self.stdout[-3000:], self.stderr[-3000:]
        return f"exit {self.code}\n--- stdout ---\n{out}\n--- stderr ---\n{err}"


def cli(
    *args: str | Path,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    stdin: str | None = None,
) -> Result:
    """Run `catalogaudit ARGS` in this process (`catalogaudit.cli.main`), as the console script
    would: stdin, stdout and stderr captured, `env` and `cwd` applied and put back, the exit
    code from SystemExit. `timeout` is pytest-timeout's here (the run cannot be cut short).

    For what only a real process shows (signals, the console script's exit, servers started
    below us and their cleanup, terminals, file descriptors) use `cli_process`. Off the main
    thread (tests that run several commands at once) it is `cli_process` too: the streams,
    environment, directory and signal handlers swapped here belong to the whole process."""
    from catalogaudit.cli import main

    if threading.current_thread() is not threading.main_thread():
        return cli_process(*args, timeout=timeout, env=env, cwd=cwd, stdin=stdin)
    del timeout
    out, err = io.BytesIO(), io.BytesIO()
    given = _text(io.BytesIO((stdin or "").encode("utf-8")))
    streams = (sys.stdin, sys.stdout, sys.stderr)
    ours = (given, _text(out), _text(err))
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = ours
    started = time.monotonic()
    try:
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        try:
            code = main([str(a) for a in args])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            if isinstance(exc.code, str):
                sys.stderr.write(exc.code + "\n")
        except Exception:  # what the interpreter does with an uncaught error (`--traceback`)
            traceback.print_exc()
            code = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for stream in ours:
            stream.flush()
            stream.detach()  # the bytes stay readable when the wrapper is collected
    return Result(code, _decoded(out), _decoded(err), time.monotonic() - started)


def _text(raw: io.BytesIO) -> io.TextIOWrapper:
    """A text stream over bytes, with `.buffer`, as the console script's streams are."""
    return io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape", newline=None)


def _decoded(raw: io.BytesIO) -> str:
    """What `subprocess.run(text=True)` reads: UTF-8, universal newlines."""
    text = raw.getvalue().decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def cli_process(
    *args: str | Path,
    timeout: float = 120,
    env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    stdin: str | None = None,
) -> Result:
    """Run `python -m catalogaudit ARGS` as a real process, as users and hooks do."""
    started = time.monotonic()
    proc = subprocess.run(
        [PYTHON, "-m", "catalogaudit", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        input=stdin,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[Any], timeout: float = 30) -> None:
    """Wait until a server we started listens on the port (or fail with its stderr)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited early with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"port {port} never opened")


def validate_snapshot(doc: Any) -> None:
    """Every snapshot a test writes must match the published schema."""
    from catalogaudit.snapshots.build import validate

    problems = validate(doc)
    assert not problems, problems


def pid_alive(pid: int) -> bool:
    """True when a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def error_view(error: Any) -> Any:
    """What CA403 reports of a meta-schema error (`metaschema.SchemaError`): where, its
    message, and the start of the value it is about; None for none."""
    if error is None:
        return None
    from catalogaudit.model import pointer_of

    return pointer_of(error.absolute_path), error.message, str(error.instance)[:200]


#: python-jsonschema's validator classes of the dialects CA403 checks.
DIALECTS = [
    "Draft4Validator",
    "Draft6Validator",
    "Draft7Validator",
    "Draft201909Validator",
    "Draft202012Validator",
]


def jcs_of(data: bytes, name: str = "x") -> bytes:
    """`canonicalize --jcs`'s bytes of `data` (`canonical.strict.write_jcs`), held whole, as a
    test compares them; also checks the size it says it wrote."""
    from catalogaudit.canonical import strict

    fh = io.BytesIO()
    size = strict.write_jcs(data, name, fh)
    assert size == len(fh.getvalue())
    return fh.getvalue()
