"""Real clients through `catalogaudit proxy` (issue 38): the TS SDK v2 client fails to list a
2026-07-28 server that omits the cache hints and lists it through the proxy (`--fix
cache-hints`); Codex and Claude Code list a real server (mcp-server-time) through the proxy with
the same verdicts as without it, where no fix applies, and send their model the same tools and
call each of them (`verify --model`).

The drivers are `verify`'s; only the command the client spawns changes (`Target.serve_argv`).
Run with `pytest -m oracle` (or CATALOGAUDIT_ORACLE=1).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from helpers import PYTHON, ROOT, cli, fixture, npm_bin
from helpers.listening import listening
from helpers.oracle_common import asked_for, not_installed  # noqa: F401 - asked_for: fixture

from catalogaudit.verify import base
from catalogaudit.verify.drivers import claude_code, codex, ts_sdk_v2

pytestmark = pytest.mark.oracle

MODULES = ROOT / "tests" / "node_modules"
CA = [PYTHON, "-m", "catalogaudit"]
TIME = str(Path(PYTHON).parent / "mcp-server-time")


@dataclasses.dataclass(frozen=True)
class Spawned(base.Target):
    """A target whose client spawns `server` (through `proxy ARGS --` when `proxy` is set)."""

    server: tuple[str, ...] = ()
    proxy: tuple[str, ...] | None = None

    def serve_argv(self, max_seconds: float = 120) -> list[str]:
        if self.proxy is None:
            return list(self.server)
        return [*CA, "proxy", *self.proxy, "--", *self.server]


def spawned(snapshot: Path, tmp: Path, server: list[str], proxy: list[str] | None) -> Spawned:
    (t,) = base.targets([str(snapshot)], tmp)
    fields = {f.name: getattr(t, f.name) for f in dataclasses.fields(t)}
    return Spawned(**fields, server=tuple(server), proxy=None if proxy is None else tuple(proxy))


def installed(what: str, path: Path) -> None:
    if not path.exists():
        not_installed(what)
        pytest.skip(f"{what} not installed: run `npm ci --prefix tests`")


def test_ts_sdk_v2_lists_a_server_without_cache_hints_only_through_the_proxy(
    tmp_path: Path,
) -> None:
    installed("ts-sdk-v2", MODULES / "@modelcontextprotocol" / "client" / "package.json")
    example = fixture("captures", "example-server.snapshot.json")
    server = [*CA, "serve", "--protocol", "dual", "--cache-hints", "absent", str(example)]
    driver = ts_sdk_v2.driver(str(MODULES))
    direct, unfixed, proxied = driver.run(
        [
            spawned(example, tmp_path, server, None),
            # the driver's client names itself catalogaudit-verify: no profile, no fix
            spawned(example, tmp_path, server, []),
            spawned(example, tmp_path, server, ["--fix", "cache-hints"]),
        ]
    )
    for failed in (direct, unfixed):
        assert failed and all(o.items is None for o in failed), failed
        assert all("missing required resultType" in o.error for o in failed), failed
    assert proxied and all(o.items and not o.error for o in proxied), proxied
    (target,) = base.targets([str(example)], tmp_path)
    kept = {o.listing: len(o.items or []) for o in proxied}
    assert kept == {n: len(target.catalog.listing(n)["items"]) for n in target.listings}


@pytest.mark.parametrize("server", ["time", "everything"])
@pytest.mark.parametrize(
    ("client", "exe"), [(codex, "codex"), (claude_code, "claude")], ids=["codex", "claude-code"]
)
def test_real_clients_see_a_real_server_through_the_proxy_as_without_it(
    tmp_path: Path, client: object, exe: str, server: str
) -> None:
    installed(exe, MODULES / ".bin" / exe)
    # server-everything also sends the client requests (roots/list) and notifications
    argv = [TIME] if server == "time" else [npm_bin("mcp-server-everything")]
    snapshot = tmp_path / "server.json"
    made = cli("snapshot", "-o", str(snapshot), "--", *argv, timeout=180)
    assert made.code == 0, str(made)
    driver = client.driver(str(MODULES))  # type: ignore[attr-defined]
    targets = [
        spawned(snapshot, tmp_path, argv, None),
        spawned(snapshot, tmp_path, argv, []),
    ]
    runs = zip(targets, driver.run(targets), strict=True)
    direct, proxied = (base.observe(t, r) for t, r in runs)
    verdicts = [(o.listing, o.index, o.verdict) for o in direct]
    assert verdicts and all(v == "kept" for _, _, v in verdicts), direct
    assert [(o.listing, o.index, o.verdict) for o in proxied] == verdicts


def test_ts_sdk_v2_over_http_lists_only_through_the_proxy(tmp_path: Path) -> None:
    installed("ts-sdk-v2", MODULES / "@modelcontextprotocol" / "client" / "package.json")
    example = fixture("captures", "example-server.snapshot.json")
    (target,) = base.targets([str(example)], tmp_path)
    serve = ["serve", "--http", "0", "--protocol", "dual", "--cache-hints", "absent"]
    with (
        listening(*serve, str(example)) as (upstream, _),
        listening("proxy", "--listen", "0", "--url", upstream, "--fix", "cache-hints") as (
            url,
            _,
        ),
    ):
        direct, proxied = ts_sdk_v2.driver(str(MODULES)).run(
            [dataclasses.replace(target, url=upstream), dataclasses.replace(target, url=url)]
        )
    assert direct and all("missing required resultType" in o.error for o in direct), direct
    assert proxied and all(o.items and not o.error for o in proxied), proxied


@pytest.mark.parametrize(("client", "binary"), [("claude-code", "claude"), ("codex", "codex")])
def test_clients_send_the_model_the_same_tools_and_call_them_through_the_proxy(
    client: str, binary: str
) -> None:
    installed(binary, MODULES / ".bin" / binary)

    def views(*server: str) -> list[tuple[str, ...]]:
        args = ["--client-path", str(MODULES), "--model", "--format", "json"]
        result = cli("verify", "--client", client, *args, "--", *server, timeout=600)
        assert result.code == 0, str(result)
        return [
            (v["mode"], v["identity"], v["offered"], v["modelViewSha256"], v["call"])
            for v in result.json()["modelViews"]
        ]

    direct = views(TIME)
    assert direct and all(v[-1] == "reached" for v in direct), direct
    assert views(*CA, "proxy", "--", TIME) == direct


def test_codex_over_http_sees_the_server_through_the_proxy_as_without_it(tmp_path: Path) -> None:
    installed("codex", MODULES / ".bin" / "codex")
    example = fixture("captures", "example-server.snapshot.json")
    (target,) = base.targets([str(example)], tmp_path)
    serve = ["serve", "--http", "0", "--protocol", "dual", "--cache-hints", "present"]
    with (
        listening(*serve, str(example)) as (upstream, _),
        listening("proxy", "--listen", "0", "--url", upstream) as (url, _),
    ):
        targets = [dataclasses.replace(target, url=upstream), dataclasses.replace(target, url=url)]
        runs = zip(targets, codex.driver(str(MODULES)).run(targets), strict=True)
        direct, proxied = (
            [(o.listing, o.index, o.verdict) for o in base.observe(t, r)] for t, r in runs
        )
    assert direct and all(v == "kept" for _, _, v in direct), direct
    assert proxied == direct
