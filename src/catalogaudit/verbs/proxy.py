"""`catalogaudit proxy`: stand between a client and a server that cannot be changed today and
apply the fixes `rewrite` proves on a snapshot, live, to the sessions whose client needs them.

Everything else passes untouched. The active fixes are said once on stderr at start, and each
session's client and the fixes it gets when it names itself; secrets are never said.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from catalogaudit.errors import UsageError
from catalogaudit.proxy import Policy, run_bridge, run_http, run_stdio, say
from catalogaudit.rewriting import check_fixes, resolve
from catalogaudit.verbs import live  # NOTE: so a signal ends the server (cli.entry -> live.abort)
from catalogaudit.verbs.secrets import masker_for
from catalogaudit.wire import Limits


@dataclass(frozen=True)
class ProxyOptions:
    """Everything `catalogaudit proxy` was asked to do."""

    command: tuple[str, ...] = ()
    #: `--listen PORT --url URL`: Streamable HTTP in front of an HTTP server.
    listen: int | None = None
    url: str | None = None
    host: str = "127.0.0.1"
    idle_timeout: float = 300.0
    fixes: tuple[str, ...] = ()
    no_fixes: tuple[str, ...] = ()
    substitutions: str | None = None
    cwd: str | None = None
    request_timeout: float = 30.0
    max_message_size: int = 64 * 1024 * 1024
    secrets: tuple[str, ...] = ()


def run(o: ProxyOptions) -> int:
    """Check the options, announce, relay until one side ends; the exit code."""
    forced = check_fixes(o.fixes)
    off = check_fixes(o.no_fixes)
    both = [f for f in forced if f in off]
    if both:
        raise UsageError(f"--fix {both[0]} and --no-fix {both[0]} contradict each other")
    if o.listen is not None and o.url is None:
        raise UsageError("--listen needs --url: catalogaudit proxy --listen PORT --url URL")
    if o.url is not None and o.command:
        raise UsageError("give --url or a server command after --, not both")
    if o.url is None and not o.command:
        raise UsageError("give the server command after --: catalogaudit proxy -- COMMAND")
    if o.url is not None and not o.url.startswith(("http://", "https://")):
        raise UsageError("--url must be an http:// or https:// URL")
    live.check_seconds("--request-timeout", o.request_timeout)
    live.check_seconds("--idle-timeout", o.idle_timeout)
    if o.max_message_size < 1024:
        raise UsageError("--max-message-size must be at least 1024 bytes")
    subs = resolve(o.substitutions, os.environ)
    marked = [live.secret_value(v) for v in o.secrets]
    masker = masker_for(o.command, {}, {}, o.url, marked)
    policy = Policy(frozenset(forced), frozenset(off), subs)
    for line in policy.announce():
        say(masker.text(line))
    limits = Limits(request_timeout=o.request_timeout, max_message=o.max_message_size)

    def note(line: str) -> None:
        say(masker.text(line))

    if o.url is not None and o.listen is not None:
        return run_http(o.url, o.host, o.listen, o.idle_timeout, policy, limits, note)
    if o.url is not None:
        return run_bridge(o.url, policy, limits, note)
    return run_stdio(o.command, policy, limits, env=dict(os.environ), cwd=o.cwd, masked=masker.text)
