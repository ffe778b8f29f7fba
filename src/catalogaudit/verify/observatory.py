"""Drive a client over the lattice and reduce each shape to one verdict, observed and predicted.

Each shape becomes a static snapshot (the lattice's JSONL through the intake, as `snapshot
--from` does) and is served by `catalogaudit serve`; shapes go to the client in batches, one
client process per batch (a one-defect server failing is still per server), and batches run a
few at a time. A shape's verdict is what happened to its defect: `server failed` (every
listing the client read failed), `list failed` (the listing holding the defect failed),
`item dropped` (the subject item was left out), else `kept`.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from packaging.version import Version

from catalogaudit.intake import read_merged
from catalogaudit.model import DROPPED, FAILED, Catalog, Observation
from catalogaudit.verify.base import Driver, Target, observe
from catalogaudit.verify.lattice import Shape, jsonl
from catalogaudit.verify.predict import predict

KEPT_, ITEM, LIST, SERVER = "kept", "item dropped", "list failed", "server failed"
#: Every verdict a shape can get, least loss first.
VERDICTS = (KEPT_, ITEM, LIST, SERVER)
#: The subject item's served index in every listing of the base (`ok` is 0).
SUBJECT = 1


@dataclass(frozen=True)
class Verdict:
    """One shape's outcome: the verdict and the message (client's words, or the rule's)."""

    verdict: str
    message: str = ""


def target(shape: Shape, workdir: Path | None, client: str = "") -> Target:
    """The shape as a verify target: a static snapshot of its JSONL (modern shapes negotiated
    2026-07-28, so `serve` answers them as a 2026-only server would), written into `workdir`
    for a client to be served (None: a prediction, which reads no file); for a client in
    PER_LISTING, only the listing that holds the defect."""
    doc = _snapshot(jsonl(shape), shape.era)
    path = Path(shape.id.replace("/", "~") + ".json")
    if workdir is not None:
        from catalogaudit.snapshots import render

        path = workdir / path
        path.write_text(render(doc), encoding="utf-8")
    only = (_listing(shape),) if client in PER_LISTING and shape.pointer else None
    return Target(shape.id, path, Catalog(doc, source=shape.id), only=only)


@lru_cache(maxsize=4096)
def _snapshot(lines: str, era: str) -> dict[str, Any]:
    """A shape's snapshot document from its JSONL, built once per process: the table and the
    oracle predict every shape for every client."""
    with tempfile.TemporaryDirectory(prefix="catalogaudit-shape-") as tmp:
        src = Path(tmp, "shape.jsonl")
        src.write_text(lines, encoding="utf-8")
        protocol = "2026-07-28" if era == "modern" else "auto"
        return read_merged([str(src)], protocol=protocol).doc


def _listing(shape: Shape) -> str:
    """The listing that holds the shape's defect (tools for the base)."""
    return shape.pointer.split("/")[1] if shape.pointer else "tools"


def reduce(shape: Shape, rows: Sequence[Observation]) -> Verdict:
    """One verdict for a shape from its per-list and per-item rows."""
    listing = _listing(shape)
    lists = {r.listing: r for r in rows if r.index is None}
    failed = [r for r in lists.values() if r.verdict == FAILED]
    if failed and len(failed) == len(lists) and len(lists) > 1:
        return Verdict(SERVER, failed[0].message)
    if listing in lists and lists[listing].verdict == FAILED:
        return Verdict(LIST, lists[listing].message)
    if failed:
        return Verdict(LIST, f"{failed[0].listing}: {failed[0].message}")
    dropped = [r for r in rows if r.index is not None and r.verdict == DROPPED]
    mine = [r for r in dropped if r.listing == listing and r.index == SUBJECT] or dropped
    if mine:
        return Verdict(ITEM, mine[0].message)
    return Verdict(KEPT_)


def rule_of(message: str) -> str:
    """The rule id a predicted message starts with (`CDX-TYPE-001: ...`), or ``."""
    head = message.partition(":")[0]
    return head if head and "-" in head and " " not in head else ""


def observe_all(
    driver: Driver,
    shapes: Sequence[Shape],
    *,
    batch: int = 40,
    jobs: int = 2,
    progress: Callable[[int], None] | None = None,
    keep: Callable[[dict[str, Verdict]], None] | None = None,
) -> dict[str, Verdict]:
    """Shape id -> observed verdict, the client driven over every shape in batches.

    `keep` gets each batch's verdicts as soon as the batch is done (one call at a time), so a
    caller can store them before a later batch fails or the run is interrupted."""
    out: dict[str, Verdict] = {}
    lock = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="catalogaudit-lattice-") as tmp:
        found = [target(s, Path(tmp), driver.id) for s in shapes]
        chunks = [list(range(i, min(i + batch, len(found)))) for i in range(0, len(found), batch)]

        def one(chunk: list[int]) -> None:
            results = driver.run([found[i] for i in chunk])
            got = {
                shapes[i].id: reduce(shapes[i], observe(found[i], outcomes))
                for i, outcomes in zip(chunk, results, strict=True)
            }
            with lock:
                out.update(got)
                if keep is not None:
                    keep(got)
                if progress is not None:
                    progress(len(chunk))

        with ThreadPoolExecutor(max(jobs, 1)) as pool:
            list(pool.map(one, chunks))
    return {s.id: out[s.id] for s in shapes}


def predict_all(
    profile: str, shapes: Iterable[Shape], listings: Sequence[str] | None = None
) -> dict[str, Verdict]:
    """Shape id -> the profile's predicted verdict, over the listings a driver observes."""
    out: dict[str, Verdict] = {}
    for shape in shapes:
        t = target(shape, None, profile.partition("@")[0])
        chosen = t.listings if t.only else listings
        rows = [r for r in predict(t, profile) if chosen is None or r.listing in chosen]
        out[shape.id] = reduce(shape, rows)
    return out


#: Listings each driver observes (the others observe every listing the snapshot holds).
OBSERVES: dict[str, tuple[str, ...]] = {
    "codex": ("tools", "resources", "resourceTemplates"),
    # Prompts from the init line's slash commands, resources through ListMcpResourcesTool.
    "claude-code": ("tools", "prompts", "resources"),
    # Resources through its list_mcp_resources tool; prompts reach no request (its driver).
    "gemini-cli": ("tools", "resources"),
    # opencode lists templates but exposes them on no route (its driver's docstring).
    "opencode": ("tools", "resources", "prompts"),
}
#: Clients that never negotiate 2026-07-28 (they send no `server/discover`): the modern era
#: is one verdict for them (the handshake), observed on `base@modern` only.
LEGACY_ONLY = ("codex", "ts-sdk", "opencode", "inspector", "context-forge", "gemini-cli")
#: The first release of a LEGACY_ONLY client that negotiates 2026-07-28 (measured: ContextForge
#: 1.1.0's mcp 2.3.0 lists a 2026-only server; 1.0.11's mcp 2.2.0 gets -32022 on it).
MODERN_FROM = {"context-forge": "1.1.0"}
#: Clients whose every list call is a client process and a server of its own (the Inspector
#: CLI): a defect in one listing cannot cost another, so only the defect's listing is asked
#: (the base shapes are asked every listing).
PER_LISTING = ("inspector",)


def applicable(client: str, shape: Shape, version: str | None = None) -> bool:
    """Whether the client's driver (at `version`, when known) can observe the shape's defect."""
    if shape.era == "modern" and client in LEGACY_ONLY and not _modern(client, version):
        return shape.id == "base@modern"
    listing = _listing(shape)
    return listing in OBSERVES.get(client, (listing,))


def _modern(client: str, version: str | None) -> bool:
    """Whether this release of a LEGACY_ONLY client negotiates 2026-07-28 (MODERN_FROM)."""
    first = MODERN_FROM.get(client)
    return first is not None and version is not None and Version(version) >= Version(first)
