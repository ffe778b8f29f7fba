"""The command line itself: version, help, one-line errors, exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import PYTHON, cli, cli_process

from catalogaudit import __version__


def test_version_and_module_entry_point() -> None:
    result = cli_process("--version")
    assert (result.code, result.stdout) == (0, f"catalogaudit {__version__}\n")


def test_console_script_is_installed() -> None:
    from pathlib import Path

    script = Path(sys.executable).parent / "catalogaudit"
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and __version__ in proc.stdout


def test_help_lists_snapshot() -> None:
    result = cli("--help")
    assert result.code == 0
    assert "snapshot" in result.stdout
    sub = cli("snapshot", "--help")
    assert sub.code == 0 and "--protocol" in sub.stdout and "--from" in sub.stdout


def test_verify_help_names_every_driven_client() -> None:
    from catalogaudit.model import DRIVER_IDS

    result = cli("verify", "--help", env={"COLUMNS": "400"})
    client_help = next(line for line in result.stdout.splitlines() if "--client " in line)
    assert [c for c in DRIVER_IDS if c not in client_help.replace(",", " ").split()] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["snapshot"], "give a server command after --"),
        (
            ["snapshot", "--protocol", "2099-01-01", "--", "x"],
            "--protocol '2099-01-01' is not one of",
        ),
        (["snapshot", "--client-capabilities", "some", "--", "x"], "none or full"),
        (["snapshot", "--url", "ftp://x", "--", "y"], "either a server command after -- or --url"),
        (["snapshot", "--url", "ftp://host/mcp"], "--url must be an http"),
        (
            ["snapshot", "--header", "NoColon", "--url", "http://127.0.0.1:9/mcp"],
            "--header must look",
        ),
        (
            [
                "snapshot",
                "--header",
                "Authorization: env:CA_TEST_UNSET_VAR",
                "--url",
                "http://127.0.0.1:9/mcp",
            ],
            "CA_TEST_UNSET_VAR is not set",
        ),
        (["snapshot", "--env", "NOEQUALS", "--", "x"], "--env must look like KEY=VALUE"),
        (["snapshot", "--runs", "0", "--", "x"], "--runs"),
        (["snapshot", "--nope"], "No such option"),
        (["snapshot", "--", "/nonexistent/server-binary"], "command not found"),
        (["snapshot", "--url", "http://127.0.0.1:9/mcp"], "cannot connect"),
        (["frobnicate"], "No such command"),
    ],
)
def test_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = cli(*args)
    assert result.code == 2, str(result)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, str(result)
    assert lines[0].startswith("error: ") and message in lines[0], str(result)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_traceback_flag_shows_the_trace() -> None:
    result = cli("--traceback", "snapshot", "--", "/nonexistent/server-binary")
    assert result.code != 0
    assert "Traceback" in result.stderr and "ServerError" in result.stderr


def test_output_into_missing_directory_is_an_error(tmp_path) -> None:
    result = cli(
        "snapshot",
        "-o",
        str(tmp_path / "no" / "such" / "out.json"),
        "--from",
        "-",
        stdin='{"tools":[]}',
    )
    assert result.code == 2
    assert result.stderr.strip().startswith("error: cannot write")


def test_python_dash_m_is_the_same_program() -> None:
    proc = subprocess.run(
        [PYTHON, "-m", "catalogaudit", "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and "snapshot" in proc.stdout
