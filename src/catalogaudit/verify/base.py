"""What a verify driver returns, and how a client's raw list results become observations.

A driver runs a real client against `catalogaudit serve SNAPSHOT` and reports, per listing, what
the client's own list call gave back: the items it kept, or the error it failed with. Turning
that into per-item verdicts is shared here, so every driver is judged the same way and a driver
only has to know how to drive its client.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from catalogaudit.errors import CatalogauditError
from catalogaudit.intake import Intake, read_catalog
from catalogaudit.model import (
    CAPABILITY_OF,
    DROPPED,
    FAILED,
    KEPT,
    LISTINGS,
    Catalog,
    Observation,
    identity,
    written,
)

#: Real clients try the internet at startup (update checks, telemetry, plugin sync). Nothing may
#: leave this machine: every proxy-aware HTTP(S) request goes to a closed loopback port instead
#: and fails at once. Loopback itself bypasses the proxy, so a client reaches the MCP server
#: that `verify --transport http` serves on 127.0.0.1 (and nothing else).
LOOPBACK = "127.0.0.1,localhost,::1"
OFFLINE_ENV: dict[str, str] = {
    **dict.fromkeys(
        ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"),
        "http://127.0.0.1:9",
    ),
    "NO_PROXY": LOOPBACK,
    "no_proxy": LOOPBACK,
}


class ClientNotFound(CatalogauditError):
    """The client (or its library) is not installed where we looked (one `error:` line, exit 2)."""


@dataclass(frozen=True)
class ListOutcome:
    """A client's answer to one list call: the items it returned, or its error message."""

    listing: str
    items: list[Any] | None
    error: str = ""
    #: Served index -> the client's own reason for leaving that item out, when it gives one.
    reasons: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Target:
    """One catalog to verify: its label, its snapshot file, and the parsed catalog."""

    label: str
    path: Path
    catalog: Catalog
    #: `verify --transport http`: the Streamable HTTP URL `serve --http` listens on (None:
    #: the client spawns `serve` over stdio).
    url: str | None = None
    #: Only these listings are asked for (None: every listing the snapshot captured).
    only: tuple[str, ...] | None = None

    @property
    def listings(self) -> list[str]:
        """The listings the snapshot captured (absent ones are not asked for)."""
        return [
            name
            for name in LISTINGS
            if self.catalog.present(name) and (self.only is None or name in self.only)
        ]

    def serve_argv(self, max_seconds: float = 120) -> list[str]:
        """The server command the client spawns: this interpreter's `catalogaudit serve`.

        A static snapshot has no server capabilities; the listings it holds are declared, so
        a client that checks capabilities before listing still asks for them.
        """
        argv = [sys.executable, "-m", "catalogaudit", "serve", str(self.path)]
        argv += ["--max-seconds", str(max_seconds)]
        if not isinstance(self.catalog.capture.get("serverCapabilities"), dict):
            caps: dict[str, dict[str, Any]] = {CAPABILITY_OF[n]: {} for n in self.listings}
            argv += ["--capabilities", json.dumps(caps)]
        return argv


class Driver(Protocol):
    """A real client, driven without a key or a model call."""

    #: The profile id this driver checks (`python-sdk`, `ts-sdk`).
    id: str

    def version(self) -> str:
        """The installed client's version; ClientNotFound when it is not installed."""
        ...

    def run(self, targets: Sequence[Target]) -> list[list[ListOutcome]]:
        """Every target's list outcomes, in target order (one client process for all)."""
        ...


def home_env(inherited: Mapping[str, str], home: Path, **extra: str) -> dict[str, str]:
    """A client's environment: what it may inherit, a throwaway HOME with every XDG directory
    under it (so no user configuration, cache or login is read), the client's own settings,
    and the offline proxies last, so no setting can undo them."""
    return {
        **inherited,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        **extra,
        **OFFLINE_ENV,
    }


def tools_only(targets: Sequence[Target], client: str) -> None:
    """Refuse a catalog without a tool listing, for a driver that observes only tools."""
    untooled = [t.label for t in targets if "tools" not in t.listings]
    if untooled:
        raise CatalogauditError(
            f"{untooled[0]}: no tool listing; the {client} driver observes tools only"
        )


def executable(name: str, path: str | None, also: Sequence[str] = ()) -> str:
    """The client executable: `path` itself; in a node_modules directory `.bin/NAME` (or the
    first file matching one of the `also` globs); else NAME on PATH. ClientNotFound if none."""
    if path is None:
        found = shutil.which(name)
        if found is None:
            raise ClientNotFound(f"{name}: not on PATH (give it with --client-path)")
        return found
    given = Path(path)
    if given.is_dir():
        candidates = [given / ".bin" / name, *(m for g in also for m in sorted(given.glob(g)))]
        given = next((c for c in candidates if c.is_file()), candidates[0])
    if not given.is_file() or not os.access(given, os.X_OK):
        raise ClientNotFound(f"{name}: no executable at {given}")
    return str(given.resolve())


def server_argv(target: Target, max_seconds: float) -> list[str]:
    """`target.serve_argv` with the snapshot path made absolute: clients run in a temporary
    directory, so a path relative to ours would not be found."""
    relative = str(target.path)
    absolute = str(target.path.resolve())
    return [absolute if a == relative else a for a in target.serve_argv(max_seconds)]


def run_group(
    client: str, argv: Sequence[str], env: Mapping[str, str], cwd: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    """Run a client CLI in its own process group, then kill the group: the servers it started
    die with it, whatever it did."""
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
        )
    except OSError as exc:
        raise ClientNotFound(f"{client}: cannot run {argv[0]}: {exc.strerror}") from None
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        shown = " ".join([Path(argv[0]).name, *argv[1:3]])
        raise CatalogauditError(f"{client}: `{shown}` gave no answer in {timeout:.0f} s") from None
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def run_job(
    name: str, argv: Sequence[str], targets: Sequence[Target], timeout: float
) -> list[list[ListOutcome]]:
    """Run a one-shot SDK driver script: a JSON job on stdin, per-target outcomes on stdout.

    The Python and TypeScript SDK drivers share this protocol, so the job, the time bound and
    the parsing live once here.
    """
    job = {
        "timeout": timeout,
        "targets": [
            {"url": t.url, "listings": t.listings}
            if t.url
            else {"argv": t.serve_argv(), "listings": t.listings}
            for t in targets
        ],
    }
    env = None
    if any(t.url for t in targets):
        # A proxy from the user's environment must not carry the loopback server's traffic.
        env = {**os.environ, "NO_PROXY": LOOPBACK, "no_proxy": LOOPBACK}
    try:
        proc = subprocess.run(
            list(argv),
            input=json.dumps(job),
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout * (len(targets) + 1),
        )
    except subprocess.TimeoutExpired:
        raise CatalogauditError(f"{name} driver got no answer in time") from None
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise CatalogauditError(f"{name} driver failed (exit {proc.returncode}): {tail}")
    return [
        [ListOutcome(o["listing"], o.get("items"), o.get("error", "")) for o in outcomes]
        for outcomes in json.loads(proc.stdout)
    ]


def targets(
    catalogs: Sequence[str | Path | dict[str, Any] | Intake], workdir: Path
) -> list[Target]:
    """Snapshot files stay where they are (read through the intake, so a hand-edited readable
    copy gives way to the wire copy); snapshot documents are written under `workdir`."""
    out: list[Target] = []
    for n, item in enumerate(catalogs):
        if isinstance(item, dict):
            path = workdir / f"catalog-{n}.json"
            path.write_text(written(item), encoding="utf-8")
            label = str(item.get("capture", {}).get("inputs", [f"catalog-{n}"])[0])
            doc = item
        else:
            got = item if isinstance(item, Intake) else read_catalog(str(item))
            if not got.is_snapshot:
                raise CatalogauditError(
                    f"{got.spec}: verify needs a snapshot (make one with `snapshot --from`)"
                )
            path, label, doc = Path(got.spec), got.spec, got.doc
        out.append(Target(label, path, Catalog(doc, source=label)))
    return out


def observe(target: Target, outcomes: Sequence[ListOutcome]) -> list[Observation]:
    """Per list and per item verdicts from a client's list outcomes.

    A failed call drops every item, with the client's message on each. A call that succeeded
    keeps the items the client returned; they are matched to the catalog's by identity in served
    order, so a client that silently drops one item (Inspector) shows that item as dropped.
    """
    out: list[Observation] = []
    for outcome in outcomes:
        name = outcome.listing
        items = target.catalog.items(name)
        if outcome.items is None:
            out.append(Observation(target.label, name, None, None, FAILED, outcome.error))
            out.extend(
                Observation(target.label, name, i.served_index, i.identity, DROPPED, outcome.error)
                for i in items
            )
            continue
        out.append(Observation(target.label, name, None, None, KEPT))
        returned = [identity(name, v) for v in outcome.items]
        for item in items:
            if item.identity in returned:
                returned.remove(item.identity)
                verdict, why = KEPT, ""
            else:
                why = outcome.reasons.get(item.served_index, "not in the client's list result")
                verdict = DROPPED
            out.append(
                Observation(target.label, name, item.served_index, item.identity, verdict, why)
            )
    return out


def verify(
    driver: Driver, catalogs: Sequence[str | Path | dict[str, Any] | Intake]
) -> list[tuple[Target, list[Observation]]]:
    """Run the driver's client over every catalog (one client process for all) and observe;
    the client spawns `serve` over stdio (`transports.verify` serves over HTTP)."""
    with tempfile.TemporaryDirectory(prefix="catalogaudit-verify-") as tmp:
        found = targets(catalogs, Path(tmp))
        results = driver.run(found)
        return [(t, observe(t, r)) for t, r in zip(found, results, strict=True)]
