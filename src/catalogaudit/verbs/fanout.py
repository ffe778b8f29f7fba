"""Many input files worked on at once (`audit --jobs`): forked workers, results in input order.

Why: a gateway operator audits hundreds of servers' snapshots in one call, and each file is
read and audited on its own, sharing nothing with the others but the rules' code. Workers
forked from the process that has imported that code start at once, and the results come back
in input order, so the output is the one-process run's, byte for byte.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

#: With `--jobs 0` (the default), fewer inputs than this are worked on in this process: a
#: worker costs a fork and a pipe, and a handful of files are done before two would start.
MANY = 8

#: What each worker does with one input; set before the fork, so no function is pickled.
_WORK: Callable[[str], Any] | None = None


def workers(jobs: int, inputs: Sequence[str]) -> int:
    """How many processes work on `inputs`: `--jobs` (0: one per usable CPU once there are
    `MANY` inputs), never more than the inputs, and 1 where a process cannot fork safely
    (Windows, macOS) or an input is stdin (read once, by this process)."""
    if len(inputs) < 2 or "-" in inputs or not sys.platform.startswith("linux"):
        return 1
    if jobs == 0:
        if len(inputs) < MANY:
            return 1
        jobs = len(os.sched_getaffinity(0))
    return max(1, min(jobs, len(inputs)))


def fan_out(work: Callable[[str], T], inputs: Sequence[str], jobs: int) -> Iterator[T]:
    """`work(input)` for each input, in input order, in `jobs` forked processes. An exception
    raised by `work` is raised here at its input's turn; a worker that dies (killed, out of
    memory) raises `BrokenProcessPool` instead of hanging the run."""
    global _WORK
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _WORK = work
    # NOTE: what is alive now (imported code, options) is never collected; frozen, a child's
    # collections do not touch, and so copy, the pages it shares with this process.
    gc.freeze()
    pool = ProcessPoolExecutor(jobs, multiprocessing.get_context("fork"), initializer=_child)
    done = False
    try:
        yield from pool.map(_run, inputs)
        done = True
    finally:
        _WORK = None
        pool.shutdown(wait=done, cancel_futures=not done)


def _child() -> None:
    # NOTE: Ctrl-C reaches the whole process group; the parent alone answers it (exit 130),
    # and the workers, left without work, end with it instead of printing tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(spec: str) -> Any:
    assert _WORK is not None  # set by `fan_out` before the fork
    return _WORK(spec)
