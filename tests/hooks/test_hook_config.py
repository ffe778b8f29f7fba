"""The hooks' configuration keys (`snapshot`, `server`, `profiles`, `fail-on`) and `diff --live`
errors, without pre-commit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, cli

from catalogaudit.errors import UsageError
from catalogaudit.verbs import config


def write(tmp_path: Path, text: str, name: str = "catalogaudit.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_hook_keys_are_accepted(tmp_path: Path) -> None:
    write(
        tmp_path,
        'snapshot = "catalog.snapshot.json"\nprofiles = ["spec", "codex-app"]\nfail-on = "error"\n'
        'server = {command = ["python", "-m", "srv"], cwd = ".", protocol = "auto", '
        'client-capabilities = "full"}\n',
    )
    table, where = config.load(cwd=tmp_path)
    assert where.endswith("catalogaudit.toml")
    assert config.configured_profiles(table) == ["spec", "codex-app"]
    assert table["server"]["client-capabilities"] == "full"


def test_pyproject_table_and_profile_spellings(tmp_path: Path) -> None:
    write(tmp_path, '[tool.catalogaudit]\nprofiles = "spec, ascii-prose"\n', "pyproject.toml")
    table, _ = config.load(cwd=tmp_path)
    assert config.configured_profiles(table) == ["spec", "ascii-prose"]
    assert config.configured_profiles({"profile": ["codex"]}) == ["codex"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("server = {cmd = ['x']}", "unknown key server.cmd (known: "),
        ("server = {command = 5}", "server.command must be a list or str"),
        ("server = {command = ['x'], url = 'http://h/mcp'}", "either command or url, not both"),
        ("server = 'x'", "server must be a dict"),
        ("snapshot = 1", "snapshot must be a str"),
    ],
)
def test_bad_server_tables_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    write(tmp_path, text + "\n")
    with pytest.raises(UsageError) as info:
        config.load(cwd=tmp_path)
    assert message in str(info.value)


def test_audit_without_files_audits_the_configured_snapshot(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "hooks" / "audit-error" / "catalog.snapshot.json", tmp_path)
    write(tmp_path, 'snapshot = "catalog.snapshot.json"\n')
    got = cli("audit", cwd=tmp_path)
    assert got.code == 1, got
    assert "CA401" in got.stdout


def test_configured_profiles_and_fail_on_drive_audit(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "hooks" / "clean" / "catalog.snapshot.json", tmp_path)
    write(tmp_path, 'profiles = ["context-forge@1.0.0rc1"]\nfail-on = "never"\n')
    got = cli("audit", "catalog.snapshot.json", cwd=tmp_path)
    assert got.code == 0, got
    assert "CF-DESC-001" in got.stdout  # reported, but fail-on never
    hook = cli("audit", "--fail-on", "error", "catalog.snapshot.json", cwd=tmp_path)
    assert hook.code == 1, hook  # the hook's entry overrides fail-on


@pytest.mark.parametrize(
    ("toml", "args", "message"),
    [
        ("", [], "--live needs the committed snapshot"),
        ('snapshot = "catalog.snapshot.json"\n', [], "--live needs the server in configuration"),
        (
            'snapshot = "catalog.snapshot.json"\nserver = {command = ["x"]}\n',
            ["a.json", "b.json"],
            "--live diffs one committed snapshot against the live server",
        ),
    ],
)
def test_live_diff_errors(tmp_path: Path, toml: str, args: list[str], message: str) -> None:
    shutil.copy(FIXTURES / "hooks" / "clean" / "catalog.snapshot.json", tmp_path)
    write(tmp_path, toml)
    got = cli("diff", "--live", *args, cwd=tmp_path)
    assert got.code == 2, got
    assert got.stderr.startswith("error: ") and message in got.stderr
    assert got.stderr.count("\n") == 1


def test_diff_still_needs_two_inputs_without_live(tmp_path: Path) -> None:
    got = cli("diff", "only.json", cwd=tmp_path)
    assert got.code == 2
    assert got.stderr == "error: give the OLD and NEW catalogs (or --live)\n"


def test_the_offline_audit_path_imports_no_network_or_diff_stack() -> None:
    """The hook runs on every commit: no HTTP client, no deepdiff, no wire clients."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from catalogaudit.cli import main\n"
        "main(['audit', '--fail-on', 'error', sys.argv[1]])\n"
        "heavy = ('httpx', 'httpcore', 'anyio', 'deepdiff', 'catalogaudit.wire.http',\n"
        "         'catalogaudit.wire.stdio', 'catalogaudit.profiles.resolve',\n"
        "         'catalogaudit.rewriting.derive')\n"
        "print('LOADED', sorted(m for m in heavy if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(FIXTURES / "bench" / "tools100.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.stdout.splitlines()[-1] == "LOADED []", proc.stdout[-2000:] + proc.stderr
