"""`verify --client codex|opencode|gemini-cli --model`: one headless session of the client
against the loopback stand-in of its model API, every catalog a stdio MCP server (`serve
SNAPSHOT --call-log`, or a real server behind `verify.tap`), no key, no model, every other
destination on the closed proxy.

- Codex 0.169.0: `codex exec` with a temporary `CODEX_HOME` whose `config.toml` has a custom
  model provider (`wire_api = "responses"`, `base_url` the OpenAI Responses stand-in,
  `verify.responses_api`) and `[mcp_servers.<name>]`; approvals bypassed, as a user who
  allows the tools would (`codex exec` otherwise refuses a call that needs approval).
- opencode 1.18.33: `opencode run` with a custom OpenAI-compatible provider
  (`@ai-sdk/openai-compatible`, `baseURL` the Chat Completions stand-in, `verify.chat_api`)
  and `"permission": "allow"`.
- Gemini CLI 0.61.0: `gemini -p` with `GOOGLE_GEMINI_BASE_URL` on the Gemini API stand-in
  (`verify.gemini_api`) and every server trusted (`trust: true` skips confirmation).

The stand-in answers the first request that offers the wanted tools with one call each, all
in one turn; the client runs them and sends the results back; the call log says which calls
reached the server. Each client has one mode, `default` (as installed).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from catalogaudit.errors import CatalogauditError
from catalogaudit.model import INLINE, NOT_CALLED, NOT_OFFERED, REACHED, REFUSED, ToolView
from catalogaudit.rules import TRANSFORMS
from catalogaudit.verify import chat_api, gemini_api, responses_api
from catalogaudit.verify.base import OFFLINE_ENV, run_group
from catalogaudit.verify.model_view import PROMPT, Served, Session, logged
from catalogaudit.verify.predict_model import hashed_names
from catalogaudit.verify.standin import Offered, Recorded, Script, StandIn, member

#: The one mode of these clients.
DEFAULT = "default"
#: The variables a client may inherit (no key, endpoint or configuration of the caller's).
_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT")


@dataclass(frozen=True)
class Wire:
    """An API family's stand-in: serve it, read the tools a request offered and the call
    results the client sent back."""

    running: Callable[[Script], AbstractContextManager[StandIn]]
    offered: Callable[[Recorded], list[Offered]]
    outcomes: Callable[[list[Recorded]], dict[str, tuple[bool, str]]]


RESPONSES = Wire(responses_api.running, responses_api.offered, responses_api.outcomes)
CHAT = Wire(chat_api.running, chat_api.offered, chat_api.outcomes)
GEMINI = Wire(gemini_api.running, gemini_api.offered, gemini_api.outcomes)


def sent_name(client: str, server: str, tool: str) -> str:
    """The name a client's request gives `tool` of `server` (as measured; the prediction's
    own naming is the profile's `model_view` data)."""
    if client == "codex":
        fix = TRANSFORMS["codex"]
        return f"mcp__{fix(server)}/{fix(tool)}"
    if client == "opencode":
        return TRANSFORMS["underscore-invalid"](f"{server}_{tool}")
    from catalogaudit.verify.drivers.gemini_cli import qualified

    return qualified(server, tool)


def _sent_names(client: str, s: Served) -> dict[str, str]:
    """Served tool name -> its sent name; Codex suffixes names that meet once sanitized or
    are too long (`predict_model.hashed_names`, as measured)."""
    items = s.target.catalog.items("tools")
    names = [str(i.value.get("name")) for i in items if isinstance(i.value, dict)]
    renamed = hashed_names("codex", s.name, names, 128) if client == "codex" else {}
    return {n: sent_name(client, s.name, renamed.get(n, n)) for n in names}


def wire(client: str) -> Wire:
    """The API family a client speaks."""
    return {"codex": RESPONSES, "opencode": CHAT, "gemini-cli": GEMINI}[client]


def session(drv: Any, served: Sequence[Served], workdir: Path) -> Session:
    """Run the client once against its stand-in; the servers run in `workdir`."""
    names = {sent: (s, name) for s in served for name, sent in _sent_names(drv.id, s).items()}
    for s in served:
        s.log.unlink(missing_ok=True)
        Path(f"{s.log}.tools").unlink(missing_ok=True)

    def wanted(name: str) -> bool:
        hit = names.get(name)
        return hit is not None and hit[1] in hit[0].calls

    script = Script(wanted)
    home = workdir / f"home-{drv.id}"
    home.mkdir(parents=True, exist_ok=True)
    with wire(drv.id).running(script) as stand:
        argv, env, cwd = _setup(drv, served, home, stand.url)
        output = _run(drv.id, argv, env, cwd, drv.timeout * 2 + 60)
        requests = stand.model_requests()
    return Session(DEFAULT, requests, script, output)


def _setup(
    drv: Any, served: Sequence[Served], home: Path, url: str
) -> tuple[list[str], dict[str, str], Path]:
    """The client's command, environment and working directory for one session."""
    servers = {s.name: s.argv for s in served}
    if drv.id == "codex":
        (home / "codex").mkdir(exist_ok=True)
        lines = [
            'model = "catalogaudit-stand-in"',
            'model_provider = "loopback"',
            # 0.169.0 builds the first request once its optional servers' startup grace is
            # over (`mcp_optional_startup_grace_ms`), with the tools of those that are up.
            f"mcp_optional_startup_grace_ms = {int(drv.timeout * 1000)}",
            "",
            "[model_providers.loopback]",
            'name = "loopback"',
            f"base_url = {json.dumps(url + '/v1')}",
            'wire_api = "responses"',
        ]
        for name, argv in servers.items():
            lines += ["", f"[mcp_servers.{json.dumps(name)}]"]
            lines += [f"command = {json.dumps(argv[0])}", f"args = {json.dumps(argv[1:])}"]
            lines.append(f"startup_timeout_sec = {int(drv.timeout)}")
            lines.append(f"tool_timeout_sec = {int(drv.timeout)}")
        (home / "codex" / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv = [drv.codex, "exec", "--skip-git-repo-check"]
        argv += ["--dangerously-bypass-approvals-and-sandbox", PROMPT]
        return argv, _pythonpath(drv.env(home)), home
    if drv.id == "opencode":
        from catalogaudit.verify.drivers.opencode import _seed_plugin_dependency

        config_dir = home / ".config" / "opencode"
        config_dir.mkdir(parents=True, exist_ok=True)
        (home / "work").mkdir(exist_ok=True)
        config = {
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": False,
            "share": "disabled",
            "lsp": False,
            "formatter": False,
            "permission": "allow",
            "enabled_providers": ["loopback"],
            "model": "loopback/stand-in",
            "provider": {
                "loopback": {
                    "name": "loopback",
                    "npm": "@ai-sdk/openai-compatible",
                    "options": {"baseURL": url + "/v1", "apiKey": "catalogaudit-stand-in"},
                    "models": {"stand-in": {"name": "stand-in"}},
                }
            },
            "mcp": {
                name: {
                    "type": "local",
                    "command": argv,
                    "enabled": True,
                    "timeout": int(drv.timeout * 1000),
                }
                for name, argv in servers.items()
            },
        }
        (config_dir / "opencode.json").write_text(json.dumps(config), encoding="utf-8")
        _seed_plugin_dependency(config_dir)
        argv = [drv.opencode, "run", "--print-logs", "--log-level", "WARN", PROMPT]
        return argv, _pythonpath(drv.env(home)), home / "work"
    from catalogaudit.verify.drivers.gemini_cli import MODEL

    (home / ".gemini").mkdir(exist_ok=True)
    settings = drv.settings([])
    settings["mcpServers"] = {
        name: {
            "command": argv[0],
            "args": argv[1:],
            "trust": True,
            "timeout": int(drv.timeout * 1000),
        }
        for name, argv in servers.items()
    }
    (home / ".gemini" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    return [drv.gemini, "-m", MODEL, "-p", PROMPT], _pythonpath(drv.env(home, url)), home


def _pythonpath(env: dict[str, str]) -> dict[str, str]:
    """`serve` and the tap must be this very package, whatever the working directory."""
    from catalogaudit.verify.model_view import _SOURCE

    kept = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**env, "PYTHONPATH": os.pathsep.join([str(_SOURCE), *kept]), **OFFLINE_ENV}


def _run(client: str, argv: list[str], env: dict[str, str], cwd: Path, timeout: float) -> str:
    """The client's whole output (`verify.base.run_group`: the servers it started die with it)."""
    done = run_group(client, argv, env, cwd, timeout)
    return done.stdout + done.stderr


def tools_text(client: str, run: Session) -> str:
    """The exact `tools` text of the first model request that offered an MCP tool of ours."""
    for rec in run.requests:
        if any(_ours(client, o.name) for o in wire(client).offered(rec)):
            text = member(rec.body.decode("utf-8", "surrogateescape"), "tools")
            if text is not None:
                return text
    raise CatalogauditError(
        f"{client}: no model request carried the MCP tools; it said: {run.output.strip()[-300:]}"
    )


def _ours(client: str, name: str) -> bool:
    return name.startswith({"codex": "mcp__", "gemini-cli": "mcp_"}.get(client, ""))


def split(client: str) -> Callable[[str], dict[str, str]]:
    """A `tools` text -> tool name -> its object's exact text."""

    def items(text: str) -> dict[str, str]:
        fake = Recorded("POST", "/", {}, ('{"tools":' + text + "}").encode())
        return {o.name: o.text for o in wire(client).offered(fake)}

    return items


def views(client: str, run: Session, served: Sequence[Served]) -> list[ToolView]:
    """Every served tool of every server as this session showed it to the model."""
    import hashlib

    sent: dict[str, Offered] = {}
    for rec in run.requests:
        for o in wire(client).offered(rec):
            sent.setdefault(o.name, o)
    results = wire(client).outcomes(run.requests)
    by_name = {name: cid for cid, name in run.script.ids.items()}
    out: list[ToolView] = []
    for s in served:
        # every served tool of a sent name is seen as the one object sent under it, and a
        # call of that name as reaching the server if it reached any of them
        sent_as = _sent_names(client, s)
        calls = {sent_as[n] for n in logged(s) if n in sent_as}
        for item in s.target.catalog.items("tools"):
            name = str(item.value.get("name")) if isinstance(item.value, dict) else ""
            base = (s.target.label, run.mode, item.served_index, name)
            qualified = sent_as.get(name, "")
            got = sent.get(qualified)
            if got is None:
                why = "not in the model request" if sent else "no model request carried tools"
                out.append(ToolView(*base, NOT_OFFERED, call=NOT_OFFERED, message=why))
                continue
            digest = hashlib.sha256(got.text.encode("utf-8", "surrogateescape")).hexdigest()
            cid = by_name.get(qualified)
            if cid is None:
                call, message = NOT_CALLED, ""
            else:
                _, text = results.get(cid, results.get(qualified, (True, "no result came back")))
                if qualified in calls:
                    call, message = REACHED, text[:300]
                else:
                    call, message = REFUSED, f"not at the server: {text[:280]}"
            out.append(ToolView(*base, INLINE, qualified, got.text, digest, call, message))
    return out
