"""Configuration: `[tool.catalogaudit]` in pyproject.toml, or catalogaudit.toml, so hooks and CI
need no long command lines. Command-line options always win."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from catalogaudit.errors import UsageError
from catalogaudit.verbs import output

#: Keys accepted in the configuration, with the type each must have.
KEYS: dict[str, type] = {
    "profile": list,
    "profile-settings": dict,
    "fail-on": str,
    "select": list,
    "ignore": list,
    "baseline": str,
    "format": str,
    "server-name": str,
    "gateway-name": str,
    "revision": str,
    # The hooks' keys (issue 5): the committed snapshot, the server behind it, the profiles.
    "profiles": list,
    "snapshot": str,
    "server": dict,
    # Contract assertions (issue 20): names, globs, minimum counts; and the strict baseline.
    **{
        f"{verb}-{word}{'s' if verb == 'min' else ''}": int if verb == "min" else list
        for word in ("tool", "prompt", "resource", "template")
        for verb in ("expect", "forbid", "min")
    },
    "strict-baseline": bool,
    # `ci` (issue 34): its diff threshold (`fail-on` is the audit's, for every verb), and the
    # file of breaking changes accepted on purpose (diff, diff --live, ci).
    "diff-fail-on": str,
    "accepted": str,
}

#: Keys of the `server` table (how `diff --live` reaches the server), with their types.
SERVER_KEYS: dict[str, tuple[type, ...]] = {
    "command": (list, str),
    "cwd": (str,),
    "url": (str,),
    "headers": (list, dict),
    "protocol": (str,),
    "client-capabilities": (str,),
    # The interpreter that a command's leading `python` means (issue 19): inside pre-commit,
    # `python` on PATH is the hook's own virtualenv, which lacks the server's packages.
    "python": (str,),
}

#: The first words of `server.command` that `server.python` replaces.
PYTHON_WORDS = re.compile(r"^python(3(\.\d+)?)?$")


def _toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read ({exc})") from None
    return toml_text(text, str(path))


def toml_text(text: str, name: str) -> dict[str, Any]:
    """TOML text parsed (one `error:` line naming `name` when it is not TOML)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{name}: invalid TOML ({exc})") from None
    return data


#: A TOML file parsed (the configuration, the accepted-changes file).
read_toml = _toml


def load(explicit: str | None = None, cwd: Path | None = None) -> tuple[dict[str, Any], str]:
    """The configuration table and where it came from ("" when there is none)."""
    base = cwd or Path.cwd()
    if explicit:
        path = Path(explicit)
        if not path.exists():
            raise UsageError(f"--config {explicit}: no such file")
        data = _toml(path)
        table = (
            data.get("tool", {}).get("catalogaudit", data)
            if path.name == "pyproject.toml"
            else data
        )
        return _checked(table, path, base), str(path)
    for folder in _upward(base.resolve()):
        own = folder / "catalogaudit.toml"
        if own.is_file():
            return _announce(_checked(_toml(own), own, base), own, base)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            table = _toml(pyproject).get("tool", {}).get("catalogaudit")
            if isinstance(table, dict):
                return _announce(_checked(table, pyproject, base), pyproject, base)
    return {}, ""


def _upward(start: Path) -> list[Path]:
    """Where configuration is looked for, as ruff looks: the current directory, then each
    parent up to the first that holds `.git` (the repository root), else the filesystem root."""
    out: list[Path] = []
    for folder in (start, *start.parents):
        out.append(folder)
        if (folder / ".git").exists():
            break
    return out


def _announce(table: dict[str, Any], path: Path, cwd: Path) -> tuple[dict[str, Any], str]:
    """Say on stderr which file configured this run when it lies in a parent directory: a
    configuration found there changes the verdict, so it must not act unseen. (One in the
    current directory is in plain sight, and error runs keep their one `error:` line.)"""
    if path.parent != cwd.resolve():
        output.say([f"note: config: {path}"])
    return table, str(path)


#: Keys that name an input file: they must stay inside the configuration's directory.
PATH_KEYS = ("snapshot", "baseline", "accepted")


def _checked(table: Any, path: Path, cwd: Path) -> dict[str, Any]:
    where = str(path)
    if not isinstance(table, dict):
        raise UsageError(f"{where}: the catalogaudit configuration must be a table")
    for key, value in table.items():
        if key not in KEYS:
            raise UsageError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(KEYS))})")
        want = KEYS[key]
        if key in ("profile", "profiles", "select", "ignore") and isinstance(value, str):
            continue
        if key.startswith(("expect-", "forbid-")) and isinstance(value, str):
            continue
        if want is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise UsageError(f"{where}: {key} must be a whole number >= 0")
        if want is list and (
            not isinstance(value, list) or not all(isinstance(v, str) for v in value or [None])
        ):
            raise UsageError(f"{where}: {key} must be a list of strings")
        if not isinstance(value, want):
            raise UsageError(f"{where}: {key} must be a {want.__name__}")
        if key == "server":
            _check_server(value, where)
            if isinstance(value, dict) and "python" in value:
                value["python"] = _interpreter(str(value["python"]), path, cwd, where)
    for key in PATH_KEYS:
        if key in table:
            table[key] = _inside(table[key], key, path, cwd)
    return table


def _inside(value: str, key: str, config: Path, cwd: Path) -> str:
    """A path from a configuration file, relative to that file's directory and inside it.

    A repository's configuration may come from a pull request, so it must not make catalogaudit
    read (or, through git options, write) anything outside the repository.
    """
    where = f"{config}: {key}"
    if value.startswith("git:"):
        if value[4:].startswith("-"):
            raise UsageError(f"{where}: a git ref cannot start with '-'")
        return value
    if not value or value == "-":
        raise UsageError(f"{where} must name a file in the repository, not {value!r}")
    root = config.resolve().parent if config.is_absolute() else (cwd / config).resolve().parent
    candidate = Path(value)
    if candidate.is_absolute():
        raise UsageError(f"{where} must be a path relative to {config.name}, not {value!r}")
    target = (root / candidate).resolve()
    if not target.is_relative_to(root):
        raise UsageError(f"{where}: {value!r} is outside the directory of {config.name}")
    if root == cwd.resolve():
        return value
    return str(root / candidate)


def _interpreter(value: str, config: Path, cwd: Path, where: str) -> str:
    """`server.python`: an absolute path, a name looked up on PATH (`python3.12`), or a path
    relative to the configuration file's directory (`.venv/bin/python`), made absolute."""
    if not value.strip():
        raise UsageError(f"{where}: server.python must name an interpreter")
    candidate = Path(value)
    if candidate.is_absolute() or "/" not in value:
        return value
    root = config.resolve().parent if config.is_absolute() else (cwd / config).resolve().parent
    return str(root / candidate)


def server_command(server: dict[str, Any]) -> list[str]:
    """`server.command` as argv, its leading `python` replaced by `server.python` if set."""
    import shlex

    command = server.get("command") or []
    argv = shlex.split(command) if isinstance(command, str) else [str(c) for c in command]
    python = server.get("python")
    if python:
        if not argv or not PYTHON_WORDS.match(argv[0]):
            raise UsageError(
                "server.python replaces the command's leading python; "
                f"the command starts with {argv[0] if argv else 'nothing'!r}"
            )
        argv[0] = python
    return argv


def _check_server(server: Any, where: str) -> None:
    for key, value in server.items():
        if key not in SERVER_KEYS:
            known = ", ".join(sorted(SERVER_KEYS))
            raise UsageError(f"{where}: unknown key server.{key} (known: {known})")
        if not isinstance(value, SERVER_KEYS[key]):
            kinds = " or ".join(t.__name__ for t in SERVER_KEYS[key])
            raise UsageError(f"{where}: server.{key} must be a {kinds}")
    if "command" in server and "url" in server:
        raise UsageError(f"{where}: server takes either command or url, not both")


def configured_profiles(table: dict[str, Any]) -> list[str]:
    """`profiles` (the hooks' spelling) or `profile`: a list or a comma-separated string."""
    return as_list(table.get("profiles")) or as_list(table.get("profile"))


def parse_pairs(values: Sequence[str], option: str) -> dict[str, str]:
    """`KEY=VALUE` option values (`--env`, `--profile-setting`); the first `=` splits."""
    out: dict[str, str] = {}
    for raw in values:
        key, sep, value = raw.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{option} must look like KEY=VALUE, got {raw!r}")
        out[key.strip()] = value
    return out


def as_list(value: Any) -> list[str]:
    """A list option from configuration: a list of strings, or one comma-separated string."""
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


def parse_settings(values: Sequence[str]) -> dict[str, str]:
    """`--profile-setting KEY=VALUE` pairs."""
    return parse_pairs(values, "--profile-setting")
