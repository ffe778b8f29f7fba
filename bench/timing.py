"""Timing whole processes: wall clock around each, its peak RSS from `os.wait4`, alternated runs.

Every contender is a new process. `os.wait4` gives the child's own `ru_maxrss` (with that of
the children it waited for, such as a server it spawned), which `resource.getrusage` would mix
with every other child of the bench.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
OURS = [PY, "-m", "catalogaudit"]
#: The environment of every child: our checkout first on the path; `run.py` adds the peers'.
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
#: `--only`: words of the rows to time (empty: every row).
ONLY: list[str] = []


class Failed(Exception):
    """A contender exited with a status other than 0 or 1."""


@dataclass(frozen=True)
class Sample:
    seconds: float
    rss_mib: float


def timed(argv: Sequence[str]) -> Sample:
    """One process, waited for with `os.wait4` so the RSS is this child's alone."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        shown = " ".join(Path(a).name if "/" in a else a for a in argv[:6])
        more = f" ... ({len(argv)} words)" if len(argv) > 6 else ""
        raise Failed(f"exit {proc.returncode}: {shown}{more}")
    return Sample(seconds, usage.ru_maxrss / 1024)


def med(samples: list[Sample]) -> float:
    return statistics.median(s.seconds for s in samples)


def rss(samples: list[Sample]) -> float:
    return statistics.median(s.rss_mib for s in samples)


@dataclass
class Row:
    label: str
    peer_label: str
    target: float | None  # ours / peer at most this (None: shown only)
    ours: list[Sample] = field(default_factory=list)
    peer: list[Sample] = field(default_factory=list)
    error: str = ""  # a contender failed: counted as missed
    skipped: str = ""  # the row does not apply to this shape: why

    @property
    def ratio(self) -> float:
        return med(self.ours) / med(self.peer)

    @property
    def met(self) -> bool:
        if self.skipped:
            return True
        return not self.error and (self.target is None or self.ratio <= self.target)

    def cells(self) -> str:
        """The table cells after the label: ours, peer, its time, ratio, target, verdict."""
        target = "" if self.target is None else f"<= {self.target}"
        if self.skipped or self.error:
            why = self.skipped or f"failed: {self.error}"
            verdict = "n/a" if self.skipped else "MISSED"
            return f" {why} | {self.peer_label} | | | {target} | {verdict} |"
        return (
            f" {med(self.ours):.3f} s, {rss(self.ours):.0f} MiB | {self.peer_label} |"
            f" {med(self.peer):.3f} s, {rss(self.peer):.0f} MiB | {self.ratio:.2f} | {target} |"
            f" {'met' if self.met else 'MISSED'} |"
        )


def wanted(label: str) -> bool:
    return not ONLY or any(word in label for word in ONLY)


def compare(
    label: str,
    ours: Sequence[str],
    peer: Sequence[str],
    peer_label: str,
    target: float | None,
    runs: int,
) -> Row | None:
    """Interleaved: ours, peer, then peer, ours, ... after one untimed warm-up each (None:
    not among `--only`)."""
    if not wanted(label):
        return None
    row = Row(label, peer_label, target)
    try:
        timed(ours)
        timed(peer)
        for i in range(runs):
            pair = ((ours, row.ours), (peer, row.peer))
            for argv, into in pair if i % 2 == 0 else pair[::-1]:
                into.append(timed(argv))
    except Failed as exc:
        row.error = str(exc)
        print(f"  {label}: {row.error}", flush=True)
        return row
    print(
        f"  {label}: {med(row.ours):.3f} s vs {med(row.peer):.3f} s ({row.ratio:.2f}x)", flush=True
    )
    return row


def skip(label: str, peer_label: str, target: float | None, why: str) -> Row | None:
    """A row that does not apply to a shape, shown with the reason (None: not among `--only`)."""
    return Row(label, peer_label, target, skipped=why) if wanted(label) else None
