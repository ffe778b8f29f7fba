"""The servers of each client's configuration, written as each client documents its format
(Claude Desktop, Claude Code `.mcp.json` and `~/.claude.json` scopes, Cursor, VS Code, Gemini
CLI, opencode v1 and v2, Codex `config.toml`) and of registry `server.json` files, read into
commands, URLs and names; and environment and header values never in any written form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from catalogaudit import intake
from catalogaudit.errors import InputError
from catalogaudit.model import Server


def _write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def _by_name(spec: str) -> dict[str, Server]:
    return {s.name: s for s in intake.read_fleet(spec).servers}


def test_claude_desktop_takes_values_as_written(tmp_path: Path) -> None:
    spec = _write(
        tmp_path / "claude_desktop_config.json",
        json.dumps(
            {
                "globalShortcut": "",
                "mcpServers": {
                    "files": {"command": "npx", "args": ["-y", "srv", "/data"]},
                    "keyed": {"command": "node", "args": ["k.js"], "env": {"API_KEY": "${X}"}},
                },
            }
        ),
    )
    fleet = intake.read_fleet(spec)
    assert fleet.client == "claude-desktop"
    files, keyed = fleet.servers
    assert (files.name, files.command) == ("files", ("npx", "-y", "srv", "/data"))
    assert keyed.env == {"API_KEY": "${X}"}  # Claude Desktop expands nothing


def test_claude_code_scopes_local_over_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("GH_TOKEN", "ghp_abcdefabcdefabcdef")
    doc = {
        "mcpServers": {
            "shared": {"type": "stdio", "command": "user-cmd"},
            "web": {
                "type": "http",
                "url": "https://h.example/mcp",
                "headers": {"Authorization": "Bearer ${GH_TOKEN}"},
            },
        },
        "projects": {str(project): {"mcpServers": {"shared": {"command": "local-cmd"}}}},
    }
    got = _by_name(_write(tmp_path / ".claude.json", json.dumps(doc)))
    assert got["shared"].command == ("local-cmd",)
    assert got["web"].headers == {"Authorization": "Bearer ghp_abcdefabcdefabcdef"}
    mcp = _write(
        project / ".mcp.json", json.dumps({"mcpServers": {"db": {"command": "${MISSING:-pg}"}}})
    )
    fleet = intake.read_fleet(mcp)
    assert fleet.client == "claude-code" and fleet.servers[0].command == ("pg",)


def test_cursor_and_vscode_expand_env_and_refuse_inputs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CTX_KEY", "k-123456")
    cursor = _write(
        tmp_path / ".cursor" / "mcp.json",
        '{"mcpServers": {"ctx": {"url": "https://c.example/mcp", '
        '"headers": {"CONTEXT7_API_KEY": "${env:CTX_KEY}"}}}}',
    )
    fleet = intake.read_fleet(cursor)
    assert fleet.client == "cursor"
    assert fleet.servers[0].headers == {"CONTEXT7_API_KEY": "k-123456"}
    vscode = _write(
        tmp_path / ".vscode" / "mcp.json",
        """{
  // the workspace's servers
  "inputs": [{"type": "promptString", "id": "tok", "password": true}],
  "servers": {
    "local": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/s.js"],},
    "asks": {"type": "http", "url": "https://a.example/mcp",
             "headers": {"Authorization": "Bearer ${input:tok}"}},
    "old": {"type": "sse", "url": "https://o.example/sse"}
  }
}""",
    )
    got = _by_name(vscode)
    assert got["local"].command == ("node", f"{tmp_path}/s.js")
    assert "input:tok" in str(got["asks"].problem)
    assert got["old"].transport == "sse"


def test_gemini_http_url_is_streamable_and_url_is_sse(tmp_path: Path) -> None:
    spec = _write(
        tmp_path / ".gemini" / "settings.json",
        json.dumps(
            {
                "theme": "Dracula",
                "mcp": {"excluded": ["d"]},
                "mcpServers": {
                    "a": {"httpUrl": "https://a.example/mcp", "timeout": 5000},
                    "b": {"url": "https://b.example/sse"},
                    "c": {"command": "uvx", "args": ["mcp-server-git"], "cwd": "./repo"},
                    "d": {"command": "excluded-by-mcp-excluded"},
                },
            }
        ),
    )
    got = _by_name(spec)
    assert (got["a"].transport, got["a"].request_timeout) == ("streamable-http", 5.0)
    assert got["b"].transport == "sse"
    assert got["c"].cwd == "./repo"
    assert "d" not in got


def test_opencode_v1_and_v2(tmp_path: Path) -> None:
    v1 = _write(
        tmp_path / "v1" / "opencode.json",
        json.dumps(
            {
                "mcp": {
                    "local": {
                        "type": "local",
                        "command": ["bun", "x", "cmd"],
                        "environment": {"A": "1"},
                    },
                    "off": {"type": "local", "command": ["x"], "enabled": False},
                    "remote": {"type": "remote", "url": "https://r.example/mcp"},
                }
            }
        ),
    )
    fleet = intake.read_fleet(v1)
    assert [s.name for s in fleet.servers] == ["local", "remote"]
    assert fleet.servers[0].command == ("bun", "x", "cmd")
    assert any("off" in n for n in fleet.notes)
    v2 = _write(
        tmp_path / "v2" / "opencode.jsonc",
        '{"mcp": {"servers": {"e": {"type": "local", "command": ["npx", "-y", "e"]},'
        ' "d": {"type": "local", "command": ["d"], "disabled": true},},},}',
    )
    assert [s.name for s in intake.read_fleet(v2).servers] == ["e"]


def test_codex_toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCS_TOKEN", "t0k3n-value")
    monkeypatch.delenv("ABSENT_TOKEN", raising=False)
    spec = _write(
        tmp_path / "config.toml",
        """
model = "o4"
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { "API_KEY" = "v-1234" }
startup_timeout_sec = 20
tool_timeout_sec = 45

[mcp_servers.web]
url = "https://w.example/mcp"
bearer_token_env_var = "DOCS_TOKEN"

[mcp_servers.gone]
url = "https://g.example/mcp"
bearer_token_env_var = "ABSENT_TOKEN"

[mcp_servers.off]
command = "x"
enabled = false
""",
    )
    fleet = intake.read_fleet(spec)
    assert fleet.client == "codex"
    got = {s.name: s for s in fleet.servers}
    assert set(got) == {"docs", "web", "gone"}
    assert (got["docs"].startup_timeout, got["docs"].request_timeout) == (20.0, 45.0)
    assert got["web"].headers == {"Authorization": "Bearer t0k3n-value"}
    assert got["gone"].problem == "environment variable ABSENT_TOKEN is not set"


def test_registry_server_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEATHER_KEY", "w-987654")
    doc = {
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
        "name": "io.github.someone/weather",
        "description": "Weather",
        "version": "1.2.0",
        "packages": [
            {
                "registryType": "npm",
                "identifier": "@someone/weather-mcp",
                "version": "1.2.0",
                "transport": {"type": "stdio"},
                "packageArguments": [
                    {"type": "positional", "value": "serve"},
                    {"type": "named", "name": "--units", "value": "metric"},
                ],
                "environmentVariables": [{"name": "WEATHER_KEY", "isRequired": True}],
            },
            {
                "registryType": "pypi",
                "identifier": "weather-mcp",
                "version": "1.2.0",
                "transport": {"type": "stdio"},
            },
            {
                "registryType": "oci",
                "identifier": "ghcr.io/someone/weather",
                "version": "1.2.0",
                "transport": {"type": "stdio"},
                "environmentVariables": [{"name": "WEATHER_KEY", "isRequired": True}],
            },
        ],
        "remotes": [{"type": "sse", "url": "https://w.example/sse"}],
    }
    spec = _write(tmp_path / "server.json", json.dumps(doc))
    got = _by_name(spec)
    npm = got["io.github.someone/weather-npm"]
    assert npm.command == (
        "npx",
        "-y",
        "@someone/weather-mcp@1.2.0",
        "serve",
        "--units",
        "metric",
    )
    assert npm.env == {"WEATHER_KEY": "w-987654"}
    assert got["io.github.someone/weather-pypi"].command == ("uvx", "weather-mcp==1.2.0")
    assert got["io.github.someone/weather-oci"].command == (
        "docker",
        "run",
        "-i",
        "--rm",
        "-e",
        "WEATHER_KEY",
        "ghcr.io/someone/weather:1.2.0",
    )
    remote = got["io.github.someone/weather-remote"]
    assert (remote.url, remote.transport) == ("https://w.example/sse", "sse")
    monkeypatch.delenv("WEATHER_KEY")
    assert "WEATHER_KEY is required" in str(_by_name(spec)["io.github.someone/weather-npm"].problem)


def test_a_single_package_keeps_the_server_name(tmp_path: Path) -> None:
    doc = {
        "name": "io.github.x/one",
        "description": "d",
        "version": "1.0.0",
        "packages": [
            {
                "registryType": "npm",
                "identifier": "one",
                "version": "1.0.0",
                "transport": {"type": "stdio"},
            }
        ],
    }
    (server,) = intake.read_fleet(_write(tmp_path / "server.json", json.dumps(doc))).servers
    assert server.name == "io.github.x/one"


def test_secret_values_stay_out_of_repr_and_rows(tmp_path: Path) -> None:
    spec = _write(
        tmp_path / "claude_desktop_config.json",
        json.dumps(
            {
                "mcpServers": {
                    "s": {"command": "c", "env": {"TOKEN": "s3cr3t-value"}},
                    "h": {"url": "https://h.example/mcp", "headers": {"X-Key": "h3ad3r-value"}},
                }
            }
        ),
    )
    for server in intake.read_fleet(spec).servers:
        shown = repr(server) + json.dumps(server.row())
        assert "s3cr3t" not in shown and "h3ad3r" not in shown
    rows = [s.row() for s in intake.read_fleet(spec).servers]
    assert rows[0]["env"] == ["TOKEN"] and rows[1]["headers"] == ["X-Key"]


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("claude_desktop_config.json", "{", "not JSON"),
        ("claude_desktop_config.json", '{"other": 1}', "no servers found"),
        ("claude_desktop_config.json", '{"mcpServers": []}', "must be an object"),
        ("config.toml", "[mcp_servers", "not TOML"),
        ("config.toml", "model = 1", "no [mcp_servers.NAME] table"),
        (
            "opencode.json",
            '{"mcp": {"a": {"type": "local", "command": ["x"], "enabled": false}}}',
            "no enabled server",
        ),
    ],
)
def test_bad_configurations_are_one_error(tmp_path: Path, name: str, text: str, said: str) -> None:
    with pytest.raises(InputError, match=said.replace("[", r"\[").replace(".", r"\.")):
        intake.read_fleet(_write(tmp_path / name, text))


def test_a_codex_table_that_is_not_one_fails_its_server_only(tmp_path: Path) -> None:
    """`env`, `http_headers` and `env_http_headers` must be tables: that server's problem, not
    an internal error."""
    text = (
        '[mcp_servers.a]\ncommand = "x"\nenv = "y"\n'
        '[mcp_servers.b]\nurl = "http://h"\nenv_http_headers = ["X"]\n'
        '[mcp_servers.c]\ncommand = "x"\nenv = {K = 1}\n'
    )
    a, b, c = intake.read_fleet(_write(tmp_path / "config.toml", text)).servers
    assert a.problem == "/mcp_servers/a/env must be an object"
    assert b.problem == "/mcp_servers/b/env_http_headers must be an object"
    assert c.problem is None and c.env == {"K": "1"}


_FULL_SERVER_JSON = {
    "name": "io.github.x/s",
    "description": "d",
    "version": "1.0.0",
    "packages": [
        {
            "registryType": "npm",
            "identifier": "one",
            "version": "1.0.0",
            "runtimeHint": "npx",
            "transport": {"type": "stdio"},
            "runtimeArguments": [
                {
                    "type": "named",
                    "name": "--a",
                    "value": "{v}",
                    "variables": {"v": {"default": "x"}},
                }
            ],
            "packageArguments": [{"type": "positional", "value": "p"}],
            "environmentVariables": [{"name": "K", "default": "d", "isRequired": False}],
        }
    ],
    "remotes": [
        {
            "type": "streamable-http",
            "url": "https://h/{t}",
            "variables": {"t": {"default": "x"}},
            "headers": [{"name": "X", "value": "v"}],
        }
    ],
}


def _members(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [at]
    if isinstance(value, dict):
        for key, member in value.items():
            found += _members(member, (*at, key))
    elif isinstance(value, list):
        for index, member in enumerate(value):
            found += _members(member, (*at, index))
    return found


#: A configuration of each file format, every member a client reads filled in (`PROJECT`: the
#: directory the test runs in).
_FULL_CONFIGS: dict[str, object] = {
    "server.json": _FULL_SERVER_JSON,
    "claude_desktop_config.json": {
        "mcpServers": {
            "f": {"command": "npx", "args": ["-y", "srv"], "env": {"A": "b"}},
            "w": {"type": "http", "url": "https://h/mcp", "headers": {"X": "y"}},
        }
    },
    ".claude.json": {
        "mcpServers": {"s": {"type": "stdio", "command": "c", "args": ["a"], "env": {"A": "b"}}},
        "projects": {"PROJECT": {"mcpServers": {"s": {"command": "l"}}}},
    },
    ".mcp.json": {
        "mcpServers": {
            "d": {"command": "${MISSING:-pg}", "args": ["x"], "env": {"A": "b"}},
            "s": {"type": "sse", "url": "https://h/sse"},
        }
    },
    ".cursor/mcp.json": {
        "mcpServers": {
            "c": {"url": "https://c/mcp", "headers": {"K": "${env:HOME}"}},
            "l": {"command": "node", "args": ["s.js"], "env": {"A": "b"}},
        }
    },
    ".vscode/mcp.json": {
        "inputs": [{"type": "promptString", "id": "tok", "password": True}],
        "servers": {
            "l": {"type": "stdio", "command": "node", "args": ["${workspaceFolder}/s.js"]},
            "h": {"type": "http", "url": "https://a/mcp", "headers": {"A": "Bearer ${input:tok}"}},
        },
    },
    ".gemini/settings.json": {
        "mcp": {"excluded": ["d"], "allowed": ["a", "c"]},
        "mcpServers": {
            "a": {"httpUrl": "https://a/mcp", "timeout": 5000, "headers": {"X": "y"}},
            "c": {"command": "uvx", "args": ["g"], "cwd": "./r", "env": {"A": "b"}},
        },
    },
    "v1/opencode.json": {
        "mcp": {
            "l": {"type": "local", "command": ["bun", "x"], "environment": {"A": "1"}},
            "r": {"type": "remote", "url": "https://r/mcp", "headers": {"X": "y"}, "enabled": True},
        }
    },
    "v2/opencode.json": {
        "mcp": {"servers": {"e": {"type": "local", "command": ["npx", "e"], "disabled": False}}}
    },
}


def _replaced(value: object, at: tuple[object, ...], wrong: object) -> object:
    """A copy of `value` with the member at path `at` (keys and indexes) replaced by `wrong`."""
    if not at:
        return wrong
    copy: Any = json.loads(json.dumps(value))
    node = copy
    for step in at[:-1]:
        node = node[step]
    node[at[-1]] = wrong
    return copy


@pytest.mark.parametrize("name", sorted(_FULL_CONFIGS))
def test_every_member_of_any_type_is_a_row_or_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Each member of a full configuration replaced by each JSON type in turn: the fleet is
    read (a member of the wrong type fails its server's row) or refused with one input
    error, never an internal error (43 of the server.json cases and 14 of `.claude.json`'s
    were one)."""
    monkeypatch.chdir(tmp_path)
    full = json.loads(json.dumps(_FULL_CONFIGS[name]).replace("PROJECT", str(tmp_path)))
    for at in _members(full):
        for wrong in ("s", 5, 1.5, True, None, [], [1], {}, {"a": 1}):
            spec = _write(tmp_path / name, json.dumps(_replaced(full, at, wrong)))
            try:
                intake.read_fleet(spec)
            except InputError:
                pass


@pytest.mark.parametrize(
    ("at", "wrong", "problem"),
    [
        (("packages", 0, "transport"), "stdio", "transport is not an object"),
        (("packages", 0, "runtimeArguments"), 5, "runtimeArguments is not an array"),
        (("packages", 0, "runtimeArguments", 0, "variables"), ["v"], "variables is not an object"),
        (("remotes", 0, "headers"), {"X": "v"}, "headers is not an array"),
        (("packages",), "npm", "packages is not an array"),
    ],
)
def test_a_member_of_the_wrong_type_fails_its_server(
    tmp_path: Path, at: tuple[object, ...], wrong: object, problem: str
) -> None:
    doc = _replaced(_FULL_SERVER_JSON, at, wrong)
    rows = intake.read_fleet(_write(tmp_path / "server.json", json.dumps(doc))).servers
    assert [s.problem for s in rows if s.problem] and all(
        problem in s.problem for s in rows if s.problem
    ), [s.problem for s in rows]
    assert any(s.problem is None for s in rows)  # the fleet's other server is still there
