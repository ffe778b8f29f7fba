"""`--help` without Python types, shell completion, colour (NO_COLOR, FORCE_COLOR, a TTY) and
text width (the terminal's, fixed for files and pipes), each through the real CLI: in-process
(stdout a pipe), or a real process where a terminal or the process's ancestry is the point."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
from pathlib import Path

import pytest
from helpers import FIXTURES, PYTHON, ROOT, Result, cli

TIME = str(FIXTURES / "real-servers" / "mcp-server-time.snapshot.json")
ESC = "\x1b["
COMMANDS = [
    "snapshot",
    "audit",
    "rules",
    "rule",
    "diff",
    "stability",
    "rewrite",
    "profiles",
    "ci",
    "canonicalize",
    "hash",
    "serve",
    "proxy",
    "verify",
]
#: What typer printed before `helptext.plain`: type names (0.29: Python types; 0.28: click's
#: with Python names, `<int range>`) and a doubled ellipsis.
PYTHON_TYPES = re.compile(
    r"<bool>|<boolean>|<str>|<int>|<int range>|<float>|<float range>|<choice>|list\[|str\]"
    r"|\.\.\.\}\.\.\.|\{\{|\}\}"
)


def plain_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT / "src")
    return {**env, **extra}


@pytest.fixture(autouse=True)
def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    """What `plain_env` leaves out of a real process, out of this one (`run` is in-process)."""
    for name in ("COLUMNS", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


def run(*args: str, **env: str) -> Result:
    return cli(*args, env=env)


def on_a_tty(*args: str, columns: int = 70, **env: str) -> str:
    """The CLI's stdout when stdout is a terminal `columns` wide (a pty)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(
        [PYTHON, "-m", "catalogaudit", *args],
        stdout=slave,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        env=plain_env(**env),
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_choices_and_plain_metavars_not_python_types(command: str) -> None:
    args = [command, "--help"] if command else ["--help"]
    result = run(*args, COLUMNS="200")
    assert result.code == 0, result.stderr
    bad = PYTHON_TYPES.findall(result.stdout)
    assert not bad, (bad, result.stdout)


def test_help_lists_the_format_choices_and_typed_metavars() -> None:
    out = run("audit", "--help", COLUMNS="200").stdout
    # a long choice list goes into the help text, where it wraps between words
    assert re.search(r"--format\s+FORMAT\s+.*One of: text, json, sarif, junit, github,", out)
    assert re.search(r"--color\s+auto\|always\|never", out)  # a short one stays the metavar
    assert re.search(r"--url\s+TEXT", out) and re.search(r"--timeout\s+NUMBER", out)
    assert not re.search(r"--live\s+\S+\s+Snapshot", out)  # a flag takes no value
    usage = run("verify", "--help", COLUMNS="200").stdout
    assert "Usage: catalogaudit verify [OPTIONS] CATALOG..." in usage


def test_help_paragraphs_wrap_at_the_terminal_not_at_the_docstring() -> None:
    out = run("audit", "--help", COLUMNS="200").stdout
    assert "2 errors (including a rule that crashed)." in out
    out = run("rewrite", "--help", COLUMNS="200").stdout
    assert "no `wire` section), reports every change, and re-audits" in out


def test_every_command_is_walked() -> None:
    out = run("--help", COLUMNS="200").stdout
    listed = re.findall(r"^│ (\w+)\s{2,}", out.split("Commands")[1], flags=re.M)
    assert sorted(listed) == sorted(COMMANDS)


def test_completion_is_on_and_bash_completion_completes() -> None:
    helptext = run("--help", COLUMNS="200").stdout
    assert "--install-completion" in helptext and "--show-completion" in helptext
    script = run("--show-completion", "bash")
    assert script.code == 0, script.stderr
    assert "_CATALOGAUDIT_COMPLETE=complete_bash" in script.stdout
    assert "complete -o default -F _catalogaudit_completion catalogaudit" in script.stdout
    verbs = run(
        COMP_WORDS="catalogaudit au", COMP_CWORD="1", _CATALOGAUDIT_COMPLETE="complete_bash"
    )
    assert verbs.stdout.split() == ["audit"]
    formats = run(
        COMP_WORDS="catalogaudit audit --format ",
        COMP_CWORD="3",
        _CATALOGAUDIT_COMPLETE="complete_bash",
    )
    assert formats.stdout.split() == [
        "text",
        "json",
        "sarif",
        "junit",
        "github",
        "markdown",
        "gitlab",
    ]


#: Starts the command in its arguments in a session of its own and exits at once: the command
#: is orphaned (re-parented to init), so no shell is among its ancestors; it keeps the pipe
#: the test reads until the command ends.
ORPHAN = "import subprocess, sys; subprocess.Popen(sys.argv[1:], start_new_session=True)"


def test_a_named_shell_wins_over_the_ancestry() -> None:
    """`--show-completion SHELL` prints that shell's script, detached from any shell too
    (typer's flag ignored the name and guessed from the ancestors: "Shell  not supported.")."""
    script = str(Path(PYTHON).parent / "catalogaudit")
    detached = subprocess.run(
        [PYTHON, "-c", ORPHAN, script, "--show-completion", "bash"],
        capture_output=True,
        text=True,
        env=plain_env(),
        timeout=120,
        start_new_session=True,
    )
    assert "complete -o default -F _catalogaudit_completion catalogaudit" in detached.stdout
    assert "not supported" not in detached.stdout + detached.stderr
    zsh = run("--show-completion", "zsh")
    assert zsh.code == 0 and zsh.stdout.startswith("#compdef catalogaudit")


def test_an_unknown_shell_is_one_error_line() -> None:
    got = run("--show-completion", "nosh")
    assert (got.code, got.stdout) == (2, "")
    assert got.stderr == (
        "error: --show-completion nosh: not a shell typer completes "
        "(bash, zsh, fish, powershell, pwsh)\n"
    )


def test_install_completion_writes_the_bash_script(tmp_path: Path) -> None:
    result = run("--install-completion", "bash", HOME=str(tmp_path))
    assert result.code == 0, result.stderr
    assert (
        "_catalogaudit_completion"
        in (tmp_path / ".bash_completions" / "catalogaudit.sh").read_text()
    )
    assert "catalogaudit.sh" in (tmp_path / ".bashrc").read_text()


def test_colour_only_on_a_tty_by_default() -> None:
    assert ESC in on_a_tty("audit", TIME)
    piped = run("audit", TIME)
    assert piped.stdout and ESC not in piped.stdout and "\\u001b" not in piped.stdout


def test_no_color_turns_colour_off_even_on_a_tty() -> None:
    out = on_a_tty("audit", TIME, NO_COLOR="1")
    assert 'tools "convert_time"' in out and ESC not in out
    assert ESC in on_a_tty("audit", TIME, NO_COLOR="")  # empty means unset (no-color.org)


def test_force_color_colours_a_pipe_but_not_a_file(tmp_path: Path) -> None:
    forced = run("audit", TIME, FORCE_COLOR="1")
    assert "\x1b[1mtools\x1b[0m" in forced.stdout and "\\u001b" not in forced.stdout
    assert ESC not in run("audit", TIME, FORCE_COLOR="0").stdout
    assert ESC not in run("audit", TIME, FORCE_COLOR="1", NO_COLOR="1").stdout
    report = tmp_path / "report.txt"
    run("audit", TIME, "-o", str(report), FORCE_COLOR="1")
    assert ESC not in report.read_text()
    assert ESC not in run("audit", TIME, "--color", "never", FORCE_COLOR="1").stdout


def widest(text: str) -> int:
    return max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in text.splitlines())


def test_width_follows_the_terminal_and_columns(tmp_path: Path) -> None:
    assert widest(run("audit", TIME).stdout) > 70  # a pipe: the fixed 100 columns
    assert widest(run("audit", TIME).stdout) <= 100
    assert widest(run("audit", TIME, COLUMNS="60").stdout) <= 60
    assert widest(on_a_tty("audit", TIME, columns=70)) <= 70
    report = tmp_path / "report.txt"
    run("audit", TIME, "-o", str(report), COLUMNS="60")
    assert 60 < widest(report.read_text()) <= 100  # a file: fixed, whatever the terminal
    matrix = run("audit", TIME, "--matrix", "--profile", "spec", "--profile", "codex", COLUMNS="60")
    assert widest(matrix.stdout) <= 60
