"""Work in forked processes for `audit --jobs`, with the one-process outcome, byte for byte.

Why: a gateway operator audits hundreds of servers' snapshots in one call, and each file is
read and audited on its own, sharing nothing with the others but the rules' code. Workers
forked from the process that has imported that code start at once, and the results come back
in input order (`fan_out`). Nothing is forked inside one input: parallelism is across inputs.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from catalogaudit.errors import CatalogauditError

T = TypeVar("T")

#: Where a process can fork safely with its imports warm (not Windows; not macOS, whose
#: system libraries may hold locks across a fork).
_FORKS = sys.platform.startswith("linux")

#: With `--jobs 0` (the default), fewer inputs than this are worked on in this process: a
#: worker costs a fork and a pipe, and a handful of files are done before two would start.
MANY = 8

#: The signals a worker answers otherwise than this process (`_child`).
_SIGNALS = {
    getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, n)
}

#: What each worker does with one input; set before the fork, so no function is pickled.
_WORK: Callable[[Any], Any] | None = None


def workers(jobs: int, inputs: Sequence[str]) -> int:
    """How many processes work on `inputs`: `--jobs` (0: one per usable CPU once there are
    `MANY` inputs), never more than the inputs, and 1 where a process cannot fork safely
    (Windows, macOS) or an input is stdin (read once, by this process)."""
    if len(inputs) < 2 or "-" in inputs:
        return 1
    if jobs == 0 and len(inputs) < MANY:
        return 1
    return min(cpus(jobs), len(inputs))


def cpus(jobs: int) -> int:
    """`--jobs` as a number of processes (0: one per usable CPU); 1 where a process cannot
    fork safely (Windows, macOS)."""
    if not _FORKS:
        return 1
    return max(1, jobs or len(os.sched_getaffinity(0)))


def fan_out(work: Callable[[Any], T], inputs: Sequence[Any], jobs: int) -> Iterator[T]:
    """`work(input)` for each input, in input order, in `jobs` forked processes. An exception
    raised by `work` is raised here at its input's turn; a worker that dies (killed, out of
    memory) is one `error:` line, not a hang. However the run ends early (an error,
    a signal, a dead worker), the workers are killed: none outlives it or finishes its chunk."""
    global _WORK
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _WORK = work
    before = set(multiprocessing.active_children())
    # NOTE: what is alive now (imported code, options) is never collected; frozen, a child's
    # collections do not touch, and so copy, the pages it shares with this process.
    gc.freeze()
    pool = ProcessPoolExecutor(jobs, multiprocessing.get_context("fork"), initializer=_child)
    done = False
    try:
        # NOTE: inputs go out in chunks (up to 16, about 8 a worker at least), not one by
        # one: a task's round trip through the pool's queues is a real share of the wall time
        # of many small files.
        chunk = max(1, min(16, len(inputs) // (jobs * 8)))
        # NOTE: the workers are forked here, each with this process's handlers, which raise:
        # the signals wait until `_child` has put the defaults back (a traceback, else)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            results = pool.map(_run, inputs, chunksize=chunk)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield from results
        done = True
    except BrokenProcessPool:
        raise CatalogauditError(
            "a --jobs worker process died (killed, or out of memory); rerun with --jobs 1"
        ) from None
    finally:
        _WORK = None
        if not done:
            # NOTE: the workers' results are no longer wanted. A worker blocked writing one
            # that nobody reads would hang the shutdown (CPython 3.11 joins it after another
            # worker died). Killed, they let it return at once; a pool left running at exit
            # would race the interpreter's shutdown ("Bad file descriptor" tracebacks).
            for child in set(multiprocessing.active_children()) - before:
                child.kill()
        pool.shutdown(wait=True, cancel_futures=not done)


def _child() -> None:
    # NOTE: Ctrl-C reaches the whole process group; the parent alone answers it, and kills
    # the workers. The parent's handlers of the ending signals raise in its main thread; a
    # worker signalled alone just ends (the parent then reports a dead worker).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in _SIGNALS - {signal.SIGINT}:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
    # NOTE: reading and auditing a file makes no reference cycles (250 bench files in one
    # process: nothing left for `gc.collect()`), yet the collector's passes over the objects
    # made between them are a share of each file (bench/README.md); `_run` collects every
    # `_COLLECT_EVERY` inputs instead, so cycles some input does make are still freed.
    gc.disable()


#: Inputs a worker takes between two collections of cycles (`_child`).
_COLLECT_EVERY = 64
_done = 0


def _run(one: Any) -> Any:
    global _done
    assert _WORK is not None  # set by `fan_out` before the fork
    _done += 1
    if _done % _COLLECT_EVERY == 0:
        gc.collect()
    return _WORK(one)
